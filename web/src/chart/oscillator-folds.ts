import type { IndicatorSource } from '@tradeport/contracts';
import type { KLineData } from 'klinecharts';
import { ago, highLow, remember } from './fold-windows';
import { priceOf, type Fold, type IndicatorValues } from './indicator-folds';

/* The oscillators' and the momentum lines' folds beyond the first six (see more-indicator-folds.ts): KLineChart's own formulas, the same arithmetic in the same order. */

/** Stochastic (KDJ): the close within the period's range (RSV), smoothed into %K and %D; J = 3K − 2D. */
export function kdjFold([n, kSmooth, dSmooth]: number[]): Fold<{ k: number; d: number }> {
  return {
    start: () => ({ k: 50, d: 50 }),
    copy: (s) => ({ ...s }),
    step: (s, data, i): IndicatorValues => {
      if (i < n! - 1) return {};
      const [hn, ln] = highLow(data, i - (n! - 1), i);
      const range = hn - ln;
      const rsv = ((data[i]!.close - ln) / (range === 0 ? 1 : range)) * 100;
      s.k = ((kSmooth! - 1) * s.k + rsv) / kSmooth!;
      s.d = ((dSmooth! - 1) * s.d + s.k) / dSmooth!;
      return { k: s.k, d: s.d, j: 3.0 * s.k - 2.0 * s.d };
    },
  };
}

const typicalPrice = (k: KLineData) => (k.high + k.low + k.close) / 3;

/** Commodity channel index: the typical price's distance from its average, over 0.015 mean deviations. */
export function cciFold([n]: number[]): Fold<{ sum: number }> {
  const back = n! - 1;
  return {
    start: () => ({ sum: 0 }),
    copy: (s) => ({ ...s }),
    step: (s, data, i): IndicatorValues => {
      const tp = typicalPrice(data[i]!);
      s.sum += tp;
      if (i < back) return {};
      const ma = s.sum / n!;
      let deviations = 0;
      for (let k = i - back; k <= i; k++) deviations += Math.abs(typicalPrice(data[k]!) - ma);
      const md = deviations / n!;
      s.sum -= typicalPrice(data[i - back]!);
      return { cci: md !== 0 ? (tp - ma) / md / 0.015 : 0 };
    },
  };
}

interface DmiState {
  trSum: number;
  hSum: number;
  lSum: number;
  mtr: number;
  dmp: number;
  dmm: number;
  dxSum: number;
  adx: number;
  adxs: Array<number | undefined>;
}

/** Directional movement: +DI and −DI with Wilder's smoothing, ADX their smoothed spread, ADXR the mean of ADX now and `adxrPeriod` − 1 candles ago. */
export function dmiFold([n, m]: number[]): Fold<DmiState> {
  return {
    start: () => ({ trSum: 0, hSum: 0, lSum: 0, mtr: 0, dmp: 0, dmm: 0, dxSum: 0, adx: 0, adxs: [] }),
    copy: (s) => ({ ...s, adxs: [...s.adxs] }),
    step: (s, data, i) => {
      const k = data[i]!;
      const prev = data[i - 1] ?? k;
      const preClose = prev.close;
      const hl = k.high - k.low;
      const hcy = Math.abs(k.high - preClose);
      const lcy = Math.abs(preClose - k.low);
      const hhy = k.high - prev.high;
      const lyl = prev.low - k.low;
      const tr = Math.max(Math.max(hl, hcy), lcy);
      const h = hhy > 0 && hhy > lyl ? hhy : 0;
      const l = lyl > 0 && lyl > hhy ? lyl : 0;
      s.trSum += tr;
      s.hSum += h;
      s.lSum += l;
      const out: IndicatorValues = {};
      if (i >= n! - 1) {
        if (i > n! - 1) {
          s.mtr = s.mtr - s.mtr / n! + tr;
          s.dmp = s.dmp - s.dmp / n! + h;
          s.dmm = s.dmm - s.dmm / n! + l;
        } else {
          s.mtr = s.trSum;
          s.dmp = s.hSum;
          s.dmm = s.lSum;
        }
        let pdi = 0;
        let mdi = 0;
        if (s.mtr !== 0) {
          pdi = (s.dmp * 100) / s.mtr;
          mdi = (s.dmm * 100) / s.mtr;
        }
        out.pdi = pdi;
        out.mdi = mdi;
        let dx = 0;
        if (mdi + pdi !== 0) dx = (Math.abs(mdi - pdi) / (mdi + pdi)) * 100;
        s.dxSum += dx;
        if (i >= n! * 2 - 2) {
          s.adx = i > n! * 2 - 2 ? (s.adx * (n! - 1) + dx) / n! : s.dxSum / n!;
          out.adx = s.adx;
          if (i >= n! * 2 + m! - 3) out.adxr = (ago(s.adxs, m! - 1) + s.adx) / 2;
        }
      }
      remember(s.adxs, out.adx, m! - 1);
      return out;
    },
  };
}

