import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Permission } from '@tradeport/contracts';
import type { PeriodName } from '@tradeport/contracts/periods';
import { callApi, type CallInput } from './client';
import { queryKeys } from './query-keys';
import { appConfigQuery, CANDLE_PAGE, candlesQuery, profileQuery, symbolsQuery, tradesHistoryQuery } from './query-options';
import { sessionQuery } from './session-query';

export { queryKeys, sessionQuery };
export { useLogin, useRegistration, useRequestPasswordReset, useResetPassword } from './auth-queries';
export type { Session } from './session-query';

export function useSession() {
  return useQuery(sessionQuery);
}

/**
 * Whether the signed-in staff member holds a permission (docs/design.md#staff-roles): the back
 * office shows only the buttons the person may use. Follows a change of roles at once.
 */
export function useCan(): (permission: Permission) => boolean {
  const permissions = useSession().data?.permissions;
  return (permission) => permissions?.includes(permission) ?? false;
}

export function useProfile() {
  return useQuery(profileQuery);
}

export function useDeposits() {
  return useQuery({ queryKey: queryKeys.deposits, queryFn: ({ signal }) => callApi('getTraderDeposites', undefined, { signal }) });
}

export function useWithdrawals() {
  return useQuery({ queryKey: queryKeys.withdrawals, queryFn: ({ signal }) => callApi('getTraderWithdrawals', undefined, { signal }) });
}

export function useActivePaymentAccounts() {
  return useQuery({ queryKey: queryKeys.activePaymentAccounts, queryFn: ({ signal }) => callApi('getPaymentGetwaysActive', undefined, { signal }) });
}

/** The activity log, one page at a time (`before` = the last id of the previous page). */
export function useActivity(before: number | undefined, limit: number) {
  return useQuery({
    queryKey: [...queryKeys.activity, before ?? 'latest', limit],
    queryFn: ({ signal }) => callApi('getActivity', { limit: limit + 1, before }, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useTradesHistory(enabled = true) {
  return useQuery({ ...tradesHistoryQuery, enabled });
}

export function useMargins(enabled = true) {
  return useQuery({ queryKey: queryKeys.margins, queryFn: ({ signal }) => callApi('getMargins', undefined, { signal }), enabled });
}

export function useSymbols() {
  return useQuery(symbolsQuery);
}

/** A symbol's latest candles; by default the charts' first page, so a page and its chart share one request. */
export function useCandles(symbol: string, period: PeriodName, limit = CANDLE_PAGE) {
  return useQuery(candlesQuery(symbol, period, limit));
}

export function useCountries() {
  return useQuery({ queryKey: queryKeys.countries, queryFn: ({ signal }) => callApi('getCountries', undefined, { signal }), staleTime: Infinity });
}

/** The market summary (every instrument's day); `enabled: false` until a screen shows it (the price table's change column). */
export function useMarketSummary(enabled = true) {
  return useQuery({ queryKey: queryKeys.marketSummary, queryFn: ({ signal }) => callApi('getMarketSummary', undefined, { signal }), refetchInterval: 60_000, enabled });
}

export function useAppConfig() {
  return useQuery(appConfigQuery);
}

export function useLegalDocuments() {
  return useQuery({ queryKey: queryKeys.legalDocuments, queryFn: ({ signal }) => callApi('getLegalDocuments', undefined, { signal }), staleTime: 5 * 60_000 });
}

export function useLegalDocument(id: string) {
  return useQuery({ queryKey: queryKeys.legalDocument(id), queryFn: ({ signal }) => callApi('getLegalDocument', { id }, { signal }), staleTime: 5 * 60_000 });
}

// ------------------------------------------------------------------ mutations





export function useChangePassword() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CallInput<'changePassword'>) => callApi('changePassword', input),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.activity }),
  });
}

export function useEditProfile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CallInput<'editProfileDetails'>) => callApi('editProfileDetails', input),
    onSuccess: () => Promise.all([client.invalidateQueries({ queryKey: queryKeys.profile }), client.invalidateQueries({ queryKey: queryKeys.session })]),
  });
}

export function useAddDeposit() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ input, idempotencyKey }: { input: CallInput<'addDeposite'>; idempotencyKey: string }) => callApi('addDeposite', input, { idempotencyKey }),
    // Also after a failure: a time-out may hide a request the server did file.
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.deposits }),
  });
}

export function useAddWithdrawal() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ input, idempotencyKey }: { input: CallInput<'addWithdrawal'>; idempotencyKey: string }) => callApi('addWithdrawal', input, { idempotencyKey }),
    onSettled: () => Promise.all([client.invalidateQueries({ queryKey: queryKeys.withdrawals }), client.invalidateQueries({ queryKey: queryKeys.margins }), client.invalidateQueries({ queryKey: queryKeys.withdrawable })]),
  });
}

/** What a withdrawal may take now; the pending withdrawals are set aside. */
export function useWithdrawable() {
  return useQuery({ queryKey: queryKeys.withdrawable, queryFn: ({ signal }) => callApi('getWithdrawable', undefined, { signal }) });
}

/** The trader takes back an own pending request; the lists and figures refetch whatever the answer. */
export function useCancelMoneyRequest() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id }: { id: number; kind: 'deposit' | 'withdrawal' }) => callApi('cancelMoneyRequest', { id }),
    onSettled: (_data, _error, { kind }) =>
      Promise.all([client.invalidateQueries({ queryKey: kind === 'deposit' ? queryKeys.deposits : queryKeys.withdrawals }), client.invalidateQueries({ queryKey: queryKeys.withdrawable }), client.invalidateQueries({ queryKey: queryKeys.activity })]),
  });
}

/** Sign-out: the server ends the session; every cached answer of this user is dropped. */
export async function signOut(client: QueryClient): Promise<void> {
  await callApi('logout');
  client.clear();
}
