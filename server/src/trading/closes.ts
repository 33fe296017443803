import { setImmediate as nextTurn } from 'node:timers/promises';
import type { AccountEvent } from '@tradeport/contracts';
import { sql } from 'kysely';
import { formatCents, roundToCents, type Cents } from '../domain/money';
import { closePrice, commissionUsd, profitUsd } from '@tradeport/trading-math';
import { dealCommission } from '../services/account-types';
import type { BookQuote } from '../market/types';
import { Refusal, refuse } from '../services/errors';
import { recordAudit } from '../services/audit';
import { postToLedger } from '../services/ledger';
import type { Tx } from '../storage/db';
import type { EngineState } from './engine-state';
import type { Rollovers } from './rollovers';
import type { TriggerKind } from './trigger-index';
import type { CloseOptions, CloseReason, OpenPosition, QueuedClose } from './types';
import { recordDealMarkup } from './deal-markups';

/** Triggered closes per transaction, at most. */
const CLOSE_BATCH = 500;

/**
 * Closing positions, exactly once: a close is a guarded `open → closed` update that posts its
 * profit and swap to the ledger in the same transaction (`writeClose`). Commands and stop-outs
 * close one position in their owner's turn (`closeNow`); SL/TP closes fired by ticks are queued and
 * group-committed (`closeTriggered` → `startFlush` → `closeBatch`), falling back to one close at a
 * time when a batch fails.
 */
export class Closes {
  private readonly closeQueue: QueuedClose[] = [];
  private flushing: Promise<void> | null = null;

  constructor(
    private readonly state: EngineState,
    private readonly rollovers: Rollovers,
  ) {}

  /**
   * Closes a position at the current server price (or at the tick that triggered it), exactly once.
   * `account` restricts the close to that trading account's position; `by` records who closed it.
   */
  close(positionId: number, reason: CloseReason, opts: CloseOptions = {}): Promise<{ profitCents: Cents; price: number }> {
    const p = this.state.open.get(positionId);
    if (!p || (opts.account !== undefined && p.accountId !== opts.account) || (opts.holder !== undefined && p.userId !== opts.holder)) return this.notOpen(positionId, opts);
    return this.state.serialize(p.accountId, () => this.closeNow(p, reason, opts));
  }

  /** The close itself; the caller holds the account's turn in the command queue. */
  async closeNow(p: OpenPosition, reason: CloseReason, opts: CloseOptions): Promise<{ profitCents: Cents; price: number }> {
    const { ctx } = this.state;
    const positionId = p.id;
    if (!this.state.open.has(positionId)) throw refuse.conflict(`Position #${positionId} has already been closed.`);
    const instrument = this.state.instrument(p.symbol);
    const tick = opts.tick ?? (reason === 'manual' || reason === 'admin' ? this.state.tradableQuote(instrument, p.accountId) : this.state.quoteFor(p.accountId, p.symbol));
    if (!tick) throw refuse.invalid(`No price for ${p.symbol}.`);
    const price = closePrice(p.side, tick);
    const profit = profitUsd(p.side, p.volume, p.openPrice, tick, instrument, this.state.prices);
    if (profit === null) throw refuse.invalid(`No conversion rate to USD for ${p.symbol} right now; please try again shortly.`);
    const profitCents = roundToCents(profit);
    const now = ctx.now();
    // A rollover that passed since the last run is charged first, so closing just after 22:00
    // does not skip that night's swap.
    if (this.rollovers.isDue(now)) await this.rollovers.applyRollovers(now);
    p.closing = true;
    let closedElsewhere = false;
    try {
      await this.state.transaction(async (trx, emit) => {
        const written = await this.writeClose(trx, emit, p, { reason, price, tick, profitCents, now, by: opts.by ?? null });
        if (!written) {
          closedElsewhere = true;
          throw refuse.conflict(`Position #${positionId} has already been closed.`);
        }
        if (opts.audit) {
          await recordAudit(trx, { actorId: opts.audit.actorId, action: 'position.close', targetType: 'position', targetId: positionId, before: { status: 'open', userId: p.userId, accountId: p.accountId }, after: { status: 'closed', price, profit: formatCents(profitCents) }, ip: opts.audit.ip, at: now });
        }
      });
    } catch (err) {
      p.closing = false;
      // The database says it is closed already: memory follows.
      if (closedElsewhere) this.state.untrack(p);
      // A trigger that failed to close must fire again on the next tick.
      else if (this.state.open.has(positionId)) this.state.reindex(p);
      throw err;
    }
    this.state.untrack(p);
    ctx.metrics.positionClosed(p, reason, opts.tick?.time ?? now);
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
    await this.rollovers.chargeDeferred(trx, p);
    // The close is a deal too: its commission is the account's type's now, at the close price.
    const commissionCents = await closeCommissionCents(this.state, trx, p, p.volume, c.price);
    const updated = await trx
      .updateTable('positions')
      // The stop as the engine held it: a trailing stop's last move may not be written yet.
      .set({ stop_loss: p.stopLoss, status: 'closed', close_price: c.price, closed_at: c.now, close_reason: c.reason, close_tick_bid: c.tick.bid, close_tick_ask: c.tick.ask, close_tick_time: c.tick.time, profit_cents: c.profitCents, closed_by: c.by, commission_cents: sql<number>`commission_cents - cast(${commissionCents} as bigint)` })
      .where('id', '=', p.id)
      .where('status', '=', 'open')
      .returning('swap_cents')
      .executeTakeFirst();
    if (!updated) return false;
    await recordDealMarkup(this.state, trx, c.tick, { positionId: p.id, accountId: p.accountId, symbol: p.symbol, side: p.side, volume: p.volume, deal: 'close', at: c.now });
    let balance: { balanceCents: Cents; creditCents: Cents } | null = null;
    if (c.profitCents !== 0) balance = await postToLedger(trx, { accountId: p.accountId, userId: p.userId, kind: 'trade', amountCents: c.profitCents, refType: 'position', refId: p.id, memo: `Position #${p.id} ${p.side} ${p.volume} ${p.symbol} closed (${c.reason})`, at: c.now });
    const swapCents = Number(updated.swap_cents);
    if (swapCents !== 0) balance = await postToLedger(trx, { accountId: p.accountId, userId: p.userId, kind: 'swap', amountCents: swapCents, refType: 'position', refId: p.id, memo: `Swap of position #${p.id}`, at: c.now });
    if (commissionCents !== 0) balance = await postToLedger(trx, { accountId: p.accountId, userId: p.userId, kind: 'commission', amountCents: -commissionCents, refType: 'position.close', refId: p.id, memo: `Commission of position #${p.id} (close)`, at: c.now });
    emit({ type: 'position.closed', userId: p.userId, accountId: p.accountId, ticket: p.id, symbol: p.symbol, reason: c.reason, price: c.price, profit: formatCents(c.profitCents) });
    if (balance) emit({ type: 'balance.changed', userId: p.userId, accountId: p.accountId, balance: formatCents(balance.balanceCents), credit: formatCents(balance.creditCents), reason: 'position-closed' });
    return true;
  }

