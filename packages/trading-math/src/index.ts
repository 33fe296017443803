import Decimal from 'decimal.js';
import type { InstrumentSpec, PriceLookup, Prices, Side } from './types';

export * from './types';
export * from './levels';

/**
 * The trading math, MT5-compatible for hedging accounts (docs/design.md#trading-model), shared by the server
 * (which fills, values and closes with it) and the web app (which previews an order's margin with
 * the very same code). Pure and exact:
 * prices come in as numbers at the instrument's digits and are taken as the decimals they print as;
 * every product and quotient is a decimal.js value. Money results are USD; rounding to cents happens
 * only when money is posted (`roundToCents` in money.ts).
 */

/** 40 significant digits: far beyond any price × volume, so only the final rounding to cents matters. */
const D = Decimal.clone({ precision: 40 });
const dec = (n: number | string) => new D(typeof n === 'number' ? n.toString() : n);

/** The math's decimal type and constructor, for callers that add up or round its results (the web app has no decimal.js of its own). */
export const Dec = D;
export type Dec = Decimal;

/** The price a position opens at: Buy at the ask, Sell at the bid. */
export const openPrice = (side: Side, p: Prices): number => (side === 'buy' ? p.ask : p.bid);

/** The price a position closes at: Buy at the bid, Sell at the ask. */
export const closePrice = (side: Side, p: Prices): number => (side === 'buy' ? p.bid : p.ask);

/**
 * `amount` of `currency` in USD, divided by `divisor` (the leverage, for margin): at the bid of
 * XXXUSD, or divided by the bid of USDXXX. Every division comes last, once, so a result that is a
 * whole number of half-cents is exact before it is rounded. Null when no quote can convert it (the
 * caller refuses rather than guessing).
 */
export function toUsd(amount: Decimal, currency: string, prices: PriceLookup, divisor: Decimal.Value = 1): Decimal | null {
  if (currency === 'USD') return amount.div(divisor);
  const direct = prices(`${currency}USD`);
  if (direct && direct.bid > 0) return amount.times(dec(direct.bid)).div(divisor);
  const inverse = prices(`USD${currency}`);
  if (inverse && inverse.bid > 0) return amount.div(dec(inverse.bid).times(divisor));
  return null;
}

/** Floating profit in the quote currency: Buy (bid − open) × C × V; Sell (open − ask) × C × V. */
export function profitInQuote(side: Side, volume: number, open: number, p: Prices, contractSize: number): Decimal {
  const diff = side === 'buy' ? dec(p.bid).minus(dec(open)) : dec(open).minus(dec(p.ask));
  return diff.times(dec(contractSize)).times(dec(volume));
}

/** Floating profit in USD. Never multiplied by leverage. Null when the quote currency cannot be converted. */
export function profitUsd(side: Side, volume: number, open: number, p: Prices, instrument: Pick<InstrumentSpec, 'contractSize' | 'quote'>, prices: PriceLookup): Decimal | null {
  return toUsd(profitInQuote(side, volume, open, p, instrument.contractSize), instrument.quote, prices);
}

/**
 * A deal's notional in USD: V × C in the base currency (Forex) or V × C × price in the quote currency
 * (CFD), converted at the current rate and divided by `divisor` (1 unless a leverage is applied).
 * Null when no quote converts it.
 */
export function notionalUsd(volume: number, price: number, instrument: Pick<InstrumentSpec, 'contractSize' | 'calcMode' | 'base' | 'quote'>, prices: PriceLookup, divisor: Decimal.Value = 1): Decimal | null {
  return unitsUsd(dec(volume).times(dec(instrument.contractSize)), price, instrument, prices, divisor);
}

function unitsUsd(units: Decimal, price: number, instrument: Pick<InstrumentSpec, 'calcMode' | 'base' | 'quote'>, prices: PriceLookup, divisor: Decimal.Value): Decimal | null {
  if (instrument.calcMode === 'forex') return toUsd(units, instrument.base, prices, divisor);
  return toUsd(units.times(dec(price)), instrument.quote, prices, divisor);
}

/**
 * Margin held by a position, in USD: Forex V × C / L in the base currency; CFD V × C × open / L in the
 * quote currency; converted to USD at the current rate; times the instrument's margin rate
 * (docs/design.md#margin; absent: 1). The leverage is still divided last, once.
 */
export function marginUsd(volume: number, open: number, leverage: number, instrument: Pick<InstrumentSpec, 'contractSize' | 'calcMode' | 'base' | 'quote'> & { marginRate?: number }, prices: PriceLookup): Decimal | null {
  const units = dec(volume).times(dec(instrument.contractSize));
  return unitsUsd(instrument.marginRate === undefined || instrument.marginRate === 1 ? units : units.times(dec(instrument.marginRate)), open, instrument, prices, leverage);
}

