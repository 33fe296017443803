import type { IndicatorDrawParams, IndicatorFigureStyle, IndicatorStyle } from 'klinecharts';

type Values = Record<string, number | undefined>;
type Point = { x: number; y: number };

/** A style list of the indicator's own, or the theme's (as KLineChart picks them). */
function listOf<T>(own: unknown, fallback: T[]): T[] {
  return Array.isArray(own) && own.length ? (own as T[]) : fallback;
}

/**
 * Draws an indicator's lines and bars as KLineChart would (same points, widths, colours and
 * pixel corrections), but each line as one path and the bars of one look in one fill or stroke,
 * instead of a figure object per candle and line. KLineChart redraws every indicator on every
 * tick; with five of them that per-candle bookkeeping was the largest part of the chart's redraw.
 * Returns false (KLineChart then draws it itself) for a figure it does not know how to draw.
 */
export function drawIndicatorFast({ ctx, chart, indicator, xAxis, yAxis }: Pick<IndicatorDrawParams<unknown, unknown, unknown>, 'ctx' | 'chart' | 'indicator' | 'xAxis' | 'yAxis'>): boolean {
  const figures = indicator.figures;
  if (figures.some((f) => (f.type !== 'line' && f.type !== 'bar') || f.attrs)) return false;
  const result = indicator.result as Values[];
  const defaults = chart.getStyles().indicator as IndicatorStyle;
  const own = (indicator.styles ?? {}) as Record<string, unknown>;
  const lineStyles = listOf<IndicatorFigureStyle>(own.lines, defaults.lines as unknown as IndicatorFigureStyle[]);
  const barStyles = listOf<IndicatorFigureStyle>(own.bars, defaults.bars as unknown as IndicatorFigureStyle[]);
  const { realFrom, realTo } = chart.getVisibleRange();
  const barSpace = chart.getBarSpace();
  const x = (i: number) => xAxis.convertToPixel(i);
  let lineCount = 0;
  let barCount = 0;
  const barFigures: Array<{ figure: (typeof figures)[number]; base: IndicatorFigureStyle }> = [];
  const lines: Array<{ lines: Point[][]; style: IndicatorFigureStyle }> = [];
  for (const figure of figures) {
    const { key } = figure;
    if (figure.type === 'line') {
      const style = lineStyles[lineCount % lineStyles.length]!;
      lineCount += 1;
      // Consecutive segments joined, as KLineChart merges them; a gap (no value) starts a new line.
      const series: Point[][] = [];
      let current: Point[] | null = null;
      for (let i = realFrom; i < realTo; i++) {
        const a = result[i]?.[key];
        const b = result[i + 1]?.[key];
        if (typeof a !== 'number' || typeof b !== 'number') {
          current = null;
          continue;
        }
        const from = { x: x(i), y: yAxis.convertToPixel(a) };
        if (!current) {
          current = [from];
          series.push(current);
        }
        current.push({ x: x(i + 1), y: yAxis.convertToPixel(b) });
      }
      lines.push({ lines: series, style });
    } else barFigures.push({ figure, base: barStyles[barCount++ % barStyles.length]! });
  }
  // Bars candle by candle, as KLineChart draws them (a bar's edge pixels blend with its
  // neighbour's in that order), under the lines.
  const width = Math.max(1, barSpace.halfGapBar * 2);
  const bases = barFigures.map(({ figure }) => {
    const value = figure.baseValue ?? yAxis.getRange().from;
    return { value, y: yAxis.convertToPixel(value) };
  });
  for (let i = realFrom; i < realTo; i++) {
    barFigures.forEach(({ figure, base }, n) => {
      const value = result[i]?.[figure.key];
      if (value === undefined || value === null) return;
      const look = { ...base, color: base.noChangeColor, ...figure.styles?.({ data: { prev: result[i - 1] ?? null, current: result[i] ?? null, next: result[i + 1] ?? null }, indicator, barSpace, defaultStyles: defaults } as never) } as IndicatorFigureStyle;
      const valueY = yAxis.convertToPixel(value);
      let height = Math.abs(bases[n]!.y - valueY);
      if (bases[n]!.value !== value) height = Math.max(1, height);
      drawBar(ctx, { x: x(i) - (barSpace.halfGapBar * 2) / 2, y: Math.min(valueY, bases[n]!.y), width, height }, look);
    });
  }
  for (const line of lines) strokeLines(ctx, line.lines, line.style);
  return true;
}

