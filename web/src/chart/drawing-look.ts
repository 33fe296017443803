import type { LineStyle } from '@tradeport/contracts/chart-names';
import type { PlacedText } from './shapes-figure';
import type { Pt } from './tools/shape';

/*
 * A drawing's style (what its overlay carries besides its points), and how it becomes pixels, as
 * pure functions: the dash pattern of its line style, and a text note's size and layout.
 */

/** How each drawing looks besides its points: its colour, line width and line style (solid when none). */
export interface DrawingStyle {
  color: string;
  width: number;
  lineStyle?: LineStyle;
}

/** What a drawing's overlay carries: its look, and a text note's text. */
export interface DrawingData extends DrawingStyle {
  text?: string;
}

/**
 * The canvas dash pattern of a line style at a width: dashes longer than the short ones tools draw
 * their helper lines with (4, 3), so a dashed drawing still tells its lines from its helpers; solid
 * has none.
 */
export function lineDash(style: LineStyle | undefined, width: number): number[] | undefined {
  if (style === 'dashed') return [6 + 2 * width, 4 + width];
  if (style === 'dotted') return [width, 2 + width];
  return undefined;
}

/** #rrggbb mixed toward another #rrggbb by `t` (0 keeps the first, 1 gives the second). */
export function mixColors(from: string, to: string, t: number): string {
  const a = Number.parseInt(from.slice(1), 16);
  const b = Number.parseInt(to.slice(1), 16);
  const channel = (shift: number) => Math.round(((a >> shift) & 255) * (1 - t) + ((b >> shift) & 255) * t);
  return `#${((channel(16) << 16) | (channel(8) << 8) | channel(0)).toString(16).padStart(6, '0')}`;
}

/**
 * A text note's colours from the drawing's: an opaque pale tint of it behind the text (candles
 * never show through, and it reads the same on the light and the dark chart), its own colour round
 * the box, and a darker shade of it for the text, for contrast on the tint.
 */
export function noteColors(color: string): { fill: string; border: string; text: string } {
  return { fill: mixColors(color, '#ffffff', 0.88), border: color, text: mixColors(color, '#000000', 0.35) };
}

/** A text note's font size in pixels for each width 1–4 (a note's width is its text size). */
export const NOTE_FONT_PX = [12, 14, 16, 20] as const;
const NOTE_PAD_X = 6;
const NOTE_PAD_Y = 4;

export const noteFontPx = (width: number): number => NOTE_FONT_PX[Math.min(NOTE_FONT_PX.length, Math.max(1, Math.round(width))) - 1]!;

/**
 * A text note's box and lines: the box's top-left corner at its point, its lines 1.3 font sizes
 * apart, padded inside the box; `widths` are the lines' measured widths.
 */
export function noteLayout(at: Pt, lines: string[], widths: number[], fontPx: number, font: string): { box: Pt[]; texts: PlacedText[] } {
  const lineHeight = Math.round(fontPx * 1.3);
  const width = Math.max(0, ...widths) + 2 * NOTE_PAD_X;
  const height = lines.length * lineHeight + 2 * NOTE_PAD_Y;
  const box = [at, { x: at.x + width, y: at.y }, { x: at.x + width, y: at.y + height }, { x: at.x, y: at.y + height }];
  const texts = lines.map((text, i) => ({ x: at.x + NOTE_PAD_X, y: at.y + NOTE_PAD_Y + i * lineHeight + (lineHeight - fontPx) / 2, text, width: widths[i] ?? 0, font }));
  return { box, texts };
}
