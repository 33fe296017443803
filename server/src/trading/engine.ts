import type Decimal from 'decimal.js';
import type { Cents } from '../domain/money';
import type { PendingType, Side, Trailing } from '@tradeport/trading-math';
import type { MarketData } from '../market/market-data';
import type { BookQuote } from '../market/types';
import type { Actor, ServiceContext } from '../services/context';
import { leverageLimitsOf, markupsOf, swapsOf } from '../services/account-types';
import type { Tx } from '../storage/db';
import { AccountFigures } from './account-figures';
import { AccountResets } from './account-resets';
import { Closes } from './closes';
import { EngineState, EngineUnavailable, type EngineLog } from './engine-state';
import { MarginMonitor } from './margin-monitor';
import { PartialCloses, type PartClosed } from './partial-closes';
import { PendingOrders, type OnBehalf } from './pending-orders';
import { PriceAlerts, type AlertInput } from './price-alerts';
import { Positions } from './positions';
import { Rollovers } from './rollovers';
import { TrailingStops } from './trailing-stops';
import type { AccountState, CloseOptions, CloseReason, OpenedOrder, OpenPosition, PendingOrder } from './types';

interface Parts {
  state: EngineState;
  resets: AccountResets;
  accounts: AccountFigures;
  rollovers: Rollovers;
  closes: Closes;
  partials: PartialCloses;
  positions: Positions;
  trailing: TrailingStops;
  alerts: PriceAlerts;
  orders: PendingOrders;
  monitor: MarginMonitor;
}

export { EngineUnavailable } from './engine-state';
export type { AccountState, CloseOptions, CloseReason, OpenedOrder, OpenPosition, PendingOrder } from './types';

/**
 * The trading engine: open positions live in memory (loaded at start, written through on every
 * change), their SL/TP levels in a per-symbol trigger index evaluated on every tick of the quote
 * book, with every browser closed. Commands of one trading account run one at a time, so margin checks see the
 * effect of the previous command; a close is a guarded `open → closed` update that posts its profit
 * to the ledger in the same transaction, so a manual close racing its own stop loss, or 50 clients
 * closing one ticket, close it once.
 *
 * This class wires the parts and owns their lifecycle (loading, the quote and event subscriptions,
 * the timers); the work is done by the parts, which share one `EngineState`: positions.ts (opening,
 * SL/TP changes), trailing-stops.ts, price-alerts.ts, pending-orders.ts, closes.ts (closes and their group commit), partial-closes.ts, margin-monitor.ts
 * (sweep, margin call, stop-out), account-figures.ts and rollovers.ts (swap).
 */
