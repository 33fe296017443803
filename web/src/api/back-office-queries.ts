import { useMutation, useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { adminQueryKeys } from './admin-queries';
import { callApi } from './client';
import { queryKeys } from './queries';

/**
 * The back office's changes added with its exports: a payment account edited. Each invalidates
 * what it changes, the audit log included.
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
