import { sql } from 'kysely';
import { applyTick, PERIODS, type Candle, type Period } from '../domain/candles';
import type { Db } from '../storage/db';
import { prepared, type Param, type Prepared } from '../storage/prepared';
import type { BookQuote } from './types';

/** A stored candle of latestPerSymbol's statement, with its symbol and its rank (1 = newest). */
type LatestRow = Candle & { symbol: string; rank: number };

type CandleListener = (symbol: string, period: Period, candle: Candle) => void;

const key = (symbol: string, period: Period) => `${symbol}|${period}`;

const newestCandles = prepared((db, param: Param<{ symbol: string; period: Period; limit: number }>) =>
  db.selectFrom('candles').select(['time', 'open', 'high', 'low', 'close', 'volume']).where('symbol', '=', param('symbol')).where('period', '=', param('period')).orderBy('time', 'desc').limit(param('limit')),
);
const olderCandles = prepared((db, param: Param<{ symbol: string; period: Period; limit: number; before: number }>) =>
  db
    .selectFrom('candles')
    .select(['time', 'open', 'high', 'low', 'close', 'volume'])
    .where('symbol', '=', param('symbol'))
    .where('period', '=', param('period'))
    .where('time', '<', param('before'))
    .orderBy('time', 'desc')
    .limit(param('limit')),
);

/**
 * Builds candles of every period from the book's ticks (bid prices) and persists them. The candle
 * still forming lives in memory and is written with the others every `flushIntervalMs` (and at
 * shutdown), so a tick never waits on the database; a query merges the in-memory candle with the
 * stored ones. After a restart the last stored candle of each series is picked up again, so a
 * bucket that is still current continues instead of starting over.
 */
export class CandleStore {
  /** latestPerSymbol's statement for each list of symbols asked for. */
  private readonly latestQueries = new Map<string, Prepared<{ period: Period; since: number; count: number }, LatestRow>>();
  private readonly latestByList = new WeakMap<readonly string[], Prepared<{ period: Period; since: number; count: number }, LatestRow>>();

  private readonly current = new Map<string, Candle>();
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

  /** Loads the latest stored candle of every series so aggregation continues where it stopped. */
  async resume(symbols: string[]): Promise<void> {
    // One index probe per series (symbol, period, time desc): cheap however long the history is.
    for (const symbol of symbols) {
      for (const period of PERIODS) {
        const row = await this.db.selectFrom('candles').selectAll().where('symbol', '=', symbol).where('period', '=', period).orderBy('time', 'desc').limit(1).executeTakeFirst();
        if (row) this.current.set(key(symbol, period), { time: row.time, open: row.open, high: row.high, low: row.low, close: row.close, volume: row.volume });
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
      this.markDirty(k, result.current);
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
    const rows: { symbol: string; period: string; time: number; open: number; high: number; low: number; close: number; volume: number }[] = [];
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

  /** Inserts or replaces candles (also used to store generated history). */
  async write(rows: { symbol: string; period: string; time: number; open: number; high: number; low: number; close: number; volume: number }[]): Promise<void> {
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
    return this.withUnwritten(await this.stored(symbol, period, limit, before), symbol, period, limit, before);
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

  /**
   * The newest `count` candles of each symbol, newest first, from one query (not one per symbol),
   * merged with the candles not yet written. Only candles from `since` on are considered, which
   * keeps the query to a few rows per symbol.
   */
  async latestPerSymbol(symbols: string[], period: Period, count: number, since: number): Promise<Map<string, Candle[]>> {
    return this.latestWithUnwritten(await this.latestStored(symbols, period, count, since), symbols, period, count, since);
  }

  /** The stored part of `latestPerSymbol`. */
  private async latestStored(symbols: string[], period: Period, count: number, since: number): Promise<readonly LatestRow[]> {
    if (symbols.length === 0) return [];
    // Callers pass the same array each time (and never change it): found by identity, not by joining its symbols.
    let query = this.latestByList.get(symbols);
    if (query) return query.all(this.db, { period, since, count });
    const key = symbols.join(',');
    query = this.latestQueries.get(key);
    if (!query) {
      // The symbols are part of the statement (a list cannot be a parameter); callers ask for the same list.
      if (this.latestQueries.size >= 16) this.latestQueries.clear();
      const list = [...symbols];
      query = prepared((db, param: Param<{ period: Period; since: number; count: number }>) =>
        db
          .selectFrom(
            db
              .selectFrom('candles')
              .select(['symbol', 'time', 'open', 'high', 'low', 'close', 'volume', sql<number>`row_number() over (partition by symbol order by time desc)`.as('rank')])
              .where('symbol', 'in', list)
              .where('period', '=', param('period'))
              .where('time', '>=', param('since'))
              .as('ranked'),
          )
          .selectAll()
          .where('rank', '<=', param('count')),
      );
      this.latestQueries.set(key, query);
    }
    this.latestByList.set(symbols, query);
    return query.all(this.db, { period, since, count });
  }

  /** `latestPerSymbol`'s answer from its stored rows. */
  private latestWithUnwritten(rows: readonly LatestRow[], symbols: string[], period: Period, count: number, since: number): Map<string, Candle[]> {
    const bySymbol = new Map<string, Map<number, Candle>>(symbols.map((s) => [s, new Map()]));
    for (const { symbol, rank: _rank, ...c } of rows) bySymbol.get(symbol)?.set(c.time, { time: Number(c.time), open: c.open, high: c.high, low: c.low, close: c.close, volume: c.volume });
    const result = new Map<string, Candle[]>();
    for (const [symbol, byTime] of bySymbol) {
      const k = key(symbol, period);
      for (const pending of [this.writing.get(k), this.dirty.get(k)]) {
        for (const c of pending?.values() ?? []) if (c.time >= since) byTime.set(c.time, { ...c });
      }
      const live = this.current.get(k);
      if (live && live.time >= since) byTime.set(live.time, { ...live });
      result.set(symbol, [...byTime.values()].sort((a, b) => b.time - a.time).slice(0, count));
    }
    return result;
  }

  /** Whether any candle is stored for a symbol (history generation runs only for empty series). */
  async hasHistory(symbol: string): Promise<boolean> {
    return (await this.db.selectFrom('candles').select('time').where('symbol', '=', symbol).limit(1).executeTakeFirst()) !== undefined;
  }
}
