import { isAdminEvent, NOTIFICATION_KIND_LABELS, NOTIFICATION_KINDS, NOTIFICATIONS_SHOWN, type BusEvent, type NotificationKind, type NotificationRow } from '@tradeport/contracts';
import { ORDER_REASONS } from '@tradeport/contracts/messages';
import type { MailMessage } from '../mail/mailer';
import type { Db, Tx } from '../storage/db';
import { rowLimit } from '../storage/prepared';
/**
 * What notifications need of the service context (named here, not imported: `inTransaction` in
 * context.ts records them, so this module stays below it).
 */
interface NoticeContext {
  db: Db;
  mailer: { send(message: MailMessage): void };
  now(): number;
}

/** One notification to write: to whom, of what kind, and what it says. */
interface Notice {
  userId: number;
  kind: NotificationKind;
  title: string;
  body: string;
}

const ORDER_NAMES: Record<string, string> = { buy_limit: 'Buy Limit', sell_limit: 'Sell Limit', buy_stop: 'Buy Stop', sell_stop: 'Sell Stop', buy_stop_limit: 'Buy Stop Limit', sell_stop_limit: 'Sell Stop Limit' };
const CLOSE_WORDS = { sl: 'its stop loss', tp: 'its take profit', 'stop-out': 'a stop-out', admin: 'the broker' } as const;

/**
 * What the bell says of an event (docs/design.md#notifications), or null for those it does not tell
 * (the trader's own orders and closes answer on the screen that made them).
 */
