import { formatDate } from '../format/format';

/**
 * History's date presets, pure: each names a span of the trader's own days (the browser's time
 * zone, as every time is shown) ending today, as the From–To dates ('YYYY-MM-DD') the Custom range
 * uses; `dateRangeMs` turns those into the server's epoch-ms range.
 */

export type HistoryPreset = 'today' | 'last7' | 'last30' | 'month' | 'last3months' | 'all' | 'custom';

export const HISTORY_PRESETS: readonly { value: HistoryPreset; label: string }[] = [
  { value: 'today', label: 'Today' },
  { value: 'last7', label: 'Last 7 days' },
  { value: 'last30', label: 'Last 30 days' },
  { value: 'month', label: 'This month' },
  { value: 'last3months', label: 'Last 3 months' },
  { value: 'all', label: 'All time' },
  { value: 'custom', label: 'Custom' },
];

/** What History shows when opened: the month just past, with its totals. */
export const DEFAULT_HISTORY_PRESET: HistoryPreset = 'last30';

const pad = (n: number) => String(n).padStart(2, '0');

/** A local day as a date field's value. */
export function dayText(d: Date): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** `today`'s local day moved by whole days and months, by the calendar (a month back from 31 May is 30 April: the end of a shorter month). */
function shifted(today: Date, days: number, months = 0): Date {
  const target = new Date(today.getFullYear(), today.getMonth() + months, 1);
  const lastDay = new Date(target.getFullYear(), target.getMonth() + 1, 0).getDate();
  return new Date(target.getFullYear(), target.getMonth(), Math.min(today.getDate(), lastDay) + days);
}

/**
 * The From–To days of a preset, both inclusive, ending with `today` (the trader's local day);
 * empty strings for no bound. 'Last 7 days' is today and the six days before it.
 */
export function presetDates(preset: Exclude<HistoryPreset, 'custom'>, today: Date): { from: string; to: string } {
  const to = dayText(today);
  switch (preset) {
    case 'today':
      return { from: to, to };
    case 'last7':
      return { from: dayText(shifted(today, -6)), to };
    case 'last30':
      return { from: dayText(shifted(today, -29)), to };
    case 'month':
      return { from: dayText(new Date(today.getFullYear(), today.getMonth(), 1)), to };
    case 'last3months':
      return { from: dayText(shifted(today, 1, -3)), to };
    case 'all':
      return { from: '', to: '' };
  }
}

/** A date field's day in the app's format: '2026-01-05' → '05 Jan 2026' (the day as typed, in no zone's light). */
function dayLabel(day: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  return m ? formatDate(new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3])).getTime()) : day;
}

/** The label of a range for a sentence: the preset's name, or the custom days in the app's format. */
export function rangeLabel(preset: HistoryPreset, from: string, to: string): string {
  if (preset !== 'custom') return HISTORY_PRESETS.find((p) => p.value === preset)?.label ?? '';
  if (from && to) return from === to ? dayLabel(from) : `${dayLabel(from)} – ${dayLabel(to)}`;
  if (from) return `Since ${dayLabel(from)}`;
  if (to) return `Until ${dayLabel(to)}`;
  return 'All time';
}
