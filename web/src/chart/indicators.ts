import type { ChartIndicator, ChartIndicatorName, IndicatorSource } from '@tradeport/contracts';
import type { KLineData } from 'klinecharts';

export interface IndicatorSetting {
  label: string;
  min: number;
  max: number;
  /** Whole numbers only (periods); otherwise one decimal (deviations). */
  whole: boolean;
}

export interface IndicatorDefinition {
  name: ChartIndicatorName;
  label: string;
  /** Drawn over the candles, or in a pane of its own below them. */
  overlay: boolean;
  settings: IndicatorSetting[];
  /** The colour of each line, in KLineChart's figure order. */
  colorLabels: string[];
  /** Whether it is computed from a price (volume is not). */
  usesSource: boolean;
  defaults: Omit<ChartIndicator, 'name'>;
}

const period = (label = 'Period'): IndicatorSetting => ({ label, min: 1, max: 500, whole: true });

export const INDICATORS: readonly IndicatorDefinition[] = [
  { name: 'MA', label: 'Moving average', overlay: true, settings: [period()], colorLabels: ['Line'], usesSource: true, defaults: { params: [20], source: 'close', colors: ['#f08c00'] } },
  { name: 'EMA', label: 'Exponential moving average', overlay: true, settings: [period()], colorLabels: ['Line'], usesSource: true, defaults: { params: [50], source: 'close', colors: ['#1c7ed6'] } },
  {
    name: 'BOLL',
    label: 'Bollinger Bands',
    overlay: true,
    settings: [period(), { label: 'Deviations', min: 0.1, max: 10, whole: false }],
    colorLabels: ['Upper band', 'Middle line', 'Lower band'],
    usesSource: true,
    defaults: { params: [20, 2], source: 'close', colors: ['#7048e8', '#868e96', '#7048e8'] },
  },
  { name: 'RSI', label: 'Relative strength index', overlay: false, settings: [period()], colorLabels: ['Line'], usesSource: true, defaults: { params: [14], source: 'close', colors: ['#ae3ec9'] } },
  {
    name: 'MACD',
    label: 'MACD',
    overlay: false,
    settings: [period('Fast period'), period('Slow period'), period('Signal period')],
    colorLabels: ['MACD line', 'Signal line'],
    usesSource: true,
    defaults: { params: [12, 26, 9], source: 'close', colors: ['#1c7ed6', '#f08c00'] },
  },
  { name: 'VOL', label: 'Volume', overlay: false, settings: [period('Average period')], colorLabels: ['Average'], usesSource: false, defaults: { params: [20], source: 'close', colors: ['#f08c00'] } },
];

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
  return `${i.name} ${i.params.join(', ')}${source}`;
}

/** A fresh indicator with its defaults. */
export const newIndicator = (name: ChartIndicatorName): ChartIndicator => ({ name, ...structuredClone(INDICATOR_BY_NAME.get(name)!.defaults) });
