import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AccountTypeInput } from '@tradeport/contracts';
import { callApi, type CallOutput } from '../client';
import { invalidate } from './cache';
import { adminQueryKeys } from './keys';

/** Account types (docs/api.md#account-types): listed, created and changed, and an account moved to one. */

export type AccountTypeRow = CallOutput<'getAccountTypes'>['data'][number];
export type AccountTypes = CallOutput<'getAccountTypes'>;

export function useAccountTypes(enabled = true) {
  return useQuery({ queryKey: adminQueryKeys.accountTypes, queryFn: ({ signal }) => callApi('getAccountTypes', undefined, { signal }), enabled });
}

/** Create a type (no `id`) or change one; the types, the traders' accounts and the audit log follow. */
export function useSaveAccountType() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: AccountTypeInput) => callApi('saveAccountType', input),
    onSettled: () => invalidate(client, [adminQueryKeys.accountTypes, adminQueryKeys.traderDetails, adminQueryKeys.auditLog]),
  });
}

/** Move a trading account to another type; its trader's page, the types' counts and the audit log follow. */
export function useSetAccountType() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { accountId: number; typeId: number }) => callApi('setAccountType', input),
    onSettled: () => invalidate(client, [adminQueryKeys.traderDetails, adminQueryKeys.accountTypes, adminQueryKeys.auditLog]),
  });
}
