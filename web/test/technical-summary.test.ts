import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { CandleRecord } from '@tradeport/contracts';
import {
  adx,
  awesomeOscillator,
  bullBearPower,
  cci,
  ema,
  hullMa,
  ichimokuBaseLine,
  macd,
  macdSignal,
  minusDi,
  momentum,
  plusDi,
  RATINGS,
  ratingForScore,
  rsi,
  sma,
  stochasticD,
  stochasticK,
  stochRsiD,
  stochRsiK,
  summarizeVotes,
  technicalSummary,
  ultimateOscillator,
  vwma,
  williamsR,
  wma,
  type GroupSummary,
  type IndicatorVote,
  type TechnicalSummary,
} from '../src/market/technical-summary';

// ---------------------------------------------------------------- fixtures and helpers

const OSCILLATOR_COUNT = 11;
const MOVING_AVERAGE_COUNT = 15;

function candle(high: number, low: number, close: number, volume = 1, open = close): CandleRecord {
  return { time: 0, open, high, low, close, volume };
}

/** Candles around closes, with a ±0.5 % range and a varying volume. */
function candlesFromCloses(closes: readonly number[]): CandleRecord[] {
  return closes.map((close, i) => ({ time: i * 60_000, open: close, high: close * 1.005, low: close * 0.995, close, volume: 1 + (i % 7) }));
}

/** 1, 2, …, n. */
function oneTo(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i + 1);
}

function assertNear(actual: number | null, expected: number, tolerance = 1e-9): void {
  assert.ok(actual !== null, `expected ${expected}, got null`);
  assert.ok(Math.abs(actual - expected) <= tolerance, `expected ${expected}, got ${actual}`);
}

/**
 * Five candles (high, low, close) small enough to compute every indicator by hand:
 *   #0 10 / 8 / 9   #1 12 / 9 / 11   #2 11 / 7 / 8   #3 13 / 10 / 12   #4 14 / 11 / 13
 */
const FIVE = [candle(10, 8, 9), candle(12, 9, 11), candle(11, 7, 8), candle(13, 10, 12), candle(14, 11, 13)];

/** StockCharts' RSI example closes (a common textbook series). */
const TEXTBOOK_CLOSES = [
  44.34, 44.09, 44.15, 43.61, 44.33, 44.83, 45.1, 45.42, 45.84, 46.08, 45.89, 46.03, 45.61, 46.28, 46.28, 46.0, 46.03, 46.41, 46.22, 45.64, 46.21, 46.25,
  45.71, 46.45, 45.78, 45.35, 44.03, 44.18, 44.22, 44.57, 43.42, 42.66, 43.13,
];

/** A strictly rising, accelerating series (1 % a bar) and its mirror image, a strictly falling one. */
const RISING = candlesFromCloses(Array.from({ length: 250 }, (_, i) => 100 * 1.01 ** i));
const FALLING = mirror(RISING, 3000);

/** The same market upside down: every price p becomes k − p (highs and lows swap roles). */
function mirror(candles: readonly CandleRecord[], k: number): CandleRecord[] {
  return candles.map((c) => ({ ...c, open: k - c.open, high: k - c.low, low: k - c.high, close: k - c.close }));
}

function scale(candles: readonly CandleRecord[], factor: number): CandleRecord[] {
  return candles.map((c) => ({ ...c, open: c.open * factor, high: c.high * factor, low: c.low * factor, close: c.close * factor }));
}

function actionsOf(result: TechnicalSummary): string[] {
  return [...result.oscillators.indicators, ...result.movingAverages.indicators].map((v) => `${v.name}: ${v.action}`);
}

function voteOf(group: GroupSummary, name: string): IndicatorVote {
  const found = group.indicators.find((v) => v.name === name);
  assert.ok(found, `no indicator named ${name}`);
  return found;
}

/** Every number anywhere in `value`. */
function numbersIn(value: unknown): number[] {
  if (typeof value === 'number') return [value];
  if (Array.isArray(value)) return value.flatMap(numbersIn);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(numbersIn);
  return [];
}

/**
 * Random but well-formed markets: integer prices (think cents) following a random walk with a
 * drift, flat stretches and zero-width candles mixed in, up to 260 candles so that even the
 * 200-bar averages take part.
 */
