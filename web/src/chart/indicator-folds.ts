import type { ChartIndicatorName, IndicatorSource } from '@tradeport/contracts';
import type { KLineData } from 'klinecharts';
import { sourcePrice } from './indicators';

/** One indicator value per candle: its lines by figure key (KLineChart's result shape). */
export type IndicatorValues = Record<string, number>;

/**
 * An indicator as a left fold over the candles: `step` turns the state after candle i − 1 into the
 * state after candle i and gives candle i's values. The formulas are KLineChart's own (same
 * arithmetic in the same order, so the same figures), written so that a tick on the forming
 * candle resumes from the state before it instead of folding every candle again.
 */
export interface Fold<S> {
  start(): S;
  copy(state: S): S;
  step(state: S, data: readonly KLineData[], i: number): IndicatorValues;
}

type Price = (k: KLineData) => number;
/** The candle's price for a source (the close without a detour, the most common). */
export const priceOf = (source: IndicatorSource): Price => (source === 'close' ? (k) => k.close : (k) => sourcePrice(k, source));

/** Moving averages of the price, one per period (`ma1`, `ma2`…). */
export function maFold(periods: number[], keys: string[], source: IndicatorSource): Fold<{ sums: number[] }> {
  const price = priceOf(source);
  return {
    start: () => ({ sums: periods.map(() => 0) }),
    copy: (s) => ({ sums: [...s.sums] }),
    step: (s, data, i) => {
      const out: IndicatorValues = {};
      const p0 = price(data[i]!);
      periods.forEach((p, j) => {
        s.sums[j]! += p0;
        if (i >= p - 1) {
          out[keys[j]!] = s.sums[j]! / p;
          s.sums[j]! -= price(data[i - (p - 1)]!);
        }
      });
      return out;
    },
  };
}

/** Exponential moving averages, each seeded with the simple average of its first period. */
export function emaFold(periods: number[], keys: string[], source: IndicatorSource): Fold<{ sum: number; emas: number[] }> {
  const price = priceOf(source);
  return {
    start: () => ({ sum: 0, emas: periods.map(() => 0) }),
    copy: (s) => ({ sum: s.sum, emas: [...s.emas] }),
    step: (s, data, i) => {
      const out: IndicatorValues = {};
      const close = price(data[i]!);
      s.sum += close;
      periods.forEach((p, j) => {
        if (i >= p - 1) {
          s.emas[j] = i > p - 1 ? (2 * close + (p - 1) * s.emas[j]!) / (p + 1) : s.sum / p;
          out[keys[j]!] = s.emas[j]!;
        }
      });
      return out;
    },
  };
}

/** Bollinger Bands: the period's average and a band of `deviations` population standard deviations. */
export function bollFold([period, deviations]: number[], source: IndicatorSource): Fold<{ sum: number }> {
  const price = priceOf(source);
  const back = period! - 1;
  return {
    start: () => ({ sum: 0 }),
    copy: (s) => ({ sum: s.sum }),
    step: (s, data, i) => {
      const out: IndicatorValues = {};
      s.sum += price(data[i]!);
      if (i >= back) {
        const mid = s.sum / period!;
        let squares = 0;
        for (let k = i - back; k <= i; k++) {
          const d = price(data[k]!) - mid;
          squares += d * d;
        }
        const md = Math.sqrt(Math.abs(squares) / (back + 1));
        out.up = mid + deviations! * md;
        out.mid = mid;
        out.dn = mid - deviations! * md;
        s.sum -= price(data[i - back]!);
      }
      return out;
    },
  };
}

/** RSI with Wilder's smoothing, seeded with the simple averages of the first period's gains and losses. */
export function rsiFold(periods: number[], keys: string[], source: IndicatorSource): Fold<{ gains: number[]; losses: number[]; avgGain: Array<number | undefined>; avgLoss: Array<number | undefined> }> {
  const price = priceOf(source);
  return {
    start: () => ({ gains: periods.map(() => 0), losses: periods.map(() => 0), avgGain: periods.map(() => undefined), avgLoss: periods.map(() => undefined) }),
    copy: (s) => ({ gains: [...s.gains], losses: [...s.losses], avgGain: [...s.avgGain], avgLoss: [...s.avgLoss] }),
    step: (s, data, i) => {
      const out: IndicatorValues = {};
      const change = i === 0 ? 0 : price(data[i]!) - price(data[i - 1]!);
      const gain = Math.max(change, 0);
      const loss = Math.max(-change, 0);
      periods.forEach((p, j) => {
        s.gains[j]! += gain;
        s.losses[j]! += loss;
        if (i < p) return;
        if (s.avgGain[j] === undefined || s.avgLoss[j] === undefined) {
          s.avgGain[j] = s.gains[j]! / p;
          s.avgLoss[j] = s.losses[j]! / p;
        } else {
          s.avgGain[j] = (s.avgGain[j]! * (p - 1) + gain) / p;
          s.avgLoss[j] = (s.avgLoss[j]! * (p - 1) + loss) / p;
        }
        const g = s.avgGain[j]!;
        const l = s.avgLoss[j]!;
        out[keys[j]!] = l === 0 ? 100 : g === 0 ? 0 : 100 - 100 / (1 + g / l);
      });
      return out;
    },
  };
}

