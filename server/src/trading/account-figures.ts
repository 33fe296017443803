import Decimal from 'decimal.js';
import { formatCents, roundToCents, type Cents } from '../domain/money';
import { accountFigures, Dec, marginUsd, profitUsd, type InstrumentSpec, type PriceLookup, type Prices, type Side } from '@tradeport/trading-math';
import { refuse } from '../services/errors';
import type { Tx } from '../storage/db';
import { databaseVersion, prepared, type Param } from '../storage/prepared';
import type { EngineState } from './engine-state';
import type { AccountState, OpenPosition } from './types';

/** A position's valuation: see AccountFigures.valued. */
interface Valuation {
  /** The book's version when the quotes in `reads` were last found unchanged. */
  version: number;
  serial: number;
  /** Symbol, then the quote it had (undefined: none), for every price the profit and margin looked up. */
  reads: unknown[];
  /** The profit in scaled integers (see `Exact`). */
  exactProfit: Exact;
  /** decimal.js's profit: at once when the exact one is 'inexact', otherwise made from it when first asked for (undefined: not yet). */
  profit: Decimal | null | undefined;
  /** The leverage `exactMargin` and `margin` are for (NaN: none yet). */
  leverage: number;
  exactMargin: Exact;
  margin: Decimal | null | undefined;
  /** The profit as the API shows it (see `profitShown`; undefined: not yet). */
  profitText: string | null | undefined;
}

/**
 * Numbers the valuations: a new number, new prices for that position. One count for the whole
 * process, so the figures rebuilt when the engine leads again never repeat a stamp of the ones before.
 */
let valuations = 0;

const accountRow = prepared((db, param: Param<{ userId: number }>) => db.selectFrom('users').select(['balance_cents', 'credit_cents', 'leverage']).where('id', '=', param('userId')));

/**
 * An account's exact figures (decimal arithmetic): floating profit, margin, equity, free margin and
 * margin level from its balance and the positions held in memory, and the lowest balance a
 * withdrawal may leave. Orders, the margin monitor's exact check and the API read them here.
 */
export class AccountFigures {
  /**
   * A position's profit and margin with the quotes they were computed from. Both depend only on the
   * position's fixed terms, the leverage and the prices its valuation looked up (its own symbol's
   * quote and the conversion rates to USD), so they hold while each of those quotes is the very
   * object it was: a tick on any other symbol leaves them (and the figures and answers keyed on
   * `serial`) as they are. The quote book replaces a quote's object on every change, never edits it.
   */
  private readonly valued = new WeakMap<OpenPosition, Valuation>();

  /** Each account's last figures and the inputs they came from (see figures()). */
  private readonly lastFigures = new Map<number, { balanceCents: Cents; creditCents: Cents; leverage: number; /** id, swap, price stamp of each position in turn. */ positions: number[]; figures: AccountState }>();

  constructor(private readonly state: EngineState) {}

  private valuation(p: OpenPosition): Valuation {
    const book = this.state.market.book;
    const version = book.version;
    let v = this.valued.get(p);
    if (v !== undefined && v.version !== version) {
      // Some quote changed since: still good if none of those this valuation read did.
      const reads = v.reads;
      let same = true;
      for (let i = 0; i < reads.length && same; i += 2) same = book.get(reads[i] as string) === reads[i + 1];
      if (same) v.version = version;
      else v = undefined;
    }
    if (v === undefined) {
      v = { version, serial: ++valuations, reads: [], exactProfit: null, profit: undefined, leverage: Number.NaN, exactMargin: null, margin: undefined, profitText: undefined };
      this.profitNow(p, v);
      this.valued.set(p, v);
    }
    return v;
  }