const marketArb = fc
  .record({
    start: fc.integer({ min: 5_000, max: 50_000 }),
    drift: fc.integer({ min: -15, max: 15 }),
    bars: fc.array(
      fc.record({
        move: fc.oneof(fc.constant(0), fc.integer({ min: -80, max: 80 })),
        wickUp: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 60 })),
        wickDown: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 60 })),
        volume: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 1_000 })),
      }),
      { maxLength: 260, size: 'max' },
    ),
  })
  .map(({ start, drift, bars }) => {
    let previousClose = start;
    return bars.map((bar, i): CandleRecord => {
      const open = previousClose;
      const close = Math.max(100, open + bar.move + drift);
      previousClose = close;
      return {
        time: i * 60_000,
        open,
        high: Math.max(open, close) + bar.wickUp,
        low: Math.max(1, Math.min(open, close) - bar.wickDown),
        close,
        volume: bar.volume,
      };
    });
  });

/** Anything a broken feed could send: NaN, ±Infinity, negative and enormous numbers, high < low. */
const anyNumber = fc.oneof(fc.double(), fc.constantFrom(Number.NaN, Infinity, -Infinity, 0, -1, 1e308, -1e308, Number.MIN_VALUE));
const brokenMarketArb = fc.array(
  fc.record({ time: anyNumber, open: anyNumber, high: anyNumber, low: anyNumber, close: anyNumber, volume: anyNumber }),
  { maxLength: 240, size: 'max' },
);

function checkGroup(group: GroupSummary, expectedCount: number): void {
  assert.equal(group.indicators.length, expectedCount);
  assert.equal(group.buy + group.sell + group.neutral, expectedCount);
  assert.equal(group.buy, group.indicators.filter((v) => v.action === 'Buy').length);
  assert.equal(group.sell, group.indicators.filter((v) => v.action === 'Sell').length);
  assert.ok(group.score >= -1 && group.score <= 1, `score ${group.score}`);
  assert.equal(group.rating, ratingForScore(group.score));
  const counted = group.indicators.filter((v) => v.value !== null).length;
  assert.equal(group.score, counted === 0 ? 0 : (group.buy - group.sell) / counted);
  for (const v of group.indicators) if (v.value === null) assert.equal(v.action, 'Neutral', `${v.name} votes without a value`);
}

// ---------------------------------------------------------------- moving averages

describe('moving average helpers', () => {
  it('SMA of 1..30 is the mean of the last n values and null when there are fewer than n', () => {
    assert.equal(sma(oneTo(30), 10), 25.5); // (21 + … + 30) / 10
    assert.equal(sma(oneTo(30), 20), 20.5);
    assert.equal(sma(oneTo(30), 30), 15.5);
    assert.equal(sma(oneTo(30), 31), null);
    assert.equal(sma([], 10), null);
  });

  it('EMA of 1..30 lags a straight line by (n − 1) / 2 because its SMA seed already sits at that lag', () => {
    // Seed SMA(1..n) = (n + 1) / 2 = n − (n − 1)/2; each step e + 2/(n+1)·(t + 1 − e) keeps the lag.
    assert.equal(ema(oneTo(30), 10), 25.5);
    assert.equal(ema(oneTo(30), 20), 20.5);
    assert.equal(ema(oneTo(30), 30), 15.5);
    assert.equal(ema(oneTo(30), 31), null);
  });

  it('EMA smooths with alpha 2 / (n + 1) after an SMA seed', () => {
    // n = 3, alpha = 0.5: seed (2 + 4 + 6) / 3 = 4, then 4 + 0.5·(8 − 4) = 6, then 6 + 0.5·(12 − 6) = 9.
    assert.equal(ema([2, 4, 6, 8, 12], 3), 9);
  });

  it('WMA weighs the newest value most', () => {
    assertNear(wma([1, 2, 3, 4, 10], 3), (1 * 3 + 2 * 4 + 3 * 10) / 6);
  });

  it('Hull MA has no lag on a straight line and reacts to a jump more than the WMA', () => {
    assertNear(hullMa(oneTo(20), 9), 20);
    // n = 4: half 2, root 2. At #4: 2·WMA2 − WMA4 = 2·1 − 1 = 1; at #5: 2·(1 + 2·7)/3 − (1 + 2 + 3 + 4·7)/10 = 10 − 3.4 = 6.6;
    // WMA2 of (1, 6.6) = (1 + 2·6.6) / 3.
    assertNear(hullMa([1, 1, 1, 1, 1, 7], 4), 14.2 / 3);
    assert.equal(hullMa(oneTo(10), 9), null); // needs 9 + 3 − 1 = 11 values
  });

  it('VWMA weights closes by volume and is null when no volume traded', () => {
    const bars = [candle(10, 10, 10, 1), candle(20, 20, 20, 1), candle(30, 30, 30, 2)];
    assert.equal(vwma(bars, 3), (10 + 20 + 2 * 30) / 4);
    assert.equal(vwma(bars.map((c) => ({ ...c, volume: 0 })), 3), null);
  });

  it('Ichimoku base line is the midpoint of the highest high and lowest low of the window', () => {
    assert.equal(ichimokuBaseLine(FIVE, 3), (14 + 7) / 2);
    assert.equal(ichimokuBaseLine(FIVE, 5), (14 + 7) / 2);
    assert.equal(ichimokuBaseLine(FIVE), null); // default 26 bars
  });

  it('invalid lengths give null instead of throwing', () => {
    for (const bars of [0, -3, 2.5, Number.NaN, Infinity]) {
      assert.equal(sma(oneTo(30), bars), null);
      assert.equal(ema(oneTo(30), bars), null);
      assert.equal(wma(oneTo(30), bars), null);
      assert.equal(hullMa(oneTo(30), bars), null);
      assert.equal(rsi(oneTo(30), bars), null);
      assert.equal(momentum(oneTo(30), bars), null);
    }
  });
});

