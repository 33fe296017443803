import type { Kysely } from 'kysely';
import type { Engine } from '../db';

/**
 * The tick each position opened at (bid, ask, time), as closes already record theirs, so every fill
 * can be traced to its price; and swap of a rollover that could not be priced for a position (no
 * conversion rate at that moment), kept until it can be charged.
 */
export function fillTicksMigration(engine: Engine) {
  const price = engine === 'postgres' ? 'double precision' : 'real';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('positions').addColumn('open_tick_bid', price).execute();
      await db.schema.alterTable('positions').addColumn('open_tick_ask', price).execute();
      await db.schema.alterTable('positions').addColumn('open_tick_time', 'bigint').execute();
      await db.schema
        .createTable('swap_deferred')
        .addColumn('position_id', 'integer', (c) => c.notNull().references('positions.id'))
        .addColumn('rollover_at', 'bigint', (c) => c.notNull())
        .addColumn('days', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('swap_deferred_pk', ['position_id', 'rollover_at'])
        .execute();
    },
    async down(): Promise<void> {
      throw new Error('Not reversible; restore from a backup instead.');
    },
  };
}
