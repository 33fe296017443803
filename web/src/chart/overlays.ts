import { registerFigure, registerOverlay, type OverlayFigure, type OverlayTemplate } from 'klinecharts';
import { CHART_FONT } from '../market/candle-chart';
import { LABEL_X, levelLabelLayout, onRemove } from './level-figure';
import { drawPolylines, onPolylines, type PolylinesAttrs, type PolylinesStyles } from './polylines';
import { overlayName, TOOLS } from './tools';
import { indexOfTime, type Shape, type ToolDefinition } from './tools/shape';

/** What each drawing keeps besides its points: its colour and line width. */
export interface DrawingStyle {
  color: string;
  width: number;
}

/** #rrggbb with an alpha, for the shading inside channels and shapes. */
export function translucent(color: string, alpha: number): string {
  const n = Number.parseInt(color.slice(1), 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
}

/** A tool's shapes as KLineChart figures in the drawing's colour and width. */
export function figuresOf(shapes: Shape[], style: DrawingStyle): OverlayFigure[] {
  const { color, width } = style;
  // All solid lines are one figure drawn as one path, the dashed ones another: a figure per line
  // (a Gann grid has hundreds) made each frame allocate and stroke hundreds of times.
  const solid = shapes.flatMap((s) => (s.kind === 'line' && !s.dashed ? [s.points] : []));
  const dashed = shapes.flatMap((s) => (s.kind === 'line' && s.dashed ? [s.points] : []));
  const lines: OverlayFigure[] = [];
  if (solid.length) lines.push({ key: 'solid', type: POLYLINES_FIGURE, attrs: { lines: solid }, styles: { color, size: width, dashed: false } });
  if (dashed.length) lines.push({ key: 'dashed', type: POLYLINES_FIGURE, attrs: { lines: dashed }, styles: { color, size: width, dashed: true } });
  const others = shapes.filter((s) => s.kind !== 'line');
  // Shaded areas under their outlines.
  const areas = others.filter((s) => s.kind === 'polygon' || s.kind === 'circle');
  const labels = others.filter((s) => s.kind === 'text');
  return [...areas.map((s, i) => figureOf(s, i, color, width)), ...lines, ...labels.map((s, i) => figureOf(s, areas.length + i, color, width))];
}

function figureOf(s: Shape, i: number, color: string, width: number): OverlayFigure {
  switch (s.kind) {
    case 'line':
      return { key: `l${i}`, type: 'line', attrs: { coordinates: s.points }, styles: { color, size: width, style: s.dashed ? 'dashed' : 'solid', dashedValue: [4, 3] } };
    case 'polygon':
      return {
        key: `p${i}`,
        type: 'polygon',
        attrs: { coordinates: s.points },
        styles: s.solid ? { style: 'fill', color } : { style: s.fill ? 'stroke_fill' : 'stroke', color: translucent(color, 0.1), borderColor: color, borderSize: width, borderStyle: 'solid' },
      };
    case 'circle':
      return { key: `c${i}`, type: 'circle', attrs: { x: s.center.x, y: s.center.y, r: s.r }, styles: { style: 'stroke_fill', color: translucent(color, 0.1), borderColor: color, borderSize: width, borderStyle: 'solid' } };
    case 'text':
      return {
        key: `t${i}`,
        type: 'text',
        ignoreEvent: true,
        attrs: { x: s.at.x, y: s.at.y, text: s.text, align: s.align ?? 'left', baseline: s.baseline ?? 'bottom' },
        styles: { color, size: 11, family: CHART_FONT, weight: 600, style: 'fill', backgroundColor: 'rgba(0,0,0,0)', borderSize: 0, paddingLeft: 2, paddingRight: 2, paddingTop: 1, paddingBottom: 1 },
      };
  }
}

function templateOf(tool: ToolDefinition): OverlayTemplate<DrawingStyle> {
  return {
    name: overlayName(tool.name),
    totalStep: tool.points + 1,
    needDefaultPointFigure: true,
    // Time tags of several points overlap on the time axis; the price tags say enough.
    needDefaultXAxisFigure: false,
    needDefaultYAxisFigure: true,
    createPointFigures: ({ chart, overlay, coordinates, bounding, yAxis }) => {
      const data = chart.getDataList();
      const shapes = tool.geometry({
        coords: coordinates,
        anchors: overlay.points.map((p) => ({ value: p.value ?? 0, timestamp: p.timestamp ?? 0, dataIndex: indexOfTime(data, p.timestamp ?? 0) })),
        width: bounding.width,
        height: bounding.height,
        digits: chart.getSymbol()?.pricePrecision ?? 5,
        closes: (from, to) => data.slice(Math.max(0, from), Math.min(data.length - 1, to) + 1).map((k) => k.close),
        yOf: yAxis ? (price) => yAxis.convertToPixel(price) : undefined,
      });
      return figuresOf(shapes, overlay.extendData ?? { color: '#1c7ed6', width: 1 });
    },
  };
}

/** The figure of a drawing's lines: all of one style in one path. */
export const POLYLINES_FIGURE = 'tp.polylines';

let registered = false;

/** Registers every tool's overlay (and the figure their lines are drawn with) with KLineChart once. */
export function registerToolOverlays(): void {
  if (registered) return;
  registered = true;
  registerFigure<PolylinesAttrs, PolylinesStyles>({ name: POLYLINES_FIGURE, draw: drawPolylines, checkEventOn: (point, attrs, styles) => onPolylines(point, attrs, styles.size) });
  for (const tool of TOOLS) registerOverlay<DrawingStyle>(templateOf(tool));
}

/** A trade level's look: its label and colour, dashed for SL and TP, and whether its label has an × that removes it. */
export interface LevelLook {
  key: string;
  label: string;
  color: string;
  dashed: boolean;
  removable: boolean;
  /** Finger-sized × (the phone). */
  touch: boolean;
}

export const LEVEL_OVERLAY = 'tp.level';
/** The figure of a level's ×; its key on the overlay, for the click handler. */
export const LEVEL_REMOVE_FIGURE = 'tp.levelRemove';
export const LEVEL_REMOVE_KEY = 'remove';
const LABEL_FONT_SIZE = 11;
const LABEL_FONT_WEIGHT = 600;

interface RemoveAttrs {
  x: number;
  y: number;
  size: number;
  hitRadius: number;
}

let measurer: CanvasRenderingContext2D | null = null;
const widths = new Map<string, number>();

/** The label text's width in the chart's font (cached: levels redraw with every frame). */
export function textWidth(text: string): number {
  let w = widths.get(text);
  if (w === undefined) {
    measurer ??= document.createElement('canvas').getContext('2d');
    if (!measurer) return text.length * 6.5;
    measurer.font = `${LABEL_FONT_WEIGHT} ${LABEL_FONT_SIZE}px ${CHART_FONT}`;
    w = measurer.measureText(text).width;
    if (widths.size > 500) widths.clear();
    widths.set(text, w);
  }
  return w;
}

let levelRegistered = false;

/** Registers the trade-level overlay once: a price line across the pane with its label (and × for an SL or TP) on the left. */
export function registerLevelOverlay(): void {
  if (levelRegistered) return;
  levelRegistered = true;
  registerFigure<RemoveAttrs, { color: string }>({
    name: LEVEL_REMOVE_FIGURE,
    checkEventOn: (point, attrs) => onRemove(point, attrs),
    draw: (ctx, { x, y, size }, { color }) => {
      const half = size / 2;
      ctx.fillStyle = color;
      ctx.beginPath();
      ctx.roundRect(x - half, y - half, size, size, 2);
      ctx.fill();
      const arm = size * 0.2;
      ctx.strokeStyle = '#ffffff';
      ctx.lineWidth = 1.6;
      ctx.lineCap = 'round';
      ctx.beginPath();
      ctx.moveTo(x - arm, y - arm);
      ctx.lineTo(x + arm, y + arm);
      ctx.moveTo(x + arm, y - arm);
      ctx.lineTo(x - arm, y + arm);
      ctx.stroke();
    },
  });
  registerOverlay<LevelLook>({
    name: LEVEL_OVERLAY,
    totalStep: 2,
    needDefaultPointFigure: false,
    needDefaultXAxisFigure: false,
    needDefaultYAxisFigure: true,
    createPointFigures: ({ overlay, coordinates, bounding }) => {
      const at = coordinates[0];
      const look = overlay.extendData;
      if (!at || !look) return [];
      const place = levelLabelLayout({ textWidth: textWidth(look.label), y: at.y, removable: look.removable, touch: look.touch });
      const figures: OverlayFigure[] = [
        { key: 'line', type: 'line', attrs: { coordinates: [{ x: 0, y: at.y }, { x: bounding.width, y: at.y }] }, styles: { color: look.color, size: 1, style: look.dashed ? 'dashed' : 'solid', dashedValue: [6, 4] } },
        {
          key: 'label',
          type: 'text',
          attrs: { x: LABEL_X, y: place.label.y, text: look.label, align: 'left', baseline: 'middle' },
          styles: { color: '#ffffff', size: LABEL_FONT_SIZE, family: CHART_FONT, weight: LABEL_FONT_WEIGHT, style: 'fill', backgroundColor: look.color, borderSize: 0, borderRadius: 2, paddingLeft: 4, paddingRight: 4, paddingTop: 2, paddingBottom: 2 },
        },
      ];
      // Pressing the × must not start a drag of the line: it only answers clicks.
      if (place.remove) figures.push({ key: LEVEL_REMOVE_KEY, type: LEVEL_REMOVE_FIGURE, attrs: place.remove, styles: { color: look.color }, ignoreEvent: ['onPressedMoveStart', 'onPressedMoving', 'onPressedMoveEnd'] });
      return figures;
    },
  });
}
