import Decimal from 'decimal.js';
import { roundPrice, type Instrument } from '../domain/instruments';
import { formatCents, roundToCents, type Cents } from '../domain/money';
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
import { OrderIndex, TriggerIndex, type TriggerKind } from './trigger-index';

export type CloseReason = 'manual' | 'sl' | 'tp' | 'stop-out' | 'admin';

export interface OpenPosition {
  id: number;
  userId: number;
  symbol: string;
  side: Side;
  volume: number;
  openPrice: number;
  stopLoss: number;
  takeProfit: number;
  comment: string;
  openedAt: number;
  swapCents: Cents;
  /** Set while a close is being written, so a tick does not start a second one. */
  closing: boolean;
}

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

export interface PendingOrder {
  id: number;
  userId: number;
  symbol: string;
  type: PendingType;
  volume: number;
  price: number;
  stopLimitPrice: number;
  stopTriggered: boolean;
  stopLoss: number;
  takeProfit: number;
  comment: string;
  expiresAt: number | null;
  /** Set while an activation is queued, so further ticks do not queue another. */
  busy: boolean;
}

export interface CloseOptions {
  /** Only this user's position may be closed. */
  owner?: number;
  /** Who closed it (recorded). */
  by?: number;
  /** The tick that triggered the close (SL/TP): its prices are the fill. */
  tick?: BookQuote;
  audit?: { actorId: number; ip: string };
}

export interface OpenedOrder {
  ticket: number;
  symbol: string;
  side: Side;
  volume: number;
  price: number;
}

