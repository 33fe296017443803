import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useConnectionState } from '../stream/hooks';
import { callApi, type CallInput, type CallOutput } from './client';
import { alertsQuery, marginsQuery, pendingOrdersQuery, tradesQuery } from './query-options';
import { queryKeys } from './query-keys';

/**
 * The terminal's positions panel server state: open positions, pending orders, the closed history,
 * and the close / modify / cancel mutations. Stream events refetch these (stream/live-updates.ts);
 * while the socket is down they are polled at the spec's positions refresh instead.
 */

/** Spec section 4: the positions panel refreshes every 1.5 s (here: whenever the stream is not live). */
export const POSITIONS_POLL_MS = 1500;
/** With the stream live, events bring every change; a slow refresh still picks up the nightly swap. */
const LIVE_REFRESH_MS = 60_000;

/** The refetch interval for account lists: the spec's 1.5 s while the socket is down. */
export function usePositionsRefresh(): number {
  return useConnectionState() === 'open' ? LIVE_REFRESH_MS : POSITIONS_POLL_MS;
}

export type TradesAnswer = CallOutput<'getTrades'>;
export type OpenTradeRow = TradesAnswer['data'][number];
export type PendingOrderRow = CallOutput<'getPendingOrders'>['data'][number];
export type AlertRow = CallOutput<'getAlerts'>['data'][number];

export function useTrades() {
  const refetchInterval = usePositionsRefresh();
  return useQuery({ ...tradesQuery, refetchInterval });
}

export function usePendingOrders() {
  const refetchInterval = usePositionsRefresh();
  return useQuery({ ...pendingOrdersQuery, refetchInterval });
}

/** The account figures the footer starts from (balance and credit; the server's own figures as the fallback). */
export function useTerminalMargins() {
  const refetchInterval = usePositionsRefresh();
  return useQuery({ ...marginsQuery, refetchInterval });
}

function refreshAccount(client: QueryClient) {
  return Promise.all([queryKeys.trades, queryKeys.margins, queryKeys.profile, queryKeys.tradesHistory, queryKeys.pendingOrders, queryKeys.ledger].map((queryKey) => client.invalidateQueries({ queryKey })));
}

/**
 * Close one position at the server's price. The row leaves the list at once (spec section 4) and
 * comes back if the server refuses or cannot be reached; the list is read again either way.
 */
export function useCloseTrade() {
  const client = useQueryClient();
  return useMutation({
    mutationKey: ['close-trade'],
    mutationFn: (ticket: number) => callApi('updateTrades', { ticket }),
    onMutate: async (ticket) => {
      await client.cancelQueries({ queryKey: queryKeys.trades });
      const before = client.getQueryData<TradesAnswer>(queryKeys.trades);
      const row = before?.data.find((t) => t.ticket === ticket);
      if (before) client.setQueryData<TradesAnswer>(queryKeys.trades, { ...before, data: before.data.filter((t) => t.ticket !== ticket) });
      return { row };
    },
    onError: (_error, ticket, context) => {
      const row = context?.row;
      if (!row) return;
      client.setQueryData<TradesAnswer>(queryKeys.trades, (now) => {
        if (!now || now.data.some((t) => t.ticket === ticket)) return now;
        // Back in its place: the list is in ticket order.
        return { ...now, data: [...now.data, row].sort((a, b) => a.ticket - b.ticket) };
      });
    },
    onSettled: () => refreshAccount(client),
  });
}

/**
 * Close part of a position (`closePartTrade`): `key` is the dialog's Idempotency-Key, one per
 * dialog, so a retry after a lost answer closes nothing more. The rest stays in the list; its
 * volume and the history are read again.
 */
export function useClosePart() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ key, ...input }: CallInput<'closePartTrade'> & { key: string }) => callApi('closePartTrade', input, { idempotencyKey: key }),
    onSettled: () => refreshAccount(client),
  });
}

export function useModifyTrade() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CallInput<'modifyTrades'>) => callApi('modifyTrades', input),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.trades }),
  });
}

export function useModifyPendingOrder() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CallInput<'modifyPendingOrder'>) => callApi('modifyPendingOrder', input),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.pendingOrders }),
  });
}

export function useCancelPendingOrder() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (orderId: number) => callApi('cancelPendingOrder', { orderId }),
    onSettled: () => Promise.all([client.invalidateQueries({ queryKey: queryKeys.pendingOrders }), client.invalidateQueries({ queryKey: queryKeys.margins })]),
  });
}

/** The trader's price alerts (waiting, then the latest fired or expired); `alert.*` events refetch them. */
export function useAlerts() {
  const refetchInterval = usePositionsRefresh();
  return useQuery({ ...alertsQuery, refetchInterval });
}

export function useAddAlert() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CallInput<'addAlert'>) => callApi('addAlert', input),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.alerts }),
  });
}

export function useModifyAlert() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CallInput<'modifyAlert'>) => callApi('modifyAlert', input),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.alerts }),
  });
}

export function useDeleteAlert() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (alertId: number) => callApi('deleteAlert', { alertId }),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.alerts }),
  });
}
