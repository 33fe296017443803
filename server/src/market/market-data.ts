import type { MarketConfig } from '../config';
import { roundPrice, type Instrument } from '../domain/instruments';
import type { Db } from '../storage/db';
import { DEFAULT_CATALOGUE_FILE, instrumentValues, loadInstruments, seedCatalogue } from './catalogue';
import { instrumentRow, instrumentRows } from './catalogue-edits';
import { CandleStore } from './candle-store';
import { BinanceProvider } from './providers/binance-provider';
import { PolygonProvider } from './providers/polygon-provider';
import { SimProvider } from './providers/sim-provider';
import { QuoteBook } from './quote-book';
import { seedSimHistory } from './sim-history';
import { TypePrices } from './type-prices';
import type { FeedProvider } from './types';

export interface MarketLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * Market data, assembled: the catalogue, the quote book, candles, and the configured providers.
 * Real providers cover the instruments they have a name for; with `sim` listed too, the simulator
 * feeds whatever no real provider covers (with `sim` alone, everything). `push` starts nothing: the
 * price bridge endpoint writes into the same book whenever FEED_TOKEN is set.
 */
export class MarketData {
  private readonly providers: FeedProvider[] = [];
  private readonly changedQuotes = new Set<string>();
  private flushTimer: NodeJS.Timeout | null = null;
  private leading = false;
  /** What each account type trades at: the book's prices with the type's own markups (see type-prices.ts). */
  readonly typePrices: TypePrices;

  private constructor(
    private readonly db: Db,
    readonly instruments: Instrument[],
    readonly book: QuoteBook,
    readonly candles: CandleStore,
    private readonly config: MarketConfig,
    private readonly now: () => number,
    private readonly log: MarketLog,
  ) {
    this.typePrices = new TypePrices(
      (symbol) => book.get(symbol),
      (symbol) => book.instruments.get(symbol),
    );
  }

  /**
   * Loads the catalogue, the last quotes and the forming candles. With `lead` (the default, and
   * always for a single instance) it also starts the feeds and the writes (see `lead()`); an
   * instance that is not the engine leader only reads, and its book is filled by the leader's
   * quotes relayed over Redis.
   */
  static async start(db: Db, config: MarketConfig, now: () => number, log: MarketLog, options: { lead?: boolean } = {}): Promise<MarketData> {
    const added = await seedCatalogue(db, config.catalogueFile ?? DEFAULT_CATALOGUE_FILE, now());
    if (added.length > 0) log.info({ symbols: added.length }, 'added instruments from the catalogue file');
    const instruments = await loadInstruments(db);
    const onListenerError = (err: unknown) => log.warn({ err }, 'a market data listener failed');
    const book = new QuoteBook(instruments, { now, staleAfterMs: config.staleAfterMs, sessions: config.sessions, onListenerError });
    const candles = new CandleStore(db, onListenerError);
    const market = new MarketData(db, instruments, book, candles, config, now, log);

    // The last quote of each symbol survives a restart (marked stale until fresh ticks arrive).
    for (const q of await db.selectFrom('last_quotes').selectAll().execute()) book.restore(q);
    await candles.resume(instruments.map((i) => i.symbol));
    book.onQuote((quote) => {
      candles.onTick(quote);
      market.changedQuotes.add(quote.symbol);
    });

    if (options.lead !== false) await market.lead();
    return market;
  }

  /** Whether this instance runs the feeds and writes candles and last quotes. */
  get isLeading(): boolean {
    return this.leading;
  }

  /**
   * Starts the configured providers and the periodic writes of candles and last quotes: the
   * engine leader's work. The simulator continues from the book's current prices (relayed ones,
   * on an instance that takes over the lead).
   */
  async lead(): Promise<void> {
    if (this.leading) return;
    this.leading = true;
    const { config, now, log, instruments, book, candles } = this;
    const covered = new Set<string>();
    if (config.feeds.includes('binance')) {
      const list = instruments.filter((i) => i.feeds.binance);
      list.forEach((i) => covered.add(i.symbol));
      this.providers.push(new BinanceProvider({ instruments: list, baseUrl: config.binanceUrl, log }));
    }
    if (config.feeds.includes('polygon') && config.polygonApiKey) {
      const list = instruments.filter((i) => i.feeds.polygon);
      list.forEach((i) => covered.add(i.symbol));
      this.providers.push(new PolygonProvider({ instruments: list, baseUrl: config.polygonUrl, apiKey: config.polygonApiKey, log }));
    }
    if (config.feeds.includes('sim')) {
      const simulated = instruments.filter((i) => !covered.has(i.symbol));
      const startPrices = new Map<string, number>();
      if (config.simHistory) {
        const started = Date.now();
        const seeded = await seedSimHistory(candles, simulated, { seed: config.simSeed, now: now(), sessions: config.sessions });
        if (seeded.size > 0) log.info({ symbols: seeded.size, ms: Date.now() - started }, 'generated simulated price history');
        seeded.forEach((price, symbol) => startPrices.set(symbol, price));
        // History may have been generated before (earlier start): continue from its last candle.
        await candles.resume(simulated.filter((i) => seeded.has(i.symbol)).map((i) => i.symbol));
      }
      for (const i of simulated) {
        const lastMinute = candles.live(i.symbol, 'M1');
        // A market that is closed right now still shows its last price, as terminals do at weekends.
        if (!book.get(i.symbol) && lastMinute) {
          book.restore({ symbol: i.symbol, bid: lastMinute.close, ask: roundPrice(lastMinute.close + i.sim.spread * i.point, i.digits), time: Math.min(now(), lastMinute.time + 59_999) });
        }
        const continued = book.get(i.symbol)?.bid;
        if (continued !== undefined && !startPrices.has(i.symbol)) startPrices.set(i.symbol, continued);
      }
      this.providers.push(new SimProvider(simulated, { seed: config.simSeed, now, sessions: config.sessions, startPrices }));
    }
    for (const p of this.providers) p.start(book);

    this.flushTimer = setInterval(() => void this.flush().catch((err: unknown) => log.warn({ err }, 'market data flush failed')), config.flushIntervalMs);
    this.flushTimer.unref();
  }

