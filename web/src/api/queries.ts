import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { PeriodName } from '@tradeport/contracts';
import { callApi, type CallInput } from './client';

/**
 * One hook per resource. Query keys live here only, so a mutation or a stream event invalidates
 * exactly what it changed (see `invalidateForEvent` in stream/live-updates.ts).
 */
export const queryKeys = {
  session: ['session'] as const,
  profile: ['profile'] as const,
  deposits: ['deposits'] as const,
  withdrawals: ['withdrawals'] as const,
  activePaymentAccounts: ['payment-accounts', 'active'] as const,
  activity: ['activity'] as const,
  tradesHistory: ['trades-history'] as const,
  margins: ['margins'] as const,
  symbols: ['symbols'] as const,
  candles: (symbol: string, period: PeriodName) => ['candles', symbol, period] as const,
  marketSummary: ['market-summary'] as const,
  countries: ['countries'] as const,
  appConfig: ['app-config'] as const,
  legalDocuments: ['legal'] as const,
  legalDocument: (id: string) => ['legal', id] as const,
};

export const sessionQuery = queryOptions({
  queryKey: queryKeys.session,
  queryFn: ({ signal }) => callApi('testSession', undefined, { signal }),
  staleTime: 30_000,
});

export type Session = Awaited<ReturnType<typeof callApi<'testSession'>>>;

export function useSession() {
  return useQuery(sessionQuery);
}

export function useProfile() {
  return useQuery({ queryKey: queryKeys.profile, queryFn: ({ signal }) => callApi('getProfileDetails', undefined, { signal }) });
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
  return useQuery({ queryKey: queryKeys.tradesHistory, queryFn: ({ signal }) => callApi('getTradesHistory', undefined, { signal }), enabled });
}

export function useMargins(enabled = true) {
  return useQuery({ queryKey: queryKeys.margins, queryFn: ({ signal }) => callApi('getMargins', undefined, { signal }), enabled });
}

export function useSymbols() {
  return useQuery({ queryKey: queryKeys.symbols, queryFn: ({ signal }) => callApi('getMainCurrencies', undefined, { signal }), staleTime: 10 * 60_000 });
}

export function useCandles(symbol: string, period: PeriodName, limit = 300) {
  return useQuery({
    queryKey: [...queryKeys.candles(symbol, period), limit],
    queryFn: ({ signal }) => callApi('getCandles', { symbol, period, limit }, { signal }),
    staleTime: 60_000,
  });
}

export function useCountries() {
  return useQuery({ queryKey: queryKeys.countries, queryFn: ({ signal }) => callApi('getCountries', undefined, { signal }), staleTime: Infinity });
}

export function useMarketSummary() {
  return useQuery({ queryKey: queryKeys.marketSummary, queryFn: ({ signal }) => callApi('getMarketSummary', undefined, { signal }), refetchInterval: 60_000 });
}

export function useAppConfig() {
  return useQuery({ queryKey: queryKeys.appConfig, queryFn: ({ signal }) => callApi('getAppConfig', undefined, { signal }), staleTime: Infinity, retry: 1 });
}

export function useLegalDocuments() {
  return useQuery({ queryKey: queryKeys.legalDocuments, queryFn: ({ signal }) => callApi('getLegalDocuments', undefined, { signal }), staleTime: 5 * 60_000 });
}

export function useLegalDocument(id: string) {
  return useQuery({ queryKey: queryKeys.legalDocument(id), queryFn: ({ signal }) => callApi('getLegalDocument', { id }, { signal }), staleTime: 5 * 60_000 });
}

// ------------------------------------------------------------------ mutations

export function useLogin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CallInput<'login'>) => callApi('login', input),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.session }),
  });
}

export function useRegistration() {
  return useMutation({ mutationFn: (input: CallInput<'registration'>) => callApi('registration', input) });
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: (input: CallInput<'requestPasswordReset'>) => callApi('requestPasswordReset', input) });
}

export function useResetPassword() {
  return useMutation({ mutationFn: (input: CallInput<'resetPassword'>) => callApi('resetPassword', input) });
}

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
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.deposits }),
  });
}

export function useAddWithdrawal() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ input, idempotencyKey }: { input: CallInput<'addWithdrawal'>; idempotencyKey: string }) => callApi('addWithdrawal', input, { idempotencyKey }),
    onSuccess: () => Promise.all([client.invalidateQueries({ queryKey: queryKeys.withdrawals }), client.invalidateQueries({ queryKey: queryKeys.margins })]),
  });
}

/** Sign-out: the server ends the session; every cached answer of this user is dropped. */
export async function signOut(client: QueryClient): Promise<void> {
  try {
    await callApi('logout');
  } finally {
    client.clear();
  }
}