  /**
   * The book's prices, noting each quote looked up (and what it was) in `v.reads`, and the symbol
   * among those the valuations of `held`'s positions read (see `pricesOfOpen`).
   */
  private readingInto(v: Valuation, held: string): PriceLookup {
    let read = this.readFor.get(held);
    if (!read) this.readFor.set(held, (read = new Set()));
    const seen = read;
    return (symbol) => {
      const q = this.state.market.book.get(symbol);
      v.reads.push(symbol, q);
      if (!seen.has(symbol)) seen.add(symbol);
      return q;
    };
  }
  /** For each symbol positions are held in, every symbol the valuations of such positions have read (it only grows). */
  private readonly readFor = new Map<string, Set<string>>();

  /**
   * The quotes the valuations of every open position read, as a list: a list taken later that is
   * equal item by item (`===`) means every open position's profit and margin are the same as when
   * this one was taken (with the same positions open: see `openChanges`). A position valued for the
   * first time after it was taken may add symbols: the lists then differ.
   */
  pricesOfOpen(): unknown[] {
    const book = this.state.market.book;
    const out: unknown[] = [];
    for (const [symbol, holders] of this.state.holders) {
      if (holders.size === 0) continue;
      out.push(symbol);
      for (const read of this.readFor.get(symbol) ?? []) out.push(read, book.get(read));
    }
    return out;
  }

  /**
   * Values the position's profit into `v`: in scaled integers where that is provably what decimal.js
   * gives (see `exactProfitUsd`), with decimal.js otherwise. Both look the prices up through `v`.
   */
  private profitNow(p: OpenPosition, v: Valuation): void {
    const prices = this.readingInto(v, p.symbol);
    const q = prices(p.symbol);
    const instrument = this.state.instrumentOrNone(p.symbol);
    if (!q || !instrument) {
      v.exactProfit = null;
      v.profit = null;
      return;
    }
    v.exactProfit = exactProfitUsd(p.side, p.volume, p.openPrice, q, instrument, prices);
    v.profit = v.exactProfit === 'inexact' ? profitUsd(p.side, p.volume, p.openPrice, q, instrument, prices) : undefined;
  }

  /**
   * A number that stays the same while the position's profit, margin and own quote (what its row
   * and its account's figures show of the prices) stay the same, and changes when any quote they
   * were computed from changes.
   */
  priceStamp(p: OpenPosition): number {
    return this.valuation(p).serial;
  }

  /** Floating profit of one position in USD at current prices, or null without a usable quote. */
  floatingProfit(p: OpenPosition): Decimal | null {
    const v = this.valuation(p);
    if (v.profit === undefined) {
      v.profit = decimalOf(v.exactProfit);
      if (v.profit !== null && v.exactProfit !== null && v.exactProfit !== 'inexact') exactProfits.set(v.profit, v.exactProfit);
    }
    return v.profit;
  }

  /**
   * `profitText(floatingProfit(p))`, kept with the valuation: from the exact profit without making
   * its decimal.js value (a Decimal parsed from text, per position and tick, only to be rounded to
   * cents), or from decimal.js's when there is no exact one.
   */
  profitShown(p: OpenPosition): string | null {
    const v = this.valuation(p);
    if (v.profitText === undefined) v.profitText = shownProfit(v.exactProfit, () => this.floatingProfit(p));
    return v.profitText;
  }

  /** Margin of one position in USD, or null when it cannot be valued (no conversion rate right now). */
  positionMargin(p: Pick<OpenPosition, 'symbol' | 'volume' | 'openPrice'>, leverage: number): Decimal | null {
    const instrument = this.state.instrumentOrNone(p.symbol);
    return instrument ? marginUsd(p.volume, p.openPrice, leverage, instrument, this.state.prices) : null;
  }

  /** The position's valuation with its margin at `leverage` in it (exact, or decimal.js's when it cannot be). */
  private withMargin(p: OpenPosition, leverage: number): Valuation {
    const v = this.valuation(p);
    if (v.leverage !== leverage) {
      // Computed at the same prices the valuation holds (it was just checked), and what it reads is noted with them.
      const instrument = this.state.instrumentOrNone(p.symbol);
      const prices = this.readingInto(v, p.symbol);
      v.exactMargin = instrument ? exactMarginUsd(p.volume, p.openPrice, leverage, instrument, prices) : null;
      v.margin = instrument && v.exactMargin === 'inexact' ? marginUsd(p.volume, p.openPrice, leverage, instrument, prices) : undefined;
      v.leverage = leverage;
    }
    return v;
  }

