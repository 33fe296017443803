import type { Kysely } from 'kysely';
import type { Engine } from '../db';

/** Market data: the instrument catalogue, persisted candles and the last quote of each symbol. */
export function marketMigration(engine: Engine) {
  const idType = engine === 'postgres' ? 'serial' : 'integer';
  const price = engine === 'postgres' ? 'double precision' : 'real';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('instruments')
        .addColumn('id', idType, (c) => (engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('symbol', 'varchar(20)', (c) => c.notNull().unique())
        .addColumn('description', 'varchar(100)', (c) => c.notNull())
        .addColumn('group_name', 'varchar(10)', (c) => c.notNull())
        .addColumn('base_currency', 'varchar(10)', (c) => c.notNull())
        .addColumn('quote_currency', 'varchar(10)', (c) => c.notNull())
        .addColumn('digits', 'integer', (c) => c.notNull())
        .addColumn('contract_size', price, (c) => c.notNull())
        .addColumn('volume_min', price, (c) => c.notNull())
        .addColumn('volume_step', price, (c) => c.notNull())
        .addColumn('volume_max', price, (c) => c.notNull())
        .addColumn('calc_mode', 'varchar(10)', (c) => c.notNull())
        .addColumn('sessions_json', 'text', (c) => c.notNull())
        .addColumn('swap_long', price, (c) => c.notNull())
        .addColumn('swap_short', price, (c) => c.notNull())
        .addColumn('spread_markup', 'integer', (c) => c.notNull())
        .addColumn('sim_json', 'text', (c) => c.notNull())
        .addColumn('feeds_json', 'text', (c) => c.notNull())
        .addColumn('sort_order', 'integer', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('candles')
        .addColumn('symbol', 'varchar(20)', (c) => c.notNull())
        .addColumn('period', 'varchar(3)', (c) => c.notNull())
        .addColumn('time', 'bigint', (c) => c.notNull())
        .addColumn('open', price, (c) => c.notNull())
        .addColumn('high', price, (c) => c.notNull())
        .addColumn('low', price, (c) => c.notNull())
        .addColumn('close', price, (c) => c.notNull())
        .addColumn('volume', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('candles_pk', ['symbol', 'period', 'time'])
        .execute();

      await db.schema
        .createTable('last_quotes')
        .addColumn('symbol', 'varchar(20)', (c) => c.primaryKey())
        .addColumn('bid', price, (c) => c.notNull())
        .addColumn('ask', price, (c) => c.notNull())
        .addColumn('time', 'bigint', (c) => c.notNull())
        .execute();
    },
    async down(): Promise<void> {
      throw new Error('Not reversible; restore from a backup instead.');
    },
  };
}