// ---------------------------------------------------------------- oscillators

describe('oscillator helpers', () => {
  it("RSI follows Wilder's smoothing on the textbook series (to 2 decimals)", () => {
    // First 14 changes: gains 0.06 + 0.72 + 0.50 + 0.27 + 0.32 + 0.42 + 0.24 + 0.14 + 0.67 = 3.34, losses
    // 0.25 + 0.54 + 0.19 + 0.42 = 1.40, so RSI = 100 · 3.34 / 4.74 = 70.46.
    assertNear(rsi(TEXTBOOK_CLOSES.slice(0, 15)), 70.46, 0.005);
    // Next change −0.28: gain (3.34/14 · 13 + 0) / 14 = 0.22153, loss (1.40/14 · 13 + 0.28) / 14 = 0.11286 → 66.25.
    assertNear(rsi(TEXTBOOK_CLOSES.slice(0, 16)), 66.25, 0.005);
    // The end of the series, where the seed no longer matters, as published with the example: 33.09 then 37.79.
    assertNear(rsi(TEXTBOOK_CLOSES.slice(0, -1)), 33.09, 0.005);
    assertNear(rsi(TEXTBOOK_CLOSES), 37.79, 0.005);
    assert.equal(rsi(TEXTBOOK_CLOSES.slice(0, 14)), null); // 14 closes give only 13 changes
  });

  it('RSI of a flat series is 50 (documented: no side dominates), 100 with only gains and 0 with only losses', () => {
    assert.equal(rsi(Array<number>(30).fill(42)), 50);
    assert.equal(rsi(oneTo(30)), 100);
    assert.equal(rsi(oneTo(30).reverse()), 0);
  });

  it('Stochastic %K and %D place the close in the high-low range, then smooth by SMA', () => {
    // Raw %K over 3 bars: #2 100·(8 − 7)/(12 − 7) = 20, #3 100·(12 − 7)/(13 − 7) = 83.33, #4 100·(13 − 7)/(14 − 7) = 85.71.
    assertNear(stochasticK(FIVE, 3, 1), 600 / 7);
    assertNear(stochasticK(FIVE, 3, 3), (20 + 500 / 6 + 600 / 7) / 3);
    assertNear(stochasticD(FIVE, 3, 1, 2), (500 / 6 + 600 / 7) / 2);
    assert.equal(stochasticK(FIVE), null);
  });

  it('Stochastic is null over a window with no range (flat market)', () => {
    assert.equal(stochasticK(Array.from({ length: 20 }, () => candle(5, 5, 5))), null);
  });

  it('Williams %R is the distance of the close below the highest high, −100 to 0', () => {
    assertNear(williamsR(FIVE, 3), (-100 * (14 - 13)) / (14 - 7));
    assert.equal(williamsR(FIVE), null);
  });

  it('CCI uses the typical price and the mean deviation with the 0.015 constant', () => {
    // Typical prices 26/3, 35/3, 38/3: mean 11, mean deviation (7/3 + 2/3 + 5/3) / 3 = 14/9,
    // CCI = (38/3 − 11) / (0.015 · 14/9) = 500/7.
    assertNear(cci(FIVE, 3), 500 / 7);
    assert.equal(cci(Array.from({ length: 25 }, () => candle(5, 5, 5))), 0); // no deviation: at its average
    assert.equal(cci(FIVE), null);
  });

  it("ADX, +DI and −DI follow Wilder's directional movement", () => {
    // +DM 2, 0, 2, 1; −DM 0, 2, 0, 0; TR 3, 4, 5, 3. Wilder (n = 2) seeded with the first two:
    // ATR 3.5 → 4.25 → 3.625, +DM 1 → 1.5 → 1.25, −DM 1 → 0.5 → 0.25.
    assertNear(plusDi(FIVE, 2), (100 * 1.25) / 3.625);
    assertNear(minusDi(FIVE, 2), (100 * 0.25) / 3.625);
    // DX 0, 50, 66.67; ADX seeded with (0 + 50)/2 = 25, then 25 + (66.67 − 25)/2 = 45.83.
    assertNear(adx(FIVE, 2), 275 / 6);
    assert.equal(adx(FIVE), null);
  });

  it('Awesome Oscillator is SMA(5) − SMA(34) of the median price', () => {
    // Median price t (t = 1..40): SMA5 = 40 − 2, SMA34 = 40 − 16.5.
    const line = oneTo(40).map((t) => candle(t + 1, t - 1, t));
    assertNear(awesomeOscillator(line), 14.5);
    // Medians 9, 10.5, 9, 11.5, 12.5: SMA2 = 12, SMA3 = 11.
    assertNear(awesomeOscillator(FIVE, 2, 3), 1);
    assert.equal(awesomeOscillator(line.slice(0, 33)), null);
  });

  it('Momentum is the change over n bars', () => {
    assert.equal(momentum(oneTo(30)), 10);
    assert.equal(momentum([1, 4, 9, 16], 2), 12);
    assert.equal(momentum(oneTo(10)), null);
  });

  it('MACD level and signal on a straight line are the constant gap between the EMAs', () => {
    // EMA12 lags by 5.5, EMA26 by 12.5 (see the EMA test), so MACD = 7 and so is its signal.
    assertNear(macd(oneTo(40)), 7);
    assertNear(macdSignal(oneTo(40)), 7);
    assert.equal(macdSignal(oneTo(33)), null); // needs 26 + 9 − 1 = 34 closes
  });

  it('MACD with short lengths matches a hand computation', () => {
    // EMA2: 3, 5, 7, 31/3; EMA3: 4, 6, 9 → MACD 1, 1, 4/3; signal EMA2: seed 1, then 1 + 2/3·(4/3 − 1) = 11/9.
    assertNear(macd([2, 4, 6, 8, 12], 2, 3), 4 / 3);
    assertNear(macdSignal([2, 4, 6, 8, 12], 2, 3, 2), 11 / 9);
  });

  it('Stochastic RSI is the stochastic of the RSI values', () => {
    // RSI(1) of 1, 2, 1, 1, 3 is 100 (up), 0 (down), 50 (flat), 100 (up); over 3 bars: #3 50, #4 100.
    const closes = [1, 2, 1, 1, 3];
    assertNear(stochRsiK(closes, 1, 1, 3), 100);
    assertNear(stochRsiK(closes, 2, 1, 3), 75);
    assertNear(stochRsiD(closes, 1, 2, 1, 3), 75);
    assert.equal(stochRsiK(oneTo(40)), null); // RSI stuck at 100: no range to place it in
  });

  it('Bull Bear Power is high + low − 2·EMA(close)', () => {
    // EMA3 of 9, 11, 8, 12, 13: 28/3, 32/3, 71/6 → 14 + 11 − 71/3.
    assertNear(bullBearPower(FIVE, 3), 4 / 3);
  });

  it('Ultimate Oscillator averages buying pressure over true range at three lengths, weighted 4:2:1', () => {
    // BP 2, 1, 4, 2 and TR 3, 4, 5, 3: averages 2/3, 6/8, 7/12 → 100 · (8/3 + 3/2 + 7/12) / 7.
    assertNear(ultimateOscillator(FIVE, 1, 2, 3), (100 * 57) / 84);
    assert.equal(ultimateOscillator(FIVE), null);
  });
});

