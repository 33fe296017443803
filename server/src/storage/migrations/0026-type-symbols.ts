import { sql, type Kysely } from 'kysely';

/**
 * An account type's terms for one instrument (`account_type_symbols`): for now a commission that
 * takes the place of the type's own on that instrument (docs/design.md#commission). One row per
 * type and symbol; a symbol without a row trades on the type's terms.
 */
export function typeSymbolsMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('account_type_symbols')
        .addColumn('account_type_id', 'integer', (c) => c.notNull().references('account_types.id'))
        .addColumn('symbol', 'varchar(20)', (c) => c.notNull())
        .addColumn('commission_basis', 'varchar(7)', (c) => c.notNull())
        .addColumn('commission_cents', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('account_type_symbols_pk', ['account_type_id', 'symbol'])
        .addCheckConstraint('account_type_symbols_commission_check', sql`commission_basis in ('lot', 'million') and commission_cents > 0`)
        .execute();
    },
    async down(): Promise<void> {
      throw new Error('Not reversible; restore from a backup instead.');
    },
  };
}