  private heldMargin(p: OpenPosition, leverage: number): Decimal | null {
    const v = this.withMargin(p, leverage);
    if (v.margin === undefined) v.margin = decimalOf(v.exactMargin);
    return v.margin;
  }

  /** Each account's row as last read, with the database version it was read at. */
  private readonly lastRows = new Map<number, { database: string; row: { balance_cents: Cents; credit_cents: Cents; leverage: number } }>();

  async account(userId: number, trx?: Tx): Promise<AccountState> {
    const before = trx ? undefined : this.state.holdings.get(userId);
    const version = before?.version;
    // While no account table was written since the row was last read (SQLite: see databaseVersion), it is what the database holds.
    const database = trx ? undefined : databaseVersion(this.state.ctx.db, 'accounts');
    const last = database === undefined ? undefined : this.lastRows.get(userId);
    const user = last !== undefined && last.database === database ? last.row : trx ? await trx.selectFrom('users').select(['balance_cents', 'credit_cents', 'leverage']).where('id', '=', userId).executeTakeFirstOrThrow() : await accountRow.first(this.state.ctx.db, { userId });
    if (!user) throw new Error(`account ${userId} not found`);
    if (database !== undefined && last?.database !== database) {
      if (this.lastRows.size >= 10_000) this.lastRows.clear();
      this.lastRows.set(userId, { database, row: user });
    }
    // Refresh the sweep's cache, unless a balance event came in while this read was under way.
    if (before && this.state.holdings.get(userId) === before && before.version === version) before.account = { balanceCents: user.balance_cents, creditCents: user.credit_cents, leverage: user.leverage };
    return this.figures(userId, user.balance_cents, user.credit_cents, user.leverage);
  }

  figures(userId: number, balanceCents: Cents, creditCents: Cents, leverage: number): AccountState {
    // The same inputs give the same figures: reused while the balance, the positions (with their
    // swaps) and their price stamps are what they were. The stamps stand for the prices: a tick on
    // a symbol the account neither holds nor converts through changes none of them.
    const positions = this.state.positionsOf(userId);
    const cached = this.lastFigures.get(userId);
    if (cached && cached.balanceCents === balanceCents && cached.creditCents === creditCents && cached.leverage === leverage && this.samePositions(cached.positions, positions)) return cached.figures;
    const inputs: number[] = [];
    for (const p of positions) inputs.push(p.id, p.swapCents, this.priceStamp(p));
    const figures = this.exactFigures(positions, balanceCents, creditCents, leverage) ?? this.computeFigures(userId, balanceCents, creditCents, leverage);
    if (this.lastFigures.size >= 10_000) this.lastFigures.clear();
    this.lastFigures.set(userId, { balanceCents, creditCents, leverage, positions: inputs, figures });
    return figures;
  }

  /**
   * Whether `state`, an answer of `account`, is what the account's positions, their swaps and price
   * stamps give now: nothing the figures were computed from has moved since (the balance aside, which
   * the caller knows from the database's version). False when unsure (the figures were computed
   * again meanwhile).
   */
  isCurrent(userId: number, state: AccountState): boolean {
    const cached = this.lastFigures.get(userId);
    return cached !== undefined && cached.figures === state && this.samePositions(cached.positions, this.state.positionsOf(userId));
  }

  /** Whether `inputs` (id, swap, price stamp of each position in turn) are those of `positions` now. */
  private samePositions(inputs: readonly number[], positions: readonly OpenPosition[]): boolean {
    if (inputs.length !== positions.length * 3) return false;
    for (let i = 0; i < positions.length; i++) {
      const p = positions[i] as OpenPosition;
      if (inputs[3 * i] !== p.id || inputs[3 * i + 1] !== p.swapCents || inputs[3 * i + 2] !== this.priceStamp(p)) return false;
    }
    return true;
  }