// ---------------------------------------------------------------- ratings

describe('ratings', () => {
  it('RATINGS lists the five labels from most bearish to most bullish', () => {
    assert.deepEqual(RATINGS, ['Strong Sell', 'Sell', 'Neutral', 'Buy', 'Strong Buy']);
  });

  it('rating thresholds: ≤ −0.5 Strong Sell, < −0.1 Sell, ≤ 0.1 Neutral, < 0.5 Buy, else Strong Buy', () => {
    const cases: [number, string][] = [
      [-1, 'Strong Sell'],
      [-0.5, 'Strong Sell'],
      [-0.4999, 'Sell'],
      [-0.1001, 'Sell'],
      [-0.1, 'Neutral'],
      [0, 'Neutral'],
      [0.1, 'Neutral'],
      [0.1001, 'Buy'],
      [0.4999, 'Buy'],
      [0.5, 'Strong Buy'],
      [1, 'Strong Buy'],
      [Number.NaN, 'Neutral'],
    ];
    for (const [score, rating] of cases) assert.equal(ratingForScore(score), rating, `score ${score}`);
  });

  it('scores that land exactly on a boundary through the vote arithmetic get the boundary rating', () => {
    const votes = (buy: number, sell: number, neutral: number): IndicatorVote[] => [
      ...Array.from({ length: buy }, () => ({ name: 'b', value: 1, action: 'Buy' as const })),
      ...Array.from({ length: sell }, () => ({ name: 's', value: 1, action: 'Sell' as const })),
      ...Array.from({ length: neutral }, () => ({ name: 'n', value: 1, action: 'Neutral' as const })),
    ];
    assert.equal(summarizeVotes(votes(1, 0, 9)).rating, 'Neutral'); // 0.1
    assert.equal(summarizeVotes(votes(0, 1, 9)).rating, 'Neutral'); // −0.1
    assert.equal(summarizeVotes(votes(1, 0, 1)).rating, 'Strong Buy'); // 0.5
    assert.equal(summarizeVotes(votes(0, 1, 1)).rating, 'Strong Sell'); // −0.5
    assert.equal(summarizeVotes(votes(2, 0, 8)).rating, 'Buy'); // 0.2
  });

  it('indicators without a value are listed as Neutral but do not dilute the score', () => {
    const group = summarizeVotes([
      { name: 'a', value: 1, action: 'Buy' },
      { name: 'b', value: 2, action: 'Neutral' },
      { name: 'c', value: null, action: 'Neutral' },
      { name: 'd', value: null, action: 'Neutral' },
    ]);
    assert.deepEqual([group.buy, group.sell, group.neutral], [1, 0, 3]);
    assert.equal(group.score, 0.5);
    assert.equal(group.rating, 'Strong Buy');
    assert.deepEqual(summarizeVotes([]), { buy: 0, sell: 0, neutral: 0, rating: 'Neutral', score: 0, indicators: [] });
  });
});

