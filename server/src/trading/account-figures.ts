import Decimal from 'decimal.js';
import type { Cents } from '../domain/money';
import { accountFigures, marginUsd, profitUsd } from '@tradeport/trading-math';
import { refuse } from '../services/errors';
import type { Tx } from '../storage/db';
import { prepared, type Param } from '../storage/prepared';
import type { EngineState } from './engine-state';
import type { AccountState, OpenPosition } from './types';

const accountRow = prepared((db, param: Param<{ userId: number }>) => db.selectFrom('users').select(['balance_cents', 'credit_cents', 'leverage']).where('id', '=', param('userId')));

/**
 * An account's exact figures (decimal arithmetic): floating profit, margin, equity, free margin and
 * margin level from its balance and the positions held in memory, and the lowest balance a
 * withdrawal may leave. Orders, the margin monitor's exact check and the API read them here.
 */
export class AccountFigures {
  /**
   * A position's profit and margin as of one version of the quote book. Both depend only on the
   * position's fixed terms, the leverage and the book's prices, so they hold until any quote changes;
   * reads between two ticks (a polling terminal, the margin check after an order) reuse them.
   */
  private readonly valued = new WeakMap<OpenPosition, { version: number; profit: Decimal | null; leverage: number; margin: Decimal | null }>();

  /** Each account's last figures and the inputs they came from (see figures()). */
  private readonly lastFigures = new Map<number, { key: string; figures: AccountState }>();

  constructor(private readonly state: EngineState) {}

  private valuation(p: OpenPosition) {
    const version = this.state.market.book.version;
    let v = this.valued.get(p);
    if (v?.version !== version) {
      v = { version, profit: this.profitNow(p), leverage: Number.NaN, margin: null };
      this.valued.set(p, v);
    }
    return v;
  }

  private profitNow(p: OpenPosition): Decimal | null {
    const q = this.state.market.book.get(p.symbol);
    const instrument = this.state.instrumentOrNone(p.symbol);
    if (!q || !instrument) return null;
    return profitUsd(p.side, p.volume, p.openPrice, q, instrument, this.state.prices);
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
      v.margin = this.positionMargin(p, leverage);
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
    const positions = this.state.positionsOf(userId);
    let key = `${this.state.market.book.version}|${balanceCents}|${creditCents}|${leverage}`;
    for (const p of positions) key += `|${p.id}:${p.swapCents}`;
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
