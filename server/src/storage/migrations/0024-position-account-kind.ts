import { sql, type Kysely } from 'kysely';
import type { Engine } from '../db';

/**
 * Each position carries its account's kind (`account_kind`, live or demo), written with it: an
 * account's kind never changes, so the copy never goes stale. The back office's closed trades keep
 * live and demo apart by it and count a page's matches from one index
 * (`positions_kind_closed_idx`, which takes over from 0019's `positions_closed_idx`), instead of
 * joining every closed position to its account. The positions already there take their account's.
 */
export function positionAccountKindMigration(engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('positions')
        .addColumn('account_kind', 'varchar(4)', (c) => c.notNull().defaultTo('live'))
        .execute();
      await sql`update positions set account_kind = (select a.kind from trading_accounts a where a.id = positions.account_id)`.execute(db);
      // SQLite cannot add a check to an existing table; PostgreSQL holds it to the two kinds.
      if (engine === 'postgres') await sql`alter table positions add constraint positions_account_kind_check check (account_kind in ('live', 'demo'))`.execute(db);
      await db.schema.dropIndex('positions_closed_idx').execute();
      await db.schema.createIndex('positions_kind_closed_idx').on('positions').columns(['account_kind', 'status', 'closed_at', 'id']).execute();
    },
    async down(): Promise<void> {
      throw new Error('Not reversible; restore from a backup instead.');
    },
  };
}
