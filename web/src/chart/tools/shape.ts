import type { ChartToolName } from '@tradeport/contracts';

/** A pixel position on the chart's pane. */
export interface Pt {
  x: number;
  y: number;
}

/** An anchor point's place in the data: its price, time and candle index. */
export interface Anchor {
  value: number;
  timestamp: number;
  dataIndex: number;
}

/** What a tool's geometry is drawn from: its anchors in pixels and in data, and the pane's size. */
export interface ToolInput {
  coords: Pt[];
  anchors: Anchor[];
  width: number;
  height: number;
  /** Price digits of the symbol, for labels. */
  digits: number;
  /** The closes by candle index (regression and standard deviation channels). */
  closes?: (from: number, to: number) => number[];
  /** Price to pixel y on this pane (channels computed in prices). */
  yOf?: (price: number) => number;
  /** A text note's text. */
  text?: string;
}

/** The figures a tool draws; the overlay wrapper turns them into KLineChart figures. */
export type Shape =
  | { kind: 'line'; points: Pt[]; dashed?: boolean }
  | { kind: 'polygon'; points: Pt[]; fill: boolean; solid?: boolean }
  | { kind: 'circle'; center: Pt; r: number }
  | { kind: 'text'; at: Pt; text: string; align?: 'left' | 'center' | 'right'; baseline?: 'top' | 'middle' | 'bottom' }
  /** A text note: its lines in a box whose top-left corner is `at` (sized by the drawing's width when measured). */
  | { kind: 'note'; at: Pt; lines: string[] };

export type ToolMenu = 'lines' | 'channels' | 'gann' | 'fibonacci' | 'shapes' | 'annotations';

export interface ToolDefinition {
  name: ChartToolName;
  label: string;
  menu: ToolMenu;
  /** Anchor points the user places. */
  points: number;
  geometry: (input: ToolInput) => Shape[];
}

export const line = (a: Pt, b: Pt, dashed = false): Shape => ({ kind: 'line', points: [a, b], dashed });

/**
 * The part of the infinite line through a and b that lies within the pane (x from 0 to width);
 * a vertical line spans the pane's height. `from` 'a' keeps only the half that starts at a and goes
 * through b (a ray).
 */
export function extend(a: Pt, b: Pt, width: number, height: number, from: 'both' | 'a' = 'both'): [Pt, Pt] {
  // Less than a millionth of a pixel apart is vertical: the slope would overflow.
  if (Math.abs(b.x - a.x) < 1e-6) {
    const down = b.y >= a.y;
    if (from === 'a') return [a, { x: a.x, y: down ? height : 0 }];
    return [{ x: a.x, y: 0 }, { x: a.x, y: height }];
  }
  const k = (b.y - a.y) / (b.x - a.x);
  const at = (x: number): Pt => ({ x, y: a.y + k * (x - a.x) });
  if (from === 'a') return [a, at(b.x > a.x ? width : 0)];
  return [at(0), at(width)];
}

/** A signed price difference with its digits and sign, e.g. "+0.00120". */
export const signed = (value: number, digits: number) => `${value > 0 ? '+' : value < 0 ? '−' : ''}${Math.abs(value).toFixed(digits)}`;

/** A time span as traders say it: "3d 4h", "2h 15m", "45m". */
export function span(ms: number): string {
  const minutes = Math.round(Math.abs(ms) / 60_000);
  const d = Math.floor(minutes / 1440);
  const h = Math.floor((minutes % 1440) / 60);
  const m = minutes % 60;
  if (d > 0) return h > 0 ? `${d}d ${h}h` : `${d}d`;
  if (h > 0) return m > 0 ? `${h}h ${m}m` : `${h}h`;
  return `${m}m`;
}

/** Least-squares line of values by index (x = 0..n-1): value at x is intercept + slope·x. */
export function linearRegression(values: number[]): { slope: number; intercept: number } {
  const n = values.length;
  if (n === 0) return { slope: 0, intercept: 0 };
  if (n === 1) return { slope: 0, intercept: values[0]! };
  let sx = 0;
  let sy = 0;
  let sxy = 0;
  let sxx = 0;
  values.forEach((y, x) => {
    sx += x;
    sy += y;
    sxy += x * y;
    sxx += x * x;
  });
  const slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
  return { slope, intercept: (sy - slope * sx) / n };
}

/** Population standard deviation of the values around the regression line, and the largest distance from it. */
export function residuals(values: number[], fit: { slope: number; intercept: number }): { stdDev: number; maxDistance: number } {
  if (values.length === 0) return { stdDev: 0, maxDistance: 0 };
  let sum = 0;
  let max = 0;
  values.forEach((y, x) => {
    const r = y - (fit.intercept + fit.slope * x);
    sum += r * r;
    max = Math.max(max, Math.abs(r));
  });
  return { stdDev: Math.sqrt(sum / values.length), maxDistance: max };
}

/**
 * The candle index of a time in candles sorted by time: the candle it falls in, or past the last
 * candle as many bars on as the time is (KLineChart's points carry only time and price).
 */
export function indexOfTime(candles: ReadonlyArray<{ timestamp: number }>, timestamp: number): number {
  const n = candles.length;
  if (n === 0) return 0;
  const last = candles[n - 1]!.timestamp;
  if (timestamp >= last) {
    const bar = n > 1 ? last - candles[n - 2]!.timestamp : 0;
    return n - 1 + (bar > 0 ? Math.round((timestamp - last) / bar) : 0);
  }
  if (timestamp <= candles[0]!.timestamp) return 0;
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (candles[mid]!.timestamp <= timestamp) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
