import type { Kysely } from 'kysely';

/**
 * The instruments an account type may trade (docs/design.md#account-types): those listed for it in
 * `account_type_instruments`, or, with none listed (what existing types have, so nothing changes),
 * every instrument of the catalogue. Positions held in an instrument a type no longer offers can
 * still be closed, as on a close-only account.
 */
export function typeInstrumentsMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('account_type_instruments')
        .addColumn('account_type_id', 'integer', (c) => c.notNull().references('account_types.id'))
        .addColumn('symbol', 'varchar(20)', (c) => c.notNull())
        .addPrimaryKeyConstraint('account_type_instruments_pk', ['account_type_id', 'symbol'])
        .execute();
    },
    async down(): Promise<void> {
      throw new Error('Not reversible; restore from a backup instead.');
    },
  };
}
