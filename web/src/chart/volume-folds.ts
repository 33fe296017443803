import type { KLineData } from 'klinecharts';
import { ago, remember } from './fold-windows';
import type { Fold, IndicatorValues } from './indicator-folds';

/* The volume and buying-pressure indicators' folds (see more-indicator-folds.ts): KLineChart's own formulas, the same arithmetic in the same order. */

/** On-balance volume: volume added on an up close, taken off on a down close, with its `m`-candle average. */
export function obvFold([m]: number[]): Fold<{ obv: number; sum: number; values: Array<number | undefined> }> {
  return {
    start: () => ({ obv: 0, sum: 0, values: [] }),
    copy: (s) => ({ ...s, values: [...s.values] }),
    step: (s, data, i) => {
      const k = data[i]!;
      const prev = data[i - 1] ?? k;
      if (k.close < prev.close) s.obv -= k.volume ?? 0;
      else if (k.close > prev.close) s.obv += k.volume ?? 0;
      const out: IndicatorValues = { obv: s.obv };
      s.sum += s.obv;
      if (i >= m! - 1) {
        out.maObv = s.sum / m!;
        s.sum -= ago(s.values, m! - 1);
      }
      remember(s.values, s.obv, m! - 1);
      return out;
    },
  };
}

/** Price and volume trend: the running sum of each candle's percent change times its volume. */
export function pvtFold(): Fold<{ sum: number }> {
  return {
    start: () => ({ sum: 0 }),
    copy: (s) => ({ ...s }),
    step: (s, data, i) => {
      const k = data[i]!;
      const volume = k.volume ?? 1;
      const prevClose = (data[i - 1] ?? k).close;
      s.sum += prevClose !== 0 ? ((k.close - prevClose) / prevClose) * volume : 0;
      return { pvt: s.sum };
    },
  };
}

/** Which of a candle's volume counts as rising (1), falling (−1) or unchanged (0) for the volume ratio. */
const direction = (k: KLineData, prev: KLineData) => (k.close > prev.close ? 1 : k.close < prev.close ? -1 : 0);

/** Volume ratio: rising volume (and half the unchanged) over falling volume (and half the unchanged), in percent, with its average. */
export function vrFold([n, m]: number[]): Fold<{ uvs: number; dvs: number; pvs: number; sum: number; values: Array<number | undefined> }> {
  return {
    start: () => ({ uvs: 0, dvs: 0, pvs: 0, sum: 0, values: [] }),
    copy: (s) => ({ ...s, values: [...s.values] }),
    step: (s, data, i) => {
      const out: IndicatorValues = {};
      const k = data[i]!;
      const volume = k.volume ?? 0;
      const dir = direction(k, data[i - 1] ?? k);
      if (dir > 0) s.uvs += volume;
      else if (dir < 0) s.dvs += volume;
      else s.pvs += volume;
      if (i >= n! - 1) {
        const halfPvs = s.pvs / 2;
        out.vr = s.dvs + halfPvs === 0 ? 0 : ((s.uvs + halfPvs) / (s.dvs + halfPvs)) * 100;
        s.sum += out.vr;
        if (i >= n! + m! - 2) {
          out.maVr = s.sum / m!;
          s.sum -= ago(s.values, m! - 1);
        }
        const agoData = data[i - (n! - 1)]!;
        const agoVolume = agoData.volume ?? 0;
        const agoDir = direction(agoData, data[i - n!] ?? agoData);
        if (agoDir > 0) s.uvs -= agoVolume;
        else if (agoDir < 0) s.dvs -= agoVolume;
        else s.pvs -= agoVolume;
      }
      remember(s.values, out.vr, m! - 1);
      return out;
    },
  };
}

/** BRAR: buying pressure against the previous close (BR) and against the open (AR), in percent. */
export function brarFold([n]: number[]): Fold<{ hcy: number; cyl: number; ho: number; ol: number }> {
  return {
    start: () => ({ hcy: 0, cyl: 0, ho: 0, ol: 0 }),
    copy: (s) => ({ ...s }),
    step: (s, data, i) => {
      const k = data[i]!;
      const prevClose = (data[i - 1] ?? k).close;
      s.ho += k.high - k.open;
      s.ol += k.open - k.low;
      s.hcy += k.high - prevClose;
      s.cyl += prevClose - k.low;
      if (i < n! - 1) return {};
      const out: IndicatorValues = { ar: s.ol !== 0 ? (s.ho / s.ol) * 100 : 0, br: s.cyl !== 0 ? (s.hcy / s.cyl) * 100 : 0 };
      const agoData = data[i - (n! - 1)]!;
      const agoPreClose = (data[i - n!] ?? agoData).close;
      s.hcy -= agoData.high - agoPreClose;
      s.cyl -= agoPreClose - agoData.low;
      s.ho -= agoData.high - agoData.open;
      s.ol -= agoData.open - agoData.low;
      return out;
    },
  };
}

