import { calls } from '@tradeport/contracts';
import type { FastifyInstance } from 'fastify';
import { auditBatches, countAudit } from '../../../services/audit';
import { exportRequests } from '../../../services/money-requests';
import { editPaymentAccount } from '../../../services/payment-accounts';
import { registerCall } from '../call-route';
import { CsvFile, exportFileName } from '../csv-file';
import { auditColumns, moneyRequestColumns } from '../export-columns';
import { successMessage } from '../responses';

/**
 * The back office's exports (money requests and the audit log; closed trades are exported beside
 * their list in trading-routes.ts) and the payment account edit. Admins only.
 */
export function backOfficeRoutes(app: FastifyInstance): void {
  const ctx = app.services;

  registerCall(app, calls.exportMoneyRequests, async ({ query }) => {
    const { total, batches } = await exportRequests(ctx, query);
    const what = query.type === 'deposit' ? 'deposit-requests' : query.type === 'withdrawal' ? 'withdrawal-requests' : 'money-requests';
    return CsvFile.of({ fileName: exportFileName(what, query, ctx.now()), rowsName: 'requests', header: moneyRequestColumns.header, total, batches, cells: moneyRequestColumns.cells });
  });

  registerCall(app, calls.exportAuditLog, async ({ query }) => {
    const total = await countAudit(ctx, query);
    return CsvFile.of({ fileName: exportFileName('audit-log', { traderId: query.subjectId, from: query.from, to: query.to }, ctx.now()), rowsName: 'audit entries', header: auditColumns.header, total, batches: auditBatches(ctx, query), cells: auditColumns.cells });
  });
}

/** The back office's form calls added here (multipart, JSON accepted too): registered with the other form calls (plugins/routes.ts). */
export function backOfficeFormRoutes(app: FastifyInstance): void {
  const ctx = app.services;
  registerCall(app, calls.editPayments, async ({ body, actor }) => successMessage(await editPaymentAccount(ctx, actor, body)));
}
