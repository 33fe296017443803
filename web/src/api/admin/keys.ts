import type { CallInput } from '../client';

/**
 * The back office's query keys, one per admin list or page. Every key starts with 'admin', so
 * signing out (which clears the cache) and broad invalidations reach all of them.
 */
export const adminQueryKeys = {
  all: ['admin'] as const,
  traders: ['admin', 'traders'] as const,
  tradersList: (query: TradersQuery) => ['admin', 'traders', query] as const,
  pendingDeposits: ['admin', 'pending-deposits'] as const,
  pendingWithdrawals: ['admin', 'pending-withdrawals'] as const,
  moneyRequests: ['admin', 'money-requests'] as const,
  moneyRequestsList: (filters: MoneyRequestFilters) => ['admin', 'money-requests', filters] as const,
  paymentAccounts: ['admin', 'payment-accounts'] as const,
  openTrades: ['admin', 'open-trades'] as const,
  openTradesList: (query: OpenTradesQuery) => ['admin', 'open-trades', query] as const,
  closedTrades: ['admin', 'closed-trades'] as const,
  closedTradesList: (filters: ClosedTradeFilters) => ['admin', 'closed-trades', filters] as const,
  auditLog: ['admin', 'audit-log'] as const,
  accountTypes: ['admin', 'account-types'] as const,
  /** The instrument catalogue as the back office edits it (every instrument, disabled ones too). */
  catalogue: ['admin', 'catalogue'] as const,
  exposure: (kind: 'live' | 'demo') => ['admin', 'exposure', kind] as const,
  brokerReport: (query: object) => ['admin', 'broker-report', query] as const,
  traderDetails: ['admin', 'trader'] as const,
  traderDetailsOf: (id: number) => ['admin', 'trader', id] as const,
  /** A trader's trading accounts (under the trader's key: what changes the trader changes them). */
  traderAccountsOf: (id: number) => ['admin', 'trader', id, 'accounts'] as const,
  traderSignInsOf: (id: number) => ['admin', 'trader', id, 'sign-ins'] as const,
  /** The back office's staff and their roles (Staff page). */
  staff: ['admin', 'staff'] as const,
  auditLogPage: (page: AuditPage) => ['admin', 'audit-log', page.filters ?? {}, page.before ?? 'latest', page.limit] as const,
};

/**
 * How often the pending queues (and the lists that move with prices) are re-read. New requests and
 * other administrators' decisions arrive live through the back-office feed (admin/live-queue.ts);
 * polling is the fallback while it is down.
 */
export const PENDING_REFETCH_MS = 10_000;

export type MoneyRequestKind = 'deposit' | 'withdrawal';
export type MoneyRequestFilters = CallInput<'getMoneyRequests'>;
export type ClosedTradeFilters = CallInput<'getClosedTrades'>;
export type TradersQuery = CallInput<'getTraders'>;
export type OpenTradesQuery = CallInput<'getOpenTrades'>;
/** The audit log's filters (who acted, whom it was about, the action, UTC days), as getAuditLog takes them. */
export type AuditFilters = Pick<CallInput<'getAuditLog'>, 'actorId' | 'subjectId' | 'action' | 'from' | 'to'>;
export interface AuditPage {
  /** The last id of the previous page; undefined for the newest entries. */
  before?: number;
  limit: number;
  filters?: AuditFilters;
}
