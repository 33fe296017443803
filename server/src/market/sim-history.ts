import { aggregate, bucketStart, type Candle, type Period } from '../domain/candles';
import { roundPrice, type Instrument } from '../domain/instruments';
import { walk } from '../domain/price-walk';
import { seededRandom, type Random } from '../domain/random';
import { isOpenAt } from '../domain/trading-sessions';
import type { CandleStore } from './candle-store';

/**
 * History for the simulated feed, generated once (for symbols that have none) so every chart period
 * has candles from the first start: a year of hourly candles walked backwards from the reference
 * price, then four days of minute candles walked forwards from there up to now. Longer periods are
 * aggregated from those, so M1…MN agree with one another. Returns the last close of each symbol, for
 * the live simulator to continue from.
 */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
export const HISTORY_HOURS = 365 * 24;
export const HISTORY_MINUTES = 4 * 24 * 60;

interface Options {
  seed: string;
  now: number;
  sessions: 'real' | 'always';
}

function candleFrom(open: number, close: number, volatility: number, dtMs: number, rng: Random, digits: number, time: number, ticks: number): Candle {
  // Two interior points give the bar a plausible range beyond its open and close.
  const a = walk(open, open, volatility, dtMs / 3, rng);
  const b = walk(close, close, volatility, dtMs / 3, rng);
  return {
    time,
    open: roundPrice(open, digits),
    high: roundPrice(Math.max(open, close, a, b), digits),
    low: roundPrice(Math.min(open, close, a, b), digits),
    close: roundPrice(close, digits),
    volume: ticks,
  };
}

export function generateHistory(instrument: Instrument, options: Options): { m1: Candle[]; h1: Candle[] } {
  const rng = seededRandom(`history:${options.seed}:${instrument.symbol}`);
  const open = (t: number) => options.sessions === 'always' || isOpenAt(instrument.schedule, t);
  const { price: reference, volatility, ticksPerSecond } = instrument.sim;
  const minuteStart = bucketStart('H1', options.now) - HISTORY_MINUTES * MINUTE;

  // Hourly candles before `minuteStart`, walking back in time from the reference price.
  const h1: Candle[] = [];
  let price = reference;
  for (let t = minuteStart - HOUR; t >= minuteStart - HISTORY_HOURS * HOUR; t -= HOUR) {
    if (!open(t) && !open(t + HOUR - MINUTE)) continue;
    const close = price;
    const start = walk(close, reference, volatility, -HOUR, rng);
    h1.push(candleFrom(start, close, volatility, HOUR, rng, instrument.digits, t, Math.max(1, Math.round(ticksPerSecond * 3600 * (0.5 + rng.next())))));
    price = start;
  }
  h1.reverse();

  // Minute candles from `minuteStart` up to the current minute, walking forward.
  const m1: Candle[] = [];
  price = reference;
  const end = bucketStart('M1', options.now);
  for (let t = minuteStart; t < end; t += MINUTE) {
    if (!open(t)) continue;
    const next = walk(price, reference, volatility, MINUTE, rng);
    m1.push(candleFrom(price, next, volatility, MINUTE, rng, instrument.digits, t, Math.max(1, Math.round(ticksPerSecond * 60 * (0.5 + rng.next())))));
    price = next;
  }
  return { m1, h1 };
}

const FROM_MINUTES: Period[] = ['M5', 'M15', 'M30'];
const FROM_HOURS: Period[] = ['H4', 'D1', 'W1', 'MN'];

export async function seedSimHistory(store: CandleStore, instruments: Instrument[], options: Options): Promise<Map<string, number>> {
  const lastClose = new Map<string, number>();
  for (const instrument of instruments) {
    if (await store.hasHistory(instrument.symbol)) continue;
    const { m1, h1 } = generateHistory(instrument, options);
    const hours = [...h1, ...aggregate(m1, 'H1')];
    const series: [Period, Candle[]][] = [['M1', m1], ...FROM_MINUTES.map((p): [Period, Candle[]] => [p, aggregate(m1, p)]), ['H1', hours], ...FROM_HOURS.map((p): [Period, Candle[]] => [p, aggregate(hours, p)])];
    await store.importHistory(series.flatMap(([period, candles]) => candles.map((c) => ({ symbol: instrument.symbol, period, ...c }))));
    const last = m1[m1.length - 1] ?? h1[h1.length - 1];
    if (last) lastClose.set(instrument.symbol, last.close);
  }
  return lastClose;
}
