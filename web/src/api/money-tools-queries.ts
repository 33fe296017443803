import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { adminQueryKeys, PENDING_REFETCH_MS } from './admin/keys';
import { callApi, type CallInput, type CallOutput } from './client';

/**
 * The back office's money tools: balance adjustments and credit, internal notes on money requests,
 * and the figures beside the withdrawal queue. Built like the hooks of api/admin/; every key starts with
 * 'admin', so signing out and the admin feed's broad invalidations reach them too.
 */
export const moneyToolKeys = {
  balanceOperations: ['admin', 'balance-operations'] as const,
  balanceOperationsOf: (traderId: number, limit: number, offset: number) => ['admin', 'balance-operations', traderId, limit, offset] as const,
  notes: ['admin', 'request-notes'] as const,
  notesOf: (requestId: number) => ['admin', 'request-notes', requestId] as const,
  withdrawalRisk: ['admin', 'withdrawal-risk'] as const,
  withdrawalRiskFor: (queue: string) => ['admin', 'withdrawal-risk', queue] as const,
};

export type BalanceOperationInput = CallInput<'addBalanceOperation'>;
export type BalanceOperationRow = CallOutput<'getTraderBalanceOperations'>['data'][number];
export type RequestNote = CallOutput<'getMoneyRequestNotes'>['data'][number];
export type WithdrawalRisk = CallOutput<'getWithdrawalRisk'>['data'][number];

function invalidate(client: QueryClient, keys: readonly QueryKey[]) {
  return Promise.all(keys.map((queryKey) => client.invalidateQueries({ queryKey })));
}

/** A trader's balance operations, newest first, one page at a time. */
export function useBalanceOperations(traderId: number, limit: number, offset: number) {
  return useQuery({
    queryKey: moneyToolKeys.balanceOperationsOf(traderId, limit, offset),
    queryFn: ({ signal }) => callApi('getTraderBalanceOperations', { traderId, limit, offset }, { signal }),
    placeholderData: keepPreviousData,
  });
}

/**
 * Adjusts a trader's balance or credit. The caller keeps one idempotency key per filled-in form,
 * so a double click or a retry after a time-out moves the money once.
 */
export function useAddBalanceOperation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ input, idempotencyKey }: { input: BalanceOperationInput; idempotencyKey: string }) => callApi('addBalanceOperation', input, { idempotencyKey }),
    // Also after a failure: a time-out may hide an operation the server did make.
    onSettled: () => invalidate(client, [moneyToolKeys.balanceOperations, adminQueryKeys.traderDetails, adminQueryKeys.traders, adminQueryKeys.auditLog, moneyToolKeys.withdrawalRisk]),
  });
}

/** A request's internal notes, oldest first (read when its notes are opened). */
export function useRequestNotes(requestId: number | null) {
  return useQuery({
    queryKey: moneyToolKeys.notesOf(requestId ?? 0),
    queryFn: ({ signal }) => callApi('getMoneyRequestNotes', { requestId: requestId ?? 0 }, { signal }),
    enabled: requestId !== null,
  });
}

/** Adds a note; the request's notes and the lists that count them are read again. */
export function useAddRequestNote() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { requestId: number; note: string }) => callApi('addMoneyRequestNote', input),
    onSuccess: (_answer, { requestId }) => invalidate(client, [moneyToolKeys.notesOf(requestId), adminQueryKeys.pendingDeposits, adminQueryKeys.pendingWithdrawals, adminQueryKeys.moneyRequests, adminQueryKeys.auditLog]),
  });
}

/**
 * The account figures of every trader in the withdrawal queue: live (the server values open
 * positions at its own prices), so they are read again as often as the queue, and at once whenever
 * the queue changes (`queue` names its requests: a new one, or one decided, changes it).
 */
export function useWithdrawalRisk(queue: readonly number[], enabled = true) {
  return useQuery({
    queryKey: moneyToolKeys.withdrawalRiskFor(queue.join(',')),
    queryFn: ({ signal }) => callApi('getWithdrawalRisk', undefined, { signal }),
    refetchInterval: PENDING_REFETCH_MS,
    placeholderData: keepPreviousData,
    enabled,
  });
}
