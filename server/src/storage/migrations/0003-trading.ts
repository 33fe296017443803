import type { Kysely } from 'kysely';
import type { Engine } from '../db';

/** Positions: open and closed, with why and at what tick each closed. Money in cents, prices at digits. */
export function tradingMigration(engine: Engine) {
  const idType = engine === 'postgres' ? 'serial' : 'integer';
  const price = engine === 'postgres' ? 'double precision' : 'real';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('positions')
        .addColumn('id', idType, (c) => (engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('symbol', 'varchar(20)', (c) => c.notNull())
        .addColumn('side', 'varchar(4)', (c) => c.notNull())
        .addColumn('volume', price, (c) => c.notNull())
        .addColumn('open_price', price, (c) => c.notNull())
        .addColumn('stop_loss', price, (c) => c.notNull())
        .addColumn('take_profit', price, (c) => c.notNull())
        .addColumn('comment', 'varchar(100)', (c) => c.notNull())
        .addColumn('opened_at', 'bigint', (c) => c.notNull())
        .addColumn('swap_cents', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('status', 'varchar(6)', (c) => c.notNull())
        .addColumn('close_price', price)
        .addColumn('closed_at', 'bigint')
        .addColumn('close_reason', 'varchar(10)')
        .addColumn('close_tick_bid', price)
        .addColumn('close_tick_ask', price)
        .addColumn('close_tick_time', 'bigint')
        .addColumn('profit_cents', 'bigint')
        .addColumn('closed_by', 'integer', (c) => c.references('users.id'))
        .execute();
      await db.schema.createIndex('positions_user_status_idx').on('positions').columns(['user_id', 'status', 'id']).execute();
      await db.schema.createIndex('positions_status_idx').on('positions').columns(['status', 'id']).execute();
      await db.schema
        .createTable('orders')
        .addColumn('id', idType, (c) => (engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('symbol', 'varchar(20)', (c) => c.notNull())
        .addColumn('type', 'varchar(16)', (c) => c.notNull())
        .addColumn('volume', price, (c) => c.notNull())
        .addColumn('price', price, (c) => c.notNull())
        .addColumn('stop_limit_price', price, (c) => c.notNull())
        .addColumn('stop_triggered', 'integer', (c) => c.notNull())
        .addColumn('stop_loss', price, (c) => c.notNull())
        .addColumn('take_profit', price, (c) => c.notNull())
        .addColumn('comment', 'varchar(100)', (c) => c.notNull())
        .addColumn('expires_at', 'bigint')
        .addColumn('status', 'varchar(10)', (c) => c.notNull())
        .addColumn('reason', 'varchar(200)', (c) => c.notNull())
        .addColumn('position_id', 'integer')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('orders_user_status_idx').on('orders').columns(['user_id', 'status', 'id']).execute();
      await db.schema.createIndex('orders_status_idx').on('orders').columns(['status', 'id']).execute();
      // One row per daily rollover applied: the primary key makes charging swap twice impossible.
      await db.schema
        .createTable('swap_rollovers')
        .addColumn('at', 'bigint', (c) => c.primaryKey())
        .addColumn('positions', 'integer', (c) => c.notNull())
        .addColumn('applied_at', 'bigint', (c) => c.notNull())
        .execute();
    },
    async down(): Promise<void> {
      throw new Error('Not reversible; restore from a backup instead.');
    },
  };
}
