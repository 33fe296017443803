/**
 * Technical-analysis summary of a candle series, in the manner of the "Technical Analysis" gauges
 * traders know from TradingView: fifteen moving averages and eleven oscillators each vote Buy, Sell
 * or Neutral on the latest candle, and the votes are tallied into a rating from Strong Sell to Strong
 * Buy. Pure functions only (no React, DOM or I/O), so the same figures can be shown on any screen and
 * checked in unit tests.
 *
 * The indicators themselves come from the `trading-signals` library; what is ours is how they are
 * fed and read (below), the vote rules, the tolerance for ties and the rating thresholds.
 *
 * Conventions used throughout:
 * - Candles are oldest first. Every indicator is run over all of them and read on every candle
 *   (`null` where it has no value yet) because several vote rules look at the previous bar
 *   ("rising", "crosses over").
 * - Moving averages, Awesome Oscillator, Momentum, MACD and Bull Bear Power are in price units;
 *   RSI, Stochastic, Stochastic RSI, ADX/DI and the Ultimate Oscillator are on a 0–100 scale,
 *   Williams %R on −100–0, CCI is unbounded and dimensionless.
 * - Nothing here throws and nothing returns NaN or ±Infinity: too few candles or non-finite input
 *   give `null`, and a `null` indicator votes Neutral. Callers can render whatever comes back
 *   without guarding.
 * - Comparisons behind votes treat differences within a relative tolerance as ties. Floating-point
 *   rounding otherwise turns a true tie (a flat market, a moving average equal to the close) into a
 *   random Buy or Sell, and the same market quoted in another unit (prices times a constant) could
 *   vote differently.
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
import {
  AO,
  ATR,
  CCI,
  DonchianChannels,
  ElderRay,
  EMA,
  HMA,
  IchimokuCloud,
  MACD,
  MOM,
  RSI,
  SMA,
  StochasticOscillator,
  UltimateOscillator,
  VWMA,
  WilliamsR,
  WSMA,
} from 'trading-signals';

// ---------------------------------------------------------------- public types

export { RATINGS, SUMMARY_CANDLES, type GroupSummary, type IndicatorVote, type Rating, type TechnicalSummary, type VoteAction } from './technical-summary-types';
import type { GroupSummary, IndicatorVote, Rating, TechnicalSummary, VoteAction } from './technical-summary-types';

// ---------------------------------------------------------------- rating

/** Score at or below which the rating is Strong Sell (and, mirrored, at or above which Strong Buy). */
const STRONG_SCORE = 0.5;
/** Scores within ±this (inclusive) are Neutral. */
const NEUTRAL_SCORE = 0.1;

/**
 * Rating of a score in [−1, 1]: ≤ −0.5 Strong Sell, < −0.1 Sell, ≤ 0.1 Neutral, < 0.5 Buy, else
 * Strong Buy. A non-finite score (never produced here) is Neutral rather than a confident call.
 */
export function ratingForScore(score: number): Rating {
  if (!Number.isFinite(score)) return 'Neutral';
  if (score <= -STRONG_SCORE) return 'Strong Sell';
  if (score < -NEUTRAL_SCORE) return 'Sell';
  if (score <= NEUTRAL_SCORE) return 'Neutral';
  if (score < STRONG_SCORE) return 'Buy';
  return 'Strong Buy';
}

/** Tallies votes into a GroupSummary (see GroupSummary for what counts towards the score). */
export function summarizeVotes(indicators: readonly IndicatorVote[]): GroupSummary {
  let buy = 0;
  let sell = 0;
  let neutral = 0;
  let counted = 0;
  for (const { value, action } of indicators) {
    if (action === 'Buy') buy++;
    else if (action === 'Sell') sell++;
    else neutral++;
    if (value !== null || action !== 'Neutral') counted++;
  }
  // counted ≥ buy + sell, so the score stays within [−1, 1]; 0 / counted is +0, never −0.
  const score = counted === 0 ? 0 : (buy - sell) / counted;
  return { buy, sell, neutral, rating: ratingForScore(score), score, indicators: [...indicators] };
}

