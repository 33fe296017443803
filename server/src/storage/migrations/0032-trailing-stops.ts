import type { Kysely } from 'kysely';

/**
 * Trailing stops (docs/design.md#trailing-stops): a position's trailing distance, activation and
 * step, in whole points of its instrument. A distance of 0 means none. The stop the trailing moves
 * is the position's `stop_loss`, written with each move.
 */
export function trailingStopsMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('positions')
        .addColumn('trail_distance', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('positions')
        .addColumn('trail_activation', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('positions')
        .addColumn('trail_step', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
    async down(): Promise<void> {
      throw new Error('Not reversible; restore from a backup instead.');
    },
  };
}