export interface AccountState {
  balanceCents: Cents;
  creditCents: Cents;
  leverage: number;
  floating: Decimal;
  margin: Decimal;
  equity: Decimal;
  freeMargin: Decimal;
  marginLevel: Decimal;
}

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
  private readonly byUser = new Map<number, Set<number>>();
  private readonly triggers = new TriggerIndex();
  private readonly queues = new Map<number, Promise<unknown>>();
  private unsubscribe: (() => void) | null = null;
  private readonly pending = new Set<Promise<unknown>>();
  /** Users holding each symbol (with how many positions), so a price move finds its accounts. */
  private readonly holders = new Map<string, Map<number, number>>();
  private dirtySymbols = new Set<string>();
  private sweeping = false;
  /** For each conversion pair (e.g. USDJPY), the instruments whose USD figures move with it. */
  private readonly dependents = new Map<string, string[]>();
  private readonly orders = new Map<number, PendingOrder>();
  private readonly orderIndex = new OrderIndex();
  private expiryTimer: NodeJS.Timeout | null = null;
  /** The last rollover instant known to be applied (a cheap test before a close). */
  private rolledUpTo = 0;
  private readonly marginCalled = new Set<number>();
  private sweepTimer: NodeJS.Timeout | null = null;
  private rolloverTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly market: MarketData,
    private readonly log: { warn(obj: object, msg: string): void },
  ) {}

  async start(): Promise<void> {
    const rows = await this.ctx.db.selectFrom('positions').selectAll().where('status', '=', 'open').execute();
    for (const r of rows) {
      this.track({ id: r.id, userId: r.user_id, symbol: r.symbol, side: r.side, volume: r.volume, openPrice: r.open_price, stopLoss: r.stop_loss, takeProfit: r.take_profit, comment: r.comment, openedAt: r.opened_at, swapCents: Number(r.swap_cents), closing: false });
    }
    const lastRollover = await this.ctx.db.selectFrom('swap_rollovers').select((eb) => eb.fn.max('at').as('at')).executeTakeFirst();
    this.rolledUpTo = lastRollover?.at != null ? Number(lastRollover.at) : this.ctx.now() - 24 * 3600_000;
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
    this.unsubscribe = this.market.book.onQuote((quote) => this.onTick(quote));
    this.sweepTimer = setInterval(() => void this.marginSweep(), this.ctx.config.trading.marginCheckMs);
    this.sweepTimer.unref();
    this.rolloverTimer = setInterval(() => void this.applyRollovers(this.ctx.now()).catch((err: unknown) => this.log.warn({ err }, 'swap rollover failed')), 60_000);
    this.rolloverTimer.unref();
    this.expiryTimer = setInterval(() => void this.expireOrders(this.ctx.now()), 1000);
    this.expiryTimer.unref();
    // Withdrawals may not take what open positions need: see ServiceContext.reservedMargin.
    this.ctx.reservedMargin = (trx, userId) => this.withdrawalFloorCents(trx, userId);
  }

  /** Stops evaluating ticks and waits for closes already under way. */
  async stop(): Promise<void> {
    this.unsubscribe?.();
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    if (this.rolloverTimer) clearInterval(this.rolloverTimer);
    if (this.expiryTimer) clearInterval(this.expiryTimer);
    await Promise.allSettled([...this.pending]);
  }

  private track(p: OpenPosition): void {
    this.open.set(p.id, p);
    let set = this.byUser.get(p.userId);
    if (!set) this.byUser.set(p.userId, (set = new Set()));
    set.add(p.id);
    this.triggers.set(p.id, p.symbol, p.side, p.stopLoss, p.takeProfit);
    let users = this.holders.get(p.symbol);
    if (!users) this.holders.set(p.symbol, (users = new Map()));
    users.set(p.userId, (users.get(p.userId) ?? 0) + 1);
  }

  private untrack(p: OpenPosition): void {
    this.open.delete(p.id);
    this.byUser.get(p.userId)?.delete(p.id);
    this.triggers.remove(p.id);
    const users = this.holders.get(p.symbol);
    const left = (users?.get(p.userId) ?? 1) - 1;
    if (left > 0) users?.set(p.userId, left);
    else users?.delete(p.userId);
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

  private readonly prices: PriceLookup = (symbol) => this.market.book.get(symbol);

  private instrument(symbol: string): Instrument {
    const i = this.market.book.instruments.get(symbol);
    if (!i) throw refuse.invalid(`Unknown symbol ${symbol}.`);
    return i;
  }

  positionsOf(userId: number): OpenPosition[] {
    return [...(this.byUser.get(userId) ?? [])].map((id) => this.open.get(id) as OpenPosition).sort((a, b) => a.id - b.id);
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
    if (!q) return null;
    return profitUsd(p.side, p.volume, p.openPrice, q, this.instrument(p.symbol), this.prices);
  }

  private positionMargin(p: Pick<OpenPosition, 'symbol' | 'volume' | 'openPrice'>, leverage: number): Decimal {
    return marginUsd(p.volume, p.openPrice, leverage, this.instrument(p.symbol), this.prices) ?? new Decimal(0);
  }

  async account(userId: number, trx?: Tx): Promise<AccountState> {
    const user = await (trx ?? this.ctx.db).selectFrom('users').select(['balance_cents', 'credit_cents', 'leverage']).where('id', '=', userId).executeTakeFirstOrThrow();
    return this.figures(userId, user.balance_cents, user.credit_cents, user.leverage);
  }

  private figures(userId: number, balanceCents: Cents, creditCents: Cents, leverage: number, extra?: { floating: Decimal; margin: Decimal }): AccountState {
    let floating = new Decimal(0);
    let margin = new Decimal(0);
    for (const p of this.positionsOf(userId)) {
      floating = floating.plus(this.floatingProfit(p) ?? 0).plus(new Decimal(p.swapCents).div(100));
      margin = margin.plus(this.positionMargin(p, leverage));
    }
    if (extra) {
      floating = floating.plus(extra.floating);
      margin = margin.plus(extra.margin);
    }
    const f = accountFigures(new Decimal(balanceCents).div(100), new Decimal(creditCents).div(100), floating, margin);
    return { balanceCents, creditCents, leverage, floating, margin, ...f };
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
      floating = floating.plus((q && profitUsd(p.side, p.volume, p.openPrice, q, this.instrument(p.symbol), this.prices)) ?? 0).plus(new Decimal(Number(r.swap_cents)).div(100));
      margin = margin.plus(this.positionMargin(p, user.leverage));
    }
    // equity − margin ≥ 0 with balance b: b ≥ margin − credit − floating.
    const floor = margin.minus(new Decimal(user.credit_cents).div(100)).minus(floating).times(100).ceil();
    return Math.max(0, floor.toNumber());
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
  openMarket(actor: Actor, order: { symbol: string; side: Side; volume: number; stopLoss: number; takeProfit: number; comment: string }, idempotencyKey?: string): Promise<OpenedOrder> {
    const instrument = this.instrument(order.symbol);
    const volumeIssue = volumeProblem(order.volume, instrument);
    if (volumeIssue) return Promise.reject(refuse.invalid(volumeIssue));
    return this.serialize(actor.userId, async () => {
      let created: OpenPosition | null = null;
      const answer = await runIdempotent(this.ctx, actor.userId, idempotencyKey, 'addTrades', order, async (trx, emit) => {
        const quote = this.tradableQuote(instrument);
        const stops = stopsProblem(order.side, order.stopLoss, order.takeProfit, quote);
        if (stops) throw refuse.invalid(stops);
        created = await this.insertPosition(trx, emit, actor.userId, instrument, order, quote);
        return { ticket: created.id, symbol: instrument.symbol, side: order.side, volume: order.volume, price: created.openPrice };
      });
      // Only a fresh order is tracked; a replayed answer refers to a position already known.
      if (created) this.track(created);
      return answer;
    });
  }

  /**
   * Inserts a position filled at `quote` (Buy at ask, Sell at bid) after the margin check, in the
   * caller's transaction (which takes the account lock). Not yet tracked: the caller does that after
   * the commit.
   */
  private async insertPosition(trx: Tx, emit: (e: AccountEvent) => void, userId: number, instrument: Instrument, order: { side: Side; volume: number; stopLoss: number; takeProfit: number; comment: string }, quote: BookQuote): Promise<OpenPosition> {
    const price = openPrice(order.side, quote);
    const now = this.ctx.now();
    await lockAccount(this.ctx, trx, userId);
    const user = await trx.selectFrom('users').select(['balance_cents', 'credit_cents', 'leverage']).where('id', '=', userId).executeTakeFirstOrThrow();
    const margin = marginUsd(order.volume, price, user.leverage, instrument, this.prices);
    const floating = profitUsd(order.side, order.volume, price, quote, instrument, this.prices);
    if (margin === null || floating === null) throw refuse.invalid(`No conversion rate to USD for ${instrument.symbol} right now; please try again shortly.`);
    // The new position counts with the spread it pays at once (it opens at ask, values at bid).
    const after = this.figures(userId, user.balance_cents, user.credit_cents, user.leverage, { floating, margin });
    if (after.freeMargin.isNegative()) throw refuse.invalid(`Not enough free margin: this order needs ${margin.toFixed(2)} USD of margin; free margin would be ${after.freeMargin.toFixed(2)} USD.`);
    const row = await trx
      .insertInto('positions')
      .values({ user_id: userId, symbol: instrument.symbol, side: order.side, volume: order.volume, open_price: price, stop_loss: order.stopLoss, take_profit: order.takeProfit, comment: order.comment, opened_at: now, status: 'open', close_price: null, closed_at: null, close_reason: null, close_tick_bid: null, close_tick_ask: null, close_tick_time: null, profit_cents: null, closed_by: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    emit({ type: 'position.opened', userId, ticket: row.id, symbol: instrument.symbol, side: order.side, volume: order.volume, price });
    return { id: row.id, userId, symbol: instrument.symbol, side: order.side, volume: order.volume, openPrice: price, stopLoss: order.stopLoss, takeProfit: order.takeProfit, comment: order.comment, openedAt: now, swapCents: 0, closing: false };
  }

  modify(actor: Actor, positionId: number, levels: { stopLoss: number; takeProfit: number }): Promise<void> {
    return this.serialize(actor.userId, async () => {
      const p = this.open.get(positionId);
      if (!p || p.userId !== actor.userId) throw refuse.notFound(`Position #${positionId} is not open.`);
      const quote = this.tradableQuote(this.instrument(p.symbol));
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
    if (rolloversBetween(this.rolledUpTo, now).length > 0) await this.applyRollovers(now);
    p.closing = true;
    try {
      await inTransaction(this.ctx, async (trx, emit) => {
        const updated = await trx
          .updateTable('positions')
          .set({ status: 'closed', close_price: price, closed_at: now, close_reason: reason, close_tick_bid: tick.bid, close_tick_ask: tick.ask, close_tick_time: tick.time, profit_cents: profitCents, closed_by: opts.by ?? null })
          .where('id', '=', positionId)
          .where('status', '=', 'open')
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) !== 1) throw refuse.conflict(`Position #${positionId} has already been closed.`);
        let balance: { balanceCents: Cents; creditCents: Cents } | null = null;
        if (profitCents !== 0) balance = await postToLedger(trx, { userId: p.userId, kind: 'trade', amountCents: profitCents, refType: 'position', refId: positionId, memo: `Position #${positionId} ${p.side} ${p.volume} ${p.symbol} closed (${reason})`, at: now });
        // The swap accrued on the position, read inside the transaction (a rollover may just have added to it).
        const swap = await trx.selectFrom('positions').select('swap_cents').where('id', '=', positionId).executeTakeFirstOrThrow();
        const swapCents = Number(swap.swap_cents);
        if (swapCents !== 0) balance = await postToLedger(trx, { userId: p.userId, kind: 'swap', amountCents: swapCents, refType: 'position', refId: positionId, memo: `Swap of position #${positionId}`, at: now });
        if (opts.audit) {
          await recordAudit(trx, { actorId: opts.audit.actorId, action: 'position.close', targetType: 'position', targetId: positionId, before: { status: 'open', userId: p.userId }, after: { status: 'closed', price, profit: formatCents(profitCents) }, ip: opts.audit.ip, at: now });
        }
        emit({ type: 'position.closed', userId: p.userId, ticket: positionId, symbol: p.symbol, reason, price, profit: formatCents(profitCents) });
        if (balance) emit({ type: 'balance.changed', userId: p.userId, balance: formatCents(balance.balanceCents), credit: formatCents(balance.creditCents), reason: 'position-closed' });
      });
    } catch (err) {
      p.closing = false;
      // A trigger that failed to close must fire again on the next tick.
      if (this.open.has(positionId)) this.triggers.set(p.id, p.symbol, p.side, p.stopLoss, p.takeProfit);
      throw err;
    }
    this.untrack(p);
    return { profitCents, price };
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
    for (const orderId of this.orderIndex.fire(quote.symbol, quote.bid, quote.ask)) this.activate(orderId, quote);
    for (const { positionId, kind } of this.triggers.fire(quote.symbol, quote.bid, quote.ask)) {
      const p = this.open.get(positionId);
      if (!p || p.closing) continue;
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
    const instrument = this.instrument(o.symbol);
    const order = { ...o, price: roundPrice(o.price, instrument.digits), stopLimitPrice: o.type.endsWith('stop_limit') ? roundPrice(o.stopLimitPrice, instrument.digits) : 0 };
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
      const next = { type: o.type, volume: o.volume, price: roundPrice(change.price, instrument.digits), stopLimitPrice: o.type.endsWith('stop_limit') ? roundPrice(change.stopLimitPrice, instrument.digits) : 0, stopLoss: change.stopLoss, takeProfit: change.takeProfit, expiresAt: change.expiresAt };
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
      this.pending.add(persisted);
      void persisted.finally(() => this.pending.delete(persisted));
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
      let position: OpenPosition | null = null;
      try {
        await inTransaction(this.ctx, async (trx, emit) => {
          const claimed = await trx.updateTable('orders').set({ status: 'filled', reason: 'Filled', updated_at: this.ctx.now() }).where('id', '=', o.id).where('status', '=', 'pending').executeTakeFirst();
          if (Number(claimed.numUpdatedRows) !== 1) return;
          position = await this.insertPosition(trx, emit, o.userId, instrument, { side: pendingSide(o.type), volume: o.volume, stopLoss: o.stopLoss, takeProfit: o.takeProfit, comment: o.comment }, tick);
          await trx.updateTable('orders').set({ position_id: position.id }).where('id', '=', o.id).execute();
          emit({ type: 'order.updated', userId: o.userId, orderId: o.id, status: 'filled', reason: 'Filled', ticket: position.id });
        });
      } catch (err) {
        if (err instanceof Refusal) return this.finishOrder(o, 'rejected', err.message);
        throw err;
      }
      this.untrackOrder(o.id);
      if (position) this.track(position);
    });
    const settled = work
      .catch((err: unknown) => {
        this.log.warn({ err, orderId }, 'pending order activation failed; it will be tried again on the next tick');
        if (this.orders.has(o.id)) this.trackOrder(o);
      })
      .finally(() => {
        o.busy = false;
      });
    this.pending.add(settled);
    void settled.finally(() => this.pending.delete(settled));
  }

  /**
   * Margin control, every `marginCheckMs` for the accounts whose prices moved: at or below the
   * margin-call level the trader is told once (until the level recovers); at or below the stop-out
   * level the position with the largest loss is closed, the level re-checked, and so on.
   */
  async marginSweep(): Promise<void> {
    // One sweep at a time; a sweep that overruns its interval simply takes the next dirty set.
    if (this.sweeping || this.dirtySymbols.size === 0) return;
    this.sweeping = true;
    try {
      const symbols = this.dirtySymbols;
      this.dirtySymbols = new Set();
      const users = new Set<number>();
      for (const s of symbols) for (const u of this.holders.get(s)?.keys() ?? []) users.add(u);
      let checked = 0;
      for (const u of users) {
        await this.checkMargin(u).catch((err: unknown) => this.log.warn({ err, userId: u }, 'margin check failed'));
        // Yield to ticks and requests between small batches, so a large book is never one long stall.
        if (++checked % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      this.sweeping = false;
    }
  }

  checkMargin(userId: number): Promise<void> {
    return this.serialize(userId, async () => {
      const { marginCallLevel, stopOutLevel } = this.ctx.config.trading;
      for (;;) {
        const a = await this.account(userId);
        if (a.margin.isZero()) {
          this.marginCalled.delete(userId);
          return;
        }
        if (a.marginLevel.gt(marginCallLevel)) {
          this.marginCalled.delete(userId);
          return;
        }
        if (a.marginLevel.gt(stopOutLevel)) {
          if (!this.marginCalled.has(userId)) {
            this.marginCalled.add(userId);
            this.ctx.bus.publish({ type: 'account.marginCall', userId, marginLevel: a.marginLevel.toFixed(2), equity: formatCents(roundToCents(a.equity)), margin: formatCents(roundToCents(a.margin)) });
          }
          return;
        }
        // Stop-out: close the position losing the most, then look again.
        let worst: OpenPosition | null = null;
        let worstProfit: Decimal | null = null;
        for (const p of this.positionsOf(userId)) {
          const profit = this.floatingProfit(p);
          const f = profit === null ? null : profit.plus(new Decimal(p.swapCents).div(100));
          if (f !== null && !p.closing && (worstProfit === null || f.lt(worstProfit))) {
            worst = p;
            worstProfit = f;
          }
        }
        if (!worst) return;
        await this.closeNow(worst, 'stop-out', {});
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
    const last = await this.ctx.db.selectFrom('swap_rollovers').select((eb) => eb.fn.max('at').as('at')).executeTakeFirst();
    const after = last?.at != null ? Number(last.at) : now - 24 * 3600_000;
    this.rolledUpTo = Math.max(this.rolledUpTo, after);
    let applied = 0;
    for (const { at, days } of rolloversBetween(after, now).slice(-10)) {
      const charges = new Map<number, Cents>();
      for (const p of this.allOpen()) {
        if (p.openedAt >= at) continue;
        const instrument = this.instrument(p.symbol);
        const usd = toUsd(swapInQuote(p.side, p.volume, days, instrument), instrument.quote, this.prices);
        const cents = usd === null ? 0 : roundToCents(usd);
        if (cents !== 0) charges.set(p.id, cents);
      }
      try {
        await inTransaction(this.ctx, async (trx) => {
          await trx.insertInto('swap_rollovers').values({ at, positions: charges.size, applied_at: now }).execute();
          for (const [id, cents] of charges) {
            await trx.updateTable('positions').set({ swap_cents: sql<number>`swap_cents + ${cents}` }).where('id', '=', id).where('status', '=', 'open').execute();
          }
        });
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
        if (p) p.swapCents += cents;
      }
      this.rolledUpTo = Math.max(this.rolledUpTo, at);
      applied += 1;
    }
    return applied;
  }

  private closeInBackground(positionId: number, reason: TriggerKind, tick: BookQuote): void {
    const work = this.close(positionId, reason, { tick }).catch((err: unknown) => {
      if (!(err instanceof Error && err.name === 'Refusal')) this.log.warn({ err, positionId, reason }, 'automatic close failed; it will be retried on the next tick');
    });
    this.pending.add(work);
    void work.finally(() => this.pending.delete(work));
  }
}
