import type { Kysely } from 'kysely';
import type { Engine } from '../db';

/**
 * An instrument's margin rate (docs/design.md#margin): the margin of a position in it is its
 * notional at the account's leverage times this rate. 1 (the margin as before) for every
 * instrument until the back office sets another.
 */
export function marginRateMigration(engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('instruments')
        .addColumn('margin_rate', engine === 'postgres' ? 'double precision' : 'real', (c) => c.notNull().defaultTo(1))
        .execute();
    },
    async down(): Promise<void> {
      throw new Error('Not reversible; restore from a backup instead.');
    },
  };
}
