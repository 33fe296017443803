import type { Kysely } from 'kysely';

/**
 * A trailing stop on a pending order (docs/design.md#trailing-stops): its distance, activation and
 * step in whole points, as on a position (0: none), given to the position the order opens.
 */
export function pendingTrailingMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      for (const column of ['trail_distance', 'trail_activation', 'trail_step']) {
        await db.schema
          .alterTable('orders')
          .addColumn(column, 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
      }
    },
    async down(): Promise<void> {
      throw new Error('Not reversible; restore from a backup instead.');
    },
  };
}
