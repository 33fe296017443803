import { confirmInstrument } from '../market/catalogue-edits';
import { roundPrice, type Instrument } from '../domain/instruments';
import { ORDER_REASONS } from '@tradeport/contracts/messages';
import { pendingCondition, pendingEntryPrice, pendingPlacementProblem, pendingSide, stopsAroundEntryProblem, trailingProblem, volumeProblem, type PendingType, type Trailing } from '@tradeport/trading-math';
import type { BookQuote } from '../market/types';
import { recordAudit, type AuditInput } from '../services/audit';
import type { Actor } from '../services/context';
import { Refusal, refuse } from '../services/errors';
import { runIdempotent } from '../services/idempotency';
import { isOffered, notOfferedMessage, offeredColumn } from '../services/account-types';
import type { EngineState } from './engine-state';
import { accountStateMessage, instrumentModeMessage, roundLevels, trailColumns, trailingOf, tradingStateOf, type Positions } from './positions';
import { OrderIndex } from './trigger-index';
import type { Inserted, PendingOrder } from './types';

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

/** A command on another user's order, by an administrator: the owner's order only, and audited. */
export interface OnBehalf {
  owner: number;
}

/** An order's levels as the audit log records them before and after a change. */
const orderLevels = (o: { price: number; stopLimitPrice: number; stopLoss: number; takeProfit: number; expiresAt: number | null; trailing: Trailing | null }) => ({
  price: o.price,
  ...(o.stopLimitPrice > 0 ? { stopLimitPrice: o.stopLimitPrice } : {}),
  stopLoss: o.stopLoss,
  takeProfit: o.takeProfit,
  expiration: o.expiresAt === null ? null : new Date(o.expiresAt).toISOString(),
  ...(o.trailing ? { trailingStop: o.trailing } : {}),
});

/**
 * Pending orders: placed, changed, cancelled and expired by their owner's commands or the expiry
 * timer, kept in memory with their activation prices in a per-symbol `OrderIndex`, and activated
 * by the ticks that reach them (a fill opens its position through `Positions.insertPosition`).
 */
export class PendingOrders {
  private readonly orders = new Map<number, PendingOrder>();
  private readonly orderIndex = new OrderIndex();
  /** Each trading account's pending orders (the cap is checked against their count; the trader's list is read here). */
  private readonly byAccount = new Map<number, Map<number, PendingOrder>>();

  constructor(
    private readonly state: EngineState,
    private readonly positions: Positions,
  ) {}

  /** Tracks every pending order in the database (at start). */
  async load(): Promise<void> {
    const orders = await this.state.ctx.db.selectFrom('orders').innerJoin('trading_accounts as a', 'a.id', 'orders.account_id').selectAll('orders').select('a.account_type_id').where('orders.status', '=', 'pending').execute();
    for (const r of orders) {
      this.state.accountTypes.set(r.account_id, r.account_type_id);
      this.trackOrder({ id: r.id, accountId: r.account_id, userId: r.user_id, symbol: r.symbol, type: r.type, volume: r.volume, price: r.price, stopLimitPrice: r.stop_limit_price, stopTriggered: r.stop_triggered === 1, stopLoss: r.stop_loss, takeProfit: r.take_profit, comment: r.comment, expiresAt: r.expires_at === null ? null : Number(r.expires_at), trailing: trailingOf(r), createdAt: Number(r.created_at), updatedAt: Number(r.updated_at), busy: false });
    }
  }

  private trackOrder(o: PendingOrder): void {
    let own = this.byAccount.get(o.accountId);
    if (!own) this.byAccount.set(o.accountId, (own = new Map()));
    own.set(o.id, o);
    this.orders.set(o.id, o);
    this.orderIndex.set(o.id, this.state.priceKey(o.accountId, o.symbol), pendingCondition(o.type, o.stopTriggered), o.stopTriggered ? o.stopLimitPrice : o.price);
  }

  private untrackOrder(id: number): void {
    const o = this.orders.get(id);
    const own = o ? this.byAccount.get(o.accountId) : undefined;
    if (o && own) {
      own.delete(id);
      if (own.size === 0) this.byAccount.delete(o.accountId);
    }
    this.orders.delete(id);
    this.orderIndex.remove(id);
  }