  /** Why a ticket cannot be closed: already closed (409), or no such position of this account (404). */
  private async notOpen(positionId: number, opts: CloseOptions): Promise<never> {
    const row = await this.state.ctx.db.selectFrom('positions').select(['account_id', 'user_id', 'status']).where('id', '=', positionId).executeTakeFirst();
    if (row && row.status === 'closed' && (opts.account === undefined || row.account_id === opts.account) && (opts.holder === undefined || row.user_id === opts.holder)) throw refuse.conflict(`Position #${positionId} has already been closed.`);
    throw refuse.notFound(`Position #${positionId} is not open.`);
  }

  /** Queues the close of every position whose SL or TP a tradable tick reaches (on every tick). */
  closeTriggered(quote: BookQuote, key: string = quote.symbol): void {
    for (const { positionId, kind } of this.state.triggers.fire(key, quote.bid, quote.ask)) {
      const p = this.state.open.get(positionId);
      if (!p || p.closing || p.triggered) continue;
      this.closeInBackground(positionId, kind, quote);
    }
    // Stop losses of trailing cohorts (trail-book.ts).
    for (const positionId of this.state.trails.fireStops(key, quote.bid, quote.ask)) {
      const p = this.state.open.get(positionId);
      if (!p || p.closing || p.triggered) continue;
      this.closeInBackground(positionId, 'sl', quote);
    }
  }

  /**
   * Queues the close of a position whose SL or TP a tick reached. Closes queued within one turn of
   * the event loop (one feed batch, or a burst of ticks) are written in one transaction, so a
   * market move that fires thousands of stops pays for one commit per batch, not per position.
   */
  private closeInBackground(positionId: number, reason: TriggerKind, tick: BookQuote): void {
    const p = this.state.open.get(positionId);
    if (!p || p.closing || p.triggered) return;
    const queued = { p, reason, tick };
    p.triggered = queued;
    this.closeQueue.push(queued);
    this.startFlush();
  }

  /** Starts writing the close queue in batches, unless a run is under way (it takes what comes). */
  private startFlush(): void {
    if (this.flushing || this.closeQueue.length === 0) return;
    const run = (async () => {
      // Let the rest of this tick (and the feed batch it came in) queue its closes first.
      await nextTurn();
      while (this.closeQueue.length > 0) {
        const batch = this.closeQueue.splice(0, CLOSE_BATCH);
        await this.closeBatch(batch).catch((err: unknown) => {
          this.state.log.warn({ err, positions: batch.length }, 'triggered closes failed; they will fire again on the next tick');
          for (const e of batch) if (e.p.triggered === e) this.releaseTrigger(e.p);
        });
      }
    })().finally(() => {
      this.flushing = null;
      // Closes queued after the loop's last look start the next run.
      this.startFlush();
    });
    this.flushing = run;
    this.state.background(run);
  }

