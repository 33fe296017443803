import type { Kysely } from 'kysely';
import type { Engine } from '../db';

/**
 * The price table: each user's favourite symbols (the Favourites category, kept in the order they
 * were added by `position`), and two more terminal settings, the optional change and spread columns
 * (off, 0, for every user who has a settings row already, as for one who has none).
 */
export function priceTableMigration(engine: Engine) {
  const flag = engine === 'postgres' ? 'smallint' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('favourite_symbols')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('symbol', engine === 'postgres' ? 'varchar(20)' : 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('added_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('favourite_symbols_pk', ['user_id', 'symbol'])
        .execute();
      await db.schema.alterTable('terminal_settings').addColumn('change_column', flag, (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('terminal_settings').addColumn('spread_column', flag, (c) => c.notNull().defaultTo(0)).execute();
    },
    async down(): Promise<void> {
      throw new Error('Not reversible; restore from a backup instead.');
    },
  };
}
