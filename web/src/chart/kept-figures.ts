import type { DrawingStyle } from './overlays';
import { indexOfTime, type Shape, type ToolDefinition } from './tools/shape';

/** What a drawing is drawn from on one frame: its overlay (points and style) and the pane it is on. */
export interface FigureFrame {
  overlay: { points: ReadonlyArray<{ timestamp?: number; value?: number }>; extendData?: DrawingStyle };
  /** The anchors in pixels. */
  coords: ReadonlyArray<{ x: number; y: number }>;
  width: number;
  height: number;
  candles: ReadonlyArray<{ timestamp: number; close: number }>;
  digits: number;
  /** Price to pixel y on the pane. */
  yOf?: (price: number) => number;
}

const DEFAULT_STYLE: DrawingStyle = { color: '#1c7ed6', width: 1 };

/** A drawing's figures as last built, and what they were built from. */
interface Kept<T> {
  key: string;
  /** The geometry read the last candle's close (a channel fitted up to the forming candle). */
  readsLast: boolean;
  lastClose: number;
  /** The prices the geometry turned into pixels, and the pixels (a channel computed in prices). */
  pixels: number[];
  figures: T;
}

/**
 * Everything a tool's geometry reads but the closes and the price-to-pixel mapping: its anchors in
 * pixels and in data, the pane's size, the candles' extent (a candle index moves when older candles
 * load or a new one opens), the digits and the style.
 */
function keyOf(frame: FigureFrame, style: DrawingStyle): string {
  const { candles } = frame;
  let key = `${frame.width},${frame.height},${candles.length},${candles[0]?.timestamp},${candles.at(-1)?.timestamp},${frame.digits},${style.color},${style.width}`;
  for (const c of frame.coords) key += `|${c.x},${c.y}`;
  for (const p of frame.overlay.points) key += `|${p.timestamp},${p.value}`;
  return key;
}

/** Whether the mapping still puts each price the geometry asked about where it did. */
function samePixels(pixels: number[], yOf: FigureFrame['yOf']): boolean {
  if (!pixels.length) return true;
  if (!yOf) return false;
  for (let i = 0; i < pixels.length; i += 2) if (!Object.is(yOf(pixels[i]!), pixels[i + 1])) return false;
  return true;
}

/**
 * A tool's figures, built again only when something they are drawn from changed. KLineChart asks
 * for every drawing's figures on every frame; a tick that moves nothing on the pane (the usual
 * case) then costs no geometry. The geometry is a pure function of its input, so equal keys, the
 * same last close (when it read it) and the same pixels for the prices it asked about (when it
 * asked) give the same shapes; a channel fitted up to the forming candle follows its close.
 */
export function keptFigures<T>(tool: ToolDefinition, toFigures: (shapes: Shape[], style: DrawingStyle) => T): (frame: FigureFrame) => T {
  const kept = new WeakMap<object, Kept<T>>();
  return (frame) => {
    const { candles, overlay } = frame;
    const style = overlay.extendData ?? DEFAULT_STYLE;
    const key = keyOf(frame, style);
    const lastClose = candles.at(-1)?.close ?? Number.NaN;
    const before = kept.get(overlay);
    if (before && before.key === key && (!before.readsLast || Object.is(before.lastClose, lastClose)) && samePixels(before.pixels, frame.yOf)) return before.figures;
    let readsLast = false;
    const pixels: number[] = [];
    const { yOf } = frame;
    const shapes = tool.geometry({
      coords: [...frame.coords],
      anchors: overlay.points.map((p) => ({ value: p.value ?? 0, timestamp: p.timestamp ?? 0, dataIndex: indexOfTime(candles, p.timestamp ?? 0) })),
      width: frame.width,
      height: frame.height,
      digits: frame.digits,
      closes: (from, to) => {
        if (to >= candles.length - 1) readsLast = true;
        return candles.slice(Math.max(0, from), Math.min(candles.length - 1, to) + 1).map((k) => k.close);
      },
      yOf: yOf
        ? (price) => {
            const y = yOf(price);
            pixels.push(price, y);
            return y;
          }
        : undefined,
    });
    const figures = toFigures(shapes, style);
    kept.set(overlay, { key, readsLast, lastClose, pixels, figures });
    return figures;
  };
}
