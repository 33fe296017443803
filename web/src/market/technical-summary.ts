/**
 * Technical-analysis summary of a candle series, in the manner of the "Technical Analysis" gauges
 * traders know from TradingView: fifteen moving averages and eleven oscillators each vote Buy, Sell
 * or Neutral on the latest candle, and the votes are tallied into a rating from Strong Sell to Strong
 * Buy. Pure functions only (no React, DOM, I/O or dependencies), so the same figures can be shown on
 * any screen and checked in unit tests.
 *
 * Conventions used throughout:
 * - Candles are oldest first. Every indicator is computed as a series aligned with the candles
 *   (`null` where it cannot be computed yet) because several vote rules look at the previous bar
 *   ("rising", "crosses over"); the exported helpers return only the latest value.
 * - Lengths are counted in bars (candles), hence the `…Bars` parameter names. Moving averages,
 *   Awesome Oscillator, Momentum, MACD and Bull Bear Power are in price units; RSI, Stochastic,
 *   Stochastic RSI, ADX/DI and the Ultimate Oscillator are on a 0–100 scale, Williams %R on −100–0,
 *   CCI is unbounded and dimensionless.
 * - Nothing here throws and nothing returns NaN or ±Infinity: too few candles, an invalid length or
 *   non-finite input give `null`, and a `null` indicator votes Neutral. Callers can render whatever
 *   comes back without guarding.
 * - Comparisons behind votes treat differences within a relative tolerance as ties. Floating-point
 *   rounding otherwise turns a true tie (a flat market, a moving average equal to the close) into a
 *   random Buy or Sell, and the same market quoted in another unit (prices times a constant) could
 *   vote differently.
 */
import type { CandleRecord } from '@tradeport/contracts';

// ---------------------------------------------------------------- public types

/** One indicator's vote on the latest candle. */
export type VoteAction = 'Buy' | 'Sell' | 'Neutral';

/** The five ratings, from most bearish to most bullish (the order a gauge draws them in). */
export const RATINGS = ['Strong Sell', 'Sell', 'Neutral', 'Buy', 'Strong Buy'] as const;
export type Rating = (typeof RATINGS)[number];

/** An indicator's latest value (null when not computable) and its vote. */
export interface IndicatorVote {
  name: string;
  value: number | null;
  action: VoteAction;
}

/**
 * Tally of a group of votes. `score` = (buy − sell) / counted votes, in [−1, 1], where an indicator
 * counts when it has a value (or, if built by hand, when it votes Buy or Sell): an indicator that
 * cannot be computed yet is listed as Neutral but does not dilute the score, as in TradingView's
 * ratings, which average only the indicators that have a value.
 */
export interface GroupSummary {
  buy: number;
  sell: number;
  neutral: number;
  rating: Rating;
  score: number;
  indicators: IndicatorVote[];
}

export interface TechnicalSummary {
  oscillators: GroupSummary;
  movingAverages: GroupSummary;
  /** Both groups' votes pooled (not the average of the two group scores). */
  summary: GroupSummary;
}

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

// ---------------------------------------------------------------- series primitives

/** An indicator aligned with the candles: one entry per candle, null where not computable. */
type Series = (number | null)[];

/** Relative tolerance under which two figures are treated as equal when voting (see file header). */
const RELATIVE_TOLERANCE = 1e-9;
/** Reference magnitude for tolerances on 0–100 oscillators (and on CCI, whose levels are ±100). */
const OSCILLATOR_SCALE = 100;

function finiteOrNull(x: number | null | undefined): number | null {
  return typeof x === 'number' && Number.isFinite(x) ? x : null;
}

function isValidLength(bars: number): boolean {
  return Number.isInteger(bars) && bars >= 1;
}

/** Sign of a − b, 0 when they differ by no more than the tolerance relative to `scale`. */
function compare(a: number, b: number, scale: number): -1 | 0 | 1 {
  const difference = a - b;
  const tolerance = RELATIVE_TOLERANCE * Math.abs(scale);
  if (difference > tolerance) return 1;
  if (difference < -tolerance) return -1;
  return 0;
}

function nullSeries(length: number): Series {
  return new Array<number | null>(length).fill(null);
}

function toSeries(values: readonly number[]): Series {
  return values.map((v) => finiteOrNull(v));
}

function last(series: Series): number | null {
  return series.length === 0 ? null : (series[series.length - 1] ?? null);
}

