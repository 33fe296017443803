import { calls } from '@tradeport/contracts';
import type { FastifyInstance } from 'fastify';
import { editFavourite, listFavourites } from '../../../services/favourites';
import { registerCall } from '../call-route';
import { successData } from '../responses';

/** The price table's favourite symbols, kept per trader. */
export function favouritesRoutes(app: FastifyInstance): void {
  const ctx = app.services;
  // The listed instruments are fixed while the server runs.
  const listed: ReadonlySet<string> = new Set(app.market.listed.map((i) => i.symbol));

  registerCall(app, calls.getFavourites, async ({ session }) => successData(await listFavourites(ctx, session.userId, listed)));

  registerCall(app, calls.editFavourites, async ({ body, session }) => successData(await editFavourite(ctx, session.userId, body.symbol, body.favourite, listed)));
}