  get(orderId: number): PendingOrder | undefined {
    return this.orders.get(orderId);
  }

  /** A trading account's pending orders, oldest first. */
  pendingOf(accountId: number): PendingOrder[] {
    return [...(this.byAccount.get(accountId)?.values() ?? [])].sort((a, b) => a.id - b.id);
  }

  private checkPending(instrument: Instrument, accountId: number, o: { type: PendingType; volume: number; price: number; stopLimitPrice: number; stopLoss: number; takeProfit: number; expiresAt: number | null; trailing: Trailing | null }): void {
    if (instrument.tradingMode !== 'full') throw refuse.invalid(instrumentModeMessage(instrument));
    const trailingIssue = o.trailing ? trailingProblem(o.trailing) : null;
    if (trailingIssue) throw refuse.invalid(trailingIssue);
    const volumeIssue = volumeProblem(o.volume, instrument);
    if (volumeIssue) throw refuse.invalid(volumeIssue);
    const quote = this.state.tradableQuote(instrument, accountId);
    const placement = pendingPlacementProblem(o.type, o.price, o.stopLimitPrice, quote);
    if (placement) throw refuse.invalid(placement);
    const stops = stopsAroundEntryProblem(pendingSide(o.type), o.stopLoss, o.takeProfit, pendingEntryPrice(o.type, o.price, o.stopLimitPrice));
    if (stops) throw refuse.invalid(stops);
    if (o.expiresAt !== null && o.expiresAt <= this.state.ctx.now()) throw refuse.invalid('The expiration must be in the future.');
  }

  /** Places a pending order; it fills on the server when the market reaches it, browsers closed or not. */
  placeOrder(actor: Actor, o: { symbol: string; type: PendingType; volume: number; price: number; stopLimitPrice: number; stopLoss: number; takeProfit: number; comment: string; expiresAt: number | null; trailing?: Trailing | null }, idempotencyKey?: string): Promise<{ orderId: number }> {
    let instrument: Instrument;
    let order: typeof o & { trailing: Trailing | null };
    try {
      instrument = this.state.instrument(o.symbol);
      order = roundLevels({ ...o, trailing: o.trailing ?? null, price: roundPrice(o.price, instrument.digits), stopLimitPrice: o.type.endsWith('stop_limit') ? roundPrice(o.stopLimitPrice, instrument.digits) : 0 }, instrument);
    } catch (err) {
      return Promise.reject(err);
    }
    return this.state.inAccountTurn(actor, async ({ accountId }) => {
      let created: PendingOrder | null = null;
      const answer = await runIdempotent(this.state.ctx, actor.userId, idempotencyKey, 'addPendingOrder', { ...o, accountId }, async (trx, emit) => {
        await this.state.fence(trx);
        // Checked inside the account's turn (serialize), so orders sent at once cannot all pass it.
        const cap = this.state.ctx.config.maxPendingOrders;
        if ((this.byAccount.get(accountId)?.size ?? 0) >= cap) throw refuse.conflict(`You already have ${cap} pending orders, the most an account may hold. Cancel one before placing another.`);
        const held = await trx
          .selectFrom('trading_accounts as a')
          .innerJoin('account_types as t', 't.id', 'a.account_type_id')
          .select(['a.state', 'a.account_type_id', 't.trading_mode', 't.name as type_name'])
          .select(offeredColumn(instrument.symbol))
          .where('a.id', '=', accountId)
          .where('a.user_id', '=', actor.userId)
          .executeTakeFirst();
        if (!held) throw refuse.notFound('The trading account was not found.');
        const allowed = tradingStateOf(held.state, held.trading_mode);
        if (allowed !== 'active') throw refuse.invalid(accountStateMessage(allowed));
        if (!isOffered(held.offered)) throw refuse.invalid(notOfferedMessage(instrument.symbol, held.type_name));
        this.state.accountTypes.set(accountId, held.account_type_id);
        this.checkPending(instrument, accountId, order);
        await confirmInstrument(this.state.ctx.engine, trx, instrument);
        const now = this.state.ctx.now();
        const row = await trx
          .insertInto('orders')
          .values({ user_id: actor.userId, account_id: accountId, symbol: instrument.symbol, type: order.type, volume: order.volume, price: order.price, stop_limit_price: order.stopLimitPrice, stop_triggered: 0, stop_loss: order.stopLoss, take_profit: order.takeProfit, comment: order.comment, expires_at: order.expiresAt, status: 'pending', reason: '', position_id: null, created_at: now, updated_at: now, ...trailColumns(order.trailing) })
          .returning('id')
          .executeTakeFirstOrThrow();
        created = { id: row.id, accountId, userId: actor.userId, symbol: instrument.symbol, type: order.type, volume: order.volume, price: order.price, stopLimitPrice: order.stopLimitPrice, stopTriggered: false, stopLoss: order.stopLoss, takeProfit: order.takeProfit, comment: order.comment, expiresAt: order.expiresAt, trailing: order.trailing, createdAt: now, updatedAt: now, busy: false };
        // The owner's other devices show the new order at once (a replayed retry placed nothing and says nothing).
        emit({ type: 'order.updated', userId: actor.userId, accountId, orderId: row.id, status: 'pending', reason: 'Placed', ticket: null, symbol: instrument.symbol, orderType: order.type, volume: order.volume });
        return { orderId: row.id };
      });
      if (created) this.trackOrder(created);
      return answer;
    });
  }

