import { Center, Loader, Text } from '@mantine/core';
import type { CandleRecord, PeriodName } from '@tradeport/contracts';
import type { Chart, DeepPartial, KLineData, Period, Styles } from 'klinecharts';
import { callApi, errorMessage } from '../api/client';
import { queryClient } from '../api/query-client';
import { CANDLE_PAGE, candlesQuery } from '../api/query-options';
import { stream } from '../stream/stream';

/** Our period names as KLineChart periods. */
export const CHART_PERIODS: Record<PeriodName, Period> = {
  M1: { type: 'minute', span: 1 },
  M5: { type: 'minute', span: 5 },
  M15: { type: 'minute', span: 15 },
  M30: { type: 'minute', span: 30 },
  H1: { type: 'hour', span: 1 },
  H4: { type: 'hour', span: 4 },
  D1: { type: 'day', span: 1 },
  W1: { type: 'week', span: 1 },
  MN: { type: 'month', span: 1 },
};

export { CANDLE_PAGE };

/**
 * How old the cached first page may be when a chart starts. Long enough that a chart starting next
 * to the page's own request for the same candles (the dashboard prefetches them with the session
 * check) reuses it; short enough that no candle closes unseen between the answer and the stream's
 * subscription.
 */
const FIRST_PAGE_FRESH_MS = 5_000;

export const CHART_FONT = "'Inter Variable', Inter, system-ui, sans-serif";

/** Our fonts and Buy/Sell colours over KLineChart's light or dark preset. */
export function chartStyles(scheme: 'light' | 'dark'): DeepPartial<Styles> {
  const up = scheme === 'dark' ? '#3ccf8e' : '#0a7d4f';
  const down = scheme === 'dark' ? '#ff6b6b' : '#c92a2a';
  const text = { family: CHART_FONT };
  return {
    candle: {
      bar: { upColor: up, downColor: down, upBorderColor: up, downBorderColor: down, upWickColor: up, downWickColor: down },
      priceMark: { high: { textFamily: CHART_FONT }, low: { textFamily: CHART_FONT }, last: { upColor: up, downColor: down, text } },
      // The OHLC legend shows while the pointer is on the chart, not over the candles all the time.
      tooltip: { showRule: 'follow_cross', title: text, legend: text },
    },
    indicator: { tooltip: { title: text, legend: text } },
    xAxis: { tickText: text },
    yAxis: { tickText: text },
    crosshair: { horizontal: { text }, vertical: { text } },
  };
}

export const toKLine = (c: CandleRecord): KLineData => ({ timestamp: c.time, open: c.open, high: c.high, low: c.low, close: c.close, volume: c.volume });

export type ChartLoadState = { status: 'loading' | 'ready' | 'empty' | 'error'; message?: string };

/**
 * Feeds a chart the symbol's candles for the period: the latest page first, older pages as the
 * user scrolls back (`before`), the forming candle live from the stream, and a reload after a
 * stream reconnect. Reports its state; returns the clean-up.
 */
export function loadCandles(instance: Chart, { symbol, period, digits }: { symbol: string; period: PeriodName; digits: number }, setState: (update: ChartLoadState | ((current: ChartLoadState) => ChartLoadState)) => void): () => void {
  let cancelled = false;
  let unsubscribe: (() => void) | null = null;
  // setDataLoader, setSymbol and setPeriod each restart loading; only the latest start may land.
  let latestInit = 0;
  setState({ status: 'loading' });
  instance.setDataLoader({
    getBars: async ({ type, timestamp, symbol: info, callback }) => {
      try {
        if (type === 'init') {
          if (info.ticker !== symbol) return;
          const request = ++latestInit;
          const answer = await queryClient.fetchQuery({ ...candlesQuery(symbol, period, CANDLE_PAGE), staleTime: FIRST_PAGE_FRESH_MS });
          if (cancelled || request !== latestInit) return;
          callback(answer.data.map(toKLine), { backward: false, forward: answer.data.length === CANDLE_PAGE });
          setState({ status: answer.data.length ? 'ready' : 'empty' });
        } else if (type === 'forward' && timestamp !== null) {
          const answer = await callApi('getCandles', { symbol, period, limit: CANDLE_PAGE, before: timestamp });
          if (cancelled) return;
          callback(answer.data.map(toKLine), { forward: answer.data.length === CANDLE_PAGE });
        } else callback([], false);
      } catch (err) {
        if (cancelled) return;
        callback([], false);
        if (type === 'init') setState({ status: 'error', message: errorMessage(err) });
      }
    },
    subscribeBar: ({ callback }) => {
      unsubscribe?.();
      unsubscribe = stream.subscribeCandles(symbol, period, (candle) => {
        callback(toKLine(candle));
        // A first tick can open the first candle of a symbol that had no history.
        setState((current) => (current.status === 'empty' ? { status: 'ready' } : current));
      });
    },
    unsubscribeBar: () => {
      unsubscribe?.();
      unsubscribe = null;
    },
  });
  instance.setSymbol({ ticker: symbol, pricePrecision: digits, volumePrecision: 0 });
  instance.setPeriod(CHART_PERIODS[period]);
  // After a reconnect, candles that closed meanwhile were never streamed: load them again.
  const offResync = stream.onResync(() => instance.resetData());
  return () => {
    offResync();
    cancelled = true;
    unsubscribe?.();
    unsubscribe = null;
  };
}

/** Over a chart that is not ready: a spinner while loading, or what is missing or went wrong. */
export function ChartLoadOverlay({ state, symbol }: { state: ChartLoadState; symbol: string }) {
  if (state.status === 'ready') return null;
  return (
    <Center pos="absolute" inset={0} style={{ pointerEvents: 'none', background: state.status === 'loading' ? undefined : 'var(--mantine-color-body)' }}>
      {state.status === 'loading' && (
        <span role="status" aria-label="Loading the chart">
          <Loader size="sm" />
        </span>
      )}
      {state.status === 'empty' && <Text c="dimmed" size="sm">No price history for {symbol} yet.</Text>}
      {state.status === 'error' && <Text c="red" size="sm">Could not load the chart: {state.message}</Text>}
    </Center>
  );
}
