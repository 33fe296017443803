import { registerOverlay, type OverlayFigure, type OverlayTemplate } from 'klinecharts';
import { CHART_FONT } from '../market/candle-chart';
import { overlayName, TOOLS } from './tools';
import { indexOfTime, type Pt, type Shape, type ToolDefinition } from './tools/shape';

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
  // Lines go first as two figures (solid and dashed) each holding all of theirs: one figure call
  // per kind instead of one per line (a Gann grid has hundreds).
  const solid = shapes.filter((s) => s.kind === 'line' && !s.dashed).map((s) => ({ coordinates: (s as { points: Pt[] }).points }));
  const dashed = shapes.filter((s) => s.kind === 'line' && s.dashed).map((s) => ({ coordinates: (s as { points: Pt[] }).points }));
  const lines: OverlayFigure[] = [];
  if (solid.length) lines.push({ key: 'solid', type: 'line', attrs: solid, styles: { color, size: width, style: 'solid' } });
  if (dashed.length) lines.push({ key: 'dashed', type: 'line', attrs: dashed, styles: { color, size: width, style: 'dashed', dashedValue: [4, 3] } });
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

let registered = false;

/** Registers every tool's overlay with KLineChart once. */
export function registerToolOverlays(): void {
  if (registered) return;
  registered = true;
  for (const tool of TOOLS) registerOverlay<DrawingStyle>(templateOf(tool));
}

/** A trade level's look: its label and colour, dashed for SL and TP. */
export interface LevelLook {
  key: string;
  label: string;
  color: string;
  dashed: boolean;
}

export const LEVEL_OVERLAY = 'tp.level';

let levelRegistered = false;

/** Registers the trade-level overlay once: a price line across the pane with its label on the left. */
export function registerLevelOverlay(): void {
  if (levelRegistered) return;
  levelRegistered = true;
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
      return [
        { key: 'line', type: 'line', attrs: { coordinates: [{ x: 0, y: at.y }, { x: bounding.width, y: at.y }] }, styles: { color: look.color, size: 1, style: look.dashed ? 'dashed' : 'solid', dashedValue: [6, 4] } },
        {
          key: 'label',
          type: 'text',
          attrs: { x: 6, y: at.y, text: look.label, align: 'left', baseline: 'middle' },
          styles: { color: '#ffffff', size: 11, family: CHART_FONT, weight: 600, style: 'fill', backgroundColor: look.color, borderSize: 0, borderRadius: 2, paddingLeft: 4, paddingRight: 4, paddingTop: 2, paddingBottom: 2 },
        },
      ];
    },
  });
}
