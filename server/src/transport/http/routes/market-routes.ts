import { calls, type MarketSummaryRow, type Quote, type SymbolRecord } from '@tradeport/contracts';
import type { FastifyInstance } from 'fastify';
import { dayFigures, type Candle, type Period } from '../../../domain/candles';
import { refuse } from '../../../services/errors';
import { databaseVersion } from '../../../storage/prepared';
import { registerCall } from '../call-route';
import { answerCache, JsonText, keptAnswerStats, successData } from '../responses';

const DAY_MS = 24 * 3600_000;

/** The listed instruments as `getMainCurrencies` answers them (also sent inside the phone terminal's page). */
export function catalogueRows(market: FastifyInstance['market']): SymbolRecord[] {
  return market.listed.map((i) => ({
    ID: i.id,
    Symbol: i.symbol,
    CurrencyType: i.group,
    description: i.description,
    baseCurrency: i.base,
    quoteCurrency: i.quote,
    digits: i.digits,
    contractSize: i.contractSize,
    volumeMin: i.volumeMin,
    volumeStep: i.volumeStep,
    volumeMax: i.volumeMax,
    calcMode: i.calcMode,
    sessions: i.sessions,
    swapLong: i.swapLong,
    swapShort: i.swapShort,
  }));
}

/** Instruments, quotes and candles for signed-in users; the price bridge for the push feed. */
export function marketRoutes(app: FastifyInstance): void {
  const market = app.market;

  // The catalogue is fixed while the server runs: its answer is built and serialized once.
  const catalogue = JsonText.of(successData(catalogueRows(market)));
  registerCall(app, calls.getMainCurrencies, async () => catalogue);

  // Each quote's JSON is kept until its view changes (a new tick, or its open or stale flag
  // flipping), so a poll of every symbol mostly joins strings serialized before.
  const quoteJson = new Map<string, { view: Quote; text: string }>();
  const serializedQuote = (symbol: string, time: number): string => {
    const view = market.book.view(symbol, time);
    const cached = quoteJson.get(symbol);
    if (cached && cached.view.bid === view.bid && cached.view.ask === view.ask && cached.view.time === view.time && cached.view.open === view.open && cached.view.stale === view.stale) return cached.text;
    const text = JSON.stringify(view);
    quoteJson.set(symbol, { view, text });
    return text;
  };
  const listedSymbols = market.listed.map((i) => i.symbol);
  registerCall(app, calls.getQuotes, async ({ query }) => {
    const symbols = query.symbols?.length ? query.symbols : listedSymbols;
    const unknown = symbols.filter((s) => !market.book.instruments.has(s));
    if (unknown.length > 0) throw refuse.invalid(`Unknown symbol${unknown.length > 1 ? 's' : ''}: ${unknown.slice(0, 10).join(', ')}.`);
    const time = app.services.now();
    return JsonText.assembled<{ status: 'success'; data: Quote[] }>(`{"status":"success","data":[${symbols.map((s) => serializedQuote(s, time)).join(',')}]}`);
  });

  // A candles answer is kept with the stored rows it merged, while its series in memory is unchanged.
  type CandlesAnswer = { status: 'success'; symbol: string; period: Period; data: Candle[] };
  const candlesAnswer = answerCache<CandlesAnswer>(1);
  // And the last answer per query with the database version its rows were read at: while nothing
  // was written since (SQLite; see `databaseVersion`), the stored rows are those, so neither they nor
  // the answer kept for them need looking up.
  const lastCandles = new Map<string, { database: string; series: string; answer: JsonText<CandlesAnswer> }>();
  registerCall(app, calls.getCandles, async ({ query }) => {
    if (!market.book.instruments.has(query.symbol)) throw refuse.invalid(`Unknown symbol: ${query.symbol}.`);
    const period = query.period as Period;
    const series = market.candles.seriesVersion(query.symbol, period);
    const database = databaseVersion(app.services.db);
    const key = `${query.symbol}|${period}|${query.limit}|${query.before ?? ''}`;
    const last = lastCandles.get(key);
    if (database !== undefined && last?.database === database && last.series === series) {
      keptAnswerStats.hits += 1;
      return last.answer;
    }
    const stored = await market.candles.stored(query.symbol, period, query.limit, query.before);
    const build = () => ({ status: 'success' as const, symbol: query.symbol, period, data: market.candles.withUnwritten(stored, query.symbol, period, query.limit, query.before) });
    const answer = candlesAnswer([stored], build, series);
    // Both versions were taken before the read: a write or a candle meanwhile makes the next request miss.
    if (database !== undefined && answer instanceof JsonText) {
      if (lastCandles.size >= 1_000) lastCandles.clear();
      lastCandles.set(key, { database, series, answer });
    }
    return answer;
  });

  // The summary is kept with the stored day candles it used, while no quote, no candle in memory and
  // no instrument's open or stale flag has changed.
  const summaryAnswer = answerCache<{ status: 'success'; data: MarketSummaryRow[] }>(1);
  const symbols = market.instruments.map((i) => i.symbol);
  // The last answer with the database version its stored day candles were read at (as for getCandles).
  let lastSummary: { database: string; variant: string; answer: JsonText<{ status: 'success'; data: MarketSummaryRow[] }> } | undefined;
  registerCall(app, calls.getMarketSummary, async () => {
    // A month back is enough to find the previous trading day after any weekend or holiday; from
    // the start of that day, so the statement's values (and its kept result) stay the same all day.
    const time = app.services.now();
    const since = Math.floor((time - 31 * DAY_MS) / DAY_MS) * DAY_MS;
    const variant = `${since}|${market.book.version}|${market.candles.version}|${market.book.flags(symbols, time)}`;
    const database = databaseVersion(app.services.db);
    if (database !== undefined && lastSummary?.database === database && lastSummary.variant === variant) {
      keptAnswerStats.hits += 1;
      return lastSummary.answer;
    }
    const stored = await market.candles.latestStored(symbols, 'D1', 2, since);
    const build = () => {
      const days = market.candles.latestWithUnwritten(stored, symbols, 'D1', 2, since);
      return successData(
        market.instruments.map((i) => {
          const q = market.book.view(i.symbol, time);
          const [latest = null, previous = null] = days.get(i.symbol) ?? [];
          return { symbol: i.symbol, group: i.group, description: i.description, digits: i.digits, bid: q.bid, ask: q.ask, time: q.time, open: q.open, stale: q.stale, ...dayFigures(latest, previous, q.bid, i.digits) };
        }),
      );
    };
    const answer = summaryAnswer([stored], build, variant);
    // The variant and the version were taken before the read: a change meanwhile makes the next request miss.
    if (database !== undefined && answer instanceof JsonText) lastSummary = { database, variant, answer };
    return answer;
  });

  registerCall(
    app,
    calls.feedTicks,
    async ({ body, request }) => {
      // Each tick is checked against the quote before it (ticks of a batch apply in order); one bad
      // tick costs only itself, and the bridge learns which and why.
      const refused: { index: number; symbol: string; message: string }[] = [];
      for (const [index, tick] of body.ticks.entries()) {
        const result = market.book.ingest(tick, 'push');
        if (!result.ok) refused.push({ index: index + 1, symbol: tick.symbol, message: result.reason });
      }
      const accepted = body.ticks.length - refused.length;
      if (accepted === 0) {
        const [first] = refused;
        throw refuse.invalid(`Tick ${first?.index}: ${first?.message}${refused.length > 1 ? ` (and ${refused.length - 1} more refused; no tick was applied)` : ''}`);
      }
      if (refused.length > 0) request.log.warn({ accepted, refused: refused.length, first: refused[0] }, 'pushed ticks refused');
      return { status: 'success' as const, message: `Accepted ${accepted} of ${body.ticks.length} ticks.`, accepted, refused };
    },
    { config: { csrfExempt: true } },
  );
}
