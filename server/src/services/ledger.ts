import { sql, type RawBuilder } from 'kysely';
import type { Cents } from '../domain/money';
import type { Db, Tx } from '../storage/db';
import type { LedgerKind } from '../storage/schema';
import { prepared } from '../storage/prepared';

/**
 * The ledger: every change of a balance is one entry, written in the caller's transaction together
 * with the change itself. `users.balance_cents` / `credit_cents` are a running total kept in the
 * same statement order, so a balance always equals the sum of its entries (see `findLedgerMismatches`).
 * Credit entries move the credit bucket; every other kind moves the balance.
 */
export interface Posting {
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
    .updateTable('users')
    .set({ [column]: sql`${sql.ref(column)} + ${p.amountCents}` })
    .where('id', '=', p.userId);
  if (p.floorCents !== undefined) update = update.where(sql<boolean>`${sql.ref(column)} + ${p.amountCents} >= ${p.floorCents}`);
  const row = await update.returning(['balance_cents', 'credit_cents']).executeTakeFirst();
  if (!row) return null;
  await trx
    .insertInto('ledger_entries')
    .values({
      user_id: p.userId,
      kind: p.kind,
      amount_cents: p.amountCents,
      balance_after_cents: p.kind === 'credit' ? row.credit_cents : row.balance_cents,
      ref_type: p.refType,
      ref_id: String(p.refId),
      memo: p.memo.slice(0, 200),
      created_at: p.at,
    })
    .execute();
  return { balanceCents: row.balance_cents, creditCents: row.credit_cents };
}

/**
 * Takes the account's row lock for the rest of the transaction (PostgreSQL `FOR UPDATE`). SQLite
 * needs none: it runs one write transaction at a time on the single connection.
 */
export async function lockAccount(ctx: { engine: 'sqlite' | 'postgres' }, trx: Tx, userId: number): Promise<void> {
  if (ctx.engine === 'postgres') await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
}

export interface AccountTotals {
  balanceCents: Cents;
  creditCents: Cents;
  depositsCents: Cents;
  withdrawalsCents: Cents;
}

export const emptyTotals = (): AccountTotals => ({ balanceCents: 0, creditCents: 0, depositsCents: 0, withdrawalsCents: 0 });

/** The sum of the outer query's user's (`users as u`) ledger entries matching `kinds`. */
const ledgerSum = (kinds: RawBuilder<unknown>) => sql<number>`(select cast(coalesce(sum(l.amount_cents), 0) as bigint) from ledger_entries l where l.user_id = u.id and ${kinds})`;

/**
 * A user's totals from the ledger as four columns of a query over `users as u`, so a read that
 * shows a user's row with their totals is one statement; `totalsOfColumns` reads them back.
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

/** Profile and admin totals, derived from the ledger rather than from cached columns. */
const totalsOfAll = prepared((db) => db.selectFrom('ledger_entries').select(['user_id', 'kind', sql<number>`cast(sum(amount_cents) as bigint)`.as('total')]).groupBy(['user_id', 'kind']));

export async function ledgerTotals(db: Db | Tx, userIds?: number[]): Promise<Map<number, AccountTotals>> {
  if (!userIds) return totalsByUser(await ledgerTotalRows(db));
  if (userIds.length === 0) return new Map();
  return totalsByUser(await db.selectFrom('ledger_entries').select(['user_id', 'kind', sql<number>`cast(sum(amount_cents) as bigint)`.as('total')]).where('user_id', 'in', userIds).groupBy(['user_id', 'kind']).execute());
}

/** Every account's ledger sums by kind. */
export function ledgerTotalRows(db: Db | Tx) {
  return totalsOfAll.all(db, {});
}

export function totalsByUser(rows: readonly { user_id: number; kind: string; total: number }[]): Map<number, AccountTotals> {
  const totals = new Map<number, AccountTotals>();
  for (const row of rows) {
    const t = totals.get(row.user_id) ?? emptyTotals();
    addToTotals(t, row.kind, Number(row.total));
    totals.set(row.user_id, t);
  }
  return totals;
}

