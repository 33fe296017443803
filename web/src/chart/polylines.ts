import type { Coordinate } from 'klinecharts';

/** Several polylines of one colour, width and dash: what a drawing's lines become on the canvas. */
export interface PolylinesAttrs {
  lines: Coordinate[][];
}

export interface PolylinesStyles {
  color: string;
  size: number;
  dashed: boolean;
  /** The dash pattern instead of the plain dashes `dashed` gives (a drawing styled dashed or dotted). */
  dash?: number[];
}

/** How far from a line (in px, beyond half its width) a pointer still picks it. */
const PICK_PX = 3;

/** Distance from a point to the segment a–b. */
export function distanceToSegment(p: Coordinate, a: Coordinate, b: Coordinate): number {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const length2 = dx * dx + dy * dy;
  const t = length2 === 0 ? 0 : Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / length2));
  return Math.hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

/** Whether a point is on any of the lines (within a few pixels of one of their segments). */
export function onPolylines(p: Coordinate, { lines }: PolylinesAttrs, size: number): boolean {
  const within = PICK_PX + size / 2;
  for (const line of lines) for (let i = 1; i < line.length; i++) if (distanceToSegment(p, line[i - 1]!, line[i]!) <= within) return true;
  return false;
}

/**
 * Where to put a line's points for a sharp stroke: an odd width is drawn on the pixel's centre (as
 * KLineChart does for its own lines), across a horizontal or vertical line only, diagonal ones both ways.
 */
export function crisp(line: Coordinate[], size: number): Coordinate[] {
  if (size % 2 !== 1) return line;
  if (line.length === 2 && line[0]!.y === line[1]!.y) return line.map((c) => ({ x: c.x, y: c.y + 0.5 }));
  if (line.length === 2 && line[0]!.x === line[1]!.x) return line.map((c) => ({ x: c.x + 0.5, y: c.y }));
  return line.map((c) => ({ x: c.x + 0.5, y: c.y + 0.5 }));
}

/** All the lines as one path and one stroke (a Gann grid has hundreds: one figure each was the cost of a frame). */
export function drawPolylines(ctx: CanvasRenderingContext2D, { lines }: PolylinesAttrs, { color, size, dashed, dash }: PolylinesStyles): void {
  ctx.lineWidth = size;
  ctx.strokeStyle = color;
  ctx.lineCap = 'butt';
  ctx.lineJoin = 'miter';
  ctx.setLineDash(dash ?? (dashed ? [4, 3] : []));
  ctx.beginPath();
  for (const line of lines) {
    if (line.length < 2) continue;
    const points = crisp(line, size);
    ctx.moveTo(points[0]!.x, points[0]!.y);
    for (let i = 1; i < points.length; i++) ctx.lineTo(points[i]!.x, points[i]!.y);
  }
  ctx.stroke();
}
