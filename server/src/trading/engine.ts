import type Decimal from 'decimal.js';
import type { Cents } from '../domain/money';
import type { PendingType, Side } from '@tradeport/trading-math';
import type { MarketData } from '../market/market-data';
import type { BookQuote } from '../market/types';
import type { Actor, ServiceContext } from '../services/context';
import type { Tx } from '../storage/db';
import { AccountFigures } from './account-figures';
import { Closes } from './closes';
import { EngineState, type EngineLog } from './engine-state';
import { MarginMonitor } from './margin-monitor';
import { PendingOrders } from './pending-orders';
import { Positions } from './positions';
import { Rollovers } from './rollovers';
import type { AccountState, CloseOptions, CloseReason, OpenedOrder, OpenPosition, PendingOrder } from './types';

export type { AccountState, CloseOptions, CloseReason, OpenedOrder, OpenPosition, PendingOrder } from './types';

/**
 * The trading engine: open positions live in memory (loaded at start, written through on every
 * change), their SL/TP levels in a per-symbol trigger index evaluated on every tick of the quote
 * book, with every browser closed. Commands of one user run one at a time, so margin checks see the
 * effect of the previous command; a close is a guarded `open → closed` update that posts its profit
 * to the ledger in the same transaction, so a manual close racing its own stop loss, or 50 clients
 * closing one ticket, close it once.
 *
 * This class wires the parts and owns their lifecycle (loading, the quote and event subscriptions,
 * the timers); the work is done by the parts, which share one `EngineState`: positions.ts (opening,
 * SL/TP changes), pending-orders.ts, closes.ts (closes and their group commit), margin-monitor.ts
 * (sweep, margin call, stop-out), account-figures.ts and rollovers.ts (swap).
 */
