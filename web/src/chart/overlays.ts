import { registerFigure, registerOverlay, type OverlayFigure, type OverlayTemplate } from 'klinecharts';
import { CHART_FONT } from '../market/candle-chart';
import { LABEL_X, levelLabelLayout, lineSegments, onRemove, type PlacedLabel } from './level-figure';
import { levelLabelPlaces } from './level-labels';
import { lineDash, noteColors, noteFontPx, noteLayout, type DrawingData, type DrawingStyle } from './drawing-look';
import { drawShapes, LABEL_SIZE, onShapes, placeText, type ShapesAttrs, type ShapesStyles } from './shapes-figure';
import { overlayName, TOOLS } from './tools';
import { keptFigures } from './kept-figures';
import type { Shape, ToolDefinition } from './tools/shape';

/** #rrggbb with an alpha, for the shading inside channels and shapes. */
export function translucent(color: string, alpha: number): string {
  const n = Number.parseInt(color.slice(1), 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
}

export const noteFont = (width: number): string => `500 ${noteFontPx(width)}px ${CHART_FONT}`;

/** A tool's shapes as one KLineChart figure in the drawing's colour, width and line style (labels measured once, here). */
export function figuresOf(shapes: Shape[], style: DrawingStyle): OverlayFigure[] {
  if (!shapes.length) return [];
  const attrs: ShapesAttrs = { areas: [], solid: [], dashed: [], texts: [] };
  let note = false;
  for (const s of shapes) {
    if (s.kind === 'line') (s.dashed ? attrs.dashed : attrs.solid).push(s.points);
    else if (s.kind === 'text') attrs.texts.push(placeText(s.at, s.text, Math.round(textWidth(s.text)), s.align, s.baseline));
    else if (s.kind === 'note') {
      note = true;
      const font = noteFont(style.width);
      const { box, texts } = noteLayout(s.at, s.lines, s.lines.map((line) => Math.ceil(textWidth(line, font))), noteFontPx(style.width), font);
      const colors = noteColors(style.color);
      attrs.areas.push({ kind: 'polygon', points: box, fill: true, fillColor: colors.fill });
      attrs.texts.push(...texts.map((t) => ({ ...t, color: colors.text })));
    } else attrs.areas.push(s.kind === 'polygon' ? { kind: 'polygon', points: s.points, fill: s.fill, solid: s.solid } : { kind: 'circle', center: s.center, r: s.r });
  }
  // A note's width sizes its text; its box keeps a hairline outline.
  const size = note ? 1 : style.width;
  return [{ key: 'shapes', type: SHAPES_FIGURE, attrs, styles: { color: style.color, shade: translucent(style.color, 0.1), size, font: LABEL_FONT, dash: lineDash(style.lineStyle, size) } }];
}

function templateOf(tool: ToolDefinition): OverlayTemplate<DrawingData> {
  const figures = keptFigures(tool, figuresOf);
  return {
    name: overlayName(tool.name),
    totalStep: tool.points + 1,
    needDefaultPointFigure: true,
    // Time tags of several points overlap on the time axis; the price tags say enough.
    needDefaultXAxisFigure: false,
    needDefaultYAxisFigure: true,
    createPointFigures: ({ chart, overlay, coordinates, bounding, yAxis }) =>
      figures({
        overlay,
        coords: coordinates,
        width: bounding.width,
        height: bounding.height,
        candles: chart.getDataList(),
        digits: chart.getSymbol()?.pricePrecision ?? 5,
        yOf: yAxis ? (price) => yAxis.convertToPixel(price) : undefined,
      }),
  };
}

/** The figure a drawing is drawn as: all its shapes in one. */
export const SHAPES_FIGURE = 'tp.shapes';

let registered = false;

/** Registers every tool's overlay (and the figure their lines are drawn with) with KLineChart once. */
export function registerToolOverlays(): void {
  if (registered) return;
  registered = true;
  registerFigure<ShapesAttrs, ShapesStyles>({ name: SHAPES_FIGURE, draw: drawShapes, checkEventOn: (point, attrs, styles) => onShapes(point, attrs, styles.size) });
  for (const tool of TOOLS) registerOverlay<DrawingData>(templateOf(tool));
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
const LABEL_FONT_SIZE = LABEL_SIZE;
const LABEL_FONT_WEIGHT = 600;
const LABEL_FONT = `${LABEL_FONT_WEIGHT} ${LABEL_FONT_SIZE}px ${CHART_FONT}`;

interface RemoveAttrs {
  x: number;
  y: number;
  size: number;
  hitRadius: number;
}

let measurer: CanvasRenderingContext2D | null = null;
const widths = new Map<string, number>();

/** A text's width in the labels' font, or another (cached: levels redraw with every frame). */
export function textWidth(text: string, font: string = LABEL_FONT): number {
  const key = font === LABEL_FONT ? text : `${font}\u0000${text}`;
  let w = widths.get(key);
  if (w === undefined) {
    measurer ??= document.createElement('canvas').getContext('2d');
    if (!measurer) return text.length * 6.5;
    measurer.font = font;
    w = measurer.measureText(text).width;
    if (widths.size > 500) widths.clear();
    widths.set(key, w);
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
    createPointFigures: ({ chart, overlay, coordinates, bounding, yAxis }) => {
      const at = coordinates[0];
      const look = overlay.extendData;
      if (!at || !look) return [];
      // Clear of the other levels' labels and of the legends (level-labels.ts); a leader joins a moved label to its line.
      const places = yAxis ? levelLabelPlaces(chart, { name: overlay.name, paneId: overlay.paneId, width: bounding.width, height: bounding.height, yOf: (v) => yAxis.convertToPixel(v), textWidth }) : new Map<string, PlacedLabel>();
      const spot = places.get(look.key);
      const place = levelLabelLayout({ textWidth: textWidth(look.label), y: spot?.y ?? at.y, x: spot?.x ?? LABEL_X, removable: look.removable, touch: look.touch });
      const figures: OverlayFigure[] = [
        // The line passes behind the other levels' labels stacked over it.
        ...lineSegments(at.y, bounding.width, [...places], look.key).map(([from, to], i): OverlayFigure => ({ key: i ? `line${i}` : 'line', type: 'line', attrs: { coordinates: [{ x: from, y: at.y }, { x: to, y: at.y }] }, styles: { color: look.color, size: 1, style: look.dashed ? 'dashed' : 'solid', dashedValue: [6, 4] } })),
        ...(spot?.moved ? [{ key: 'leader', type: 'line', attrs: { coordinates: [{ x: place.label.x - 3, y: at.y }, { x: place.label.x - 3, y: place.label.y }, { x: place.label.x, y: place.label.y }] }, styles: { color: look.color, size: 1, style: 'solid' } } as OverlayFigure] : []),
        {
          key: 'label',
          type: 'text',
          attrs: { x: place.label.x, y: place.label.y, text: look.label, align: 'left', baseline: 'middle' },
          styles: { color: '#ffffff', size: LABEL_FONT_SIZE, family: CHART_FONT, weight: LABEL_FONT_WEIGHT, style: 'fill', backgroundColor: look.color, borderSize: 0, borderRadius: 2, paddingLeft: 4, paddingRight: 4, paddingTop: 2, paddingBottom: 2 },
        },
      ];
      // Pressing the × must not start a drag of the line: it only answers clicks.
      if (place.remove) figures.push({ key: LEVEL_REMOVE_KEY, type: LEVEL_REMOVE_FIGURE, attrs: place.remove, styles: { color: look.color }, ignoreEvent: ['onPressedMoveStart', 'onPressedMoving', 'onPressedMoveEnd'] });
      return figures;
    },
  });
}
