import type { Kysely } from 'kysely';
import type { Engine } from '../db';

/**
 * Price alerts (docs/design.md#price-alerts): a trader's alert on a symbol's bid or ask reaching a
 * level, waiting (`active`) until it fires once (`fired`, with the price that reached it) or
 * expires (`expired`). The engine loads the waiting ones at start.
 */
export function priceAlertsMigration(engine: Engine) {
  const idType = engine === 'postgres' ? 'serial' : 'integer';
  const price = engine === 'postgres' ? 'double precision' : 'real';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('price_alerts')
        .addColumn('id', idType, (c) => (engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('symbol', 'varchar(20)', (c) => c.notNull())
        .addColumn('price_side', 'varchar(3)', (c) => c.notNull())
        .addColumn('direction', 'varchar(5)', (c) => c.notNull())
        .addColumn('level', price, (c) => c.notNull())
        .addColumn('note', 'varchar(100)', (c) => c.notNull())
        .addColumn('expires_at', 'bigint')
        .addColumn('by_mail', 'integer', (c) => c.notNull())
        .addColumn('status', 'varchar(10)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('ended_at', 'bigint')
        .addColumn('fired_price', price)
        .execute();
      await db.schema.createIndex('price_alerts_user_status_idx').on('price_alerts').columns(['user_id', 'status', 'id']).execute();
      await db.schema.createIndex('price_alerts_status_idx').on('price_alerts').columns(['status', 'id']).execute();
    },
    async down(): Promise<void> {
      throw new Error('Not reversible; restore from a backup instead.');
    },
  };
}
