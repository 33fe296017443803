import type { DrawingData } from './drawing-look';
import { indexOfTime, type Shape, type ToolDefinition } from './tools/shape';

/** What a drawing is drawn from on one frame: its overlay (points and style) and the pane it is on. */
export interface FigureFrame {
  overlay: { points: ReadonlyArray<{ timestamp?: number; value?: number }>; extendData?: DrawingData };
  /** The anchors in pixels. */
  coords: ReadonlyArray<{ x: number; y: number }>;
  width: number;
  height: number;
  candles: ReadonlyArray<{ timestamp: number; close: number }>;
  digits: number;
  /** Price to pixel y on the pane. */
  yOf?: (price: number) => number;
}

const DEFAULT_STYLE: DrawingData = { color: '#1c7ed6', width: 1 };

/**
 * Set on a drawing's overlay while its figures read the forming candle's close: our patch of
 * KLineChart (patches/klinecharts+10.0.2+002+unchanged-layers.patch) then redraws the drawings'
 * canvas on every tick, which it otherwise keeps while nothing else a drawing is drawn from changes.
 */
export const READS_FORMING_CANDLE: unique symbol = Symbol.for('tradeport.chart.readsFormingCandle');

/** A drawing's figures as last built, and what they were built from. */
interface Kept<T> {
  /** What the figures were built from (see `inputsOf`). */
  inputs: Array<number | string | undefined>;
  /** The geometry read the last candle's close (a channel fitted up to the forming candle). */
  readsLast: boolean;
  lastClose: number;
  /** The prices the geometry turned into pixels, and the pixels (a channel computed in prices). */
  pixels: number[];
  figures: T;
}

/**
 * Everything a tool's geometry reads but the closes and the price-to-pixel mapping, in order: the
 * pane's size, the candles' extent (a candle index moves when older candles load or a new one
 * opens), the digits, the style and a note's text, and its anchors in pixels and in data. Compared
 * value by value with what the kept figures were built from (`sameInputs`), without building
 * anything on a hit.
 */
function inputsOf(frame: FigureFrame, style: DrawingData): Array<number | string | undefined> {
  const { candles } = frame;
  const inputs: Array<number | string | undefined> = [frame.width, frame.height, candles.length, candles[0]?.timestamp, candles[candles.length - 1]?.timestamp, frame.digits, style.color, style.width, style.lineStyle, style.text];
  for (const c of frame.coords) inputs.push(c.x, c.y);
  for (const p of frame.overlay.points) inputs.push(p.timestamp, p.value);
  return inputs;
}

const FIXED_INPUTS = 10;

function sameInputs(inputs: Array<number | string | undefined>, frame: FigureFrame, style: DrawingData): boolean {
  const { candles, coords } = frame;
  const points = frame.overlay.points;
  if (inputs.length !== FIXED_INPUTS + 2 * coords.length + 2 * points.length) return false;
  if (inputs[0] !== frame.width || inputs[1] !== frame.height || inputs[2] !== candles.length || inputs[3] !== candles[0]?.timestamp || inputs[4] !== candles[candles.length - 1]?.timestamp || inputs[5] !== frame.digits) return false;
  if (inputs[6] !== style.color || inputs[7] !== style.width || inputs[8] !== style.lineStyle || inputs[9] !== style.text) return false;
  let i = FIXED_INPUTS;
  for (const c of coords) if (inputs[i++] !== c.x || inputs[i++] !== c.y) return false;
  for (const p of points) if (inputs[i++] !== p.timestamp || inputs[i++] !== p.value) return false;
  return true;
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
 * case) then costs no geometry. The geometry is a pure function of its input, so equal inputs, the
 * same last close (when it read it) and the same pixels for the prices it asked about (when it
 * asked) give the same shapes; a channel fitted up to the forming candle follows its close.
 */
export function keptFigures<T>(tool: ToolDefinition, toFigures: (shapes: Shape[], style: DrawingData) => T): (frame: FigureFrame) => T {
  const kept = new WeakMap<object, Kept<T>>();
  return (frame) => {
    const { candles, overlay } = frame;
    const style = overlay.extendData ?? DEFAULT_STYLE;
    const lastClose = candles[candles.length - 1]?.close ?? Number.NaN;
    const before = kept.get(overlay);
    if (before && sameInputs(before.inputs, frame, style) && (!before.readsLast || Object.is(before.lastClose, lastClose)) && samePixels(before.pixels, frame.yOf)) return before.figures;
    let readsLast = false;
    const pixels: number[] = [];
    const { yOf } = frame;
    const shapes = tool.geometry({
      coords: [...frame.coords],
      anchors: overlay.points.map((p) => ({ value: p.value ?? 0, timestamp: p.timestamp ?? 0, dataIndex: indexOfTime(candles, p.timestamp ?? 0) })),
      width: frame.width,
      height: frame.height,
      digits: frame.digits,
      text: style.text,
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
    kept.set(overlay, { inputs: inputsOf(frame, style), readsLast, lastClose, pixels, figures });
    // The patched KLineChart keeps the drawings' canvas through ticks unless a drawing on it reads the forming candle.
    (overlay as { [READS_FORMING_CANDLE]?: boolean })[READS_FORMING_CANDLE] = readsLast;
    return figures;
  };
}
