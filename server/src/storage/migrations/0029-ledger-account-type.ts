import { sql, type Kysely } from 'kysely';

/**
 * The broker's reports (docs/design.md#broker-reports) sum the ledger per day and per account type:
 * each entry now keeps the type its account had when it was posted (`account_type_id`), so a move
 * to another type later does not move the money already earned. Entries posted before this take
 * their account's type now. `ledger_entries_created_idx` serves the reports' date ranges.
 */
export function ledgerAccountTypeMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('ledger_entries')
        .addColumn('account_type_id', 'integer', (c) => c.references('account_types.id'))
        .execute();
      await sql`update ledger_entries set account_type_id = (select a.account_type_id from trading_accounts a where a.id = ledger_entries.account_id)`.execute(db);
      await db.schema.createIndex('ledger_entries_created_idx').on('ledger_entries').columns(['created_at', 'account_type_id', 'kind']).execute();
      await db.schema.createIndex('trading_accounts_created_idx').on('trading_accounts').columns(['created_at']).execute();
    },
    async down(): Promise<void> {
      throw new Error('Not reversible; restore from a backup instead.');
    },
  };
}
