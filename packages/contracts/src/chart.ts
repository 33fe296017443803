import { z } from 'zod';
import { CHART_INDICATORS, CHART_TOOLS, INDICATOR_SOURCES, MAX_CHART_DRAWINGS, MAX_CHART_INDICATORS, MAX_DRAWING_POINTS } from './chart-names';

export * from './chart-names';

/**
 * A trader's chart layout for one symbol, kept on the server: the drawings and the indicator set of
 * the terminal's chart. Every field is bounded so a layout stays small (well under the body limit),
 * and only known tools and indicators with finite coordinates are accepted.
 */

const color = z.string({ error: 'A colour must be #rrggbb.' }).regex(/^#[0-9a-fA-F]{6}$/, 'A colour must be #rrggbb.');
const finite = (label: string) => z.number({ error: `${label} must be a finite number.` }).refine(Number.isFinite, `${label} must be a finite number.`);

export const drawingPoint = z.strictObject({
  timestamp: finite('A point’s time').pipe(z.number().int('A point’s time must be epoch milliseconds.').min(0, 'A point’s time must be epoch milliseconds.').max(8.64e15, 'A point’s time must be epoch milliseconds.')),
  value: finite('A point’s price').pipe(z.number().min(-1e12, 'A point’s price is out of range.').max(1e12, 'A point’s price is out of range.')),
});
export type DrawingPoint = z.infer<typeof drawingPoint>;

export const chartDrawing = z.strictObject({
  tool: z.enum(CHART_TOOLS, { error: (i) => `Unknown drawing tool: ${String(i.input).slice(0, 40)}.` }),
  points: z.array(drawingPoint).min(1, 'A drawing needs at least one point.').max(MAX_DRAWING_POINTS, `A drawing has at most ${MAX_DRAWING_POINTS} points.`),
  color,
  width: z.number({ error: 'A line width must be 1 to 4.' }).int('A line width must be 1 to 4.').min(1, 'A line width must be 1 to 4.').max(4, 'A line width must be 1 to 4.'),
});
export type ChartDrawing = z.infer<typeof chartDrawing>;

export const chartIndicator = z.strictObject({
  name: z.enum(CHART_INDICATORS, { error: (i) => `Unknown indicator: ${String(i.input).slice(0, 40)}.` }),
  params: z.array(z.number({ error: 'An indicator setting must be a number.' }).refine(Number.isFinite, 'An indicator setting must be a finite number.').min(0.1, 'An indicator setting must be between 0.1 and 500.').max(500, 'An indicator setting must be between 0.1 and 500.')).min(1).max(4, 'An indicator has at most 4 settings.'),
  source: z.enum(INDICATOR_SOURCES, { error: 'Unknown indicator source.' }),
  colors: z.array(color).min(1).max(4, 'An indicator has at most 4 colours.'),
});
export type ChartIndicator = z.infer<typeof chartIndicator>;

export const chartLayout = z.strictObject({
  drawings: z.array(chartDrawing).max(MAX_CHART_DRAWINGS, `A chart keeps at most ${MAX_CHART_DRAWINGS} drawings per symbol.`),
  indicators: z.array(chartIndicator).max(MAX_CHART_INDICATORS, `A chart has at most ${MAX_CHART_INDICATORS} indicators.`),
}, { error: (i) => (i.code === 'invalid_type' ? 'layout must be an object with drawings and indicators.' : undefined) });
export type ChartLayout = z.infer<typeof chartLayout>;

const chartSymbol = z.string({ error: 'symbol is required.' }).trim().min(1, 'symbol is required.').max(20, 'symbol is at most 20 characters.').regex(/^[A-Za-z0-9._-]+$/, 'symbol may hold letters, digits, dot, dash and underscore only.').transform((s) => s.toUpperCase());

export const chartLayoutQuery = z.object({ symbol: chartSymbol });
export const saveChartLayoutRequest = z.looseObject({ symbol: chartSymbol, layout: chartLayout }).superRefine((v, ctx) => {
  for (const key of Object.keys(v)) {
    if (key !== 'symbol' && key !== 'layout') ctx.addIssue({ code: 'custom', path: [key], message: `Unknown field: ${key.slice(0, 40)}. Send symbol and layout.` });
  }
});
export type SaveChartLayoutRequest = z.infer<typeof saveChartLayoutRequest>;
/** A symbol never saved answers an empty layout. */
export const chartLayoutResponse = z.object({ status: z.literal('success'), data: z.object({ symbol: z.string(), layout: chartLayout }) });