/**
 * The most leverage an account type allows on instruments (docs/design.md#leverage-limits), by
 * symbol and by group. A limit lowers an account's leverage on those instruments, never raises it.
 */
export interface LeverageLimits {
  symbols: Readonly<Record<string, number>>;
  groups: Readonly<Record<string, number>>;
}

/**
 * The leverage a position in `instrument` is margined at: the account's, at most the type's limit
 * for the instrument, else for its group (no limit: the account's).
 */
export function positionLeverage(accountLeverage: number, limits: LeverageLimits | null | undefined, instrument: { symbol: string; group: string }): number {
  if (!limits) return accountLeverage;
  const limit = limits.symbols[instrument.symbol] ?? limits.groups[instrument.group];
  return limit !== undefined && limit < accountLeverage ? limit : accountLeverage;
}

/**
 * A commission schedule (an account type's, docs/design.md#commission): `amount` USD per lot, or per
 * million USD of notional traded, charged on each deal (the open and the close), as MetaTrader 5.
 */
export interface CommissionSchedule {
  basis: 'lot' | 'million';
  amount: number;
}

/**
 * The commission of one deal in USD (positive: what the account pays), unrounded: per lot,
 * amount × V; per million, amount × the deal's notional in USD / 1,000,000 — the notional being
 * V × C in the base currency (Forex) or V × C × price in the quote currency (CFD), at the current
 * rate (`notionalUsd`). Null when no quote converts it.
 */
export function commissionUsd(schedule: CommissionSchedule, volume: number, price: number, instrument: Pick<InstrumentSpec, 'contractSize' | 'calcMode' | 'base' | 'quote'>, prices: PriceLookup): Decimal | null {
  if (schedule.basis === 'lot') return dec(schedule.amount).times(dec(volume));
  const notional = notionalUsd(volume, price, instrument, prices);
  return notional === null ? null : notional.times(dec(schedule.amount)).div(1_000_000);
}

export interface AccountFigures {
  equity: Decimal;
  freeMargin: Decimal;
  /** Percent; 0 when no margin is held. */
  marginLevel: Decimal;
}

/** Equity = balance + credit + floating profit; free margin = equity − margin; level = equity / margin × 100. */
export function accountFigures(balance: Decimal.Value, credit: Decimal.Value, floatingProfit: Decimal.Value, margin: Decimal.Value): AccountFigures {
  const equity = new D(balance).plus(credit).plus(floatingProfit);
  const m = new D(margin);
  return { equity, freeMargin: equity.minus(m), marginLevel: m.isZero() ? new D(0) : equity.times(100).div(m) };
}

/**
 * An account as an order finds it: balance and credit as posted, and the floating profit (swaps
 * included) and margin its open positions hold now, unrounded. The engine reads it under the account
 * lock; the order ticket from its live figures at streamed prices.
 */
export interface AccountBook {
  balance: Decimal.Value;
  credit: Decimal.Value;
  floating: Decimal.Value;
  margin: Decimal.Value;
}

/**
 * What an order adds to the account once filled: the margin it holds and its floating profit then (a
 * market order pays the spread at once: negative; a pending order: 0), and the commission its fill
 * is charged (USD, positive; paid from the balance at once).
 */
export interface OrderEffect {
  margin: Decimal.Value;
  floating: Decimal.Value;
  commission?: Decimal.Value;
}

/**
 * The account's figures once the order is filled: the engine refuses the order when their free
 * margin is negative, and the order ticket previews the very same number. One computation, so the
 * refusal and the preview cannot disagree (but for prices that moved in between).
 */
export function figuresAfterOrder(account: AccountBook, order: OrderEffect): AccountFigures {
  return accountFigures(new D(account.balance).minus(order.commission ?? 0), account.credit, new D(account.floating).plus(order.floating), new D(account.margin).plus(order.margin));
}

/** Decimals of an account figure (balance, equity, margin, free margin) on screen and in messages: the spec's 4. */
export const FIGURE_DECIMALS = 4;

/**
 * An account figure as people read it, wherever it is shown (the terminal's figures, the order
 * ticket's preview, the server's refusals): money as it is posted, to the cent, half away from
 * zero, then written with the spec's 4 decimals and thousands grouped: -10825.695 → '-10,825.7000'.
 */
