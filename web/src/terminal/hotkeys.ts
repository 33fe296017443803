/**
 * The terminal's optional hotkeys (off by default, turned on in the settings menu). Pure: which
 * action a key press asks for, given where it happened. Keys typed into a field, with a modifier
 * (so the browser's own shortcuts keep working), or inside a dialog never trade.
 */

export type HotkeyAction = 'buy' | 'sell' | 'new-order' | 'close-selected' | 'help';

export interface HotkeyHelp {
  keys: string[];
  action: HotkeyAction;
  description: string;
}

/** What the help dialog lists, in order. */
export const HOTKEYS: readonly HotkeyHelp[] = [
  { keys: ['B'], action: 'buy', description: 'Buy the selected symbol at the quick-trade volume (one-click trading on: at once; off: opens the order dialog)' },
  { keys: ['S'], action: 'sell', description: 'Sell the selected symbol at the quick-trade volume (one-click trading on: at once; off: opens the order dialog)' },
  { keys: ['N', 'F9'], action: 'new-order', description: 'Open the new-order dialog for the selected symbol' },
  { keys: ['Shift', 'C'], action: 'close-selected', description: 'Close the selected position (click its row in Positions first)' },
  { keys: ['?'], action: 'help', description: 'Show this list' },
];

export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  /** The target is a text field, a select, a content-editable or inside a dialog. */
  inField: boolean;
  inDialog: boolean;
  repeat?: boolean;
}

export function hotkeyAction(press: KeyPress): HotkeyAction | null {
  if (press.ctrlKey || press.metaKey || press.altKey || press.inField || press.inDialog || press.repeat) return null;
  if (press.key === 'F9') return 'new-order';
  if (press.key === '?') return 'help';
  const key = press.key.length === 1 ? press.key.toLowerCase() : '';
  if (press.shiftKey) return key === 'c' ? 'close-selected' : null;
  if (key === 'b') return 'buy';
  if (key === 's') return 'sell';
  if (key === 'n') return 'new-order';
  return null;
}

/** Where a key event happened, for `hotkeyAction`. */
export function keyPressOf(event: KeyboardEvent): KeyPress {
  const target = event.target instanceof Element ? event.target : null;
  const inField = !!target && (target.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"], [role="combobox"], [role="textbox"]') !== null);
  const inDialog = !!target && target.closest('[role="dialog"], [role="alertdialog"], [role="menu"]') !== null;
  return { key: event.key, ctrlKey: event.ctrlKey, metaKey: event.metaKey, altKey: event.altKey, shiftKey: event.shiftKey, inField, inDialog, repeat: event.repeat };
}
