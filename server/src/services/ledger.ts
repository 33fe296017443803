import { sql, type RawBuilder } from 'kysely';
import type { Cents } from '../domain/money';
import type { Db, Tx } from '../storage/db';
import type { LedgerKind } from '../storage/schema';
import { prepared } from '../storage/prepared';

/**
 * The ledger: every change of a trading account's balance is one entry, written in the caller's
 * transaction together with the change itself. `trading_accounts.balance_cents` / `credit_cents`
 * are a running total kept in the same statement order, so a balance always equals the sum of its
 * entries (see `findLedgerMismatches`). Credit entries move the credit bucket; every other kind
 * moves the balance. Each entry names its account and the account's holder.
 */
export interface Posting {
  accountId: number;
  /** The account's holder (entries are also listed per person). */
  userId: number;
  kind: LedgerKind;
  /** Signed: positive credits the account, negative debits it. Never zero. */
  amountCents: Cents;
  refType: string;
  refId: string | number;
  memo: string;
  at: number;
  /** Refuse the posting when the bucket would end below this amount (e.g. 0 for a withdrawal). */
  floorCents?: Cents;
}

export interface PostedBalance {
  balanceCents: Cents;
  creditCents: Cents;
}

/** Posts one entry. Returns null, and changes nothing, when the floor would be broken. */
export async function postToLedger(trx: Tx, p: Posting): Promise<PostedBalance | null> {
  if (!Number.isSafeInteger(p.amountCents) || p.amountCents === 0) throw new RangeError(`invalid posting amount: ${p.amountCents}`);
  const column = p.kind === 'credit' ? 'credit_cents' : 'balance_cents';
  let update = trx
    .updateTable('trading_accounts')
    .set({ [column]: sql`${sql.ref(column)} + ${p.amountCents}` })
    .where('id', '=', p.accountId)
    .where('user_id', '=', p.userId);
  if (p.floorCents !== undefined) update = update.where(sql<boolean>`${sql.ref(column)} + ${p.amountCents} >= ${p.floorCents}`);
  const row = await update.returning(['balance_cents', 'credit_cents']).executeTakeFirst();
  if (!row) return null;
  await trx
    .insertInto('ledger_entries')
    .values({
      user_id: p.userId,
      account_id: p.accountId,
      kind: p.kind,
      amount_cents: p.amountCents,
      balance_after_cents: p.kind === 'credit' ? row.credit_cents : row.balance_cents,
      ref_type: p.refType,
      ref_id: String(p.refId),
      memo: p.memo.slice(0, 200),
      created_at: p.at,
      // The type the account has now, in this transaction: what the broker's reports sum it under.
      account_type_id: sql<number>`(select a.account_type_id from trading_accounts a where a.id = ${p.accountId})`,
    })
    .execute();
  return { balanceCents: row.balance_cents, creditCents: row.credit_cents };
}

/**
 * Takes the trading account's row lock for the rest of the transaction (PostgreSQL `FOR UPDATE`):
 * what changes its money or positions runs one at a time. SQLite needs none: it runs one write
 * transaction at a time on the single connection.
 */
export async function lockAccount(ctx: { engine: 'sqlite' | 'postgres' }, trx: Tx, accountId: number): Promise<void> {
  if (ctx.engine === 'postgres') await trx.selectFrom('trading_accounts').select('id').where('id', '=', accountId).forUpdate().execute();
}

/** The same for a person's own records (favourites, a request's notes): their user row's lock. */
export async function lockUser(ctx: { engine: 'sqlite' | 'postgres' }, trx: Tx, userId: number): Promise<void> {
  if (ctx.engine === 'postgres') await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
}

export interface AccountTotals {
  balanceCents: Cents;
  creditCents: Cents;
  depositsCents: Cents;
  withdrawalsCents: Cents;
}

export const emptyTotals = (): AccountTotals => ({ balanceCents: 0, creditCents: 0, depositsCents: 0, withdrawalsCents: 0 });

/**
 * The sum of the outer query's user's (`users as u`) ledger entries matching `kinds`, on their live
 * accounts only: demo money never counts in a person's totals.
 */
const ledgerSum = (kinds: RawBuilder<unknown>) =>
  sql<number>`(select cast(coalesce(sum(l.amount_cents), 0) as bigint) from ledger_entries l join trading_accounts a on a.id = l.account_id where l.user_id = u.id and a.kind = 'live' and ${kinds})`;

/**
 * A user's totals from the ledger of their live accounts as four columns of a query over
 * `users as u`, so a read that shows a user's row with their totals is one statement;
 * `totalsOfColumns` reads them back.
 */
export const ledgerTotalColumns = [
  ledgerSum(sql`l.kind <> 'credit'`).as('balance_cents'),
  ledgerSum(sql`l.kind = 'credit'`).as('credit_cents'),
  ledgerSum(sql`l.kind = 'deposit'`).as('deposits_cents'),
  sql<number>`0 - ${ledgerSum(sql`l.kind = 'withdrawal'`)}`.as('withdrawals_cents'),
] as const;

export function totalsOfColumns(r: { balance_cents: number; credit_cents: number; deposits_cents: number; withdrawals_cents: number }): AccountTotals {
  return { balanceCents: Number(r.balance_cents), creditCents: Number(r.credit_cents), depositsCents: Number(r.deposits_cents), withdrawalsCents: Number(r.withdrawals_cents) };
}

function addToTotals(t: AccountTotals, kind: string, amount: number): void {
  if (kind === 'credit') t.creditCents += amount;
  else t.balanceCents += amount;
  if (kind === 'deposit') t.depositsCents += amount;
  if (kind === 'withdrawal') t.withdrawalsCents -= amount;
}

