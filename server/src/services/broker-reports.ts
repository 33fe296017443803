import type { AccountKind } from '@tradeport/contracts';
import { sql } from 'kysely';
import type { Cents } from '../domain/money';
import type { Db } from '../storage/db';

/**
 * The broker's reports (docs/design.md#broker-reports): the ledger summed per UTC day and per
 * account type (the type each entry's account had when it was posted), with the accounts opened.
 * Every money figure is a sum of ledger entries, so the reports agree with the ledger to the cent;
 * the spread markup earned is the one figure that is not money moved: it is summed from the deals'
 * markups (`deal_markups`), part of what the traders' prices cost them.
 */

const DAY_MS = 86_400_000;

/** One day's (or a range's) figures of one type, in cents, signed as the broker sees them. */
export interface ReportFigures {
  newAccounts: number;
  depositsCents: Cents;
  /** Paid out: positive. */
  withdrawalsCents: Cents;
  /** Balance adjustments, as posted (positive: given to traders). */
  adjustmentsCents: Cents;
  /** Earned by the broker: the commission and swap entries with their sign turned. */
  commissionsCents: Cents;
  swapsCents: Cents;
  /** The traders' realised profit (trade entries). */
  tradersProfitCents: Cents;
  /** The spread markup the deals of the day earned (already inside the traders' profit, not added to revenue). */
  markupCents: Cents;
}

export interface ReportRow extends ReportFigures {
  /** The day's start, epoch ms (UTC). */
  day: number;
  typeId: number;
}

export const emptyFigures = (): ReportFigures => ({ newAccounts: 0, depositsCents: 0, withdrawalsCents: 0, adjustmentsCents: 0, commissionsCents: 0, swapsCents: 0, tradersProfitCents: 0, markupCents: 0 });

/** The broker's result against the traders' realised trades, and what it earned in all. */
export const brokerResultCents = (f: ReportFigures): Cents => -f.tradersProfitCents;
export const revenueCents = (f: ReportFigures): Cents => f.commissionsCents + f.swapsCents + brokerResultCents(f);

export function addFigures(into: ReportFigures, f: ReportFigures): void {
  into.newAccounts += f.newAccounts;
  into.depositsCents += f.depositsCents;
  into.withdrawalsCents += f.withdrawalsCents;
  into.adjustmentsCents += f.adjustmentsCents;
  into.commissionsCents += f.commissionsCents;
  into.swapsCents += f.swapsCents;
  into.tradersProfitCents += f.tradersProfitCents;
  into.markupCents += f.markupCents;
}

/** Where each ledger kind goes in a report, with the sign the broker sees it by. */
const BY_KIND = {
  deposit: (f: ReportFigures, c: Cents) => void (f.depositsCents += c),
  withdrawal: (f: ReportFigures, c: Cents) => void (f.withdrawalsCents -= c),
  adjustment: (f: ReportFigures, c: Cents) => void (f.adjustmentsCents += c),
  commission: (f: ReportFigures, c: Cents) => void (f.commissionsCents -= c),
  swap: (f: ReportFigures, c: Cents) => void (f.swapsCents -= c),
  trade: (f: ReportFigures, c: Cents) => void (f.tradersProfitCents += c),
} as const;
const KINDS = Object.keys(BY_KIND) as (keyof typeof BY_KIND)[];

/**
 * The report of the days from `from` to `to` (epoch ms of UTC days' starts; `to`'s day included)
 * for one kind of account, and one type when `typeId` is given: a row per day and type with
 * anything in it, newest day first.
 */
export async function brokerReport(db: Db, q: { from: number; to: number; accountKind: AccountKind; typeId?: number }): Promise<ReportRow[]> {
  const end = q.to + DAY_MS;
  // The day as a literal divisor, so both databases see the same expression in the select and the group by.
  const dayOf = (column: 'l.created_at' | 'a.created_at' | 'm.created_at') => sql<number>`${sql.ref(column)} - (${sql.ref(column)} % ${sql.lit(DAY_MS)})`;
  let entries = db
    .selectFrom('ledger_entries as l')
    .innerJoin('account_types as t', 't.id', 'l.account_type_id')
    .select([dayOf('l.created_at').as('day'), 'l.account_type_id as type_id', 'l.kind', sql<number | string>`sum(l.amount_cents)`.as('cents')])
    .where('l.created_at', '>=', q.from)
    .where('l.created_at', '<', end)
    .where('t.kind', '=', q.accountKind)
    .where('l.kind', 'in', KINDS);
  if (q.typeId !== undefined) entries = entries.where('l.account_type_id', '=', q.typeId);
  let opened = db
    .selectFrom('trading_accounts as a')
    .innerJoin('account_types as t', 't.id', 'a.account_type_id')
    .select([dayOf('a.created_at').as('day'), 'a.account_type_id as type_id', sql<number | string>`count(*)`.as('n')])
    .where('a.created_at', '>=', q.from)
    .where('a.created_at', '<', end)
    .where('a.kind', '=', q.accountKind);
  if (q.typeId !== undefined) opened = opened.where('a.account_type_id', '=', q.typeId);

  let markups = db
    .selectFrom('deal_markups as m')
    .innerJoin('account_types as t', 't.id', 'm.account_type_id')
    .select([dayOf('m.created_at').as('day'), 'm.account_type_id as type_id', sql<number | string>`sum(m.cents)`.as('cents')])
    .where('m.created_at', '>=', q.from)
    .where('m.created_at', '<', end)
    .where('t.kind', '=', q.accountKind);
  if (q.typeId !== undefined) markups = markups.where('m.account_type_id', '=', q.typeId);

  const rows = new Map<string, ReportRow>();
  const rowOf = (day: number, typeId: number) => {
    const key = `${day}:${typeId}`;
    let r = rows.get(key);
    if (!r) rows.set(key, (r = { day, typeId, ...emptyFigures() }));
    return r;
  };
  for (const e of await entries.groupBy([dayOf('l.created_at'), 'l.account_type_id', 'l.kind']).execute()) {
    if (e.type_id === null) continue;
    BY_KIND[e.kind as keyof typeof BY_KIND](rowOf(Number(e.day), e.type_id), Number(e.cents));
  }
  for (const a of await opened.groupBy([dayOf('a.created_at'), 'a.account_type_id']).execute()) rowOf(Number(a.day), a.type_id).newAccounts += Number(a.n);
  for (const m of await markups.groupBy([dayOf('m.created_at'), 'm.account_type_id']).execute()) rowOf(Number(m.day), m.type_id).markupCents += Number(m.cents);
  return [...rows.values()].sort((a, b) => b.day - a.day || a.typeId - b.typeId);
}
