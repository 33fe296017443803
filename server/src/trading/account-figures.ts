import Decimal from 'decimal.js';
import type { Cents } from '../domain/money';
import { accountFigures, marginUsd, profitUsd, type PriceLookup } from '@tradeport/trading-math';
import { refuse } from '../services/errors';
import type { Tx } from '../storage/db';
import { prepared, type Param } from '../storage/prepared';
import type { EngineState } from './engine-state';
import type { AccountState, OpenPosition } from './types';

/** A position's valuation: see AccountFigures.valued. */
interface Valuation {
  /** The book's version when the quotes in `reads` were last found unchanged. */
  version: number;
  serial: number;
  /** Symbol, then the quote it had (undefined: none), for every price the profit and margin looked up. */
  reads: unknown[];
  profit: Decimal | null;
  leverage: number;
  margin: Decimal | null;
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
  private readonly lastFigures = new Map<number, { key: string; figures: AccountState }>();

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
      v = { version, serial: ++valuations, reads: [], profit: null, leverage: Number.NaN, margin: null };
      v.profit = this.profitNow(p, v);
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

  private profitNow(p: OpenPosition, v: Valuation): Decimal | null {
    const prices = this.readingInto(v, p.symbol);
    const q = prices(p.symbol);
    const instrument = this.state.instrumentOrNone(p.symbol);
    if (!q || !instrument) return null;
    return profitUsd(p.side, p.volume, p.openPrice, q, instrument, prices);
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
    return this.valuation(p).profit;
  }

  /** Margin of one position in USD, or null when it cannot be valued (no conversion rate right now). */
  positionMargin(p: Pick<OpenPosition, 'symbol' | 'volume' | 'openPrice'>, leverage: number): Decimal | null {
    const instrument = this.state.instrumentOrNone(p.symbol);
    return instrument ? marginUsd(p.volume, p.openPrice, leverage, instrument, this.state.prices) : null;
  }

  private heldMargin(p: OpenPosition, leverage: number): Decimal | null {
    const v = this.valuation(p);
    if (v.leverage !== leverage) {
      // Computed at the same prices the valuation holds (it was just checked), and what it reads is noted with them.
      const instrument = this.state.instrumentOrNone(p.symbol);
      v.margin = instrument ? marginUsd(p.volume, p.openPrice, leverage, instrument, this.readingInto(v, p.symbol)) : null;
      v.leverage = leverage;
    }
    return v.margin;
  }

  async account(userId: number, trx?: Tx): Promise<AccountState> {
    const before = trx ? undefined : this.state.holdings.get(userId);
    const version = before?.version;
    const user = trx ? await trx.selectFrom('users').select(['balance_cents', 'credit_cents', 'leverage']).where('id', '=', userId).executeTakeFirstOrThrow() : await accountRow.first(this.state.ctx.db, { userId });
    if (!user) throw new Error(`account ${userId} not found`);
    // Refresh the sweep's cache, unless a balance event came in while this read was under way.
    if (before && this.state.holdings.get(userId) === before && before.version === version) before.account = { balanceCents: user.balance_cents, creditCents: user.credit_cents, leverage: user.leverage };
    return this.figures(userId, user.balance_cents, user.credit_cents, user.leverage);
  }

  figures(userId: number, balanceCents: Cents, creditCents: Cents, leverage: number, extra?: { floating: Decimal; margin: Decimal }): AccountState {
    if (extra) return this.computeFigures(userId, balanceCents, creditCents, leverage, extra);
    // The same inputs give the same figures: reused while the book, the balance and the positions
    // (with their swaps) are what they were.
    // The positions' price stamps stand for the prices: a tick on a symbol the account neither holds
    // nor converts through changes none of them.
    const positions = this.state.positionsOf(userId);
    let key = `${balanceCents}|${creditCents}|${leverage}`;
    for (const p of positions) key += `|${p.id}:${p.swapCents}:${this.priceStamp(p)}`;
    const cached = this.lastFigures.get(userId);
    if (cached?.key === key) return cached.figures;
    const figures = this.computeFigures(userId, balanceCents, creditCents, leverage);
    if (this.lastFigures.size >= 10_000) this.lastFigures.clear();
    this.lastFigures.set(userId, { key, figures });
    return figures;
  }

  private computeFigures(userId: number, balanceCents: Cents, creditCents: Cents, leverage: number, extra?: { floating: Decimal; margin: Decimal }): AccountState {
    let floating = new Decimal(0);
    let margin = new Decimal(0);
    let unvalued = 0;
    for (const p of this.state.positionsOf(userId)) {
      const profit = this.floatingProfit(p);
      const m = this.heldMargin(p, leverage);
      if (profit === null || m === null) unvalued += 1;
      floating = floating.plus(profit ?? 0).plus(new Decimal(p.swapCents).div(100));
      if (m !== null) margin = margin.plus(m);
    }
    if (extra) {
      floating = floating.plus(extra.floating);
      margin = margin.plus(extra.margin);
    }
    const f = accountFigures(new Decimal(balanceCents).div(100), new Decimal(creditCents).div(100), floating, margin);
    return { balanceCents, creditCents, leverage, floating, margin, unvalued, ...f };
  }

  /**
   * The lowest balance a withdrawal may leave: enough that free margin stays ≥ 0 (never below 0).
   * Read from the positions table inside the caller's transaction (which holds the account lock),
   * not from memory, so an order committed a moment ago is always counted.
   */
  async withdrawalFloorCents(trx: Tx, userId: number): Promise<Cents> {
    const user = await trx.selectFrom('users').select(['credit_cents', 'leverage']).where('id', '=', userId).executeTakeFirstOrThrow();
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
    // equity − margin ≥ 0 with balance b: b ≥ margin − credit − floating.
    const floor = margin.minus(new Decimal(user.credit_cents).div(100)).minus(floating).times(100).ceil();
    return Math.max(0, floor.toNumber());
  }
}
