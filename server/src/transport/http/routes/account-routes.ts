import { calls, type ProfileDetails } from '@tradeport/contracts';
import type { FastifyInstance } from 'fastify';
import { cancelRequest, createDeposit, createWithdrawal, getWithdrawable, listOwnDeposits, listOwnWithdrawals } from '../../../services/money-requests';
import { listActivePaymentAccounts } from '../../../services/payment-accounts';
import { editProfile, listActivity, profileOf, profileSources } from '../../../services/profile-service';
import { registerCall } from '../call-route';
import { answerCache, successData, successList, successMessage } from '../responses';

/** Calls a signed-in user makes about their own account: profile, activity, money requests. */
export function accountRoutes(app: FastifyInstance): void {
  const ctx = app.services;

  const profileAnswer = answerCache<{ status: 'success'; data: ProfileDetails[] }>(2);
  registerCall(app, calls.getProfileDetails, async ({ session }) => {
    const sources = await profileSources(ctx, session.userId);
    return profileAnswer([sources.user, sources.totals], () => successData([profileOf(sources)]));
  });

  registerCall(app, calls.editProfileDetails, async ({ body, session, client }) => {
    await editProfile(ctx, session.userId, body, client);
    return successMessage('Your profile has been updated.');
  });

  registerCall(app, calls.getActivity, async ({ query, session }) => successList(await listActivity(ctx, session.userId, query.limit, query.before)));

  registerCall(app, calls.getPaymentGetwaysActive, async () => successList(await listActivePaymentAccounts(ctx)));

  registerCall(app, calls.addDeposite, async ({ body, actor, idempotencyKey }) => createDeposit(ctx, actor, body, idempotencyKey));

  registerCall(app, calls.addWithdrawal, async ({ body, actor, idempotencyKey }) => createWithdrawal(ctx, actor, body, idempotencyKey));

  registerCall(app, calls.getWithdrawable, async ({ session }) => getWithdrawable(ctx, session.userId));

  registerCall(app, calls.cancelMoneyRequest, async ({ body, actor }) => successMessage(await cancelRequest(ctx, actor, body.id)));

  registerCall(app, calls.getTraderDeposites, async ({ session }) => successList(await listOwnDeposits(ctx, session.userId)));

  registerCall(app, calls.getTraderWithdrawals, async ({ session }) => successList(await listOwnWithdrawals(ctx, session.userId)));
}