  /**
   * The figures in scaled integers, when every position was valued exactly and nothing overflows
   * (null otherwise: `computeFigures` then does it with decimal.js). Their decimal.js values are made
   * only when something reads them; the texts the API shows come from the integers (`figureTexts`).
   */
  private exactFigures(positions: readonly OpenPosition[], balanceCents: Cents, creditCents: Cents, leverage: number): AccountState | null {
    const held: HeldExactly[] = [];
    for (const p of positions) {
      const v = this.withMargin(p, leverage);
      if (v.exactProfit === 'inexact' || v.exactMargin === 'inexact') return null;
      held.push({ profit: v.exactProfit, margin: v.exactMargin, swapCents: p.swapCents });
    }
    return exactAccountState(balanceCents, creditCents, leverage, held);
  }

  private computeFigures(userId: number, balanceCents: Cents, creditCents: Cents, leverage: number): AccountState {
    const held = this.state.positionsOf(userId).map((p) => ({ profit: this.floatingProfit(p), margin: this.heldMargin(p, leverage), swapCents: p.swapCents }));
    return decimalAccountState(balanceCents, creditCents, leverage, held);
  }

  /**
   * The lowest balance a withdrawal may leave (see `withdrawalFloor`). Read from the positions table
   * inside the caller's transaction (which holds the account lock), not from memory, so an order
   * committed a moment ago is always counted.
   */
  async withdrawalFloorCents(trx: Tx, userId: number): Promise<Cents> {
    const user = await trx.selectFrom('users').select(['leverage']).where('id', '=', userId).executeTakeFirstOrThrow();
    const rows = await trx.selectFrom('positions').select(['symbol', 'side', 'volume', 'open_price', 'swap_cents']).where('user_id', '=', userId).where('status', '=', 'open').execute();
    let floating = new Decimal(0);
    let margin = new Decimal(0);
    for (const r of rows) {
      const p = { symbol: r.symbol, side: r.side, volume: r.volume, openPrice: r.open_price };
      const q = this.state.market.book.get(r.symbol);
      const instrument = this.state.instrumentOrNone(r.symbol);
      const profit = q && instrument ? profitUsd(p.side, p.volume, p.openPrice, q, instrument, this.state.prices) : null;
      floating = floating.plus(profit ?? 0).plus(new Decimal(Number(r.swap_cents)).div(100));
      const m = this.positionMargin(p, user.leverage);
      // Fail closed: what the positions need cannot be known, so nothing may be withdrawn now.
      if (m === null || profit === null) throw refuse.invalid(`Withdrawals are paused while a conversion rate for your ${r.symbol} position is missing; please try again shortly.`);
      margin = margin.plus(m);
    }
    return withdrawalFloor(margin, floating);
  }
}

/**
 * The lowest balance a withdrawal may leave, in cents: what open positions need (`margin`) beyond
 * their floating profit and swaps (`floating`), never below 0. Credit is left out on purpose: the
 * trader's own money, without the broker's credit, must still cover the margin after a
 * withdrawal (balance − withdrawal + floating − margin ≥ 0), or credit granted as a bonus could
 * be turned into cash by withdrawing the balance it stands in for.
 */
export function withdrawalFloor(margin: Decimal, floating: Decimal): Cents {
  return Math.max(0, margin.minus(floating).times(100).ceil().toNumber());
}