/** Williams %R: where the close sits below the period's high, in percent of its range (0 to −100). */
export function wrFold(periods: number[], keys: string[]): Fold<null> {
  return {
    start: () => null,
    copy: () => null,
    step: (_, data, i) => {
      const out: IndicatorValues = {};
      const close = data[i]!.close;
      periods.forEach((param, j) => {
        const back = param - 1;
        if (i < back) return;
        const [hn, ln] = highLow(data, i - back, i);
        const range = hn - ln;
        out[keys[j]!] = range === 0 ? 0 : ((close - hn) / range) * 100;
      });
      return out;
    },
  };
}

/** Awesome oscillator: the fast minus the slow simple average of the candles' midpoints. */
export function aoFold([fast, slow]: number[]): Fold<{ fastSum: number; slowSum: number; fast: number; slow: number }> {
  const longest = Math.max(fast!, slow!);
  const middle = (k: KLineData) => (k.low + k.high) / 2;
  return {
    start: () => ({ fastSum: 0, slowSum: 0, fast: 0, slow: 0 }),
    copy: (s) => ({ ...s }),
    step: (s, data, i): IndicatorValues => {
      const mid = middle(data[i]!);
      s.fastSum += mid;
      s.slowSum += mid;
      if (i >= fast! - 1) {
        s.fast = s.fastSum / fast!;
        s.fastSum -= middle(data[i - (fast! - 1)]!);
      }
      if (i >= slow! - 1) {
        s.slow = s.slowSum / slow!;
        s.slowSum -= middle(data[i - (slow! - 1)]!);
      }
      return i >= longest - 1 ? { ao: s.fast - s.slow } : {};
    },
  };
}

/**
 * A line from the price `n` candles back (momentum: the difference; rate of change: the percent
 * change) with its `m`-candle average, KLineChart's MTM and ROC.
 */
function changeFold(key: string, maKey: string, change: (now: number, then: number) => number, [n, m]: number[], source: IndicatorSource): Fold<{ sum: number; values: Array<number | undefined> }> {
  const price = priceOf(source);
  return {
    start: () => ({ sum: 0, values: [] }),
    copy: (s) => ({ sum: s.sum, values: [...s.values] }),
    step: (s, data, i) => {
      const out: IndicatorValues = {};
      if (i >= n!) {
        const value = change(price(data[i]!), price(data[i - n!]!));
        out[key] = value;
        s.sum += value;
        if (i >= n! + m! - 1) {
          out[maKey] = s.sum / m!;
          s.sum -= ago(s.values, m! - 1);
        }
      }
      remember(s.values, out[key], m! - 1);
      return out;
    },
  };
}

export const mtmFold = (params: number[], source: IndicatorSource) => changeFold('mtm', 'maMtm', (now, then) => now - then, params, source);
export const rocFold = (params: number[], source: IndicatorSource) => changeFold('roc', 'maRoc', (now, then) => (then !== 0 ? ((now - then) / then) * 100 : 0), params, source);

interface TrixState {
  sum: number;
  ema1: number;
  ema2: number;
  oldTr: number;
  ema1Sum: number;
  ema2Sum: number;
  trixSum: number;
  values: Array<number | undefined>;
}