export function figureText(value: Decimal.Value): string {
  const cents = new D(value).toDecimalPlaces(2, D.ROUND_HALF_UP);
  const text = cents.abs().toFixed(FIGURE_DECIMALS);
  const dot = text.indexOf('.');
  const whole = text.slice(0, dot).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${cents.isNegative() && !cents.isZero() ? '-' : ''}${whole}${text.slice(dot)}`;
}

/** The refusal of an order that free margin cannot carry, in the figures' own format. */
export function notEnoughMarginMessage(margin: Decimal.Value, freeMarginAfter: Decimal.Value): string {
  return `Not enough free margin: this order needs ${figureText(margin)} USD of margin; free margin would be ${figureText(freeMarginAfter)} USD.`;
}

/**
 * What a position would make or lose if it closed at `level` (a stop loss or take profit): its
 * profit in USD with the close price at the level (Buy closes on the bid, Sell on the ask, so both
 * are the level), converted at the current rates. Null when no rate converts it.
 */
export function profitAtLevel(side: Side, volume: number, open: number, level: number, instrument: Pick<InstrumentSpec, 'contractSize' | 'quote'>, prices: PriceLookup): Decimal | null {
  return profitUsd(side, volume, open, { bid: level, ask: level }, instrument, prices);
}

/**
 * A margin call starts when the level is at or below the margin-call level, and ends only once it
 * is clearly back above it: above the level times this factor (100% → above 110%). A level that
 * wavers around the line is one margin call, not one each time it crosses.
 */
export const MARGIN_CALL_RELEASE_FACTOR = 1.1;

/** The level above which a margin call ends (see MARGIN_CALL_RELEASE_FACTOR). */
export const marginCallReleaseLevel = (marginCallLevel: number): number => marginCallLevel * MARGIN_CALL_RELEASE_FACTOR;

/** Whether a volume is within the instrument's limits and on its step. */
export function volumeProblem(volume: number, instrument: Pick<InstrumentSpec, 'volumeMin' | 'volumeStep' | 'volumeMax'>): string | null {
  if (!Number.isFinite(volume) || volume <= 0) return 'Volume must be a positive number.';
  const v = dec(volume);
  if (v.lt(dec(instrument.volumeMin))) return `The minimum volume is ${instrument.volumeMin}.`;
  if (v.gt(dec(instrument.volumeMax))) return `The maximum volume is ${instrument.volumeMax}.`;
  if (!v.minus(dec(instrument.volumeMin)).mod(dec(instrument.volumeStep)).isZero()) return `Volume must be in steps of ${instrument.volumeStep}.`;
  return null;
}

/**
 * Why `part` lots of a position of `volume` lots cannot be closed on their own (null when they can):
 * the part is a volume the instrument allows (its minimum and step), less than the whole (closing
 * all of it is a close), and what stays open is a volume it allows too (not below its minimum, on
 * its grid).
 */
export function partialCloseProblem(volume: number, part: number, instrument: Pick<InstrumentSpec, 'volumeMin' | 'volumeStep' | 'volumeMax'>): string | null {
  if (!Number.isFinite(part) || part <= 0) return 'Volume must be a positive number.';
  if (!dec(part).lt(dec(volume))) return `Volume must be less than the position's ${volume} lots; to close all of it, close the position.`;
  const issue = volumeProblem(part, { ...instrument, volumeMax: volume });
  if (issue) return issue;
  const rest = dec(volume).minus(dec(part));
  if (rest.lt(dec(instrument.volumeMin))) return `The ${rest.toString()} lots left open would be below the minimum volume of ${instrument.volumeMin}.`;
  // Where the minimum is not a whole number of steps, a part on the grid can leave a rest off it.
  if (!rest.minus(dec(instrument.volumeMin)).mod(dec(instrument.volumeStep)).isZero()) return `The ${rest.toString()} lots left open would not be a volume the instrument allows (steps of ${instrument.volumeStep} from ${instrument.volumeMin}).`;
  return null;
}

/** The lots left open after closing `part` of `volume`, exact to the lot's decimals. */
export function volumeLeft(volume: number, part: number): number {
  return dec(volume).minus(dec(part)).toNumber();
}

/**
 * The closed part's share of an amount in cents the position carries (its swap, its opening
 * commission): `cents × part / volume`, rounded half away from zero. What stays with the open rest
 * is `cents` minus this share, so the two always add up to the whole.
 */
export function partShareCents(cents: number, volume: number, part: number): number {
  return dec(cents).times(dec(part)).div(dec(volume)).toDecimalPlaces(0, D.ROUND_HALF_UP).toNumber();
}

/**
 * Stop loss / take profit must sit on the valid side of the current price (0 = none):
 * Buy SL < bid < TP; Sell TP < ask < SL.
 */
export function stopsProblem(side: Side, stopLoss: number, takeProfit: number, p: Prices): string | null {
  if (side === 'buy') {
    if (stopLoss !== 0 && !(stopLoss < p.bid)) return 'For a Buy, the stop loss must be below the current bid.';
    if (takeProfit !== 0 && !(takeProfit > p.bid)) return 'For a Buy, the take profit must be above the current bid.';
  } else {
    if (stopLoss !== 0 && !(stopLoss > p.ask)) return 'For a Sell, the stop loss must be above the current ask.';
    if (takeProfit !== 0 && !(takeProfit < p.ask)) return 'For a Sell, the take profit must be below the current ask.';
  }
  return null;
}

