import { calls } from '@tradeport/contracts';
import type { FastifyInstance } from 'fastify';
import { chartLayoutOf, saveChartLayout } from '../../../services/chart-layouts';
import { refuse } from '../../../services/errors';
import { registerCall } from '../call-route';
import { successData } from '../responses';

/** The terminal chart's layouts (drawings and indicators), kept per trader and symbol. */
export function chartRoutes(app: FastifyInstance): void {
  const ctx = app.services;
  const known = (symbol: string) => {
    if (!app.market.offers(symbol)) throw refuse.invalid(`Unknown symbol: ${symbol}.`);
  };

  registerCall(app, calls.getChartLayout, async ({ query, session }) => {
    known(query.symbol);
    return successData({ symbol: query.symbol, layout: await chartLayoutOf(ctx, session.userId, query.symbol) });
  });

  registerCall(app, calls.saveChartLayout, async ({ body, session }) => {
    known(body.symbol);
    return successData({ symbol: body.symbol, layout: await saveChartLayout(ctx, session.userId, body.symbol, body.layout) });
  });
}
