import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi, type CallInput } from './client';
import { queryKeys } from './query-keys';

/** Own sign-in history and the devices signed in now (My Settings). */

export function useSignIns() {
  return useQuery({ queryKey: queryKeys.signIns, queryFn: ({ signal }) => callApi('getSignIns', undefined, { signal }) });
}

export function useSessions() {
  return useQuery({ queryKey: queryKeys.sessions, queryFn: ({ signal }) => callApi('getSessions', undefined, { signal }) });
}

export function useEndSession() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CallInput<'endSession'>) => callApi('endSession', input),
    onSettled: () => Promise.all([client.invalidateQueries({ queryKey: queryKeys.sessions }), client.invalidateQueries({ queryKey: queryKeys.activity })]),
  });
}

export function useEndOtherSessions() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => callApi('endOtherSessions', undefined),
    onSettled: () => Promise.all([client.invalidateQueries({ queryKey: queryKeys.sessions }), client.invalidateQueries({ queryKey: queryKeys.activity })]),
  });
}
