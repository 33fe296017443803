import { INDICATOR_SETTINGS, type IndicatorSettingRule } from '@tradeport/contracts/chart-names';
import type { ChartIndicator, ChartIndicatorName, IndicatorSource } from '@tradeport/contracts';
import type { DeepPartial, IndicatorStyle, KLineData } from 'klinecharts';

export type IndicatorSetting = IndicatorSettingRule;

/**
 * How an indicator's values are written (its legend and, below the candles, its axis):
 * - `price`: in the instrument's digits, as KLineChart writes a price series (the averages and bands);
 * - `fixed`: a set number of decimals (oscillators on a 0–100 scale: 2);
 * - `priceDetail`: a difference of prices (MACD, momentum), one digit more than the instrument's, so
 *   a MACD of 0.000039 on EURUSD reads 0.000039 and not 0.00004;
 * - `volume`: whole volumes, large ones as 12.5K (KLineChart's volume series).
 */
export type IndicatorPrecision = { kind: 'price' } | { kind: 'fixed'; decimals: number } | { kind: 'priceDetail' } | { kind: 'volume' };

export interface IndicatorDefinition {
  name: ChartIndicatorName;
  /** The name people know it by, in the menu and its settings' title. */
  label: string;
  /** Drawn over the candles, or in a pane of its own below them. */
  overlay: boolean;
  settings: readonly IndicatorSetting[];
  /** The colour of each line (or of its rising and falling dots or bars), in KLineChart's figure order. */
  colorLabels: string[];
  /** Whether it is computed from a price the trader picks (close, HL/2…) or from the candle as a whole. */
  usesSource: boolean;
  precision: IndicatorPrecision;
  /** What its colours colour: lines (the default), or the up and down colours of its dots or bars. */
  paints?: 'circles' | 'bars';
  defaults: Omit<ChartIndicator, 'name'>;
}

const PRICE: IndicatorPrecision = { kind: 'price' };
const DETAIL: IndicatorPrecision = { kind: 'priceDetail' };
const OSCILLATOR: IndicatorPrecision = { kind: 'fixed', decimals: 2 };
const PERCENT: IndicatorPrecision = { kind: 'fixed', decimals: 3 };

const UP = '#2f9e44';
const DOWN = '#e03131';

type Entry = Omit<IndicatorDefinition, 'settings' | 'defaults'> & { params: number[]; colors: string[] };

