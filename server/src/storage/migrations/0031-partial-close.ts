import type { Kysely } from 'kysely';

/**
 * Partial closes (docs/design.md#partial-close): the part of a position closed on its own is a
 * closed position of its own, and `part_of` names the ticket it was taken from (which stays open
 * with the rest). Null for every position that was opened, not split off. Indexed, so a ticket's
 * parts are found without a scan.
 */
export function partialCloseMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('positions')
        .addColumn('part_of', 'integer', (c) => c.references('positions.id'))
        .execute();
      await db.schema.createIndex('positions_part_of_idx').on('positions').column('part_of').execute();
    },
    async down(): Promise<void> {
      throw new Error('Not reversible; restore from a backup instead.');
    },
  };
}
