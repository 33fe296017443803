import { setImmediate as nextTurn } from 'node:timers/promises';
import { sql } from 'kysely';
import { roundToCents, type Cents } from '../domain/money';
import { swapInQuote, toUsd } from '@tradeport/trading-math';
import { rolloversBetween } from '../domain/rollover-schedule';
import { isUniqueViolation, type Tx } from '../storage/db';
import { refuse } from '../services/errors';
import type { EngineState } from './engine-state';
import type { OpenPosition } from './types';

/**
 * Positions per swap UPDATE statement at a rollover (two parameters each, plus the id list). The
 * database matches each row against the CASE list, so the cost of a statement grows with its square:
 * 100 measured fastest.
 */
const ROLLOVER_CHUNK = 100;

/**
 * Daily swap: applies each rollover once (also after a downtime), and keeps the swap that cannot be
 * priced yet in `swap_deferred` until a conversion rate exists. Closes ask `isDue` first and apply a
 * due rollover before they close, and price kept swap with `swapCents`.
 */
export class Rollovers {
  /** The last rollover instant known to be applied (a cheap test before a close). */
  private rolledUpTo = 0;
  private rolling: Promise<number> | null = null;

  constructor(private readonly state: EngineState) {}

  /** Reads the kept swap and the last rollover applied; the open positions must be loaded first. */
  async load(): Promise<void> {
    const { ctx } = this.state;
    for (const r of await ctx.db.selectFrom('swap_deferred').select('position_id').distinct().execute()) this.state.deferredSwap.add(r.position_id);
    const lastRollover = await ctx.db.selectFrom('swap_rollovers').select((eb) => eb.fn.max('at').as('at')).executeTakeFirst();
    let oldest = ctx.now() - 24 * 3600_000;
    for (const p of this.state.open.values()) oldest = Math.min(oldest, p.openedAt);
    this.rolledUpTo = lastRollover?.at != null ? Number(lastRollover.at) : oldest;
  }

