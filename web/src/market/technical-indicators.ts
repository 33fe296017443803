/**
 * The indicators of the technical summary (`technical-summary.ts`), fed and read: the
 * `trading-signals` library's indicators run over one input per candle (oldest first), read on
 * every candle (`null` where they have no value yet, or where the input or the reading is not a
 * finite number), and the tolerance under which two figures tie.
 *
 * Where the library's definitions differ from TradingView's (which a trader may compare against):
 * - Its EMA starts from the first value, where TradingView starts from the SMA of the first n
 *   values. The difference fades by (1 − 2/(n + 1)) a bar: over the 300 candles the pages pass it is
 *   negligible for every average except the 200-bar EMA (about a third of the difference at its
 *   200th candle is left at the 300th), so that one vote can differ from TradingView's when the close
 *   is near the average. MACD's lines and Bull Bear Power use the same EMA.
 * - Its ADX (which ours follows, see directional()) starts its averages with the first candle,
 *   TradingView with the second candle's movement; after a few dozen candles the difference is gone.
 * - Its Ultimate Oscillator reads 50 when the 7-bar window had no range at all.
 * - Stochastic %K is read only once %D can be computed too (two candles later than %K alone).
 */
import type { CandleRecord } from '@tradeport/contracts';
import { ATR, CCI, DonchianChannels, EMA, MACD, RSI, StochasticOscillator, WilliamsR, WSMA } from 'trading-signals';

// ---------------------------------------------------------------- tolerance

/** Relative tolerance under which two figures are treated as equal when voting (see technical-summary.ts). */
const RELATIVE_TOLERANCE = 1e-9;
/** Reference magnitude for tolerances on 0–100 oscillators (and on CCI, whose levels are ±100). */
export const OSCILLATOR_SCALE = 100;

/** Sign of a − b, 0 when they differ by no more than the tolerance relative to `scale`. */
export function compare(a: number, b: number, scale: number): -1 | 0 | 1 {
  const difference = a - b;
  const tolerance = RELATIVE_TOLERANCE * Math.abs(scale);
  if (difference > tolerance) return 1;
  if (difference < -tolerance) return -1;
  return 0;
}

/** Whether a window's highest and lowest differ by more than the tolerance (relative to `scale`, or to their own magnitude). */
function hasRange(lowest: number, highest: number, scale = Math.max(Math.abs(lowest), Math.abs(highest))): boolean {
  return compare(highest, lowest, scale) > 0;
}

// ---------------------------------------------------------------- feeding the library

/** An indicator's reading on one candle: one number, or several named ones. */
type Reading = number | { readonly [name: string]: number };

/** An indicator's readings, one per candle (null where it has none). */
export type Series<R extends Reading = number> = (R | null)[];

/** A fresh indicator: fed one input a candle, oldest first, it returns its reading on that candle or null while it has too little history. */
type Indicator<Input, R extends Reading> = (input: Input) => R | null;

export interface Bar {
  high: number;
  low: number;
  close: number;
}

function isFiniteReading(reading: Reading): boolean {
  return typeof reading === 'number' ? Number.isFinite(reading) : Object.values(reading).every((v) => Number.isFinite(v));
}

/**
 * Runs an indicator over one input per candle. The library expects clean input: it can answer NaN
 * or ±Infinity (a division by zero, an overflow on absurd prices) and keep that in its averages for
 * good. So a missing input (a candle with a non-finite field), a non-finite reading
 * or a throw reads null and starts the indicator afresh on the next candle, as after a gap in the
 * data: it has a value again once it has enough candles after that point.
 */
export function run<Input, R extends Reading>(inputs: readonly (Input | null)[], create: () => Indicator<Input, R>): Series<R> {
  const out: Series<R> = [];
  let indicator = create();
  for (const input of inputs) {
    let reading: R | null = null;
    let broken = input === null;
    if (input !== null) {
      try {
        reading = indicator(input);
        broken = reading !== null && !isFiniteReading(reading);
      } catch {
        broken = true;
      }
    }
    if (broken) {
      reading = null;
      indicator = create();
    }
    out.push(reading);
  }
  return out;
}

export function last<R extends Reading>(series: Series<R>, barsBack = 0): R | null {
  return series[series.length - 1 - barsBack] ?? null;
}

// ---------------------------------------------------------------- indicators

/** The indicator's answer to each input, which the library's indicators give as null until they have enough history. */
export function feed<Input, R extends Reading>(indicator: { add(input: Input): R | null }): Indicator<Input, R> {
  return (input) => indicator.add(input);
}

/** EMA, alpha 2 / (n + 1), starting from the first value (see the file header). */
export function ema(bars: number): Indicator<number, number> {
  const average = new EMA(bars);
  let seen = 0;
  // Its add() returns the running value from the first input on: read it once the EMA has had the
  // inputs it requires (asking getResult() before then costs a thrown error each candle).
  return (close) => {
    const value = average.add(close);
    return ++seen < average.getRequiredInputs() ? null : value;
  };
}

/**
 * Wilder's RSI. The library reads 100 whenever the average loss is 0, also when prices did not
 * move at all; that reads 50 here (no side dominates), as a flat market is not overbought.
 */
export function rsi(bars: number): Indicator<number, number> {
  const indicator = new RSI(bars);
  let previous: number | undefined;
  let rose = false;
  return (close) => {
    if (previous !== undefined && close > previous) rose = true;
    previous = close;
    const value = indicator.add(close);
    return value === 100 && !rose ? 50 : value;
  };
}

