import { calls } from '@tradeport/contracts';
import type { FastifyInstance } from 'fastify';
import { listOwnDeposits, listOwnWithdrawals } from '../../../services/money-request-lists';
import { cancelRequest, createDeposit, createWithdrawal, getWithdrawable } from '../../../services/money-requests';
import { listActivePaymentAccounts } from '../../../services/payment-accounts';
import { editProfile, listActivity, profileDetails } from '../../../services/profile-service';
import { registerCall } from '../call-route';
import { successData, successMessage } from '../responses';

/** Calls a signed-in user makes about their own account: profile, activity, money requests. */
export function accountRoutes(app: FastifyInstance): void {
  const ctx = app.services;

  registerCall(app, calls.getProfileDetails, async ({ session }) => successData([await profileDetails(ctx, session.userId)]));

  registerCall(app, calls.editProfileDetails, async ({ body, session, client }) => {
    await editProfile(ctx, session.userId, body, client);
    return successMessage('Your profile has been updated.');
  });

  registerCall(app, calls.getActivity, async ({ query, session }) => successData(await listActivity(ctx, session.userId, query.limit, query.before)));

  registerCall(app, calls.getPaymentGetwaysActive, async () => successData(await listActivePaymentAccounts(ctx)));

  registerCall(app, calls.addDeposite, async ({ body, actor, idempotencyKey }) => createDeposit(ctx, actor, body, idempotencyKey));

  registerCall(app, calls.addWithdrawal, async ({ body, actor, idempotencyKey }) => createWithdrawal(ctx, actor, body, idempotencyKey));

  registerCall(app, calls.getWithdrawable, async ({ actor }) => getWithdrawable(ctx, actor));

  registerCall(app, calls.cancelMoneyRequest, async ({ body, actor }) => successMessage(await cancelRequest(ctx, actor, body.id)));

  registerCall(app, calls.getTraderDeposites, async ({ session }) => successData(await listOwnDeposits(ctx, session.userId)));

  registerCall(app, calls.getTraderWithdrawals, async ({ session }) => successData(await listOwnWithdrawals(ctx, session.userId)));
}