// ---------------------------------------------------------------- tolerance

/** Relative tolerance under which two figures are treated as equal when voting (see file header). */
const RELATIVE_TOLERANCE = 1e-9;
/** Reference magnitude for tolerances on 0–100 oscillators (and on CCI, whose levels are ±100). */
const OSCILLATOR_SCALE = 100;

/** Sign of a − b, 0 when they differ by no more than the tolerance relative to `scale`. */
function compare(a: number, b: number, scale: number): -1 | 0 | 1 {
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
type Series<R extends Reading = number> = (R | null)[];

/** A fresh indicator: fed one input a candle, oldest first, it returns its reading on that candle or null while it has too little history. */
type Indicator<Input, R extends Reading> = (input: Input) => R | null;

interface Bar {
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
function run<Input, R extends Reading>(inputs: readonly (Input | null)[], create: () => Indicator<Input, R>): Series<R> {
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

function last<R extends Reading>(series: Series<R>, barsBack = 0): R | null {
  return series[series.length - 1 - barsBack] ?? null;
}

// ---------------------------------------------------------------- indicators

/** The indicator's answer to each input, which the library's indicators give as null until they have enough history. */
function feed<Input, R extends Reading>(indicator: { add(input: Input): R | null }): Indicator<Input, R> {
  return (input) => indicator.add(input);
}

/** EMA, alpha 2 / (n + 1), starting from the first value (see the file header). */
function ema(bars: number): Indicator<number, number> {
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
function rsi(bars: number): Indicator<number, number> {
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
function stochastic(kBars: number, kSmoothingBars: number, dSmoothingBars: number, scale?: number): () => Indicator<Bar, { k: number; d: number }> {
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
function williamsR(bars: number): Indicator<Bar, number> {
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
function cci(bars: number): Indicator<Bar, number> {
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
function directional(bars: number): Indicator<Bar, { adx: number; plusDi: number; minusDi: number }> {
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
function macd(fastBars: number, slowBars: number, signalBars: number): Indicator<number, { line: number; signal: number }> {
  const indicator = new MACD(new EMA(fastBars), new EMA(slowBars), new EMA(signalBars));
  let levels = 0;
  return (close) => {
    const result = indicator.add(close);
    if (result === null) return null;
    return ++levels < indicator.signal.getRequiredInputs() ? null : { line: result.macd, signal: result.signal };
  };
}

/** The candles as the indicators take them, null where a field they need is not a finite number. */
interface Columns {
  close: (number | null)[];
  bars: (Bar | null)[];
  barsWithVolume: ((Bar & { volume: number }) | null)[];
}

function columns(candles: readonly CandleRecord[]): Columns {
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

const OVERSOLD_RSI = 30;
const OVERBOUGHT_RSI = 70;
const OVERSOLD_STOCHASTIC = 20;
const OVERBOUGHT_STOCHASTIC = 80;
const OVERSOLD_CCI = -100;
const OVERBOUGHT_CCI = 100;
const TRENDING_ADX = 20;
const OVERSOLD_WILLIAMS_R = -80;
const OVERBOUGHT_WILLIAMS_R = -20;
const BULLISH_ULTIMATE = 70;
const BEARISH_ULTIMATE = 30;
/** Length of the SMA the close is compared with to tell an up- from a downtrend. */
const TREND_SMA_BARS = 50;

function vote(buy: boolean, sell: boolean): VoteAction {
  if (buy && !sell) return 'Buy';
  if (sell && !buy) return 'Sell';
  return 'Neutral';
}

function entry(name: string, value: number | null, action: VoteAction): IndicatorVote {
  // An indicator without a value has nothing to vote on, whatever the rule would say.
  return { name, value, action: value === null ? 'Neutral' : action };
}

/** A moving average votes Buy when it is below the close (price above its average), Sell when above. */
function movingAverageVote(name: string, average: number | null, close: number | null): IndicatorVote {
  if (average === null || close === null) return entry(name, average, 'Neutral');
  const side = compare(close, average, Math.max(Math.abs(close), Math.abs(average)));
  return entry(name, average, side > 0 ? 'Buy' : side < 0 ? 'Sell' : 'Neutral');
}

const AVERAGE_LENGTHS = [10, 20, 30, 50, 100, 200];

function movingAverageVotes(c: Columns, simple: ReadonlyMap<number, Series>): IndicatorVote[] {
  const close = last(c.close);
  const votes: IndicatorVote[] = [];
  for (const bars of AVERAGE_LENGTHS) {
    votes.push(movingAverageVote(`Exponential Moving Average (${bars})`, last(run(c.close, () => ema(bars))), close));
    votes.push(movingAverageVote(`Simple Moving Average (${bars})`, last(simple.get(bars) ?? []), close));
  }
  // Only the cloud's base line is read; its span B is given the base line's length so that the cloud does not wait for 52 candles.
  const cloud = run(c.bars, () => {
    const indicator = new IchimokuCloud({ baseInterval: 26, conversionInterval: 9, spanBInterval: 26 });
    return (bar: Bar) => indicator.add(bar)?.base ?? null;
  });
  votes.push(movingAverageVote('Ichimoku Base Line (26)', last(cloud), close));
  // VWMA: Σ close·volume / Σ volume over 20 candles; the library has no value while no volume traded.
  votes.push(movingAverageVote('Volume Weighted Moving Average (20)', last(run(c.barsWithVolume, () => feed(new VWMA(20)))), close));
  votes.push(movingAverageVote('Hull Moving Average (9)', last(run(c.close, () => feed(new HMA(9)))), close));
  return votes;
}

/** +1 rising, −1 falling, 0 flat or unknown (no previous value). */
function direction(now: number | null, before: number | null, scale: number): -1 | 0 | 1 {
  return now === null || before === null ? 0 : compare(now, before, scale);
}

/** Whether `value` is strictly beyond `level` (below it for direction −1, above for +1), with tolerance. */
function beyond(value: number, level: number, side: -1 | 1, scale: number): boolean {
  return compare(value, level, scale) === side;
}

/** Oversold and turning up → Buy; overbought and turning down → Sell (RSI, CCI, Williams %R). */
function turningVote(series: Series, oversold: number, overbought: number): VoteAction {
  const now = last(series);
  if (now === null) return 'Neutral';
  const turn = direction(now, last(series, 1), OSCILLATOR_SCALE);
  return vote(beyond(now, oversold, -1, OSCILLATOR_SCALE) && turn > 0, beyond(now, overbought, 1, OSCILLATOR_SCALE) && turn < 0);
}

/** Stochastic-style vote: both lines oversold with %K above %D → Buy; both overbought with %K below %D → Sell. */
function crossVote(lines: { k: number; d: number } | null, oversold: number, overbought: number): VoteAction {
  if (lines === null) return 'Neutral';
  const { k, d } = lines;
  const side = compare(k, d, OSCILLATOR_SCALE);
  const below = (v: number): boolean => beyond(v, oversold, -1, OSCILLATOR_SCALE);
  const above = (v: number): boolean => beyond(v, overbought, 1, OSCILLATOR_SCALE);
  return vote(below(k) && below(d) && side > 0, above(k) && above(d) && side < 0);
}

function oscillatorVotes(c: Columns, simple: ReadonlyMap<number, Series>): IndicatorVote[] {
  const close = last(c.close);
  // Tolerance reference for oscillators in price units (AO, Momentum, MACD, Bull Bear Power).
  const priceScale = close === null ? 0 : Math.abs(close);
  const votes: IndicatorVote[] = [];

  // Trend filter for Stochastic RSI and Bull Bear Power: close above / below its 50-bar SMA.
  const trendAverage = last(simple.get(TREND_SMA_BARS) ?? []);
  const trend = close === null || trendAverage === null ? 0 : compare(close, trendAverage, Math.max(Math.abs(close), Math.abs(trendAverage)));

  // RSI(14): Buy when below 30 and rising, Sell when above 70 and falling.
  const rsiValues = run(c.close, () => rsi(14));
  votes.push(entry('Relative Strength Index (14)', last(rsiValues), turningVote(rsiValues, OVERSOLD_RSI, OVERBOUGHT_RSI)));

  // Stochastic %K(14,3,3): Buy when %K and %D are both below 20 with %K above %D (main line over signal line), Sell when both above 80 with %K below %D.
  const stochasticNow = last(run(c.bars, stochastic(14, 3, 3)));
  votes.push(entry('Stochastic %K (14, 3, 3)', stochasticNow?.k ?? null, crossVote(stochasticNow, OVERSOLD_STOCHASTIC, OVERBOUGHT_STOCHASTIC)));

  // CCI(20): Buy when below −100 and rising, Sell when above +100 and falling.
  const cciValues = run(c.bars, () => cci(20));
  votes.push(entry('Commodity Channel Index (20)', last(cciValues), turningVote(cciValues, OVERSOLD_CCI, OVERBOUGHT_CCI)));

  // ADX(14): Buy when ADX is above 20 and +DI crossed above −DI on the last bar, Sell when above 20 and +DI crossed below −DI.
  const directionalValues = run(c.bars, () => directional(14));
  const [directionalNow, directionalBefore] = [last(directionalValues), last(directionalValues, 1)];
  let adxAction: VoteAction = 'Neutral';
  if (directionalNow !== null && directionalBefore !== null && beyond(directionalNow.adx, TRENDING_ADX, 1, OSCILLATOR_SCALE)) {
    const sideNow = compare(directionalNow.plusDi, directionalNow.minusDi, OSCILLATOR_SCALE);
    const sideBefore = compare(directionalBefore.plusDi, directionalBefore.minusDi, OSCILLATOR_SCALE);
    adxAction = vote(sideNow > 0 && sideBefore <= 0, sideNow < 0 && sideBefore >= 0);
  }
  votes.push(entry('Average Directional Index (14)', directionalNow?.adx ?? null, adxAction));

  // Awesome Oscillator (5, 34): Buy on a zero-line cross upwards or a bullish saucer above zero (dip then rise), Sell on the mirror image.
  const ao = run(c.bars, () => feed(new AO(5, 34)));
  const [aoNow, aoBefore, aoTwoBefore] = [last(ao), last(ao, 1), last(ao, 2)];
  let aoAction: VoteAction = 'Neutral';
  if (aoNow !== null && aoBefore !== null) {
    const [signNow, signBefore] = [compare(aoNow, 0, priceScale), compare(aoBefore, 0, priceScale)];
    const saucer = (side: -1 | 1): boolean =>
      aoTwoBefore !== null && signNow === side && signBefore === side && compare(aoNow, aoBefore, priceScale) === side && compare(aoTwoBefore, aoBefore, priceScale) === side;
    aoAction = vote((signNow > 0 && signBefore < 0) || saucer(1), (signNow < 0 && signBefore > 0) || saucer(-1));
  }
  votes.push(entry('Awesome Oscillator', aoNow, aoAction));

  // Momentum(10): Buy when rising, Sell when falling.
  const momentumValues = run(c.close, () => feed(new MOM(10)));
  const momentumTurn = direction(last(momentumValues), last(momentumValues, 1), priceScale);
  votes.push(entry('Momentum (10)', last(momentumValues), vote(momentumTurn > 0, momentumTurn < 0)));

  // MACD(12,26,9): Buy when the MACD level is above its signal line, Sell when below.
  const macdNow = last(run(c.close, () => macd(12, 26, 9)));
  const macdSide = macdNow === null ? 0 : compare(macdNow.line, macdNow.signal, priceScale);
  votes.push(entry('MACD Level (12, 26)', macdNow?.line ?? null, vote(macdSide > 0, macdSide < 0)));

  // Stochastic RSI(3,3,14,14): the stochastic of RSI(14) over 14 bars, smoothed 3 and 3. Buy in a downtrend when %K and %D are below 20 and %K is above %D, Sell in an uptrend when both above 80 and %K below %D.
  // Built from the library's RSI and Stochastic Oscillator: its own StochasticRSI skips readings of exactly 0 (a truthiness test) and reads a window without range as 100.
  const stochRsiNow = last(run(rsiValues.map((r) => (r === null ? null : { high: r, low: r, close: r })), stochastic(14, 3, 3, OSCILLATOR_SCALE)));
  const stochRsiAction = crossVote(stochRsiNow, OVERSOLD_STOCHASTIC, OVERBOUGHT_STOCHASTIC);
  votes.push(
    entry('Stochastic RSI Fast (3, 3, 14, 14)', stochRsiNow?.k ?? null, vote(stochRsiAction === 'Buy' && trend < 0, stochRsiAction === 'Sell' && trend > 0)),
  );

  // Williams %R(14): Buy when below −80 and rising, Sell when above −20 and falling.
  const williamsValues = run(c.bars, () => williamsR(14));
  votes.push(entry('Williams Percent Range (14)', last(williamsValues), turningVote(williamsValues, OVERSOLD_WILLIAMS_R, OVERBOUGHT_WILLIAMS_R)));

  // Bull Bear Power (Elder ray, 13): bull power = high − EMA, bear power = low − EMA; the value shown is their sum.
  // Buy in an uptrend when bear power is negative and rising, Sell in a downtrend when bull power is positive and falling.
  const elder = run(c.bars, () => {
    const indicator = new ElderRay(13);
    return (bar: Bar) => {
      const result = indicator.add(bar);
      return result === null ? null : { bull: result.bullPower, bear: result.bearPower };
    };
  });
  const [elderNow, elderBefore] = [last(elder), last(elder, 1)];
  const bbpValue = elderNow === null || !Number.isFinite(elderNow.bull + elderNow.bear) ? null : elderNow.bull + elderNow.bear;
  votes.push(
    entry(
      'Bull Bear Power',
      bbpValue,
      elderNow === null
        ? 'Neutral'
        : vote(
            trend > 0 && compare(elderNow.bear, 0, priceScale) < 0 && direction(elderNow.bear, elderBefore?.bear ?? null, priceScale) > 0,
            trend < 0 && compare(elderNow.bull, 0, priceScale) > 0 && direction(elderNow.bull, elderBefore?.bull ?? null, priceScale) < 0,
          ),
    ),
  );

  // Ultimate Oscillator(7,14,28): Buy when above 70, Sell when below 30.
  const uo = last(run(c.bars, () => feed(new UltimateOscillator({ shortPeriod: 7, mediumPeriod: 14, longPeriod: 28 }))));
  votes.push(
    entry('Ultimate Oscillator (7, 14, 28)', uo, uo === null ? 'Neutral' : vote(beyond(uo, BULLISH_ULTIMATE, 1, OSCILLATOR_SCALE), beyond(uo, BEARISH_ULTIMATE, -1, OSCILLATOR_SCALE))),
  );

  return votes;
}

// ---------------------------------------------------------------- summary


/**
 * The technical summary of `candles` (oldest first) as of the latest candle: the moving-average and
 * oscillator groups and both pooled. With fewer candles than an indicator needs (200 for the longest
 * averages) that indicator is listed with a null value, votes Neutral and does not count towards the
 * score; with no candles every group is Neutral with score 0.
 *
 * Cost grows with the number of candles (about 10 ms for 300 on a desktop, several times that on a
 * phone; technical-summary-off-thread.ts moves it off the main thread), so pass the recent history
 * rather than everything loaded. The exponential averages (and RSI, ADX, MACD) depend on where their history
 * starts, so a short history can read slightly differently from a chart that loaded more.
 */
export function technicalSummary(candles: readonly CandleRecord[]): TechnicalSummary {
  const c = columns(candles);
  // The simple averages both vote and, at 50 bars, tell the trend for two oscillators.
  const simple = new Map(AVERAGE_LENGTHS.map((bars) => [bars, run(c.close, () => feed(new SMA(bars)))]));
  const movingAverages = movingAverageVotes(c, simple);
  const oscillators = oscillatorVotes(c, simple);
  return {
    oscillators: summarizeVotes(oscillators),
    movingAverages: summarizeVotes(movingAverages),
    summary: summarizeVotes([...oscillators, ...movingAverages]),
  };
}
