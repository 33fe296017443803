import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { CandleRecord } from '@tradeport/contracts';
import {
  RATINGS,
  ratingForScore,
  summarizeVotes,
  technicalSummary,
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

// ---------------------------------------------------------------- the library's indicators, read with our lengths

/** The value shown for `name` in the summary of `candles`. */
function valueOf(candles: readonly CandleRecord[], name: string): number | null {
  const { summary } = technicalSummary(candles);
  return voteOf(summary, name).value;
}

describe('indicator values (the library, fed and read by us)', () => {
  it("RSI (14) follows Wilder's smoothing on the textbook series (to 2 decimals)", () => {
    const rsiOf = (closes: readonly number[]) => valueOf(candlesFromCloses(closes), 'Relative Strength Index (14)');
    // First 14 changes: gains 0.06 + 0.72 + 0.50 + 0.27 + 0.32 + 0.42 + 0.24 + 0.14 + 0.67 = 3.34, losses
    // 0.25 + 0.54 + 0.19 + 0.42 = 1.40, so RSI = 100 · 3.34 / 4.74 = 70.46.
    assertNear(rsiOf(TEXTBOOK_CLOSES.slice(0, 15)), 70.46, 0.005);
    // Next change −0.28: gain (3.34/14 · 13 + 0) / 14 = 0.22153, loss (1.40/14 · 13 + 0.28) / 14 = 0.11286 → 66.25.
    assertNear(rsiOf(TEXTBOOK_CLOSES.slice(0, 16)), 66.25, 0.005);
    // The end of the series, where the seed no longer matters, as published with the example: 33.09 then 37.79.
    assertNear(rsiOf(TEXTBOOK_CLOSES.slice(0, -1)), 33.09, 0.005);
    assertNear(rsiOf(TEXTBOOK_CLOSES), 37.79, 0.005);
    assert.equal(rsiOf(TEXTBOOK_CLOSES.slice(0, 14)), null); // 14 closes give only 13 changes
  });

  it('simple averages are the mean of the last n closes, and absent with fewer than n', () => {
    const line = candlesFromCloses(oneTo(30));
    assert.equal(valueOf(line, 'Simple Moving Average (10)'), 25.5); // (21 + … + 30) / 10
    assert.equal(valueOf(line, 'Simple Moving Average (20)'), 20.5);
    assert.equal(valueOf(line, 'Simple Moving Average (30)'), 15.5);
    assert.equal(valueOf(line, 'Simple Moving Average (50)'), null);
  });

  it("exponential averages start from the first close (TradingView's from an SMA) and smooth by 2 / (n + 1)", () => {
    // From e₁ = 1 on the line 1, 2, …, t the lag t − e obeys lagₜ = (1 − α)(1 + lagₜ₋₁): it grows from 0 towards
    // (n − 1) / 2 as (n − 1)/2 · (1 − (1 − α)^(t − 1)). An SMA seed would start it at (n − 1) / 2 at once.
    const line = candlesFromCloses(oneTo(30));
    for (const n of [10, 20, 30]) {
      const alpha = 2 / (n + 1);
      assertNear(valueOf(line, `Exponential Moving Average (${n})`), 30 - ((n - 1) / 2) * (1 - (1 - alpha) ** 29));
    }
    assert.equal(valueOf(line, 'Exponential Moving Average (50)'), null);
  });

  it('on a steady rise every indicator reads its textbook value', () => {
    // Close t, high t + 1, low t − 1 and volume t for t = 1 … 60; read at t = 60.
    const line = oneTo(60).map((t) => candle(t + 1, t - 1, t, t));
    const emaLag = (n: number) => ((n - 1) / 2) * (1 - (1 - 2 / (n + 1)) ** 59);
    const recent = oneTo(60).slice(-20);
    const expected: [string, number | null][] = [
      ['Relative Strength Index (14)', 100], // gains only
      ['Stochastic %K (14, 3, 3)', (100 * 14) / 15], // close 60 in the range 46 … 61
      ['Commodity Channel Index (20)', 9.5 / (0.015 * 5)], // typical price 9.5 above its mean, mean deviation 5
      ['Average Directional Index (14)', 100], // no downward movement at all
      ['Awesome Oscillator', 14.5], // median price t: SMA5 = t − 2, SMA34 = t − 16.5
      ['Momentum (10)', 10],
      ['MACD Level (12, 26)', emaLag(26) - emaLag(12)],
      ['Stochastic RSI Fast (3, 3, 14, 14)', null], // RSI stuck at 100 has no range to be placed in
      ['Williams Percent Range (14)', -100 / 15],
      ['Bull Bear Power', 2 * emaLag(13)], // high + low − 2·EMA(13) = 2t − 2·(t − lag)
      ['Ultimate Oscillator (7, 14, 28)', 50], // buying pressure 1 of a true range 2 on every bar
      ['Ichimoku Base Line (26)', (61 + 34) / 2],
      ['Volume Weighted Moving Average (20)', recent.reduce((acc, t) => acc + t * t, 0) / recent.reduce((acc, t) => acc + t, 0)],
      ['Hull Moving Average (9)', 60], // no lag on a straight line
    ];
    const { summary } = technicalSummary(line);
    for (const [name, value] of expected) {
      if (value === null) assert.equal(voteOf(summary, name).value, null, name);
      else assertNear(voteOf(summary, name).value, value, 1e-9 * Math.max(1, Math.abs(value)));
    }
  });

  it('a candle with a non-finite price is a gap: the indicators start afresh after it', () => {
    const closes = oneTo(40);
    const candles = candlesFromCloses(closes).map((c, i) => (i === 24 ? { ...c, close: Number.NaN } : c));
    const { summary } = technicalSummary(candles);
    assert.equal(voteOf(summary, 'Simple Moving Average (10)').value, 35.5); // the 15 closes after the gap suffice
    assert.equal(voteOf(summary, 'Simple Moving Average (20)').value, null); // they do not suffice here
    assert.equal(technicalSummary(candles.slice(0, 30)).movingAverages.indicators.filter((v) => v.value !== null).length, 0);
  });

  it('an outside bar whose up and down moves are equal counts for neither side of ADX, in any unit (as in TradingView)', () => {
    // Rises (high and low up by 1) alternate with outside bars whose high rises and low falls by as much.
    // The outside bars' moves tie, so there is no downward movement at all: −DI 0, DX and ADX 100. Counted
    // for both sides (or for one once rounding told them apart, as the library's comparison does), they would
    // give −DI a value and the same market another ADX in another unit.
    const bars: CandleRecord[] = [candle(101, 99, 100)];
    for (let i = 1; i < 60; i++) {
      const { high, low } = bars[i - 1]!;
      const move = i % 2 === 1 ? [1, 1] : [1 + (i % 5), -(1 + (i % 5))];
      bars.push(candle(high + move[0]!, low + move[1]!, (high + low) / 2 + move[0]!));
    }
    for (const factor of [1, 0.1, 1 / 3, 7.3, Math.PI, 1234.5678]) {
      assertNear(valueOf(scale(bars, factor), 'Average Directional Index (14)'), 100, 1e-7);
    }
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

  it('a flat market votes Neutral everywhere, reads RSI 50 and CCI 0, and places no close in a range', () => {
    const flat = Array.from({ length: 250 }, (_, i) => ({ ...candle(100, 100, 100, 5), time: i }));
    const result = technicalSummary(flat);
    for (const v of result.summary.indicators) assert.equal(v.action, 'Neutral', v.name);
    assert.equal(voteOf(result.oscillators, 'Relative Strength Index (14)').value, 50);
    // A window without range has no position in it (the library would read 0 and −100), and a price
    // at its average has a CCI of 0 (the library divides by a zero deviation).
    assert.equal(voteOf(result.oscillators, 'Stochastic %K (14, 3, 3)').value, null);
    assert.equal(voteOf(result.oscillators, 'Williams Percent Range (14)').value, null);
    assert.equal(voteOf(result.oscillators, 'Stochastic RSI Fast (3, 3, 14, 14)').value, null);
    assert.equal(voteOf(result.oscillators, 'Commodity Channel Index (20)').value, 0);
    assert.equal(voteOf(result.oscillators, 'Average Directional Index (14)').value, 0); // no range, no directional movement
    assert.equal(voteOf(result.oscillators, 'Ultimate Oscillator (7, 14, 28)').value, 50); // the library's reading, neither side
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
