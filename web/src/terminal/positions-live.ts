import type { OpenTrade, SymbolRecord } from '@tradeport/contracts';
import { accountFigures, Dec, marginCallReleaseLevel, marginUsd, pendingCondition, positionLeverage, profitUsd, type AccountBook, type LeverageLimits, type PendingType, type PriceLookup, type Prices } from '@tradeport/trading-math';

/**
 * The positions panel's figures at streamed prices, pure: each position's floating profit and the
 * account's equity, margin, free margin and level, computed with the engine's own math
 * (`@tradeport/trading-math`), so between two reads of the server they show what the server would.
 * Display only: closing and filling always use the server's price.
 */

/** A quote as the stream holds it (null sides before the first tick). */
export interface LooseQuote {
  bid: number | null;
  ask: number | null;
}

/** The stream's quotes as the math's lookup: only quotes with both sides count. */
export function priceLookup(get: (symbol: string) => LooseQuote | undefined): PriceLookup {
  return (symbol) => {
    const q = get(symbol);
    return q && q.bid !== null && q.ask !== null ? { bid: q.bid, ask: q.ask } : undefined;
  };
}

/** The catalogue's symbol record as the math's instrument. */
export function instrumentOf(r: SymbolRecord) {
  return { base: r.baseCurrency, quote: r.quoteCurrency, contractSize: r.contractSize, calcMode: r.calcMode, marginRate: r.marginRate };
}

/** The symbols whose prices a position's figures need: its own and its quote (and base) currency's USD rate. */
export function symbolsNeeded(record: SymbolRecord | undefined, known: ReadonlyMap<string, SymbolRecord>, withBase = false): string[] {
  if (!record) return [];
  const out = [record.Symbol];
  const currencies = withBase ? [record.quoteCurrency, record.baseCurrency] : [record.quoteCurrency];
  for (const c of currencies) {
    if (c === 'USD') continue;
    const rate = known.has(`${c}USD`) ? `${c}USD` : known.has(`USD${c}`) ? `USD${c}` : null;
    if (rate && !out.includes(rate)) out.push(rate);
  }
  return out;
}

type PositionTerms = Pick<OpenTrade, 'symbol' | 'type' | 'volume' | 'orginalPrice'>;
const sideOf = (t: Pick<OpenTrade, 'type'>) => (t.type === 'Buy' ? 'buy' : 'sell');

/** Floating profit in USD at these prices (without swap), or null when a price or rate is missing. */
export function positionProfit(t: PositionTerms, record: SymbolRecord | undefined, prices: PriceLookup): Dec | null {
  const q = prices(t.symbol);
  if (!record || !q) return null;
  return profitUsd(sideOf(t), t.volume, t.orginalPrice, q, instrumentOf(record), prices);
}

/** Money as the server posts it: cents, half away from zero ("-12.35"). */
export function centsText(d: Dec): string {
  return d.toDecimalPlaces(2, Dec.ROUND_HALF_UP).toFixed(2);
}

/** A position's profit to show: at the streamed price when there is one, else the server's figure. */
export function profitText(t: PositionTerms & Pick<OpenTrade, 'profit'>, record: SymbolRecord | undefined, prices: PriceLookup): string | null {
  const live = positionProfit(t, record, prices);
  return live ? centsText(live) : t.profit;
}

export interface AccountTexts {
  balance: string;
  /** The broker's credit (a bonus): in equity and free margin, never withdrawable; shown when not zero. */
  credit: string;
  equity: string;
  margin: string;
  freeMargin: string;
  /** Percent, two decimals; "0.00" without margin held. */
  marginLevel: string;
}

/** An account book whose balance is the server's text (shown as it is). */
export type LiveBook = AccountBook & { balance: string };

/**
 * What the account holds at these prices, unrounded: balance and credit, the floating profit
 * (swaps included) and the margin at the current rates. Null when any position cannot be valued (a
 * price or rate missing). The order ticket previews an order from this, as the engine judges it.
 */
export function liveBook(account: { balance: string; credit: string }, trades: readonly (PositionTerms & Pick<OpenTrade, 'swap'>)[], known: ReadonlyMap<string, SymbolRecord>, leverage: number, prices: PriceLookup, limits: LeverageLimits | null = null): LiveBook | null {
  let floating = new Dec(0);
  let margin = new Dec(0);
  for (const t of trades) {
    const record = known.get(t.symbol);
    const profit = positionProfit(t, record, prices);
    // At the account's leverage, at most its type's limit on the instrument (as the engine margins it).
    const held = record ? marginUsd(t.volume, t.orginalPrice, positionLeverage(leverage, limits, { symbol: record.Symbol, group: record.CurrencyType }), instrumentOf(record), prices) : null;
    if (profit === null || held === null) return null;
    floating = floating.plus(profit).plus(t.swap);
    margin = margin.plus(held);
  }
  return { balance: account.balance, credit: account.credit, floating, margin };
}

