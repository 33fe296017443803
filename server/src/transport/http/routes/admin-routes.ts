import { calls, holds, permissionRefusal } from '@tradeport/contracts';
import type { FastifyInstance } from 'fastify';
import { setUserActive, setUserPassword, traderRow } from '../../../services/admin-users';
import { listAllRequests, listPendingDeposits, listPendingWithdrawals } from '../../../services/money-request-lists';
import { decideRequest } from '../../../services/money-requests';
import { listAudit, withTargetUsers } from '../../../services/audit';
import { addPaymentAccount, listPaymentAccounts, setPaymentAccountActive } from '../../../services/payment-accounts';
import { usersPage } from '../../../services/users-list';
import { registerCall } from '../call-route';
import { refuse } from '../../../services/errors';
import { resetTwoFactor } from '../../../services/two-factor-flows';
import { listSignIns } from '../../../services/sign-ins';
import { successData, successMessage } from '../responses';

/** The back office: users, money request decisions, payment accounts, audit log. Admins only. */
export function adminRoutes(app: FastifyInstance): void {
  const ctx = app.services;

  registerCall(app, calls.getTraders, async ({ query }) => ({ status: 'success' as const, ...(await usersPage(ctx, query)) }));

  registerCall(app, calls.getPendingDeposite, async () => successData(await listPendingDeposits(ctx)));

  registerCall(app, calls.editStatusDeposite, async ({ body, actor }) => successMessage(await decideRequest(ctx, actor, 'deposit', body.deposites_id, body.status, body.reason)));

  registerCall(app, calls.getPendingWithdrawal, async () => successData(await listPendingWithdrawals(ctx)));

  registerCall(app, calls.editStatusWithdrawal, async ({ body, actor }) => successMessage(await decideRequest(ctx, actor, 'withdrawal', body.withdrawals_id, body.status, body.reason, body.approval)));

  registerCall(app, calls.getMoneyRequests, async ({ query }) => ({ status: 'success' as const, ...(await listAllRequests(ctx, query)) }));

  registerCall(app, calls.getPaymentGetways, async () => successData(await listPaymentAccounts(ctx)));

  registerCall(app, calls.getAuditLog, async ({ query }) => successData(await withTargetUsers(ctx, await listAudit(ctx, query, query.limit, query.before))));
}

/**
 * The back office's calls the spec gives a form (multipart/form-data, JSON accepted too): registered
 * apart (plugins/routes.ts) so the multipart parser and its hooks serve these four calls only.
 */
export function adminFormRoutes(app: FastifyInstance): void {
  const ctx = app.services;

  registerCall(app, calls.editStatusTraders, async ({ body, actor }) => successMessage(await setUserActive(ctx, actor, body.id, body.isActive)));

  registerCall(app, calls.editTraderPassword, async ({ body, actor }) => successMessage(await setUserPassword(ctx, actor, body.trader_id, body.newPassword)));

  registerCall(app, calls.getTraderSignIns, async ({ query, actor }) => {
    const user = await traderRow(ctx, query.traderId);
    // A staff member's sign-ins are for administrators (who manage staff), as their password is.
    if (user.role === 'admin' && !holds(actor.staffRoles, 'staff.manage')) throw refuse.forbidden(permissionRefusal('staff.manage'));
    return successData(await listSignIns(ctx, query.traderId));
  });

  registerCall(app, calls.resetTraderTwoFactor, async ({ body, actor }) => successMessage(await resetTwoFactor(ctx, actor, body.userId, 'trader')));

  registerCall(app, calls.addNewPayments, async ({ body, actor }) => {
    const id = await addPaymentAccount(ctx, actor, body);
    return { ...successMessage(`Payment account ${body.name} added.`), id };
  });

  registerCall(app, calls.editStatusPayments, async ({ body, actor }) => successMessage(await setPaymentAccountActive(ctx, actor, body.id, body.isActive)));
}
