import type { Kysely } from 'kysely';

/**
 * An account type's own spread markup on an instrument (docs/design.md#spread-markup): whole
 * points added to the raw spread in place of the catalogue's. One row per type and symbol; a
 * symbol without a row keeps the catalogue's markup.
 */
export function typeMarkupsMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('account_type_markups')
        .addColumn('account_type_id', 'integer', (c) => c.notNull().references('account_types.id'))
        .addColumn('symbol', 'varchar(20)', (c) => c.notNull())
        .addColumn('points', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('account_type_markups_pk', ['account_type_id', 'symbol'])
        .execute();
    },
    async down(): Promise<void> {
      throw new Error('Not reversible; restore from a backup instead.');
    },
  };
}
