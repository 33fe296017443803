import type { KLineData } from 'klinecharts';

/* What the folds of more-indicator-folds.ts and its siblings share: the recent values they keep, and a range's extremes. */

/** Remembers the last `n` values of a series derived on the way (undefined where it had none). */
export function remember(window: Array<number | undefined>, value: number | undefined, n: number): void {
  window.push(value);
  if (window.length > n) window.shift();
}

/** The value `back` candles before the current one, from what `remember` kept (KLineChart reads its result list). */
export const ago = (window: Array<number | undefined>, back: number): number => window[window.length - back] ?? 0;

/** The highest high and lowest low of candles from..to, as KLineChart's getMaxMin finds them. */
export function highLow(data: readonly KLineData[], from: number, to: number): [number, number] {
  let high = Number.MIN_SAFE_INTEGER;
  let low = Number.MAX_SAFE_INTEGER;
  for (let k = from; k <= to; k++) {
    high = Math.max(data[k]!.high, high);
    low = Math.min(data[k]!.low, low);
  }
  return [high, low];
}