export function noticeOf(e: BusEvent): Notice | null {
  if (isAdminEvent(e)) return null;
  switch (e.type) {
    case 'order.updated': {
      const what = `${ORDER_NAMES[e.orderType] ?? e.orderType} ${e.volume} ${e.symbol}`;
      if (e.status === 'filled') return { userId: e.userId, kind: 'fill', title: `Order #${e.orderId} filled`, body: `${what} opened position #${e.ticket ?? '—'}.` };
      if (e.status === 'expired') return { userId: e.userId, kind: 'order', title: `Order #${e.orderId} expired`, body: `${what} reached its expiry and was removed.` };
      if (e.status === 'rejected') return { userId: e.userId, kind: 'order', title: `Order #${e.orderId} rejected`, body: `${what}: ${e.reason || 'it could not be filled.'}` };
      if (e.status === 'cancelled' && e.reason === ORDER_REASONS.cancelledByBackOffice) return { userId: e.userId, kind: 'order', title: `Order #${e.orderId} cancelled by the broker`, body: `${what} was cancelled and will not fill.` };
      if (e.status === 'pending' && e.reason === ORDER_REASONS.modifiedByBackOffice) return { userId: e.userId, kind: 'order', title: `Order #${e.orderId} changed by the broker`, body: `${what}: see its new levels under Pending Orders.` };
      return null;
    }
    case 'position.closed':
      if (e.reason === 'manual') return null;
      return { userId: e.userId, kind: 'close', title: `Position #${e.ticket} closed by ${CLOSE_WORDS[e.reason]}`, body: `${e.symbol} at ${e.price}, profit ${e.profit} USD.` };
    case 'account.marginCall':
      return { userId: e.userId, kind: 'margin', title: 'Margin call', body: `Your margin level is ${e.marginLevel}% (equity ${e.equity} USD, margin ${e.margin} USD). Add funds or close positions to avoid a stop-out.` };
    case 'account.stopOut':
      return { userId: e.userId, kind: 'margin', title: 'Stop-out', body: `Your margin level fell to ${e.marginLevel}%.${e.ticket !== null ? ` Position #${e.ticket}, the largest loss, was closed.` : ''}${e.notClosable.length ? ` ${e.notClosable.length} position(s) could not be closed yet.` : ''}` };
    case 'moneyRequest.updated': {
      if (e.status !== '1' && e.status !== '2') return null;
      const what = e.kind === 'deposit' ? 'Deposit' : 'Withdrawal';
      const decided = e.status === '1' ? 'approved' : 'rejected';
      return { userId: e.userId, kind: 'money', title: `${what} ${decided}`, body: `Your ${e.kind} request #${e.requestId} of ${e.amount} USD was ${decided}.${e.reason ? ` Reason: ${e.reason}` : ''}` };
    }
    case 'balance.changed':
      if (e.amount === undefined || (e.reason !== 'adjustment' && e.reason !== 'credit')) return null;
      return { userId: e.userId, kind: 'balance', title: e.reason === 'credit' ? 'Credit changed by the broker' : 'Balance adjusted by the broker', body: `${e.amount.startsWith('-') ? '' : '+'}${e.amount} USD${e.memo ? `: ${e.memo}` : ''}. Balance now ${e.balance} USD.` };
    case 'alert.fired':
      return { userId: e.userId, kind: 'alert', title: `Price alert: ${e.symbol} ${e.price} ${e.direction} ${e.level}`, body: `The ${e.price} reached ${e.reached}.${e.note ? ` ${e.note}` : ''}` };
    default:
      return null;
  }
}

/**
 * Writes the notifications of a transaction's events in that transaction (so one is written if and
 * only if its change commits, once), and answers the mails to send after the commit: those of the
 * kinds their trader chose to have mailed (an alert's mail is the alert's own choice).
 */
export async function recordNotices(trx: Tx, events: readonly BusEvent[], now: number): Promise<MailMessage[]> {
  const notices = events.map(noticeOf).filter((n): n is Notice => n !== null);
  if (notices.length === 0) return [];
  await trx
    .insertInto('notifications')
    .values(notices.map((n) => ({ user_id: n.userId, kind: n.kind, title: n.title, body: n.body, created_at: now, read_at: null })))
    .execute();
  const mailable = notices.filter((n) => n.kind !== 'alert');
  if (mailable.length === 0) return [];
  const chosen = await trx
    .selectFrom('notification_settings as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['s.user_id', 's.kind', 'u.email', 'u.first_name'])
    .where('s.by_mail', '=', 1)
    .where('s.user_id', 'in', [...new Set(mailable.map((n) => n.userId))])
    .execute();
  const mails: MailMessage[] = [];
  for (const n of mailable) {
    const to = chosen.find((c) => c.user_id === n.userId && c.kind === n.kind);
    if (to) mails.push({ to: to.email, subject: n.title, text: `Hello ${to.first_name},\n\n${n.body}\n\nYou chose to have "${NOTIFICATION_KIND_LABELS[n.kind]}" mailed to you; you can change this in My Settings.\n` });
  }
  return mails;
}

/** Notifications of events published outside a transaction (a margin call): written on their own, then mailed. */
export async function recordNoticesNow(ctx: NoticeContext, events: readonly BusEvent[]): Promise<void> {
  const mails = await ctx.db.transaction().execute((trx) => recordNotices(trx, events, ctx.now()));
  for (const m of mails) ctx.mailer.send(m);
}

export async function notificationsOf(ctx: NoticeContext, userId: number): Promise<{ unread: number; data: NotificationRow[] }> {
  const rows = await ctx.db.selectFrom('notifications').selectAll().where('user_id', '=', userId).orderBy('id', 'desc').limit(rowLimit(NOTIFICATIONS_SHOWN)).execute();
  return { unread: await unreadOf(ctx, userId), data: rows.map((r) => ({ id: r.id, kind: r.kind, title: r.title, body: r.body, createdAt: new Date(Number(r.created_at)).toISOString(), read: r.read_at !== null })) };
}

async function unreadOf(ctx: NoticeContext, userId: number): Promise<number> {
  const r = await ctx.db.selectFrom('notifications').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).where('read_at', 'is', null).executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Marks own notifications read (those named, or all); answers how many stay unread. */
export async function markRead(ctx: NoticeContext, userId: number, which: { ids?: number[]; all?: boolean }): Promise<number> {
  let q = ctx.db.updateTable('notifications').set({ read_at: ctx.now() }).where('user_id', '=', userId).where('read_at', 'is', null);
  if (which.all !== true) q = q.where('id', 'in', which.ids ?? []);
  await q.execute();
  return unreadOf(ctx, userId);
}

export async function notificationSettingsOf(ctx: NoticeContext, userId: number) {
  const rows = await ctx.db.selectFrom('notification_settings').select(['kind', 'by_mail']).where('user_id', '=', userId).execute();
  return NOTIFICATION_KINDS.map((kind) => ({ kind, label: NOTIFICATION_KIND_LABELS[kind], byMail: kind !== 'alert' && rows.some((r) => r.kind === kind && r.by_mail === 1), mailChosenPerAlert: kind === 'alert' }));
}

export async function editNotificationSetting(ctx: NoticeContext, userId: number, kind: NotificationKind, byMail: boolean): Promise<void> {
  await ctx.db
    .insertInto('notification_settings')
    .values({ user_id: userId, kind, by_mail: byMail ? 1 : 0 })
    .onConflict((oc) => oc.columns(['user_id', 'kind']).doUpdateSet({ by_mail: byMail ? 1 : 0 }))
    .execute();
}
