import { keepPreviousData, useMutation, useMutationState, useQuery, useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { callApi, type CallOutput } from '../client';
import { invalidate, optimisticChange, withRows, type Listing } from './cache';
import { adminQueryKeys, PENDING_REFETCH_MS, type MoneyRequestFilters, type MoneyRequestKind } from './keys';

/**
 * The deposit and withdrawal queues (pending, decided here or elsewhere) and the history of every
 * request. The queues are kept live from the back-office feed by admin/live-queue.ts.
 */

export type Decision = 'approve' | 'reject';
export type PendingDepositRow = CallOutput<'getPendingDeposite'>['data'][number];
export type PendingWithdrawalRow = CallOutput<'getPendingWithdrawal'>['data'][number];
export type MoneyRequestRow = CallOutput<'getMoneyRequests'>['data'][number];

export const pendingKey = (kind: MoneyRequestKind) => (kind === 'deposit' ? adminQueryKeys.pendingDeposits : adminQueryKeys.pendingWithdrawals);
const decideKey = (kind: MoneyRequestKind) => ['admin', 'decide', kind] as const;

/**
 * The pending queue of one kind. Rows whose decision is on its way to the server are left out even
 * if a refetch brings them back before the server has answered, so a decided row never flickers.
 */
function usePendingQueue<Row extends { id: number }>(kind: MoneyRequestKind, queryKey: QueryKey, fetch: (signal: AbortSignal) => Promise<Listing<Row>>) {
  const deciding = useDecidingIds(kind);
  const select = useCallback((answer: Listing<Row>) => (deciding.size === 0 ? answer : withRows(answer, (rows) => rows.filter((row) => !deciding.has(row.id)))), [deciding]);
  return useQuery({ queryKey, queryFn: ({ signal }) => fetch(signal), refetchInterval: PENDING_REFETCH_MS, select });
}

export function usePendingDeposits() {
  return usePendingQueue<PendingDepositRow>('deposit', adminQueryKeys.pendingDeposits, (signal) => callApi('getPendingDeposite', undefined, { signal }));
}

export function usePendingWithdrawals() {
  return usePendingQueue<PendingWithdrawalRow>('withdrawal', adminQueryKeys.pendingWithdrawals, (signal) => callApi('getPendingWithdrawal', undefined, { signal }));
}

/** Every request, filtered and paged on the server (`limit`/`offset`, `total` in the answer). */
export function useMoneyRequests(filters: MoneyRequestFilters, enabled = true) {
  return useQuery({
    queryKey: adminQueryKeys.moneyRequestsList(filters),
    queryFn: ({ signal }) => callApi('getMoneyRequests', filters, { signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export interface DecisionInput {
  id: number;
  decision: Decision;
  /** A rejection's reason, shown to the trader. */
  reason?: string;
  /** A withdrawal needing two approvals: which one this is meant to be (the server refuses a mismatch). */
  approval?: 'first' | 'final';
}

/** The ids of requests of one kind whose decision has been sent and not yet answered. */
export function useDecidingIds(kind: MoneyRequestKind): ReadonlySet<number> {
  const ids = useMutationState({ filters: { mutationKey: decideKey(kind), status: 'pending' }, select: (m) => (m.state.variables as DecisionInput | undefined)?.id });
  // A new set only when the ids change, so the queue's `select` is not rerun on every render.
  const signature = ids.filter((id): id is number => id !== undefined).join(',');
  return useMemo(() => new Set(signature ? signature.split(',').map(Number) : []), [signature]);
}

/** A decision as the queue shows it: the row leaves at once, and comes back in id order (oldest first) if refused. */
export function decisionChange<Row extends { id: number }>(client: QueryClient, kind: MoneyRequestKind) {
  return optimisticChange<DecisionInput, Listing<Row>, Row | undefined>(client, pendingKey(kind), {
    remember: ({ id }, answers) => answers.map(([, answer]) => answer.data.find((r) => r.id === id)).find((row) => row !== undefined),
    // A first of two approvals leaves the request pending: it stays, and the refetch marks it.
    apply: (answer, { id, approval }) => (approval === 'first' ? answer : withRows(answer, (rows) => rows.filter((r) => r.id !== id))),
    undo: (answer, { id }, row) => (row && !answer.data.some((r) => r.id === id) ? withRows(answer, (rows) => [...rows, row].sort((a, b) => a.id - b.id)) : answer),
  });
}

/**
 * Approve or reject a pending request. The row leaves the queue at once; if the server refuses, it
 * is put back where it was (and the caller shows the server's message).
 */
function useDecide<Row extends { id: number }>(kind: MoneyRequestKind) {
  const client = useQueryClient();
  return useMutation({
    mutationKey: decideKey(kind),
    mutationFn: ({ id, decision, reason, approval }: DecisionInput) => {
      const status = decision === 'approve' ? 1 : 2;
      const why = decision === 'reject' && reason ? { reason } : {};
      const stage = decision === 'approve' && approval ? { approval } : {};
      return kind === 'deposit' ? callApi('editStatusDeposite', { deposites_id: id, status, ...why }) : callApi('editStatusWithdrawal', { withdrawals_id: id, status, ...why, ...stage });
    },
    ...decisionChange<Row>(client, kind),
    onSettled: (_answer, _error, input) => {
      // While other decisions are still on their way, a refetch would only bring their rows back
      // (a first of two approvals kept its row, which must show its new state now).
      const others = client.isMutating({ mutationKey: decideKey(kind) }) > 1 && input.approval !== 'first';
      // A decision changes the trader's balance and totals, and the request's place in the history.
      const changed = [adminQueryKeys.moneyRequests, adminQueryKeys.traders, adminQueryKeys.traderDetails, adminQueryKeys.auditLog];
      // Not awaited: the caller's toast (success or the server's refusal) shows at once, not after the refetch.
      void invalidate(client, others ? changed : [pendingKey(kind), ...changed]);
    },
  });
}

export function useDecideDeposit() {
  return useDecide<PendingDepositRow>('deposit');
}

export function useDecideWithdrawal() {
  return useDecide<PendingWithdrawalRow>('withdrawal');
}