function previous(series: Series): number | null {
  return series.length < 2 ? null : (series[series.length - 2] ?? null);
}

/** The `bars` values ending at `end`, or null if any is missing (or the window starts before 0). */
function window(series: Series, end: number, bars: number): number[] | null {
  if (end - bars + 1 < 0) return null;
  const values: number[] = [];
  for (let i = end - bars + 1; i <= end; i++) {
    const v = series[i];
    if (v === null || v === undefined) return null;
    values.push(v);
  }
  return values;
}

function sum(values: readonly number[]): number {
  let total = 0;
  for (const v of values) total += v;
  return total;
}

/**
 * Applies `f` to every full window. Each window is summed afresh rather than with a running sum:
 * a running sum accumulates rounding error over thousands of candles (and would let a tie read as
 * a vote), while the cost stays modest at chart sizes (see technicalSummary).
 */
function rolling(series: Series, bars: number, f: (values: number[]) => number | null): Series {
  const out = nullSeries(series.length);
  if (!isValidLength(bars)) return out;
  for (let i = bars - 1; i < series.length; i++) {
    const values = window(series, i, bars);
    out[i] = values === null ? null : finiteOrNull(f(values));
  }
  return out;
}

function smaSeries(series: Series, bars: number): Series {
  return rolling(series, bars, (values) => sum(values) / bars);
}

/** Linearly weighted MA: the newest value weighs `bars`, the oldest 1. */
function wmaSeries(series: Series, bars: number): Series {
  const totalWeight = (bars * (bars + 1)) / 2;
  return rolling(series, bars, (values) => values.reduce((acc, v, i) => acc + v * (i + 1), 0) / totalWeight);
}

/**
 * Exponential smoothing with factor `alpha`, seeded with the SMA of the first `bars` values (Wilder's
 * seed and the most common one), so the first value is a real average rather than one price that
 * would dominate the next few dozen bars. A gap (null) restarts the seeding.
 */
function smoothedSeries(series: Series, bars: number, alpha: number): Series {
  const out = nullSeries(series.length);
  if (!isValidLength(bars)) return out;
  let prior: number | null = null;
  let run = 0;
  for (let i = 0; i < series.length; i++) {
    const v = series[i];
    if (v === null || v === undefined) {
      prior = null;
      run = 0;
      continue;
    }
    run++;
    if (prior !== null) prior = finiteOrNull(prior + alpha * (v - prior));
    else if (run >= bars) prior = finiteOrNull(sum(window(series, i, bars) ?? []) / bars);
    if (prior === null && run >= bars) run = 0; // overflowed: start over rather than carry garbage
    out[i] = prior;
  }
  return out;
}

function emaSeries(series: Series, bars: number): Series {
  return smoothedSeries(series, bars, 2 / (bars + 1));
}

/** Wilder's smoothing (RMA), used by RSI and ADX: alpha = 1 / bars. */
function wilderSeries(series: Series, bars: number): Series {
  return smoothedSeries(series, bars, 1 / bars);
}

/** Element-wise combination, null where any input is null. */
function combine(f: (...values: number[]) => number | null, ...inputs: Series[]): Series {
  const length = inputs[0]?.length ?? 0;
  const out = nullSeries(length);
  for (let i = 0; i < length; i++) {
    const values: number[] = [];
    for (const input of inputs) {
      const v = input[i];
      if (v === null || v === undefined) break;
      values.push(v);
    }
    if (values.length === inputs.length) out[i] = finiteOrNull(f(...values));
  }
  return out;
}

/** Each value's change from the previous one (null for the first). */
function changeSeries(series: Series, bars = 1): Series {
  const out = nullSeries(series.length);
  for (let i = bars; i < series.length; i++) {
    const now = series[i];
    const before = series[i - bars];
    if (now !== null && now !== undefined && before !== null && before !== undefined) out[i] = finiteOrNull(now - before);
  }
  return out;
}

/**
 * Where `value` sits in the [lowest, highest] range of its window, 0–100. Null when the range is
 * (within tolerance) zero: a flat window has no position, and dividing rounding noise by rounding
 * noise would yield an arbitrary reading.
 */
function rangePosition(value: number, lowest: number, highest: number, scale: number): number | null {
  const range = highest - lowest;
  if (compare(range, 0, scale) <= 0) return null;
  return (100 * (value - lowest)) / range;
}

// ---------------------------------------------------------------- candle columns

interface Columns {
  open: Series;
  high: Series;
  low: Series;
  close: Series;
  volume: Series;
}

