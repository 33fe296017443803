import type { Coordinate } from 'klinecharts';

/** Where a trade level's label and its remove control (×) sit, in the pane's pixels. */
export interface LevelLabelLayout {
  label: { x: number; y: number };
  /** The ×: its drawn square, and the circle a pointer or finger hits (larger on touch). */
  remove: { x: number; y: number; size: number; hitRadius: number } | null;
}

export const LABEL_X = 6;
const LABEL_PADDING_X = 4;
/** The label's box: the text's height (11 px) and 2 px above and below. */
export const LABEL_HEIGHT = 15;
const GAP = 3;
const REMOVE_SIZE = 17;
const REMOVE_SIZE_TOUCH = 22;
/** A finger needs 44 px; a mouse is fine with the square itself. */
const HIT_RADIUS_TOUCH = 22;

/**
 * The label from `x` (the left edge, unless placed in a column further right) at height `y` (the
 * line's, unless moved clear of another label), and for a removable level (an SL or TP) an × just
 * right of it, centred on the label. `textWidth` is the label's text width as measured.
 */
export function levelLabelLayout({ textWidth, y, removable, touch, x = LABEL_X }: { textWidth: number; y: number; removable: boolean; touch: boolean; x?: number }): LevelLabelLayout {
  const size = touch ? REMOVE_SIZE_TOUCH : REMOVE_SIZE;
  const labelRight = x + LABEL_PADDING_X * 2 + textWidth;
  return {
    label: { x, y },
    remove: removable ? { x: labelRight + GAP + size / 2, y, size, hitRadius: touch ? HIT_RADIUS_TOUCH : Math.ceil(size / 2) + 1 } : null,
  };
}

/** How wide a level's label is drawn: its box and, for an SL or TP, the × beside it. */
export function labelWidth({ textWidth, removable, touch }: { textWidth: number; removable: boolean; touch: boolean }): number {
  return LABEL_PADDING_X * 2 + textWidth + (removable ? GAP + (touch ? REMOVE_SIZE_TOUCH : REMOVE_SIZE) : 0);
}

/** A level's label to place: its key, the line's height on the pane, and the label's width with its ×. */
export interface LabelToPlace {
  key: string;
  y: number;
  width: number;
  /** The label's height (taller on touch, where the × is). */
  height: number;
  /** The level's price: of two lines on the same pixel (far zoomed out), the higher price is listed first. */
  price?: number;
}

/** Where a label goes: its left edge and its middle's height, and whether it left its line (then a leader joins them). */
export interface PlacedLabel {
  x: number;
  y: number;
  width: number;
  height: number;
  lineY: number;
  moved: boolean;
}

/** Space kept between two labels, and between columns of them. */
const LABEL_GAP = 2;
const COLUMN_GAP = 8;

interface Cluster {
  labels: LabelToPlace[];
  /** Where each label's middle sits below the cluster's top edge. */
  offsets: number[];
  height: number;
  top: number;
}

/** Where a cluster's top goes: as near as it can to each label sitting on its line (the mean), within the pane. */
function settle(c: Cluster, top: number, bottom: number, own: (l: LabelToPlace) => number): void {
  let sum = 0;
  c.labels.forEach((l, i) => (sum += own(l) - c.offsets[i]!));
  c.top = Math.min(Math.max(sum / c.labels.length, top), Math.max(top, bottom - c.height));
}

/**
 * Lays out the trade levels' labels so that none overlaps another or the legends at the top of the
 * pane. Each label sits on its line unless another is in the way; labels that would overlap are
 * stacked into one column in the order of their prices, the stack centred on their lines (so each
 * is moved as little as it can be, half up and half down) and kept between the legends and the
 * pane's bottom; a moved label is joined to its line by a leader. A stack taller than the room
 * there is goes into two or more columns side by side. A line under the legends has its label
 * just below them; lines off the pane keep their labels there (they are not seen). Pure: the same
 * levels give the same places.
 */