// ------------------------------------------------------------------ exact figures in scaled integers
//
// decimal.js made every live figure: a few dozen decimal objects per account each time a price it
// reads moves. The same figures are computed here in scaled integers, n × 10^-s with n a safe integer
// (|n| < 2^53), wherever that provably gives the very value decimal.js gives: prices, volumes and
// contract sizes are read from the text of the number (`String(x)`, as the trading math's `dec` reads
// them); sums, differences and products are exact while they stay safe integers (every product is
// checked); a division is taken only when it comes out exact (by the leverage, which divides most
// notionals within a few decimals). A value of at most 16 significant digits is one decimal.js
// (precision 40, or 20 for the account's sums) holds without rounding, so both give the same number,
// and the same texts once rounded to cents. Anything else — a profit converted through a USD-based
// pair (a division by its price), an overflow, a number printed with an exponent — says 'inexact' and
// the figures are made with decimal.js as before. test/exact-figures.test.ts holds the two to each
// other, text for text.

/** An exact decimal: n × 10^-s, n a safe integer, s ≥ 0. */
export interface Scaled {
  n: number;
  s: number;
}

/** A scaled value; null where decimal.js gives null too (no price to value with); 'inexact' where only decimal.js can. */
export type Exact = Scaled | null | 'inexact';

const POW10 = Array.from({ length: 16 }, (_, i) => 10 ** i);

/** The decimal a number prints as (what `new Decimal(x.toString())` reads), or null when it takes an exponent or more than 15 digits. */
export function scaledOf(x: number): Scaled | null {
  const text = String(x);
  if (text.includes('e')) return null;
  const dot = text.indexOf('.');
  const n = Number(dot < 0 ? text : text.slice(0, dot) + text.slice(dot + 1));
  const s = dot < 0 ? 0 : text.length - dot - 1;
  return Number.isSafeInteger(n) && s < POW10.length ? { n, s } : null;
}

/** n at a larger scale, or null past a safe integer. */
function rescaled(a: Scaled, s: number): number | null {
  if (s === a.s) return a.n;
  const f = POW10[s - a.s];
  const n = f === undefined ? Number.NaN : a.n * f;
  return Number.isSafeInteger(n) ? n : null;
}

function plus(a: Scaled, b: Scaled): Scaled | null {
  const s = Math.max(a.s, b.s);
  const x = rescaled(a, s);
  const y = rescaled(b, s);
  if (x === null || y === null) return null;
  const n = x + y;
  return Number.isSafeInteger(n) ? { n, s } : null;
}

function minus(a: Scaled, b: Scaled): Scaled | null {
  return plus(a, { n: -b.n, s: b.s });
}

function times(a: Scaled, b: Scaled): Scaled | null {
  const n = a.n * b.n;
  const s = a.s + b.s;
  // A product past 2^53 is rounded by the multiplication, and then is no safe integer either.
  return Number.isSafeInteger(n) && s < POW10.length ? { n, s } : null;
}

/** a ÷ d for a positive safe integer d, when the quotient ends within the scales this works in. */
function over(a: Scaled, d: number): Scaled | null {
  if (d === 1) return a;
  if (!Number.isSafeInteger(d) || d <= 0) return null;
  for (let j = 0; a.s + j < POW10.length; j++) {
    const n = a.n * (POW10[j] as number);
    if (!Number.isSafeInteger(n)) return null;
    if (n % d === 0) return { n: n / d, s: a.s + j };
  }
  return null;
}

/** `toUsd` of the trading math, exactly: the same quotes looked up in the same order. */
function exactToUsd(amount: Scaled, currency: string, prices: PriceLookup, divisor: number): Exact {
  if (currency === 'USD') return over(amount, divisor) ?? 'inexact';
  const direct = prices(`${currency}USD`);
  if (direct && direct.bid > 0) {
    const rate = scaledOf(direct.bid);
    const product = rate && times(amount, rate);
    return (product && over(product, divisor)) ?? 'inexact';
  }
  const inverse = prices(`USD${currency}`);
  // A division by a price: decimal.js rounds it to 40 digits, which only decimal.js reproduces.
  if (inverse && inverse.bid > 0) return 'inexact';
  return null;
}

