/**
 * The terminal's resizable splits (pure): the price table's share of the width and the positions
 * panel's share of the height, kept within limits so no area can be dragged away, and remembered
 * in localStorage.
 */

export interface TerminalSplits {
  /** The price table's width, % of the workspace (the spec's ~30%). */
  pricesPercent: number;
  /** The positions panel's height, % of the workspace. */
  bottomPercent: number;
}

export const DEFAULT_SPLITS: TerminalSplits = { pricesPercent: 30, bottomPercent: 32 };
export const SPLIT_LIMITS = { pricesPercent: [20, 45], bottomPercent: [18, 60] } as const satisfies Record<keyof TerminalSplits, readonly [number, number]>;
export const SPLITS_STORAGE_KEY = 'tradeport-terminal-splits';
/** One Arrow key press moves a split this far; Page Up/Down ten times as far. */
export const SPLIT_KEY_STEP = 1;

export function clampSplit(which: keyof TerminalSplits, value: number): number {
  const [min, max] = SPLIT_LIMITS[which];
  if (!Number.isFinite(value)) return DEFAULT_SPLITS[which];
  return Math.round(Math.min(max, Math.max(min, value)) * 10) / 10;
}

/** The remembered splits, or the defaults for anything missing or malformed. */
export function loadSplits(storage: Pick<Storage, 'getItem'> | undefined): TerminalSplits {
  let saved: unknown = null;
  try {
    saved = JSON.parse(storage?.getItem(SPLITS_STORAGE_KEY) ?? 'null');
  } catch {
    saved = null;
  }
  const read = (which: keyof TerminalSplits) => {
    const v = saved && typeof saved === 'object' ? (saved as Record<string, unknown>)[which] : undefined;
    return typeof v === 'number' ? clampSplit(which, v) : DEFAULT_SPLITS[which];
  };
  return { pricesPercent: read('pricesPercent'), bottomPercent: read('bottomPercent') };
}

export function saveSplits(storage: Pick<Storage, 'setItem'> | undefined, splits: TerminalSplits): void {
  try {
    storage?.setItem(SPLITS_STORAGE_KEY, JSON.stringify(splits));
  } catch {
    // Storage full or blocked (private mode): the layout still works, it is just not remembered.
  }
}

/** The split a key press asks for, or null for keys a separator does not handle (WAI-ARIA window splitter). */
export function splitForKey(which: keyof TerminalSplits, current: number, key: string): number | null {
  const [min, max] = SPLIT_LIMITS[which];
  // The price table sits on the right and the positions panel at the bottom: moving the handle
  // left or up makes them larger.
  const grow = which === 'pricesPercent' ? 'ArrowLeft' : 'ArrowUp';
  const shrink = which === 'pricesPercent' ? 'ArrowRight' : 'ArrowDown';
  switch (key) {
    case grow:
      return clampSplit(which, current + SPLIT_KEY_STEP);
    case shrink:
      return clampSplit(which, current - SPLIT_KEY_STEP);
    case 'PageUp':
      return clampSplit(which, current + 10 * SPLIT_KEY_STEP);
    case 'PageDown':
      return clampSplit(which, current - 10 * SPLIT_KEY_STEP);
    case 'Home':
      return min;
    case 'End':
      return max;
    case 'Enter':
      return DEFAULT_SPLITS[which];
    default:
      return null;
  }
}
