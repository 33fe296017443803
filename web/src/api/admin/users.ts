import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { ApiError, callApi, type CallOutput } from '../client';
import { invalidate, optimisticChange } from './cache';
import { adminQueryKeys, PENDING_REFETCH_MS, type TradersQuery } from './keys';

/** The back office's users: the searched list, one user's page, and the changes made to a user. */

export type TraderRow = CallOutput<'getTraders'>['data'][number];
export type TraderDetails = CallOutput<'getTraderDetails'>;
type Traders = CallOutput<'getTraders'>;

/**
 * Users searched, ordered and paged on the server (`total`, `active` and `online` count every match).
 * The page shown stays while the next one loads.
 */
export function useTraders(query: TradersQuery, enabled = true) {
  return useQuery({
    queryKey: adminQueryKeys.tradersList(query),
    queryFn: ({ signal }) => callApi('getTraders', query, { signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** One user's back-office page; refreshed every 10 s (positions and account figures move with prices). */
export function useTraderDetails(traderId: number) {
  return useQuery({
    queryKey: adminQueryKeys.traderDetailsOf(traderId),
    queryFn: ({ signal }) => callApi('getTraderDetails', { traderId }, { signal }),
    refetchInterval: PENDING_REFETCH_MS,
    enabled: Number.isInteger(traderId) && traderId > 0,
    retry: (count, error) => count < 2 && !(error instanceof ApiError && error.httpStatus === 404),
  });
}

export interface TraderStatusInput {
  id: number;
  isActive: '1' | '0';
}

/**
 * Activating or deactivating a user as every cached page shows it: the row (and the page's counts)
 * change at once, and if the server refuses, the row comes back as it was wherever it still shows
 * what was asked (a refetch may already have put it right).
 */
export function traderStatusChange(client: QueryClient) {
  return optimisticChange<TraderStatusInput, Traders, TraderRow | undefined>(client, adminQueryKeys.traders, {
    remember: ({ id }, answers) => answers.map(([, answer]) => answer.data.find((t) => t.id === id)).find((row) => row !== undefined),
    apply: (answer, { id, isActive }) => replaceTrader(answer, id, (t) => (t.isActive === isActive ? t : { ...t, isActive, status: isActive === '0' ? 'Offline' : t.status })),
    undo: (answer, { id, isActive }, previous) => (previous ? replaceTrader(answer, id, (t) => (t.isActive === isActive ? previous : t)) : answer),
  });
}

export function useEditTraderStatus() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: TraderStatusInput) => callApi('editStatusTraders', input),
    ...traderStatusChange(client),
    onSettled: () => invalidate(client, [adminQueryKeys.traders, adminQueryKeys.traderDetails, adminQueryKeys.auditLog]),
  });
}

/** An answer of getTraders with one user's row changed by `change`, its counts following the row. */
function replaceTrader(answer: Traders, id: number, change: (row: TraderRow) => TraderRow): Traders {
  const row = answer.data.find((t) => t.id === id);
  if (!row) return answer;
  const next = change(row);
  if (next === row) return answer;
  const count = (t: TraderRow, field: 'active' | 'online') => (field === 'active' ? (t.isActive === '1' ? 1 : 0) : t.status === 'Online' ? 1 : 0);
  return {
    ...answer,
    active: answer.active - count(row, 'active') + count(next, 'active'),
    online: answer.online - count(row, 'online') + count(next, 'online'),
    data: answer.data.map((t) => (t.id === id ? next : t)),
  };
}

export function useEditTraderPassword() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { trader_id: number; newPassword: string }) => callApi('editTraderPassword', input),
    // The trader's sessions end, so their Online state changes too.
    onSuccess: () => invalidate(client, [adminQueryKeys.traders, adminQueryKeys.traderDetails, adminQueryKeys.auditLog]),
  });
}

/** A trader's trading accounts with their figures (the trader page's Accounts tab). */
export function useTraderAccounts(traderId: number) {
  return useQuery({
    queryKey: adminQueryKeys.traderAccountsOf(traderId),
    queryFn: ({ signal }) => callApi('getTraderAccounts', { traderId }, { signal }),
    refetchInterval: PENDING_REFETCH_MS,
  });
}

/** Make an account active, close-only or disabled; the trader's page and the audit log follow. */
export function useSetAccountState() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { accountId: number; state: 'active' | 'close-only' | 'disabled' }) => callApi('setAccountState', input),
    onSettled: () => invalidate(client, [adminQueryKeys.traderDetails, adminQueryKeys.auditLog]),
  });
}

/** Reset a trader's demo account (audited). */
export function useAdminResetDemo() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { accountId: number }) => callApi('adminResetDemoAccount', input),
    onSettled: () => invalidate(client, [adminQueryKeys.traderDetails, adminQueryKeys.auditLog, adminQueryKeys.openTrades, adminQueryKeys.closedTrades]),
  });
}

/** Resets a trader's second factor (support: a lost phone); their sessions end. */
export function useResetTraderTwoFactor() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { userId: number }) => callApi('resetTraderTwoFactor', input),
    onSettled: () => invalidate(client, [adminQueryKeys.traders, adminQueryKeys.traderDetails, adminQueryKeys.auditLog]),
  });
}

/** One person's recent sign-in attempts (the trader page's Sign-ins tab). */
export function useTraderSignIns(traderId: number) {
  return useQuery({ queryKey: adminQueryKeys.traderSignInsOf(traderId), queryFn: ({ signal }) => callApi('getTraderSignIns', { traderId }, { signal }) });
}
