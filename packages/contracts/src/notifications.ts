import { z } from 'zod';
import { idField, timestamp } from './common';

/**
 * What the bell tells a trader about (docs/design.md#notifications), each kind told in the app and,
 * if the trader chose so, by mail too. A price alert's mail is chosen on the alert itself.
 */
export const NOTIFICATION_KINDS = ['fill', 'order', 'close', 'margin', 'money', 'balance', 'alert'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** The kinds as the settings name them. */
export const NOTIFICATION_KIND_LABELS: Record<NotificationKind, string> = {
  fill: 'Pending orders filled',
  order: 'Pending orders expired, rejected, or changed by the broker',
  close: 'Positions closed by stop loss, take profit or the broker',
  margin: 'Margin calls and stop-outs',
  money: 'Deposits and withdrawals decided',
  balance: 'Balance and credit changed by the broker',
  alert: 'Price alerts',
};

/** How many notifications the bell lists (the newest). */
export const NOTIFICATIONS_SHOWN = 50;

export const notificationRow = z.object({
  id: z.number(),
  kind: z.enum(NOTIFICATION_KINDS),
  title: z.string(),
  body: z.string(),
  createdAt: timestamp,
  read: z.boolean(),
});
export type NotificationRow = z.infer<typeof notificationRow>;

/** The newest notifications (newest first) and how many of all are unread. */
export const notificationsResponse = z.object({ status: z.literal('success'), unread: z.number(), data: z.array(notificationRow) });

/** Marks the notifications named (own ones only), or all of them with `all`. */
export const markNotificationsReadRequest = z
  .object({
    ids: z.array(idField('Unknown notification.'), { error: 'ids must be a list of notification ids.' }).max(200, 'At most 200 ids at a time.').optional(),
    all: z.boolean({ error: 'all must be true or false.' }).optional(),
  })
  // On `ids`: a refusal of the whole body would read as a malformed one.
  .refine((b) => b.all === true || (b.ids !== undefined && b.ids.length > 0), { message: 'Name the notifications to mark read (ids), or all of them (all: true).', path: ['ids'] });
export const markNotificationsReadResponse = z.object({ status: z.literal('success'), unread: z.number() });

export const notificationSettingsResponse = z.object({
  status: z.literal('success'),
  data: z.array(z.object({ kind: z.enum(NOTIFICATION_KINDS), label: z.string(), byMail: z.boolean(), mailChosenPerAlert: z.boolean() })),
});
export const editNotificationSettingRequest = z.object({
  kind: z.enum(NOTIFICATION_KINDS, { error: `kind must be one of ${NOTIFICATION_KINDS.join(', ')}.` }),
  byMail: z.boolean({ error: 'byMail must be true or false.' }),
});
