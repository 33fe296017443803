import { setImmediate as nextTurn } from 'node:timers/promises';
import { MAX_ACTIVE_ALERTS } from '@tradeport/contracts';
import { alertCondition, alertProblem, type AlertDirection, type AlertPrice } from '@tradeport/trading-math';
import { roundPrice } from '../domain/instruments';
import type { BookQuote } from '../market/types';
import type { Actor } from '../services/context';
import { refuse } from '../services/errors';
import type { EngineState } from './engine-state';
import { Heap, OrderIndex } from './trigger-index';

/** What a trader sets on an alert (the symbol is fixed once it is added). */
export interface AlertInput {
  price: AlertPrice;
  direction: AlertDirection;
  level: number;
  note: string;
  expiresAt: number | null;
  byMail: boolean;
}

/** A waiting alert as the engine holds it. */
interface Alert extends AlertInput {
  id: number;
  userId: number;
  symbol: string;
}

interface Firing {
  alert: Alert;
  reached: number;
}

/** Alerts written per transaction, at most. */
const FIRE_BATCH = 1000;

/**
 * Price alerts on the server (docs/design.md#price-alerts). The waiting ones are held in memory
 * with their levels in a per-symbol `OrderIndex` (the pending orders' heaps: a tick costs in
 * proportion to the alerts it fires) and their expiry times in a heap. A tick that reaches one
 * queues it; the queue is written in batches, each alert by a guarded `active → fired` update (so
 * it fires once, and not at all if its owner changed or deleted it meanwhile), then announced to
 * every terminal of its owner (`alert.fired`) and, if they chose so, mailed. Loaded at start, so
 * alerts survive a restart and a change of engine leader.
 */
export class PriceAlerts {
  private readonly alerts = new Map<number, Alert>();
  private readonly byUser = new Map<number, Set<number>>();
  private readonly index = new OrderIndex();
  /** Expiry times (as `level`); an entry whose alert is gone or has another expiry now is stale, and compacted away. */
  private readonly expiries = new Heap(
    (a, b) => a.level < b.level,
    (e) => this.alerts.get(e.positionId)?.expiresAt === e.level,
  );
  private readonly queue: Firing[] = [];
  private flushing: Promise<void> | null = null;
  /** Each trader's alert commands run one at a time (so the cap holds). */
  private readonly turns = new Map<number, Promise<unknown>>();

  constructor(private readonly state: EngineState) {}

  async load(): Promise<void> {
    const rows = await this.state.ctx.db.selectFrom('price_alerts').selectAll().where('status', '=', 'active').orderBy('id').execute();
    for (const r of rows) this.track({ id: r.id, userId: r.user_id, symbol: r.symbol, price: r.price_side, direction: r.direction, level: r.level, note: r.note, expiresAt: r.expires_at === null ? null : Number(r.expires_at), byMail: r.by_mail === 1 });
  }

  get size(): number {
    return this.alerts.size;
  }

  private track(a: Alert): void {
    const symbol = this.state.instrumentOrNone(a.symbol)?.symbol ?? a.symbol;
    a.symbol = symbol;
    this.alerts.set(a.id, a);
    let mine = this.byUser.get(a.userId);
    if (!mine) this.byUser.set(a.userId, (mine = new Set()));
    mine.add(a.id);
    this.index.set(a.id, symbol, alertCondition(a.price, a.direction), a.level);
    if (a.expiresAt !== null) this.expiries.push({ level: a.expiresAt, positionId: a.id, version: 0 });
  }

  private untrack(a: Alert): void {
    this.alerts.delete(a.id);
    this.index.remove(a.id);
    const mine = this.byUser.get(a.userId);
    mine?.delete(a.id);
    if (mine?.size === 0) this.byUser.delete(a.userId);
  }

  /** Queues the alerts this tradable tick reaches (on every tick). */
  onTick(quote: BookQuote): void {
    for (const id of this.index.fire(quote.symbol, quote.bid, quote.ask)) {
      const alert = this.alerts.get(id);
      if (alert) this.queue.push({ alert, reached: alert.price === 'bid' ? quote.bid : quote.ask });
    }
    // Also what a failed write left in the queue is tried again.
    this.startFlush();
  }