// ---------------------------------------------------------------- summary

describe('technicalSummary', () => {
  it('with no candles everything is Neutral, score 0 and every value null', () => {
    const result = technicalSummary([]);
    for (const [group, count] of [
      [result.oscillators, OSCILLATOR_COUNT],
      [result.movingAverages, MOVING_AVERAGE_COUNT],
      [result.summary, OSCILLATOR_COUNT + MOVING_AVERAGE_COUNT],
    ] as const) {
      assert.deepEqual([group.buy, group.sell, group.neutral, group.score, group.rating], [0, 0, count, 0, 'Neutral']);
      for (const v of group.indicators) assert.deepEqual([v.value, v.action], [null, 'Neutral']);
    }
  });

  it('lists the TradingView set of indicators: 15 moving averages and 11 oscillators', () => {
    const result = technicalSummary(RISING);
    assert.deepEqual(
      result.movingAverages.indicators.map((v) => v.name),
      [
        ...[10, 20, 30, 50, 100, 200].flatMap((n) => [`Exponential Moving Average (${n})`, `Simple Moving Average (${n})`]),
        'Ichimoku Base Line (26)',
        'Volume Weighted Moving Average (20)',
        'Hull Moving Average (9)',
      ],
    );
    assert.deepEqual(
      result.oscillators.indicators.map((v) => v.name),
      [
        'Relative Strength Index (14)',
        'Stochastic %K (14, 3, 3)',
        'Commodity Channel Index (20)',
        'Average Directional Index (14)',
        'Awesome Oscillator',
        'Momentum (10)',
        'MACD Level (12, 26)',
        'Stochastic RSI Fast (3, 3, 14, 14)',
        'Williams Percent Range (14)',
        'Bull Bear Power',
        'Ultimate Oscillator (7, 14, 28)',
      ],
    );
  });

  it('a strictly rising series votes Buy on every moving average (Strong Buy)', () => {
    const { movingAverages } = technicalSummary(RISING);
    for (const v of movingAverages.indicators) assert.equal(v.action, 'Buy', v.name);
    assert.deepEqual([movingAverages.buy, movingAverages.score, movingAverages.rating], [MOVING_AVERAGE_COUNT, 1, 'Strong Buy']);
  });

  it('a strictly falling series votes Sell on every moving average (Strong Sell)', () => {
    const { movingAverages } = technicalSummary(FALLING);
    for (const v of movingAverages.indicators) assert.equal(v.action, 'Sell', v.name);
    assert.deepEqual([movingAverages.sell, movingAverages.score, movingAverages.rating], [MOVING_AVERAGE_COUNT, -1, 'Strong Sell']);
  });

  it('the Hull MA votes Neutral on a straight line, which it tracks without lag', () => {
    const line = candlesFromCloses(oneTo(60).map((t) => 100 + t));
    assert.equal(voteOf(technicalSummary(line).movingAverages, 'Hull Moving Average (9)').action, 'Neutral');
  });

  it('a flat market votes Neutral everywhere and reads RSI 50', () => {
    const flat = Array.from({ length: 250 }, (_, i) => ({ ...candle(100, 100, 100, 5), time: i }));
    const result = technicalSummary(flat);
    for (const v of result.summary.indicators) assert.equal(v.action, 'Neutral', v.name);
    assert.equal(voteOf(result.oscillators, 'Relative Strength Index (14)').value, 50);
    assert.equal(result.summary.rating, 'Neutral');
  });

  it('RSI votes Buy when oversold and turning up, Sell when overbought and turning down', () => {
    // Thirty falling bars drive RSI to 0; a small rise lifts it a little but keeps it below 30.
    const closes = [...Array.from({ length: 30 }, (_, i) => 200 * 0.99 ** i)];
    closes.push((closes.at(-1) ?? 0) * 1.002);
    const oversold = technicalSummary(candlesFromCloses(closes));
    const reading = voteOf(oversold.oscillators, 'Relative Strength Index (14)');
    assert.ok(reading.value !== null && reading.value > 0 && reading.value < 30);
    assert.equal(reading.action, 'Buy');
    assert.equal(voteOf(technicalSummary(mirror(candlesFromCloses(closes), 500)).oscillators, 'Relative Strength Index (14)').action, 'Sell');
  });

  it('with too few candles only the computable averages vote, and they alone set the score', () => {
    const { movingAverages } = technicalSummary(RISING.slice(0, 11));
    const voting = movingAverages.indicators.filter((v) => v.value !== null).map((v) => v.name);
    assert.deepEqual(voting, ['Exponential Moving Average (10)', 'Simple Moving Average (10)', 'Hull Moving Average (9)']);
    assert.deepEqual([movingAverages.buy, movingAverages.neutral, movingAverages.score, movingAverages.rating], [3, 12, 1, 'Strong Buy']);
  });

  it('the summary pools both groups’ votes', () => {
    const result = technicalSummary(RISING);
    assert.equal(result.summary.buy, result.oscillators.buy + result.movingAverages.buy);
    assert.equal(result.summary.sell, result.oscillators.sell + result.movingAverages.sell);
    assert.deepEqual(result.summary.indicators, [...result.oscillators.indicators, ...result.movingAverages.indicators]);
  });
});