  /**
   * Changes a pending order's price, limit price, SL/TP, expiry and trailing stop (left as it is when
   * `trailing` is undefined; null removes it), checked as when it was placed.
   * `onBehalf`: an administrator (the actor) changes the order of `owner`, in the owner's turn, with
   * the same checks; the change is audited and the owner is told it came from the back office.
   */
  modifyOrder(actor: Actor, orderId: number, change: { price: number; stopLimitPrice: number; stopLoss: number; takeProfit: number; expiresAt: number | null; trailing?: Trailing | null }, onBehalf?: OnBehalf): Promise<void> {
    return this.inOwnersTurn(actor, orderId, onBehalf, async (o) => {
      const instrument = this.state.instrument(o.symbol);
      const next = roundLevels({ type: o.type, volume: o.volume, price: roundPrice(change.price, instrument.digits), stopLimitPrice: o.type.endsWith('stop_limit') ? roundPrice(change.stopLimitPrice, instrument.digits) : 0, stopLoss: change.stopLoss, takeProfit: change.takeProfit, expiresAt: change.expiresAt, trailing: change.trailing === undefined ? o.trailing : change.trailing }, instrument);
      if (o.stopTriggered) throw refuse.conflict(`Order #${orderId} has reached its stop and waits as a limit order; cancel it instead.`);
      this.checkPending(instrument, o.accountId, next);
      const now = this.state.ctx.now();
      await this.state.transaction(async (trx, emit) => {
        const result = await trx
          .updateTable('orders')
          .set({ price: next.price, stop_limit_price: next.stopLimitPrice, stop_loss: next.stopLoss, take_profit: next.takeProfit, expires_at: next.expiresAt, updated_at: now, ...trailColumns(next.trailing) })
          .where('id', '=', orderId)
          .where('status', '=', 'pending')
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) !== 1) throw refuse.notFound(`Order #${orderId} is not pending.`);
        if (onBehalf) {
          await recordAudit(trx, { actorId: actor.userId, action: 'order.modify', targetType: 'order', targetId: o.id, subjectUserId: o.userId, before: orderLevels(o), after: orderLevels(next), ip: actor.ip, at: now });
        }
        // Published once the change is committed: the owner's other devices show the new levels.
        emit({ type: 'order.updated', userId: o.userId, accountId: o.accountId, orderId: o.id, status: 'pending', reason: onBehalf ? ORDER_REASONS.modifiedByBackOffice : 'Modified', ticket: null, symbol: o.symbol, orderType: o.type, volume: o.volume });
      });
      Object.assign(o, next, { updatedAt: now });
      this.trackOrder(o);
    });
  }

  /** Cancels a pending order, exactly once; `onBehalf` as for `modifyOrder` (audited, the owner told who). */
  cancelOrder(actor: Actor, orderId: number, onBehalf?: OnBehalf): Promise<void> {
    return this.inOwnersTurn(actor, orderId, onBehalf, async (o) => {
      const audit = onBehalf ? { actorId: actor.userId, action: 'order.cancel', targetType: 'order', targetId: o.id, subjectUserId: o.userId, before: { status: 'pending' }, after: { status: 'cancelled' }, ip: actor.ip } : undefined;
      await this.finishOrder(o, 'cancelled', onBehalf ? ORDER_REASONS.cancelledByBackOffice : 'Cancelled by the trader', audit);
    });
  }

  /** Cancels every pending order of a trading account (a demo account's reset), each exactly once, telling its owner why. */
  async cancelAllOf(accountId: number, reason: string): Promise<number> {
    let cancelled = 0;
    for (const o of this.pendingOf(accountId)) {
      await this.state.serialize(accountId, async () => {
        if (!this.orders.has(o.id)) return;
        await this.finishOrder(o, 'cancelled', reason);
        cancelled += 1;
      });
    }
    return cancelled;
  }

  /**
   * Runs `work` on a pending order of the caller's in its account's turn: a trader's own order of
   * the account the session acts on, or (`onBehalf`) an order of the trader the administrator
   * names. Refused as not pending otherwise, and when it is no longer pending once its turn comes.
   */
  private inOwnersTurn(actor: Actor, orderId: number, onBehalf: OnBehalf | undefined, work: (o: PendingOrder) => Promise<void>): Promise<void> {
    const mine = (o: PendingOrder | undefined): o is PendingOrder => o !== undefined && (onBehalf ? o.userId === onBehalf.owner : o.accountId === actor.accountId && o.userId === actor.userId);
    const found = this.orders.get(orderId);
    if (!mine(found)) return Promise.reject(refuse.notFound(`Order #${orderId} is not pending.`));
    return this.state.serialize(found.accountId, async () => {
      const o = this.orders.get(orderId);
      if (!mine(o)) throw refuse.notFound(`Order #${orderId} is not pending.`);
      await work(o);
    });
  }

  /** Moves a pending order to a final status once (guarded), and tells its owner; with `audit`, recorded in the same transaction. */
  private async finishOrder(o: PendingOrder, status: 'cancelled' | 'expired' | 'rejected', reason: string, audit?: Omit<AuditInput, 'at'>): Promise<void> {
    await this.state.transaction(async (trx, emit) => {
      const now = this.state.ctx.now();
      const result = await trx.updateTable('orders').set({ status, reason, updated_at: now }).where('id', '=', o.id).where('status', '=', 'pending').executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) throw refuse.conflict(`Order #${o.id} is no longer pending.`);
      if (audit) await recordAudit(trx, { ...audit, at: now });
      emit({ type: 'order.updated', userId: o.userId, accountId: o.accountId, orderId: o.id, status, reason, ticket: null, symbol: o.symbol, orderType: o.type, volume: o.volume });
    });
    this.untrackOrder(o.id);
  }

  /** Expires pending orders whose time has come (every second, and callable with an injected clock). */
  async expireOrders(now: number): Promise<number> {
    let expired = 0;
    // Only the orders that are due are copied (the sweep runs every second over every order).
    const due: PendingOrder[] = [];
    for (const o of this.orders.values()) if (o.expiresAt !== null && o.expiresAt <= now) due.push(o);
    for (const o of due) {
      await this.state.serialize(o.accountId, async () => {
        if (!this.orders.has(o.id)) return;
        await this.finishOrder(o, 'expired', 'Expired');
        expired += 1;
      }).catch((err: unknown) => this.state.log.warn({ err, orderId: o.id }, 'order expiry failed'));
    }
    return expired;
  }

  /** Activates every pending order whose price a tradable tick reaches (on every tick). */
  activateReached(quote: BookQuote, key: string = quote.symbol): void {
    for (const orderId of this.orderIndex.fire(key, quote.bid, quote.ask)) this.activate(orderId, quote);
  }

  /** Indexes an account's pending orders again under the prices it trades at now (a move, a type's markups changed). */
  reindex(accountId?: number): void {
    const orders = accountId === undefined ? this.orders.values() : (this.byAccount.get(accountId)?.values() ?? []);
    for (const o of orders) if (!o.busy) this.orderIndex.set(o.id, this.state.priceKey(o.accountId, o.symbol), pendingCondition(o.type, o.stopTriggered), o.stopTriggered ? o.stopLimitPrice : o.price);
  }

  /**
   * A pending order reached by a tick: a stop-limit's stop turns it into a limit order (filled at
   * once if the same tick also satisfies the limit); otherwise it fills at the tick's price (Buy at
   * ask, Sell at bid) if margin allows, or is rejected with the reason.
   */
  private activate(orderId: number, tick: BookQuote): void {
    const { state } = this;
    const o = this.orders.get(orderId);
    if (!o || o.busy) return;
    if (o.type.endsWith('stop_limit') && !o.stopTriggered) {
      // The stop turns it into a limit order at once (in memory, synchronously), so the very next
      // tick — even in the same feed batch — is already checked against the limit.
      o.stopTriggered = true;
      o.updatedAt = state.ctx.now();
      this.trackOrder(o);
      const at = o.updatedAt;
      const persisted = state.serialize(o.accountId, async () => {
        await state.transaction((trx) => trx.updateTable('orders').set({ stop_triggered: 1, updated_at: at }).where('id', '=', o.id).where('status', '=', 'pending').execute());
      }).catch((err: unknown) => state.log.warn({ err, orderId }, 'could not record a stop-limit order reaching its stop'));
      state.background(persisted);
      return;
    }
    o.busy = true;
    const work = state.serialize(o.accountId, async () => {
      if (!this.orders.has(o.id)) return;
      if (o.expiresAt !== null && o.expiresAt <= state.ctx.now()) return this.finishOrder(o, 'expired', 'Expired');
      // The order may have been changed while this fill waited its turn: the tick must still reach it.
      if (!reaches(pendingCondition(o.type, o.stopTriggered), o.stopTriggered ? o.stopLimitPrice : o.price, tick)) {
        this.trackOrder(o);
        return;
      }
      const instrument = state.instrument(o.symbol);
      if (instrument.tradingMode !== 'full') return this.finishOrder(o, 'rejected', instrumentModeMessage(instrument));
      let position: Inserted | null = null;
      try {
        await state.transaction(async (trx, emit) => {
          const claimed = await trx.updateTable('orders').set({ status: 'filled', reason: 'Filled', updated_at: state.ctx.now() }).where('id', '=', o.id).where('status', '=', 'pending').executeTakeFirst();
          if (Number(claimed.numUpdatedRows) !== 1) return;
          position = await this.positions.insertPosition(trx, emit, { accountId: o.accountId, userId: o.userId }, instrument, { side: pendingSide(o.type), volume: o.volume, stopLoss: o.stopLoss, takeProfit: o.takeProfit, comment: o.comment, trailing: o.trailing }, tick);
          await trx.updateTable('orders').set({ position_id: position.position.id }).where('id', '=', o.id).execute();
          emit({ type: 'order.updated', userId: o.userId, accountId: o.accountId, orderId: o.id, status: 'filled', reason: 'Filled', ticket: position.position.id, symbol: o.symbol, orderType: o.type, volume: o.volume });
        });
      } catch (err) {
        if (err instanceof Refusal) return this.finishOrder(o, 'rejected', err.message);
        throw err;
      }
      this.untrackOrder(o.id);
      if (position) this.positions.trackInserted(position);
      if (position) state.ctx.metrics.pendingFilled(o, (position as Inserted).position.id, tick.time);
    });
    const settled = work
      .catch((err: unknown) => {
        state.log.warn({ err, orderId }, 'pending order activation failed; it will be tried again on the next tick');
        if (this.orders.has(o.id)) this.trackOrder(o);
      })
      .finally(() => {
        o.busy = false;
      });
    state.background(settled);
  }
}
