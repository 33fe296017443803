import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { callApi, type CallOutput } from '../client';
import { queryKeys } from '../query-keys';
import { invalidate, optimisticChange, withRows, type Listing } from './cache';
import { adminQueryKeys } from './keys';

/** The broker's payment accounts, which traders deposit to: listed, added and switched on or off. */

export type PaymentAccountRow = CallOutput<'getPaymentGetways'>['data'][number];

export function usePaymentAccounts() {
  return useQuery({ queryKey: adminQueryKeys.paymentAccounts, queryFn: ({ signal }) => callApi('getPaymentGetways', undefined, { signal }) });
}

export function useAddPaymentAccount() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { name: string; number: string; moreInfo: string }) => callApi('addNewPayments', { ...input, isActive: '1' }),
    onSuccess: () => invalidate(client, [adminQueryKeys.paymentAccounts, queryKeys.activePaymentAccounts, adminQueryKeys.auditLog]),
  });
}

interface AccountStatusInput {
  id: number;
  isActive: '1' | '0';
}

/** The switch moves at once, and back if the server refuses. */
function accountStatusChange(client: QueryClient) {
  return optimisticChange<AccountStatusInput, Listing<PaymentAccountRow>, PaymentAccountRow | undefined>(client, adminQueryKeys.paymentAccounts, {
    remember: ({ id }, answers) => answers.map(([, answer]) => answer.data.find((a) => a.id === id)).find((row) => row !== undefined),
    apply: (answer, { id, isActive }) => withRows(answer, (rows) => rows.map((a) => (a.id === id ? { ...a, isActive } : a))),
    undo: (answer, { id }, previous) => (previous ? withRows(answer, (rows) => rows.map((a) => (a.id === id ? previous : a))) : answer),
  });
}

export function useEditPaymentAccountStatus() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: AccountStatusInput) => callApi('editStatusPayments', input),
    ...accountStatusChange(client),
    onSettled: () => invalidate(client, [adminQueryKeys.paymentAccounts, queryKeys.activePaymentAccounts, adminQueryKeys.auditLog]),
  });
}