/** Every trading account's ledger sums by kind. */
const totalsOfAll = prepared((db) => db.selectFrom('ledger_entries').select(['account_id', 'kind', sql<number>`cast(sum(amount_cents) as bigint)`.as('total')]).groupBy(['account_id', 'kind']));

/** Each trading account's totals from its ledger entries, by account id. */
export async function ledgerTotals(db: Db | Tx): Promise<Map<number, AccountTotals>> {
  const totals = new Map<number, AccountTotals>();
  for (const row of await totalsOfAll.all(db, {})) {
    const t = totals.get(row.account_id) ?? emptyTotals();
    addToTotals(t, row.kind, Number(row.total));
    totals.set(row.account_id, t);
  }
  return totals;
}

export interface LedgerMismatch {
  accountId: number;
  userId: number;
  balanceCents: Cents;
  ledgerBalanceCents: Cents;
  creditCents: Cents;
  ledgerCreditCents: Cents;
}

const accountBalances = (db: Db | Tx) => db.selectFrom('trading_accounts').select(['id', 'user_id', 'balance_cents', 'credit_cents']).orderBy('id').execute();

function mismatchesOf(accounts: Awaited<ReturnType<typeof accountBalances>>, totals: Map<number, AccountTotals>): LedgerMismatch[] {
  const mismatches: LedgerMismatch[] = [];
  for (const a of accounts) {
    const t = totals.get(a.id) ?? emptyTotals();
    const balanceCents = Number(a.balance_cents);
    const creditCents = Number(a.credit_cents);
    if (t.balanceCents !== balanceCents || t.creditCents !== creditCents) {
      mismatches.push({ accountId: a.id, userId: a.user_id, balanceCents, ledgerBalanceCents: t.balanceCents, creditCents, ledgerCreditCents: t.creditCents });
    }
  }
  return mismatches;
}

/** The invariant check: every trading account's balance and credit equal the sums of its ledger entries, read in one snapshot. */
export async function findLedgerMismatches(db: Db): Promise<LedgerMismatch[]> {
  // Both reads from one snapshot: a close committing between them must not look like a mismatch.
  const [accounts, totals] = await db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => [await accountBalances(trx), await ledgerTotals(trx)] as const);
  return mismatchesOf(accounts, totals);
}

export interface LedgerReport {
  accounts: number;
  /** Entries moving balances (every kind but credit) and entries moving credit. */
  balanceEntries: number;
  creditEntries: number;
  /** Accounts whose balance or credit differs from the sum of its entries. */
  mismatches: LedgerMismatch[];
  /** Accounts holding less than no credit (credit is only ever removed down to zero). */
  negativeCredit: { accountId: number; userId: number; creditCents: Cents }[];
  /** Balance operations of the back office without exactly one ledger entry of their kind and amount. */
  unpostedOperations: { operationId: number; userId: number; kind: string }[];
  /** Entries that name no account, or an account another person holds. */
  strayEntries: { entryId: number; userId: number; accountId: number | null }[];
}

/**
 * Everything `npm run ledger:check` proves, read in one snapshot: every balance is the sum of its
 * balance entries and every credit the sum of its credit entries (`findLedgerMismatches`), no
 * credit is below zero, and every balance adjustment or credit operation was posted once, for its
 * amount, to the bucket of its kind.
 */
export async function ledgerReport(db: Db): Promise<LedgerReport> {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const accounts = await accountBalances(trx);
      const totals = await ledgerTotals(trx);
      const counts = await trx
        .selectFrom('ledger_entries')
        .select([sql<number>`sum(case when kind = 'credit' then 1 else 0 end)`.as('credit'), sql<number>`sum(case when kind = 'credit' then 0 else 1 end)`.as('balance')])
        .executeTakeFirstOrThrow();
      const unposted = await trx
        .selectFrom('balance_operations as o')
        .leftJoin('ledger_entries as l', (join) => join.onRef('l.kind', '=', 'o.kind').on('l.ref_type', '=', 'balance_operation').onRef('l.ref_id', '=', sql<string>`cast(o.id as varchar(64))`).onRef('l.amount_cents', '=', 'o.amount_cents').onRef('l.account_id', '=', 'o.account_id'))
        .select(['o.id', 'o.user_id', 'o.kind'])
        .where('l.id', 'is', null)
        .orderBy('o.id')
        .execute();
      const stray = await trx
        .selectFrom('ledger_entries as l')
        .leftJoin('trading_accounts as a', 'a.id', 'l.account_id')
        .select(['l.id', 'l.user_id', 'l.account_id'])
        .where((eb) => eb.or([eb('a.id', 'is', null), eb('a.user_id', '<>', eb.ref('l.user_id'))]))
        .orderBy('l.id')
        .execute();
      const mismatches = mismatchesOf(accounts, totals);
      const negativeCredit = accounts.filter((a) => Number(a.credit_cents) < 0).map((a) => ({ accountId: a.id, userId: a.user_id, creditCents: Number(a.credit_cents) }));
      return {
        accounts: accounts.length,
        balanceEntries: Number(counts.balance ?? 0),
        creditEntries: Number(counts.credit ?? 0),
        mismatches,
        negativeCredit,
        unpostedOperations: unposted.map((o) => ({ operationId: o.id, userId: o.user_id, kind: o.kind })),
        strayEntries: stray.map((e) => ({ entryId: e.id, userId: e.user_id, accountId: e.account_id ?? null })),
      };
    });
}
