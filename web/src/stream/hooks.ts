import { useCallback, useEffect, useSyncExternalStore } from 'react';
import type { AccountEvent, CandleRecord, PeriodName, Quote } from '@tradeport/contracts';
import { stream } from './stream';
import { firstEntry, type ConnectionState, type QuoteEntry } from './stream-client';

/**
 * The quotes a page rendered ahead of the app shows (src/page-frames.tsx), set only for the length
 * of that render: outside the browser there is no stream, and one render's quotes must not linger
 * into another's.
 */
let frameQuotes: ReadonlyMap<string, QuoteEntry> = new Map();

export function renderWithQuotes<T>(quotes: readonly Quote[], render: () => T): T {
  const before = frameQuotes;
  frameQuotes = new Map(quotes.map((quote) => [quote.symbol, firstEntry(quote)]));
  try {
    return render();
  } finally {
    frameQuotes = before;
  }
}

/** One symbol's live quote; re-renders only when that symbol changes. */
export function useQuote(symbol: string | null | undefined): QuoteEntry | undefined {
  const subscribe = useCallback((onChange: () => void) => (symbol ? stream.subscribeQuote(symbol, onChange) : () => undefined), [symbol]);
  const snapshot = useCallback(() => (symbol ? stream.getQuote(symbol) : undefined), [symbol]);
  return useSyncExternalStore(subscribe, snapshot, () => (symbol ? frameQuotes.get(symbol) : undefined));
}

/**
 * Something read off one symbol's live quote (a formatted price, a flag): the component re-renders
 * only when that value changes, not on every tick. `select` must return a primitive (or a value
 * that stays the same object while nothing it shows changed) and be stable or cheap to redefine.
 */
export function useQuoteValue<T>(symbol: string | null | undefined, select: (entry: QuoteEntry | undefined) => T): T {
  const subscribe = useCallback((onChange: () => void) => (symbol ? stream.subscribeQuote(symbol, onChange) : () => undefined), [symbol]);
  return useSyncExternalStore(
    subscribe,
    () => select(symbol ? stream.getQuote(symbol) : undefined),
    () => select(symbol ? frameQuotes.get(symbol) : undefined),
  );
}

/**
 * Whether what the page shows live is marked Delayed: while the live connection is lost and the
 * stream client polls instead (reconnecting). Not while the first connection is made, which the
 * header's connection badge says (Connecting), and during which the prices shown are the server's
 * of a moment ago (the page's own, polled, or the first snapshot): a Delayed mark there would
 * flash on every page load.
 */
export function useDelayed(): boolean {
  return useConnectionState() === 'reconnecting';
}

export function useConnectionState(): ConnectionState {
  return useSyncExternalStore(
    useCallback((onChange: () => void) => stream.onState(onChange), []),
    () => stream.getState(),
    // Rendered ahead of the app (the page's first paint, build/page-frames.ts), the page is connecting.
    () => 'connecting',
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