/** `profitUsd` of the trading math in scaled integers (see above). */
export function exactProfitUsd(side: Side, volume: number, open: number, p: Prices, instrument: Pick<InstrumentSpec, 'contractSize' | 'quote'>, prices: PriceLookup): Exact {
  const close = scaledOf(side === 'buy' ? p.bid : p.ask);
  const from = scaledOf(open);
  const c = scaledOf(instrument.contractSize);
  const v = scaledOf(volume);
  if (!close || !from || !c || !v) return 'inexact';
  const diff = side === 'buy' ? minus(close, from) : minus(from, close);
  const inQuote = diff && times(diff, c);
  const amount = inQuote && times(inQuote, v);
  return amount ? exactToUsd(amount, instrument.quote, prices, 1) : 'inexact';
}

/** `marginUsd` of the trading math in scaled integers (see above). */
export function exactMarginUsd(volume: number, open: number, leverage: number, instrument: Pick<InstrumentSpec, 'contractSize' | 'calcMode' | 'base' | 'quote'>, prices: PriceLookup): Exact {
  const v = scaledOf(volume);
  const c = scaledOf(instrument.contractSize);
  const notional = v && c && times(v, c);
  if (!notional) return 'inexact';
  if (instrument.calcMode === 'forex') return exactToUsd(notional, instrument.base, prices, leverage);
  const o = scaledOf(open);
  const value = o && times(notional, o);
  return value ? exactToUsd(value, instrument.quote, prices, leverage) : 'inexact';
}

/** The decimal.js value of an exact one, as the trading math would have made it (its Decimal class). */
function decimalOf(x: Exact): Decimal | null {
  if (x === null) return null;
  if (x === 'inexact') throw new Error('an inexact valuation has its decimal.js value already');
  return new Dec(`${x.n}e-${x.s}`);
}

/** What an account's figures are summed from: each position's profit and margin (null: not valued) and swap. */
export interface Held<T> {
  profit: T | null;
  margin: T | null;
  swapCents: Cents;
}
type HeldExactly = Held<Scaled>;

/** The account's figures in scaled integers. */
interface ExactAccount {
  floating: Scaled;
  margin: Scaled;
  equity: Scaled;
  freeMargin: Scaled;
  /** The margin level in hundredths of a percent, rounded as decimal.js's `toFixed(2)` rounds, and whether it is below zero. */
  levelHundredths: number;
  levelNegative: boolean;
}

const ZERO: Scaled = { n: 0, s: 0 };

/** Sums the account as `decimalAccountState` does, or null past a safe integer. */
export function exactAccount(balanceCents: Cents, creditCents: Cents, held: readonly HeldExactly[]): ExactAccount | null {
  let floating: Scaled | null = ZERO;
  let margin: Scaled | null = ZERO;
  for (const h of held) {
    floating = floating && plus(floating, h.profit ?? ZERO);
    floating = floating && plus(floating, { n: h.swapCents, s: 2 });
    if (h.margin !== null) margin = margin && plus(margin, h.margin);
    if (!floating || !margin) return null;
  }
  const cash = plus({ n: balanceCents, s: 2 }, { n: creditCents, s: 2 });
  const equity = cash && plus(cash, floating);
  const freeMargin = equity && minus(equity, margin);
  if (!equity || !freeMargin) return null;
  const level = levelHundredths(equity, margin);
  if (level === null) return null;
  return { floating, margin, equity, freeMargin, levelHundredths: level, levelNegative: margin.n !== 0 && equity.n < 0 };
}

/**
 * equity × 100 ÷ margin in hundredths, rounded half away from zero (0 without margin). decimal.js
 * first rounds the quotient to 40 digits, then `toFixed(2)`; that first rounding could only change
 * the result for a quotient within 10^-38 of a half-hundredth, and one of two safe integers lies at
 * least 1/(2 × margin) from it: so rounding the exact quotient is the same. By long division, so no
 * intermediate leaves the safe integers (null if one would).
 */
