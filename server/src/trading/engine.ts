import { setImmediate as nextTurn } from 'node:timers/promises';
import Decimal from 'decimal.js';
import { roundPrice, type Instrument } from '../domain/instruments';
import { formatCents, roundToCents, toCents, type Cents } from '../domain/money';
import { accountFigures, closePrice, marginUsd, openPrice, pendingCondition, pendingEntryPrice, pendingPlacementProblem, pendingSide, profitUsd, rolloversBetween, stopsAroundEntryProblem, stopsProblem, swapInQuote, toUsd, volumeProblem, type PendingType, type PriceLookup, type Side } from '../domain/trading-math';
import type { AccountEvent } from '@tradeport/contracts';
import { sql } from 'kysely';
import type { MarketData } from '../market/market-data';
import type { BookQuote } from '../market/types';
import { inTransaction, type Actor, type ServiceContext } from '../services/context';
import { Refusal, refuse } from '../services/errors';
import { recordAudit } from '../services/audit';
import { runIdempotent } from '../services/idempotency';
import { lockAccount, postToLedger } from '../services/ledger';
import { isUniqueViolation, type Tx } from '../storage/db';
import { clearlyAbove, screenAccount, SweepPrices } from './margin-screen';
import { OrderIndex, TriggerIndex, type TriggerKind } from './trigger-index';
import type { AccountState, CloseOptions, CloseReason, Holding, Inserted, OpenedOrder, OpenPosition, PendingOrder, QueuedClose } from './types';

export type { AccountState, CloseOptions, CloseReason, OpenedOrder, OpenPosition, PendingOrder } from './types';

/**
 * Positions per swap UPDATE statement at a rollover (two parameters each, plus the id list). The
 * database matches each row against the CASE list, so the cost of a statement grows with its square:
 * 100 measured fastest.
 */
const ROLLOVER_CHUNK = 100;

/**
 * SL/TP levels at the instrument's digits, as order prices are (0 stays "none"). A level that
 * rounds to nothing was meant as a price and is refused rather than silently removed.
 */
function roundLevels<T extends { stopLoss: number; takeProfit: number }>(o: T, instrument: Instrument): T {
  const stopLoss = o.stopLoss === 0 ? 0 : roundPrice(o.stopLoss, instrument.digits);
  const takeProfit = o.takeProfit === 0 ? 0 : roundPrice(o.takeProfit, instrument.digits);
  if (o.stopLoss !== 0 && stopLoss === 0) throw refuse.invalid(`Stop loss must be at least one point (${instrument.point}) for ${instrument.symbol}.`);
  if (o.takeProfit !== 0 && takeProfit === 0) throw refuse.invalid(`Take profit must be at least one point (${instrument.point}) for ${instrument.symbol}.`);
  return { ...o, stopLoss, takeProfit };
}

const closeOnlyMessage = (i: Instrument) => `${i.symbol} is close-only: it was removed from the instrument catalogue. Open positions in it can still be closed.`;

/** Whether a price reaches a pending order's activation condition. */
function reaches(condition: 'ask<=' | 'ask>=' | 'bid<=' | 'bid>=', level: number, p: { bid: number; ask: number }): boolean {
  switch (condition) {
    case 'ask<=':
      return p.ask <= level;
    case 'ask>=':
      return p.ask >= level;
    case 'bid<=':
      return p.bid <= level;
    case 'bid>=':
      return p.bid >= level;
  }
}

/** Triggered closes per transaction, at most. */
const CLOSE_BATCH = 500;

/**
 * The trading engine: open positions live in memory (loaded at start, written through on every
 * change), their SL/TP levels in a per-symbol trigger index evaluated on every tick of the quote
 * book, with every browser closed. Commands of one user run one at a time, so margin checks see the
 * effect of the previous command; a close is a guarded `open → closed` update that posts its profit
 * to the ledger in the same transaction, so a manual close racing its own stop loss, or 50 clients
 * closing one ticket, close it once.
 */
