import { useMutation, useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { adminQueryKeys } from './admin/keys';
import { callApi, type CallInput } from './client';
import { queryKeys } from './queries';

/**
 * The back office's changes added with its exports (issue 32): a payment account edited, and a
 * trader's pending order changed or cancelled. Each invalidates what it changes, the audit log
 * included; the trader's own screens hear of an order change from the stream.
 */

function invalidate(client: QueryClient, keys: readonly QueryKey[]) {
  return Promise.all(keys.map((queryKey) => client.invalidateQueries({ queryKey })));
}

export function useEditPaymentAccount() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: number; name: string; number: string; moreInfo: string }) => callApi('editPayments', input),
    onSuccess: () => invalidate(client, [adminQueryKeys.paymentAccounts, queryKeys.activePaymentAccounts, adminQueryKeys.auditLog]),
  });
}

/** What the order form sends: the trader's own modify call's fields (the trader is the hook's). */
export type OrderChange = CallInput<'modifyPendingOrder'>;

/** Change one of `traderId`'s pending orders, with the rules of the trader's own change. */
export function useAdminModifyOrder(traderId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: OrderChange) => callApi('modifyTraderOrder', { ...change, traders_id: traderId }),
    onSuccess: () => invalidate(client, [adminQueryKeys.traderDetailsOf(traderId), adminQueryKeys.auditLog]),
  });
}

/** Cancel one of `traderId`'s pending orders. */
export function useAdminCancelOrder(traderId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (orderId: number) => callApi('cancelTraderOrder', { orderId, traders_id: traderId }),
    onSettled: () => invalidate(client, [adminQueryKeys.traderDetailsOf(traderId), adminQueryKeys.traders, adminQueryKeys.auditLog]),
  });
}