/** The figures of an account book as the server sends them: cents, and the level with 2 decimals. */
export function bookTexts(book: LiveBook): AccountTexts {
  const f = accountFigures(book.balance, book.credit, book.floating, book.margin);
  return { balance: book.balance, credit: centsText(new Dec(book.credit)), equity: centsText(f.equity), margin: centsText(new Dec(book.margin)), freeMargin: centsText(f.freeMargin), marginLevel: f.marginLevel.toFixed(2) };
}

/**
 * The account's figures at these prices: equity = balance + credit + Σ(profit + swap), margin =
 * Σ margin at the current rates, free margin and level from the shared math. Null when any
 * position cannot be valued (a price or rate missing): the server's own figures are shown then.
 */
export function liveAccount(account: { balance: string; credit: string }, trades: readonly (PositionTerms & Pick<OpenTrade, 'swap'>)[], known: ReadonlyMap<string, SymbolRecord>, leverage: number, prices: PriceLookup, limits: LeverageLimits | null = null): AccountTexts | null {
  const book = liveBook(account, trades, known, leverage, prices, limits);
  return book ? bookTexts({ ...book, balance: account.balance }) : null;
}

/** Whether the level is at or below the broker's margin-call level while margin is held (the figure is then shown in red). */
export function underMarginCall(marginLevel: string | null | undefined, margin: string | null | undefined, marginCallLevel: number | undefined): boolean {
  if (marginLevel == null || margin == null || marginCallLevel === undefined) return false;
  return Number(margin) > 0 && Number(marginLevel) <= marginCallLevel;
}

/**
 * Whether a margin call is on, given whether it was: it starts at or below the margin-call level
 * and ends only above the release level (the server's rule, MARGIN_CALL_RELEASE_FACTOR), or when no
 * margin is held. A level wavering around the line keeps it on instead of flashing the banner.
 */
export function marginCallOn(wasOn: boolean, marginLevel: string | null | undefined, margin: string | null | undefined, marginCallLevel: number | undefined): boolean {
  if (marginLevel == null || margin == null || marginCallLevel === undefined || !(Number(margin) > 0)) return false;
  const level = Number(marginLevel);
  return wasOn ? level <= marginCallReleaseLevel(marginCallLevel) : level <= marginCallLevel;
}

export type CloseGroup = 'all' | 'profitable' | 'losing';

/**
 * The positions 'Close all / profitable / losing' acts on, and their approximate total (profit +
 * swap, at the prices shown). A position without a profit figure counts in 'all' only.
 */
export function closeGroup<T extends { ticket: number; swap: string }>(trades: readonly T[], group: CloseGroup, profitOf: (t: T) => string | null): { tickets: number[]; total: string } {
  const tickets: number[] = [];
  let total = new Dec(0);
  for (const t of trades) {
    const profit = profitOf(t);
    const net = profit === null ? null : new Dec(profit).plus(t.swap);
    if (group === 'profitable' && !(net && net.gt(0))) continue;
    if (group === 'losing' && !(net && net.lt(0))) continue;
    tickets.push(t.ticket);
    if (net) total = total.plus(net);
  }
  return { tickets, total: centsText(total) };
}

/**
 * A pending order's distance from the market in points: from the price its condition watches (the
 * ask for Buy orders, the bid for Sell) to the level that activates it next (a triggered stop-limit
 * waits for its limit price). Null without a quote.
 */
export function distancePoints(order: { orderType: PendingType; price: number; stopLimitPrice: number; stopTriggered: boolean }, quote: Prices | undefined, digits: number): number | null {
  if (!quote) return null;
  const condition = pendingCondition(order.orderType, order.stopTriggered);
  const market = condition.startsWith('ask') ? quote.ask : quote.bid;
  const level = order.orderType.endsWith('stop_limit') && order.stopTriggered ? order.stopLimitPrice : order.price;
  const scale = 10 ** digits;
  return Math.abs(Math.round(level * scale) - Math.round(market * scale));
}

export const CLOSE_REASON_LABELS = { manual: 'Manual', sl: 'Stop loss', tp: 'Take profit', 'stop-out': 'Stop-out', admin: 'Back office' } as const;

const DATE_FIELD = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * A History date range (the date fields' YYYY-MM-DD, days of the trader's time zone as every time
 * is shown, either may be empty) as the server's epoch-ms `from` (inclusive, the first day's local
 * midnight) and `to` (exclusive: the local midnight that ends the last day chosen).
 */
export function dateRangeMs(fromDate: string, toDate: string): { ok: true; from?: number; to?: number } | { ok: false; message: string } {
  const day = (v: string, after = 0) => {
    const m = DATE_FIELD.exec(v);
    return m ? new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + after).getTime() : undefined;
  };
  const from = fromDate ? day(fromDate) : undefined;
  // The day after, by the calendar: a day of a daylight-saving change is not 24 hours long.
  const to = toDate ? day(toDate, 1) : undefined;
  if ((fromDate && from === undefined) || (toDate && to === undefined)) return { ok: false, message: 'Enter dates as YYYY-MM-DD.' };
  if (from !== undefined && to !== undefined && from >= to) return { ok: false, message: 'The range must end on or after its first day.' };
  return { ok: true, from, to };
}
