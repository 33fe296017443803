/**
 * The chart's tool and indicator names and its size limits, in a zod-free module the browser can
 * import without the schemas (and zod) that `chart.ts` builds from them.
 */

/** Every drawing tool of the spec's four popup menus (section 2, "Drawing-tools popup menus"). */
export const CHART_TOOLS = [
  'trendLine', 'horizontalLine', 'horizontalRay', 'verticalLine', 'infoLine', 'arrowedLine', 'ray', 'extendedLine', 'crossLine', 'trendAngle', 'disjointChannel', 'flatTopBottom',
  'regressionChannel', 'equidistantChannel', 'stdDevChannel', 'pitchfork',
  'gannLine', 'gannFan', 'gannGrid',
  'rectangle', 'circle', 'triangle', 'ellipse',
] as const;
export type ChartToolName = (typeof CHART_TOOLS)[number];

/** The indicators the chart offers. */
export const CHART_INDICATORS = ['MA', 'EMA', 'BOLL', 'RSI', 'MACD', 'VOL'] as const;
export type ChartIndicatorName = (typeof CHART_INDICATORS)[number];

/** The price an indicator is computed from (volume ignores it). */
export const INDICATOR_SOURCES = ['close', 'open', 'high', 'low', 'hl2', 'hlc3'] as const;
export type IndicatorSource = (typeof INDICATOR_SOURCES)[number];

export const MAX_CHART_DRAWINGS = 100;
export const MAX_CHART_INDICATORS = 10;
/** The most anchor points any tool uses. */
export const MAX_DRAWING_POINTS = 3;
