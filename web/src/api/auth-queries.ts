import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi, type CallInput } from './client';

/** The signed-out screens' calls, apart from the other hooks so the sign-in page loads only these. */
export function useLogin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CallInput<'login'>) => callApi('login', input),
    // A new session may be another user's: nothing cached for the previous one may show.
    onSuccess: () => client.clear(),
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
