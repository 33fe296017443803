import { calls } from '@tradeport/contracts';
import type { FastifyInstance } from 'fastify';
import { editFavourite, favouriteRows, favouritesOfRows } from '../../../services/favourites';
import { registerCall } from '../call-route';
import { answerCache, successData } from '../responses';

/** The price table's favourite symbols, kept per trader. */
export function favouritesRoutes(app: FastifyInstance): void {
  const ctx = app.services;
  // The listed instruments are fixed while the server runs.
  const listed: ReadonlySet<string> = new Set(app.market.listed.map((i) => i.symbol));

  // Kept with the stored rows it shows (SQLite's kept read, the same frozen list until a change
  // writes favourite_symbols).
  const favouritesAnswer = answerCache<{ status: 'success'; data: string[] }>(1);
  registerCall(app, calls.getFavourites, async ({ session }) => {
    const rows = await favouriteRows(ctx, session.userId);
    return favouritesAnswer([rows], () => successData(favouritesOfRows(rows, listed)));
  });

  registerCall(app, calls.editFavourites, async ({ body, session }) => successData(await editFavourite(ctx, session.userId, body.symbol, body.favourite, listed)));
}
