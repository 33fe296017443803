import { calls } from '@tradeport/contracts';
import type { FastifyInstance } from 'fastify';
import { refuse } from '../../../services/errors';
import { editNotificationSetting, markRead, notificationSettingsOf, notificationsOf } from '../../../services/notifications';
import { registerCall } from '../call-route';
import { successData } from '../responses';

/** The bell's notifications and the trader's choice of which are mailed too (docs/design.md#notifications). */
export function notificationRoutes(app: FastifyInstance): void {
  const ctx = app.services;

  registerCall(app, calls.getNotifications, async ({ session }) => ({ status: 'success' as const, ...(await notificationsOf(ctx, session.userId)) }));

  registerCall(app, calls.markNotificationsRead, async ({ body, session }) => ({ status: 'success' as const, unread: await markRead(ctx, session.userId, body) }));

  registerCall(app, calls.getNotificationSettings, async ({ session }) => successData(await notificationSettingsOf(ctx, session.userId)));

  registerCall(app, calls.editNotificationSettings, async ({ body, session }) => {
    if (body.kind === 'alert') throw refuse.invalid("A price alert's mail is chosen on each alert, when it is set or changed.");
    await editNotificationSetting(ctx, session.userId, body.kind, body.byMail);
    return successData(await notificationSettingsOf(ctx, session.userId));
  });
}
