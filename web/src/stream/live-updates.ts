import type { QueryClient } from '@tanstack/react-query';
import type { AccountEvent, AccountsResponse } from '@tradeport/contracts';
import { ORDER_REASONS } from '@tradeport/contracts/messages';
import { queryKeys } from '../api/queries';
import { ACCOUNT_KEYS, accountLabel, currentAccountOf, shownAccountId } from '../api/trading-accounts';
import { formatUsd, formatVolume } from '../format/format';

const STATUS_NAMES = { '0': 'pending', '1': 'approved', '2': 'rejected', '3': 'cancelled' } as const;

/** What each account event changes on the server, as query keys to refetch. */
export function keysForEvent(event: AccountEvent): readonly (readonly unknown[])[] {
  switch (event.type) {
    case 'moneyRequest.updated':
      return [event.kind === 'deposit' ? queryKeys.deposits : queryKeys.withdrawals, queryKeys.profile, queryKeys.margins, queryKeys.withdrawable, queryKeys.ledger];
    case 'balance.changed':
      // A balance operation of the broker is also a line of the trader's activity.
      return event.amount !== undefined ? [queryKeys.profile, queryKeys.margins, queryKeys.withdrawable, queryKeys.ledger, queryKeys.activity] : [queryKeys.profile, queryKeys.margins, queryKeys.withdrawable, queryKeys.ledger];
    case 'position.opened':
    case 'position.closed':
    case 'order.updated':
      return [queryKeys.trades, queryKeys.pendingOrders, queryKeys.tradesHistory, queryKeys.profile, queryKeys.margins, queryKeys.withdrawable, queryKeys.ledger];
    case 'account.marginCall':
    case 'account.stopOut':
      return [queryKeys.trades, queryKeys.margins, queryKeys.profile, queryKeys.tradesHistory, queryKeys.ledger];
    case 'position.modified':
      // Its owner's other device changed its levels, or its trailing stop moved the stop loss.
      return [queryKeys.trades];
    case 'alert.fired':
    case 'alert.changed':
      return [queryKeys.alerts];
    case 'account.changed':
      return [queryKeys.accounts];
    case 'account.sessionsRevoked':
      return [];
    case 'staff.rolesChanged':
      // The back office's menu, pages and buttons follow the session's permissions.
      return [queryKeys.session];
  }
}

/** The trading account an event is about, if any (all but the end of sessions). */
const accountOf = (event: AccountEvent): number | null => ('accountId' in event ? event.accountId : null);

/**
 * Whether the screens show the account an event is about: the chosen account, or (none chosen, or
 * not the person's) the first live one. Unknown until the accounts have loaded: then taken as shown.
 */
export function showsAccount(client: QueryClient, accountId: number | null): boolean {
  if (accountId === null) return true;
  const accounts = client.getQueryData<AccountsResponse>(queryKeys.accounts)?.data;
  if (!accounts) return true;
  const shown = currentAccountOf(accounts, shownAccountId());
  return shown === undefined || shown.id === accountId;
}

/** The account an event is about as people read it ("Demo 12345678"), when the list of accounts has it. */
export function eventAccountLabel(client: QueryClient, event: AccountEvent): string | null {
  const id = accountOf(event);
  const account = id === null ? undefined : client.getQueryData<AccountsResponse>(queryKeys.accounts)?.data.find((a) => a.id === id);
  return account ? accountLabel(account) : null;
}