export class TradingEngine {
  private readonly open = new Map<number, OpenPosition>();
  /** The accounts holding open positions, each with its positions and the sweep's cached balance. */
  private readonly holdings = new Map<number, Holding>();
  private readonly triggers = new TriggerIndex();
  private readonly queues = new Map<number, Promise<unknown>>();
  private unsubscribe: (() => void) | null = null;
  private readonly pending = new Set<Promise<unknown>>();
  /** The holdings with positions in each symbol (with how many), so a price move finds its accounts. */
  private readonly holders = new Map<string, Map<Holding, number>>();
  /** Marks the holdings already taken into the current sweep. */
  private sweepStamp = 0;
  private dirtySymbols = new Set<string>();
  /** Accounts to sweep whatever the prices did: a balance changed, a position opened or closed. */
  private dirtyUsers = new Set<number>();
  private lastResync = 0;
  private sweeping = false;
  /** For each conversion pair (e.g. USDJPY), the instruments whose USD figures move with it. */
  private readonly dependents = new Map<string, string[]>();
  private readonly orders = new Map<number, PendingOrder>();
  private readonly orderIndex = new OrderIndex();
  private expiryTimer: NodeJS.Timeout | null = null;
  /** The last rollover instant known to be applied (a cheap test before a close). */
  private rolledUpTo = 0;
  private readonly marginCalled = new Set<number>();
  /** Accounts told that a stop-out could close nothing, with what was blocked (told again when that changes). */
  private readonly stopOutBlocked = new Map<number, string>();
  private sweepTimer: NodeJS.Timeout | null = null;
  /** How often the cached balances are re-read whatever the events said. */
  private readonly resyncMs = 5000;
  private unsubscribeBus: (() => void) | null = null;
  private rolloverTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly market: MarketData,
    private readonly log: { warn(obj: object, msg: string): void },
  ) {}

  async start(): Promise<void> {
    const rows = await this.ctx.db.selectFrom('positions').selectAll().where('status', '=', 'open').execute();
    for (const r of rows) {
      this.track({ id: r.id, userId: r.user_id, symbol: r.symbol, side: r.side, volume: r.volume, openPrice: r.open_price, stopLoss: r.stop_loss, takeProfit: r.take_profit, comment: r.comment, openedAt: r.opened_at, swapCents: Number(r.swap_cents), closing: false, triggered: null });
    }
    for (const r of await this.ctx.db.selectFrom('swap_deferred').select('position_id').distinct().execute()) this.deferredSwap.add(r.position_id);
    const lastRollover = await this.ctx.db.selectFrom('swap_rollovers').select((eb) => eb.fn.max('at').as('at')).executeTakeFirst();
    let oldest = this.ctx.now() - 24 * 3600_000;
    for (const p of this.open.values()) oldest = Math.min(oldest, p.openedAt);
    this.rolledUpTo = lastRollover?.at != null ? Number(lastRollover.at) : oldest;
    const orders = await this.ctx.db.selectFrom('orders').selectAll().where('status', '=', 'pending').execute();
    for (const r of orders) {
      this.trackOrder({ id: r.id, userId: r.user_id, symbol: r.symbol, type: r.type, volume: r.volume, price: r.price, stopLimitPrice: r.stop_limit_price, stopTriggered: r.stop_triggered === 1, stopLoss: r.stop_loss, takeProfit: r.take_profit, comment: r.comment, expiresAt: r.expires_at === null ? null : Number(r.expires_at), busy: false });
    }
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
    await this.resyncAccounts();
    this.unsubscribeBus = this.ctx.bus.subscribe((event) => {
      if (event.type !== 'balance.changed') return;
      const h = this.holdings.get(event.userId);
      if (!h) return;
      // A read of the database that started before this event must not overwrite it (see account()).
      h.version += 1;
      if (h.account) h.account = { ...h.account, balanceCents: toCents(event.balance), creditCents: toCents(event.credit) };
      this.dirtyUsers.add(event.userId);
    });
    this.unsubscribe = this.market.book.onQuote((quote) => this.onTick(quote));
    this.sweepTimer = setInterval(() => void this.marginSweep(), this.ctx.config.trading.marginCheckMs);
    this.sweepTimer.unref();
    // Every minute: a due rollover, and kept swap that may be priceable by now (inside applyRollovers).
    this.rolloverTimer = setInterval(() => void this.applyRollovers(this.ctx.now()).catch((err: unknown) => this.log.warn({ err }, 'swap rollover failed; it is tried again in a minute')), 60_000);
    this.rolloverTimer.unref();
    this.expiryTimer = setInterval(() => void this.expireOrders(this.ctx.now()), 1000);
    this.expiryTimer.unref();
    // Withdrawals may not take what open positions need: see ServiceContext.reservedMargin.
    this.ctx.reservedMargin = (trx, userId) => this.withdrawalFloorCents(trx, userId);
  }

  /** Work the engine started in the background (closes, fills): `stop()` waits for it. */
  private background(work: Promise<unknown>): void {
    this.pending.add(work);
    void work.finally(() => this.pending.delete(work));
  }

  /** Stops evaluating ticks and waits for closes already under way. */
  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribeBus?.();
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    if (this.rolloverTimer) clearInterval(this.rolloverTimer);
    if (this.expiryTimer) clearInterval(this.expiryTimer);
    // Closes under way may start others (a failed batch falls back to single closes): wait for all.
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  private track(p: OpenPosition): void {
    // The catalogue's own string: every map lookup by symbol then compares one pointer.
    p.symbol = this.market.book.instruments.get(p.symbol)?.symbol ?? p.symbol;
    this.open.set(p.id, p);
    let h = this.holdings.get(p.userId);
    if (!h) this.holdings.set(p.userId, (h = { userId: p.userId, positions: new Map(), account: null, version: 0, stamp: 0 }));
    h.positions.set(p.id, p);
    this.triggers.set(p.id, p.symbol, p.side, p.stopLoss, p.takeProfit);
    let counts = this.holders.get(p.symbol);
    if (!counts) this.holders.set(p.symbol, (counts = new Map()));
    counts.set(h, (counts.get(h) ?? 0) + 1);
    this.dirtyUsers.add(p.userId);
  }

  private untrack(p: OpenPosition): void {
    this.open.delete(p.id);
    this.deferredSwap.delete(p.id);
    this.triggers.remove(p.id);
    const h = this.holdings.get(p.userId);
    if (!h) return;
    h.positions.delete(p.id);
    const counts = this.holders.get(p.symbol);
    const left = (counts?.get(h) ?? 1) - 1;
    if (left > 0) counts?.set(h, left);
    else counts?.delete(h);
    if (h.positions.size > 0) this.dirtyUsers.add(p.userId);
    else {
      this.holdings.delete(p.userId);
      this.marginCalled.delete(p.userId);
    }
  }

  /** Runs `work` after the user's previous command has finished. */
  private serialize<T>(userId: number, work: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(userId) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.catch(() => undefined);
    this.queues.set(userId, settled);
    void settled.then(() => {
      if (this.queues.get(userId) === settled) this.queues.delete(userId);
    });
    return next;
  }

  /**
   * The two transactions that write many positions at once — a batch of triggered closes and a
   * rollover's swap — take turns, so on PostgreSQL they never lock position rows in opposite orders
   * and deadlock each other (at 22:00, when spreads widen and many stops fire).
   */
  private manyPositions: Promise<void> = Promise.resolve();

  private writingManyPositions<T>(work: () => Promise<T>): Promise<T> {
    const next = this.manyPositions.then(work, work);
    this.manyPositions = next.then(
      () => undefined,
      () => undefined,
    );
    return next;
  }

  private readonly prices: PriceLookup = (symbol) => this.market.book.get(symbol);

  private instrument(symbol: string): Instrument {
    const i = this.market.book.instruments.get(symbol);
    if (!i) throw refuse.invalid(`Unknown symbol ${symbol}.`);
    return i;
  }

  positionsOf(userId: number): OpenPosition[] {
    return [...(this.holdings.get(userId)?.positions.values() ?? [])].sort((a, b) => a.id - b.id);
  }

  allOpen(): OpenPosition[] {
    return [...this.open.values()].sort((a, b) => a.id - b.id);
  }

  get(positionId: number): OpenPosition | undefined {
    return this.open.get(positionId);
  }

  /** Floating profit of one position in USD at current prices, or null without a usable quote. */
  floatingProfit(p: OpenPosition): Decimal | null {
    const q = this.market.book.get(p.symbol);
    const instrument = this.instrumentOrNone(p.symbol);
    if (!q || !instrument) return null;
    return profitUsd(p.side, p.volume, p.openPrice, q, instrument, this.prices);
  }

  /** Margin of one position in USD, or null when it cannot be valued (no conversion rate right now). */
  private positionMargin(p: Pick<OpenPosition, 'symbol' | 'volume' | 'openPrice'>, leverage: number): Decimal | null {
    const instrument = this.instrumentOrNone(p.symbol);
    return instrument ? marginUsd(p.volume, p.openPrice, leverage, instrument, this.prices) : null;
  }

  async account(userId: number, trx?: Tx): Promise<AccountState> {
    const before = trx ? undefined : this.holdings.get(userId);
    const version = before?.version;
    const user = await (trx ?? this.ctx.db).selectFrom('users').select(['balance_cents', 'credit_cents', 'leverage']).where('id', '=', userId).executeTakeFirstOrThrow();
    // Refresh the sweep's cache, unless a balance event came in while this read was under way.
    if (before && this.holdings.get(userId) === before && before.version === version) before.account = { balanceCents: user.balance_cents, creditCents: user.credit_cents, leverage: user.leverage };
    return this.figures(userId, user.balance_cents, user.credit_cents, user.leverage);
  }

  /** Re-reads balance, credit and leverage of every account holding positions, 500 accounts a query. */
  private async resyncAccounts(): Promise<void> {
    this.lastResync = this.ctx.now();
    const holders = [...this.holdings.keys()];
    for (let i = 0; i < holders.length; i += 500) {
      if (i > 0) await nextTurn();
      const chunk = holders.slice(i, i + 500);
      // The holding read from and its version: a holding dropped and re-created meanwhile (version
      // back at 0) has newer figures than this read, just like one whose version moved on.
      const seen = new Map(chunk.map((u) => [u, this.holdings.get(u)]));
      const versions = new Map(chunk.map((u) => [u, seen.get(u)?.version]));
      const rows = await this.ctx.db.selectFrom('users').select(['id', 'balance_cents', 'credit_cents', 'leverage']).where('id', 'in', chunk).execute();
      for (const r of rows) {
        const h = this.holdings.get(r.id);
        // Gone, or a balance event arrived during the read (it is newer than what was read).
        if (!h || h !== seen.get(r.id) || h.version !== versions.get(r.id)) continue;
        const cached = h.account;
        if (cached && cached.balanceCents === r.balance_cents && cached.creditCents === r.credit_cents && cached.leverage === r.leverage) continue;
        h.account = { balanceCents: r.balance_cents, creditCents: r.credit_cents, leverage: r.leverage };
        this.dirtyUsers.add(r.id);
      }
    }
  }

  private figures(userId: number, balanceCents: Cents, creditCents: Cents, leverage: number, extra?: { floating: Decimal; margin: Decimal }): AccountState {
    let floating = new Decimal(0);
    let margin = new Decimal(0);
    let unvalued = 0;
    for (const p of this.positionsOf(userId)) {
      const profit = this.floatingProfit(p);
      const m = this.positionMargin(p, leverage);
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
  private async withdrawalFloorCents(trx: Tx, userId: number): Promise<Cents> {
    const user = await trx.selectFrom('users').select(['credit_cents', 'leverage']).where('id', '=', userId).executeTakeFirstOrThrow();
    const rows = await trx.selectFrom('positions').select(['symbol', 'side', 'volume', 'open_price', 'swap_cents']).where('user_id', '=', userId).where('status', '=', 'open').execute();
    let floating = new Decimal(0);
    let margin = new Decimal(0);
    for (const r of rows) {
      const p = { symbol: r.symbol, side: r.side, volume: r.volume, openPrice: r.open_price };
      const q = this.market.book.get(r.symbol);
      const instrument = this.instrumentOrNone(r.symbol);
      const profit = q && instrument ? profitUsd(p.side, p.volume, p.openPrice, q, instrument, this.prices) : null;
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

  /**
   * Why a symbol cannot be traded right now — its market is closed, or it has no fresh quote — or
   * null when it can. Fills, SL/TP and stop-outs happen only when it can, as manual orders do.
   */
  private untradableReason(symbol: string): 'market-closed' | 'no-fresh-price' | null {
    if (!this.market.book.isOpen(symbol)) return 'market-closed';
    if (!this.market.book.get(symbol) || this.market.book.isStale(symbol)) return 'no-fresh-price';
    return null;
  }

  /** Refuses trading on a closed market or a stale quote, and returns the quote to trade at. */
  private tradableQuote(instrument: Instrument): BookQuote {
    if (!this.market.book.isOpen(instrument.symbol)) throw refuse.invalid('Market Closed');
    const q = this.market.book.get(instrument.symbol);
    if (!q || this.market.book.isStale(instrument.symbol)) throw refuse.invalid(`Prices for ${instrument.symbol} are not current; please try again in a moment.`);
    return q;
  }

  // ------------------------------------------------------------------ commands

  /**
   * Opens a market position: Buy at the ask, Sell at the bid of the server's quote. Refused when the
   * market is closed, the quote is stale, the volume or SL/TP is invalid, or free margin would be
   * negative. With an Idempotency-Key a retry returns the first answer and opens nothing.
   */
  openMarket(actor: Actor, requested: { symbol: string; side: Side; volume: number; stopLoss: number; takeProfit: number; comment: string }, idempotencyKey?: string): Promise<OpenedOrder> {
    let instrument: Instrument;
    let order: typeof requested;
    try {
      instrument = this.instrument(requested.symbol);
      order = roundLevels(requested, instrument);
    } catch (err) {
      return Promise.reject(err);
    }
    if (instrument.closeOnly) return Promise.reject(refuse.invalid(closeOnlyMessage(instrument)));
    const volumeIssue = volumeProblem(order.volume, instrument);
    if (volumeIssue) return Promise.reject(refuse.invalid(volumeIssue));
    return this.serialize(actor.userId, async () => {
      let created: Inserted | null = null;
      const answer = await runIdempotent(this.ctx, actor.userId, idempotencyKey, 'addTrades', order, async (trx, emit) => {
        const quote = this.tradableQuote(instrument);
        const stops = stopsProblem(order.side, order.stopLoss, order.takeProfit, quote);
        if (stops) throw refuse.invalid(stops);
        created = await this.insertPosition(trx, emit, actor.userId, instrument, order, quote);
        return { ticket: created.position.id, symbol: instrument.symbol, side: order.side, volume: order.volume, price: created.position.openPrice };
      });
      // Only a fresh order is tracked; a replayed answer refers to a position already known.
      if (created) this.trackInserted(created);
      return answer;
    });
  }

  /**
   * Inserts a position filled at `quote` (Buy at ask, Sell at bid) after the margin check, in the
   * caller's transaction (which takes the account lock). Not yet tracked: the caller does that after
   * the commit.
   */
  private async insertPosition(trx: Tx, emit: (e: AccountEvent) => void, userId: number, instrument: Instrument, order: { side: Side; volume: number; stopLoss: number; takeProfit: number; comment: string }, quote: BookQuote): Promise<Inserted> {
    const price = openPrice(order.side, quote);
    const now = this.ctx.now();
    await lockAccount(this.ctx, trx, userId);
    const user = await trx.selectFrom('users').select(['balance_cents', 'credit_cents', 'leverage']).where('id', '=', userId).executeTakeFirstOrThrow();
    const margin = marginUsd(order.volume, price, user.leverage, instrument, this.prices);
    const floating = profitUsd(order.side, order.volume, price, quote, instrument, this.prices);
    if (margin === null || floating === null) throw refuse.invalid(`No conversion rate to USD for ${instrument.symbol} right now; please try again shortly.`);
    // The new position counts with the spread it pays at once (it opens at ask, values at bid).
    const after = this.figures(userId, user.balance_cents, user.credit_cents, user.leverage, { floating, margin });
    // Fail closed: with a position that cannot be valued, free margin is unknown.
    if (after.unvalued > 0) throw refuse.invalid('A conversion rate needed to value your open positions is missing right now; new orders are paused until it is available. Please try again shortly.');
    if (after.freeMargin.isNegative()) throw refuse.invalid(`Not enough free margin: this order needs ${margin.toFixed(2)} USD of margin; free margin would be ${after.freeMargin.toFixed(2)} USD.`);
    const row = await trx
      .insertInto('positions')
      .values({ user_id: userId, symbol: instrument.symbol, side: order.side, volume: order.volume, open_price: price, stop_loss: order.stopLoss, take_profit: order.takeProfit, comment: order.comment, opened_at: now, open_tick_bid: quote.bid, open_tick_ask: quote.ask, open_tick_time: quote.time, status: 'open', close_price: null, closed_at: null, close_reason: null, close_tick_bid: null, close_tick_ask: null, close_tick_time: null, profit_cents: null, closed_by: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    emit({ type: 'position.opened', userId, ticket: row.id, symbol: instrument.symbol, side: order.side, volume: order.volume, price });
    return {
      position: { id: row.id, userId, symbol: instrument.symbol, side: order.side, volume: order.volume, openPrice: price, stopLoss: order.stopLoss, takeProfit: order.takeProfit, comment: order.comment, openedAt: now, swapCents: 0, closing: false, triggered: null },
      account: { balanceCents: user.balance_cents, creditCents: user.credit_cents, leverage: user.leverage },
    };
  }

  /**
   * Tracks a position committed by `insertPosition`. The balance read under the account lock seeds
   * the sweep's cache for an account that had none (a cached one is kept up to date by events).
   */
  private trackInserted({ position, account }: Inserted): void {
    this.track(position);
    const h = this.holdings.get(position.userId);
    if (h && !h.account) h.account = account;
  }

  modify(actor: Actor, positionId: number, levels: { stopLoss: number; takeProfit: number }): Promise<void> {
    return this.serialize(actor.userId, async () => {
      const p = this.open.get(positionId);
      if (!p || p.userId !== actor.userId) throw refuse.notFound(`Position #${positionId} is not open.`);
      const instrument = this.instrument(p.symbol);
      levels = roundLevels(levels, instrument);
      const quote = this.tradableQuote(instrument);
      const problem = stopsProblem(p.side, levels.stopLoss, levels.takeProfit, quote);
      if (problem) throw refuse.invalid(problem);
      const result = await this.ctx.db.updateTable('positions').set({ stop_loss: levels.stopLoss, take_profit: levels.takeProfit }).where('id', '=', positionId).where('status', '=', 'open').executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) throw refuse.notFound(`Position #${positionId} is not open.`);
      p.stopLoss = levels.stopLoss;
      p.takeProfit = levels.takeProfit;
      this.triggers.set(p.id, p.symbol, p.side, p.stopLoss, p.takeProfit);
    });
  }

  /**
   * Closes a position at the current server price (or at the tick that triggered it), exactly once.
   * `owner` restricts the close to that user's position; `by` records who closed it.
   */
  close(positionId: number, reason: CloseReason, opts: CloseOptions = {}): Promise<{ profitCents: Cents; price: number }> {
    const p = this.open.get(positionId);
    if (!p || (opts.owner !== undefined && p.userId !== opts.owner)) return this.notOpen(positionId, opts.owner);
    return this.serialize(p.userId, () => this.closeNow(p, reason, opts));
  }

  /** The close itself; the caller holds the user's turn in the command queue. */
  private async closeNow(p: OpenPosition, reason: CloseReason, opts: CloseOptions): Promise<{ profitCents: Cents; price: number }> {
    const positionId = p.id;
    if (!this.open.has(positionId)) throw refuse.conflict(`Position #${positionId} has already been closed.`);
    const instrument = this.instrument(p.symbol);
    const tick = opts.tick ?? (reason === 'manual' || reason === 'admin' ? this.tradableQuote(instrument) : this.market.book.get(p.symbol));
    if (!tick) throw refuse.invalid(`No price for ${p.symbol}.`);
    const price = closePrice(p.side, tick);
    const profit = profitUsd(p.side, p.volume, p.openPrice, tick, instrument, this.prices);
    if (profit === null) throw refuse.invalid(`No conversion rate to USD for ${p.symbol} right now; please try again shortly.`);
    const profitCents = roundToCents(profit);
    const now = this.ctx.now();
    // A rollover that passed since the last run is charged first, so closing just after 22:00
    // does not skip that night's swap.
    if (rolloversBetween(this.rolledUpTo, now, this.ctx.config.trading.rollover).length > 0) await this.applyRollovers(now);
    p.closing = true;
    let closedElsewhere = false;
    try {
      await inTransaction(this.ctx, async (trx, emit) => {
        const written = await this.writeClose(trx, emit, p, { reason, price, tick, profitCents, now, by: opts.by ?? null });
        if (!written) {
          closedElsewhere = true;
          throw refuse.conflict(`Position #${positionId} has already been closed.`);
        }
        if (opts.audit) {
          await recordAudit(trx, { actorId: opts.audit.actorId, action: 'position.close', targetType: 'position', targetId: positionId, before: { status: 'open', userId: p.userId }, after: { status: 'closed', price, profit: formatCents(profitCents) }, ip: opts.audit.ip, at: now });
        }
      });
    } catch (err) {
      p.closing = false;
      // The database says it is closed already: memory follows.
      if (closedElsewhere) this.untrack(p);
      // A trigger that failed to close must fire again on the next tick.
      else if (this.open.has(positionId) && !p.triggered) this.triggers.set(p.id, p.symbol, p.side, p.stopLoss, p.takeProfit);
      throw err;
    }
    this.untrack(p);
    return { profitCents, price };
  }

  /**
   * Writes one close in the caller's transaction: the guarded `open → closed` update (which also
   * returns the swap accrued, as stored: a rollover may just have added to it), the realized profit
   * and the swap posted to the ledger, and the owner's events. False, with nothing written, when
   * the position is no longer open.
   */
  private async writeClose(trx: Tx, emit: (e: AccountEvent) => void, p: OpenPosition, c: { reason: CloseReason; price: number; tick: BookQuote; profitCents: Cents; now: number; by: number | null }): Promise<boolean> {
    // Swap kept from rollovers that had no conversion rate is charged now (the close has one).
    if (this.deferredSwap.has(p.id)) {
      const kept = await trx.selectFrom('swap_deferred').select(['rollover_at', 'days']).where('position_id', '=', p.id).execute();
      let cents = 0;
      for (const k of kept) {
        const one = this.swapCents(p, k.days);
        if (one === null) throw refuse.invalid(`No conversion rate to USD for ${p.symbol} right now; please try again shortly.`);
        cents += one;
      }
      await trx.deleteFrom('swap_deferred').where('position_id', '=', p.id).execute();
      if (cents !== 0) await trx.updateTable('positions').set({ swap_cents: sql<number>`swap_cents + cast(${cents} as bigint)` }).where('id', '=', p.id).where('status', '=', 'open').execute();
    }
    const updated = await trx
      .updateTable('positions')
      .set({ status: 'closed', close_price: c.price, closed_at: c.now, close_reason: c.reason, close_tick_bid: c.tick.bid, close_tick_ask: c.tick.ask, close_tick_time: c.tick.time, profit_cents: c.profitCents, closed_by: c.by })
      .where('id', '=', p.id)
      .where('status', '=', 'open')
      .returning('swap_cents')
      .executeTakeFirst();
    if (!updated) return false;
    let balance: { balanceCents: Cents; creditCents: Cents } | null = null;
    if (c.profitCents !== 0) balance = await postToLedger(trx, { userId: p.userId, kind: 'trade', amountCents: c.profitCents, refType: 'position', refId: p.id, memo: `Position #${p.id} ${p.side} ${p.volume} ${p.symbol} closed (${c.reason})`, at: c.now });
    const swapCents = Number(updated.swap_cents);
    if (swapCents !== 0) balance = await postToLedger(trx, { userId: p.userId, kind: 'swap', amountCents: swapCents, refType: 'position', refId: p.id, memo: `Swap of position #${p.id}`, at: c.now });
    emit({ type: 'position.closed', userId: p.userId, ticket: p.id, symbol: p.symbol, reason: c.reason, price: c.price, profit: formatCents(c.profitCents) });
    if (balance) emit({ type: 'balance.changed', userId: p.userId, balance: formatCents(balance.balanceCents), credit: formatCents(balance.creditCents), reason: 'position-closed' });
    return true;
  }

  /** Why a ticket cannot be closed: already closed (409), or no such position of this owner (404). */
  private async notOpen(positionId: number, owner: number | undefined): Promise<never> {
    const row = await this.ctx.db.selectFrom('positions').select(['user_id', 'status']).where('id', '=', positionId).executeTakeFirst();
    if (row && row.status === 'closed' && (owner === undefined || row.user_id === owner)) throw refuse.conflict(`Position #${positionId} has already been closed.`);
    throw refuse.notFound(`Position #${positionId} is not open.`);
  }

  private onTick(quote: BookQuote): void {
    if (this.holders.get(quote.symbol)?.size) this.dirtySymbols.add(quote.symbol);
    // A conversion rate moving changes the USD figures of the instruments that convert through it.
    for (const d of this.dependents.get(quote.symbol) ?? []) if (this.holders.get(d)?.size) this.dirtySymbols.add(d);
    // A tick outside the session (a bridge pushing a closed market) or already stale fires nothing:
    // triggers and pending orders stay in their indexes and fire at the first tradable tick after
    // the open, at that tick's price, as MT5 does.
    if (this.untradableReason(quote.symbol) !== null) return;
    for (const orderId of this.orderIndex.fire(quote.symbol, quote.bid, quote.ask)) this.activate(orderId, quote);
    for (const { positionId, kind } of this.triggers.fire(quote.symbol, quote.bid, quote.ask)) {
      const p = this.open.get(positionId);
      if (!p || p.closing || p.triggered) continue;
      this.closeInBackground(positionId, kind, quote);
    }
  }

  // ------------------------------------------------------------------ pending orders

  private trackOrder(o: PendingOrder): void {
    this.orders.set(o.id, o);
    this.orderIndex.set(o.id, o.symbol, pendingCondition(o.type, o.stopTriggered), o.stopTriggered ? o.stopLimitPrice : o.price);
  }

  private untrackOrder(id: number): void {
    this.orders.delete(id);
    this.orderIndex.remove(id);
  }

  pendingOf(userId: number): PendingOrder[] {
    return [...this.orders.values()].filter((o) => o.userId === userId).sort((a, b) => a.id - b.id);
  }

  private checkPending(instrument: Instrument, o: { type: PendingType; volume: number; price: number; stopLimitPrice: number; stopLoss: number; takeProfit: number; expiresAt: number | null }): void {
    if (instrument.closeOnly) throw refuse.invalid(closeOnlyMessage(instrument));
    const volumeIssue = volumeProblem(o.volume, instrument);
    if (volumeIssue) throw refuse.invalid(volumeIssue);
    const quote = this.tradableQuote(instrument);
    const placement = pendingPlacementProblem(o.type, o.price, o.stopLimitPrice, quote);
    if (placement) throw refuse.invalid(placement);
    const stops = stopsAroundEntryProblem(pendingSide(o.type), o.stopLoss, o.takeProfit, pendingEntryPrice(o.type, o.price, o.stopLimitPrice));
    if (stops) throw refuse.invalid(stops);
    if (o.expiresAt !== null && o.expiresAt <= this.ctx.now()) throw refuse.invalid('The expiration must be in the future.');
  }

  /** Places a pending order; it fills on the server when the market reaches it, browsers closed or not. */
  placeOrder(actor: Actor, o: { symbol: string; type: PendingType; volume: number; price: number; stopLimitPrice: number; stopLoss: number; takeProfit: number; comment: string; expiresAt: number | null }, idempotencyKey?: string): Promise<{ orderId: number }> {
    let instrument: Instrument;
    let order: typeof o;
    try {
      instrument = this.instrument(o.symbol);
      order = roundLevels({ ...o, price: roundPrice(o.price, instrument.digits), stopLimitPrice: o.type.endsWith('stop_limit') ? roundPrice(o.stopLimitPrice, instrument.digits) : 0 }, instrument);
    } catch (err) {
      return Promise.reject(err);
    }
    return this.serialize(actor.userId, async () => {
      let created: PendingOrder | null = null;
      const answer = await runIdempotent(this.ctx, actor.userId, idempotencyKey, 'addPendingOrder', o, async (trx) => {
        this.checkPending(instrument, order);
        const now = this.ctx.now();
        const row = await trx
          .insertInto('orders')
          .values({ user_id: actor.userId, symbol: instrument.symbol, type: order.type, volume: order.volume, price: order.price, stop_limit_price: order.stopLimitPrice, stop_triggered: 0, stop_loss: order.stopLoss, take_profit: order.takeProfit, comment: order.comment, expires_at: order.expiresAt, status: 'pending', reason: '', position_id: null, created_at: now, updated_at: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        created = { id: row.id, userId: actor.userId, symbol: instrument.symbol, type: order.type, volume: order.volume, price: order.price, stopLimitPrice: order.stopLimitPrice, stopTriggered: false, stopLoss: order.stopLoss, takeProfit: order.takeProfit, comment: order.comment, expiresAt: order.expiresAt, busy: false };
        return { orderId: row.id };
      });
      if (created) this.trackOrder(created);
      return answer;
    });
  }

  modifyOrder(actor: Actor, orderId: number, change: { price: number; stopLimitPrice: number; stopLoss: number; takeProfit: number; expiresAt: number | null }): Promise<void> {
    return this.serialize(actor.userId, async () => {
      const o = this.orders.get(orderId);
      if (!o || o.userId !== actor.userId) throw refuse.notFound(`Order #${orderId} is not pending.`);
      const instrument = this.instrument(o.symbol);
      const next = roundLevels({ type: o.type, volume: o.volume, price: roundPrice(change.price, instrument.digits), stopLimitPrice: o.type.endsWith('stop_limit') ? roundPrice(change.stopLimitPrice, instrument.digits) : 0, stopLoss: change.stopLoss, takeProfit: change.takeProfit, expiresAt: change.expiresAt }, instrument);
      if (o.stopTriggered) throw refuse.conflict(`Order #${orderId} has reached its stop and waits as a limit order; cancel it instead.`);
      this.checkPending(instrument, next);
      const result = await this.ctx.db
        .updateTable('orders')
        .set({ price: next.price, stop_limit_price: next.stopLimitPrice, stop_loss: next.stopLoss, take_profit: next.takeProfit, expires_at: next.expiresAt, updated_at: this.ctx.now() })
        .where('id', '=', orderId)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) throw refuse.notFound(`Order #${orderId} is not pending.`);
      Object.assign(o, next);
      this.trackOrder(o);
    });
  }

  cancelOrder(actor: Actor, orderId: number): Promise<void> {
    return this.serialize(actor.userId, async () => {
      const o = this.orders.get(orderId);
      if (!o || o.userId !== actor.userId) throw refuse.notFound(`Order #${orderId} is not pending.`);
      await this.finishOrder(o, 'cancelled', 'Cancelled by the trader');
    });
  }

  /** Moves a pending order to a final status once (guarded), and tells its owner. */
  private async finishOrder(o: PendingOrder, status: 'cancelled' | 'expired' | 'rejected', reason: string): Promise<void> {
    await inTransaction(this.ctx, async (trx, emit) => {
      const result = await trx.updateTable('orders').set({ status, reason, updated_at: this.ctx.now() }).where('id', '=', o.id).where('status', '=', 'pending').executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) throw refuse.conflict(`Order #${o.id} is no longer pending.`);
      emit({ type: 'order.updated', userId: o.userId, orderId: o.id, status, reason, ticket: null });
    });
    this.untrackOrder(o.id);
  }

  /** Expires pending orders whose time has come (every second, and callable with an injected clock). */
  async expireOrders(now: number): Promise<number> {
    let expired = 0;
    for (const o of [...this.orders.values()]) {
      if (o.expiresAt === null || o.expiresAt > now) continue;
      await this.serialize(o.userId, async () => {
        if (!this.orders.has(o.id)) return;
        await this.finishOrder(o, 'expired', 'Expired');
        expired += 1;
      }).catch((err: unknown) => this.log.warn({ err, orderId: o.id }, 'order expiry failed'));
    }
    return expired;
  }

  /**
   * A pending order reached by a tick: a stop-limit's stop turns it into a limit order (filled at
   * once if the same tick also satisfies the limit); otherwise it fills at the tick's price (Buy at
   * ask, Sell at bid) if margin allows, or is rejected with the reason.
   */
  private activate(orderId: number, tick: BookQuote): void {
    const o = this.orders.get(orderId);
    if (!o || o.busy) return;
    if (o.type.endsWith('stop_limit') && !o.stopTriggered) {
      // The stop turns it into a limit order at once (in memory, synchronously), so the very next
      // tick — even in the same feed batch — is already checked against the limit.
      o.stopTriggered = true;
      this.trackOrder(o);
      const persisted = this.serialize(o.userId, async () => {
        await this.ctx.db.updateTable('orders').set({ stop_triggered: 1, updated_at: this.ctx.now() }).where('id', '=', o.id).where('status', '=', 'pending').execute();
      }).catch((err: unknown) => this.log.warn({ err, orderId }, 'could not record a stop-limit order reaching its stop'));
      this.background(persisted);
      return;
    }
    o.busy = true;
    const work = this.serialize(o.userId, async () => {
      if (!this.orders.has(o.id)) return;
      if (o.expiresAt !== null && o.expiresAt <= this.ctx.now()) return this.finishOrder(o, 'expired', 'Expired');
      // The order may have been changed while this fill waited its turn: the tick must still reach it.
      if (!reaches(pendingCondition(o.type, o.stopTriggered), o.stopTriggered ? o.stopLimitPrice : o.price, tick)) {
        this.trackOrder(o);
        return;
      }
      const instrument = this.instrument(o.symbol);
      if (instrument.closeOnly) return this.finishOrder(o, 'rejected', closeOnlyMessage(instrument));
      let position: Inserted | null = null;
      try {
        await inTransaction(this.ctx, async (trx, emit) => {
          const claimed = await trx.updateTable('orders').set({ status: 'filled', reason: 'Filled', updated_at: this.ctx.now() }).where('id', '=', o.id).where('status', '=', 'pending').executeTakeFirst();
          if (Number(claimed.numUpdatedRows) !== 1) return;
          position = await this.insertPosition(trx, emit, o.userId, instrument, { side: pendingSide(o.type), volume: o.volume, stopLoss: o.stopLoss, takeProfit: o.takeProfit, comment: o.comment }, tick);
          await trx.updateTable('orders').set({ position_id: position.position.id }).where('id', '=', o.id).execute();
          emit({ type: 'order.updated', userId: o.userId, orderId: o.id, status: 'filled', reason: 'Filled', ticket: position.position.id });
        });
      } catch (err) {
        if (err instanceof Refusal) return this.finishOrder(o, 'rejected', err.message);
        throw err;
      }
      this.untrackOrder(o.id);
      if (position) this.trackInserted(position);
    });
    const settled = work
      .catch((err: unknown) => {
        this.log.warn({ err, orderId }, 'pending order activation failed; it will be tried again on the next tick');
        if (this.orders.has(o.id)) this.trackOrder(o);
      })
      .finally(() => {
        o.busy = false;
      });
    this.background(settled);
  }

  /**
   * Margin control, every `marginCheckMs` for the accounts whose prices moved (or whose balance or
   * positions changed): at or below the margin-call level the trader is told once (until the level
   * recovers); at or below the stop-out level the position with the largest loss is closed, the
   * level re-checked, and so on. Accounts are first screened in float arithmetic from cached
   * balances (margin-screen.ts); only those within `SCREEN_BAND` of the margin-call level, or that
   * cannot be screened, get the exact check, which reads the balance from the database.
   */
  async marginSweep(): Promise<{ screened: number; checked: number }> {
    // One sweep at a time; a sweep that overruns its interval simply takes the next dirty set.
    if (this.sweeping) return { screened: 0, checked: 0 };
    this.sweeping = true;
    try {
      if (this.ctx.now() - this.lastResync >= this.resyncMs || this.ctx.now() < this.lastResync) await this.resyncAccounts().catch((err: unknown) => this.log.warn({ err }, 'could not re-read account balances'));
      if (this.dirtySymbols.size === 0 && this.dirtyUsers.size === 0) return { screened: 0, checked: 0 };
      const symbols = this.dirtySymbols;
      const users = this.dirtyUsers;
      this.dirtySymbols = new Set();
      this.dirtyUsers = new Set();
      // The holdings to look at: each once (stamped), whether marked by a symbol or by itself.
      const stamp = ++this.sweepStamp;
      const due: Holding[] = [];
      for (const u of users) {
        const h = this.holdings.get(u);
        if (h && h.stamp !== stamp) {
          h.stamp = stamp;
          due.push(h);
        }
      }
      for (const s of symbols) {
        for (const h of this.holders.get(s)?.keys() ?? []) {
          if (h.stamp === stamp) continue;
          h.stamp = stamp;
          due.push(h);
        }
      }
      const { marginCallLevel } = this.ctx.config.trading;
      const prices = new SweepPrices(this.instrumentOrNone, this.prices);
      const near: number[] = [];
      let screened = 0;
      for (const h of due) {
        if (h.positions.size === 0) continue;
        if (h.account && clearlyAbove(screenAccount(h.account, h.positions.values(), prices), marginCallLevel)) this.marginCalled.delete(h.userId);
        else near.push(h.userId);
        // Keep each stretch of the event loop short on a very large book.
        if (++screened % 500 === 0) await nextTurn();
      }
      let checked = 0;
      for (const u of near) {
        await this.checkMargin(u).catch((err: unknown) => this.log.warn({ err, userId: u }, 'margin check failed'));
        // Yield to ticks and requests between small batches.
        if (++checked % 50 === 0) await nextTurn();
      }
      return { screened, checked };
    } finally {
      this.sweeping = false;
    }
  }

  private readonly instrumentOrNone = (symbol: string): Instrument | undefined => this.market.book.instruments.get(symbol);

  checkMargin(userId: number): Promise<void> {
    return this.serialize(userId, async () => {
      const { marginCallLevel, stopOutLevel } = this.ctx.config.trading;
      for (;;) {
        const a = await this.account(userId);
        if (a.margin.isZero()) {
          this.marginCalled.delete(userId);
          this.stopOutBlocked.delete(userId);
          return;
        }
        if (a.marginLevel.gt(marginCallLevel)) {
          this.marginCalled.delete(userId);
          this.stopOutBlocked.delete(userId);
          return;
        }
        if (a.marginLevel.gt(stopOutLevel)) {
          this.stopOutBlocked.delete(userId);
          if (!this.marginCalled.has(userId)) {
            this.marginCalled.add(userId);
            this.ctx.bus.publish({ type: 'account.marginCall', userId, marginLevel: a.marginLevel.toFixed(2), equity: formatCents(roundToCents(a.equity)), margin: formatCents(roundToCents(a.margin)) });
          }
          return;
        }
        // Stop-out. Stops and take-profits already reached (queued for the next batch) are closed
        // first, at the ticks that reached them; then the level is looked at again.
        const fired = this.positionsOf(userId).filter((p) => p.triggered && !p.closing);
        if (fired.length > 0) {
          for (const p of fired) await this.closeTriggeredNow(p);
          continue;
        }
        // Then the position losing the most among those that can be closed now (in session, at a
        // fresh price: never at a price from a closed session), and look again.
        let worst: OpenPosition | null = null;
        let worstProfit: Decimal | null = null;
        const notClosable: { ticket: number; symbol: string; reason: 'market-closed' | 'no-fresh-price' }[] = [];
        for (const p of this.positionsOf(userId)) {
          if (p.closing) continue;
          const blocked = this.untradableReason(p.symbol);
          if (blocked) {
            notClosable.push({ ticket: p.id, symbol: p.symbol, reason: blocked });
            continue;
          }
          const profit = this.floatingProfit(p);
          const f = profit === null ? null : profit.plus(new Decimal(p.swapCents).div(100));
          if (f !== null && (worstProfit === null || f.lt(worstProfit))) {
            worst = p;
            worstProfit = f;
          }
        }
        const event = { type: 'account.stopOut' as const, userId, marginLevel: a.marginLevel.toFixed(2), ticket: worst?.id ?? null, notClosable };
        if (!worst) {
          // Told once per set of blocked positions, not on every sweep while the markets stay closed.
          const key = notClosable.map((n) => `${n.ticket}:${n.reason}`).join(',');
          if (notClosable.length > 0 && this.stopOutBlocked.get(userId) !== key) {
            this.stopOutBlocked.set(userId, key);
            this.ctx.bus.publish(event);
          }
          return;
        }
        this.stopOutBlocked.delete(userId);
        await this.closeNow(worst, 'stop-out', {});
        this.ctx.bus.publish(event);
      }
    });
  }

  /**
   * Charges (or pays) swap for every daily rollover since the last one applied, exactly once: each
   * rollover is a row in `swap_rollovers` inserted in the same transaction as the positions' swap.
   * Positions opened after a rollover do not pay it. Swap accrues on the position and is posted to
   * the ledger when it closes.
   */
  async applyRollovers(now: number): Promise<number> {
    // Runs one at a time: a caller arriving during a run (the timer, closes just after 22:00) waits
    // for it, then finds that rollover applied and computes nothing.
    const previous = this.rolling;
    const run = (async () => {
      await previous?.catch(() => undefined);
      return this.rollOver(now);
    })();
    this.rolling = run;
    try {
      return await run;
    } finally {
      if (this.rolling === run) this.rolling = null;
    }
  }

  private rolling: Promise<number> | null = null;

  private async rollOver(now: number): Promise<number> {
    if (rolloversBetween(this.rolledUpTo, now, this.ctx.config.trading.rollover).length === 0) {
      if (this.deferredSwap.size > 0) await this.chargeDeferredSwaps(now);
      return 0;
    }
    const last = await this.ctx.db.selectFrom('swap_rollovers').select((eb) => eb.fn.max('at').as('at')).executeTakeFirst();
    // With no rollover applied yet, from the oldest open position (a downtime before the first
    // rollover is charged in full too).
    let after = now - 24 * 3600_000;
    for (const p of this.open.values()) after = Math.min(after, p.openedAt);
    if (last?.at != null) after = Number(last.at);
    this.rolledUpTo = Math.max(this.rolledUpTo, after);
    let applied = 0;
    for (const { at, days } of rolloversBetween(after, now, this.ctx.config.trading.rollover)) {
      // Positions with the same symbol, side and volume pay the same: computed once per group.
      const perGroup = new Map<string, Cents | null>();
      const charges: [number, Cents][] = [];
      // Positions whose swap cannot be priced now (no conversion rate): kept, charged when one exists.
      const deferred: number[] = [];
      let seen = 0;
      for (const p of [...this.open.values()]) {
        // A large book is priced in stretches, serving ticks in between (closes wait for this run).
        if (++seen % 5000 === 0) await nextTurn();
        if (p.openedAt >= at || !this.open.has(p.id)) continue;
        const key = `${p.symbol}|${p.side}|${p.volume}`;
        let cents = perGroup.get(key);
        if (cents === undefined) {
          cents = this.swapCents(p, days);
          perGroup.set(key, cents);
        }
        if (cents === null) deferred.push(p.id);
        else if (cents !== 0) charges.push([p.id, cents]);
      }
      try {
        await this.writingManyPositions(() => inTransaction(this.ctx, async (trx) => {
          await trx.insertInto('swap_rollovers').values({ at, positions: charges.length, applied_at: now }).execute();
          for (let i = 0; i < deferred.length; i += 500) {
            await trx.insertInto('swap_deferred').values(deferred.slice(i, i + 500).map((id) => ({ position_id: id, rollover_at: at, days }))).execute();
          }
          // A hundred positions a statement: UPDATE … SET swap_cents = swap_cents + CASE id … END.
          for (let i = 0; i < charges.length; i += ROLLOVER_CHUNK) {
            // Ticks are served between statements (the transaction keeps the connection meanwhile).
            if (i > 0 && (i / ROLLOVER_CHUNK) % 10 === 0) await nextTurn();
            const chunk = charges.slice(i, i + ROLLOVER_CHUNK);
            const cases = sql.join(chunk.map(([id, cents]) => sql`when ${id} then cast(${cents} as bigint)`), sql` `);
            await trx
              .updateTable('positions')
              .set({ swap_cents: sql<number>`swap_cents + case id ${cases} else 0 end` })
              .where('id', 'in', chunk.map(([id]) => id))
              .where('status', '=', 'open')
              .execute();
          }
        }));
      } catch (err) {
        if (isUniqueViolation(err)) {
          // Another run applied this rollover (and updated the positions in memory) already.
          this.rolledUpTo = Math.max(this.rolledUpTo, at);
          continue;
        }
        throw err;
      }
      for (const [id, cents] of charges) {
        const p = this.open.get(id);
        if (!p) continue;
        p.swapCents += cents;
        this.dirtyUsers.add(p.userId);
      }
      for (const id of deferred) this.deferredSwap.add(id);
      if (deferred.length > 0) this.log.warn({ rolloverAt: new Date(at).toISOString(), positions: deferred.length }, 'swap of some positions could not be priced (no conversion rate); it is kept and charged once a rate exists');
      this.rolledUpTo = Math.max(this.rolledUpTo, at);
      applied += 1;
    }
    if (this.deferredSwap.size > 0) await this.chargeDeferredSwaps(now);
    return applied;
  }

  /** Swap of one rollover for a position in cents, or null when it cannot be priced right now. */
  private swapCents(p: Pick<OpenPosition, 'symbol' | 'side' | 'volume'>, days: number): Cents | null {
    const instrument = this.instrumentOrNone(p.symbol);
    if (!instrument) return null;
    const usd = toUsd(swapInQuote(p.side, p.volume, days, instrument), instrument.quote, this.prices);
    return usd === null ? null : roundToCents(usd);
  }

  /** Positions with swap kept in `swap_deferred`, waiting for a conversion rate. */
  private readonly deferredSwap = new Set<number>();

  /**
   * Charges the kept swap of rollovers that could not be priced when they were applied, for every
   * position that can be priced now (each row once: it is deleted in the same transaction).
   */
  private async chargeDeferredSwaps(now: number): Promise<void> {
    const rows = await this.ctx.db.selectFrom('swap_deferred').selectAll().execute();
    const charges = new Map<number, Cents>();
    const done: { position_id: number; rollover_at: number }[] = [];
    for (const r of rows) {
      const p = this.open.get(r.position_id);
      if (!p || p.closing) continue;
      const cents = this.swapCents(p, r.days);
      if (cents === null) continue;
      charges.set(p.id, (charges.get(p.id) ?? 0) + cents);
      done.push({ position_id: r.position_id, rollover_at: Number(r.rollover_at) });
    }
    if (done.length === 0) return;
    await this.writingManyPositions(() =>
      inTransaction(this.ctx, async (trx) => {
        for (const d of done) await trx.deleteFrom('swap_deferred').where('position_id', '=', d.position_id).where('rollover_at', '=', d.rollover_at).execute();
        for (const [id, cents] of charges) if (cents !== 0) await trx.updateTable('positions').set({ swap_cents: sql<number>`swap_cents + cast(${cents} as bigint)` }).where('id', '=', id).where('status', '=', 'open').execute();
      }),
    );
    for (const [id, cents] of charges) {
      const p = this.open.get(id);
      if (!p) continue;
      p.swapCents += cents;
      this.dirtyUsers.add(p.userId);
    }
    const left = new Set((await this.ctx.db.selectFrom('swap_deferred').select('position_id').execute()).map((r) => r.position_id));
    for (const id of [...this.deferredSwap]) if (!left.has(id)) this.deferredSwap.delete(id);
    this.log.warn({ positions: charges.size, at: new Date(now).toISOString() }, 'kept swap charged now that a conversion rate exists');
  }

  /**
   * Queues the close of a position whose SL or TP a tick reached. Closes queued within one turn of
   * the event loop (one feed batch, or a burst of ticks) are written in one transaction, so a
   * market move that fires thousands of stops pays for one commit per batch, not per position.
   */
  private closeInBackground(positionId: number, reason: TriggerKind, tick: BookQuote): void {
    const p = this.open.get(positionId);
    if (!p || p.closing || p.triggered) return;
    const queued = { p, reason, tick };
    p.triggered = queued;
    this.closeQueue.push(queued);
    this.startFlush();
  }

  private readonly closeQueue: QueuedClose[] = [];
  private flushing: Promise<void> | null = null;

  /** Starts writing the close queue in batches, unless a run is under way (it takes what comes). */
  private startFlush(): void {
    if (this.flushing || this.closeQueue.length === 0) return;
    const run = (async () => {
      // Let the rest of this tick (and the feed batch it came in) queue its closes first.
      await nextTurn();
      while (this.closeQueue.length > 0) {
        const batch = this.closeQueue.splice(0, CLOSE_BATCH);
        await this.closeBatch(batch).catch((err: unknown) => {
          this.log.warn({ err, positions: batch.length }, 'triggered closes failed; they will fire again on the next tick');
          for (const e of batch) if (e.p.triggered === e) this.releaseTrigger(e.p);
        });
      }
    })().finally(() => {
      this.flushing = null;
      // Closes queued after the loop's last look start the next run.
      this.startFlush();
    });
    this.flushing = run;
    this.background(run);
  }

  /**
   * Closes a batch of triggered positions in one transaction, each at its trigger tick, holding
   * the command turn of every owner meanwhile (so a close never interleaves with an owner's own
   * order or margin check). If the transaction fails, each position is closed on its own instead.
   */
  private async closeBatch(batch: QueuedClose[]): Promise<void> {
    const owners = [...new Set(batch.map((e) => e.p.userId))];
    let release = () => {};
    const done = new Promise<void>((resolve) => (release = resolve));
    await Promise.all(owners.map((u) => new Promise<void>((turn) => void this.serialize(u, () => (turn(), done)))));
    const closed: OpenPosition[] = [];
    const ready: { e: QueuedClose; price: number; profitCents: Cents }[] = [];
    let failed = false;
    try {
      // Still queued (a stop-out or a manual close may have closed it while this batch waited).
      const live = batch.filter((e) => e.p.triggered === e && this.open.has(e.p.id));
      if (live.length === 0) return;
      // The time of the close is taken once the turns are held; a rollover due by then comes first,
      // and if it cannot be applied the triggers fire again on the next tick rather than skip a swap.
      const now = this.ctx.now();
      if (rolloversBetween(this.rolledUpTo, now, this.ctx.config.trading.rollover).length > 0) {
        try {
          await this.applyRollovers(now);
        } catch (err) {
          this.log.warn({ err }, 'swap rollover before triggered closes failed; the closes wait for the next tick');
          for (const e of live) this.releaseTrigger(e.p);
          return;
        }
      }
      for (const e of live) {
        const instrument = this.instrumentOrNone(e.p.symbol);
        const profit = instrument ? profitUsd(e.p.side, e.p.volume, e.p.openPrice, e.tick, instrument, this.prices) : null;
        // No conversion rate at this moment: the trigger fires again on the next tick (the others close now).
        if (profit === null) this.releaseTrigger(e.p);
        else ready.push({ e, price: closePrice(e.p.side, e.tick), profitCents: roundToCents(profit) });
      }
      if (ready.length === 0) return;
      try {
        await this.writingManyPositions(() =>
          inTransaction(this.ctx, async (trx, emit) => {
            for (const { e, price, profitCents } of ready) {
              // Written now, or (false) not open in the database: closed already. Memory follows below either way.
              await this.writeClose(trx, emit, e.p, { reason: e.reason, price, tick: e.tick, profitCents, now, by: null });
              closed.push(e.p);
            }
          }),
        );
      } catch (err) {
        failed = true;
        closed.length = 0;
        this.log.warn({ err, positions: ready.length }, 'a batch of triggered closes failed; closing them one by one');
      }
    } finally {
      release();
    }
    for (const p of closed) {
      p.triggered = null;
      this.untrack(p);
    }
    if (!failed) return;
    for (const { e } of ready) if (e.p.triggered === e && this.open.has(e.p.id)) this.closeTriggeredInBackground(e.p);
  }

  /** Closes one triggered position on its own (its owner's turn taken), at its trigger tick. */
  private closeTriggeredInBackground(p: OpenPosition): void {
    const work = this.serialize(p.userId, () => this.closeTriggeredNow(p));
    this.background(work);
  }

  /**
   * The close of a queued SL/TP, in its owner's turn: written at the tick that reached it; if that
   * fails, its levels go back in the index, so the next tick that reaches them fires again.
   */
  private async closeTriggeredNow(p: OpenPosition): Promise<void> {
    const queued = p.triggered;
    if (!queued || !this.open.has(p.id)) return;
    try {
      await this.closeNow(p, queued.reason, { tick: queued.tick });
      p.triggered = null;
    } catch (err) {
      if (!(err instanceof Refusal)) this.log.warn({ err, positionId: p.id, reason: queued.reason }, 'automatic close failed; it will be retried on the next tick');
      if (p.triggered === queued) this.releaseTrigger(p);
    }
  }

  /** Puts a queued position's levels back in the index, so the next tick that reaches them fires. */
  private releaseTrigger(p: OpenPosition): void {
    p.triggered = null;
    if (this.open.has(p.id) && !p.closing) this.triggers.set(p.id, p.symbol, p.side, p.stopLoss, p.takeProfit);
  }
}
