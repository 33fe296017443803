import { useQueryClient } from '@tanstack/react-query';
import type { AdminEvent } from '@tradeport/contracts';
import { useCallback } from 'react';
import { invalidate, updateAnswers, withRows, type Listing } from '../api/admin/cache';
import { adminQueryKeys, type MoneyRequestKind } from '../api/admin/keys';
import { pendingKey, usePendingDeposits, usePendingWithdrawals } from '../api/admin/money-requests';
import { useAdminFeed } from './admin-feed';

/**
 * Keeps one pending queue current from the back-office feed: a new request refetches the queue; a
 * decision (by anyone, in any tab) or the trader's cancel takes the row out at once and refetches
 * what it changed.
 */
export function useLiveQueue(kind: MoneyRequestKind): void {
  const client = useQueryClient();
  const listener = useCallback(
    (event: AdminEvent | { type: 'resync' }) => {
      const key = pendingKey(kind);
      if (event.type === 'resync') {
        void invalidate(client, [key, adminQueryKeys.moneyRequests]);
        return;
      }
      if (event.kind !== kind) return;
      if (event.type === 'moneyRequest.decided' || event.type === 'moneyRequest.cancelled') {
        updateAnswers<Listing<{ id: number }>>(client, key, (answer) => withRows(answer, (rows) => rows.filter((r) => r.id !== event.requestId)));
        void invalidate(client, [key, adminQueryKeys.moneyRequests, adminQueryKeys.traders, adminQueryKeys.traderDetailsOf(event.traderId), adminQueryKeys.auditLog]);
      } else {
        void invalidate(client, [key, adminQueryKeys.moneyRequests]);
      }
    },
    [client, kind],
  );
  useAdminFeed(listener);
}

/** The pending deposits, kept live. */
export function useLivePendingDeposits() {
  useLiveQueue('deposit');
  return usePendingDeposits();
}

/** The pending withdrawals, kept live. */
export function useLivePendingWithdrawals() {
  useLiveQueue('withdrawal');
  return usePendingWithdrawals();
}
