import { calls } from '@tradeport/contracts';
import type { FastifyInstance } from 'fastify';
import { editFavourite, listFavourites } from '../../../services/favourites';
import { registerCall } from '../call-route';
import { successData } from '../responses';

/** The price table's favourite symbols, kept per trader. */
export function favouritesRoutes(app: FastifyInstance): void {
  const ctx = app.services;
  // As listed at the moment of each call: the back office may disable an instrument at any time.
  const listed = { has: (symbol: string) => app.market.offers(symbol) };

  registerCall(app, calls.getFavourites, async ({ session }) => successData(await listFavourites(ctx, session.userId, listed)));

  registerCall(app, calls.editFavourites, async ({ body, session }) => successData(await editFavourite(ctx, session.userId, body.symbol, body.favourite, listed)));
}