function columns(candles: readonly CandleRecord[]): Columns {
  return {
    open: candles.map((c) => finiteOrNull(c.open)),
    high: candles.map((c) => finiteOrNull(c.high)),
    low: candles.map((c) => finiteOrNull(c.low)),
    close: candles.map((c) => finiteOrNull(c.close)),
    volume: candles.map((c) => finiteOrNull(c.volume)),
  };
}

function highestSeries(series: Series, bars: number): Series {
  return rolling(series, bars, (values) => Math.max(...values));
}

function lowestSeries(series: Series, bars: number): Series {
  return rolling(series, bars, (values) => Math.min(...values));
}

// ---------------------------------------------------------------- indicator series

function vwmaSeries(c: Columns, bars: number): Series {
  const priceTimesVolume = combine((close, volume) => close * volume, c.close, c.volume);
  const totalPv = rolling(priceTimesVolume, bars, sum);
  const totalVolume = rolling(c.volume, bars, sum);
  // No volume traded in the window: there is nothing to weight by, so not computable.
  return combine((pv, v) => (v === 0 ? null : pv / v), totalPv, totalVolume);
}

/** Hull MA: WMA over √n bars of 2·WMA(n/2) − WMA(n); tracks a straight line with no lag at all. */
function hullSeries(series: Series, bars: number): Series {
  if (!isValidLength(bars)) return nullSeries(series.length);
  const half = Math.max(1, Math.floor(bars / 2));
  const root = Math.max(1, Math.floor(Math.sqrt(bars)));
  const raw = combine((fast, slow) => 2 * fast - slow, wmaSeries(series, half), wmaSeries(series, bars));
  return wmaSeries(raw, root);
}

/** Ichimoku base line (Kijun-sen): midpoint of the highest high and lowest low over `bars`. */
function baseLineSeries(c: Columns, bars: number): Series {
  return combine((high, low) => (high + low) / 2, highestSeries(c.high, bars), lowestSeries(c.low, bars));
}

/**
 * Wilder's RSI: 100 · average gain / (average gain + average loss), averages by Wilder's smoothing
 * (the same as 100 − 100 / (1 + RS) but defined when there are no losses). A series with neither
 * gains nor losses reads 50: no side dominates, whereas the 100 some platforms show would wrongly
 * flag a flat market as overbought.
 */
function rsiSeries(series: Series, bars: number): Series {
  const change = changeSeries(series);
  const gain = change.map((d) => (d === null ? null : Math.max(d, 0)));
  const loss = change.map((d) => (d === null ? null : Math.max(-d, 0)));
  return combine(
    (up, down) => (up + down === 0 ? 50 : (100 * up) / (up + down)),
    wilderSeries(gain, bars),
    wilderSeries(loss, bars),
  );
}

/**
 * Raw stochastic (%K before smoothing): where `value` sits in the range of `high`/`low` over `bars`,
 * 0–100. `fixedScale` is the tolerance reference for a bounded input (RSI: 100); for prices the
 * window's own magnitude is used, so the tolerance follows the price level.
 */
function rawStochasticSeries(value: Series, high: Series, low: Series, bars: number, fixedScale?: number): Series {
  return combine(
    (v, highest, lowest) => rangePosition(v, lowest, highest, fixedScale ?? Math.max(Math.abs(highest), Math.abs(lowest))),
    value,
    highestSeries(high, bars),
    lowestSeries(low, bars),
  );
}

function stochasticSeries(c: Columns, kBars: number, kSmoothingBars: number, dSmoothingBars: number): { k: Series; d: Series } {
  const raw = rawStochasticSeries(c.close, c.high, c.low, kBars);
  const k = smaSeries(raw, kSmoothingBars);
  return { k, d: smaSeries(k, dSmoothingBars) };
}

/** Commodity Channel Index on the typical price (H+L+C)/3, Lambert's 0.015 constant. */
function cciSeries(c: Columns, bars: number): Series {
  const typical = combine((h, l, cl) => (h + l + cl) / 3, c.high, c.low, c.close);
  const out = nullSeries(typical.length);
  if (!isValidLength(bars)) return out;
  for (let i = bars - 1; i < typical.length; i++) {
    const values = window(typical, i, bars);
    if (values === null) continue;
    const mean = sum(values) / bars;
    const meanDeviation = sum(values.map((v) => Math.abs(v - mean))) / bars;
    const now = values[values.length - 1] ?? mean;
    // A flat window has no deviation: the price is at its average, CCI 0 (not noise / noise).
    out[i] = compare(meanDeviation, 0, mean) <= 0 ? 0 : finiteOrNull((now - mean) / (0.015 * meanDeviation));
  }
  return out;
}