  /**
   * Stops the feeds and the writes at once, without a last flush: an instance that lost the engine
   * lead must not write over what the new leader writes. The book keeps its quotes (they go stale
   * unless relayed ones arrive).
   */
  async standDown(): Promise<void> {
    if (!this.leading) return;
    this.leading = false;
    if (this.flushTimer) clearInterval(this.flushTimer);
    this.flushTimer = null;
    const providers = this.providers.splice(0);
    await Promise.all(providers.map((p) => p.stop()));
  }

  /** Writes forming candles and the latest quotes. */
  async flush(): Promise<void> {
    const [candles, quotes] = await Promise.allSettled([this.candles.flush(), this.flushQuotes()]);
    if (candles.status === 'rejected') throw candles.reason;
    if (quotes.status === 'rejected') throw quotes.reason;
  }

  private async flushQuotes(): Promise<void> {
    if (this.changedQuotes.size === 0) return;
    const symbols = [...this.changedQuotes];
    this.changedQuotes.clear();
    const rows = symbols.flatMap((symbol) => {
      const q = this.book.get(symbol);
      return q ? [{ symbol, bid: q.bid, ask: q.ask, time: q.time }] : [];
    });
    try {
      await this.db.transaction().execute(async (trx) => {
        for (const row of rows) {
          await trx
            .insertInto('last_quotes')
            .values(row)
            .onConflict((oc) => oc.column('symbol').doUpdateSet({ bid: row.bid, ask: row.ask, time: row.time }))
            .execute();
        }
      });
    } catch (err) {
      // Retried by the next flush with whatever the latest quote is by then.
      for (const s of symbols) this.changedQuotes.add(s);
      throw err;
    }
  }

  /** The instruments offered (close-only ones too: their positions are closed from the terminal); not disabled ones. */
  get listed(): Instrument[] {
    return this.instruments.filter((i) => i.tradingMode !== 'disabled');
  }

  /**
   * Applies the stored values of an instrument (of every one, without `symbol`) to the loaded one,
   * in place: the book, the engine, candles and the feeds hold the same object. Runs on every
   * instance when the back office saves one (`instrument.changed`). An instrument added to the
   * table since this instance started is loaded at its next start.
   */
  reloadInstruments(symbol?: string): Promise<void> {
    // One at a time, each reading when it runs: a read started later is applied later.
    const next = this.reloading.then(() => this.applyStored(symbol));
    this.reloading = next.catch(() => undefined);
    return next;
  }
  private reloading: Promise<void> = Promise.resolve();

  private async applyStored(symbol: string | undefined): Promise<void> {
    for (const row of symbol === undefined ? await instrumentRows(this.db) : [await instrumentRow(this.db, symbol)]) {
      const instrument = row && this.book.instruments.get(row.symbol);
      if (!row || !instrument) continue;
      const was = { spreadMarkup: instrument.spreadMarkup, point: instrument.point, digits: instrument.digits };
      Object.assign(instrument, instrumentValues(row));
      this.book.instrumentChanged(row.symbol, was, this.leading);
    }
  }

  /** Whether `symbol` is offered to traders: in the catalogue and not disabled. */
  offers(symbol: string): boolean {
    const i = this.book.instruments.get(symbol);
    return i !== undefined && i.tradingMode !== 'disabled';
  }

  /** The providers running, for the health endpoint. */
  providerNames(): string[] {
    return this.providers.map((p) => p.name);
  }

  async stop(): Promise<void> {
    if (!this.leading) return;
    this.leading = false;
    if (this.flushTimer) clearInterval(this.flushTimer);
    await Promise.all(this.providers.splice(0).map((p) => p.stop()));
    await this.flush();
  }
}
