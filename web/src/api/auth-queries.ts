import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
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

/**
 * The server's verdict on a password being typed, for the meter under the field. Asked after a
 * pause in typing; the answer is never kept once the field stops asking (gcTime 0), so no password
 * lingers in the query cache.
 */
export function usePasswordStrength(input: CallInput<'passwordStrength'> | null) {
  return useQuery({
    queryKey: ['passwordStrength', input],
    queryFn: ({ signal }) => callApi('passwordStrength', input!, { signal }),
    enabled: input !== null && input.password.length > 0,
    placeholderData: keepPreviousData,
    gcTime: 0,
    staleTime: Infinity,
    retry: false,
  });
}
