import { sql, type Kysely } from 'kysely';
import { nameSortKey } from '../../domain/sort-key';
import type { Engine } from '../db';

/**
 * `users.sort_name`: the key the back office's users table is ordered by when sorted by name
 * (`domain/sort-key.ts`), written with the name, and an index that ends in that order, so a page
 * of users by name reads its own rows instead of every user's name. The keys of existing users are
 * computed here. On PostgreSQL the index compares the keys code point by code point (`collate
 * "C"`), as SQLite does and as the list's statement asks.
 */
export function nameSortKeysMigration(engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      const users = db as unknown as Kysely<{ users: { id: number; first_name: string; last_name: string; sort_name: string } }>;
      await db.schema.alterTable('users').addColumn('sort_name', 'varchar(120)', (c) => c.notNull().defaultTo('')).execute();
      const rows = await users.selectFrom('users').select(['id', 'first_name', 'last_name']).execute();
      for (const r of rows) await users.updateTable('users').set({ sort_name: nameSortKey(r.first_name, r.last_name) }).where('id', '=', r.id).execute();
      if (engine === 'postgres') await sql`create index users_sort_name_idx on users (sort_name collate "C", id)`.execute(db);
      else await db.schema.createIndex('users_sort_name_idx').on('users').columns(['sort_name', 'id']).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex('users_sort_name_idx').execute();
      await db.schema.alterTable('users').dropColumn('sort_name').execute();
    },
  };
}