export function stackLevelLabels(labels: readonly LabelToPlace[], { top, bottom }: { top: number; bottom: number }): Map<string, PlacedLabel> {
  const placed = new Map<string, PlacedLabel>();
  const visible = labels.filter((l) => l.y >= 0 && l.y <= bottom).sort((a, b) => a.y - b.y || (b.price ?? 0) - (a.price ?? 0) || (a.key < b.key ? -1 : 1));
  for (const l of labels) if (!visible.includes(l)) placed.set(l.key, { x: LABEL_X, y: l.y, width: l.width, height: l.height, lineY: l.y, moved: false });
  const own = (l: LabelToPlace) => Math.min(Math.max(l.y, top + l.height / 2), bottom - l.height / 2);
  // Clusters from the top down, each merged with the one above while they overlap.
  const clusters: Cluster[] = [];
  for (const l of visible) {
    let c: Cluster = { labels: [l], offsets: [l.height / 2], height: l.height, top: own(l) - l.height / 2 };
    for (let above = clusters.at(-1); above && above.top + above.height + LABEL_GAP > c.top; above = clusters.at(-1)) {
      clusters.pop();
      c = { labels: [...above.labels, ...c.labels], offsets: [...above.offsets, ...c.offsets.map((o) => o + above.height + LABEL_GAP)], height: above.height + LABEL_GAP + c.height, top: 0 };
      settle(c, top, bottom, own);
    }
    clusters.push(c);
  }
  const room = Math.max(0, bottom - top);
  for (const c of clusters) {
    // Too tall for the room: the stack cut into columns that each fit it, in price order, side by
    // side, each centred on its own lines.
    const columns = c.height > room ? splitColumns(c.labels, room) : [c];
    if (columns.length > 1) for (const column of columns) settle(column, top, bottom, own);
    let x = LABEL_X;
    for (const column of columns) {
      column.labels.forEach((l, i) => {
        const y = column.top + column.offsets[i]!;
        placed.set(l.key, { x, y, width: l.width, height: l.height, lineY: l.y, moved: Math.abs(y - l.y) >= 1 });
      });
      x += Math.max(...column.labels.map((m) => m.width)) + COLUMN_GAP;
    }
  }
  return placed;
}

/** Labels in order cut into columns each at most `room` high (a label taller than the room alone in one). */
function splitColumns(labels: readonly LabelToPlace[], room: number): Cluster[] {
  const columns: Cluster[] = [];
  let current: Cluster | null = null;
  for (const l of labels) {
    const start = current ? current.height + LABEL_GAP : 0;
    if (!current || start + l.height > room) {
      current = { labels: [l], offsets: [l.height / 2], height: l.height, top: 0 };
      columns.push(current);
    } else {
      current.labels.push(l);
      current.offsets.push(start + l.height / 2);
      current.height = start + l.height;
    }
  }
  return columns;
}

/** Whether a point falls on the × (within its hit circle, or inside its square). */
export function onRemove(point: Coordinate, remove: { x: number; y: number; size: number; hitRadius: number }): boolean {
  const dx = point.x - remove.x;
  const dy = point.y - remove.y;
  return dx * dx + dy * dy <= remove.hitRadius * remove.hitRadius || (Math.abs(dx) <= remove.size / 2 && Math.abs(dy) <= remove.size / 2);
}

/**
 * The stretches of a level's line (at height `y`, across `width`) that no other level's label
 * covers: the line is drawn in those, so it passes behind the labels stacked over it instead of
 * through their text. Its own label covers it where it sits on it.
 */
export function lineSegments(y: number, width: number, labels: ReadonlyArray<readonly [string, PlacedLabel]>, own: string): Array<[number, number]> {
  const covers = labels
    .filter(([key, p]) => key !== own && Math.abs(p.y - y) <= p.height / 2)
    .map(([, p]) => [p.x - 1, p.x + p.width + 1] as [number, number])
    .sort((a, b) => a[0] - b[0]);
  const segments: Array<[number, number]> = [];
  let from = 0;
  for (const [start, end] of covers) {
    if (start > from) segments.push([from, Math.min(start, width)]);
    from = Math.max(from, end);
  }
  if (from < width) segments.push([from, width]);
  return segments.filter(([a, b]) => b > a);
}