/** Wilder's directional movement system: +DI, −DI and ADX, all 0–100. */
function directionalSeries(c: Columns, bars: number): { plusDi: Series; minusDi: Series; adx: Series } {
  const length = c.close.length;
  const trueRange = nullSeries(length);
  const plusDm = nullSeries(length);
  const minusDm = nullSeries(length);
  for (let i = 1; i < length; i++) {
    const high = c.high[i];
    const low = c.low[i];
    const priorHigh = c.high[i - 1];
    const priorLow = c.low[i - 1];
    const priorClose = c.close[i - 1];
    if (high == null || low == null || priorHigh == null || priorLow == null || priorClose == null) continue;
    const up = high - priorHigh;
    const down = priorLow - low;
    const scale = Math.max(Math.abs(high), Math.abs(priorLow));
    // Only the larger of the two moves counts, and only if it is a move at all (ties count for neither).
    plusDm[i] = compare(up, down, scale) > 0 && compare(up, 0, scale) > 0 ? finiteOrNull(up) : 0;
    minusDm[i] = compare(down, up, scale) > 0 && compare(down, 0, scale) > 0 ? finiteOrNull(down) : 0;
    trueRange[i] = finiteOrNull(Math.max(high - low, Math.abs(high - priorClose), Math.abs(low - priorClose)));
  }
  const atr = wilderSeries(trueRange, bars);
  // No range at all means no directional movement either: DI 0 rather than 0 / 0.
  const di = (dm: number, range: number): number => (range > 0 ? (100 * dm) / range : 0);
  const plusDi = combine(di, wilderSeries(plusDm, bars), atr);
  const minusDi = combine(di, wilderSeries(minusDm, bars), atr);
  const dx = combine((p, m) => (p + m > 0 ? (100 * Math.abs(p - m)) / (p + m) : 0), plusDi, minusDi);
  return { plusDi, minusDi, adx: wilderSeries(dx, bars) };
}

/** Bill Williams' Awesome Oscillator: SMA(5) − SMA(34) of the median price (H+L)/2. */
function awesomeSeries(c: Columns, fastBars = 5, slowBars = 34): Series {
  const median = combine((h, l) => (h + l) / 2, c.high, c.low);
  return combine((fast, slow) => fast - slow, smaSeries(median, fastBars), smaSeries(median, slowBars));
}

function macdSeries(series: Series, fastBars: number, slowBars: number, signalBars: number): { line: Series; signal: Series } {
  const line = combine((fast, slow) => fast - slow, emaSeries(series, fastBars), emaSeries(series, slowBars));
  return { line, signal: emaSeries(line, signalBars) };
}

function stochRsiSeries(series: Series, kSmoothingBars: number, dSmoothingBars: number, rsiBars: number, stochasticBars: number): { k: Series; d: Series } {
  const rsiValues = rsiSeries(series, rsiBars);
  const raw = rawStochasticSeries(rsiValues, rsiValues, rsiValues, stochasticBars, OSCILLATOR_SCALE);
  const k = smaSeries(raw, kSmoothingBars);
  return { k, d: smaSeries(k, dSmoothingBars) };
}

/** Williams %R: where the close sits below the highest high of the range, −100 (at the low) to 0. */
function williamsRSeries(c: Columns, bars: number): Series {
  const position = rawStochasticSeries(c.close, c.high, c.low, bars);
  return position.map((p) => (p === null ? null : p - 100));
}

/** Elder-ray powers: bull = high − EMA, bear = low − EMA (price units). */
function elderSeries(c: Columns, bars: number): { bull: Series; bear: Series } {
  const average = emaSeries(c.close, bars);
  return {
    bull: combine((h, e) => h - e, c.high, average),
    bear: combine((l, e) => l - e, c.low, average),
  };
}

/**
 * Larry Williams' Ultimate Oscillator: buying pressure (close − true low) over true range, averaged
 * over three lengths weighted 4:2:1, on a 0–100 scale.
 */
