/**
 * Candle periods and bucketing, in UTC. Minutes and hours are fixed-length buckets counted from the
 * epoch (aligned to midnight); a week starts Sunday 00:00 UTC (the Forex week opens Sunday 22:00,
 * so its first hours belong to the new week, as in MT5); a month starts on its 1st.
 */
export const PERIODS = ['M1', 'M5', 'M15', 'M30', 'H1', 'H4', 'D1', 'W1', 'MN'] as const;
export type Period = (typeof PERIODS)[number];

const MINUTE = 60_000;
const FIXED: Partial<Record<Period, number>> = { M1: MINUTE, M5: 5 * MINUTE, M15: 15 * MINUTE, M30: 30 * MINUTE, H1: 60 * MINUTE, H4: 240 * MINUTE, D1: 1440 * MINUTE };

/** Start (epoch ms) of the bucket of `period` that contains `timeMs`. */
export function bucketStart(period: Period, timeMs: number): number {
  const fixed = FIXED[period];
  if (fixed !== undefined) return Math.floor(timeMs / fixed) * fixed;
  const d = new Date(timeMs);
  if (period === 'W1') {
    const midnight = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
    return midnight - d.getUTCDay() * 1440 * MINUTE;
  }
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

/** Start of the bucket after the one starting at `start`. */
export function nextBucketStart(period: Period, start: number): number {
  const fixed = FIXED[period];
  if (fixed !== undefined) return start + fixed;
  if (period === 'W1') return start + 7 * 1440 * MINUTE;
  const d = new Date(start);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

export interface Candle {
  /** Bucket start, epoch ms. */
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  /** Number of ticks in the bucket. */
  volume: number;
}

/**
 * Folds one tick's price into the candle of its bucket. Returns the updated current candle and, when
 * the tick opened a new bucket, the candle it closed. A tick older than the current bucket (late or
 * out of order) is ignored: candles are built forward only.
 */
export function applyTick(current: Candle | null, period: Period, timeMs: number, price: number): { current: Candle; closed: Candle | null; ignored: boolean } {
  const start = bucketStart(period, timeMs);
  if (current && start < current.time) return { current, closed: null, ignored: true };
  if (current && start === current.time) {
    return {
      current: { ...current, high: Math.max(current.high, price), low: Math.min(current.low, price), close: price, volume: current.volume + 1 },
      closed: null,
      ignored: false,
    };
  }
  return { current: { time: start, open: price, high: price, low: price, close: price, volume: 1 }, closed: current, ignored: false };
}

/** Merges finer candles (ascending, all inside later buckets or equal) into candles of `period`. */
export function aggregate(candles: Candle[], period: Period): Candle[] {
  const out: Candle[] = [];
  for (const c of candles) {
    const start = bucketStart(period, c.time);
    const last = out[out.length - 1];
    if (last && last.time === start) {
      last.high = Math.max(last.high, c.high);
      last.low = Math.min(last.low, c.low);
      last.close = c.close;
      last.volume += c.volume;
    } else {
      out.push({ time: start, open: c.open, high: c.high, low: c.low, close: c.close, volume: c.volume });
    }
  }
  return out;
}

export interface DayFigures {
  dayOpen: number | null;
  dayHigh: number | null;
  dayLow: number | null;
  prevClose: number | null;
  change: number | null;
  changePct: number | null;
}

/** `v` rounded to `d` decimals, half away from zero (a value printed as …5 rounds up). */
const roundTo = (v: number, d: number) => (Math.sign(v) * Math.round(Math.abs(v) * 10 ** d * (1 + Number.EPSILON))) / 10 ** d;

/**
 * A symbol's day as a market watch shows it: the latest daily candle's open, high and low, the
 * close of the day before, and how far `price` (the current bid; the day's close without one) has
 * moved since that close. Prices are rounded to the instrument's digits, the percentage to 2.
 */
export function dayFigures(latest: Candle | null, previous: Candle | null, price: number | null, digits: number): DayFigures {
  const last = price ?? latest?.close ?? null;
  const prevClose = previous?.close ?? null;
  const change = last !== null && prevClose !== null ? roundTo(last - prevClose, digits) : null;
  const changePct = change !== null && prevClose !== null && prevClose !== 0 ? roundTo(((last! - prevClose) / prevClose) * 100, 2) : null;
  return { dayOpen: latest?.open ?? null, dayHigh: latest?.high ?? null, dayLow: latest?.low ?? null, prevClose, change, changePct };
}
