import { calls } from '@tradeport/contracts';
import type { FastifyInstance } from 'fastify';
import { listCatalogue, saveInstrument } from '../../../market/catalogue-edits';
import { remadeQuote } from '../../../market/quote-book';
import { repriced } from '../../../market/type-prices';
import { refuse } from '../../../services/errors';
import { registerCall } from '../call-route';
import { successData } from '../responses';

/** The instrument catalogue in the back office (docs/api.md#instrument-catalogue). */
export function catalogueRoutes(app: FastifyInstance): void {
  const ctx = app.services;

  registerCall(app, calls.getCatalogue, async () => successData(await listCatalogue(ctx.db)));

  registerCall(app, calls.saveInstrument, async ({ body, actor }) => {
    // New markup or digits that would leave the instrument without a price (for the book, or for an
    // account type with a markup of its own on it) are refused: the quote could not be made again.
    const instrument = app.market.book.instruments.get(body.symbol);
    const q = app.market.book.get(body.symbol);
    if (q && instrument && (body.spreadMarkup !== instrument.spreadMarkup || body.digits !== instrument.digits)) {
      const next = { spreadMarkup: body.spreadMarkup, digits: body.digits, point: 10 ** -body.digits };
      const made = remadeQuote(q, instrument, next);
      const typeMarkups = app.market.typePrices.typesPricing(body.symbol).map((typeId) => app.market.typePrices.markupOf(typeId, body.symbol) ?? 0);
      const unpriced = made === null ? body.spreadMarkup : typeMarkups.find((points) => repriced(made.bid, made.ask, next, points) === null);
      if (unpriced !== undefined) {
        throw refuse.invalid(`A markup of ${unpriced} points on ${body.symbol} at ${body.digits} digits would take its bid to zero or below at the current price (${q.bid})${made === null ? '' : ' for an account type with that markup of its own'}.`);
      }
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
