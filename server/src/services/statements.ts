import { Dec, profitUsd, type PriceLookup, type Prices } from '@tradeport/trading-math';
import { sql } from 'kysely';
import type { Instrument } from '../domain/instruments';
import { roundToCents, type Cents } from '../domain/money';
import type { Db, Tx } from '../storage/db';
import { rowLimit } from '../storage/prepared';
import type { LedgerKind } from '../storage/schema';
import { refuse } from './errors';

/**
 * Account statements (docs/design.md#statements): what happened to one trading account's money
 * over a range of UTC days, read from the ledger and the positions table. The balances are sums of
 * ledger entries, so the closing balance is the ledger's at the statement's end, to the cent, and
 * the opening balance plus the period's entries is the closing balance.
 */

export const DAY_MS = 86_400_000;
/** The longest statement: a year and a day (a leap year's January to January). */
export const STATEMENT_MAX_DAYS = 367;
/** The most closed trades or balance operations one statement lists; a longer one is refused (a shorter range). */
export const STATEMENT_MAX_ROWS = 20_000;

export interface StatementRange {
  /** The first day's start (epoch ms, UTC midnight). */
  from: number;
  /** The statement's end, exclusive: the day after the last day, or (when that day is today) just after now, so everything posted so far is in. */
  end: number;
  /** The last day asked for (its start), as the statement names the period. */
  lastDay: number;
}

/**
 * The range of the days `from` to `to` (`YYYY-MM-DD`, both included), refused when it is backwards,
 * longer than STATEMENT_MAX_DAYS or ends after today (UTC). A range reaching today ends now (its entries posted so far).
 */
export function statementRange(from: string, to: string, now: number): StatementRange {
  const first = Date.parse(`${from}T00:00:00Z`);
  const last = Date.parse(`${to}T00:00:00Z`);
  const today = now - (now % DAY_MS);
  if (last < first) throw refuse.invalid('The statement must start on or before the day it ends.');
  if (last > today) throw refuse.invalid('A statement cannot end after today (UTC).');
  if ((last - first) / DAY_MS + 1 > STATEMENT_MAX_DAYS) throw refuse.invalid(`A statement covers at most ${STATEMENT_MAX_DAYS} days; choose a shorter range.`);
  return { from: first, end: Math.min(last + DAY_MS, now + 1), lastDay: last };
}

export interface StatementAccount {
  id: number;
  number: number;
  kind: 'live' | 'demo';
  currency: string;
  leverage: number;
  typeName: string;
  /** Its account type now: the live prices of its open positions are that type's. */
  typeId: number;
  holderName: string;
  holderEmail: string;
}

/** The period's ledger entries summed by kind (cents, signed as posted): what takes the opening balance to the closing one. */
export interface StatementSummary {
  openingBalanceCents: Cents;
  depositsCents: Cents;
  withdrawalsCents: Cents;
  tradesProfitCents: Cents;
  swapsCents: Cents;
  commissionsCents: Cents;
  adjustmentsCents: Cents;
  transfersCents: Cents;
  /** A demo account's virtual money: its starting balance and its resets. */
  demoResetsCents: Cents;
  closingBalanceCents: Cents;
  openingCreditCents: Cents;
  closingCreditCents: Cents;
  /** The open positions' floating profit and swap at the end; null when a position could not be valued. */
  floatingCents: Cents | null;
  /** Closing balance, credit and floating profit; null with it. */
  equityCents: Cents | null;
}

export interface StatementTrade {
  ticket: number;
  /** The ticket a partial close took this part from; null for a whole position. */
  partOf: number | null;
  symbol: string;
  side: 'buy' | 'sell';
  volume: number;
  openedAt: number;
  openPrice: number;
  closedAt: number;
  closePrice: number;
  reason: string;
  commissionCents: Cents;
  swapCents: Cents;
  profitCents: Cents;
}

export interface StatementOperation {
  at: number;
  kind: LedgerKind;
  memo: string;
  amountCents: Cents;
  /** The balance (credit, for a credit entry) after it. */
  afterCents: Cents;
}