/** A toast for the events a trader should hear about even when the screen does not show them. */
export function toastForEvent(event: AccountEvent): { title: string; message: string; color: 'green' | 'red' | 'yellow' | 'blue' } | null {
  switch (event.type) {
    case 'moneyRequest.updated': {
      // A new request and the trader's own cancel answer on the screen that made them.
      if (event.status === '0' || event.status === '3') return null;
      const what = event.kind === 'deposit' ? 'Deposit' : 'Withdrawal';
      const approved = event.status === '1';
      return {
        title: `${what} ${STATUS_NAMES[event.status]}`,
        message: `Your ${event.kind} request #${event.requestId} of ${formatUsd(event.amount)} USD was ${STATUS_NAMES[event.status]}.${event.reason ? ` Reason: ${event.reason}` : ''}`,
        color: approved ? 'green' : 'red',
      };
    }
    case 'balance.changed': {
      // Only the back office's balance operations: deposits, withdrawals and closes have their own notices.
      if (event.amount === undefined || (event.reason !== 'adjustment' && event.reason !== 'credit')) return null;
      const adds = !event.amount.startsWith('-');
      const amount = `${adds ? '+' : '-'}${formatUsd(event.amount.replace(/^-/, ''))} USD`;
      const title = event.reason === 'credit' ? (adds ? 'Credit granted' : 'Credit removed') : 'Balance adjusted by the broker';
      return { title, message: `${amount}${event.memo ? `: ${event.memo}` : ''}`, color: adds ? 'green' : 'yellow' };
    }
    case 'position.closed': {
      const why = { manual: 'closed', admin: 'closed by the broker', sl: 'closed by stop loss', tp: 'closed by take profit', 'stop-out': 'closed by stop-out' }[event.reason];
      if (event.reason === 'manual') return null;
      return { title: `Position #${event.ticket} ${why}`, message: `${event.symbol} at ${event.price}, profit ${formatUsd(event.profit)} USD.`, color: event.reason === 'tp' ? 'green' : event.reason === 'sl' ? 'yellow' : 'red' };
    }
    case 'order.updated': {
      // The trader's own cancel answers on screen; a fill, an expiry or a rejection happens later.
      const what = `${event.orderType.replace(/(^|_)(\w)/g, (_m, gap: string, c: string) => (gap ? ' ' : '') + c.toUpperCase())} ${formatVolume(event.volume)} ${event.symbol}`;
      if (event.status === 'filled') return { title: `Order #${event.orderId} filled`, message: `${what} opened position${event.ticket !== null ? ` #${event.ticket}` : ''}.`, color: 'green' };
      if (event.status === 'expired') return { title: `Order #${event.orderId} expired`, message: `${what} reached its expiry and was removed.`, color: 'yellow' };
      if (event.status === 'rejected') return { title: `Order #${event.orderId} rejected`, message: `${what}: ${event.reason || 'it could not be filled.'}`, color: 'red' };
      // A change the trader did not make: the broker's back office changed or cancelled the order.
      if (event.status === 'cancelled' && event.reason === ORDER_REASONS.cancelledByBackOffice) return { title: `Order #${event.orderId} cancelled by the broker`, message: `${what} was cancelled and will not fill.`, color: 'yellow' };
      if (event.status === 'pending' && event.reason === ORDER_REASONS.modifiedByBackOffice) return { title: `Order #${event.orderId} changed by the broker`, message: `${what}: see its new levels under Pending Orders.`, color: 'blue' };
      return null;
    }
    case 'alert.fired':
      return { title: `Price alert: ${event.symbol} ${event.price} ${event.direction} ${event.level}`, message: `The ${event.price} reached ${event.reached}.${event.note ? ` ${event.note}` : ''}`, color: 'blue' };
    case 'account.marginCall':
      return { title: 'Margin call', message: `Your margin level is ${event.marginLevel}%. Add funds or close positions to avoid a stop-out.`, color: 'red' };
    case 'account.stopOut': {
      const waiting = event.notClosable.length ? ` ${event.notClosable.length} position(s) could not be closed yet (market closed or no recent price).` : '';
      const closed = event.ticket !== null ? ` Position #${event.ticket}, the largest loss, was closed.` : '';
      return { title: 'Stop-out', message: `Your margin level fell to ${event.marginLevel}%.${closed}${waiting}`, color: 'red' };
    }
    default:
      return null;
  }
}

/**
 * Refetches what an event changed. An event about another of the trader's accounts than the one
 * shown changes only the list of accounts (its figures there): the screens' rows are the shown
 * account's, and must not be refetched as if they were its.
 */
export function invalidateForEvent(client: QueryClient, event: AccountEvent): void {
  const shown = showsAccount(client, accountOf(event));
  const accountKeys: readonly (readonly unknown[])[] = ACCOUNT_KEYS;
  for (const key of keysForEvent(event)) {
    if (!shown && accountKeys.includes(key)) continue;
    void client.invalidateQueries({ queryKey: key });
  }
  // The bell may have something new (the server wrote it with the change); a stop moved is never one.
  if (event.type !== 'account.sessionsRevoked' && event.type !== 'position.modified') void client.invalidateQueries({ queryKey: queryKeys.notifications });
  // Alerts are the trader's, not an account's: the accounts' figures do not change with them.
  // A stop or take profit moved changes no account's figures either (a trailing stop moves often).
  if (event.type !== 'account.sessionsRevoked' && event.type !== 'account.changed' && event.type !== 'alert.fired' && event.type !== 'alert.changed' && event.type !== 'position.modified') void client.invalidateQueries({ queryKey: queryKeys.accounts });
}

/** After a reconnect or a gap, refetch everything an event could have changed. */
export function invalidateAccountData(client: QueryClient): void {
  for (const key of [queryKeys.session, queryKeys.deposits, queryKeys.withdrawals, queryKeys.profile, queryKeys.margins, queryKeys.tradesHistory, queryKeys.trades, queryKeys.pendingOrders, queryKeys.alerts, queryKeys.notifications, queryKeys.withdrawable, queryKeys.ledger, queryKeys.accounts]) void client.invalidateQueries({ queryKey: key });
}
