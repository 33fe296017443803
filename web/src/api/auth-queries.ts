import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi, type CallInput } from './client';
import { queryKeys } from './query-keys';

/** The signed-out screens' calls, apart from the other hooks so the sign-in page loads only these. */
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
