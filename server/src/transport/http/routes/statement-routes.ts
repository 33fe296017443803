import { calls, type StatementResponse } from '@tradeport/contracts';
import type { FastifyInstance } from 'fastify';
import { formatCents } from '../../../domain/money';
import { isoTime } from '../../../services/context';
import { refuse } from '../../../services/errors';
import { periodDays, statementCsv } from '../../../services/statement-lines';
import { statementPdf } from '../../../services/statement-pdf';
import { buildStatement, statementRange, type Statement, type StatementMarket } from '../../../services/statements';
import { BytesFile } from '../file-answer';
import { registerCall } from '../call-route';

const money = (cents: number | null) => (cents === null ? null : formatCents(cents));

/** A statement as the API shows it (contracts' statementResponse). */
function answerOf(s: Statement): StatementResponse {
  const m = s.summary;
  return {
    status: 'success',
    data: {
      account: { number: s.account.number, kind: s.account.kind, currency: s.account.currency, leverage: s.account.leverage, type: s.account.typeName, holder: s.account.holderName },
      from: isoTime(s.range.from),
      to: isoTime(Math.min(s.range.end, s.generatedAt)),
      generatedAt: isoTime(s.generatedAt),
      valuedAt: s.valuedAt,
      summary: {
        openingBalance: formatCents(m.openingBalanceCents),
        deposits: formatCents(m.depositsCents),
        withdrawals: formatCents(m.withdrawalsCents),
        tradesProfit: formatCents(m.tradesProfitCents),
        swaps: formatCents(m.swapsCents),
        commissions: formatCents(m.commissionsCents),
        adjustments: formatCents(m.adjustmentsCents),
        transfers: formatCents(m.transfersCents),
        demoResets: formatCents(m.demoResetsCents),
        closingBalance: formatCents(m.closingBalanceCents),
        openingCredit: formatCents(m.openingCreditCents),
        closingCredit: formatCents(m.closingCreditCents),
        floating: money(m.floatingCents),
        equity: money(m.equityCents),
      },
      trades: s.trades.map((t) => ({ ...t, openedAt: isoTime(t.openedAt), closedAt: isoTime(t.closedAt), commission: formatCents(t.commissionCents), swap: formatCents(t.swapCents), profit: formatCents(t.profitCents) })),
      operations: s.operations.map((o) => ({ at: isoTime(o.at), kind: o.kind, memo: o.memo, amount: formatCents(o.amountCents), after: formatCents(o.afterCents) })),
      openPositions: s.openPositions.map((p) => ({ ticket: p.ticket, symbol: p.symbol, side: p.side, volume: p.volume, openedAt: isoTime(p.openedAt), openPrice: p.openPrice, price: p.price, swap: money(p.swapCents), profit: money(p.profitCents) })),
    },
  };
}

/**
 * Account statements (docs/design.md#statements): a trader's own, as JSON and as a PDF or CSV
 * file, and any account's file from the back office. Read from the database and this instance's
 * quotes and candles, so any instance answers. Making a PDF of a long period costs CPU: a person
 * may have 20 files made a minute (and look at 60 statements).
 */
export function statementRoutes(app: FastifyInstance): void {
  const ctx = app.services;
  const book = app.market.book;
  const market: StatementMarket = { quote: (s, typeId) => app.market.typePrices.quote(typeId, s), instrument: (s) => book.instruments.get(s), candles: app.market.candles };
  const limited = { config: { userRateLimit: { bucket: 'statements', max: 20, windowMs: 60_000 } } };
  // The page's summary follows each choice of period: looked at more often than files are made.
  const viewLimited = { config: { userRateLimit: { bucket: 'statement-views', max: 60, windowMs: 60_000 } } };
  const price = (symbol: string, value: number | null) => (value === null ? '—' : value.toFixed(book.instruments.get(symbol)?.digits ?? 5));

  const statement = async (accountId: number | null, q: { from: string; to: string }) => {
    if (accountId === null) throw refuse.invalid('You have no trading account.');
    const now = ctx.now();
    const s = await buildStatement(ctx.db, market, accountId, statementRange(q.from, q.to, now), now);
    if (!s) throw refuse.notFound('No such trading account.');
    return s;
  };

  const file = async (s: Statement, format: 'pdf' | 'csv') => {
    const { first, last } = periodDays(s);
    const name = `statement-${s.account.number}-${first}-to-${last}`;
    if (format === 'csv') {
      const csv = statementCsv(s, ctx.config.brokerName, price);
      return new BytesFile(`${name}.csv`, 'text/csv; charset=utf-8', Buffer.from(csv.text, 'utf8'), csv.lines);
    }
    return new BytesFile(`${name}.pdf`, 'application/pdf', await statementPdf(s, ctx.config.brokerName, price), s.trades.length + s.operations.length + s.openPositions.length);
  };

  registerCall(app, calls.getStatement, async ({ query, session }) => answerOf(await statement(session.accountId, query)), viewLimited);
  registerCall(app, calls.downloadStatement, async ({ query, session }) => file(await statement(session.accountId, query), query.format), limited);
  registerCall(app, calls.downloadAccountStatement, async ({ query }) => file(await statement(query.accountId, query), query.format), limited);
}