function levelHundredths(equity: Scaled, margin: Scaled): number | null {
  if (margin.n === 0) return 0;
  const s = Math.max(equity.s, margin.s);
  const e = rescaled(equity, s);
  const m = rescaled(margin, s);
  if (e === null || m === null || !Number.isSafeInteger(m * 10)) return null;
  const a = Math.abs(e);
  const d = Math.abs(m);
  // `%` is exact on doubles, and so is the division of what is left, a multiple of d.
  let r = a % d;
  let q = (a - r) / d;
  // Four more digits: × 100 for percent, two decimals.
  for (let i = 0; i < 4; i++) {
    const t = r * 10;
    r = t % d;
    q = q * 10 + (t - r) / d;
  }
  if (2 * r >= d) q += 1;
  if (!Number.isSafeInteger(q) || !Number.isSafeInteger(2 * r)) return null;
  return (e < 0) !== (m < 0) ? -q : q;
}

/** `roundToCents` of an exact value: half away from zero. */
function centsOf(x: Scaled): Cents | null {
  if (x.s <= 2) return rescaled(x, 2);
  const d = POW10[x.s - 2] as number;
  const r = x.n % d;
  const q = (x.n - r) / d;
  return 2 * Math.abs(r) >= d ? q + Math.sign(x.n) : q;
}

/** `formatCents` for a safe integer: the sign, the units, two digits of cents. */
export function centsText(cents: Cents): string {
  const a = Math.abs(cents);
  const rest = a % 100;
  return `${cents < 0 ? '-' : ''}${(a - rest) / 100}.${rest < 10 ? '0' : ''}${rest}`;
}

/** The figures as the API shows them (getMargins, the back office's trader page). */
export interface FigureTexts {
  totalMargin: string;
  balance: string;
  credit: string;
  profit: string;
  equity: string;
  freeMargin: string;
  marginLevel: string;
}

/** The texts of figures made with decimal.js (how the API has always shown them). */
function decimalTexts(a: AccountState): FigureTexts {
  const cents = (d: { toString(): string }) => formatCents(roundToCents(d.toString()));
  return {
    totalMargin: cents(a.margin),
    balance: formatCents(a.balanceCents),
    credit: formatCents(a.creditCents),
    profit: cents(a.floating),
    equity: cents(a.equity),
    freeMargin: cents(a.freeMargin),
    marginLevel: a.marginLevel.toFixed(2),
  };
}

function exactTexts(a: ExactAccount, balanceCents: Cents, creditCents: Cents): FigureTexts | null {
  const margin = centsOf(a.margin);
  const floating = centsOf(a.floating);
  const equity = centsOf(a.equity);
  const freeMargin = centsOf(a.freeMargin);
  if (margin === null || floating === null || equity === null || freeMargin === null) return null;
  // decimal.js writes a negative level that rounds to zero as "-0.00".
  const level = a.levelHundredths === 0 && a.levelNegative ? '-0.00' : centsText(a.levelHundredths);
  return { totalMargin: centsText(margin), balance: centsText(balanceCents), credit: centsText(creditCents), profit: centsText(floating), equity: centsText(equity), freeMargin: centsText(freeMargin), marginLevel: level };
}

/** The texts of figures made with decimal.js, kept with them. */
const textsOf = new WeakMap<AccountState, FigureTexts>();

/**
 * The texts of an account's figures, kept with the figures object (the engine hands the same one
 * out again while nothing it was computed from changed).
 */
export function figureTexts(a: AccountState): FigureTexts {
  if (a instanceof ExactAccountState) return (a.texts ??= Object.freeze(exactTexts(a.exact, a.balanceCents, a.creditCents) ?? decimalTexts(a)));
  let texts = textsOf.get(a);
  if (texts === undefined) textsOf.set(a, (texts = Object.freeze(decimalTexts(a))));
  return texts;
}