export class TradingEngine {
  private readonly state: EngineState;
  private readonly accounts: AccountFigures;
  private readonly rollovers: Rollovers;
  private readonly closes: Closes;
  private readonly positions: Positions;
  private readonly orders: PendingOrders;
  private readonly monitor: MarginMonitor;
  /** For each conversion pair (e.g. USDJPY), the instruments whose USD figures move with it. */
  private readonly dependents = new Map<string, string[]>();
  private unsubscribe: (() => void) | null = null;
  private unsubscribeBus: (() => void) | null = null;
  private sweepTimer: NodeJS.Timeout | null = null;
  private rolloverTimer: NodeJS.Timeout | null = null;
  private expiryTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly market: MarketData,
    private readonly log: EngineLog,
  ) {
    this.state = new EngineState(ctx, market, log);
    this.accounts = new AccountFigures(this.state);
    this.rollovers = new Rollovers(this.state);
    this.closes = new Closes(this.state, this.rollovers);
    this.positions = new Positions(this.state, this.accounts);
    this.orders = new PendingOrders(this.state, this.positions);
    this.monitor = new MarginMonitor(this.state, this.accounts, this.closes);
  }

  async start(): Promise<void> {
    await this.positions.load();
    await this.rollovers.load();
    await this.orders.load();
    for (const i of this.market.instruments) {
      const currencies = [i.quote, ...(i.calcMode === 'forex' ? [i.base] : [])].filter((c) => c !== 'USD');
      for (const c of currencies) {
        const pair = this.market.book.instruments.has(`${c}USD`) ? `${c}USD` : `USD${c}`;
        if (pair === i.symbol || !this.market.book.instruments.has(pair)) continue;
        const list = this.dependents.get(pair) ?? [];
        if (!list.includes(i.symbol)) list.push(i.symbol);
        this.dependents.set(pair, list);
      }
    }
    await this.monitor.resyncAccounts();
    this.unsubscribeBus = this.monitor.followBalances();
    this.unsubscribe = this.market.book.onQuote((quote) => this.onTick(quote));
    this.sweepTimer = setInterval(() => void this.monitor.marginSweep(), this.ctx.config.trading.marginCheckMs);
    this.sweepTimer.unref();
    // Every minute: a due rollover, and kept swap that may be priceable by now (inside applyRollovers).
    this.rolloverTimer = setInterval(() => void this.rollovers.applyRollovers(this.ctx.now()).catch((err: unknown) => this.log.warn({ err }, 'swap rollover failed; it is tried again in a minute')), 60_000);
    this.rolloverTimer.unref();
    this.expiryTimer = setInterval(() => void this.orders.expireOrders(this.ctx.now()), 1000);
    this.expiryTimer.unref();
    // Withdrawals may not take what open positions need: see ServiceContext.reservedMargin.
    this.ctx.reservedMargin = (trx, userId) => this.accounts.withdrawalFloorCents(trx, userId);
  }

  /** Stops evaluating ticks and waits for closes already under way. */
  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribeBus?.();
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    if (this.rolloverTimer) clearInterval(this.rolloverTimer);
    if (this.expiryTimer) clearInterval(this.expiryTimer);
    // Closes under way may start others (a failed batch falls back to single closes): wait for all.
    while (this.state.pending.size > 0) await Promise.allSettled([...this.state.pending]);
  }

  private onTick(quote: BookQuote): void {
    const { state } = this;
    if (state.holders.get(quote.symbol)?.size) state.dirtySymbols.add(quote.symbol);
    // A conversion rate moving changes the USD figures of the instruments that convert through it.
    for (const d of this.dependents.get(quote.symbol) ?? []) if (state.holders.get(d)?.size) state.dirtySymbols.add(d);
    // A tick outside the session (a bridge pushing a closed market) or already stale fires nothing:
    // triggers and pending orders stay in their indexes and fire at the first tradable tick after
    // the open, at that tick's price, as MT5 does.
    if (state.untradableReason(quote.symbol) !== null) return;
    this.orders.activateReached(quote);
    this.closes.closeTriggered(quote);
  }

  // ------------------------------------------------------------------ reads

  positionsOf(userId: number): OpenPosition[] {
    return this.state.positionsOf(userId);
  }

  /** Changes whenever a position opens or closes (not when one's stop loss, take profit or swap changes). */
  get openVersion(): number {
    return this.state.openChanges;
  }

  get openCount(): number {
    return this.state.open.size;
  }

  allOpen(): OpenPosition[] {
    return [...this.state.open.values()].sort((a, b) => a.id - b.id);
  }

  get(positionId: number): OpenPosition | undefined {
    return this.state.open.get(positionId);
  }

  /** Floating profit of one position in USD at current prices, or null without a usable quote. */
  floatingProfit(p: OpenPosition): Decimal | null {
    return this.accounts.floatingProfit(p);
  }

  account(userId: number, trx?: Tx): Promise<AccountState> {
    return this.accounts.account(userId, trx);
  }

  pendingOf(userId: number): PendingOrder[] {
    return this.orders.pendingOf(userId);
  }

  // ------------------------------------------------------------------ commands

  /**
   * Opens a market position: Buy at the ask, Sell at the bid of the server's quote. Refused when the
   * market is closed, the quote is stale, the volume or SL/TP is invalid, or free margin would be
   * negative. With an Idempotency-Key a retry returns the first answer and opens nothing.
   */
  openMarket(actor: Actor, requested: { symbol: string; side: Side; volume: number; stopLoss: number; takeProfit: number; comment: string }, idempotencyKey?: string): Promise<OpenedOrder> {
    return this.positions.openMarket(actor, requested, idempotencyKey);
  }

  modify(actor: Actor, positionId: number, levels: { stopLoss: number; takeProfit: number }): Promise<void> {
    return this.positions.modify(actor, positionId, levels);
  }

  /**
   * Closes a position at the current server price (or at the tick that triggered it), exactly once.
   * `owner` restricts the close to that user's position; `by` records who closed it.
   */
  close(positionId: number, reason: CloseReason, opts: CloseOptions = {}): Promise<{ profitCents: Cents; price: number }> {
    return this.closes.close(positionId, reason, opts);
  }

  /** Places a pending order; it fills on the server when the market reaches it, browsers closed or not. */
  placeOrder(actor: Actor, o: { symbol: string; type: PendingType; volume: number; price: number; stopLimitPrice: number; stopLoss: number; takeProfit: number; comment: string; expiresAt: number | null }, idempotencyKey?: string): Promise<{ orderId: number }> {
    return this.orders.placeOrder(actor, o, idempotencyKey);
  }

  modifyOrder(actor: Actor, orderId: number, change: { price: number; stopLimitPrice: number; stopLoss: number; takeProfit: number; expiresAt: number | null }): Promise<void> {
    return this.orders.modifyOrder(actor, orderId, change);
  }

  cancelOrder(actor: Actor, orderId: number): Promise<void> {
    return this.orders.cancelOrder(actor, orderId);
  }

  // ------------------------------------------------------------------ timed work (timers call it; tests call it with their own clock)

  /** Expires pending orders whose time has come (every second, and callable with an injected clock). */
  expireOrders(now: number): Promise<number> {
    return this.orders.expireOrders(now);
  }

  /** One margin sweep (see MarginMonitor.marginSweep); runs every `marginCheckMs`. */
  marginSweep(): Promise<{ screened: number; checked: number }> {
    return this.monitor.marginSweep();
  }

  checkMargin(userId: number): Promise<void> {
    return this.monitor.checkMargin(userId);
  }

  /** Charges swap for every rollover since the last one applied, exactly once (see Rollovers.applyRollovers). */
  applyRollovers(now: number): Promise<number> {
    return this.rollovers.applyRollovers(now);
  }
}
