import type { Coordinate } from 'klinecharts';

/** Where a trade level's label and its remove control (×) sit, in the pane's pixels. */
export interface LevelLabelLayout {
  label: { x: number; y: number };
  /** The ×: its drawn square, and the circle a pointer or finger hits (larger on touch). */
  remove: { x: number; y: number; size: number; hitRadius: number } | null;
}

export const LABEL_X = 6;
const LABEL_PADDING_X = 4;
const GAP = 3;
const REMOVE_SIZE = 17;
const REMOVE_SIZE_TOUCH = 22;
/** A finger needs 44 px; a mouse is fine with the square itself. */
const HIT_RADIUS_TOUCH = 22;

/**
 * The label from the left edge at the line's height, and for a removable level (an SL or TP) an ×
 * just right of it, centred on the line. `textWidth` is the label's text width as measured.
 */
export function levelLabelLayout({ textWidth, y, removable, touch }: { textWidth: number; y: number; removable: boolean; touch: boolean }): LevelLabelLayout {
  const size = touch ? REMOVE_SIZE_TOUCH : REMOVE_SIZE;
  const labelRight = LABEL_X + LABEL_PADDING_X * 2 + textWidth;
  return {
    label: { x: LABEL_X, y },
    remove: removable ? { x: labelRight + GAP + size / 2, y, size, hitRadius: touch ? HIT_RADIUS_TOUCH : Math.ceil(size / 2) + 1 } : null,
  };
}

/** Whether a point falls on the × (within its hit circle, or inside its square). */
export function onRemove(point: Coordinate, remove: { x: number; y: number; size: number; hitRadius: number }): boolean {
  const dx = point.x - remove.x;
  const dy = point.y - remove.y;
  return dx * dx + dy * dy <= remove.hitRadius * remove.hitRadius || (Math.abs(dx) <= remove.size / 2 && Math.abs(dy) <= remove.size / 2);
}