/** Drawn over the candles first, then those in a pane below; the menu lists them in this order. */
const ENTRIES: Entry[] = [
  { name: 'MA', label: 'Moving average', overlay: true, colorLabels: ['Line'], usesSource: true, precision: PRICE, params: [20], colors: ['#f08c00'] },
  { name: 'EMA', label: 'Exponential moving average', overlay: true, colorLabels: ['Line'], usesSource: true, precision: PRICE, params: [50], colors: ['#1c7ed6'] },
  { name: 'SMA', label: 'Smoothed moving average', overlay: true, colorLabels: ['Line'], usesSource: true, precision: PRICE, params: [12, 2], colors: ['#0c8599'] },
  { name: 'BOLL', label: 'Bollinger Bands', overlay: true, colorLabels: ['Upper band', 'Middle line', 'Lower band'], usesSource: true, precision: PRICE, params: [20, 2], colors: ['#7048e8', '#868e96', '#7048e8'] },
  { name: 'SAR', label: 'Parabolic SAR', overlay: true, colorLabels: ['Dots under the price', 'Dots over the price'], usesSource: false, precision: PRICE, paints: 'circles', params: [2, 2, 20], colors: [UP, DOWN] },
  { name: 'BBI', label: 'Bull and bear index', overlay: true, colorLabels: ['Line'], usesSource: true, precision: PRICE, params: [3, 6, 12, 24], colors: ['#ae3ec9'] },
  { name: 'VOL', label: 'Volume', overlay: false, colorLabels: ['Average'], usesSource: false, precision: { kind: 'volume' }, params: [20], colors: ['#f08c00'] },
  { name: 'MACD', label: 'MACD', overlay: false, colorLabels: ['MACD line', 'Signal line'], usesSource: true, precision: DETAIL, params: [12, 26, 9], colors: ['#1c7ed6', '#f08c00'] },
  { name: 'RSI', label: 'Relative strength index', overlay: false, colorLabels: ['Line'], usesSource: true, precision: OSCILLATOR, params: [14], colors: ['#ae3ec9'] },
  { name: 'KDJ', label: 'Stochastic (KDJ)', overlay: false, colorLabels: ['%K', '%D', 'J'], usesSource: false, precision: OSCILLATOR, params: [9, 3, 3], colors: ['#1c7ed6', '#f08c00', '#ae3ec9'] },
  { name: 'CCI', label: 'Commodity channel index', overlay: false, colorLabels: ['Line'], usesSource: false, precision: OSCILLATOR, params: [20], colors: ['#0c8599'] },
  { name: 'DMI', label: 'ADX (DMI)', overlay: false, colorLabels: ['+DI', '−DI', 'ADX', 'ADXR'], usesSource: false, precision: OSCILLATOR, params: [14, 6], colors: [UP, DOWN, '#1c7ed6', '#868e96'] },
  { name: 'WR', label: 'Williams %R', overlay: false, colorLabels: ['Line'], usesSource: false, precision: OSCILLATOR, params: [14], colors: ['#7048e8'] },
  { name: 'AO', label: 'Awesome oscillator', overlay: false, colorLabels: ['Rising bars', 'Falling bars'], usesSource: false, precision: DETAIL, paints: 'bars', params: [5, 34], colors: [UP, DOWN] },
  { name: 'MTM', label: 'Momentum', overlay: false, colorLabels: ['Momentum', 'Average'], usesSource: true, precision: DETAIL, params: [12, 6], colors: ['#1c7ed6', '#f08c00'] },
  { name: 'ROC', label: 'Rate of change', overlay: false, colorLabels: ['Rate of change', 'Average'], usesSource: true, precision: PERCENT, params: [12, 6], colors: ['#1c7ed6', '#f08c00'] },
  { name: 'TRIX', label: 'TRIX (triple EMA)', overlay: false, colorLabels: ['TRIX', 'Average'], usesSource: true, precision: { kind: 'fixed', decimals: 4 }, params: [12, 9], colors: ['#1c7ed6', '#f08c00'] },
  { name: 'BIAS', label: 'Bias (distance from average)', overlay: false, colorLabels: ['Line'], usesSource: true, precision: PERCENT, params: [12], colors: ['#0c8599'] },
  { name: 'DMA', label: 'Difference of moving averages (DMA)', overlay: false, colorLabels: ['Difference', 'Average'], usesSource: true, precision: DETAIL, params: [10, 50, 10], colors: ['#1c7ed6', '#f08c00'] },
  { name: 'OBV', label: 'On-balance volume', overlay: false, colorLabels: ['OBV', 'Average'], usesSource: false, precision: { kind: 'volume' }, params: [30], colors: ['#1c7ed6', '#f08c00'] },
  { name: 'PVT', label: 'Price and volume trend', overlay: false, colorLabels: ['Line'], usesSource: false, precision: OSCILLATOR, params: [], colors: ['#1c7ed6'] },
  { name: 'VR', label: 'Volume ratio', overlay: false, colorLabels: ['Ratio', 'Average'], usesSource: false, precision: OSCILLATOR, params: [26, 6], colors: ['#1c7ed6', '#f08c00'] },
  { name: 'BRAR', label: 'Sentiment (BRAR)', overlay: false, colorLabels: ['BR', 'AR'], usesSource: false, precision: OSCILLATOR, params: [26], colors: ['#1c7ed6', '#f08c00'] },
  { name: 'PSY', label: 'Psychological line', overlay: false, colorLabels: ['Line', 'Average'], usesSource: true, precision: OSCILLATOR, params: [12, 6], colors: ['#1c7ed6', '#f08c00'] },
];

