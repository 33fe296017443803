import { calls } from '@tradeport/contracts';
import type { FastifyInstance } from 'fastify';
import { auditBatches, countAudit } from '../../../services/audit';
import { refuse, Refusal } from '../../../services/errors';
import { exportRequests } from '../../../services/money-request-lists';
import { editPaymentAccount } from '../../../services/payment-accounts';
import { registerCall } from '../call-route';
import { CsvFile, exportFileName } from '../csv-file';
import { auditColumns, moneyRequestColumns } from '../export-columns';
import { successMessage } from '../responses';

/**
 * The back office's exports (money requests and the audit log; closed trades are exported beside
 * their list in trading-routes.ts) and its changes to a trader's pending orders. Admins only.
 */
export function backOfficeRoutes(app: FastifyInstance): void {
  const ctx = app.services;
  const engine = app.trading;

  registerCall(app, calls.exportMoneyRequests, async ({ query }) => {
    const { total, batches } = await exportRequests(ctx, query);
    const what = query.type === 'deposit' ? 'deposit-requests' : query.type === 'withdrawal' ? 'withdrawal-requests' : 'money-requests';
    return CsvFile.of({ fileName: exportFileName(what, query, ctx.now()), rowsName: 'requests', header: moneyRequestColumns.header, total, batches, cells: moneyRequestColumns.cells });
  });

  registerCall(app, calls.exportAuditLog, async ({ query }) => {
    const total = await countAudit(ctx, query);
    return CsvFile.of({ fileName: exportFileName('audit-log', { traderId: query.subjectId, from: query.from, to: query.to }, ctx.now()), rowsName: 'audit entries', header: auditColumns.header, total, batches: auditBatches(ctx, query), cells: auditColumns.cells });
  });

  // A trader's pending order, through the engine's own command with the trader's checks; the owner
  // named in the call must be the order's, or it is not found (404), as a trader's own call finds
  // no one else's order.
  const notTheirs = (orderId: number, traderId: number) => (err: unknown) => {
    if (err instanceof Refusal && err.kind === 'not-found') throw refuse.notFound(`Order #${orderId} is not a pending order of trader #${traderId}.`);
    throw err;
  };

  registerCall(app, calls.modifyTraderOrder, async ({ body, actor }) => {
    const change = { price: body.price, stopLimitPrice: body.stopLimitPrice, stopLoss: body.stopLoss, takeProfit: body.takeProfit, expiresAt: body.expiration };
    await engine.modifyOrder(actor, body.orderId, change, { owner: body.traders_id }).catch(notTheirs(body.orderId, body.traders_id));
    return successMessage(`Order #${body.orderId} of trader #${body.traders_id} changed.`);
  });

  registerCall(app, calls.cancelTraderOrder, async ({ body, actor }) => {
    await engine.cancelOrder(actor, body.orderId, { owner: body.traders_id }).catch(notTheirs(body.orderId, body.traders_id));
    return successMessage(`Order #${body.orderId} of trader #${body.traders_id} cancelled.`);
  });
}

/** The back office's form calls added here (multipart, JSON accepted too): registered with the other form calls (plugins/routes.ts). */
export function backOfficeFormRoutes(app: FastifyInstance): void {
  const ctx = app.services;
  registerCall(app, calls.editPayments, async ({ body, actor }) => successMessage(await editPaymentAccount(ctx, actor, body)));
}