// ---------------------------------------------------------------- properties

describe('technicalSummary properties', () => {
  it('any market gives finite numbers, counts that add up, a score in [−1, 1] and the rating of that score', () => {
    fc.assert(
      fc.property(marketArb, (candles) => {
        const result = technicalSummary(candles);
        for (const n of numbersIn(result)) assert.ok(Number.isFinite(n), `non-finite ${n}`);
        checkGroup(result.oscillators, OSCILLATOR_COUNT);
        checkGroup(result.movingAverages, MOVING_AVERAGE_COUNT);
        checkGroup(result.summary, OSCILLATOR_COUNT + MOVING_AVERAGE_COUNT);
      }),
    );
  });

  it('garbage input (NaN, ±Infinity, huge, negative, high below low) never throws and never yields NaN or Infinity', () => {
    fc.assert(
      fc.property(brokenMarketArb, (candles) => {
        const result = technicalSummary(candles);
        for (const n of numbersIn(result)) assert.ok(Number.isFinite(n), `non-finite ${n}`);
        checkGroup(result.summary, OSCILLATOR_COUNT + MOVING_AVERAGE_COUNT);
      }),
    );
  });

  it('scaling every price by a positive constant changes no vote', () => {
    const factorArb = fc.oneof(fc.constantFrom(0.01, 0.1, 3, 7.5, 1000), fc.double({ min: 1e-3, max: 1e3, noNaN: true }));
    fc.assert(
      fc.property(marketArb, factorArb, (candles, factor) => {
        assert.deepEqual(actionsOf(technicalSummary(scale(candles, factor))), actionsOf(technicalSummary(candles)));
      }),
    );
  });

  it('mirroring the market (every price p becomes k − p) swaps every Buy and Sell', () => {
    const swap = (line: string): string => line.replace(/: Buy$/, ': S').replace(/: Sell$/, ': Buy').replace(/: S$/, ': Sell');
    fc.assert(
      fc.property(marketArb, (candles) => {
        const k = 2 * Math.max(1, ...candles.map((c) => c.high));
        assert.deepEqual(actionsOf(technicalSummary(mirror(candles, k))), actionsOf(technicalSummary(candles)).map(swap));
      }),
    );
  });

  it('every vote agrees with its indicator value and the documented levels', () => {
    const levels: Record<string, { buy: (v: number) => boolean; sell: (v: number) => boolean }> = {
      'Relative Strength Index (14)': { buy: (v) => v < 30, sell: (v) => v > 70 },
      'Stochastic %K (14, 3, 3)': { buy: (v) => v < 20, sell: (v) => v > 80 },
      'Commodity Channel Index (20)': { buy: (v) => v < -100, sell: (v) => v > 100 },
      'Average Directional Index (14)': { buy: (v) => v > 20, sell: (v) => v > 20 },
      'Stochastic RSI Fast (3, 3, 14, 14)': { buy: (v) => v < 20, sell: (v) => v > 80 },
      'Williams Percent Range (14)': { buy: (v) => v < -80, sell: (v) => v > -20 },
      'Ultimate Oscillator (7, 14, 28)': { buy: (v) => v > 70, sell: (v) => v < 30 },
    };
    fc.assert(
      fc.property(marketArb, (candles) => {
        const result = technicalSummary(candles);
        const close = candles.at(-1)?.close;
        for (const v of result.movingAverages.indicators) {
          if (v.action === 'Buy') assert.ok(v.value !== null && close !== undefined && v.value < close, v.name);
          if (v.action === 'Sell') assert.ok(v.value !== null && close !== undefined && v.value > close, v.name);
        }
        for (const v of result.oscillators.indicators) {
          const level = levels[v.name];
          if (level === undefined || v.action === 'Neutral') continue;
          assert.ok(v.value !== null && (v.action === 'Buy' ? level.buy(v.value) : level.sell(v.value)), `${v.name} ${v.action} at ${v.value}`);
        }
      }),
    );
  });
});
