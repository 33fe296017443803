import { confirmInstrument } from '../market/catalogue-edits';
import type { AccountEvent } from '@tradeport/contracts';
import { roundPrice, type Instrument } from '../domain/instruments';
import { commissionUsd, Dec, figuresAfterOrder, marginUsd, notEnoughMarginMessage, openPrice, profitUsd, stopsProblem, trailingProblem, volumeProblem, type Side, type Trailing } from '@tradeport/trading-math';
import type { BookQuote } from '../market/types';
import type { Actor } from '../services/context';
import { refuse } from '../services/errors';
import { runIdempotent } from '../services/idempotency';
import { lockAccount, postToLedger } from '../services/ledger';
import { dealCommissionOf, isOffered, notOfferedMessage, offeredColumn } from '../services/account-types';
import { formatCents, roundToCents } from '../domain/money';
import type { Tx } from '../storage/db';
import type { AccountFigures } from './account-figures';
import type { EngineState } from './engine-state';
import type { TrailingStops } from './trailing-stops';
import type { AccountRef, Inserted, OpenedOrder } from './types';
import { recordDealMarkup } from './deal-markups';

/**
 * SL/TP levels at the instrument's digits, as order prices are (0 stays "none"). A level that
 * rounds to nothing was meant as a price and is refused rather than silently removed.
 */
export function roundLevels<T extends { stopLoss: number; takeProfit: number }>(o: T, instrument: Instrument): T {
  const stopLoss = o.stopLoss === 0 ? 0 : roundPrice(o.stopLoss, instrument.digits);
  const takeProfit = o.takeProfit === 0 ? 0 : roundPrice(o.takeProfit, instrument.digits);
  if (o.stopLoss !== 0 && stopLoss === 0) throw refuse.invalid(`Stop loss must be at least one point (${instrument.point}) for ${instrument.symbol}.`);
  if (o.takeProfit !== 0 && takeProfit === 0) throw refuse.invalid(`Take profit must be at least one point (${instrument.point}) for ${instrument.symbol}.`);
  return { ...o, stopLoss, takeProfit };
}

/** Why an account that is not active may not open positions or place orders. */
export const accountStateMessage = (state: 'active' | 'close-only' | 'disabled') =>
  state === 'disabled' ? 'This trading account is disabled: it cannot trade. Please contact support.' : 'This trading account is close-only: you may close positions and cancel orders, nothing else.';

/**
 * What an account may do: the stricter of its own state and its type's trading mode
 * (docs/design.md#account-types); 'active' when both allow everything.
 */
export const tradingStateOf = (state: 'active' | 'close-only' | 'disabled', mode: 'full' | 'close-only' | 'disabled'): 'active' | 'close-only' | 'disabled' =>
  state === 'disabled' || mode === 'disabled' ? 'disabled' : state === 'close-only' || mode === 'close-only' ? 'close-only' : 'active';

/** Why an instrument not in full trading mode takes no new position or order (docs/design.md#instruments). */
export const instrumentModeMessage = (i: Instrument) =>
  i.tradingMode === 'disabled' ? `${i.symbol} is not offered for trading.` : `${i.symbol} is close-only: positions in it can be closed and its orders cancelled, but no new one is accepted.`;

/**
 * Opening positions (market orders, and the fills of pending orders through `insertPosition`) and
 * changing their SL/TP. Closing them is closes.ts.
 */
export class Positions {
  constructor(
    private readonly state: EngineState,
    private readonly accounts: AccountFigures,
    private readonly trailing: TrailingStops,
  ) {}

  /** Tracks every open position in the database (at start). */
  async load(): Promise<void> {
    const rows = await this.state.ctx.db.selectFrom('positions as p').innerJoin('trading_accounts as a', 'a.id', 'p.account_id').selectAll('p').select(['a.number as account_number', 'a.account_type_id']).where('p.status', '=', 'open').orderBy('p.id').execute();
    for (const r of rows) {
      this.state.accountTypes.set(r.account_id, r.account_type_id);
      this.state.track({ id: r.id, accountId: r.account_id, accountNumber: Number(r.account_number), accountKind: r.account_kind, userId: r.user_id, symbol: r.symbol, side: r.side, volume: r.volume, openPrice: r.open_price, stopLoss: r.stop_loss, takeProfit: r.take_profit, comment: r.comment, openedAt: r.opened_at, swapCents: Number(r.swap_cents), commissionCents: Number(r.commission_cents), trailing: trailingOf(r), closing: false, triggered: null });
    }
  }

