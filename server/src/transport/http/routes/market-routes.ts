import { calls, type SymbolRecord } from '@tradeport/contracts';
import type { FastifyInstance } from 'fastify';
import { dayFigures, type Period } from '../../../domain/candles';
import { refuse } from '../../../services/errors';
import { prepared, type Param } from '../../../storage/prepared';
import { registerCall } from '../call-route';
import { successData } from '../responses';

const accountTypeRow = prepared((db, param: Param<{ accountId: number }>) => db.selectFrom('trading_accounts').select('account_type_id').where('id', '=', param('accountId')));

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
    marginRate: i.marginRate,
  }));
}

/** Instruments, quotes and candles for signed-in users; the price bridge for the push feed. */
export function marketRoutes(app: FastifyInstance): void {
  const market = app.market;

  // Built for each call: the back office may change the catalogue while the server runs.
  registerCall(app, calls.getMainCurrencies, async () => successData(catalogueRows(market)));

  /**
   * The account type a trader's quotes are priced at (docs/design.md#spread-markup): their acting
   * account's. Read only while some type has a markup of its own: otherwise every type's prices are the book's.
   */
  const typeOf = async (accountId: number | null): Promise<number | undefined> =>
    accountId === null || !market.typePrices.any ? undefined : (await accountTypeRow.first(app.services.db, { accountId }))?.account_type_id;
  registerCall(app, calls.getQuotes, async ({ query, session }) => {
    const unknown = (query.symbols ?? []).filter((s) => !market.book.instruments.has(s));
    if (unknown.length > 0) throw refuse.invalid(`Unknown symbol${unknown.length > 1 ? 's' : ''}: ${unknown.slice(0, 10).join(', ')}.`);
    // A symbol disabled since the page listed it is left out of the answer; the others are answered.
    const symbols = query.symbols?.length ? query.symbols.filter((s) => market.offers(s)) : market.listed.map((i) => i.symbol);
    const typeId = await typeOf(session.accountId);
    const time = app.services.now();
    return successData(symbols.map((s) => market.typePrices.view(typeId, market.book.view(s, time))));
  });

  registerCall(app, calls.getCandles, async ({ query }) => {
    if (!market.offers(query.symbol)) throw refuse.invalid(`Unknown symbol: ${query.symbol}.`);
    const period = query.period as Period;
    return { status: 'success' as const, symbol: query.symbol, period, data: await market.candles.query(query.symbol, period, query.limit, query.before) };
  });

  registerCall(app, calls.getMarketSummary, async ({ session }) => {
    const typeId = await typeOf(session.accountId);
    const time = app.services.now();
    return successData(
      market.listed.map((i) => {
        const book = market.book.view(i.symbol, time);
        const q = market.typePrices.view(typeId, book);
        const { latest, previous } = market.candles.latest(i.symbol, 'D1');
        // The day's change is the candles' (the book's bid), whatever the type's markup.
        return { symbol: i.symbol, group: i.group, description: i.description, digits: i.digits, bid: q.bid, ask: q.ask, time: q.time, open: q.open, stale: q.stale, ...dayFigures(latest, previous, book.bid, i.digits) };
      }),
    );
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