export const INDICATORS: readonly IndicatorDefinition[] = ENTRIES.map(({ params, colors, ...e }) => ({ ...e, settings: INDICATOR_SETTINGS[e.name], defaults: { params, source: 'close', colors } }));

export const INDICATOR_BY_NAME = new Map(INDICATORS.map((d) => [d.name, d]));

export const SOURCE_LABELS: Record<IndicatorSource, string> = { close: 'Close', open: 'Open', high: 'High', low: 'Low', hl2: '(High + Low) / 2', hlc3: '(High + Low + Close) / 3' };

/** The price a candle gives for a source. */
export function sourcePrice(k: KLineData, source: IndicatorSource): number {
  switch (source) {
    case 'open':
      return k.open;
    case 'high':
      return k.high;
    case 'low':
      return k.low;
    case 'hl2':
      return (k.high + k.low) / 2;
    case 'hlc3':
      return (k.high + k.low + k.close) / 3;
    default:
      return k.close;
  }
}

/** "RSI 14", "BOLL 20, 2 · HL/2": how an indicator is named in lists. */
export function indicatorTitle(i: ChartIndicator): string {
  const def = INDICATOR_BY_NAME.get(i.name);
  const source = def?.usesSource && i.source !== 'close' ? ` · ${SOURCE_LABELS[i.source]}` : '';
  return `${i.name}${i.params.length ? ` ${i.params.join(', ')}` : ''}${source}`;
}

/** A fresh indicator with its defaults. */
export const newIndicator = (name: ChartIndicatorName): ChartIndicator => ({ name, ...structuredClone(INDICATOR_BY_NAME.get(name)!.defaults) });

/**
 * The decimals an indicator's values are written with on an instrument of `digits`, or undefined
 * for a series KLineChart writes itself (prices in the instrument's digits, volumes whole). Never
 * the instrument's own digits for a value that is not a price: the chart folds zeros only in
 * numbers written in those (see `foldPriceZeros`).
 */
export function indicatorDecimals(precision: IndicatorPrecision, digits: number): number | undefined {
  switch (precision.kind) {
    case 'fixed':
      return precision.decimals === digits ? precision.decimals + 1 : precision.decimals;
    case 'priceDetail':
      return digits + 1;
    default:
      return undefined;
  }
}

/**
 * KLineChart's zero folding ("0.0{4}3" for 0.00003), applied only to a number written in the
 * instrument's digits: a price. Indicator values are written in their own decimals (never the
 * instrument's, `indicatorDecimals`) and so are never folded. `value` is what KLineChart writes
 * (thousands separated); `threshold` is how many zeros make a fold (KLineChart's default 3).
 */
export function foldPriceZeros(value: string | number, digits: number, threshold = 3): string {
  const text = String(value);
  const dot = text.lastIndexOf('.');
  if (dot < 0 || text.length - dot - 1 !== digits) return text;
  const decimals = text.slice(dot + 1);
  const zeros = /^0*/.exec(decimals)![0].length;
  if (zeros < threshold || !/^[0-9]+$/.test(decimals) || zeros === decimals.length) return text;
  return `${text.slice(0, dot + 1)}0{${zeros}}${decimals.slice(zeros)}`;
}

/** The indicator's colours as KLineChart styles: its lines, or the rising and falling colours of its dots or bars. */
export function indicatorStyles(def: IndicatorDefinition, colors: readonly string[]): DeepPartial<IndicatorStyle> {
  const pick = (i: number) => colors[i] ?? def.defaults.colors[i]!;
  // Every field of KLineChart's own, not only the colours: its list replaces the theme's.
  const upDown = { style: 'fill', borderStyle: 'solid', borderSize: 1, borderDashedValue: [2, 2], upColor: pick(0), downColor: pick(1), noChangeColor: '#888888' } as DeepPartial<IndicatorStyle['bars'][number]>;
  if (def.paints === 'circles') return { circles: [upDown] };
  if (def.paints === 'bars') return { bars: [upDown] };
  return { lines: def.colorLabels.map((_, i) => ({ color: pick(i), size: 1.5 })) };
}
