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
