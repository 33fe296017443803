import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';
import type { Engine } from '../db';

/**
 * The initial schema. One set of migrations serves both engines; the only difference is how an
 * auto-incrementing key is spelled. Money is integer cents, times are epoch milliseconds.
 */
export function initialMigration(engine: Engine) {
  const idType = engine === 'postgres' ? 'serial' : 'integer';
  const id = (col: ColumnDefinitionBuilder) => (engine === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement());

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('countries')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('code', 'varchar(2)', (c) => c.notNull().unique())
        .execute();

      await db.schema
        .createTable('users')
        .addColumn('id', idType, id)
        .addColumn('email', 'varchar(254)', (c) => c.notNull().unique())
        .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
        .addColumn('first_name', 'varchar(50)', (c) => c.notNull())
        .addColumn('last_name', 'varchar(50)', (c) => c.notNull())
        .addColumn('phone_no', 'varchar(20)', (c) => c.notNull())
        .addColumn('country_id', 'integer', (c) => c.references('countries.id'))
        .addColumn('date_of_birth', 'varchar(10)', (c) => c.notNull().defaultTo(''))
        .addColumn('nationality', 'varchar(60)', (c) => c.notNull().defaultTo(''))
        .addColumn('role', 'varchar(10)', (c) => c.notNull())
        .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('is_reserved', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('leverage', 'integer', (c) => c.notNull())
        .addColumn('balance_cents', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('credit_cents', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('last_seen_at', 'bigint')
        .addCheckConstraint('users_role_check', sql`role in ('trader', 'admin')`)
        .execute();

      await db.schema
        .createTable('sessions')
        .addColumn('id_hash', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('persistent', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('ip', 'varchar(64)', (c) => c.notNull())
        .addColumn('user_agent', 'varchar(300)', (c) => c.notNull())
        .addColumn('revoked_at', 'bigint')
        .execute();
      await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();

      await db.schema
        .createTable('login_throttle')
        .addColumn('email', 'varchar(254)', (c) => c.primaryKey())
        .addColumn('failures', 'integer', (c) => c.notNull())
        .addColumn('locked_until', 'bigint')
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('payment_accounts')
        .addColumn('id', idType, id)
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('number', 'varchar(64)', (c) => c.notNull())
        .addColumn('more_info', 'varchar(500)', (c) => c.notNull())
        .addColumn('is_active', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('created_by', 'integer', (c) => c.references('users.id'))
        .execute();

      await db.schema
        .createTable('money_requests')
        .addColumn('id', idType, id)
        .addColumn('kind', 'varchar(10)', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('payment_account_id', 'integer', (c) => c.references('payment_accounts.id'))
        .addColumn('account_ref', 'varchar(64)', (c) => c.notNull())
        .addColumn('amount_cents', 'bigint', (c) => c.notNull())
        .addColumn('status', 'varchar(1)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('decided_at', 'bigint')
        .addColumn('decided_by', 'integer', (c) => c.references('users.id'))
        .addCheckConstraint('money_requests_kind_check', sql`kind in ('deposit', 'withdrawal')`)
        .addCheckConstraint('money_requests_status_check', sql`status in ('0', '1', '2')`)
        .addCheckConstraint('money_requests_amount_check', sql`amount_cents > 0`)
        .execute();
      await db.schema.createIndex('money_requests_user_idx').on('money_requests').columns(['user_id', 'kind', 'id']).execute();
      await db.schema.createIndex('money_requests_status_idx').on('money_requests').columns(['status', 'kind', 'id']).execute();

      await db.schema
        .createTable('ledger_entries')
        .addColumn('id', idType, id)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('amount_cents', 'bigint', (c) => c.notNull())
        .addColumn('balance_after_cents', 'bigint', (c) => c.notNull())
        .addColumn('ref_type', 'varchar(32)', (c) => c.notNull())
        .addColumn('ref_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('memo', 'varchar(200)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        // The last line of defence for "money moves once": one posting per kind and cause.
        .addUniqueConstraint('ledger_entries_once', ['kind', 'ref_type', 'ref_id'])
        .execute();
      await db.schema.createIndex('ledger_entries_user_idx').on('ledger_entries').columns(['user_id', 'id']).execute();

      await db.schema
        .createTable('activity_log')
        .addColumn('id', idType, id)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('kind', 'varchar(40)', (c) => c.notNull())
        .addColumn('details', 'varchar(300)', (c) => c.notNull())
        .addColumn('status', 'varchar(20)', (c) => c.notNull())
        .addColumn('ip', 'varchar(64)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('activity_log_user_idx').on('activity_log').columns(['user_id', 'id']).execute();

      await db.schema
        .createTable('audit_log')
        .addColumn('id', idType, id)
        .addColumn('actor_id', 'integer', (c) => c.references('users.id'))
        .addColumn('action', 'varchar(60)', (c) => c.notNull())
        .addColumn('target_type', 'varchar(40)', (c) => c.notNull())
        .addColumn('target_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('before_json', 'text', (c) => c.notNull())
        .addColumn('after_json', 'text', (c) => c.notNull())
        .addColumn('ip', 'varchar(64)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('idempotency_keys')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('key', 'varchar(128)', (c) => c.notNull())
        .addColumn('route', 'varchar(100)', (c) => c.notNull())
        .addColumn('request_hash', 'varchar(64)', (c) => c.notNull())
        .addColumn('response_body', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['user_id', 'key'])
        .execute();
    },
    async down(): Promise<void> {
      throw new Error('The initial migration is not reversible; restore from a backup instead.');
    },
  };
}
