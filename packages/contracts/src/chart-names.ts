/**
 * The chart's tool and indicator names and its size limits, in a zod-free module the browser can
 * import without the schemas (and zod) that `chart.ts` builds from them.
 */

/**
 * Every drawing tool: those of the spec's four popup menus (section 2, "Drawing-tools popup
 * menus"), and our additions — the Fibonacci retracement and extension, and the text note.
 */
export const CHART_TOOLS = [
  'trendLine', 'horizontalLine', 'horizontalRay', 'verticalLine', 'infoLine', 'arrowedLine', 'ray', 'extendedLine', 'crossLine', 'trendAngle', 'disjointChannel', 'flatTopBottom',
  'regressionChannel', 'equidistantChannel', 'stdDevChannel', 'pitchfork',
  'gannLine', 'gannFan', 'gannGrid',
  'fibRetracement', 'fibExtension',
  'rectangle', 'circle', 'triangle', 'ellipse',
  'textNote',
] as const;
export type ChartToolName = (typeof CHART_TOOLS)[number];

/**
 * The indicators the chart offers: KLineChart's own by their KLineChart names, those drawn over the
 * candles first. (Of its set, CR and EMV are left out for defects in its formulas, and AVP, which
 * needs a turnover our candles do not have.)
 */
export const CHART_INDICATORS = [
  'MA', 'EMA', 'SMA', 'BOLL', 'SAR', 'BBI',
  'VOL', 'MACD', 'RSI', 'KDJ', 'CCI', 'DMI', 'WR', 'AO', 'MTM', 'ROC', 'TRIX', 'BIAS', 'DMA', 'OBV', 'PVT', 'VR', 'BRAR', 'PSY',
] as const;
export type ChartIndicatorName = (typeof CHART_INDICATORS)[number];

/** One setting of an indicator: a period (whole) or a factor (one decimal), within bounds. */
export interface IndicatorSettingRule {
  label: string;
  min: number;
  max: number;
  whole: boolean;
}

const period = (label = 'Period', max = 500): IndicatorSettingRule => ({ label, min: 1, max, whole: true });
/** An average of a line the indicator derives: of at least two values (KLineChart's formulas need two). */
const average = (label = 'Average period'): IndicatorSettingRule => ({ label, min: 2, max: 500, whole: true });
const factor = (label: string, min: number, max: number): IndicatorSettingRule => ({ label, min, max, whole: false });

/** Each indicator's settings, in KLineChart's order of its `calcParams`: a layout sends exactly these. */
export const INDICATOR_SETTINGS: Readonly<Record<ChartIndicatorName, readonly IndicatorSettingRule[]>> = {
  MA: [period()],
  EMA: [period()],
  // KLineChart's SMA: (price × weight + previous × (period − weight + 1)) / (period + 1).
  SMA: [period('Period', 500), period('Weight', 100)],
  BOLL: [period(), factor('Deviations', 0.1, 10)],
  // Acceleration factors in percent, as KLineChart takes them (2 = 0.02).
  SAR: [factor('Start (%)', 0.1, 10), factor('Step (%)', 0.1, 10), factor('Maximum (%)', 1, 50)],
  BBI: [period('Period 1'), period('Period 2'), period('Period 3'), period('Period 4')],
  VOL: [period('Average period')],
  MACD: [period('Fast period'), period('Slow period'), period('Signal period')],
  RSI: [period()],
  KDJ: [period('%K period'), period('%K smoothing', 100), period('%D smoothing', 100)],
  CCI: [period()],
  DMI: [period('DI period'), average('ADXR period')],
  WR: [period()],
  AO: [period('Fast period'), period('Slow period')],
  MTM: [period(), average()],
  ROC: [period(), average()],
  TRIX: [period(), average()],
  BIAS: [period()],
  DMA: [period('Fast period'), period('Slow period'), average()],
  OBV: [average()],
  PVT: [],
  VR: [period(), average()],
  BRAR: [period()],
  PSY: [period(), average()],
};

/**
 * What is wrong with an indicator's settings, in words, or null when they are right: as many as it
 * has, each within its bounds (whole where a period), and the pairs that must agree agreeing.
 */
export function indicatorSettingsProblem(name: ChartIndicatorName, params: readonly number[]): string | null {
  const rules = INDICATOR_SETTINGS[name];
  if (params.length !== rules.length) return rules.length ? `${name} takes ${rules.length} setting${rules.length === 1 ? '' : 's'} (${rules.map((r) => r.label).join(', ')}).` : `${name} takes no settings.`;
  for (const [i, rule] of rules.entries()) {
    const p = params[i]!;
    if (!Number.isFinite(p) || p < rule.min || p > rule.max || (rule.whole && !Number.isInteger(p))) return `${name} ${rule.label} must be ${settingRange(rule)}.`;
  }
  if (name === 'SMA' && params[1]! > params[0]!) return 'SMA Weight must not be more than the period.';
  if (name === 'SAR' && (params[0]! > params[2]! || params[1]! > params[2]!)) return 'SAR Start and Step must not be more than the Maximum.';
  return null;
}

/** "a whole number from 1 to 500", "from 0.1 to 10". */
export function settingRange(rule: IndicatorSettingRule): string {
  return rule.whole ? `a whole number from ${rule.min} to ${rule.max}` : `from ${rule.min} to ${rule.max}`;
}

/** The price an indicator is computed from (volume ignores it). */
export const INDICATOR_SOURCES = ['close', 'open', 'high', 'low', 'hl2', 'hlc3'] as const;
export type IndicatorSource = (typeof INDICATOR_SOURCES)[number];

export const MAX_CHART_DRAWINGS = 100;
export const MAX_CHART_INDICATORS = 10;
/** The most anchor points any tool uses. */
export const MAX_DRAWING_POINTS = 3;

/** How a drawing's lines are stroked (solid when a drawing names none). */
export const LINE_STYLES = ['solid', 'dashed', 'dotted'] as const;
export type LineStyle = (typeof LINE_STYLES)[number];

/**
 * A text note's limits: its characters, its lines, and how many notes one symbol's layout keeps.
 * Together they keep the largest layout (every note full of three-byte characters) inside the
 * server's 64 KB body limit.
 */
export const MAX_NOTE_LENGTH = 200;
export const MAX_NOTE_LINES = 5;
export const MAX_CHART_NOTES = 20;

/** The lines of a note's text (a line break as a browser's text area or another system writes it). */
export const noteLines = (text: string): string[] => text.split(/\r\n|\r|\n/);
