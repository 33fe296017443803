import { dayNumber, isTimeZone, localMinuteOfWeek, wallClock } from './zoned-time';

/**
 * Weekly trading sessions written in the exchange's own time zone, daylight time included. A
 * schedule is a list of windows written the way exchanges and brokers publish them, each with an
 * IANA zone (UTC when none is given), parsed once into minute-of-the-local-week ranges (the week
 * starts Sunday 00:00 local time, as MT5's does):
 *
 *   "always"                                  open around the clock (crypto)
 *   "America/New_York Sun 17:00-Fri 17:00"    one window that spans days (Forex, metals)
 *   "America/New_York Mon-Fri 09:30-16:00"    the same window on each of several days (US stocks)
 *   "Mon-Fri 13:30-20:00"                     a window in UTC
 *
 * A calendar (per instrument group in the catalogue) adds holiday closures and early closes, as
 * local dates of its own zone. Local times come from the platform's time-zone data (zoned-time.ts).
 */
export interface SessionWindow {
  /** IANA time zone the window is written in. */
  zone: string;
  /** Minutes since Sunday 00:00 local time, inclusive. */
  start: number;
  /** Minutes since Sunday 00:00 local time, exclusive; may exceed a week for a window that wraps. */
  end: number;
}

/** Holiday closures and early closes of an instrument group, as written in the catalogue. */
export interface CalendarSpec {
  zone: string;
  /** Local dates (YYYY-MM-DD) on which the market stays closed all day. */
  closed?: string[];
  /** Local dates on which the market closes early, at `close` (HH:MM local). */
  earlyCloses?: { date: string; close: string }[];
}

export interface Calendar {
  zone: string;
  /** Local day numbers (days since 1970-01-01) closed all day. */
  closedDays: Set<number>;
  /** Local day number → minute of the day from which the market is closed. */
  earlyCloses: Map<number, number>;
}

export interface Schedule {
  windows: SessionWindow[];
  calendar: Calendar | null;
}

const MINUTES_PER_DAY = 24 * 60;
export const MINUTES_PER_WEEK = 7 * MINUTES_PER_DAY;
export const UTC = 'UTC';
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

function day(name: string): number {
  const i = DAYS.indexOf(name.toLowerCase());
  if (i < 0) throw new Error(`unknown day "${name}" (use Sun, Mon, …, Sat)`);
  return i;
}

/** Minutes since midnight of an HH:MM time (24:00 allowed, as the end of a day). */
export function clock(text: string): number {
  const m = /^(\d{1,2}):(\d{2})$/.exec(text);
  if (!m) throw new Error(`"${text}" is not a time (HH:MM)`);
  const minutes = Number(m[1]) * 60 + Number(m[2]);
  if (Number(m[2]) >= 60 || minutes > MINUTES_PER_DAY) throw new Error(`"${text}" is not a time of day`);
  return minutes;
}

export function checkZone(zone: string): string {
  if (!isTimeZone(zone)) throw new Error(`unknown time zone "${zone}" (use an IANA name such as America/New_York)`);
  return zone;
}

/** Splits a leading IANA zone name ("America/New_York …", "UTC …") off a window. */
function splitZone(text: string): { zone: string; rest: string } {
  const m = /^(\S+)\s+(.+)$/.exec(text);
  if (m && (m[1]!.includes('/') || m[1] === 'UTC')) return { zone: checkZone(m[1]!), rest: m[2]!.trim() };
  return { zone: UTC, rest: text };
}

/** Parses one window; throws with a readable message on anything else. */
export function parseWindow(text: string): SessionWindow[] {
  const t = text.trim();
  if (t.toLowerCase() === 'always') return [{ zone: UTC, start: 0, end: MINUTES_PER_WEEK }];
  const { zone, rest } = splitZone(t);
  let m = /^([A-Za-z]{3}) (\d{1,2}:\d{2})\s*-\s*([A-Za-z]{3}) (\d{1,2}:\d{2})$/.exec(rest);
  if (m) {
    const start = day(m[1]!) * MINUTES_PER_DAY + clock(m[2]!);
    let end = day(m[3]!) * MINUTES_PER_DAY + clock(m[4]!);
    if (end <= start) end += MINUTES_PER_WEEK;
    return [{ zone, start, end }];
  }
  m = /^([A-Za-z]{3})-([A-Za-z]{3}) (\d{1,2}:\d{2})\s*-\s*(\d{1,2}:\d{2})$/.exec(rest);
  if (m) {
    const first = day(m[1]!);
    const last = day(m[2]!);
    const from = clock(m[3]!);
    const to = clock(m[4]!);
    if (to <= from) throw new Error(`"${text}": a daily window must end after it starts`);
    const windows: SessionWindow[] = [];
    for (let d = first; ; d = (d + 1) % 7) {
      windows.push({ zone, start: d * MINUTES_PER_DAY + from, end: d * MINUTES_PER_DAY + to });
      if (d === last) break;
    }
    return windows;
  }
  throw new Error(`"${text}" is not a session window (examples: "always", "America/New_York Sun 17:00-Fri 17:00", "America/New_York Mon-Fri 09:30-16:00")`);
}

/** Checks a calendar as written and turns its dates into local day numbers. */
export function parseCalendar(spec: CalendarSpec): Calendar {
  const zone = checkZone(spec.zone);
  const date = (text: string) => {
    const n = dayNumber(text);
    if (n === null) throw new Error(`"${text}" is not a date (YYYY-MM-DD)`);
    return n;
  };
  const closedDays = new Set((spec.closed ?? []).map(date));
  const earlyCloses = new Map<number, number>();
  for (const e of spec.earlyCloses ?? []) earlyCloses.set(date(e.date), clock(e.close));
  return { zone, closedDays, earlyCloses };
}

export function parseSchedule(windows: string[], calendar: CalendarSpec | null = null): Schedule {
  if (windows.length === 0) throw new Error('a schedule needs at least one window');
  return { windows: windows.flatMap(parseWindow), calendar: calendar ? parseCalendar(calendar) : null };
}

/** Minute of the local week (Sunday 00:00 = 0) of an epoch-millisecond time in a zone. */
export function minuteOfWeek(timeMs: number, zone = UTC): number {
  return localMinuteOfWeek(zone, timeMs);
}

/** Whether a holiday closure or an early close of the calendar covers this instant. */
export function isHolidayAt(calendar: Calendar, timeMs: number): boolean {
  const c = wallClock(calendar.zone, timeMs);
  if (calendar.closedDays.has(c.day)) return true;
  const early = calendar.earlyCloses.get(c.day);
  return early !== undefined && c.minuteOfDay >= early;
}

export function isOpenAt(schedule: Schedule, timeMs: number): boolean {
  if (schedule.calendar && isHolidayAt(schedule.calendar, timeMs)) return false;
  // Windows of one schedule nearly always share a zone: its local minute is computed once.
  let zone = '';
  let m = 0;
  for (const w of schedule.windows) {
    if (w.start === 0 && w.end === MINUTES_PER_WEEK) return true;
    if (w.zone !== zone) {
      zone = w.zone;
      m = localMinuteOfWeek(zone, timeMs);
    }
    if ((m >= w.start && m < w.end) || (w.end > MINUTES_PER_WEEK && m < w.end - MINUTES_PER_WEEK)) return true;
  }
  return false;
}
