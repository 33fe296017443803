import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi, type CallInput } from '../client';
import { queryKeys } from '../query-keys';
import { invalidate } from './cache';
import { adminQueryKeys } from './keys';

/** The Staff page: the back office's people and their roles (docs/design.md#staff-roles). */

export function useStaff() {
  return useQuery({ queryKey: adminQueryKeys.staff, queryFn: ({ signal }) => callApi('getStaff', undefined, { signal }) });
}

export function useAddStaffMember() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CallInput<'addStaffMember'>) => callApi('addStaffMember', input),
    onSettled: () => invalidate(client, [adminQueryKeys.staff, adminQueryKeys.auditLog]),
  });
}

/** Roles or the active state of one staff member; one's own change also changes one's session. */
export function useEditStaffMember() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CallInput<'editStaffMember'>) => callApi('editStaffMember', input),
    onSettled: () => invalidate(client, [adminQueryKeys.staff, adminQueryKeys.auditLog, queryKeys.session]),
  });
}

/** Resets another staff member's second factor; they set one up again at their next sign-in. */
export function useResetStaffTwoFactor() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CallInput<'resetStaffTwoFactor'>) => callApi('resetStaffTwoFactor', input),
    onSettled: () => invalidate(client, [adminQueryKeys.staff, adminQueryKeys.auditLog]),
  });
}
