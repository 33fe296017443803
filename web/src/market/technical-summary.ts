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
 * How the library's indicators are fed and read, and where their definitions differ from
 * TradingView's, is in `technical-indicators.ts`.
 */
import type { CandleRecord } from '@tradeport/contracts';
import { AO, ElderRay, HMA, IchimokuCloud, MOM, SMA, UltimateOscillator, VWMA } from 'trading-signals';

// ---------------------------------------------------------------- public types

export { RATINGS, SUMMARY_CANDLES, type GroupSummary, type IndicatorVote, type Rating, type TechnicalSummary, type VoteAction } from './technical-summary-types';
import type { GroupSummary, IndicatorVote, Rating, TechnicalSummary, VoteAction } from './technical-summary-types';
import { cci, columns, compare, directional, ema, feed, last, macd, OSCILLATOR_SCALE, rsi, run, stochastic, williamsR, type Bar, type Columns, type Series } from './technical-indicators';

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