function ultimateSeries(c: Columns, fastBars: number, middleBars: number, slowBars: number): Series {
  const length = c.close.length;
  const pressure = nullSeries(length);
  const range = nullSeries(length);
  for (let i = 1; i < length; i++) {
    const high = c.high[i];
    const low = c.low[i];
    const close = c.close[i];
    const priorClose = c.close[i - 1];
    if (high == null || low == null || close == null || priorClose == null) continue;
    const trueLow = Math.min(low, priorClose);
    pressure[i] = finiteOrNull(close - trueLow);
    range[i] = finiteOrNull(Math.max(high, priorClose) - trueLow);
  }
  const average = (bars: number): Series =>
    combine(
      // No range over the whole window (a flat market): the ratio is undefined, not 0 / 0.
      (p, r, close) => (compare(r, 0, close) <= 0 ? null : p / r),
      rolling(pressure, bars, sum),
      rolling(range, bars, sum),
      c.close,
    );
  return combine((fast, middle, slow) => (100 * (4 * fast + 2 * middle + slow)) / 7, average(fastBars), average(middleBars), average(slowBars));
}

// ---------------------------------------------------------------- exported helpers (latest value)

/** Simple moving average of the last `periodBars` values (same unit as the values). */
export function sma(values: readonly number[], periodBars: number): number | null {
  return last(smaSeries(toSeries(values), periodBars));
}

/** Exponential moving average (alpha 2 / (n + 1), seeded with the SMA of the first n values). */
export function ema(values: readonly number[], periodBars: number): number | null {
  return last(emaSeries(toSeries(values), periodBars));
}

/** Linearly weighted moving average (newest value weighs most). */
export function wma(values: readonly number[], periodBars: number): number | null {
  return last(wmaSeries(toSeries(values), periodBars));
}

/** Hull moving average: WMA(⌊√n⌋) of 2·WMA(⌊n/2⌋) − WMA(n). Needs n + ⌊√n⌋ − 1 values. */
export function hullMa(values: readonly number[], periodBars = 9): number | null {
  return last(hullSeries(toSeries(values), periodBars));
}

/** Volume-weighted moving average of closes: Σ close·volume / Σ volume; null if no volume traded. */
export function vwma(candles: readonly CandleRecord[], periodBars = 20): number | null {
  return last(vwmaSeries(columns(candles), periodBars));
}

/** Ichimoku base line (Kijun-sen): (highest high + lowest low) / 2 over `periodBars`. */
export function ichimokuBaseLine(candles: readonly CandleRecord[], periodBars = 26): number | null {
  return last(baseLineSeries(columns(candles), periodBars));
}

/** Wilder's RSI, 0–100 (50 when prices did not move at all). Needs periodBars + 1 values. */
export function rsi(values: readonly number[], periodBars = 14): number | null {
  return last(rsiSeries(toSeries(values), periodBars));
}

/** Stochastic %K, 0–100: raw %K over `kBars`, smoothed by an SMA of `kSmoothingBars`. */
export function stochasticK(candles: readonly CandleRecord[], kBars = 14, kSmoothingBars = 3): number | null {
  return last(stochasticSeries(columns(candles), kBars, kSmoothingBars, 1).k);
}

/** Stochastic %D, 0–100: SMA of `dSmoothingBars` of %K. */
export function stochasticD(candles: readonly CandleRecord[], kBars = 14, kSmoothingBars = 3, dSmoothingBars = 3): number | null {
  return last(stochasticSeries(columns(candles), kBars, kSmoothingBars, dSmoothingBars).d);
}

/** Commodity Channel Index of the typical price (dimensionless; ±100 are the usual levels). */
export function cci(candles: readonly CandleRecord[], periodBars = 20): number | null {
  return last(cciSeries(columns(candles), periodBars));
}

/** Average Directional Index, 0–100. Needs 2·periodBars candles. */
export function adx(candles: readonly CandleRecord[], periodBars = 14): number | null {
  return last(directionalSeries(columns(candles), periodBars).adx);
}

/** Positive directional indicator +DI, 0–100. */
export function plusDi(candles: readonly CandleRecord[], periodBars = 14): number | null {
  return last(directionalSeries(columns(candles), periodBars).plusDi);
}

/** Negative directional indicator −DI, 0–100. */
export function minusDi(candles: readonly CandleRecord[], periodBars = 14): number | null {
  return last(directionalSeries(columns(candles), periodBars).minusDi);
}

/** Awesome Oscillator: SMA(fast) − SMA(slow) of the median price (price units). */
export function awesomeOscillator(candles: readonly CandleRecord[], fastBars = 5, slowBars = 34): number | null {
  return last(awesomeSeries(columns(candles), fastBars, slowBars));
}

