/**
 * What the date fields (`date-fields.tsx`) read and write, pure: a day typed in the app's format or
 * as ISO, and a date and time moved between the pickers' values and the forms' own. No time zone
 * enters: a day or a wall-clock time is the trader's own, read in their zone where it becomes an
 * instant (`fromLocalInput`, `dateRangeMs`).
 */

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const pad = (n: number) => String(n).padStart(2, '0');

/** 'YYYY-MM-DD' when the year, month and day make a day of the calendar (no 31 April), else null. */
function dayOf(year: number, month: number, day: number): string | null {
  if (year < 1000 || year > 9999 || month < 1 || month > 12 || day < 1) return null;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day > last ? null : `${year}-${pad(month)}-${pad(day)}`;
}

/**
 * A day as a date field's text names it: the app's format ('5 Jan 2026', '05 January 2026', a
 * comma allowed, any case) or ISO ('2026-01-05'); 'YYYY-MM-DD', or null for anything else — a
 * half-typed text is no day, so a field changes its value only when a whole day is typed.
 */
export function parseDayText(text: string): string | null {
  const t = text.trim();
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(t);
  if (iso) return dayOf(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const named = /^(\d{1,2})\s+([a-z]+)\.?,?\s+(\d{4})$/i.exec(t);
  if (!named) return null;
  // A month by its whole name or the start of it, three letters at least ('Jan', 'Sept', 'January').
  const word = named[2]!.toLowerCase();
  const month = word.length < 3 ? 0 : MONTHS.findIndex((m) => m.startsWith(word)) + 1;
  return month === 0 ? null : dayOf(Number(named[3]), month, Number(named[1]));
}

/** A form's date and time ('YYYY-MM-DDTHH:mm', the trader's wall clock) as the picker holds it ('YYYY-MM-DD HH:mm:ss'); null when empty or malformed. */
export function pickerDateTime(value: string): string | null {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(?::\d{2})?$/.exec(value);
  return m ? `${m[1]} ${m[2]}:00` : null;
}

/** The picker's value back as the form's ('YYYY-MM-DDTHH:mm', seconds dropped); '' for none. */
export function formDateTime(value: string | null): string {
  const m = value ? /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})/.exec(value) : null;
  return m ? `${m[1]}T${m[2]}` : '';
}
