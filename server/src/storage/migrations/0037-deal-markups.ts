import type { Kysely } from 'kysely';
import type { Engine } from '../db';

/**
 * The spread markup each deal earned the broker (docs/design.md#spread-markup): one row per open
 * and per close (a partial close is a close of its part), written in the deal's transaction, with
 * the account type the account had then. The broker's reports sum it per day and type.
 */
export function dealMarkupsMigration(engine: Engine) {
  const idType = engine === 'postgres' ? 'serial' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('deal_markups')
        .addColumn('id', idType, (c) => (engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('position_id', 'integer', (c) => c.notNull().references('positions.id'))
        .addColumn('account_id', 'integer', (c) => c.notNull().references('trading_accounts.id'))
        .addColumn('account_type_id', 'integer', (c) => c.notNull().references('account_types.id'))
        .addColumn('deal', 'varchar(5)', (c) => c.notNull())
        .addColumn('symbol', 'varchar(20)', (c) => c.notNull())
        .addColumn('points', 'integer', (c) => c.notNull())
        .addColumn('volume', engine === 'postgres' ? 'double precision' : 'real', (c) => c.notNull())
        .addColumn('cents', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('deal_markups_time_idx').on('deal_markups').columns(['created_at']).execute();
    },
    async down(): Promise<void> {
      throw new Error('Not reversible; restore from a backup instead.');
    },
  };
}