/** Momentum: the change over `periodBars` (value now − value periodBars ago). */
export function momentum(values: readonly number[], periodBars = 10): number | null {
  if (!isValidLength(periodBars)) return null;
  return last(changeSeries(toSeries(values), periodBars));
}

/** MACD level: EMA(fast) − EMA(slow) (price units). */
export function macd(values: readonly number[], fastBars = 12, slowBars = 26): number | null {
  return last(macdSeries(toSeries(values), fastBars, slowBars, 1).line);
}

/** MACD signal line: EMA(signalBars) of the MACD level. */
export function macdSignal(values: readonly number[], fastBars = 12, slowBars = 26, signalBars = 9): number | null {
  return last(macdSeries(toSeries(values), fastBars, slowBars, signalBars).signal);
}

/** Stochastic RSI %K, 0–100: stochastic of RSI(rsiBars) over stochasticBars, SMA(kSmoothingBars). */
export function stochRsiK(values: readonly number[], kSmoothingBars = 3, rsiBars = 14, stochasticBars = 14): number | null {
  return last(stochRsiSeries(toSeries(values), kSmoothingBars, 1, rsiBars, stochasticBars).k);
}

/** Stochastic RSI %D, 0–100: SMA(dSmoothingBars) of Stochastic RSI %K. */
export function stochRsiD(values: readonly number[], kSmoothingBars = 3, dSmoothingBars = 3, rsiBars = 14, stochasticBars = 14): number | null {
  return last(stochRsiSeries(toSeries(values), kSmoothingBars, dSmoothingBars, rsiBars, stochasticBars).d);
}

/** Williams %R, −100 (close at the lowest low) to 0 (close at the highest high). */
export function williamsR(candles: readonly CandleRecord[], periodBars = 14): number | null {
  return last(williamsRSeries(columns(candles), periodBars));
}

/** Bull Bear Power: bull power + bear power = high + low − 2·EMA(close) (price units). */
export function bullBearPower(candles: readonly CandleRecord[], periodBars = 13): number | null {
  const { bull, bear } = elderSeries(columns(candles), periodBars);
  return last(combine((b, s) => b + s, bull, bear));
}