/** Strokes the lines as KLineChart's line figure does: an odd width on pixel centres. */
function strokeLines(ctx: CanvasRenderingContext2D, lines: Point[][], style: IndicatorFigureStyle): void {
  const size = Number(style.size ?? 1);
  ctx.lineWidth = size;
  ctx.strokeStyle = String(style.color ?? 'currentColor');
  ctx.lineCap = 'butt';
  ctx.lineJoin = 'miter';
  if (style.style === 'dashed') ctx.setLineDash((style.dashedValue as number[] | undefined) ?? [2, 2]);
  else ctx.setLineDash([]);
  const correction = size % 2 === 1 ? 0.5 : 0;
  for (const line of lines) {
    if (line.length < 2) continue;
    const [a, b] = line as [Point, Point];
    ctx.beginPath();
    if (line.length === 2 && (a.x === b.x || a.y === b.y)) {
      if (a.x === b.x) {
        ctx.moveTo(a.x + correction, a.y);
        ctx.lineTo(b.x + correction, b.y);
      } else {
        ctx.moveTo(a.x, a.y + correction);
        ctx.lineTo(b.x, b.y + correction);
      }
    } else {
      ctx.moveTo(a.x + correction, a.y + correction);
      for (let i = 1; i < line.length; i++) ctx.lineTo(line[i]!.x + correction, line[i]!.y + correction);
    }
    ctx.stroke();
  }
}

/** One bar, as KLineChart's rectangle figure draws it: filled, outlined (on pixel centres for an odd border) or both. */
function drawBar(ctx: CanvasRenderingContext2D, r: { x: number; y: number; width: number; height: number }, look: IndicatorFigureStyle): void {
  const style = String(look.style ?? 'fill');
  const color = String(look.color ?? 'transparent');
  const borderColor = String(look.borderColor ?? 'transparent');
  const borderSize = Number(look.borderSize ?? 1);
  const radius = Number(look.borderRadius ?? 0);
  const solid = (style === 'fill' || style === 'stroke_fill') && !isTransparent(color);
  if (solid) {
    ctx.fillStyle = color;
    ctx.beginPath();
    ctx.roundRect(r.x, r.y, r.width, r.height, radius);
    ctx.closePath();
    ctx.fill();
  }
  if ((style === 'stroke' || style === 'stroke_fill') && borderSize > 0 && !isTransparent(borderColor)) {
    ctx.strokeStyle = borderColor;
    ctx.fillStyle = borderColor;
    ctx.lineWidth = borderSize;
    if (look.borderStyle === 'dashed') ctx.setLineDash((look.borderDashedValue as number[] | undefined) ?? [2, 2]);
    else ctx.setLineDash([]);
    const correction = borderSize % 2 === 1 ? 0.5 : 0;
    const double = Math.round(correction * 2);
    if (r.width > borderSize * 2 && r.height > borderSize * 2) {
      ctx.beginPath();
      ctx.roundRect(r.x + correction, r.y + correction, r.width - double, r.height - double, radius);
      ctx.closePath();
      ctx.stroke();
    } else if (!solid) ctx.fillRect(r.x, r.y, r.width, r.height);
  }
}

/** KLineChart's test for a colour that paints nothing. */
const paintsNothing = (color: string) => color === 'transparent' || color === 'none' || /^[rR][gG][Bb][Aa]\(((\s*\d+\s*,\s*){3})\s*0\s*\)$/.test(color) || /^[hH][Ss][Ll][Aa]\(((\s*\d+%?\s*,\s*){3})\s*0\s*\)$/.test(color);

/** `paintsNothing` kept by colour: every bar asks it twice on every frame, of the same few colours. */
const transparentColors = new Map<string, boolean>();
function isTransparent(color: string): boolean {
  let transparent = transparentColors.get(color);
  if (transparent === undefined) {
    if (transparentColors.size >= 256) transparentColors.clear();
    transparent = paintsNothing(color);
    transparentColors.set(color, transparent);
  }
  return transparent;
}
