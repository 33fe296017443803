import { z } from 'zod';
import { multiline } from './common';
import { CHART_INDICATORS, CHART_TOOLS, indicatorSettingsProblem, INDICATOR_SOURCES, LINE_STYLES, MAX_CHART_DRAWINGS, MAX_CHART_INDICATORS, MAX_CHART_NOTES, MAX_DRAWING_POINTS, MAX_NOTE_LENGTH, MAX_NOTE_LINES, noteLines } from './chart-names';

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

/**
 * A text note's text: drawn on the canvas as plain text (never read as markup), so only its size
 * and control characters are checked.
 */
const noteText = multiline(
  z.string({ error: 'A note’s text must be a string.' }).trim().min(1, 'A note needs some text.').max(MAX_NOTE_LENGTH, `A note has at most ${MAX_NOTE_LENGTH} characters.`),
  'A note',
).refine((text) => noteLines(text).length <= MAX_NOTE_LINES, `A note has at most ${MAX_NOTE_LINES} lines.`);

/**
 * One drawing. `lineStyle` (solid when absent) and `locked` (false when absent) are left out at
 * their defaults, so layouts saved before they existed read back the same; only a text note has,
 * and needs, `text`.
 */
export const chartDrawing = z
  .strictObject({
    tool: z.enum(CHART_TOOLS, { error: (i) => `Unknown drawing tool: ${String(i.input).slice(0, 40)}.` }),
    points: z.array(drawingPoint).min(1, 'A drawing needs at least one point.').max(MAX_DRAWING_POINTS, `A drawing has at most ${MAX_DRAWING_POINTS} points.`),
    color,
    width: z.number({ error: 'A line width must be 1 to 4.' }).int('A line width must be 1 to 4.').min(1, 'A line width must be 1 to 4.').max(4, 'A line width must be 1 to 4.'),
    lineStyle: z.enum(LINE_STYLES, { error: 'A line style must be solid, dashed or dotted.' }).optional(),
    locked: z.boolean({ error: 'locked must be true or false.' }).optional(),
    text: noteText.optional(),
  })
  .superRefine((d, ctx) => {
    if (d.tool === 'textNote' && d.text === undefined) ctx.addIssue({ code: 'custom', path: ['text'], message: 'A text note needs its text.' });
    if (d.tool !== 'textNote' && d.text !== undefined) ctx.addIssue({ code: 'custom', path: ['text'], message: 'Only a text note has text.' });
  });
export type ChartDrawing = z.infer<typeof chartDrawing>;

/** An indicator with its settings: as many as it takes, each within its own bounds (`INDICATOR_SETTINGS`). */
export const chartIndicator = z
  .strictObject({
    name: z.enum(CHART_INDICATORS, { error: (i) => `Unknown indicator: ${String(i.input).slice(0, 40)}.` }),
    params: z.array(z.number({ error: 'An indicator setting must be a number.' }).refine(Number.isFinite, 'An indicator setting must be a finite number.')).max(4, 'An indicator has at most 4 settings.'),
    source: z.enum(INDICATOR_SOURCES, { error: 'Unknown indicator source.' }),
    colors: z.array(color).min(1, 'An indicator needs a colour.').max(4, 'An indicator has at most 4 colours.'),
  })
  .superRefine((i, ctx) => {
    const problem = indicatorSettingsProblem(i.name, i.params);
    if (problem) ctx.addIssue({ code: 'custom', path: ['params'], message: problem });
  });
export type ChartIndicator = z.infer<typeof chartIndicator>;

export const chartLayout = z.strictObject({
  drawings: z
    .array(chartDrawing)
    .max(MAX_CHART_DRAWINGS, `A chart keeps at most ${MAX_CHART_DRAWINGS} drawings per symbol.`)
    .refine((drawings) => drawings.filter((d) => d.tool === 'textNote').length <= MAX_CHART_NOTES, `A chart keeps at most ${MAX_CHART_NOTES} text notes per symbol.`),
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
