import type { ChartIndicatorName, IndicatorSource } from '@tradeport/contracts';
import { coreFoldOf, priceOf, type Fold, type IndicatorValues } from './indicator-folds';
import { aoFold, biasFold, cciFold, dmaFold, dmiFold, kdjFold, mtmFold, psyFold, rocFold, trixFold, wrFold } from './oscillator-folds';
import { brarFold, obvFold, pvtFold, vrFold } from './volume-folds';

/*
 * The folds of the indicators beyond the first six (see indicator-folds.ts for what a fold is):
 * KLineChart's own formulas, the same arithmetic in the same order. A module of its own (with the
 * oscillators' in oscillator-folds.ts and the volume indicators' in volume-folds.ts), loaded when
 * one of them is first put on a chart, so that the terminal does not download them for a chart
 * that has none. Here: those drawn over the price, and the fold of any indicator by its name.
 */

/** KLineChart's SMA: seeded with the simple average, then (price × weight + previous × (period − weight + 1)) / (period + 1). */
export function smaFold([n, weight]: number[], source: IndicatorSource): Fold<{ sum: number; sma: number }> {
  const price = priceOf(source);
  return {
    start: () => ({ sum: 0, sma: 0 }),
    copy: (s) => ({ ...s }),
    step: (s, data, i): IndicatorValues => {
      const close = price(data[i]!);
      s.sum += close;
      if (i < n! - 1) return {};
      s.sma = i > n! - 1 ? (close * weight! + s.sma * (n! - weight! + 1)) / (n! + 1) : s.sum / n!;
      return { sma: s.sma };
    },
  };
}

interface SarState {
  af: number;
  ep: number;
  rising: boolean;
  sar: number;
}

/** Parabolic SAR, its acceleration factors given in percent (KLineChart's arithmetic, its first trend falling). */
export function sarFold([start, step, max]: number[]): Fold<SarState> {
  const startAf = start! / 100;
  const stepAf = step! / 100;
  const maxAf = max! / 100;
  return {
    start: () => ({ af: startAf, ep: -100, rising: false, sar: 0 }),
    copy: (s) => ({ ...s }),
    step: (s, data, i) => {
      const k = data[i]!;
      const preSar = s.sar;
      const { high, low } = k;
      if (s.rising) {
        if (s.ep === -100 || s.ep < high) {
          s.ep = high;
          s.af = Math.min(s.af + stepAf, maxAf);
        }
        s.sar = preSar + s.af * (s.ep - preSar);
        const lowMin = Math.min(data[Math.max(1, i) - 1]!.low, low);
        if (s.sar > k.low) {
          s.sar = s.ep;
          s.af = startAf;
          s.ep = -100;
          s.rising = !s.rising;
        } else if (s.sar > lowMin) s.sar = lowMin;
      } else {
        if (s.ep === -100 || s.ep > low) {
          s.ep = low;
          s.af = Math.min(s.af + stepAf, maxAf);
        }
        s.sar = preSar + s.af * (s.ep - preSar);
        const highMax = Math.max(data[Math.max(1, i) - 1]!.high, high);
        if (s.sar < k.high) {
          s.sar = s.ep;
          s.af = startAf;
          s.ep = -100;
          s.rising = !s.rising;
        } else if (s.sar < highMax) s.sar = highMax;
      }
      // The candle's high and low colour the dot (under or over the price).
      return { high, low, sar: s.sar };
    },
  };
}

/** Bull and bear index: the mean of four moving averages (divided by four, as KLineChart does). */
export function bbiFold(periods: number[], source: IndicatorSource): Fold<{ sums: number[]; mas: number[] }> {
  const price = priceOf(source);
  const longest = Math.max(...periods);
  return {
    start: () => ({ sums: periods.map(() => 0), mas: [] }),
    copy: (s) => ({ sums: [...s.sums], mas: [...s.mas] }),
    step: (s, data, i): IndicatorValues => {
      const close = price(data[i]!);
      periods.forEach((p, j) => {
        s.sums[j]! += close;
        if (i >= p - 1) {
          s.mas[j] = s.sums[j]! / p;
          s.sums[j]! -= price(data[i - (p - 1)]!);
        }
      });
      if (i < longest - 1) return {};
      let sum = 0;
      for (const ma of s.mas) sum += ma;
      return { bbi: sum / 4 };
    },
  };
}

/** The fold of any indicator the chart offers with its settings; `keys` are its lines' figure keys in KLineChart's order. */
export function foldOf(name: ChartIndicatorName, params: number[], source: IndicatorSource, keys: string[]): Fold<unknown> {
  const core = coreFoldOf(name, params, source, keys);
  if (core) return core;
  switch (name) {
    case 'SMA':
      return smaFold(params, source) as Fold<unknown>;
    case 'SAR':
      return sarFold(params) as Fold<unknown>;
    case 'BBI':
      return bbiFold(params, source) as Fold<unknown>;
    case 'KDJ':
      return kdjFold(params) as Fold<unknown>;
    case 'CCI':
      return cciFold(params) as Fold<unknown>;
    case 'DMI':
      return dmiFold(params) as Fold<unknown>;
    case 'WR':
      return wrFold(params, keys) as Fold<unknown>;
    case 'AO':
      return aoFold(params) as Fold<unknown>;
    case 'MTM':
      return mtmFold(params, source) as Fold<unknown>;
    case 'ROC':
      return rocFold(params, source) as Fold<unknown>;
    case 'TRIX':
      return trixFold(params, source) as Fold<unknown>;
    case 'BIAS':
      return biasFold(params, keys, source) as Fold<unknown>;
    case 'DMA':
      return dmaFold(params, source) as Fold<unknown>;
    case 'OBV':
      return obvFold(params) as Fold<unknown>;
    case 'PVT':
      return pvtFold() as Fold<unknown>;
    case 'VR':
      return vrFold(params) as Fold<unknown>;
    case 'BRAR':
      return brarFold(params) as Fold<unknown>;
    case 'PSY':
      return psyFold(params, source) as Fold<unknown>;
    default:
      throw new Error(`No fold for ${name}.`);
  }
}