export class TradingEngine {
  /** The parts, rebuilt at each start: an instance that leads again after standing down starts from the database, not from what it held before. */
  private parts: Parts;
  private started = false;
  private running = false;
  /** For each conversion pair (e.g. USDJPY), the instruments whose USD figures move with it. */
  private readonly dependents = new Map<string, string[]>();
  private unsubscribe: (() => void) | null = null;
  private unsubscribeBus: (() => void) | null = null;
  private sweepTimer: NodeJS.Timeout | null = null;
  private rolloverTimer: NodeJS.Timeout | null = null;
  private expiryTimer: NodeJS.Timeout | null = null;
  /** Counts the reads of the types' markups started (`reloadTypePrices`). */
  private pricesRead = 0;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly market: MarketData,
    private readonly log: EngineLog,
  ) {
    this.parts = this.build();
    // Withdrawals may not take what open positions need: see ServiceContext.reservedMargin. The
    // floor is read from the database and the quote book, so every instance can compute it, the
    // engine leader or not.
    this.ctx.reservedMargin = (trx, accountId, leverage) => this.parts.accounts.withdrawalFloorCents(trx, accountId, leverage);
  }

  private build(): Parts {
    const state = new EngineState(this.ctx, this.market, this.log);
    const accounts = new AccountFigures(state);
    const rollovers = new Rollovers(state);
    const closes = new Closes(state, rollovers);
    const partials = new PartialCloses(state, rollovers);
    const trailing = new TrailingStops(state);
    const alerts = new PriceAlerts(state);
    const positions = new Positions(state, accounts, trailing);
    const orders = new PendingOrders(state, positions);
    const monitor = new MarginMonitor(state, accounts, closes);
    const resets = new AccountResets(state, closes, orders);
    return { state, accounts, rollovers, closes, partials, positions, trailing, alerts, orders, monitor, resets };
  }

  /** The fencing epoch this engine claimed when it last started (null before its first start). */
  get epoch(): number | null {
    return this.parts.state.claimedEpoch;
  }

  /** Whether the engine runs here: loaded, following ticks, taking commands. */
  get isRunning(): boolean {
    return this.running;
  }

  /**
   * Loads open positions, swap state and pending orders from the database and starts following
   * ticks and the timers. May be called again after `stop()` (an instance taking the lead once
   * more): it then starts over from the database.
   */
  async start(): Promise<void> {
    if (this.running) return;
    if (this.started) this.parts = this.build();
    this.started = true;
    const { state, positions, rollovers, orders, alerts, monitor } = this.parts;
    // The fencing token first: what a previous leader still writes is refused, or committed before the load.
    await state.claimEpoch();
    state.leverageLimits = await leverageLimitsOf(state.ctx.db);
    state.typeSwaps = await swapsOf(state.ctx.db);
    await this.reloadTypePrices();
    await positions.load();
    await rollovers.load();
    await orders.load();
    await alerts.load();
    this.dependents.clear();
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
    await monitor.resyncAccounts();
    this.unsubscribeBus = monitor.followBalances();
    this.unsubscribe = this.market.book.onQuote((quote) => this.onTick(quote));
    this.sweepTimer = setInterval(() => void monitor.marginSweep(), this.ctx.config.trading.marginCheckMs);
    this.sweepTimer.unref();
    // Every minute: a due rollover, and kept swap that may be priceable by now (inside applyRollovers).
    this.rolloverTimer = setInterval(() => void rollovers.applyRollovers(this.ctx.now()).catch((err: unknown) => this.log.warn({ err }, 'swap rollover failed; it is tried again in a minute')), 60_000);
    this.rolloverTimer.unref();
    this.expiryTimer = setInterval(() => {
      const now = this.ctx.now();
      void orders.expireOrders(now);
      void alerts.expire(now);
    }, 1000);
    this.expiryTimer.unref();
    this.running = true;
  }

  /**
   * Stops evaluating ticks and taking commands at once (synchronously: an instance that lost the
   * engine lead must not fill anything more), then waits for the commands and closes already
   * under way (on PostgreSQL their writes pass the epoch fence, or are refused).
   */
  async stop(): Promise<void> {
    this.running = false;
    this.unsubscribe?.();
    this.unsubscribeBus?.();
    this.unsubscribe = this.unsubscribeBus = null;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    if (this.rolloverTimer) clearInterval(this.rolloverTimer);
    if (this.expiryTimer) clearInterval(this.expiryTimer);
    this.sweepTimer = this.rolloverTimer = this.expiryTimer = null;
    // Commands and closes under way may start others (a failed batch falls back to single closes): wait for all.
    const { state } = this.parts;
    while (state.pending.size > 0) await Promise.allSettled([...state.pending]);
  }

  /** Commands run only where the engine runs; anywhere else they are refused as retryable. */
  private commanding<T>(work: (parts: Parts) => Promise<T>): Promise<T> {
    if (!this.running) return Promise.reject(new EngineUnavailable());
    const done = work(this.parts);
    // stop() waits for it: a command that passed here is finished (or refused) before the engine counts as stopped.
    this.parts.state.background(done.catch(() => undefined));
    return done;
  }

  private onTick(quote: BookQuote): void {
    const { state, orders, closes, trailing, alerts } = this.parts;
    if (state.holders.get(quote.symbol)?.size) state.dirtySymbols.add(quote.symbol);
    // A conversion rate moving changes the USD figures of the instruments that convert through it.
    for (const d of this.dependents.get(quote.symbol) ?? []) if (state.holders.get(d)?.size) state.dirtySymbols.add(d);
    // A tick outside the session (a bridge pushing a closed market) or already stale fires nothing:
    // triggers and pending orders stay in their indexes and fire at the first tradable tick after
    // the open, at that tick's price, as MT5 does.
    if (state.untradableReason(quote.symbol) !== null) return;
    // Stops move first: a stop a tick moves is never reached by that tick (it trails the price).
    const reached = (q: BookQuote, key: string): void => {
      orders.activateReached(q, key);
      trailing.onTick(q, key);
      closes.closeTriggered(q, key);
    };
    reached(quote, quote.symbol);
    // Each type with its own markup on the symbol: the same tick at its prices (docs/design.md#spread-markup).
    const prices = this.market.typePrices;
    for (const typeId of prices.typesPricing(quote.symbol)) {
      const q = prices.quote(typeId, quote.symbol);
      if (q) reached(q, prices.keyOf(typeId, quote.symbol));
    }
    alerts.onTick(quote);
  }

  // ------------------------------------------------------------------ reads
  //
  // The one read interface of the hot trading reads (open positions, their profits, account
  // figures, pending orders): the engine's own memory, kept current as it applies each change, and
  // the quote book. Profits and margins come from `AccountFigures`/`Valuations` (trading-math).

  /** A trading account's open positions, in ticket order. */
  positionsOf(accountId: number): OpenPosition[] {
    return this.parts.state.positionsOf(accountId);
  }

  /** Waits (at most 2 s), when the account has a command in progress, until memory holds its change (a trader's read first awaits it). */
  caughtUp(accountId: number): Promise<unknown> | undefined {
    return this.parts.state.caughtUp(accountId);
  }

  /** Every open position, in no particular order (for a reader that groups or sums them). */
  openPositions(): IterableIterator<OpenPosition> {
    return this.parts.state.open.values();
  }

  allOpen(): OpenPosition[] {
    return [...this.parts.state.open.values()].sort((a, b) => a.id - b.id);
  }

  get(positionId: number): OpenPosition | undefined {
    return this.parts.state.open.get(positionId);
  }

  /** The quote a position is valued and closed at now: its account type's prices of its symbol. */
  quoteOf(p: OpenPosition): BookQuote | undefined {
    return this.parts.state.quoteFor(p.accountId, p.symbol);
  }

  /** Floating profit of one position in USD at current prices, or null without a usable quote. */
  floatingProfit(p: OpenPosition): Decimal | null {
    return this.parts.accounts.floatingProfit(p);
  }

  /** The position's profit as the API shows it (`profitText` of `floatingProfit`), or null without a usable quote. */
  profitShown(p: OpenPosition): string | null {
    return this.parts.accounts.profitShown(p);
  }

  /** `profitShown` in cents: what a total of shown profits adds up. */
  profitShownCents(p: OpenPosition): Cents | null {
    return this.parts.accounts.profitShownCents(p);
  }

  /** A trading account's figures now (its row read, in `trx` when given), with its holder. */
  account(accountId: number, trx?: Tx): Promise<AccountState & { userId: number }> {
    return this.parts.accounts.account(accountId, trx);
  }

  /**
   * The figures of a trading account whose balance, credit and leverage the caller has just read,
   * with the positions it holds now, margined under its type's leverage limits (or, with `typeId`,
   * under that type's: what a move to it would make of them).
   */
  figures(accountId: number, balanceCents: Cents, creditCents: Cents, leverage: number, typeId?: number): AccountState {
    return this.parts.accounts.figures(accountId, balanceCents, creditCents, leverage, typeId);
  }

  /** An account was moved to another type: its positions are margined under that type's limits from now on. */
  accountMoved(accountId: number, typeId: number): void {
    const { state } = this.parts;
    const h = state.holdings.get(accountId);
    state.accountTypes.set(accountId, typeId);
    // Its levels and orders wait for the new type's prices from now on.
    for (const p of h?.positions.values() ?? []) state.reindex(p);
    this.parts.orders.reindex(accountId);
    // A re-read of the cached figures under way began before the move: it must not undo it.
    if (h) h.version += 1;
    state.dirtyAccounts.add(accountId);
  }

  /** A trading account's pending orders, in id order. */
  pendingOf(accountId: number): PendingOrder[] {
    return this.parts.orders.pendingOf(accountId);
  }

  pendingOrder(orderId: number): PendingOrder | undefined {
    return this.parts.orders.get(orderId);
  }

  // ------------------------------------------------------------------ commands

  /**
   * Opens a market position: Buy at the ask, Sell at the bid of the server's quote. Refused when the
   * market is closed, the quote is stale, the volume or SL/TP is invalid, or free margin would be
   * negative. With an Idempotency-Key a retry returns the first answer and opens nothing.
   */
  openMarket(actor: Actor, requested: { symbol: string; side: Side; volume: number; stopLoss: number; takeProfit: number; comment: string; trailing?: Trailing | null }, idempotencyKey?: string): Promise<OpenedOrder> {
    return this.commanding((p) => p.positions.openMarket(actor, requested, idempotencyKey));
  }

  /** Changes an own position's SL, TP and trailing stop (see Positions.modify). */
  modify(actor: Actor, positionId: number, levels: { stopLoss: number; takeProfit: number; trailing?: Trailing | null }): Promise<void> {
    return this.commanding((p) => p.positions.modify(actor, positionId, levels));
  }

  /**
   * Closes a position at the current server price (or at the tick that triggered it), exactly once.
   * `account` restricts the close to that trading account's position; `by` records who closed it.
   */
  close(positionId: number, reason: CloseReason, opts: CloseOptions = {}): Promise<{ profitCents: Cents; price: number }> {
    return this.commanding((p) => p.closes.close(positionId, reason, opts));
  }

  /** Closes `volume` lots of an own position, less than all of it, exactly once (see PartialCloses). */
  closePart(actor: Actor, positionId: number, volume: number, idempotencyKey?: string): Promise<PartClosed> {
    return this.commanding((p) => p.partials.closePart(actor, positionId, volume, idempotencyKey));
  }

  /** Places a pending order; it fills on the server when the market reaches it, browsers closed or not. */
  placeOrder(actor: Actor, o: { symbol: string; type: PendingType; volume: number; price: number; stopLimitPrice: number; stopLoss: number; takeProfit: number; comment: string; expiresAt: number | null; trailing?: Trailing | null }, idempotencyKey?: string): Promise<{ orderId: number }> {
    return this.commanding((p) => p.orders.placeOrder(actor, o, idempotencyKey));
  }

  /** Changes a pending order; `onBehalf`: an administrator changes `owner`'s order (audited; see PendingOrders.modifyOrder). */
  modifyOrder(actor: Actor, orderId: number, change: { price: number; stopLimitPrice: number; stopLoss: number; takeProfit: number; expiresAt: number | null; trailing?: Trailing | null }, onBehalf?: OnBehalf): Promise<void> {
    return this.commanding((p) => p.orders.modifyOrder(actor, orderId, change, onBehalf));
  }

  cancelOrder(actor: Actor, orderId: number, onBehalf?: OnBehalf): Promise<void> {
    return this.commanding((p) => p.orders.cancelOrder(actor, orderId, onBehalf));
  }

  /** Sets a price alert of the actor's (see PriceAlerts); it fires once, on the server. */
  addAlert(actor: Actor, symbol: string, input: AlertInput): Promise<{ alertId: number; level: number }> {
    return this.commanding((p) => p.alerts.add(actor, symbol, input));
  }

  modifyAlert(actor: Actor, alertId: number, input: AlertInput): Promise<void> {
    return this.commanding((p) => p.alerts.modify(actor, alertId, input));
  }

  deleteAlert(actor: Actor, alertId: number): Promise<void> {
    return this.commanding((p) => p.alerts.delete(actor, alertId));
  }

  /** Resets a demo account of `userId` (see AccountResets.resetDemo); `by.admin`: audited. */
  resetDemo(accountId: number, userId: number, by: { actorId: number; ip: string; admin: boolean }): Promise<{ balanceCents: number }> {
    return this.commanding((p) => p.resets.resetDemo(accountId, userId, by));
  }

  // ------------------------------------------------------------------ timed work (timers call it; tests call it with their own clock)

  /** Expires pending orders whose time has come (every second, and callable with an injected clock). */
  expireOrders(now: number): Promise<number> {
    return this.parts.orders.expireOrders(now);
  }

  /** Expires price alerts whose time has come (every second, and callable with an injected clock). */
  expireAlerts(now: number): Promise<number> {
    return this.parts.alerts.expire(now);
  }

  /** One margin sweep (see MarginMonitor.marginSweep); runs every `marginCheckMs`. */
  marginSweep(): Promise<{ screened: number; checked: number }> {
    return this.parts.monitor.marginSweep();
  }

  checkMargin(accountId: number): Promise<void> {
    return this.parts.monitor.checkMargin(accountId);
  }

  /** A type changed: limits, swaps, markups and each holding account's levels read again; all swept next. */
  async accountTypesChanged(): Promise<void> {
    this.parts.state.leverageLimits = await leverageLimitsOf(this.parts.state.ctx.db);
    this.parts.state.typeSwaps = await swapsOf(this.parts.state.ctx.db);
    await this.reloadTypePrices();
    await this.parts.monitor.resyncAccounts();
    for (const accountId of this.parts.state.holdings.keys()) this.parts.state.dirtyAccounts.add(accountId);
  }

  /**
   * Reads the types' spread markups into `TypePrices` (every instance: at start and on
   * `accountTypes.changed`); where the engine runs, its levels and orders are indexed under the new
   * prices in the same step, no tick between. Of overlapping reads, the last started is kept.
   */
  async reloadTypePrices(): Promise<void> {
    const read = ++this.pricesRead;
    const markups = await markupsOf(this.ctx.db);
    if (read !== this.pricesRead) return;
    this.market.typePrices.set(markups);
    if (!this.started) return;
    const { state, orders } = this.parts;
    for (const p of state.open.values()) state.reindex(p);
    orders.reindex();
  }

  /** Charges swap for every rollover since the last one applied, exactly once (see Rollovers.applyRollovers). */
  applyRollovers(now: number): Promise<number> {
    return this.parts.rollovers.applyRollovers(now);
  }
}
