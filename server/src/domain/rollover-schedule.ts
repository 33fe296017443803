import { wallClock, zonedInstant } from './zoned-time';

/** When the daily rollover happens: a wall-clock time in a time zone (17:00 New York by default). */
export interface RolloverTime {
  zone: string;
  minuteOfDay: number;
}

export const DEFAULT_ROLLOVER: RolloverTime = { zone: 'America/New_York', minuteOfDay: 17 * 60 };

/**
 * Daily rollover instants in (after, upTo], oldest first: the rollover's local time on every local
 * Monday to Friday, daylight time included. Wednesday's counts three days, for the weekend, as MT5
 * brokers charge it. Every instant is listed, however long the span (a long downtime is charged
 * in full).
 */
export function rolloversBetween(after: number, upTo: number, rollover: RolloverTime = DEFAULT_ROLLOVER): { at: number; days: number }[] {
  const out: { at: number; days: number }[] = [];
  if (!(upTo > after)) return out;
  // From the local day before `after` (its rollover may lie after `after` in UTC terms).
  for (let day = wallClock(rollover.zone, after).day - 1; ; day++) {
    const at = zonedInstant(rollover.zone, day, rollover.minuteOfDay);
    if (at > upTo) break;
    if (at <= after) continue;
    const weekday = (((day + 4) % 7) + 7) % 7;
    if (weekday >= 1 && weekday <= 5) out.push({ at, days: weekday === 3 ? 3 : 1 });
  }
  return out;
}
