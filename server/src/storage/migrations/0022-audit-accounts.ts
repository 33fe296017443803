import { sql, type Kysely } from 'kysely';
import type { Engine } from '../db';

/**
 * The audit log names the trading account an action was about (`subject_account_id`) beside the
 * person (0018): the account of the position, order or money request; the account itself; the
 * account a balance operation changed. It is written with each entry (services/audit.ts); the
 * entries already there are filled in here from their targets. Entries about a person as a whole
 * (their status, their password) and about payment accounts have none.
 */
export function auditAccountsMigration(engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('audit_log').addColumn('subject_account_id', 'integer', (c) => c.references('trading_accounts.id')).execute();
      // As in 0018: an id the server did not write (not decimal digits) names no account.
      const digits = engine === 'postgres' ? sql`audit_log.target_id ~ '^[0-9]{1,10}$'` : sql`audit_log.target_id not glob '*[^0-9]*' and length(audit_log.target_id) between 1 and 10`;
      const accounts = [
        ['position', sql`select p.account_id from positions p`, sql`p.id`],
        ['order', sql`select o.account_id from orders o`, sql`o.id`],
        ['money_request', sql`select r.account_id from money_requests r`, sql`r.id`],
        ['trading_account', sql`select a.id from trading_accounts a`, sql`a.id`],
      ] as const;
      for (const [type, account, id] of accounts) {
        await sql`update audit_log set subject_account_id = (${account} where ${id} = cast(audit_log.target_id as bigint)) where target_type = ${type} and ${digits}`.execute(db);
      }
      // A balance operation's entry names the operation in its "after" state.
      const operation = engine === 'postgres' ? sql`(audit_log.after_json::jsonb ->> 'operation')` : sql`json_extract(audit_log.after_json, '$.operation')`;
      await sql`update audit_log set subject_account_id = (select o.account_id from balance_operations o where cast(o.id as text) = cast(${operation} as text))
        where action in ('balance.adjust', 'credit.adjust')`.execute(db);
    },
    async down(): Promise<void> {
      throw new Error('Not reversible; restore from a backup instead.');
    },
  };
}