/** Ultimate Oscillator, 0–100, over three lengths weighted 4:2:1. */
export function ultimateOscillator(candles: readonly CandleRecord[], fastBars = 7, middleBars = 14, slowBars = 28): number | null {
  return last(ultimateSeries(columns(candles), fastBars, middleBars, slowBars));
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

function movingAverageVotes(c: Columns): IndicatorVote[] {
  const close = last(c.close);
  const votes: IndicatorVote[] = [];
  for (const bars of [10, 20, 30, 50, 100, 200]) {
    votes.push(movingAverageVote(`Exponential Moving Average (${bars})`, last(emaSeries(c.close, bars)), close));
    votes.push(movingAverageVote(`Simple Moving Average (${bars})`, last(smaSeries(c.close, bars)), close));
  }
  votes.push(movingAverageVote('Ichimoku Base Line (26)', last(baseLineSeries(c, 26)), close));
  votes.push(movingAverageVote('Volume Weighted Moving Average (20)', last(vwmaSeries(c, 20)), close));
  votes.push(movingAverageVote('Hull Moving Average (9)', last(hullSeries(c.close, 9)), close));
  return votes;
}

/** +1 rising, −1 falling, 0 flat or unknown (no previous value). */
function direction(series: Series, scale: number): -1 | 0 | 1 {
  const now = last(series);
  const before = previous(series);
  return now === null || before === null ? 0 : compare(now, before, scale);
}

/** Whether `value` is strictly beyond `level` (below it for direction −1, above for +1), with tolerance. */
function beyond(value: number, level: number, side: -1 | 1, scale: number): boolean {
  return compare(value, level, scale) === side;
}

function oscillatorVotes(c: Columns): IndicatorVote[] {
  const close = last(c.close);
  // Tolerance reference for oscillators in price units (AO, Momentum, MACD, Bull Bear Power).
  const priceScale = close === null ? 0 : Math.abs(close);
  const votes: IndicatorVote[] = [];

  // Trend filter for Stochastic RSI and Bull Bear Power: close above / below its 50-bar SMA.
  const trendAverage = last(smaSeries(c.close, TREND_SMA_BARS));
  const trend = close === null || trendAverage === null ? 0 : compare(close, trendAverage, Math.max(Math.abs(close), Math.abs(trendAverage)));

  // RSI(14): Buy when below 30 and rising, Sell when above 70 and falling.
  const rsiValues = rsiSeries(c.close, 14);
  votes.push(entry('Relative Strength Index (14)', last(rsiValues), turningVote(rsiValues, OVERSOLD_RSI, OVERBOUGHT_RSI)));

  // Stochastic %K(14,3,3): Buy when %K and %D are both below 20 with %K above %D (main line over signal line), Sell when both above 80 with %K below %D.
  const stochastic = stochasticSeries(c, 14, 3, 3);
  votes.push(entry('Stochastic %K (14, 3, 3)', last(stochastic.k), crossVote(last(stochastic.k), last(stochastic.d), OVERSOLD_STOCHASTIC, OVERBOUGHT_STOCHASTIC)));

  // CCI(20): Buy when below −100 and rising, Sell when above +100 and falling.
  const cciValues = cciSeries(c, 20);
  votes.push(entry('Commodity Channel Index (20)', last(cciValues), turningVote(cciValues, OVERSOLD_CCI, OVERBOUGHT_CCI)));

  // ADX(14): Buy when ADX is above 20 and +DI crossed above −DI on the last bar, Sell when above 20 and +DI crossed below −DI.
  const directional = directionalSeries(c, 14);
  const adxNow = last(directional.adx);
  const [plusNow, minusNow, plusBefore, minusBefore] = [last(directional.plusDi), last(directional.minusDi), previous(directional.plusDi), previous(directional.minusDi)];
  let adxAction: VoteAction = 'Neutral';
  if (adxNow !== null && plusNow !== null && minusNow !== null && plusBefore !== null && minusBefore !== null && beyond(adxNow, TRENDING_ADX, 1, OSCILLATOR_SCALE)) {
    const sideNow = compare(plusNow, minusNow, OSCILLATOR_SCALE);
    const sideBefore = compare(plusBefore, minusBefore, OSCILLATOR_SCALE);
    adxAction = vote(sideNow > 0 && sideBefore <= 0, sideNow < 0 && sideBefore >= 0);
  }
  votes.push(entry('Average Directional Index (14)', adxNow, adxAction));

  // Awesome Oscillator: Buy on a zero-line cross upwards or a bullish saucer above zero (dip then rise), Sell on the mirror image.
  const ao = awesomeSeries(c);
  const [aoNow, aoBefore] = [last(ao), previous(ao)];
  const aoTwoBefore = ao.length < 3 ? null : (ao[ao.length - 3] ?? null);
  let aoAction: VoteAction = 'Neutral';
  if (aoNow !== null && aoBefore !== null) {
    const [signNow, signBefore] = [compare(aoNow, 0, priceScale), compare(aoBefore, 0, priceScale)];
    const saucer = (side: -1 | 1): boolean =>
      aoTwoBefore !== null && signNow === side && signBefore === side && compare(aoNow, aoBefore, priceScale) === side && compare(aoTwoBefore, aoBefore, priceScale) === side;
    aoAction = vote((signNow > 0 && signBefore < 0) || saucer(1), (signNow < 0 && signBefore > 0) || saucer(-1));
  }
  votes.push(entry('Awesome Oscillator', aoNow, aoAction));

  // Momentum(10): Buy when rising, Sell when falling.
  const momentumValues = changeSeries(c.close, 10);
  const momentumTurn = direction(momentumValues, priceScale);
  votes.push(entry('Momentum (10)', last(momentumValues), vote(momentumTurn > 0, momentumTurn < 0)));

  // MACD(12,26,9): Buy when the MACD level is above its signal line, Sell when below.
  const macdValues = macdSeries(c.close, 12, 26, 9);
  const [macdNow, signalNow] = [last(macdValues.line), last(macdValues.signal)];
  const macdSide = macdNow === null || signalNow === null ? 0 : compare(macdNow, signalNow, priceScale);
  votes.push(entry('MACD Level (12, 26)', macdNow, vote(macdSide > 0, macdSide < 0)));

  // Stochastic RSI(3,3,14,14): Buy in a downtrend when %K and %D are below 20 and %K is above %D, Sell in an uptrend when both above 80 and %K below %D.
  const stochRsiValues = stochRsiSeries(c.close, 3, 3, 14, 14);
  const stochRsiAction = crossVote(last(stochRsiValues.k), last(stochRsiValues.d), OVERSOLD_STOCHASTIC, OVERBOUGHT_STOCHASTIC);
  votes.push(
    entry('Stochastic RSI Fast (3, 3, 14, 14)', last(stochRsiValues.k), vote(stochRsiAction === 'Buy' && trend < 0, stochRsiAction === 'Sell' && trend > 0)),
  );

  // Williams %R(14): Buy when below −80 and rising, Sell when above −20 and falling.
  const williamsValues = williamsRSeries(c, 14);
  votes.push(entry('Williams Percent Range (14)', last(williamsValues), turningVote(williamsValues, OVERSOLD_WILLIAMS_R, OVERBOUGHT_WILLIAMS_R)));

  // Bull Bear Power(13): Buy in an uptrend when bear power is negative and rising, Sell in a downtrend when bull power is positive and falling.
  const elder = elderSeries(c, 13);
  const [bullNow, bearNow] = [last(elder.bull), last(elder.bear)];
  const bbpValue = bullNow === null || bearNow === null ? null : finiteOrNull(bullNow + bearNow);
  votes.push(
    entry(
      'Bull Bear Power',
      bbpValue,
      bullNow === null || bearNow === null
        ? 'Neutral'
        : vote(
            trend > 0 && compare(bearNow, 0, priceScale) < 0 && direction(elder.bear, priceScale) > 0,
            trend < 0 && compare(bullNow, 0, priceScale) > 0 && direction(elder.bull, priceScale) < 0,
          ),
    ),
  );

  // Ultimate Oscillator(7,14,28): Buy when above 70, Sell when below 30.
  const uo = last(ultimateSeries(c, 7, 14, 28));
  votes.push(
    entry('Ultimate Oscillator (7, 14, 28)', uo, uo === null ? 'Neutral' : vote(beyond(uo, BULLISH_ULTIMATE, 1, OSCILLATOR_SCALE), beyond(uo, BEARISH_ULTIMATE, -1, OSCILLATOR_SCALE))),
  );

  return votes;
}

/** Oversold and turning up → Buy; overbought and turning down → Sell (RSI, CCI, Williams %R). */
function turningVote(series: Series, oversold: number, overbought: number): VoteAction {
  const now = last(series);
  if (now === null) return 'Neutral';
  const turn = direction(series, OSCILLATOR_SCALE);
  return vote(beyond(now, oversold, -1, OSCILLATOR_SCALE) && turn > 0, beyond(now, overbought, 1, OSCILLATOR_SCALE) && turn < 0);
}

/** Stochastic-style vote: both lines oversold with %K above %D → Buy; both overbought with %K below %D → Sell. */
function crossVote(k: number | null, d: number | null, oversold: number, overbought: number): VoteAction {
  if (k === null || d === null) return 'Neutral';
  const side = compare(k, d, OSCILLATOR_SCALE);
  const below = (v: number): boolean => beyond(v, oversold, -1, OSCILLATOR_SCALE);
  const above = (v: number): boolean => beyond(v, overbought, 1, OSCILLATOR_SCALE);
  return vote(below(k) && below(d) && side > 0, above(k) && above(d) && side < 0);
}

// ---------------------------------------------------------------- summary

/**
 * The technical summary of `candles` (oldest first) as of the latest candle: the moving-average and
 * oscillator groups and both pooled. With fewer candles than an indicator needs (200 for the longest
 * averages) that indicator is listed with a null value, votes Neutral and does not count towards the
 * score; with no candles every group is Neutral with score 0.
 *
 * Cost grows with candles × window length (about 100 ms for 5 000 candles, a few ms for 300), so
 * pass the recent history rather than everything loaded. The exponential averages (and RSI, ADX,
 * MACD) depend on where their history starts, so a short history can read slightly differently
 * from a chart that loaded more; 300+ candles keep the 200-bar EMA meaningful.
 */
/** How many of the latest candles the pages' summaries read: enough for the 200-bar EMA, cheap on a phone. */
export const SUMMARY_CANDLES = 300;

export function technicalSummary(candles: readonly CandleRecord[]): TechnicalSummary {
  const c = columns(candles);
  const movingAverages = movingAverageVotes(c);
  const oscillators = oscillatorVotes(c);
  return {
    oscillators: summarizeVotes(oscillators),
    movingAverages: summarizeVotes(movingAverages),
    summary: summarizeVotes([...oscillators, ...movingAverages]),
  };
}