export interface StatementPosition {
  ticket: number;
  symbol: string;
  side: 'buy' | 'sell';
  volume: number;
  openedAt: number;
  openPrice: number;
  /** The price it is valued at (see `valuedAt`); null without one. */
  price: number | null;
  /** Swap accrued and not yet booked; null when the statement ends before now (not recorded per day). */
  swapCents: Cents | null;
  profitCents: Cents | null;
}

export interface Statement {
  account: StatementAccount;
  range: StatementRange;
  generatedAt: number;
  /** How open positions are valued: at the live quotes (a statement ending now), or at the last M1 bid of the period. */
  valuedAt: 'quotes' | 'closing-bid';
  summary: StatementSummary;
  trades: StatementTrade[];
  operations: StatementOperation[];
  openPositions: StatementPosition[];
}

/** What a statement reads prices from. */
export interface StatementMarket {
  /** The live quote of a symbol: the book's, or with `typeId` that account type's (its spread markup). */
  quote(symbol: string, typeId?: number): Prices | undefined;
  instrument(symbol: string): Instrument | undefined;
  /** The newest candles of a series before a time, oldest first (the market's candle store). */
  candles: { query(symbol: string, period: 'M1', limit: number, before: number): Promise<readonly { close: number }[]> };
}

type MovementField = 'depositsCents' | 'withdrawalsCents' | 'tradesProfitCents' | 'swapsCents' | 'commissionsCents' | 'adjustmentsCents' | 'transfersCents' | 'demoResetsCents';
/** The summary's line of each ledger kind that moves the balance (credit has its own opening and closing lines). */
const SUMMARY_FIELD: Record<Exclude<LedgerKind, 'credit'>, MovementField> = {
  deposit: 'depositsCents',
  withdrawal: 'withdrawalsCents',
  trade: 'tradesProfitCents',
  swap: 'swapsCents',
  commission: 'commissionsCents',
  adjustment: 'adjustmentsCents',
  transfer: 'transfersCents',
  demo: 'demoResetsCents',
};
/** Kinds the statement lists entry by entry as balance operations (closed trades carry the rest). */
const OPERATION_KINDS: LedgerKind[] = ['deposit', 'withdrawal', 'credit', 'adjustment', 'transfer', 'demo'];

async function accountOf(db: Db | Tx, accountId: number): Promise<StatementAccount | undefined> {
  const row = await db
    .selectFrom('trading_accounts as a')
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .innerJoin('account_types as t', 't.id', 'a.account_type_id')
    .select(['a.id', 'a.number', 'a.kind', 'a.currency', 'a.leverage', 'a.account_type_id', 't.name as type_name', 'u.first_name', 'u.last_name', 'u.email'])
    .where('a.id', '=', accountId)
    .executeTakeFirst();
  if (!row) return undefined;
  return { id: row.id, number: Number(row.number), kind: row.kind, currency: row.currency, leverage: row.leverage, typeName: row.type_name, typeId: row.account_type_id, holderName: `${row.first_name} ${row.last_name}`.trim(), holderEmail: row.email };
}

/** The sums of the account's entries before `at`: balance (every kind but credit) and credit. */
async function balancesBefore(db: Db | Tx, accountId: number, at: number): Promise<{ balance: Cents; credit: Cents }> {
  const row = await db
    .selectFrom('ledger_entries')
    .select([
      sql<string | number>`coalesce(sum(case when kind = 'credit' then 0 else amount_cents end), 0)`.as('balance'),
      sql<string | number>`coalesce(sum(case when kind = 'credit' then amount_cents else 0 end), 0)`.as('credit'),
    ])
    .where('account_id', '=', accountId)
    .where('created_at', '<', at)
    .executeTakeFirstOrThrow();
  return { balance: Number(row.balance), credit: Number(row.credit) };
}

/**
 * The statement of one account over `range`, or undefined when there is no such account. Refused
 * when the period holds more than STATEMENT_MAX_ROWS closed trades or operations.
 */
