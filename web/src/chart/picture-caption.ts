import { formatDateTime } from '../format/format';

/** What a saved chart picture is captioned with: the instrument and period, and when it was taken. */
export interface PictureCaption {
  title: string;
  /** The trader's local time, with their zone named ('24 Nov 2026, 18:15:02 GMT+9'). */
  time: string;
}

export function pictureCaption(symbol: string, period: string, at: number): PictureCaption {
  return { title: `${symbol} · ${period}`, time: formatDateTime(at) };
}

/** The caption strip's height, in CSS pixels, above the chart: one line, or two on a narrow chart. */
export const CAPTION_HEIGHT = 36;
export const CAPTION_HEIGHT_TWO_LINES = 54;
const PAD_X = 12;

/** The caption's colours on each theme: the chart's background, the title, the time and the rule under the strip. */
export const CAPTION_COLORS = {
  light: { background: '#ffffff', title: '#212529', time: '#495057', rule: '#dee2e6' },
  dark: { background: '#1a1b1e', title: '#e9ecef', time: '#adb5bd', rule: '#373a40' },
} as const;

/**
 * Where the caption's parts go on a picture `width` CSS pixels wide (each placed by its left end
 * and middle line): the title on the left and the time on the right of one line, or, where the
 * two would meet (a phone-narrow chart), the time on a second line under the title.
 */
export function captionLayout(width: number, titleWidth: number, timeWidth: number): { height: number; title: { x: number; y: number }; time: { x: number; y: number } } {
  const timeX = width - PAD_X - timeWidth;
  if (timeX >= PAD_X + titleWidth + 16) return { height: CAPTION_HEIGHT, title: { x: PAD_X, y: CAPTION_HEIGHT / 2 }, time: { x: timeX, y: CAPTION_HEIGHT / 2 } };
  return { height: CAPTION_HEIGHT_TWO_LINES, title: { x: PAD_X, y: 18 }, time: { x: PAD_X, y: 38 } };
}
