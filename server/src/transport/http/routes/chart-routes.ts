import { calls, type ChartLayout } from '@tradeport/contracts';
import type { FastifyInstance } from 'fastify';
import { chartLayoutRows, layoutOfRows, saveChartLayout } from '../../../services/chart-layouts';
import { refuse } from '../../../services/errors';
import { registerCall } from '../call-route';
import { answerCache, successData } from '../responses';

/** The terminal chart's layouts (drawings and indicators), kept per trader and symbol. */
export function chartRoutes(app: FastifyInstance): void {
  const ctx = app.services;
  const known = (symbol: string) => {
    if (!app.market.book.instruments.has(symbol)) throw refuse.invalid(`Unknown symbol: ${symbol}.`);
  };

  // Kept with the stored row it shows (SQLite's kept read, the same frozen list until a save writes
  // chart_layouts), so an unchanged layout is not parsed, checked and serialized again; the symbol
  // named as the variant, though each list is read for one trader and symbol only.
  const layoutAnswer = answerCache<{ status: 'success'; data: { symbol: string; layout: ChartLayout } }>(1);
  registerCall(app, calls.getChartLayout, async ({ query, session }) => {
    known(query.symbol);
    const rows = await chartLayoutRows(ctx, session.userId, query.symbol);
    return layoutAnswer([rows], () => successData({ symbol: query.symbol, layout: layoutOfRows(rows) }), query.symbol);
  });

  registerCall(app, calls.saveChartLayout, async ({ body, session }) => {
    known(body.symbol);
    return successData({ symbol: body.symbol, layout: await saveChartLayout(ctx, session.userId, body.symbol, body.layout) });
  });
}