  /** Whether a rollover instant has passed that may not be applied yet (then `applyRollovers` first). */
  isDue(now: number): boolean {
    return rolloversBetween(this.rolledUpTo, now, this.state.ctx.config.trading.rollover).length > 0;
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

  private async rollOver(now: number): Promise<number> {
    const { ctx, open } = this.state;
    if (rolloversBetween(this.rolledUpTo, now, ctx.config.trading.rollover).length === 0) {
      if (this.state.deferredSwap.size > 0) await this.chargeDeferredSwaps(now);
      return 0;
    }
    const last = await ctx.db.selectFrom('swap_rollovers').select((eb) => eb.fn.max('at').as('at')).executeTakeFirst();
    // With no rollover applied yet, from the oldest open position (a downtime before the first
    // rollover is charged in full too).
    let after = now - 24 * 3600_000;
    for (const p of open.values()) after = Math.min(after, p.openedAt);
    if (last?.at != null) after = Number(last.at);
    this.rolledUpTo = Math.max(this.rolledUpTo, after);
    let applied = 0;
    for (const { at, days } of rolloversBetween(after, now, ctx.config.trading.rollover)) {
      // Positions with the same symbol, side and volume in accounts of one type pay the same
      // (a type may have swaps of its own): computed once per group.
      const perGroup = new Map<string, Cents | null>();
      const charges: [number, Cents][] = [];
      // Positions whose swap cannot be priced now (no conversion rate): kept, charged when one exists.
      const deferred: number[] = [];
      let seen = 0;
      for (const p of [...open.values()]) {
        // A large book is priced in stretches, serving ticks in between (closes wait for this run).
        if (++seen % 5000 === 0) await nextTurn();
        if (p.openedAt >= at || !open.has(p.id)) continue;
        const key = `${p.symbol}|${p.side}|${p.volume}|${this.state.accountTypes.get(p.accountId) ?? ''}`;
        let cents = perGroup.get(key);
        if (cents === undefined) {
          cents = this.swapCents(p, days);
          perGroup.set(key, cents);
        }
        if (cents === null) deferred.push(p.id);
        else if (cents !== 0) charges.push([p.id, cents]);
      }
      try {
        await this.state.writingManyPositions(() => this.state.transaction(async (trx) => {
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
        const p = open.get(id);
        if (!p) continue;
        p.swapCents += cents;
        this.state.dirtyAccounts.add(p.accountId);
      }
      for (const id of deferred) this.state.deferredSwap.add(id);
      if (deferred.length > 0) this.state.log.warn({ rolloverAt: new Date(at).toISOString(), positions: deferred.length }, 'swap of some positions could not be priced (no conversion rate); it is kept and charged once a rate exists');
      this.rolledUpTo = Math.max(this.rolledUpTo, at);
      applied += 1;
    }
    if (this.state.deferredSwap.size > 0) await this.chargeDeferredSwaps(now);
    return applied;
  }

  /**
   * Swap of one rollover for a position in cents, or null when it cannot be priced right now: at its
   * account type's swaps on the instrument, else the catalogue's.
   */
  swapCents(p: Pick<OpenPosition, 'accountId' | 'symbol' | 'side' | 'volume'>, days: number): Cents | null {
    const instrument = this.state.instrumentOrNone(p.symbol);
    if (!instrument) return null;
    const { swapLong, swapShort } = this.state.swapsFor(p.accountId, instrument);
    const usd = toUsd(swapInQuote(p.side, p.volume, days, { swapLong, swapShort, digits: instrument.digits, contractSize: instrument.contractSize }), instrument.quote, this.state.prices);
    return usd === null ? null : roundToCents(usd);
  }

  /**
   * In a close's transaction: the swap kept for `p` from rollovers that had no conversion rate is
   * added to its stored swap now (the close has a rate; refused when it has none). The kept rows
   * are deleted in the same transaction, so each is charged once.
   */
  async chargeDeferred(trx: Tx, p: OpenPosition): Promise<void> {
    if (!this.state.deferredSwap.has(p.id)) return;
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

  /**
   * Charges the kept swap of rollovers that could not be priced when they were applied, for every
   * position that can be priced now (each row once: it is deleted in the same transaction).
   */
  private async chargeDeferredSwaps(now: number): Promise<void> {
    const { ctx, open, deferredSwap } = this.state;
    const rows = await ctx.db.selectFrom('swap_deferred').selectAll().execute();
    const done: { position_id: number; rollover_at: number; cents: Cents }[] = [];
    for (const r of rows) {
      const p = open.get(r.position_id);
      if (!p || p.closing) continue;
      const cents = this.swapCents(p, r.days);
      if (cents === null) continue;
      done.push({ position_id: r.position_id, rollover_at: Number(r.rollover_at), cents });
    }
    if (done.length === 0) return;
    // Only the rows this transaction deletes are charged: a close (or a partial close) since the
    // read above may have charged and deleted some already.
    const charges = new Map<number, Cents>();
    await this.state.writingManyPositions(() =>
      this.state.transaction(async (trx) => {
        charges.clear();
        for (const d of done) {
          const [deleted] = await trx.deleteFrom('swap_deferred').where('position_id', '=', d.position_id).where('rollover_at', '=', d.rollover_at).execute();
          if (Number(deleted?.numDeletedRows ?? 0) === 1) charges.set(d.position_id, (charges.get(d.position_id) ?? 0) + d.cents);
        }
        for (const [id, cents] of charges) if (cents !== 0) await trx.updateTable('positions').set({ swap_cents: sql<number>`swap_cents + cast(${cents} as bigint)` }).where('id', '=', id).where('status', '=', 'open').execute();
      }),
    );
    for (const [id, cents] of charges) {
      const p = open.get(id);
      if (!p) continue;
      p.swapCents += cents;
      this.state.dirtyAccounts.add(p.accountId);
    }
    const left = new Set((await ctx.db.selectFrom('swap_deferred').select('position_id').execute()).map((r) => r.position_id));
    for (const id of [...deferredSwap]) if (!left.has(id)) deferredSwap.delete(id);
    this.state.log.warn({ positions: charges.size, at: new Date(now).toISOString() }, 'kept swap charged now that a conversion rate exists');
  }
}