  /**
   * Closes a batch of triggered positions in one transaction, each at its trigger tick, holding
   * the command turn of every owner meanwhile (so a close never interleaves with an owner's own
   * order or margin check). If the transaction fails, each position is closed on its own instead.
   */
  private async closeBatch(batch: QueuedClose[]): Promise<void> {
    const { state } = this;
    const owners = [...new Set(batch.map((e) => e.p.accountId))];
    let release = () => {};
    const done = new Promise<void>((resolve) => (release = resolve));
    await Promise.all(owners.map((u) => new Promise<void>((turn) => void state.serialize(u, () => (turn(), done)))));
    const closed: OpenPosition[] = [];
    /** The closes this batch wrote (the others were closed in the database already). */
    const written: QueuedClose[] = [];
    const ready: { e: QueuedClose; price: number; profitCents: Cents }[] = [];
    let failed = false;
    try {
      // Still queued (a stop-out or a manual close may have closed it while this batch waited).
      const live = batch.filter((e) => e.p.triggered === e && state.open.has(e.p.id));
      if (live.length === 0) return;
      // The time of the close is taken once the turns are held; a rollover due by then comes first,
      // and if it cannot be applied the triggers fire again on the next tick rather than skip a swap.
      const now = state.ctx.now();
      if (this.rollovers.isDue(now)) {
        try {
          await this.rollovers.applyRollovers(now);
        } catch (err) {
          state.log.warn({ err }, 'swap rollover before triggered closes failed; the closes wait for the next tick');
          for (const e of live) this.releaseTrigger(e.p);
          return;
        }
      }
      for (const e of live) {
        const instrument = state.instrumentOrNone(e.p.symbol);
        const profit = instrument ? profitUsd(e.p.side, e.p.volume, e.p.openPrice, e.tick, instrument, state.prices) : null;
        // No conversion rate at this moment: the trigger fires again on the next tick (the others close now).
        if (profit === null) this.releaseTrigger(e.p);
        else ready.push({ e, price: closePrice(e.p.side, e.tick), profitCents: roundToCents(profit) });
      }
      if (ready.length === 0) return;
      // Written account by account in id order: each close locks its account's row, and a transfer
      // locks its two accounts in id order too, so on PostgreSQL the two never wait on each other
      // in a circle.
      ready.sort((a, b) => a.e.p.accountId - b.e.p.accountId || a.e.p.id - b.e.p.id);
      try {
        await state.writingManyPositions(() =>
          state.transaction(async (trx, emit) => {
            for (const { e, price, profitCents } of ready) {
              // Written now, or (false) not open in the database: closed already. Memory follows below either way.
              if (await this.writeClose(trx, emit, e.p, { reason: e.reason, price, tick: e.tick, profitCents, now, by: null })) written.push(e);
              closed.push(e.p);
            }
          }),
        );
      } catch (err) {
        failed = true;
        closed.length = 0;
        written.length = 0;
        state.log.warn({ err, positions: ready.length }, 'a batch of triggered closes failed; closing them one by one');
      }
    } finally {
      release();
    }
    for (const p of closed) {
      p.triggered = null;
      state.untrack(p);
    }
    for (const e of written) state.ctx.metrics.positionClosed(e.p, e.reason, e.tick.time);
    if (!failed) return;
    for (const { e } of ready) if (e.p.triggered === e && state.open.has(e.p.id)) this.closeTriggeredInBackground(e.p);
  }

  /** Closes one triggered position on its own (its owner's turn taken), at its trigger tick. */
  private closeTriggeredInBackground(p: OpenPosition): void {
    const work = this.state.serialize(p.accountId, () => this.closeTriggeredNow(p));
    this.state.background(work);
  }

  /**
   * The close of a queued SL/TP, in its owner's turn: written at the tick that reached it; if that
   * fails, its levels go back in the index, so the next tick that reaches them fires again.
   */
  async closeTriggeredNow(p: OpenPosition): Promise<void> {
    const queued = p.triggered;
    if (!queued || !this.state.open.has(p.id)) return;
    try {
      await this.closeNow(p, queued.reason, { tick: queued.tick });
      p.triggered = null;
    } catch (err) {
      if (!(err instanceof Refusal)) this.state.log.warn({ err, positionId: p.id, reason: queued.reason }, 'automatic close failed; it will be retried on the next tick');
      if (p.triggered === queued) this.releaseTrigger(p);
    }
  }

  /** Puts a queued position's levels back in the index, so the next tick that reaches them fires. */
  private releaseTrigger(p: OpenPosition): void {
    p.triggered = null;
    if (this.state.open.has(p.id)) this.state.reindex(p);
  }
}

/**
 * The commission of closing `volume` lots of `p` at `price` (cents, positive: what the account
 * pays), by its account's type as it is now; refused, like the profit, when no rate converts it.
 */
export async function closeCommissionCents(state: EngineState, trx: Tx, p: OpenPosition, volume: number, price: number): Promise<Cents> {
  const schedule = await dealCommission(trx, p.accountId, p.symbol);
  if (!schedule) return 0;
  const commission = commissionUsd(schedule, volume, price, state.instrument(p.symbol), state.prices);
  if (commission === null) throw refuse.invalid(`No conversion rate to USD for ${p.symbol} right now; please try again shortly.`);
  return roundToCents(commission);
}