export async function buildStatement(db: Db, market: StatementMarket, accountId: number, range: StatementRange, now: number): Promise<Statement | undefined> {
  // Every row from one snapshot (an entry committed meanwhile must not unbalance the summary); the
  // prices after it, since the candles are read on a connection of their own.
  const read = await db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute((trx) => statementRows(trx, accountId, range));
  if (!read) return undefined;
  const live = range.end > now;
  const { positions, floatingCents } = await valued(market, read.held, range.end, live, read.account.typeId);
  const summary = { ...read.summary, floatingCents, equityCents: floatingCents === null ? null : read.summary.closingBalanceCents + read.summary.closingCreditCents + floatingCents };
  return { account: read.account, range, generatedAt: now, valuedAt: live ? 'quotes' : 'closing-bid', summary, trades: read.trades, operations: read.operations, openPositions: positions };
}

async function statementRows(db: Tx, accountId: number, range: StatementRange) {
  const account = await accountOf(db, accountId);
  if (!account) return undefined;
  const { from, end } = range;

  const [opening, closing] = await Promise.all([balancesBefore(db, accountId, from), balancesBefore(db, accountId, end)]);
  const summary: StatementSummary = {
    openingBalanceCents: opening.balance,
    depositsCents: 0,
    withdrawalsCents: 0,
    tradesProfitCents: 0,
    swapsCents: 0,
    commissionsCents: 0,
    adjustmentsCents: 0,
    transfersCents: 0,
    demoResetsCents: 0,
    closingBalanceCents: closing.balance,
    openingCreditCents: opening.credit,
    closingCreditCents: closing.credit,
    floatingCents: null,
    equityCents: null,
  };
  const byKind = await db
    .selectFrom('ledger_entries')
    .select(['kind', sql<string | number>`sum(amount_cents)`.as('cents')])
    .where('account_id', '=', accountId)
    .where('created_at', '>=', from)
    .where('created_at', '<', end)
    .groupBy('kind')
    .execute();
  for (const k of byKind) if (k.kind !== 'credit') summary[SUMMARY_FIELD[k.kind]] += Number(k.cents);

  const tradeRows = await db
    .selectFrom('positions')
    .select(['id', 'part_of', 'symbol', 'side', 'volume', 'opened_at', 'open_price', 'closed_at', 'close_price', 'close_reason', 'commission_cents', 'swap_cents', 'profit_cents'])
    .where('account_id', '=', accountId)
    .where('status', '=', 'closed')
    .where('closed_at', '>=', from)
    .where('closed_at', '<', end)
    .orderBy('closed_at')
    .orderBy('id')
    .limit(rowLimit(STATEMENT_MAX_ROWS + 1))
    .execute();
  if (tradeRows.length > STATEMENT_MAX_ROWS) throw tooMany('closed trades');
  const trades = tradeRows.map(
    (r): StatementTrade => ({
      ticket: r.id,
      partOf: r.part_of,
      symbol: r.symbol,
      side: r.side,
      volume: r.volume,
      openedAt: r.opened_at,
      openPrice: r.open_price,
      closedAt: r.closed_at ?? 0,
      closePrice: r.close_price ?? 0,
      reason: r.close_reason ?? 'manual',
      commissionCents: Number(r.commission_cents),
      swapCents: Number(r.swap_cents),
      profitCents: Number(r.profit_cents ?? 0),
    }),
  );

  const operationRows = await db
    .selectFrom('ledger_entries')
    .select(['created_at', 'kind', 'memo', 'amount_cents', 'balance_after_cents'])
    .where('account_id', '=', accountId)
    .where('kind', 'in', OPERATION_KINDS)
    .where('created_at', '>=', from)
    .where('created_at', '<', end)
    .orderBy('created_at')
    .orderBy('id')
    .limit(rowLimit(STATEMENT_MAX_ROWS + 1))
    .execute();
  if (operationRows.length > STATEMENT_MAX_ROWS) throw tooMany('balance operations');
  const operations = operationRows.map((r): StatementOperation => ({ at: r.created_at, kind: r.kind, memo: r.memo, amountCents: Number(r.amount_cents), afterCents: Number(r.balance_after_cents) }));

  return { account, summary, trades, operations, held: await heldAtEnd(db, accountId, end) };
}

const tooMany = (what: string) => refuse.invalid(`The period holds more than ${STATEMENT_MAX_ROWS.toLocaleString('en-US')} ${what}; choose a shorter range.`);

interface Held {
  row: { id: number; symbol: string; side: 'buy' | 'sell'; opened_at: number; open_price: number };
  volume: number;
  swap: Cents;
}