  /**
   * Opens a market position: Buy at the ask, Sell at the bid of the server's quote. Refused when the
   * market is closed, the quote is stale, the volume or SL/TP is invalid, or free margin would be
   * negative. With an Idempotency-Key a retry returns the first answer and opens nothing.
   */
  openMarket(actor: Actor, requested: { symbol: string; side: Side; volume: number; stopLoss: number; takeProfit: number; comment: string; trailing?: Trailing | null }, idempotencyKey?: string): Promise<OpenedOrder> {
    let instrument: Instrument;
    let order: typeof requested;
    try {
      instrument = this.state.instrument(requested.symbol);
      order = roundLevels(requested, instrument);
    } catch (err) {
      return Promise.reject(err);
    }
    if (instrument.tradingMode !== 'full') return Promise.reject(refuse.invalid(instrumentModeMessage(instrument)));
    const volumeIssue = volumeProblem(order.volume, instrument);
    if (volumeIssue) return Promise.reject(refuse.invalid(volumeIssue));
    const trailingIssue = order.trailing ? trailingProblem(order.trailing) : null;
    if (trailingIssue) return Promise.reject(refuse.invalid(trailingIssue));
    return this.state.inAccountTurn(actor, async (account) => {
      let created: Inserted | null = null;
      // The key is the person's; the account is part of what it names, so a key reused on another account is refused, not replayed.
      const answer = await runIdempotent(this.state.ctx, actor.userId, idempotencyKey, 'addTrades', { ...order, accountId: account.accountId }, async (trx, emit) => {
        await this.state.fence(trx);
        await this.state.learnType(trx, account.accountId);
        const quote = this.state.tradableQuote(instrument, account.accountId);
        const stops = stopsProblem(order.side, order.stopLoss, order.takeProfit, quote);
        if (stops) throw refuse.invalid(stops);
        created = await this.insertPosition(trx, emit, account, instrument, order, quote);
        return { ticket: created.position.id, symbol: instrument.symbol, side: order.side, volume: order.volume, price: created.position.openPrice };
      });
      // Only a fresh order is tracked; a replayed answer refers to a position already known.
      if (created) {
        this.trackInserted(created);
      }
      return answer;
    });
  }

