import { useCallback, useEffect, useSyncExternalStore } from 'react';
import type { AccountEvent, CandleRecord, PeriodName } from '@tradeport/contracts';
import { stream } from './stream';
import type { ConnectionState, QuoteEntry } from './stream-client';

/** One symbol's live quote; re-renders only when that symbol changes. */
export function useQuote(symbol: string | null | undefined): QuoteEntry | undefined {
  const subscribe = useCallback((onChange: () => void) => (symbol ? stream.subscribeQuote(symbol, onChange) : () => undefined), [symbol]);
  const snapshot = useCallback(() => (symbol ? stream.getQuote(symbol) : undefined), [symbol]);
  return useSyncExternalStore(subscribe, snapshot);
}

export function useConnectionState(): ConnectionState {
  return useSyncExternalStore(
    useCallback((onChange: () => void) => stream.onState(onChange), []),
    () => stream.getState(),
  );
}

/** Calls `listener` for each account event of the signed-in user while the component is mounted. */
export function useAccountEvents(listener: (event: AccountEvent) => void): void {
  useEffect(() => stream.onEvent(listener), [listener]);
}

/** Live updates of the forming candle of one symbol and period. */
export function useLiveCandle(symbol: string, period: PeriodName, listener: (candle: CandleRecord) => void): void {
  useEffect(() => stream.subscribeCandles(symbol, period, listener), [symbol, period, listener]);
}
