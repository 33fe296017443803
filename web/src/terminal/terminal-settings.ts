import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TerminalSettings } from '@tradeport/contracts';
import { useCallback } from 'react';
import { callApi, errorMessage } from '../api/client';
import { queryKeys } from '../api/query-keys';
import { toastError } from '../ui/toast';

type SettingsAnswer = { status: 'success'; data: TerminalSettings };

/** Off until the trader turns them on (all opt-in). */
export const DEFAULT_TERMINAL_SETTINGS: TerminalSettings = { oneClickTrading: false, hotkeys: false, changeColumn: false, spreadColumn: false };

/** The trader's terminal settings, kept per user on the server (one-click trading, hotkeys, the price table's columns). */
export function useTerminalSettings(): TerminalSettings & { loaded: boolean } {
  const query = useQuery({ queryKey: queryKeys.terminalSettings, queryFn: ({ signal }) => callApi('getTerminalSettings', undefined, { signal }), staleTime: 5 * 60_000 });
  return { ...(query.data?.data ?? DEFAULT_TERMINAL_SETTINGS), loaded: query.isSuccess };
}

/** Changes a setting at once on screen; it goes back if the server refuses. */
export function useEditTerminalSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: Partial<TerminalSettings>) => callApi('editTerminalSettings', change),
    onMutate: async (change) => {
      await client.cancelQueries({ queryKey: queryKeys.terminalSettings });
      const before = client.getQueryData<SettingsAnswer>(queryKeys.terminalSettings);
      client.setQueryData<SettingsAnswer>(queryKeys.terminalSettings, { status: 'success', data: { ...(before?.data ?? DEFAULT_TERMINAL_SETTINGS), ...change } });
      return { before };
    },
    onError: (_error, _change, context) => {
      if (context?.before) client.setQueryData(queryKeys.terminalSettings, context.before);
    },
    onSuccess: (answer) => client.setQueryData(queryKeys.terminalSettings, answer),
  });
}

/** Saves a change of the settings (shown at once; a refusal puts it back and says so in a toast). */
export function useSettingChange(): (patch: Partial<TerminalSettings>) => void {
  const { mutate } = useEditTerminalSettings();
  return useCallback((patch) => mutate(patch, { onError: (error) => toastError(errorMessage(error), 'Could not save the setting') }), [mutate]);
}