export interface LedgerMismatch {
  userId: number;
  balanceCents: Cents;
  ledgerBalanceCents: Cents;
  creditCents: Cents;
  ledgerCreditCents: Cents;
}

/** The invariant check: every user's balance and credit equal the sums of their ledger entries, read in one snapshot. */
export async function findLedgerMismatches(db: Db): Promise<LedgerMismatch[]> {
  // Both reads from one snapshot: a close committing between them must not look like a mismatch.
  const [users, totals] = await db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => [await trx.selectFrom('users').select(['id', 'balance_cents', 'credit_cents']).execute(), await ledgerTotals(trx)] as const);
  const mismatches: LedgerMismatch[] = [];
  for (const u of users) {
    const t = totals.get(u.id) ?? emptyTotals();
    if (t.balanceCents !== u.balance_cents || t.creditCents !== u.credit_cents) {
      mismatches.push({ userId: u.id, balanceCents: u.balance_cents, ledgerBalanceCents: t.balanceCents, creditCents: u.credit_cents, ledgerCreditCents: t.creditCents });
    }
  }
  return mismatches;
}

export interface LedgerReport {
  accounts: number;
  /** Entries moving balances (every kind but credit) and entries moving credit. */
  balanceEntries: number;
  creditEntries: number;
  /** Accounts whose balance or credit differs from the sum of its entries. */
  mismatches: LedgerMismatch[];
  /** Accounts holding less than no credit (credit is only ever removed down to zero). */
  negativeCredit: { userId: number; creditCents: Cents }[];
  /** Balance operations of the back office without exactly one ledger entry of their kind and amount. */
  unpostedOperations: { operationId: number; userId: number; kind: string }[];
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
      const users = await trx.selectFrom('users').select(['id', 'balance_cents', 'credit_cents']).execute();
      const totals = await ledgerTotals(trx);
      const counts = await trx
        .selectFrom('ledger_entries')
        .select([sql<number>`sum(case when kind = 'credit' then 1 else 0 end)`.as('credit'), sql<number>`sum(case when kind = 'credit' then 0 else 1 end)`.as('balance')])
        .executeTakeFirstOrThrow();
      const unposted = await trx
        .selectFrom('balance_operations as o')
        .leftJoin('ledger_entries as l', (join) => join.onRef('l.kind', '=', 'o.kind').on('l.ref_type', '=', 'balance_operation').onRef('l.ref_id', '=', sql<string>`cast(o.id as varchar(64))`).onRef('l.amount_cents', '=', 'o.amount_cents').onRef('l.user_id', '=', 'o.user_id'))
        .select(['o.id', 'o.user_id', 'o.kind'])
        .where('l.id', 'is', null)
        .orderBy('o.id')
        .execute();
      const mismatches: LedgerMismatch[] = [];
      const negativeCredit: LedgerReport['negativeCredit'] = [];
      for (const u of users) {
        const t = totals.get(u.id) ?? emptyTotals();
        if (t.balanceCents !== u.balance_cents || t.creditCents !== u.credit_cents) {
          mismatches.push({ userId: u.id, balanceCents: u.balance_cents, ledgerBalanceCents: t.balanceCents, creditCents: u.credit_cents, ledgerCreditCents: t.creditCents });
        }
        if (u.credit_cents < 0) negativeCredit.push({ userId: u.id, creditCents: u.credit_cents });
      }
      return {
        accounts: users.length,
        balanceEntries: Number(counts.balance ?? 0),
        creditEntries: Number(counts.credit ?? 0),
        mismatches,
        negativeCredit,
        unpostedOperations: unposted.map((o) => ({ operationId: o.id, userId: o.user_id, kind: o.kind })),
      };
    });
}