/**
 * The positions open at `end`, by ticket: opened before it and not closed before it. A part closed
 * since by a partial close was still part of its ticket then, so its volume is counted under that
 * ticket.
 */
async function heldAtEnd(db: Tx, accountId: number, end: number): Promise<Map<number, Held>> {
  const rows = await db
    .selectFrom('positions')
    .select(['id', 'part_of', 'symbol', 'side', 'volume', 'opened_at', 'open_price', 'swap_cents'])
    .where('account_id', '=', accountId)
    .where('opened_at', '<', end)
    .where((eb) => eb.or([eb('status', '=', 'open'), eb('closed_at', '>=', end)]))
    .orderBy('opened_at')
    .orderBy('id')
    .limit(rowLimit(STATEMENT_MAX_ROWS + 1))
    .execute();
  if (rows.length > STATEMENT_MAX_ROWS) throw tooMany('open positions');
  const byTicket = new Map<number, Held>();
  for (const r of rows) {
    const ticket = r.part_of ?? r.id;
    const held = byTicket.get(ticket);
    if (held) {
      held.volume += r.volume;
      held.swap += Number(r.swap_cents);
      if (r.part_of === null) held.row = r;
    } else byTicket.set(ticket, { row: r, volume: r.volume, swap: Number(r.swap_cents) });
  }
  return byTicket;
}

/**
 * What was open at `end`, valued: a statement ending now at the live quotes with the accrued swap
 * (as the terminal does); one ending earlier at the period's closing price (the last M1 bid, both
 * sides) without swap, which is not recorded per day.
 */
async function valued(market: StatementMarket, byTicket: Map<number, Held>, end: number, live: boolean, typeId: number): Promise<{ positions: StatementPosition[]; floatingCents: Cents | null }> {
  const prices: (symbol: string) => Prices | undefined = live ? (s) => market.quote(s) : await closingPrices(market, [...new Set([...byTicket.values()].map((h) => h.row.symbol))], end);
  // Live, a position is valued at its account type's prices (conversion rates are the book's).
  const own = live ? (s: string) => market.quote(s, typeId) : prices;
  const out: StatementPosition[] = [];
  // Summed unrounded and rounded once, as the account's figures are (each row shows its own rounding).
  let floating: Dec | null = new Dec(0);
  for (const [ticket, { row, volume, swap }] of byTicket) {
    const q = own(row.symbol);
    const instrument = market.instrument(row.symbol);
    const profit = q && instrument ? profitUsd(row.side, round(volume), row.open_price, q, instrument, prices) : null;
    floating = floating === null || profit === null ? null : floating.plus(profit).plus(new Dec(live ? swap : 0).div(100));
    out.push({
      ticket,
      symbol: row.symbol,
      side: row.side,
      volume: round(volume),
      openedAt: row.opened_at,
      openPrice: row.open_price,
      price: q ? (row.side === 'buy' ? q.bid : q.ask) : null,
      swapCents: live ? swap : null,
      profitCents: profit === null ? null : roundToCents(profit),
    });
  }
  return { positions: out.sort((a, b) => a.openedAt - b.openedAt || a.ticket - b.ticket), floatingCents: floating === null ? null : roundToCents(floating) };
}

/** Volumes summed from parts, back to the lot's two decimals. */
const round = (volume: number) => Math.round(volume * 100) / 100;

/**
 * The close of the newest M1 candle before `end` (its last bid; days earlier over a weekend) of each symbol held and of every symbol a conversion to USD may ask
 * for, as a price lookup (bid and ask both that price: a mark, as statements value open positions).
 */
async function closingPrices(market: StatementMarket, symbols: string[], end: number): Promise<PriceLookup> {
  const wanted = new Set(symbols);
  for (const s of symbols) {
    const quote = market.instrument(s)?.quote;
    if (quote && quote !== 'USD') wanted.add(`${quote}USD`).add(`USD${quote}`);
  }
  const marks = new Map<string, Prices>();
  await Promise.all(
    [...wanted].map(async (s) => {
      if (!market.instrument(s)) return;
      const [last] = await market.candles.query(s, 'M1', 1, end);
      if (last) marks.set(s, { bid: last.close, ask: last.close });
    }),
  );
  return (s) => marks.get(s);
}