  /**
   * Inserts a position filled at `quote` (Buy at ask, Sell at bid) after the margin check, in the
   * caller's transaction (which takes the account lock). Refused unless the account is active (a
   * close-only or disabled account opens nothing). Not yet tracked: the caller does that after the
   * commit.
   */
  async insertPosition(trx: Tx, emit: (e: AccountEvent) => void, owner: AccountRef, instrument: Instrument, order: { side: Side; volume: number; stopLoss: number; takeProfit: number; comment: string; trailing?: Trailing | null }, quote: BookQuote): Promise<Inserted> {
    const { ctx } = this.state;
    const { accountId, userId } = owner;
    const price = openPrice(order.side, quote);
    const now = ctx.now();
    await lockAccount(ctx, trx, accountId);
    await confirmInstrument(ctx.engine, trx, instrument);
    const user = await trx
      .selectFrom('trading_accounts as a')
      .innerJoin('account_types as t', 't.id', 'a.account_type_id')
      .leftJoin('account_type_symbols as s', (j) => j.onRef('s.account_type_id', '=', 't.id').on('s.symbol', '=', instrument.symbol))
      .select(['a.kind', 'a.number', 'a.balance_cents', 'a.credit_cents', 'a.leverage', 'a.state', 'a.account_type_id', 't.name as type_name', 't.trading_mode', 't.margin_call_level', 't.commission_basis', 't.commission_cents', 's.commission_basis as symbol_basis', 's.commission_cents as symbol_cents'])
      .select(offeredColumn(instrument.symbol))
      .where('a.id', '=', accountId)
      .where('a.user_id', '=', userId)
      .executeTakeFirst();
    if (!user) throw refuse.notFound('The trading account was not found.');
    const allowed = tradingStateOf(user.state, user.trading_mode);
    if (allowed !== 'active') throw refuse.invalid(accountStateMessage(allowed));
    if (!isOffered(user.offered)) throw refuse.invalid(notOfferedMessage(instrument.symbol, user.type_name));
    // Its type as read under the lock: the account's positions are margined under its limits.
    this.state.accountTypes.set(accountId, user.account_type_id);
    const margin = marginUsd(order.volume, price, this.state.leverageFor(accountId, user.leverage, instrument.symbol), instrument, this.state.prices);
    const floating = profitUsd(order.side, order.volume, price, quote, instrument, this.state.prices);
    const schedule = dealCommissionOf(user);
    const commission = schedule ? commissionUsd(schedule, order.volume, price, instrument, this.state.prices) : new Dec(0);
    if (margin === null || floating === null || commission === null) throw refuse.invalid(`No conversion rate to USD for ${instrument.symbol} right now; please try again shortly.`);
    const commissionCents = roundToCents(commission);
    const held = this.accounts.figures(accountId, user.balance_cents, user.credit_cents, user.leverage);
    // Fail closed: with a position that cannot be valued, free margin is unknown.
    if (held.unvalued > 0) throw refuse.invalid('A conversion rate needed to value your open positions is missing right now; new orders are paused until it is available. Please try again shortly.');
    // The new position counts with the spread it pays at once (it opens at ask, values at bid). The
    // order ticket previews this with the same function and shows it in the same format.
    const after = figuresAfterOrder({ balance: new Dec(user.balance_cents).div(100), credit: new Dec(user.credit_cents).div(100), floating: held.floating, margin: held.margin }, { floating, margin, commission: new Dec(commissionCents).div(100) });
    if (after.freeMargin.isNegative()) throw refuse.invalid(notEnoughMarginMessage(margin, after.freeMargin));
    const row = await trx
      .insertInto('positions')
      .values({ user_id: userId, account_id: accountId, account_kind: user.kind, symbol: instrument.symbol, side: order.side, volume: order.volume, open_price: price, stop_loss: order.stopLoss, take_profit: order.takeProfit, comment: order.comment, opened_at: now, open_tick_bid: quote.bid, open_tick_ask: quote.ask, open_tick_time: quote.time, status: 'open', close_price: null, closed_at: null, close_reason: null, close_tick_bid: null, close_tick_ask: null, close_tick_time: null, profit_cents: null, closed_by: null, commission_cents: -commissionCents, ...trailColumns(order.trailing ?? null) })
      .returning('id')
      .executeTakeFirstOrThrow();
    await recordDealMarkup(this.state, trx, quote, { positionId: row.id, accountId, symbol: instrument.symbol, side: order.side, volume: order.volume, deal: 'open', at: now });
    let balanceCents = Number(user.balance_cents);
    if (commissionCents !== 0) {
      const posted = await postToLedger(trx, { accountId, userId, kind: 'commission', amountCents: -commissionCents, refType: 'position.open', refId: row.id, memo: `Commission of position #${row.id} (open)`, at: now });
      if (!posted) throw new Error('commission posting refused');
      balanceCents = posted.balanceCents;
    }
    emit({ type: 'position.opened', userId, accountId, ticket: row.id, symbol: instrument.symbol, side: order.side, volume: order.volume, price });
    if (commissionCents !== 0) emit({ type: 'balance.changed', userId, accountId, balance: formatCents(balanceCents), credit: formatCents(Number(user.credit_cents)), reason: 'commission', amount: formatCents(-commissionCents), memo: `Commission of position #${row.id}` });
    return {
      position: { id: row.id, accountId, accountNumber: Number(user.number), accountKind: user.kind, userId, symbol: instrument.symbol, side: order.side, volume: order.volume, openPrice: price, stopLoss: order.stopLoss, takeProfit: order.takeProfit, comment: order.comment, openedAt: now, swapCents: 0, commissionCents: -commissionCents, trailing: order.trailing ?? null, closing: false, triggered: null },
      account: { balanceCents, creditCents: user.credit_cents, leverage: user.leverage, marginCallLevel: user.margin_call_level === null ? ctx.config.trading.marginCallLevel : Number(user.margin_call_level) },
    };
  }

