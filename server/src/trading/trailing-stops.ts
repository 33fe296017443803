import { setTimeout as sleep } from 'node:timers/promises';
import type { BookQuote } from '../market/types';
import type { EngineState } from './engine-state';
import type { OpenPosition } from './types';

/** Stop moves written per transaction, at most (a short transaction: on SQLite it holds the event loop). */
const MOVE_BATCH = 250;
/**
 * How long moves gather before a batch is written: a stop that moves on every tick of a trend is
 * written once per pause with where it is then, not once per tick; ticks run in between.
 */
const WRITE_PAUSE_MS = 50;

/** A stop may move unless its close or its owner's change is under way. */
const movable = (p: OpenPosition): boolean => !(p.closing || p.triggered || p.modifying);

/**
 * Trailing stops on the server (docs/design.md#trailing-stops). Where each stop next moves is
 * indexed per symbol (trail-book.ts: stops that move together, as one); a tick that reaches it
 * moves the stop in memory at once (its stop loss follows, so the stop protects from that tick
 * on), and the moves are written to the position's `stop_loss` in batches, one transaction per
 * batch, with a `position.modified` event to the owner. The database holds every stop the engine acted on but the last moments' moves: a leader
 * that takes over loads those stops and trails on from them.
 */
export class TrailingStops {
  private flushing: Promise<void> | null = null;
  /** The batch being written now. */
  private writing: Promise<void> | null = null;

  constructor(private readonly state: EngineState) {}

  /** Moves the stops this tradable tick reaches, before the SL/TP triggers are evaluated (on every tick). */
  onTick(quote: BookQuote, key: string = quote.symbol): void {
    const instrument = this.state.instrumentOrNone(quote.symbol);
    if (instrument) {
      // A close or its owner's change under way decides its levels: the stop stays, out of the
      // index (a tick must not look at it again and again while a close waits for its commit),
      // until the close fails or the change is done and indexes it again (`EngineState.reindex`,
      // `followTrail`).
      this.state.trails.onTick(key, quote.bid, quote.ask, instrument.digits, movable);
    }
    // Moves a failed write left behind are tried again.
    this.startFlush();
  }

  /** Moves `p`'s stop to where its trailing stop puts it at `quote`, if it moves; indexes the next move either way. */
  trail(p: OpenPosition, quote: { bid: number; ask: number }): void {
    const instrument = this.state.instrumentOrNone(p.symbol);
    if (!p.trailing || !instrument || !movable(p)) return;
    if (this.state.trails.trail(p, this.state.priceKey(p.accountId, p.symbol), quote.bid, quote.ask, instrument.digits)) this.startFlush();
  }

  /**
   * Before the owner's change of `p`'s levels is written (with `p.modifying` set): its moves still
   * unwritten are dropped (the change writes the levels it holds), and the batch being written is
   * waited for, so it cannot land after the change. Later batches leave `p` alone until the change
   * is done.
   */
  async settle(p: OpenPosition): Promise<void> {
    this.state.trails.markWritten(p);
    await this.writing?.catch(() => undefined);
  }

  /** Writes the moved stops in batches, unless a run is under way (it takes what comes). */
  private startFlush(): void {
    if (this.flushing || !this.state.trails.hasUnwritten()) return;
    let failed = false;
    const run = (async () => {
      while (this.state.trails.hasUnwritten()) {
        await sleep(WRITE_PAUSE_MS);
        const batch = this.state.trails.takeUnwritten(MOVE_BATCH);
        this.writing = this.write(batch);
        try {
          await this.writing;
        } catch (err) {
          // Written again at the next tick (not in a loop against a database that is down).
          this.state.log.warn({ err, positions: batch.length }, 'writing moved trailing stops failed; they are written again at the next tick');
          for (const p of batch) if (this.state.open.has(p.id) && !p.modifying) this.state.trails.markUnwritten(p);
          failed = true;
          return;
        } finally {
          this.writing = null;
        }
      }
    })().finally(() => {
      this.flushing = null;
      if (!failed) this.startFlush();
    });
    this.flushing = run;
    this.state.background(run);
  }

  /**
   * One batch: each open position's stop as memory holds it now, in one transaction, announced to
   * the owners after it commits. Written account by account in id order, taking turns with the
   * other writes of many positions (closes, the rollover), as they do: on PostgreSQL they never
   * lock rows in opposite orders.
   */
  private async write(batch: OpenPosition[]): Promise<void> {
    batch.sort((a, b) => a.accountId - b.accountId || a.id - b.id);
    await this.state.writingManyPositions(() =>
      this.state.transaction(async (trx, emit) => {
        for (const p of batch) {
          if (!this.state.open.has(p.id)) continue;
          // Read once: the stop written is the stop announced, whatever a tick does meanwhile.
          const stopLoss = p.stopLoss;
          const done = await trx.updateTable('positions').set({ stop_loss: stopLoss }).where('id', '=', p.id).where('status', '=', 'open').executeTakeFirst();
          if (Number(done.numUpdatedRows) !== 1) continue;
          emit({ type: 'position.modified', userId: p.userId, accountId: p.accountId, ticket: p.id, symbol: p.symbol, stopLoss, takeProfit: p.takeProfit, by: 'trailing' });
        }
      }),
    );
  }

  /** A stop moved in memory that an owner's change did not write after all (it failed): written with the next batch. */
  requeue(p: OpenPosition): void {
    if (!this.state.open.has(p.id) || !p.trailing) return;
    this.state.trails.markUnwritten(p);
    this.startFlush();
  }
}
