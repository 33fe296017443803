import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';
import type { Engine } from '../db';

/**
 * The back office's money tools:
 * - `balance_operations`: an administrator's manual balance adjustment or credit (bonus) operation,
 *   signed, with the reason the trader is shown. Each has exactly one ledger entry (kind
 *   `adjustment` or `credit`, ref `balance_operation`/id), written in the same transaction.
 * - `money_requests.reject_reason`: why a request was rejected, shown to the trader (null when no
 *   reason was given, and for every request decided before this migration).
 * - `money_request_notes`: administrators' internal notes on a request, never shown to traders.
 *
 * Adding a nullable column is plain `alter table … add column` on both engines; no rebuild.
 */
export function adjustmentsCreditNotesMigration(engine: Engine) {
  const idType = engine === 'postgres' ? 'serial' : 'integer';
  const id = (col: ColumnDefinitionBuilder) => (engine === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement());
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('money_requests').addColumn('reject_reason', 'varchar(300)').execute();

      await db.schema
        .createTable('balance_operations')
        .addColumn('id', idType, id)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('amount_cents', 'bigint', (c) => c.notNull())
        .addColumn('reason', 'varchar(200)', (c) => c.notNull())
        .addColumn('created_by', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addCheckConstraint('balance_operations_kind_check', sql`kind in ('adjustment', 'credit')`)
        .addCheckConstraint('balance_operations_amount_check', sql`amount_cents <> 0`)
        .execute();
      await db.schema.createIndex('balance_operations_user_idx').on('balance_operations').columns(['user_id', 'id']).execute();

      await db.schema
        .createTable('money_request_notes')
        .addColumn('id', idType, id)
        .addColumn('request_id', 'integer', (c) => c.notNull().references('money_requests.id'))
        .addColumn('author_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('note', 'varchar(500)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('money_request_notes_request_idx').on('money_request_notes').columns(['request_id', 'id']).execute();
    },
    async down(): Promise<void> {
      throw new Error('Not reversible; restore from a backup instead.');
    },
  };
}
