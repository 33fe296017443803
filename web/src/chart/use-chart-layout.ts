import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChartLayout } from '@tradeport/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { callApi, errorMessage } from '../api/client';

/** Changes are saved this long after the last one, so a drag or a burst of edits is one request. */
export const SAVE_DEBOUNCE_MS = 800;
/** A failed save is tried again after these waits, then every last one until it lands. */
export const SAVE_RETRY_MS = [2_000, 5_000, 15_000, 30_000];

export const chartLayoutKey = (symbol: string) => ['chart-layout', symbol] as const;

const EMPTY: ChartLayout = { drawings: [], indicators: [] };

export type SaveState = { state: 'saved' } | { state: 'pending' } | { state: 'saving' } | { state: 'failed'; message: string; retryAt: number };

/**
 * The trader's chart layout (drawings and indicators) for a symbol, read from the server and saved
 * back a moment after each change. A failed save is kept, said, and retried until it lands; a
 * symbol switch or leaving the page sends what is still waiting at once.
 */
export function useChartLayout(symbol: string) {
  const client = useQueryClient();
  const query = useQuery({ queryKey: chartLayoutKey(symbol), queryFn: ({ signal }) => callApi('getChartLayout', { symbol }, { signal }), staleTime: Infinity, refetchOnWindowFocus: false });
  const [local, setLocal] = useState<{ symbol: string; layout: ChartLayout } | null>(null);
  const [save, setSave] = useState<SaveState>({ state: 'saved' });
  const pending = useRef<{ symbol: string; layout: ChartLayout } | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const attempt = useRef(0);
  const mounted = useRef(true);

  const send = useCallback(async () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    const job = pending.current;
    if (!job) return;
    if (mounted.current) setSave({ state: 'saving' });
    try {
      const answer = await callApi('saveChartLayout', job);
      client.setQueryData(chartLayoutKey(job.symbol), answer);
      attempt.current = 0;
      // A change made while this one was on its way is still waiting: it goes next.
      if (pending.current === job) {
        pending.current = null;
        if (mounted.current) setSave({ state: 'saved' });
      } else if (pending.current) void send();
    } catch (err) {
      if (pending.current !== job) {
        void send();
        return;
      }
      const wait = SAVE_RETRY_MS[Math.min(attempt.current, SAVE_RETRY_MS.length - 1)]!;
      attempt.current += 1;
      if (mounted.current) setSave({ state: 'failed', message: errorMessage(err), retryAt: Date.now() + wait });
      timer.current = setTimeout(() => void send(), wait);
    }
  }, [client]);

  const update = useCallback(
    (layout: ChartLayout) => {
      // Another symbol's change still waiting goes now, before this one replaces it.
      if (pending.current && pending.current.symbol !== symbol) void send();
      pending.current = { symbol, layout };
      setLocal({ symbol, layout });
      client.setQueryData(chartLayoutKey(symbol), { status: 'success' as const, data: { symbol, layout } });
      setSave({ state: 'pending' });
      attempt.current = 0;
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => void send(), SAVE_DEBOUNCE_MS);
    },
    [client, send, symbol],
  );

  // Leaving the symbol or the page: what is waiting is sent now rather than lost.
  useEffect(() => {
    mounted.current = true;
    const flush = () => {
      if (pending.current) void send();
    };
    window.addEventListener('pagehide', flush);
    return () => {
      window.removeEventListener('pagehide', flush);
      flush();
    };
  }, [send, symbol]);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );

  const layout = local?.symbol === symbol ? local.layout : (query.data?.data.layout ?? EMPTY);
  return {
    layout,
    loaded: query.isSuccess || local?.symbol === symbol,
    loadError: query.isError ? errorMessage(query.error) : null,
    save,
    update,
    retryNow: () => void send(),
  };
}
