import { sql, type Kysely } from 'kysely';
import type { Engine } from '../db';

/**
 * A trader may cancel a pending money request: status '3' (Cancelled) joins '0' Pending,
 * '1' Approved and '2' Rejected in `money_requests_status_check`.
 *
 * PostgreSQL drops and adds the constraint. SQLite cannot alter a CHECK constraint, so the table
 * is rebuilt the documented way (https://www.sqlite.org/lang_altertable.html#otheralter): create
 * the new table, copy every row with its id, drop the old one, rename the new one, recreate the
 * indexes, all inside the migration's transaction. No table references `money_requests`, so
 * dropping it with foreign keys on breaks no reference, and the copied rows' own references
 * (users, payment accounts) are checked as they are inserted. The AUTOINCREMENT counter is carried
 * over so no id is ever handed out twice.
 */
export function requestCancelMigration(engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (engine === 'postgres') {
        await sql`alter table money_requests drop constraint money_requests_status_check`.execute(db);
        await sql`alter table money_requests add constraint money_requests_status_check check (status in ('0', '1', '2', '3'))`.execute(db);
        return;
      }
      await db.schema
        .createTable('money_requests_new')
        .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
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
        .addCheckConstraint('money_requests_status_check', sql`status in ('0', '1', '2', '3')`)
        .addCheckConstraint('money_requests_amount_check', sql`amount_cents > 0`)
        .execute();
      const columns = sql.raw('id, kind, user_id, payment_account_id, account_ref, amount_cents, status, created_at, decided_at, decided_by');
      await sql`insert into money_requests_new (${columns}) select ${columns} from money_requests order by id`.execute(db);
      const seq = await sql<{ seq: number }>`select seq from sqlite_sequence where name = 'money_requests'`.execute(db);
      await sql`drop table money_requests`.execute(db);
      await sql`alter table money_requests_new rename to money_requests`.execute(db);
      const last = seq.rows[0]?.seq;
      if (last !== undefined) await sql`update sqlite_sequence set seq = max(seq, ${last}) where name = 'money_requests'`.execute(db);
      await db.schema.createIndex('money_requests_user_idx').on('money_requests').columns(['user_id', 'kind', 'id']).execute();
      await db.schema.createIndex('money_requests_status_idx').on('money_requests').columns(['status', 'kind', 'id']).execute();
    },
    async down(): Promise<void> {
      throw new Error('Not reversible; restore from a backup instead.');
    },
  };
}
