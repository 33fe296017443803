import type { Kysely } from 'kysely';
import type { Engine } from '../db';

/**
 * An account type's own swaps on an instrument (docs/design.md#account-types): long and short, in
 * points per lot a day as the catalogue has them, charged at the rollover in place of the
 * catalogue's. One row per type and symbol; a symbol without a row keeps the catalogue's swaps.
 */
export function typeSwapsMigration(engine: Engine) {
  const points = engine === 'postgres' ? 'double precision' : 'real';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('account_type_swaps')
        .addColumn('account_type_id', 'integer', (c) => c.notNull().references('account_types.id'))
        .addColumn('symbol', 'varchar(20)', (c) => c.notNull())
        .addColumn('swap_long', points, (c) => c.notNull())
        .addColumn('swap_short', points, (c) => c.notNull())
        .addPrimaryKeyConstraint('account_type_swaps_pk', ['account_type_id', 'symbol'])
        .execute();
    },
    async down(): Promise<void> {
      throw new Error('Not reversible; restore from a backup instead.');
    },
  };
}