  private startFlush(): void {
    if (this.flushing || this.queue.length === 0) return;
    let failed = false;
    const run = (async () => {
      // Let the rest of this feed batch queue its alerts first: one commit for all.
      await nextTurn();
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, FIRE_BATCH);
        try {
          await this.fire(batch);
        } catch (err) {
          this.state.log.warn({ err, alerts: batch.length }, 'price alerts could not be written; they fire again at the next tick that reaches them');
          for (const f of batch) if (this.alerts.get(f.alert.id) === f.alert) this.index.set(f.alert.id, f.alert.symbol, alertCondition(f.alert.price, f.alert.direction), f.alert.level);
          failed = true;
          return;
        }
      }
    })().finally(() => {
      this.flushing = null;
      if (!failed) this.startFlush();
    });
    this.flushing = run;
    this.state.background(run);
  }

  /** One batch: each alert fired by a guarded update (as it was when the tick reached it), announced and mailed after the commit. */
  private async fire(batch: Firing[]): Promise<void> {
    const now = this.state.ctx.now();
    const done: Firing[] = [];
    await this.state.transaction(async (trx, emit) => {
      for (const f of batch) {
        const a = f.alert;
        const r = await trx
          .updateTable('price_alerts')
          .set({ status: 'fired', ended_at: now, fired_price: f.reached, updated_at: now })
          .where('id', '=', a.id)
          .where('status', '=', 'active')
          .where('level', '=', a.level)
          .where('direction', '=', a.direction)
          .where('price_side', '=', a.price)
          .executeTakeFirst();
        if (Number(r.numUpdatedRows) !== 1) continue;
        emit({ type: 'alert.fired', userId: a.userId, alertId: a.id, symbol: a.symbol, price: a.price, direction: a.direction, level: a.level, reached: f.reached, note: a.note });
        done.push(f);
      }
    });
    // Fired: what memory holds of it goes (a change of its note, expiry or mail choice meanwhile
    // replaced the record but not the level it fired at). One not fired here was changed or deleted
    // meanwhile: the change indexed it again, a delete untracked it.
    for (const f of done) {
      const held = this.alerts.get(f.alert.id);
      if (held) this.untrack(held);
    }
    const mailed = done.filter((f) => f.alert.byMail);
    if (mailed.length > 0) await this.mail(mailed);
  }

  private async mail(fired: Firing[]): Promise<void> {
    const { ctx } = this.state;
    const users = await ctx.db.selectFrom('users').select(['id', 'email', 'first_name']).where('id', 'in', [...new Set(fired.map((f) => f.alert.userId))]).execute();
    const byId = new Map(users.map((u) => [u.id, u]));
    for (const { alert: a, reached } of fired) {
      const user = byId.get(a.userId);
      if (!user) continue;
      const digits = this.state.instrumentOrNone(a.symbol)?.digits ?? 5;
      const what = `${a.symbol} ${a.price} ${a.direction} ${a.level.toFixed(digits)}`;
      ctx.mailer.send({
        to: user.email,
        subject: `Price alert: ${what}`,
        text: `Hello ${user.first_name},\n\nYour price alert ${what} fired: the ${a.price} reached ${reached.toFixed(digits)}.${a.note ? `\nYour note: ${a.note}` : ''}\n\nYou chose to be told by mail; you can change this on the alert in the trading terminal.\n`,
      });
    }
  }

  /** Expires the alerts whose time has come (every second, and callable with an injected clock). */
  async expire(now: number): Promise<number> {
    const due: Alert[] = [];
    for (let top = this.expiries.peek(); top && top.level <= now; top = this.expiries.peek()) {
      this.expiries.pop();
      const a = this.alerts.get(top.positionId);
      // A stale entry: the alert fired, was deleted, or its expiry changed since.
      if (a && a.expiresAt === top.level) due.push(a);
    }
    if (due.length === 0) return 0;
    let expired = 0;
    await this.state.transaction(async (trx, emit) => {
      for (const a of due) {
        const r = await trx.updateTable('price_alerts').set({ status: 'expired', ended_at: now, updated_at: now }).where('id', '=', a.id).where('status', '=', 'active').where('expires_at', '=', a.expiresAt).executeTakeFirst();
        if (Number(r.numUpdatedRows) !== 1) continue;
        emit({ type: 'alert.changed', userId: a.userId, alertId: a.id, change: 'expired' });
        expired += 1;
      }
    }).catch((err: unknown) => {
      this.state.log.warn({ err, alerts: due.length }, 'price alerts could not be expired; tried again in a second');
      for (const a of due) if (this.alerts.get(a.id) === a && a.expiresAt !== null) this.expiries.push({ level: a.expiresAt, positionId: a.id, version: 0 });
      due.length = 0;
    });
    for (const a of due) if (this.alerts.get(a.id) === a) this.untrack(a);
    return expired;
  }

  /** Runs `work` after the trader's previous alert command has finished. */
  private inTurn<T>(userId: number, work: () => Promise<T>): Promise<T> {
    const previous = this.turns.get(userId) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.catch(() => undefined);
    this.turns.set(userId, settled);
    void settled.then(() => {
      if (this.turns.get(userId) === settled) this.turns.delete(userId);
    });
    return next;
  }

  /** The input checked against the symbol and its price now; the level at the instrument's digits. */
  private checked(symbol: string, input: AlertInput): AlertInput {
    const instrument = this.state.instrument(symbol);
    // A disabled instrument is not offered: nothing to watch (docs/design.md#instruments).
    if (instrument.tradingMode === 'disabled') throw refuse.invalid(`${instrument.symbol} is not offered for trading.`);
    const level = roundPrice(input.level, instrument.digits);
    if (level <= 0) throw refuse.invalid(`The alert level must be at least one point (${instrument.point}) for ${instrument.symbol}.`);
    const quote = this.state.market.book.get(instrument.symbol);
    if (!quote) throw refuse.invalid(`No price for ${instrument.symbol} right now; an alert is set against the current price. Please try again in a moment.`);
    const problem = alertProblem(input.price, input.direction, level, quote);
    if (problem) throw refuse.invalid(problem);
    if (input.expiresAt !== null && input.expiresAt <= this.state.ctx.now()) throw refuse.invalid('The expiry must be in the future.');
    return { ...input, level };
  }

  add(actor: Actor, symbol: string, input: AlertInput): Promise<{ alertId: number; level: number }> {
    return this.inTurn(actor.userId, async () => {
      const instrument = this.state.instrument(symbol);
      const set = this.checked(instrument.symbol, input);
      if ((this.byUser.get(actor.userId)?.size ?? 0) >= MAX_ACTIVE_ALERTS) throw refuse.invalid(`You have ${MAX_ACTIVE_ALERTS} alerts waiting, the most there may be; delete one first.`);
      const now = this.state.ctx.now();
      const row = await this.state.transaction(async (trx, emit) => {
        const inserted = await trx
          .insertInto('price_alerts')
          .values({ user_id: actor.userId, symbol: instrument.symbol, price_side: set.price, direction: set.direction, level: set.level, note: set.note, expires_at: set.expiresAt, by_mail: set.byMail ? 1 : 0, status: 'active', created_at: now, updated_at: now, ended_at: null, fired_price: null })
          .returning('id')
          .executeTakeFirstOrThrow();
        emit({ type: 'alert.changed', userId: actor.userId, alertId: inserted.id, change: 'added' });
        return inserted;
      });
      this.track({ id: row.id, userId: actor.userId, symbol: instrument.symbol, ...set });
      return { alertId: row.id, level: set.level };
    });
  }

  modify(actor: Actor, alertId: number, input: AlertInput): Promise<void> {
    return this.inTurn(actor.userId, async () => {
      const a = this.alerts.get(alertId);
      if (!a || a.userId !== actor.userId) return this.notWaiting(actor, alertId);
      const set = this.checked(a.symbol, input);
      const now = this.state.ctx.now();
      const written = await this.state.transaction(async (trx, emit) => {
        const r = await trx.updateTable('price_alerts').set({ price_side: set.price, direction: set.direction, level: set.level, note: set.note, expires_at: set.expiresAt, by_mail: set.byMail ? 1 : 0, updated_at: now }).where('id', '=', alertId).where('user_id', '=', actor.userId).where('status', '=', 'active').executeTakeFirst();
        if (Number(r.numUpdatedRows) !== 1) return false;
        emit({ type: 'alert.changed', userId: actor.userId, alertId, change: 'modified' });
        return true;
      });
      if (!written) return this.notWaiting(actor, alertId);
      if (this.alerts.get(alertId) !== a) return;
      this.untrack(a);
      this.track({ ...a, ...set });
    });
  }

  delete(actor: Actor, alertId: number): Promise<void> {
    return this.inTurn(actor.userId, async () => {
      const deleted = await this.state.transaction(async (trx, emit) => {
        const r = await trx.deleteFrom('price_alerts').where('id', '=', alertId).where('user_id', '=', actor.userId).executeTakeFirst();
        if (Number(r.numDeletedRows) !== 1) return false;
        emit({ type: 'alert.changed', userId: actor.userId, alertId, change: 'deleted' });
        return true;
      });
      if (!deleted) throw refuse.notFound(`Alert #${alertId} was not found.`);
      const a = this.alerts.get(alertId);
      if (a) this.untrack(a);
    });
  }

  /** Why an alert cannot be changed: it fired or expired already (409), or it is not the trader's (404). */
  private async notWaiting(actor: Actor, alertId: number): Promise<never> {
    const row = await this.state.ctx.db.selectFrom('price_alerts').select(['status']).where('id', '=', alertId).where('user_id', '=', actor.userId).executeTakeFirst();
    if (row && row.status !== 'active') throw refuse.conflict(`Alert #${alertId} has ${row.status} already.`);
    throw refuse.notFound(`Alert #${alertId} was not found.`);
  }
}
