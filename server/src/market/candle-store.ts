import { sql } from 'kysely';
import { applyTick, PERIODS, type Candle, type Period } from '../domain/candles';
import type { Db } from '../storage/db';
import { prepared, rowLimit, type Param } from '../storage/prepared';
import type { BookQuote } from './types';

/** A candle with its series, as stored. */
type CandleRow = Candle & { symbol: string; period: string };

type CandleListener = (symbol: string, period: Period, candle: Candle) => void;

const key = (symbol: string, period: Period) => `${symbol}|${period}`;

/** How many of a series' newest candles the store keeps once the series is asked for: a chart's first page (the web app's CANDLE_PAGE). */
export const RECENT_CANDLES = 500;

const newestCandles = prepared((db, param: Param<{ symbol: string; period: Period; limit: number }>, rows) =>
  db.selectFrom('candles').select(['time', 'open', 'high', 'low', 'close', 'volume']).where('symbol', '=', param('symbol')).where('period', '=', param('period')).orderBy('time', 'desc').limit(rows),
);
const olderCandles = prepared((db, param: Param<{ symbol: string; period: Period; limit: number; before: number }>, rows) =>
  db
    .selectFrom('candles')
    .select(['time', 'open', 'high', 'low', 'close', 'volume'])
    .where('symbol', '=', param('symbol'))
    .where('period', '=', param('period'))
    .where('time', '<', param('before'))
    .orderBy('time', 'desc')
    .limit(rows),
);

/**
 * Builds candles of every period from the book's ticks (bid prices) and persists them. The candle
 * still forming lives in memory and is written with the others every `flushIntervalMs` (and at
 * shutdown), so a tick never waits on the database; a query merges the in-memory candle with the
 * stored ones. After a restart the last stored candle of each series is picked up again, so a
 * bucket that is still current continues instead of starting over.
 */
