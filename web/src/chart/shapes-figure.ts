import type { Coordinate } from 'klinecharts';
import { drawPolylines, onPolylines } from './polylines';

/** A shaded area of a drawing: a polygon (outlined, shaded or solid) or a circle. */
export type Area = { kind: 'polygon'; points: Coordinate[]; fill: boolean; solid?: boolean; fillColor?: string } | { kind: 'circle'; center: Coordinate; r: number };

/** A label placed for drawing: the top-left of its text and the text's width. */
export interface PlacedText {
  x: number;
  y: number;
  text: string;
  width: number;
  /** Its canvas font and colour, when not the labels' (a text note's lines). */
  font?: string;
  color?: string;
}

/** Everything one drawing puts on the canvas, as one figure: areas under lines under labels. */
export interface ShapesAttrs {
  areas: Area[];
  solid: Coordinate[][];
  dashed: Coordinate[][];
  texts: PlacedText[];
}

export interface ShapesStyles {
  /** Lines, outlines and labels. */
  color: string;
  /** The shading inside areas. */
  shade: string;
  /** Line width. */
  size: number;
  /** The labels' canvas font. */
  font: string;
  /** The dash pattern of the drawing's own lines and outlines (dashed or dotted); solid without one. */
  dash?: number[];
}

/** A label's size around its text (as KLineChart lays out a text figure): padding left/right and top/bottom. */
export const LABEL_SIZE = 11;
const PAD_X = 2;
const PAD_Y = 1;

/**
 * Where a label's text starts (its top-left) for an anchor, an alignment and a baseline, the text
 * `measured` pixels wide: the box around it (its padding included) is aligned on the anchor.
 */
export function placeText(at: Coordinate, text: string, measured: number, align: 'left' | 'center' | 'right' = 'left', baseline: 'top' | 'middle' | 'bottom' = 'bottom'): PlacedText {
  const width = PAD_X + measured + PAD_X;
  const height = PAD_Y + LABEL_SIZE + PAD_Y;
  const left = align === 'left' ? at.x : align === 'right' ? at.x - width : at.x - width / 2;
  const top = baseline === 'top' ? at.y : baseline === 'bottom' ? at.y - height : at.y - height / 2;
  return { x: left + PAD_X, y: top + PAD_Y, text, width: measured };
}

function tracePolygon(ctx: CanvasRenderingContext2D, points: Coordinate[]): void {
  ctx.beginPath();
  ctx.moveTo(points[0]!.x, points[0]!.y);
  for (let i = 1; i < points.length; i++) ctx.lineTo(points[i]!.x, points[i]!.y);
  ctx.closePath();
}

/**
 * Draws a drawing: shaded areas with their outlines, then every solid line in one path and every
 * dashed one in another, then the labels. One figure per drawing keeps KLineChart's per-figure work
 * (its events and styles, made anew each frame) to one per drawing.
 */
export function drawShapes(ctx: CanvasRenderingContext2D, { areas, solid, dashed, texts }: ShapesAttrs, { color, shade, size, font, dash }: ShapesStyles): void {
  for (const area of areas) {
    if (area.kind === 'polygon') {
      if (area.points.length < 2) continue;
      tracePolygon(ctx, area.points);
      if (area.solid) {
        ctx.fillStyle = color;
        ctx.fill();
        continue;
      }
      if (area.fill) {
        ctx.fillStyle = area.fillColor ?? shade;
        ctx.fill();
      }
    } else {
      ctx.beginPath();
      ctx.arc(area.center.x, area.center.y, area.r, 0, Math.PI * 2);
      ctx.closePath();
      ctx.fillStyle = shade;
      ctx.fill();
      if (area.r <= size) continue;
    }
    ctx.strokeStyle = color;
    ctx.lineWidth = size;
    ctx.setLineDash(dash ?? []);
    ctx.stroke();
  }
  if (solid.length) drawPolylines(ctx, { lines: solid }, { color, size, dashed: false, dash });
  if (dashed.length) drawPolylines(ctx, { lines: dashed }, { color, size, dashed: true });
  if (texts.length) {
    ctx.textAlign = 'left';
    ctx.textBaseline = 'top';
    ctx.font = font;
    ctx.fillStyle = color;
    let currentFont = font;
    let currentColor = color;
    for (const t of texts) {
      const wantedFont = t.font ?? font;
      const wantedColor = t.color ?? color;
      if (wantedFont !== currentFont) ctx.font = currentFont = wantedFont;
      if (wantedColor !== currentColor) ctx.fillStyle = currentColor = wantedColor;
      ctx.fillText(t.text, t.x, t.y, t.width);
    }
  }
}

/** Whether a point is inside any ring (even-odd). */
function insidePolygon(p: Coordinate, points: Coordinate[]): boolean {
  let on = false;
  for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
    const a = points[i]!;
    const b = points[j]!;
    if (a.y > p.y !== b.y > p.y && p.x < ((b.x - a.x) * (p.y - a.y)) / (b.y - a.y) + a.x) on = !on;
  }
  return on;
}

/** Whether a pointer picks the drawing: inside one of its areas or near one of its lines (labels are not picked). */
export function onShapes(p: Coordinate, { areas, solid, dashed }: ShapesAttrs, size: number): boolean {
  for (const area of areas) {
    if (area.kind === 'polygon' ? insidePolygon(p, area.points) : (p.x - area.center.x) ** 2 + (p.y - area.center.y) ** 2 <= area.r ** 2) return true;
  }
  return onPolylines(p, { lines: solid }, size) || onPolylines(p, { lines: dashed }, size);
}