/** Which level, if any, a price move triggers: Buy closes on the bid, Sell on the ask. */
export function triggeredStop(side: Side, stopLoss: number, takeProfit: number, p: Prices): 'sl' | 'tp' | null {
  if (side === 'buy') {
    if (stopLoss !== 0 && p.bid <= stopLoss) return 'sl';
    if (takeProfit !== 0 && p.bid >= takeProfit) return 'tp';
  } else {
    if (stopLoss !== 0 && p.ask >= stopLoss) return 'sl';
    if (takeProfit !== 0 && p.ask <= takeProfit) return 'tp';
  }
  return null;
}

/** Swap for one rollover in the quote currency: points per lot per day × point × contract × volume × days. */
export function swapInQuote(side: Side, volume: number, days: number, instrument: Pick<InstrumentSpec, 'swapLong' | 'swapShort' | 'digits' | 'contractSize'>): Decimal {
  const points = side === 'buy' ? instrument.swapLong : instrument.swapShort;
  return dec(points).times(dec(10).pow(-instrument.digits)).times(dec(instrument.contractSize)).times(dec(volume)).times(days);
}

export type PendingType = 'buy_limit' | 'sell_limit' | 'buy_stop' | 'sell_stop' | 'buy_stop_limit' | 'sell_stop_limit';

export const pendingSide = (type: PendingType): Side => (type.startsWith('buy') ? 'buy' : 'sell');

/**
 * Where a pending order may be placed relative to the current prices (MT5 rules): Buy Limit below
 * the ask, Buy Stop above it, Sell Limit above the bid, Sell Stop below it; a Stop Limit's stop as
 * its Stop, with its limit on the far side of the stop (Buy: below, Sell: above).
 */
export function pendingPlacementProblem(type: PendingType, price: number, stopLimitPrice: number, p: Prices): string | null {
  if (!(price > 0)) return 'The order price must be positive.';
  switch (type) {
    case 'buy_limit':
      return price < p.ask ? null : 'A Buy Limit must be below the current ask.';
    case 'buy_stop':
      return price > p.ask ? null : 'A Buy Stop must be above the current ask.';
    case 'sell_limit':
      return price > p.bid ? null : 'A Sell Limit must be above the current bid.';
    case 'sell_stop':
      return price < p.bid ? null : 'A Sell Stop must be below the current bid.';
    case 'buy_stop_limit':
      if (!(price > p.ask)) return 'A Buy Stop Limit stop price must be above the current ask.';
      return stopLimitPrice > 0 && stopLimitPrice < price ? null : 'A Buy Stop Limit limit price must be below its stop price.';
    case 'sell_stop_limit':
      if (!(price < p.bid)) return 'A Sell Stop Limit stop price must be below the current bid.';
      return stopLimitPrice > price ? null : 'A Sell Stop Limit limit price must be above its stop price.';
  }
}

/** The price the position will open near: the limit price of a stop-limit order, the order price otherwise. */
export const pendingEntryPrice = (type: PendingType, price: number, stopLimitPrice: number): number => (type.endsWith('stop_limit') ? stopLimitPrice : price);

/** The condition that activates a pending order (a stop-limit's stop first, then its limit). */
export function pendingCondition(type: PendingType, stopTriggered: boolean): 'ask<=' | 'ask>=' | 'bid<=' | 'bid>=' {
  switch (type) {
    case 'buy_limit':
      return 'ask<=';
    case 'buy_stop':
      return 'ask>=';
    case 'sell_limit':
      return 'bid>=';
    case 'sell_stop':
      return 'bid<=';
    case 'buy_stop_limit':
      return stopTriggered ? 'ask<=' : 'ask>=';
    case 'sell_stop_limit':
      return stopTriggered ? 'bid>=' : 'bid<=';
  }
}

/** Stops relative to an entry price (a pending order's): Buy SL < entry < TP; Sell TP < entry < SL. */
export function stopsAroundEntryProblem(side: Side, stopLoss: number, takeProfit: number, entry: number): string | null {
  if (side === 'buy') {
    if (stopLoss !== 0 && !(stopLoss < entry)) return 'For a Buy order, the stop loss must be below the order price.';
    if (takeProfit !== 0 && !(takeProfit > entry)) return 'For a Buy order, the take profit must be above the order price.';
  } else {
    if (stopLoss !== 0 && !(stopLoss > entry)) return 'For a Sell order, the stop loss must be above the order price.';
    if (takeProfit !== 0 && !(takeProfit < entry)) return 'For a Sell order, the take profit must be below the order price.';
  }
  return null;
}
