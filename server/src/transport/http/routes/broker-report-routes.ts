import { calls, type BrokerReportResponse } from '@tradeport/contracts';
import type { FastifyInstance } from 'fastify';
import { formatCents } from '../../../domain/money';
import { addFigures, brokerReport, brokerResultCents, emptyFigures, revenueCents, type ReportFigures } from '../../../services/broker-reports';
import { registerCall } from '../call-route';
import { CsvFile, exportFileName } from '../csv-file';

type Figures = BrokerReportResponse['totals'];

/** A report's figures as the API shows them: USD with two decimals. */
const figuresOf = (f: ReportFigures): Figures => ({
  newAccounts: f.newAccounts,
  deposits: formatCents(f.depositsCents),
  withdrawals: formatCents(f.withdrawalsCents),
  adjustments: formatCents(f.adjustmentsCents),
  commissions: formatCents(f.commissionsCents),
  swaps: formatCents(f.swapsCents),
  tradersProfit: formatCents(f.tradersProfitCents),
  markup: formatCents(f.markupCents),
  brokerResult: formatCents(brokerResultCents(f)),
  revenue: formatCents(revenueCents(f)),
});

const HEADER = ['Day (UTC)', 'Account type', 'New accounts', 'Deposits (USD)', 'Withdrawals (USD)', 'Adjustments (USD)', 'Commissions (USD)', 'Swaps (USD)', "Traders' realised profit (USD)", 'Broker result (USD)', 'Revenue (USD)', 'Spread markup earned (USD)'];
type CsvRow = Figures & { day: string; type: string };
const cells = (r: CsvRow) => [r.day, r.type, r.newAccounts, r.deposits, r.withdrawals, r.adjustments, r.commissions, r.swaps, r.tradersProfit, r.brokerResult, r.revenue, r.markup];

/**
 * The broker's reports (docs/design.md#broker-reports): per day and account type from the ledger,
 * with each type's totals and the range's, as JSON for the back office's Reports page and as CSV.
 */
export function brokerReportRoutes(app: FastifyInstance): void {
  const ctx = app.services;

  const report = async (query: { from: string; to: string; accountKind: 'live' | 'demo'; typeId?: number }) => {
    const rows = await brokerReport(ctx.db, { from: Date.parse(`${query.from}T00:00:00Z`), to: Date.parse(`${query.to}T00:00:00Z`), accountKind: query.accountKind, typeId: query.typeId });
    const allTypes = await ctx.db.selectFrom('account_types').select(['id', 'name', 'kind']).execute();
    const names = new Map(allTypes.map((t) => [t.id, t.name]));
    const name = (id: number) => names.get(id) ?? `#${id}`;
    const byName = (a: { typeId: number }, b: { typeId: number }) => name(a.typeId).localeCompare(name(b.typeId));
    const perType = new Map<number, ReportFigures>();
    const totals = emptyFigures();
    for (const r of rows) {
      let t = perType.get(r.typeId);
      if (!t) perType.set(r.typeId, (t = emptyFigures()));
      addFigures(t, r);
      addFigures(totals, r);
    }
    const data = [...rows].sort((a, b) => b.day - a.day || byName(a, b)).map((r) => ({ day: new Date(r.day).toISOString().slice(0, 10), typeId: r.typeId, type: name(r.typeId), ...figuresOf(r) }));
    const byType = [...perType].map(([typeId, f]) => ({ typeId, type: name(typeId), ...figuresOf(f) })).sort(byName);
    const types = allTypes.filter((t) => t.kind === query.accountKind).map((t) => ({ id: t.id, name: t.name })).sort((a, b) => a.name.localeCompare(b.name));
    return { status: 'success' as const, data, byType, totals: figuresOf(totals), types };
  };

  registerCall(app, calls.getBrokerReport, async ({ query }) => report(query));

  registerCall(app, calls.exportBrokerReport, async ({ query }) => {
    const r = await report(query);
    const rows: CsvRow[] = [...r.data, ...r.byType.map((t) => ({ ...t, day: `${query.from} to ${query.to}` })), { ...r.totals, day: `${query.from} to ${query.to}`, type: 'All types' }];
    async function* batches() {
      yield rows;
    }
    return CsvFile.of({ fileName: exportFileName('broker-report', query, ctx.now()), rowsName: 'report rows', header: HEADER, total: rows.length, batches: batches(), cells });
  });
}
