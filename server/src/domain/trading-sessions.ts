/**
 * Weekly trading sessions in UTC. A schedule is a list of windows written the way brokers publish
 * them, parsed once into minute-of-week ranges (the week starts Sunday 00:00 UTC, as MT5's does):
 *
 *   "always"                  open around the clock (crypto)
 *   "Sun 22:00-Fri 22:00"     one window that spans days (Forex, metals)
 *   "Mon-Fri 13:30-20:00"     the same window on each of several days (US stocks)
 */
export interface WeeklyRange {
  /** Minutes since Sunday 00:00 UTC, inclusive. */
  start: number;
  /** Minutes since Sunday 00:00 UTC, exclusive; may exceed a week for a window that wraps. */
  end: number;
}

export type Schedule = WeeklyRange[];

const MINUTES_PER_DAY = 24 * 60;
export const MINUTES_PER_WEEK = 7 * MINUTES_PER_DAY;
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

function day(name: string): number {
  const i = DAYS.indexOf(name.toLowerCase());
  if (i < 0) throw new Error(`unknown day "${name}" (use Sun, Mon, …, Sat)`);
  return i;
}

function clock(text: string): number {
  const m = /^(\d{1,2}):(\d{2})$/.exec(text);
  if (!m) throw new Error(`"${text}" is not a time (HH:MM)`);
  const minutes = Number(m[1]) * 60 + Number(m[2]);
  if (Number(m[2]) >= 60 || minutes > MINUTES_PER_DAY) throw new Error(`"${text}" is not a time of day`);
  return minutes;
}

/** Parses one window; throws with a readable message on anything else. */
export function parseWindow(text: string): WeeklyRange[] {
  const t = text.trim();
  if (t.toLowerCase() === 'always') return [{ start: 0, end: MINUTES_PER_WEEK }];
  let m = /^([A-Za-z]{3}) (\d{1,2}:\d{2})\s*-\s*([A-Za-z]{3}) (\d{1,2}:\d{2})$/.exec(t);
  if (m) {
    const start = day(m[1]!) * MINUTES_PER_DAY + clock(m[2]!);
    let end = day(m[3]!) * MINUTES_PER_DAY + clock(m[4]!);
    if (end <= start) end += MINUTES_PER_WEEK;
    return [{ start, end }];
  }
  m = /^([A-Za-z]{3})-([A-Za-z]{3}) (\d{1,2}:\d{2})\s*-\s*(\d{1,2}:\d{2})$/.exec(t);
  if (m) {
    const first = day(m[1]!);
    const last = day(m[2]!);
    const from = clock(m[3]!);
    const to = clock(m[4]!);
    if (to <= from) throw new Error(`"${text}": a daily window must end after it starts`);
    const ranges: WeeklyRange[] = [];
    for (let d = first; ; d = (d + 1) % 7) {
      ranges.push({ start: d * MINUTES_PER_DAY + from, end: d * MINUTES_PER_DAY + to });
      if (d === last) break;
    }
    return ranges;
  }
  throw new Error(`"${text}" is not a session window (examples: "always", "Sun 22:00-Fri 22:00", "Mon-Fri 13:30-20:00")`);
}

export function parseSchedule(windows: string[]): Schedule {
  if (windows.length === 0) throw new Error('a schedule needs at least one window');
  return windows.flatMap(parseWindow);
}

/** Minute of the week (Sunday 00:00 UTC = 0) of an epoch-millisecond time. */
export function minuteOfWeek(timeMs: number): number {
  const d = new Date(timeMs);
  return d.getUTCDay() * MINUTES_PER_DAY + d.getUTCHours() * 60 + d.getUTCMinutes();
}

export function isOpenAt(schedule: Schedule, timeMs: number): boolean {
  const m = minuteOfWeek(timeMs);
  return schedule.some((r) => (m >= r.start && m < r.end) || (r.end > MINUTES_PER_WEEK && m < r.end - MINUTES_PER_WEEK));
}
