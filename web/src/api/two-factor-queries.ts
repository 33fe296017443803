import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi, type CallInput } from './client';
import { queryKeys } from './query-keys';

/**
 * Two-factor sign-in (the server's docs/architecture.md#two-factor-sign-in): the second step of a
 * sign-in, setting it up (at sign-in or from My Settings), backup codes and turning it off.
 */

export function useVerifySignIn() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CallInput<'verifySignIn'>) => callApi('verifySignIn', input),
    // A new session: nothing cached before it may show.
    onSuccess: () => client.clear(),
  });
}

export function useStartTwoFactorSetup() {
  return useMutation({ mutationFn: () => callApi('startTwoFactorSetup', undefined) });
}

export function useConfirmTwoFactorSetup() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CallInput<'confirmTwoFactorSetup'>) => callApi('confirmTwoFactorSetup', input),
    onSuccess: (answer) => {
      // Set up in a sign-in: a new session. From My Settings: its state and the activity log change.
      if (answer.accountType) client.clear();
      else void client.invalidateQueries({ queryKey: queryKeys.twoFactor }).then(() => client.invalidateQueries({ queryKey: queryKeys.activity }));
    },
  });
}

export function useTwoFactor() {
  return useQuery({ queryKey: queryKeys.twoFactor, queryFn: ({ signal }) => callApi('getTwoFactor', undefined, { signal }) });
}

export function useNewBackupCodes() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CallInput<'newBackupCodes'>) => callApi('newBackupCodes', input),
    onSettled: () => Promise.all([client.invalidateQueries({ queryKey: queryKeys.twoFactor }), client.invalidateQueries({ queryKey: queryKeys.activity })]),
  });
}

export function useDisableTwoFactor() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CallInput<'disableTwoFactor'>) => callApi('disableTwoFactor', input),
    onSettled: () => Promise.all([client.invalidateQueries({ queryKey: queryKeys.twoFactor }), client.invalidateQueries({ queryKey: queryKeys.activity })]),
  });
}
