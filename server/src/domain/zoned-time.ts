/**
 * Wall-clock time in IANA time zones, from the platform's time-zone data (`Intl`), with no
 * hand-written daylight-saving rules. Offsets are cached per zone for each 15-minute block of UTC
 * time: every offset in use, and every change of one, falls on a quarter hour, so an offset is
 * constant within a block. That keeps a per-tick session check to a map lookup.
 */

const MINUTE_MS = 60_000;
export const DAY_MS = 24 * 3600_000;
const BLOCK_MS = 15 * MINUTE_MS;
const CACHE_LIMIT = 50_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Per zone: offsets by 15-minute block, and the last block asked for (ticks mostly ask for the same one). */
interface ZoneOffsets {
  blocks: Map<number, number>;
  lastBlock: number;
  lastOffset: number;
}
const zones = new Map<string, ZoneOffsets>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    formatters.set(zone, f);
  }
  return f;
}

/** Whether the platform knows this IANA zone name (e.g. America/New_York). */
export function isTimeZone(zone: string): boolean {
  try {
    formatter(zone);
    return true;
  } catch {
    return false;
  }
}

function computeOffset(zone: string, timeMs: number): number {
  const parts: Record<string, number> = {};
  for (const p of formatter(zone).formatToParts(new Date(timeMs))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return wall - Math.floor(timeMs / 1000) * 1000;
}

/** The zone's offset from UTC (wall clock − UTC) in ms at an instant. */
export function offsetMs(zone: string, timeMs: number): number {
  let z = zones.get(zone);
  if (!z) zones.set(zone, (z = { blocks: new Map(), lastBlock: Number.NaN, lastOffset: 0 }));
  const block = Math.floor(timeMs / BLOCK_MS);
  if (block === z.lastBlock) return z.lastOffset;
  let offset = z.blocks.get(block);
  if (offset === undefined) {
    if (z.blocks.size >= CACHE_LIMIT) z.blocks.clear();
    // Computed at the block's start: the whole block shares it.
    offset = computeOffset(zone, block * BLOCK_MS);
    z.blocks.set(block, offset);
  }
  z.lastBlock = block;
  z.lastOffset = offset;
  return offset;
}

export interface WallClock {
  /** Days since 1970-01-01 of the local date. */
  day: number;
  /** 0 = Sunday … 6 = Saturday. */
  weekday: number;
  /** Minutes since local midnight. */
  minuteOfDay: number;
}

/** The local date and time of an instant in a zone. */
export function wallClock(zone: string, timeMs: number): WallClock {
  const local = timeMs + offsetMs(zone, timeMs);
  const day = Math.floor(local / DAY_MS);
  // 1970-01-01 was a Thursday.
  return { day, weekday: (((day + 4) % 7) + 7) % 7, minuteOfDay: Math.floor((local - day * DAY_MS) / MINUTE_MS) };
}

/** Minute of the local week (Sunday 00:00 local = 0) of an instant in a zone. */
export function localMinuteOfWeek(zone: string, timeMs: number): number {
  const local = timeMs + offsetMs(zone, timeMs);
  const day = Math.floor(local / DAY_MS);
  const weekday = (((day + 4) % 7) + 7) % 7;
  return weekday * 1440 + Math.floor((local - day * DAY_MS) / MINUTE_MS);
}

/** Days since 1970-01-01 of a calendar date written YYYY-MM-DD, or null if it is not one. */
export function dayNumber(date: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return null;
  const t = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  if (new Date(t).toISOString().slice(0, 10) !== date) return null;
  return t / DAY_MS;
}

/**
 * The instant a zone's clocks show `minuteOfDay` on local day `day`. A time skipped by a change to
 * daylight time happens, for our purposes, when the clocks jump past it (the first instant after);
 * a time that occurs twice when clocks go back is its first occurrence.
 */
export function zonedInstant(zone: string, day: number, minuteOfDay: number): number {
  const wall = day * DAY_MS + minuteOfDay * MINUTE_MS;
  const candidates = [offsetMs(zone, wall - DAY_MS), offsetMs(zone, wall + DAY_MS)].map((o) => wall - o).sort((a, b) => a - b);
  for (const c of candidates) if (c + offsetMs(zone, c) === wall) return c;
  // Skipped: find the change of offset between the two readings (a quarter-hour boundary).
  let lo = Math.floor(candidates[0]! / BLOCK_MS);
  let hi = Math.ceil(candidates[1]! / BLOCK_MS);
  const before = offsetMs(zone, lo * BLOCK_MS);
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (offsetMs(zone, mid * BLOCK_MS) === before) lo = mid;
    else hi = mid;
  }
  return hi * BLOCK_MS;
}
