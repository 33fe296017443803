import type { Kysely } from 'kysely';
import type { Engine } from '../db';

/**
 * The trading terminal: each user's terminal settings (one-click trading, hotkeys; a user without a
 * row has both off), and the indexes the paged history reads walk in order — closed positions by
 * close time and orders by creation time, each newest first with the id breaking ties.
 */
export function terminalMigration(engine: Engine) {
  const flag = engine === 'postgres' ? 'smallint' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('terminal_settings')
        .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id'))
        .addColumn('one_click_trading', flag, (c) => c.notNull().defaultTo(0))
        .addColumn('hotkeys', flag, (c) => c.notNull().defaultTo(0))
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('positions_user_closed_idx').on('positions').columns(['user_id', 'status', 'closed_at', 'id']).execute();
      await db.schema.createIndex('orders_user_created_idx').on('orders').columns(['user_id', 'created_at', 'id']).execute();
    },
    async down(): Promise<void> {
      throw new Error('Not reversible; restore from a backup instead.');
    },
  };
}