  /**
   * Tracks a position committed by `insertPosition`. The balance read under the account lock seeds
   * the sweep's cache for an account that had none (a cached one is kept up to date by events).
   */
  trackInserted({ position, account }: Inserted): void {
    this.state.track(position);
    const h = this.state.holdings.get(position.accountId);
    if (h && !h.account) h.account = account;
    // A trailing stop active at once takes its first step at the price it opened at.
    const quote = position.trailing ? this.state.quoteFor(position.accountId, position.symbol) : undefined;
    if (quote) this.trailing.trail(position, quote);
  }

  /**
   * Changes an own position's stop loss, take profit and trailing stop (all three replaced; 0 and
   * null remove them). Its trailing stop's moves are settled first, so none lands after the change;
   * a trailing stop active at once takes its first step at the current price.
   */
  modify(actor: Actor, positionId: number, levels: { stopLoss: number; takeProfit: number; trailing?: Trailing | null }): Promise<void> {
    return this.state.inAccountTurn(actor, async (account) => {
      const p = this.state.open.get(positionId);
      if (!p || p.accountId !== account.accountId) throw refuse.notFound(`Position #${positionId} is not open.`);
      const instrument = this.state.instrument(p.symbol);
      const rounded = roundLevels(levels, instrument);
      const trailing = levels.trailing ?? null;
      const trailingIssue = trailing ? trailingProblem(trailing) : null;
      if (trailingIssue) throw refuse.invalid(trailingIssue);
      const quote = this.state.tradableQuote(instrument, p.accountId);
      const problem = stopsProblem(p.side, rounded.stopLoss, rounded.takeProfit, quote);
      if (problem) throw refuse.invalid(problem);
      p.modifying = true;
      let written = false;
      try {
        await this.trailing.settle(p);
        // A position that keeps trailing keeps the stop it has trailed to, if that protects more
        // than the one sent: a client a move or two behind must not move it back (to loosen it,
        // turn the trailing stop off in the same change).
        if (trailing && p.trailing && p.stopLoss !== 0 && (rounded.stopLoss === 0 || (p.side === 'buy' ? p.stopLoss > rounded.stopLoss : p.stopLoss < rounded.stopLoss))) rounded.stopLoss = p.stopLoss;
        written = await this.state.transaction(async (trx, emit) => {
          const result = await trx.updateTable('positions').set({ stop_loss: rounded.stopLoss, take_profit: rounded.takeProfit, ...trailColumns(trailing) }).where('id', '=', positionId).where('status', '=', 'open').executeTakeFirst();
          if (Number(result.numUpdatedRows) !== 1) return false;
          emit({ type: 'position.modified', userId: p.userId, accountId: p.accountId, ticket: p.id, symbol: p.symbol, stopLoss: rounded.stopLoss, takeProfit: rounded.takeProfit, by: 'owner' });
          return true;
        });
        if (!written) throw refuse.notFound(`Position #${positionId} is not open.`);
        p.stopLoss = rounded.stopLoss;
        p.takeProfit = rounded.takeProfit;
        p.trailing = trailing;
        this.state.triggers.set(p.id, this.state.priceKey(p.accountId, p.symbol), p.side, p.stopLoss, p.takeProfit);
      } finally {
        p.modifying = false;
        this.state.followTrail(p);
        // Not written: the stop memory holds (perhaps trailed meanwhile) still has to reach the database.
        if (!written) this.trailing.requeue(p);
      }
      this.trailing.trail(p, this.state.quoteFor(p.accountId, p.symbol) ?? quote);
    });
  }
}

/** A position row's trailing stop (a distance of 0: none). */
export function trailingOf(r: { trail_distance: number; trail_activation: number; trail_step: number }): Trailing | null {
  return r.trail_distance > 0 ? { distance: r.trail_distance, activation: r.trail_activation, step: r.trail_step } : null;
}

export const trailColumns = (t: Trailing | null) => ({ trail_distance: t?.distance ?? 0, trail_activation: t?.activation ?? 0, trail_step: t?.step ?? 0 });