export class CandleStore {
  /** The candle forming now in each series (symbol and period). */
  private readonly current = new Map<string, Candle>();
  /** The candle before it in each series: the last one closed (or, after a restart, stored). */
  private readonly previous = new Map<string, Candle>();
  /**
   * The newest RECENT_CANDLES candles of each series asked for since the start (oldest first, the
   * forming one last): read from the database once, then kept by `onTick` as it folds each tick in,
   * so a chart's first page needs no query. Imported history drops a series' window (read again
   * on the next ask). At most one window per series: 100 symbols × 9 periods × 500 candles is
   * about 45 MB, and only series somebody charts are held.
   */
  private readonly recent = new Map<string, Candle[]>();
  /** Candles changed since the last flush, by series key and bucket time. */
  private dirty = new Map<string, Map<number, Candle>>();
  /** Candles being written right now: still answered from memory until the write commits. */
  private writing = new Map<string, Map<number, Candle>>();
  private readonly listeners: CandleListener[] = [];
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    /** A listener's failure is reported here; it never stops the tick or the other listeners. */
    private readonly onListenerError: (err: unknown) => void = () => undefined,
  ) {}

  /**
   * Loads the two latest stored candles of every series, so aggregation continues where it stopped
   * and `latest` knows the candle before the forming one.
   */
  async resume(symbols: string[]): Promise<void> {
    // One index probe per series (symbol, period, time desc): cheap however long the history is.
    for (const symbol of symbols) {
      for (const period of PERIODS) {
        const [last, before] = await newestCandles.all(this.db, { symbol, period, limit: 2 });
        const k = key(symbol, period);
        if (last) this.current.set(k, { ...last });
        if (before) this.previous.set(k, { ...before });
      }
    }
  }

  /** Folds a tick into every period. Called by the quote book for each accepted tick. */
  onTick(quote: BookQuote): void {
    for (const period of PERIODS) {
      const k = key(quote.symbol, period);
      const result = applyTick(this.current.get(k) ?? null, period, quote.time, quote.bid);
      if (result.ignored) continue;
      this.current.set(k, result.current);
      if (result.closed) this.previous.set(k, result.closed);
      this.markDirty(k, result.current);
      const window = this.recent.get(k);
      if (window) {
        if (window.at(-1)?.time === result.current.time) window[window.length - 1] = result.current;
        else if (window.push(result.current) > RECENT_CANDLES) window.shift();
      }
      for (const listener of this.listeners) {
        try {
          listener(quote.symbol, period, result.current);
        } catch (err) {
          this.onListenerError(err);
        }
      }
    }
  }

  private markDirty(k: string, candle: Candle): void {
    let series = this.dirty.get(k);
    if (!series) this.dirty.set(k, (series = new Map()));
    series.set(candle.time, candle);
  }

  /** The candle being formed now, if any. */
  live(symbol: string, period: Period): Candle | undefined {
    return this.current.get(key(symbol, period));
  }

  /**
   * The newest candle of a series and the one before it, from memory: the store keeps both as it
   * folds ticks in (the market summary's day figures read them on every request).
   */
  latest(symbol: string, period: Period): { latest: Candle | null; previous: Candle | null } {
    const k = key(symbol, period);
    return { latest: this.current.get(k) ?? null, previous: this.previous.get(k) ?? null };
  }

  onCandle(listener: CandleListener): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  /** Writes every changed candle in one transaction. Flushes never overlap; a failed one does not stop later ones. */
  flush(): Promise<void> {
    const next = this.flushing.catch(() => undefined).then(() => this.writeDirty());
    this.flushing = next;
    return next;
  }

  private async writeDirty(): Promise<void> {
    if (this.dirty.size === 0) return;
    this.writing = this.dirty;
    this.dirty = new Map();
    const rows: CandleRow[] = [];
    for (const [k, series] of this.writing) {
      const [symbol, period] = k.split('|') as [string, Period];
      for (const c of series.values()) rows.push({ symbol, period, ...c });
    }
    try {
      await this.write(rows);
    } catch (err) {
      // Not lost: merged back (newer versions win) and retried by the next flush.
      for (const [k, series] of this.writing) for (const c of series.values()) if (!this.dirty.get(k)?.has(c.time)) this.markDirty(k, c);
      throw err;
    } finally {
      this.writing = new Map();
    }
  }

  /**
   * Inserts or replaces candles from outside the tick stream (generated or imported history), and
   * takes them into the newest two candles each series keeps in memory (a written candle replaces
   * the one of its time), so what `latest` answers is the database's newest two.
   */
  async importHistory(rows: CandleRow[]): Promise<void> {
    await this.write(rows);
    const bySeries = new Map<string, Map<number, Candle>>();
    for (const { symbol, period, ...c } of rows) {
      const k = key(symbol, period as Period);
      this.recent.delete(k);
      let series = bySeries.get(k);
      if (!series) {
        series = new Map();
        for (const kept of [this.previous.get(k), this.current.get(k)]) if (kept) series.set(kept.time, kept);
        bySeries.set(k, series);
      }
      series.set(c.time, c);
    }
    for (const [k, series] of bySeries) {
      const [newest, before] = [...series.values()].sort((a, b) => b.time - a.time);
      if (newest) this.current.set(k, newest);
      if (before) this.previous.set(k, before);
    }
  }

  /** Inserts or replaces candles (the periodic flush of those formed from ticks). */
  async write(rows: CandleRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db.transaction().execute(async (trx) => {
      // 8 columns a row; 400 rows stay well under both engines' parameter limits.
      for (let i = 0; i < rows.length; i += 400) {
        await trx
          .insertInto('candles')
          .values(rows.slice(i, i + 400))
          .onConflict((oc) =>
            oc.columns(['symbol', 'period', 'time']).doUpdateSet({
              open: sql`excluded.open`,
              high: sql`excluded.high`,
              low: sql`excluded.low`,
              close: sql`excluded.close`,
              volume: sql`excluded.volume`,
            }),
          )
          .execute();
      }
    });
  }

  /**
   * Up to `limit` candles before `before` (epoch ms, exclusive; default: no bound), oldest first,
   * including the one still forming.
   */
  async query(symbol: string, period: Period, limit: number, before?: number): Promise<Candle[]> {
    if (before === undefined && limit <= RECENT_CANDLES) return (await this.window(symbol, period)).slice(-limit);
    return this.withUnwritten(await this.stored(symbol, period, limit, before), symbol, period, limit, before);
  }

  /** The series' newest candles (see `recent`), read from the database on the first ask. */
  private async window(symbol: string, period: Period): Promise<readonly Candle[]> {
    const k = key(symbol, period);
    const kept = this.recent.get(k);
    if (kept) return kept;
    const stored = await this.stored(symbol, period, RECENT_CANDLES);
    // Another ask may have filled it meanwhile; the first one stays, and ticks keep it current.
    const again = this.recent.get(k);
    if (again) return again;
    const window = this.withUnwritten(stored, symbol, period, RECENT_CANDLES);
    this.recent.set(k, window);
    return window;
  }

  /** The stored part of `query` (newest first). */
  private stored(symbol: string, period: Period, limit: number, before?: number): Promise<readonly Candle[]> {
    return before === undefined ? newestCandles.all(this.db, { symbol, period, limit }) : olderCandles.all(this.db, { symbol, period, limit, before });
  }

  /** `query`'s answer from its stored rows: candles not yet written (closed or forming) are newer than their stored versions. */
  private withUnwritten(stored: readonly Candle[], symbol: string, period: Period, limit: number, before?: number): Candle[] {
    const byTime = new Map<number, Candle>(stored.map((c) => [c.time, c]));
    const k = key(symbol, period);
    for (const pending of [this.writing.get(k), this.dirty.get(k)]) {
      for (const c of pending?.values() ?? []) if (before === undefined || c.time < before) byTime.set(c.time, { ...c });
    }
    return [...byTime.values()].sort((a, b) => a.time - b.time).slice(-limit);
  }

  /** Whether any candle is stored for a symbol (history generation runs only for empty series). */
  async hasHistory(symbol: string): Promise<boolean> {
    return (await this.db.selectFrom('candles').select('time').where('symbol', '=', symbol).limit(rowLimit(1)).executeTakeFirst()) !== undefined;
  }
}