interface MacdState {
  sum: number;
  fast: number;
  slow: number;
  difSum: number;
  dea: number;
}

/** MACD: the fast and slow EMAs' difference (DIF), its EMA (DEA) and twice their difference (the bars). */
export function macdFold([fastP, slowP, signalP]: number[], source: IndicatorSource): Fold<MacdState> {
  const price = priceOf(source);
  const longest = Math.max(fastP!, slowP!);
  return {
    start: () => ({ sum: 0, fast: 0, slow: 0, difSum: 0, dea: 0 }),
    copy: (s) => ({ ...s }),
    step: (s, data, i) => {
      const out: IndicatorValues = {};
      const close = price(data[i]!);
      s.sum += close;
      if (i >= fastP! - 1) s.fast = i > fastP! - 1 ? (2 * close + (fastP! - 1) * s.fast) / (fastP! + 1) : s.sum / fastP!;
      if (i >= slowP! - 1) s.slow = i > slowP! - 1 ? (2 * close + (slowP! - 1) * s.slow) / (slowP! + 1) : s.sum / slowP!;
      if (i >= longest - 1) {
        const dif = s.fast - s.slow;
        out.dif = dif;
        s.difSum += dif;
        if (i >= longest + signalP! - 2) {
          s.dea = i > longest + signalP! - 2 ? (dif * 2 + s.dea * (signalP! - 1)) / (signalP! + 1) : s.difSum / signalP!;
          out.macd = (dif - s.dea) * 2;
          out.dea = s.dea;
        }
      }
      return out;
    },
  };
}

/** Volume with its moving averages (and the candle's open and close, which colour the bar). */
export function volFold(periods: number[], keys: string[]): Fold<{ sums: number[] }> {
  return {
    start: () => ({ sums: periods.map(() => 0) }),
    copy: (s) => ({ sums: [...s.sums] }),
    step: (s, data, i) => {
      const k = data[i]!;
      const volume = k.volume ?? 0;
      const out: IndicatorValues = { volume, open: k.open, close: k.close };
      periods.forEach((p, j) => {
        s.sums[j]! += volume;
        if (i >= p - 1) {
          out[keys[j]!] = s.sums[j]! / p;
          s.sums[j]! -= data[i - (p - 1)]!.volume ?? 0;
        }
      });
      return out;
    },
  };
}

/**
 * A fold run over KLineChart's candle list, resumed where it can be: KLineChart keeps one list and
 * changes it in place on a tick (the forming candle replaced, or a new one pushed), and makes a new
 * list when it loads candles. A call on the same list with the same candles before the forming one
 * computes only the forming candle (or the new one); anything else folds the whole list again.
 * The values of the candles before are the same objects as before.
 */
export function resumable<S>(fold: Fold<S>): (data: KLineData[]) => IndicatorValues[] {
  let list: KLineData[] | null = null;
  let values: IndicatorValues[] = [];
  /** The state after the candle before the last one, and after the last one. */
  let beforeLast: S = fold.start();
  let afterLast: S = fold.start();
  /** The candles those states were computed with. */
  let prevCandle: KLineData | undefined;
  let lastCandle: KLineData | undefined;
  return (data) => {
    const n = data.length;
    if (data === list && n > 0 && n === values.length && data[n - 2] === prevCandle) {
      // The forming candle changed (or not): from the state before it.
      const state = fold.copy(beforeLast);
      values[n - 1] = fold.step(state, data, n - 1);
      afterLast = state;
      lastCandle = data[n - 1];
      return values;
    }
    if (data === list && n > 1 && n === values.length + 1 && data[n - 2] === lastCandle) {
      // A new candle opened: from the state after the one before it.
      const state = fold.copy(afterLast);
      values.push(fold.step(state, data, n - 1));
      beforeLast = afterLast;
      afterLast = state;
      prevCandle = lastCandle;
      lastCandle = data[n - 1];
      return values;
    }
    const state = fold.start();
    values = new Array<IndicatorValues>(n);
    beforeLast = fold.copy(state);
    for (let i = 0; i < n; i++) {
      if (i === n - 1) beforeLast = fold.copy(state);
      values[i] = fold.step(state, data, i);
    }
    afterLast = state;
    list = data;
    prevCandle = data[n - 2];
    lastCandle = data[n - 1];
    return values;
  };
}

/**
 * The fold of one of the six indicators the chart has always offered (MA, EMA, Bollinger Bands,
 * RSI, MACD, volume), or null for the others, whose folds are in `more-indicator-folds.ts` (loaded
 * when one of them is first put on a chart). `keys` are its lines' figure keys in KLineChart's order.
 */
export function coreFoldOf(name: ChartIndicatorName, params: number[], source: IndicatorSource, keys: string[]): Fold<unknown> | null {
  switch (name) {
    case 'MA':
      return maFold(params, keys, source) as Fold<unknown>;
    case 'EMA':
      return emaFold(params, keys, source) as Fold<unknown>;
    case 'BOLL':
      return bollFold(params, source) as Fold<unknown>;
    case 'RSI':
      return rsiFold(params, keys, source) as Fold<unknown>;
    case 'MACD':
      return macdFold(params, source) as Fold<unknown>;
    case 'VOL':
      return volFold(params, keys) as Fold<unknown>;
    default:
      return null;
  }
}
