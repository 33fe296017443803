import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi, type CallInput, type CallOutput } from '../api/client';
import { queryKeys } from '../api/query-keys';
import { usePositionsRefresh } from '../api/terminal-queries';

/** The bell's list and unread count; every account event refetches it (stream/live-updates.ts). */
export function useNotifications(enabled = true) {
  const refetchInterval = usePositionsRefresh();
  return useQuery({ queryKey: queryKeys.notifications, queryFn: ({ signal }) => callApi('getNotifications', undefined, { signal }), refetchInterval, enabled });
}

export function useMarkNotificationsRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CallInput<'markNotificationsRead'>) => callApi('markNotificationsRead', input),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.notifications }),
  });
}

export type NotificationSettings = CallOutput<'getNotificationSettings'>['data'];

export function useNotificationSettings() {
  return useQuery({ queryKey: queryKeys.notificationSettings, queryFn: ({ signal }) => callApi('getNotificationSettings', undefined, { signal }) });
}

export function useEditNotificationSetting() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CallInput<'editNotificationSettings'>) => callApi('editNotificationSettings', input),
    onSuccess: (answer) => client.setQueryData(queryKeys.notificationSettings, answer),
  });
}
