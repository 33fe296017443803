import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';
import { randomInt } from 'node:crypto';
import { drawAccountNumber } from '../../domain/account-number';
import type { Engine } from '../db';

/** The tables that hold one trading account's records, each given the account it belongs to. */
const ACCOUNT_TABLES = ['positions', 'orders', 'ledger_entries', 'money_requests', 'balance_operations'] as const;

/**
 * Indexes of a trader's own reads, now made per trading account: the same columns as the user's
 * indexes they stand beside (0003, 0007, 0009, 0014, 0015, 0019), led by the account. The user's
 * indexes stay for the back office's lists of a trader (all of their accounts).
 */
const INDEXES: [name: string, table: string, columns: string[]][] = [
  ['positions_account_status_idx', 'positions', ['account_id', 'status', 'id']],
  ['positions_account_closed_idx', 'positions', ['account_id', 'status', 'closed_at', 'id']],
  ['positions_account_opened_idx', 'positions', ['account_id', 'opened_at', 'id']],
  ['orders_account_status_idx', 'orders', ['account_id', 'status', 'id']],
  ['orders_account_created_idx', 'orders', ['account_id', 'created_at', 'id']],
  ['orders_account_updated_idx', 'orders', ['account_id', 'updated_at', 'id']],
  ['orders_account_idx', 'orders', ['account_id', 'id']],
  ['ledger_entries_account_idx', 'ledger_entries', ['account_id', 'id']],
  ['ledger_entries_account_created_idx', 'ledger_entries', ['account_id', 'created_at', 'id']],
  ['money_requests_account_idx', 'money_requests', ['account_id', 'kind', 'id']],
  ['balance_operations_account_idx', 'balance_operations', ['account_id', 'id']],
];

/**
 * Trading accounts (docs/design.md#trading-accounts): a person (`users`) holds one or more trading
 * accounts, each with its own number, kind (live or demo), currency, leverage, balance and credit,
 * and its own positions, orders, ledger, money requests and balance operations.
 *
 * Every trader, and any other user holding money or records, becomes the holder of one live
 * account with the balance, credit and leverage their user row had, and every record of theirs
 * is given that account. The user row then loses those three columns: an account's money has one
 * home, the account. Transfers between a person's live accounts get their table.
 */
export function tradingAccountsMigration(engine: Engine) {
  const idType = engine === 'postgres' ? 'serial' : 'integer';
  const id = (col: ColumnDefinitionBuilder) => (engine === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement());
  /** The whole migration; on SQLite in a transaction of its own (its DDL is transactional, and the migrator opens none there), so a failure leaves the schema as it was. */
  const run = async (db: Kysely<unknown>): Promise<void> => {
      await db.schema
        .createTable('trading_accounts')
        .addColumn('id', idType, id)
        .addColumn('number', 'integer', (c) => c.notNull().unique())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('kind', 'varchar(4)', (c) => c.notNull())
        .addColumn('currency', 'varchar(3)', (c) => c.notNull())
        .addColumn('leverage', 'integer', (c) => c.notNull())
        .addColumn('balance_cents', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('credit_cents', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('state', 'varchar(10)', (c) => c.notNull())
        // A demo account's virtual balance at opening, which a reset returns it to; null for live.
        .addColumn('initial_balance_cents', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addCheckConstraint('trading_accounts_kind_check', sql`kind in ('live', 'demo')`)
        .addCheckConstraint('trading_accounts_state_check', sql`state in ('active', 'close-only', 'disabled')`)
        .execute();
      await db.schema.createIndex('trading_accounts_user_idx').on('trading_accounts').columns(['user_id', 'id']).execute();

      type Holder = { id: number; leverage: number; balance_cents: number | string; credit_cents: number | string; created_at: number | string };
      const { rows: holders } = await sql<Holder>`
        select u.id, u.leverage, u.balance_cents, u.credit_cents, u.created_at from users u
        where u.role = 'trader' or u.balance_cents <> 0 or u.credit_cents <> 0
          or exists (select 1 from ledger_entries l where l.user_id = u.id)
          or exists (select 1 from positions p where p.user_id = u.id)
          or exists (select 1 from orders o where o.user_id = u.id)
          or exists (select 1 from money_requests r where r.user_id = u.id)
          or exists (select 1 from balance_operations b where b.user_id = u.id)
        order by u.id`.execute(db);
      const numbers = new Set<number>();
      for (const h of holders) {
        let number = drawAccountNumber(randomInt);
        while (numbers.has(number)) number = drawAccountNumber(randomInt);
        numbers.add(number);
        await sql`insert into trading_accounts (number, user_id, kind, currency, leverage, balance_cents, credit_cents, state, initial_balance_cents, created_at, updated_at)
          values (${number}, ${h.id}, 'live', 'USD', ${h.leverage}, ${h.balance_cents}, ${h.credit_cents}, 'active', null, ${h.created_at}, ${h.created_at})`.execute(db);
      }

      for (const table of ACCOUNT_TABLES) {
        await db.schema.alterTable(table).addColumn('account_id', 'integer', (c) => c.references('trading_accounts.id')).execute();
        await sql`update ${sql.table(table)} set account_id = (select a.id from trading_accounts a where a.user_id = ${sql.ref(`${table}.user_id`)})`.execute(db);
        if (engine === 'postgres') await sql`alter table ${sql.table(table)} alter column account_id set not null`.execute(db);
      }
      for (const [name, table, columns] of INDEXES) await db.schema.createIndex(name).on(table).columns(columns).execute();

      for (const column of ['leverage', 'balance_cents', 'credit_cents']) await db.schema.alterTable('users').dropColumn(column).execute();

      // Money moved between two live accounts of one person; each side has its ledger entry.
      await db.schema
        .createTable('transfers')
        .addColumn('id', idType, id)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('from_account_id', 'integer', (c) => c.notNull().references('trading_accounts.id'))
        .addColumn('to_account_id', 'integer', (c) => c.notNull().references('trading_accounts.id'))
        .addColumn('amount_cents', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addCheckConstraint('transfers_amount_check', sql`amount_cents > 0`)
        .addCheckConstraint('transfers_accounts_check', sql`from_account_id <> to_account_id`)
        .execute();
      await db.schema.createIndex('transfers_user_idx').on('transfers').columns(['user_id', 'id']).execute();
  };
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (engine === 'sqlite') await db.transaction().execute(run);
      else await run(db);
    },
    async down(): Promise<void> {
      throw new Error('Not reversible; restore from a backup instead.');
    },
  };
}