/** A position's profit as the API shows it ("12.34" USD, rounded to cents), or null when it has none. */
export function profitText(profit: Decimal | null): string | null {
  if (profit === null) return null;
  const exact = exactProfits.get(profit);
  const cents = exact === undefined ? null : centsOf(exact);
  return cents === null ? formatCents(roundToCents(profit)) : centsText(cents);
}
/**
 * `profitText` of a profit given exactly (null: no profit), from its integers, without its
 * decimal.js value; `decimal` (the same profit in decimal.js) is asked for only when the exact one
 * is 'inexact' or does not fit in cents.
 */
export function shownProfit(exact: Exact, decimal: () => Decimal | null): string | null {
  if (exact === null) return null;
  const cents = exact === 'inexact' ? null : centsOf(exact);
  return cents !== null ? centsText(cents) : profitText(decimal());
}
/** The exact values profits were made from (see `floatingProfit`). */
const exactProfits = new WeakMap<Decimal, Scaled>();

/**
 * The account's figures from exact valuations: the decimal.js values (the same numbers
 * `decimalAccountState` would make) are made when first read, from the very sums it would have made.
 */
function exactAccountState(balanceCents: Cents, creditCents: Cents, leverage: number, held: readonly HeldExactly[]): AccountState | null {
  const exact = exactAccount(balanceCents, creditCents, held);
  if (!exact) return null;
  let unvalued = 0;
  for (const h of held) if (h.profit === null || h.margin === null) unvalued += 1;
  return new ExactAccountState(balanceCents, creditCents, leverage, unvalued, exact);
}

/**
 * Figures made from exact valuations: the decimal.js values (the numbers `decimalAccountState`
 * would make) are made when first read, from the very sums it would have made — exact, at most 16
 * digits, so these are the numbers decimal.js's sums come to.
 */
class ExactAccountState implements AccountState {
  private made: { floating: Decimal; margin: Decimal; equity: Decimal; freeMargin: Decimal; marginLevel: Decimal } | undefined;
  constructor(
    readonly balanceCents: Cents,
    readonly creditCents: Cents,
    readonly leverage: number,
    readonly unvalued: number,
    readonly exact: ExactAccount,
  ) {}
  /** What the API shows of them (see `figureTexts`). */
  texts: FigureTexts | undefined;

  private decimals() {
    if (!this.made) {
      const floating = new Decimal(`${this.exact.floating.n}e-${this.exact.floating.s}`);
      const margin = new Decimal(`${this.exact.margin.n}e-${this.exact.margin.s}`);
      this.made = { floating, margin, ...accountFigures(new Decimal(this.balanceCents).div(100), new Decimal(this.creditCents).div(100), floating, margin) };
    }
    return this.made;
  }
  get floating(): Decimal {
    return this.decimals().floating;
  }
  get margin(): Decimal {
    return this.decimals().margin;
  }
  get equity(): Decimal {
    return this.decimals().equity;
  }
  get freeMargin(): Decimal {
    return this.decimals().freeMargin;
  }
  get marginLevel(): Decimal {
    return this.decimals().marginLevel;
  }
}

/** The account's figures with decimal.js, from each position's profit and margin (null: not valued) and swap. */
export function decimalAccountState(balanceCents: Cents, creditCents: Cents, leverage: number, held: readonly Held<Decimal>[]): AccountState {
  let floating = new Decimal(0);
  let margin = new Decimal(0);
  let unvalued = 0;
  for (const h of held) {
    if (h.profit === null || h.margin === null) unvalued += 1;
    floating = floating.plus(h.profit ?? 0).plus(new Decimal(h.swapCents).div(100));
    if (h.margin !== null) margin = margin.plus(h.margin);
  }
  const f = accountFigures(new Decimal(balanceCents).div(100), new Decimal(creditCents).div(100), floating, margin);
  return { balanceCents, creditCents, leverage, floating, margin, unvalued, ...f };
}

/** The account figures from exact valuations (for tests: `figureTexts` of it is what the API shows). */
export function exactAccountFigures(balanceCents: Cents, creditCents: Cents, leverage: number, held: readonly HeldExactly[]): AccountState | null {
  return exactAccountState(balanceCents, creditCents, leverage, held);
}