/** TRIX: the percent change of a triple exponential average, with its `m`-candle average. */
export function trixFold([n, m]: number[], source: IndicatorSource): Fold<TrixState> {
  const price = priceOf(source);
  return {
    start: () => ({ sum: 0, ema1: 0, ema2: 0, oldTr: 0, ema1Sum: 0, ema2Sum: 0, trixSum: 0, values: [] }),
    copy: (s) => ({ ...s, values: [...s.values] }),
    step: (s, data, i) => {
      const out: IndicatorValues = {};
      const close = price(data[i]!);
      s.sum += close;
      if (i >= n! - 1) {
        s.ema1 = i > n! - 1 ? (2 * close + (n! - 1) * s.ema1) / (n! + 1) : s.sum / n!;
        s.ema1Sum += s.ema1;
        if (i >= n! * 2 - 2) {
          s.ema2 = i > n! * 2 - 2 ? (2 * s.ema1 + (n! - 1) * s.ema2) / (n! + 1) : s.ema1Sum / n!;
          s.ema2Sum += s.ema2;
          if (i >= n! * 3 - 3) {
            let tr = 0;
            let trix = 0;
            if (i > n! * 3 - 3) {
              tr = (2 * s.ema2 + (n! - 1) * s.oldTr) / (n! + 1);
              trix = ((tr - s.oldTr) / s.oldTr) * 100;
            } else tr = s.ema2Sum / n!;
            s.oldTr = tr;
            out.trix = trix;
            s.trixSum += trix;
            if (i >= n! * 3 + m! - 4) {
              out.maTrix = s.trixSum / m!;
              s.trixSum -= ago(s.values, m! - 1);
            }
          }
        }
      }
      remember(s.values, out.trix, m! - 1);
      return out;
    },
  };
}

/** Bias: the price's distance from its moving average, in percent of it, one line per period. */
export function biasFold(periods: number[], keys: string[], source: IndicatorSource): Fold<{ sums: number[] }> {
  const price = priceOf(source);
  return {
    start: () => ({ sums: periods.map(() => 0) }),
    copy: (s) => ({ sums: [...s.sums] }),
    step: (s, data, i) => {
      const out: IndicatorValues = {};
      const close = price(data[i]!);
      periods.forEach((p, j) => {
        s.sums[j]! += close;
        if (i >= p - 1) {
          const mean = s.sums[j]! / p;
          out[keys[j]!] = ((close - mean) / mean) * 100;
          s.sums[j]! -= price(data[i - (p - 1)]!);
        }
      });
      return out;
    },
  };
}

/** DMA: the fast minus the slow moving average, and its `m`-candle average (AMA). */
export function dmaFold([fast, slow, m]: number[], source: IndicatorSource): Fold<{ sum1: number; sum2: number; dmaSum: number; values: Array<number | undefined> }> {
  const price = priceOf(source);
  const longest = Math.max(fast!, slow!);
  return {
    start: () => ({ sum1: 0, sum2: 0, dmaSum: 0, values: [] }),
    copy: (s) => ({ ...s, values: [...s.values] }),
    step: (s, data, i) => {
      const out: IndicatorValues = {};
      const close = price(data[i]!);
      s.sum1 += close;
      s.sum2 += close;
      let ma1 = 0;
      let ma2 = 0;
      if (i >= fast! - 1) {
        ma1 = s.sum1 / fast!;
        s.sum1 -= price(data[i - (fast! - 1)]!);
      }
      if (i >= slow! - 1) {
        ma2 = s.sum2 / slow!;
        s.sum2 -= price(data[i - (slow! - 1)]!);
      }
      if (i >= longest - 1) {
        const dif = ma1 - ma2;
        out.dma = dif;
        s.dmaSum += dif;
        if (i >= longest + m! - 2) {
          out.ama = s.dmaSum / m!;
          s.dmaSum -= ago(s.values, m! - 1);
        }
      }
      remember(s.values, out.dma, m! - 1);
      return out;
    },
  };
}


/** Psychological line: the share of rising candles in the period, in percent, with its average. */
export function psyFold([n, m]: number[], source: IndicatorSource): Fold<{ ups: number; sum: number; values: Array<number | undefined> }> {
  const price = priceOf(source);
  const up = (data: readonly KLineData[], i: number) => (price(data[i]!) - price(data[i - 1] ?? data[i]!) > 0 ? 1 : 0);
  return {
    start: () => ({ ups: 0, sum: 0, values: [] }),
    copy: (s) => ({ ...s, values: [...s.values] }),
    step: (s, data, i) => {
      const out: IndicatorValues = {};
      s.ups += up(data, i);
      if (i >= n! - 1) {
        out.psy = (s.ups / n!) * 100;
        s.sum += out.psy;
        if (i >= n! + m! - 2) {
          out.maPsy = s.sum / m!;
          s.sum -= ago(s.values, m! - 1);
        }
        s.ups -= up(data, i - (n! - 1));
      }
      remember(s.values, out.psy, m! - 1);
      return out;
    },
  };
}