/**
 * Stochastic %K (over `kBars`, smoothed by an SMA of `kSmoothingBars`) and %D (an SMA of
 * `dSmoothingBars` of %K), 0–100. The library places a close in a window without range at 0; such
 * a window has no position, so there is no reading while one of the windows averaged had no range.
 * `scale` is the tolerance reference for a bounded input (RSI: 100); prices use their own magnitude.
 */
export function stochastic(kBars: number, kSmoothingBars: number, dSmoothingBars: number, scale?: number): () => Indicator<Bar, { k: number; d: number }> {
  return () => {
    const oscillator = new StochasticOscillator({ kPeriod: kBars, kSlowingPeriod: kSmoothingBars, dPeriod: dSmoothingBars });
    const window = new DonchianChannels(kBars);
    let windowsWithRange = 0;
    return (bar) => {
      const result = oscillator.add(bar);
      const channel = window.add(bar);
      if (channel !== null) windowsWithRange = hasRange(channel.lower, channel.upper, scale) ? windowsWithRange + 1 : 0;
      return result === null || windowsWithRange < kSmoothingBars + dSmoothingBars - 1 ? null : { k: result.stochK, d: result.stochD };
    };
  };
}

/** Williams %R, −100 (close at the lowest low) to 0; none over a window without range (the library reads −100 there). */
export function williamsR(bars: number): Indicator<Bar, number> {
  const indicator = new WilliamsR(bars);
  const window = new DonchianChannels(bars);
  return (bar) => {
    const value = indicator.add(bar);
    const channel = window.add(bar);
    return value === null || channel === null || !hasRange(channel.lower, channel.upper) ? null : value;
  };
}

/**
 * Commodity Channel Index of the typical price (H+L+C)/3 with Lambert's 0.015. Over a window whose
 * typical prices are all equal it reads 0, the price being at its average (the library divides by
 * a mean deviation of 0, or of rounding noise, there).
 */
export function cci(bars: number): Indicator<Bar, number> {
  const indicator = new CCI(bars);
  const window = new DonchianChannels(bars);
  return (bar) => {
    const value = indicator.add(bar);
    const typical = (bar.high + bar.low + bar.close) / 3;
    const channel = window.add({ high: typical, low: typical });
    if (value === null || channel === null) return null;
    return hasRange(channel.lower, channel.upper) ? value : 0;
  };
}

/**
 * Wilder's directional movement system: ADX, +DI and −DI, all 0–100, arranged as the library's
 * ADX (Wilder's smoothing of each side's movement over its average true range, then of DX) but
 * with the up and down moves compared here. The library compares them exactly, so an outside bar
 * whose moves are equal counts for both sides, or for one of them once rounding has told them apart
 * (the same market quoted in another unit could then vote differently). Here they are compared with
 * our tolerance, and equal moves count for neither side, as in TradingView's DMI. A market without
 * any range has no directional movement: DI 0 (the library divides 0 by 0).
 */
export function directional(bars: number): Indicator<Bar, { adx: number; plusDi: number; minusDi: number }> {
  const trueRange = new ATR(bars);
  const [upMoves, downMoves, dx] = [new WSMA(bars), new WSMA(bars), new WSMA(bars)];
  let previous: Bar | undefined;
  return (bar) => {
    let [up, down] = [0, 0];
    if (previous !== undefined) {
      const [rise, fall] = [bar.high - previous.high, previous.low - bar.low];
      const scale = Math.max(Math.abs(bar.high), Math.abs(previous.low));
      if (compare(rise, fall, scale) > 0 && compare(rise, 0, scale) > 0) up = rise;
      if (compare(fall, rise, scale) > 0 && compare(fall, 0, scale) > 0) down = fall;
    }
    previous = bar;
    const [range, upAverage, downAverage] = [trueRange.add(bar), upMoves.add(up), downMoves.add(down)];
    if (range === null || upAverage === null || downAverage === null) return null;
    const di = (moves: number): number => (range > 0 ? (100 * moves) / range : 0);
    const [plusDi, minusDi] = [di(upAverage), di(downAverage)];
    const adx = dx.add(plusDi + minusDi > 0 ? (100 * Math.abs(plusDi - minusDi)) / (plusDi + minusDi) : 0);
    return adx === null ? null : { adx, plusDi, minusDi };
  };
}

/** MACD level and signal line, once the signal's own EMA has had `signalBars` levels (the library returns one from the first level). */
export function macd(fastBars: number, slowBars: number, signalBars: number): Indicator<number, { line: number; signal: number }> {
  const indicator = new MACD(new EMA(fastBars), new EMA(slowBars), new EMA(signalBars));
  let levels = 0;
  return (close) => {
    const result = indicator.add(close);
    if (result === null) return null;
    return ++levels < indicator.signal.getRequiredInputs() ? null : { line: result.macd, signal: result.signal };
  };
}

/** The candles as the indicators take them, null where a field they need is not a finite number. */
export interface Columns {
  close: (number | null)[];
  bars: (Bar | null)[];
  barsWithVolume: ((Bar & { volume: number }) | null)[];
}

export function columns(candles: readonly CandleRecord[]): Columns {
  const finite = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
  const bars = candles.map((c) => (finite(c.high) && finite(c.low) && finite(c.close) ? { high: c.high, low: c.low, close: c.close } : null));
  return {
    close: candles.map((c) => (finite(c.close) ? c.close : null)),
    bars,
    barsWithVolume: bars.map((bar, i) => {
      const volume = candles[i]?.volume;
      return bar !== null && finite(volume) ? { ...bar, volume } : null;
    }),
  };
}

// ---------------------------------------------------------------- votes
