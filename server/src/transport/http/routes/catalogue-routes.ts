import { calls } from '@tradeport/contracts';
import type { FastifyInstance } from 'fastify';
import { listCatalogue, saveInstrument } from '../../../market/catalogue-edits';
import { repriced } from '../../../market/type-prices';
import { refuse } from '../../../services/errors';
import { registerCall } from '../call-route';
import { successData } from '../responses';

/** The instrument catalogue in the back office (docs/api.md#instrument-catalogue). */
export function catalogueRoutes(app: FastifyInstance): void {
  const ctx = app.services;

  registerCall(app, calls.getCatalogue, async () => successData(await listCatalogue(ctx.db)));

  registerCall(app, calls.saveInstrument, async ({ body, actor }) => {
    // A markup that would take the bid to zero or below leaves the instrument without a price: refused.
    const instrument = app.market.book.instruments.get(body.symbol);
    const q = app.market.book.get(body.symbol);
    if (q && instrument && body.spreadMarkup !== instrument.spreadMarkup && repriced(q.bid, q.ask, instrument, body.spreadMarkup) === null) {
      throw refuse.invalid(`A markup of ${body.spreadMarkup} points on ${body.symbol} would take its bid to zero or below at the current price (${q.bid}).`);
    }
    const saved = await saveInstrument(ctx, actor, body);
    if (!saved.changed) return { status: 'success' as const, message: `${body.symbol} is unchanged.`, data: saved.row };
    // Here at once, so the next call to this instance sees it; everywhere else through the bus.
    try {
      await app.market.reloadInstruments(body.symbol);
      await app.trading.reloadTypePrices();
    } finally {
      ctx.bus.publish({ type: 'instrument.changed', symbol: body.symbol });
    }
    return { status: 'success' as const, message: `${body.symbol} saved.`, data: saved.row };
  });
}
