import { line, type Anchor, type Pt, type Shape, type ToolDefinition } from './shape';

/** The retracement's levels, as fractions of the move back from its second point to its first. */
export const RETRACEMENT_LEVELS = [0, 0.236, 0.382, 0.5, 0.618, 0.786, 1] as const;
/** The extension's levels, as fractions of the first leg projected from the third point. */
export const EXTENSION_LEVELS = [0, 0.382, 0.618, 1, 1.618, 2.618, 4.236] as const;

/** Shorter than this, a drawing's levels would hide their labels: they are drawn at least this long. */
const MIN_SPAN_PX = 80;

/** A level's label: its percentage (one decimal where it has one) and its price, "61.8% (1.08234)". */
export function levelText(level: number, price: number, digits: number): string {
  const percent = Math.round(level * 1000) / 10;
  return `${percent}% (${price.toFixed(digits)})`;
}

/**
 * Horizontal levels across [left, right], each at the price and height linear between `from`
 * (level 0) and `to` (level 1) and beyond, labelled above its left end.
 */
function levels(levelsOf: readonly number[], from: { pt: Pt; value: number }, delta: { y: number; value: number }, left: number, right: number, digits: number): Shape[] {
  const span = Math.max(right, left + MIN_SPAN_PX);
  return levelsOf.flatMap((level): Shape[] => {
    const y = from.pt.y + delta.y * level;
    return [line({ x: left, y }, { x: span, y }), { kind: 'text', at: { x: left + 2, y: y - 1 }, text: levelText(level, from.value + delta.value * level, digits), align: 'left', baseline: 'bottom' }];
  });
}

const valueOf = (anchor: Anchor | undefined, fallback: number) => (anchor && Number.isFinite(anchor.value) ? anchor.value : fallback);

/**
 * Fibonacci retracement: from the start of a move (first point) to its end (second point), the
 * levels a pull-back is watched at — 0% at the end of the move, 100% back at its start (as
 * TradingView and KLineChart's own fibonacciLine count them) — with the dashed move between.
 */
export const fibRetracement: ToolDefinition = {
  name: 'fibRetracement',
  label: 'Fib retracement',
  menu: 'fibonacci',
  points: 2,
  geometry: ({ coords: [a, b], anchors: [pa, pb], digits }) => {
    if (!a || !b) return [];
    const end = valueOf(pb, 0);
    const start = valueOf(pa, end);
    return [line(a, b, true), ...levels(RETRACEMENT_LEVELS, { pt: b, value: end }, { y: a.y - b.y, value: start - end }, Math.min(a.x, b.x), Math.max(a.x, b.x), digits)];
  },
};

/**
 * Fibonacci extension (trend-based): a move from the first point to the second, a pull-back to
 * the third, and the move's length projected from the third point at the extension levels — 100%
 * is the same move again. Until the third point is placed it shows the first leg.
 */
export const fibExtension: ToolDefinition = {
  name: 'fibExtension',
  label: 'Fib extension',
  menu: 'fibonacci',
  points: 3,
  geometry: ({ coords: [a, b, c], anchors: [pa, pb, pc], digits }) => {
    if (!a || !b) return [];
    if (!c) return [line(a, b, true)];
    const legValue = valueOf(pb, 0) - valueOf(pa, 0);
    // The levels reach as far right of the pull-back as the first leg is long: where the move they project lies.
    const right = c.x + Math.abs(b.x - a.x);
    return [line(a, b, true), line(b, c, true), ...levels(EXTENSION_LEVELS, { pt: c, value: valueOf(pc, 0) }, { y: b.y - a.y, value: legValue }, Math.min(b.x, c.x), Math.max(right, b.x), digits)];
  },
};
