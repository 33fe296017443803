import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { aggregate, applyTick, bucketStart, nextBucketStart, PERIODS, type Candle, type Period } from '../src/domain/candles';
import { roundPrice, type Instrument } from '../src/domain/instruments';
import { spreadPoints, walk } from '../src/domain/price-walk';
import { seededRandom } from '../src/domain/random';
import { isOpenAt, minuteOfWeek, MINUTES_PER_WEEK, parseSchedule, parseWindow } from '../src/domain/trading-sessions';
import { QuoteBook } from '../src/market/quote-book';
import type { BookQuote } from '../src/market/types';

// Pure market-data domain: trading sessions, candle bucketing and aggregation, the simulator's
// random source and price rounding. Every time here is UTC; 2026-03-01 is a Sunday.

const at = (iso: string) => Date.parse(iso.endsWith('Z') ? iso : `${iso}Z`);
const DAY = 1440;

describe('trading sessions: parsing', () => {
  test('"always" is the whole week', () => {
    assert.deepEqual(parseWindow('always'), [{ zone: 'UTC', start: 0, end: MINUTES_PER_WEEK }]);
    assert.deepEqual(parseWindow('  Always '), [{ zone: 'UTC', start: 0, end: MINUTES_PER_WEEK }]);
  });

  test('a window spanning days becomes one range in minutes since Sunday 00:00', () => {
    assert.deepEqual(parseWindow('Sun 22:00-Fri 22:00'), [{ zone: 'UTC', start: 22 * 60, end: 5 * DAY + 22 * 60 }]);
    // Spaces around the dash and lower-case day names are accepted.
    assert.deepEqual(parseWindow('mon 09:00 - wed 9:30'), [{ zone: 'UTC', start: DAY + 9 * 60, end: 3 * DAY + 9 * 60 + 30 }]);
  });

  test('a daily window repeats on each listed day', () => {
    assert.deepEqual(parseWindow('Mon-Fri 13:30-20:00'), [1, 2, 3, 4, 5].map((d) => ({ zone: 'UTC', start: d * DAY + 13 * 60 + 30, end: d * DAY + 20 * 60 })));
    assert.deepEqual(parseWindow('Mon-Mon 00:00-24:00'), [{ zone: 'UTC', start: DAY, end: 2 * DAY }]);
  });

  test('a window that ends before it starts wraps past the end of the week', () => {
    // Friday 22:00 to Sunday 22:00: the end lies in the next week.
    assert.deepEqual(parseWindow('Fri 22:00-Sun 22:00'), [{ zone: 'UTC', start: 5 * DAY + 22 * 60, end: MINUTES_PER_WEEK + 22 * 60 }]);
    // A daily window over the weekend wraps day by day: Sat, Sun, Mon.
    assert.deepEqual(parseWindow('Sat-Mon 10:00-12:00'), [6, 0, 1].map((d) => ({ zone: 'UTC', start: d * DAY + 600, end: d * DAY + 720 })));
  });

  test('a schedule is the union of its windows', () => {
    const s = parseSchedule(['Mon-Fri 08:00-12:00', 'Mon-Fri 13:00-17:00']);
    assert.equal(s.windows.length, 10);
    assert.ok(isOpenAt(s, at('2026-03-04T11:59')));
    assert.ok(!isOpenAt(s, at('2026-03-04T12:30')));
    assert.ok(isOpenAt(s, at('2026-03-04T13:00')));
  });

  test('invalid windows throw readable errors naming the problem', () => {
    const cases: [string, RegExp][] = [
      ['Xyz 10:00-Fri 10:00', /unknown day "Xyz"/],
      ['Mon-Fry 10:00-12:00', /unknown day "Fry"/],
      ['Mon 25:00-Fri 10:00', /"25:00" is not a time of day/],
      ['Mon 10:60-Fri 10:00', /"10:60" is not a time of day/],
      ['Mon 24:01-Fri 10:00', /"24:01" is not a time of day/],
      ['Mon-Fri 20:00-13:30', /must end after it starts/],
      ['Mon-Fri 13:30-13:30', /must end after it starts/],
      ['weekdays', /is not a session window/],
      ['', /is not a session window/],
      ['Mon 10-Fri 10', /is not a session window/],
    ];
    for (const [text, message] of cases) assert.throws(() => parseWindow(text), message, text);
    assert.throws(() => parseSchedule([]), /at least one window/);
    assert.throws(() => parseSchedule(['always', 'nonsense']), /"nonsense" is not a session window/);
  });
});

describe('trading sessions: open or closed', () => {
  const forex = parseSchedule(['Sun 22:00-Fri 22:00']);
  const stocks = parseSchedule(['Mon-Fri 13:30-20:00']);
  const always = parseSchedule(['always']);

  test('minute of the week counts from Sunday 00:00 UTC', () => {
    assert.equal(minuteOfWeek(at('2026-03-01T00:00')), 0);
    assert.equal(minuteOfWeek(at('2026-03-07T23:59:59.999')), MINUTES_PER_WEEK - 1);
    assert.equal(minuteOfWeek(at('2026-03-04T10:00')), 3 * DAY + 600);
  });

  test('Forex opens Sunday 22:00 and closes Friday 22:00 exactly', () => {
    assert.equal(isOpenAt(forex, at('2026-03-01T21:59:59.999')), false);
    assert.equal(isOpenAt(forex, at('2026-03-01T22:00')), true);
    assert.equal(isOpenAt(forex, at('2026-03-04T03:00')), true);
    assert.equal(isOpenAt(forex, at('2026-03-06T21:59:59.999')), true);
    assert.equal(isOpenAt(forex, at('2026-03-06T22:00')), false);
    assert.equal(isOpenAt(forex, at('2026-03-07T12:00')), false);
    assert.equal(isOpenAt(forex, at('2026-03-08T00:00')), false);
    assert.equal(isOpenAt(forex, at('2026-03-08T22:00')), true);
  });

  test('US stocks trade Monday to Friday 13:30-20:00 only', () => {
    for (const day of ['02', '03', '04', '05', '06']) {
      assert.equal(isOpenAt(stocks, at(`2026-03-${day}T13:29:59.999`)), false, day);
      assert.equal(isOpenAt(stocks, at(`2026-03-${day}T13:30`)), true, day);
      assert.equal(isOpenAt(stocks, at(`2026-03-${day}T19:59:59.999`)), true, day);
      assert.equal(isOpenAt(stocks, at(`2026-03-${day}T20:00`)), false, day);
    }
    assert.equal(isOpenAt(stocks, at('2026-03-07T15:00')), false, 'Saturday');
    assert.equal(isOpenAt(stocks, at('2026-03-08T15:00')), false, 'Sunday');
  });

  test('"always" is open at every minute of the week', () => {
    for (let m = 0; m < MINUTES_PER_WEEK; m += 7) assert.ok(isOpenAt(always, at('2026-03-01T00:00') + m * 60_000));
    assert.ok(isOpenAt(always, at('2026-03-07T23:59:59.999')));
  });

  test('a window wrapping the week end is open on both sides of Sunday 00:00', () => {
    const weekend = parseSchedule(['Fri 22:00-Sun 22:00']);
    assert.equal(isOpenAt(weekend, at('2026-03-06T21:59')), false);
    assert.equal(isOpenAt(weekend, at('2026-03-06T22:00')), true);
    assert.equal(isOpenAt(weekend, at('2026-03-07T23:59:59')), true);
    assert.equal(isOpenAt(weekend, at('2026-03-08T00:00')), true);
    assert.equal(isOpenAt(weekend, at('2026-03-08T21:59:59.999')), true);
    assert.equal(isOpenAt(weekend, at('2026-03-08T22:00')), false);
    assert.equal(isOpenAt(weekend, at('2026-03-11T12:00')), false);
  });

  test('Forex and its complement partition the week', () => {
    const weekend = parseSchedule(['Fri 22:00-Sun 22:00']);
    fc.assert(
      fc.property(fc.integer({ min: at('2000-01-01'), max: at('2100-01-01') }), (t) => isOpenAt(forex, t) !== isOpenAt(weekend, t)),
      { numRuns: 2000 },
    );
  });
});

describe('candle buckets in UTC', () => {
  const cases: [Period, string, string, string][] = [
    // period, a time, its bucket start, the next bucket start
    ['M1', '2026-03-04T10:00:59.999', '2026-03-04T10:00', '2026-03-04T10:01'],
    ['M1', '2026-03-04T23:59:30', '2026-03-04T23:59', '2026-03-05T00:00'],
    ['M5', '2026-03-04T10:04:59.999', '2026-03-04T10:00', '2026-03-04T10:05'],
    ['M5', '2026-03-04T10:05', '2026-03-04T10:05', '2026-03-04T10:10'],
    ['M15', '2026-03-04T10:44:59', '2026-03-04T10:30', '2026-03-04T10:45'],
    ['M30', '2026-03-04T23:59:59.999', '2026-03-04T23:30', '2026-03-05T00:00'],
    ['H1', '2026-03-04T10:59:59.999', '2026-03-04T10:00', '2026-03-04T11:00'],
    ['H4', '2026-03-04T10:00', '2026-03-04T08:00', '2026-03-04T12:00'],
    ['H4', '2026-03-04T23:59:59.999', '2026-03-04T20:00', '2026-03-05T00:00'],
    ['D1', '2026-03-04T23:59:59.999', '2026-03-04T00:00', '2026-03-05T00:00'],
    ['D1', '2026-12-31T12:00', '2026-12-31T00:00', '2027-01-01T00:00'],
    // Weeks start Sunday 00:00 UTC.
    ['W1', '2026-03-04T10:00', '2026-03-01T00:00', '2026-03-08T00:00'],
    ['W1', '2026-03-07T23:59:59.999', '2026-03-01T00:00', '2026-03-08T00:00'],
    ['W1', '2026-03-08T00:00', '2026-03-08T00:00', '2026-03-15T00:00'],
    ['W1', '2026-03-01T21:59', '2026-03-01T00:00', '2026-03-08T00:00'],
    ['W1', '2026-01-01T00:00', '2025-12-28T00:00', '2026-01-04T00:00'],
    // Months start on their 1st, whatever their length.
    ['MN', '2026-01-31T23:59:59.999', '2026-01-01T00:00', '2026-02-01T00:00'],
    ['MN', '2026-02-28T23:59:59.999', '2026-02-01T00:00', '2026-03-01T00:00'],
    ['MN', '2024-02-29T23:59:59.999', '2024-02-01T00:00', '2024-03-01T00:00'],
    ['MN', '2026-04-30T12:00', '2026-04-01T00:00', '2026-05-01T00:00'],
    ['MN', '2026-12-31T23:59:59.999', '2026-12-01T00:00', '2027-01-01T00:00'],
    ['MN', '2027-01-01T00:00', '2027-01-01T00:00', '2027-02-01T00:00'],
  ];

  for (const [period, time, start, next] of cases) {
    test(`${period}: ${time} falls in the bucket starting ${start}`, () => {
      assert.equal(new Date(bucketStart(period, at(time))).toISOString(), new Date(at(start)).toISOString());
      assert.equal(new Date(nextBucketStart(period, at(start))).toISOString(), new Date(at(next)).toISOString());
    });
  }

  test('month buckets have the length of their month (leap years included)', () => {
    const days = (year: number, month: number) => (nextBucketStart('MN', Date.UTC(year, month, 1)) - Date.UTC(year, month, 1)) / 86_400_000;
    assert.deepEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map((m) => days(2026, m)), [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]);
    assert.equal(days(2024, 1), 29);
    assert.equal(days(2000, 1), 29);
    assert.equal(days(2100, 1), 28);
  });

  test('every time lies in exactly one bucket of every period', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PERIODS), fc.integer({ min: at('1990-01-01'), max: at('2100-01-01') }), (period, t) => {
        const start = bucketStart(period, t);
        const next = nextBucketStart(period, start);
        assert.ok(start <= t && t < next, `${period} ${new Date(t).toISOString()}`);
        assert.equal(bucketStart(period, start), start);
        assert.equal(bucketStart(period, next), next);
        assert.equal(bucketStart(period, next - 1), start);
        if (period === 'W1') assert.equal(new Date(start).getUTCDay(), 0);
        if (period === 'MN') assert.equal(new Date(start).getUTCDate(), 1);
      }),
      { numRuns: 3000 },
    );
  });
});

/** Folds ticks into candles of one period, collecting each closed candle and the last one. */
function build(ticks: readonly { time: number; price: number }[], period: Period): Candle[] {
  const out: Candle[] = [];
  let current: Candle | null = null;
  for (const tick of ticks) {
    const r = applyTick(current, period, tick.time, tick.price);
    if (r.closed) out.push(r.closed);
    current = r.current;
  }
  if (current) out.push(current);
  return out;
}

describe('applyTick', () => {
  const t0 = at('2026-03-04T10:00');

  test('the first tick opens a candle at its bucket start', () => {
    const r = applyTick(null, 'M1', t0 + 12_345, 1.1);
    assert.deepEqual(r, { current: { time: t0, open: 1.1, high: 1.1, low: 1.1, close: 1.1, volume: 1 }, closed: null, ignored: false });
  });

  test('a tick in the same bucket updates high, low, close and volume, never the open', () => {
    let c = applyTick(null, 'M1', t0 + 1000, 1.1).current;
    c = applyTick(c, 'M1', t0 + 2000, 1.105).current;
    const r = applyTick(c, 'M1', t0 + 59_999, 1.098);
    assert.equal(r.closed, null);
    assert.equal(r.ignored, false);
    assert.deepEqual(r.current, { time: t0, open: 1.1, high: 1.105, low: 1.098, close: 1.098, volume: 3 });
  });

  test('a tick in a new bucket closes the old candle and opens the next', () => {
    const first = applyTick(applyTick(null, 'M1', t0, 1.1).current, 'M1', t0 + 30_000, 1.2).current;
    const r = applyTick(first, 'M1', t0 + 60_000, 1.15);
    assert.deepEqual(r.closed, first);
    assert.deepEqual(r.current, { time: t0 + 60_000, open: 1.15, high: 1.15, low: 1.15, close: 1.15, volume: 1 });
    assert.equal(r.ignored, false);
  });

  test('a tick older than the current bucket is ignored and changes nothing', () => {
    const current = applyTick(null, 'M1', t0 + 120_000, 1.1).current;
    const r = applyTick(current, 'M1', t0 + 119_999, 9.9);
    assert.equal(r.ignored, true);
    assert.equal(r.closed, null);
    assert.deepEqual(r.current, current);
    assert.equal(r.current, current);
  });

  test('a gap of several buckets creates no empty candles', () => {
    const candles = build(
      [
        { time: t0 + 5_000, price: 1.1 },
        { time: t0 + 7 * 60_000 + 1, price: 1.2 },
        { time: t0 + 3 * 3600_000, price: 1.3 },
      ],
      'M1',
    );
    assert.deepEqual(candles.map((c) => new Date(c.time).toISOString()), ['2026-03-04T10:00:00.000Z', '2026-03-04T10:07:00.000Z', '2026-03-04T13:00:00.000Z']);
    // The candle after a gap opens at its own first price, not the previous close.
    assert.equal(candles[1]!.open, 1.2);
    assert.ok(candles.every((c) => c.volume === 1));
  });

  test('a weekend gap jumps straight from Friday to Sunday night in every period', () => {
    const fri = at('2026-03-06T21:59:30');
    const sun = at('2026-03-08T22:00:10');
    for (const period of PERIODS) {
      const candles = build([{ time: fri, price: 1 }, { time: sun, price: 2 }], period);
      const expected = bucketStart(period, fri) === bucketStart(period, sun) ? 1 : 2;
      assert.equal(candles.length, expected, period);
    }
    // The Sunday-night hours belong to the new week.
    assert.equal(build([{ time: fri, price: 1 }, { time: sun, price: 2 }], 'W1').length, 2);
  });
});

describe('aggregate', () => {
  const m = (iso: string, open: number, high: number, low: number, close: number, volume: number): Candle => ({ time: at(iso), open, high, low, close, volume });

  test('M1 into M5: first open, last close, extreme high and low, summed volume', () => {
    const m1 = [
      m('2026-03-04T10:00', 1.0, 1.2, 0.9, 1.1, 3),
      m('2026-03-04T10:01', 1.1, 1.5, 1.0, 1.4, 2),
      m('2026-03-04T10:04', 1.4, 1.4, 0.8, 0.85, 4),
      m('2026-03-04T10:05', 0.85, 0.9, 0.8, 0.88, 1),
      // gap: no candle at 10:10
      m('2026-03-04T10:17', 0.9, 0.95, 0.89, 0.9, 6),
    ];
    assert.deepEqual(aggregate(m1, 'M5'), [
      m('2026-03-04T10:00', 1.0, 1.5, 0.8, 0.85, 9),
      m('2026-03-04T10:05', 0.85, 0.9, 0.8, 0.88, 1),
      m('2026-03-04T10:15', 0.9, 0.95, 0.89, 0.9, 6),
    ]);
    assert.deepEqual(aggregate(m1, 'H1'), [m('2026-03-04T10:00', 1.0, 1.5, 0.8, 0.9, 16)]);
  });

  test('does not modify its input', () => {
    const m1 = [m('2026-03-04T10:00', 1, 2, 0.5, 1.5, 1), m('2026-03-04T10:01', 1.5, 3, 1, 2, 1)];
    const copy = structuredClone(m1);
    aggregate(m1, 'H1');
    assert.deepEqual(m1, copy);
  });

  test('days into W1 start on Sunday, and into MN on the 1st', () => {
    const days: Candle[] = [];
    // 2026-02-26 (Thu) … 2026-03-10 (Tue), one candle a day, price = day index.
    for (let i = 0; i < 13; i++) {
      const time = at('2026-02-26T00:00') + i * 86_400_000;
      days.push({ time, open: i, high: i + 0.5, low: i - 0.5, close: i + 0.25, volume: 10 });
    }
    const weeks = aggregate(days, 'W1');
    assert.deepEqual(weeks.map((w) => new Date(w.time).toISOString().slice(0, 10)), ['2026-02-22', '2026-03-01', '2026-03-08']);
    // Thu, Fri, Sat | Sun…Sat | Sun, Mon, Tue
    assert.deepEqual(weeks.map((w) => w.volume), [30, 70, 30]);
    assert.deepEqual(weeks[1], { time: at('2026-03-01'), open: 3, high: 9.5, low: 2.5, close: 9.25, volume: 70 });
    const months = aggregate(days, 'MN');
    assert.deepEqual(months.map((c) => new Date(c.time).toISOString().slice(0, 10)), ['2026-02-01', '2026-03-01']);
    assert.deepEqual(months[0], { time: at('2026-02-01'), open: 0, high: 2.5, low: -0.5, close: 2.25, volume: 30 });
    assert.deepEqual(months[1], { time: at('2026-03-01'), open: 3, high: 12.5, low: 2.5, close: 12.25, volume: 100 });
  });

  test('aggregating into the same period is the identity', () => {
    const h1 = [m('2026-03-04T10:00', 1, 2, 0.5, 1.5, 7), m('2026-03-04T13:00', 1.5, 3, 1, 2, 4)];
    assert.deepEqual(aggregate(h1, 'H1'), h1);
    assert.deepEqual(aggregate([], 'MN'), []);
  });
});

describe('candle properties', () => {
  const start = at('2026-02-20T00:00');
  /** Ticks with strictly increasing times over a few months, prices in a plausible range. */
  const ticks = fc
    .array(fc.record({ gap: fc.oneof(fc.integer({ min: 1, max: 90_000 }), fc.integer({ min: 1, max: 5 * 86_400_000 })), price: fc.double({ min: 0.5, max: 200, noNaN: true }) }), { minLength: 1, maxLength: 300 })
    .map((list) => {
      let time = start;
      return list.map(({ gap, price }) => ({ time: (time += gap), price }));
    });

  test('M1 candles aggregated to H1, D1, W1, MN equal candles built directly from the ticks', () => {
    fc.assert(
      fc.property(ticks, (list) => {
        const m1 = build(list, 'M1');
        for (const period of ['M5', 'H1', 'H4', 'D1', 'W1', 'MN'] as const) assert.deepEqual(aggregate(m1, period), build(list, period), period);
        // and through an intermediate period
        assert.deepEqual(aggregate(aggregate(m1, 'H1'), 'W1'), build(list, 'W1'));
      }),
      { numRuns: 300 },
    );
  });

  test('every candle has high >= max(open, close) >= min(open, close) >= low, and volumes add up to the ticks', () => {
    fc.assert(
      fc.property(ticks, (list) => {
        for (const period of PERIODS) {
          const candles = build(list, period);
          for (const c of candles) {
            assert.ok(c.high >= Math.max(c.open, c.close), `${period} high`);
            assert.ok(Math.max(c.open, c.close) >= Math.min(c.open, c.close));
            assert.ok(Math.min(c.open, c.close) >= c.low, `${period} low`);
            assert.equal(bucketStart(period, c.time), c.time);
          }
          assert.equal(candles.reduce((n, c) => n + c.volume, 0), list.length, period);
          for (let i = 1; i < candles.length; i++) assert.ok(candles[i]!.time > candles[i - 1]!.time, 'ascending, one per bucket');
        }
      }),
      { numRuns: 300 },
    );
  });

  test('out-of-order ticks never move candles backwards', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ time: fc.integer({ min: start, max: start + 3 * 86_400_000 }), price: fc.double({ min: 1, max: 2, noNaN: true }) }), { minLength: 1, maxLength: 200 }), (list) => {
        let current: Candle | null = null;
        let latest = -Infinity;
        for (const tick of list) {
          const r = applyTick(current, 'H1', tick.time, tick.price);
          assert.equal(r.ignored, bucketStart('H1', tick.time) < latest);
          current = r.current;
          latest = Math.max(latest, current.time);
          assert.equal(current.time, latest);
        }
      }),
    );
  });
});

describe('seeded random', () => {
  test('the same seed gives the same sequence; another seed a different one', () => {
    const a = seededRandom('tradeport');
    const b = seededRandom('tradeport');
    const c = seededRandom('tradeport2');
    const seqA = Array.from({ length: 1000 }, () => [a.next(), a.normal()]);
    const seqB = Array.from({ length: 1000 }, () => [b.next(), b.normal()]);
    const seqC = Array.from({ length: 1000 }, () => [c.next(), c.normal()]);
    assert.deepEqual(seqA, seqB);
    assert.notDeepEqual(seqA, seqC);
    // A fresh generator restarts the sequence: nothing is shared between instances.
    assert.equal(seededRandom('tradeport').next(), seqA[0]![0]);
    assert.ok(seededRandom('').next() >= 0);
  });

  test('uniform draws lie in [0, 1) and spread evenly', () => {
    const rng = seededRandom('uniform');
    const bins = new Array<number>(10).fill(0);
    let sum = 0;
    const n = 20_000;
    for (let i = 0; i < n; i++) {
      const u = rng.next();
      assert.ok(u >= 0 && u < 1);
      sum += u;
      bins[Math.floor(u * 10)]!++;
    }
    assert.ok(Math.abs(sum / n - 0.5) < 0.01, `mean ${sum / n}`);
    for (const count of bins) assert.ok(Math.abs(count - n / 10) < n / 10 * 0.1, `bin ${count}`);
  });

  test('normal draws have mean ≈ 0 and variance ≈ 1 over 10k draws', () => {
    for (const seed of ['a', 'b', 'sim:test']) {
      const rng = seededRandom(seed);
      const n = 10_000;
      const xs = Array.from({ length: n }, () => rng.normal());
      const mean = xs.reduce((s, x) => s + x, 0) / n;
      const variance = xs.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1);
      assert.ok(xs.every(Number.isFinite));
      assert.ok(Math.abs(mean) < 0.04, `${seed}: mean ${mean}`);
      assert.ok(Math.abs(variance - 1) < 0.06, `${seed}: variance ${variance}`);
      // Tails as a normal's: about 4.6% beyond 2 sigma, almost nothing beyond 5.
      const beyond2 = xs.filter((x) => Math.abs(x) > 2).length / n;
      assert.ok(beyond2 > 0.035 && beyond2 < 0.058, `${seed}: ${beyond2}`);
      assert.ok(xs.every((x) => Math.abs(x) < 6));
    }
  });
});

describe('price walk', () => {
  test('no volatility at the reference price stays put; the walk is reproducible', () => {
    assert.equal(walk(1.085, 1.085, 0, 60_000, seededRandom('x')), 1.085);
    const a = seededRandom('w');
    const b = seededRandom('w');
    let p = 100;
    let q = 100;
    for (let i = 0; i < 1000; i++) {
      p = walk(p, 100, 0.3, 1000, a);
      q = walk(q, 100, 0.3, 1000, b);
    }
    assert.equal(p, q);
    assert.ok(p > 0);
  });

  test('one-minute steps scale with volatility (annualised)', () => {
    const rng = seededRandom('vol');
    const n = 20_000;
    let sumSq = 0;
    for (let i = 0; i < n; i++) sumSq += Math.log(walk(100, 100, 0.5, 60_000, rng) / 100) ** 2;
    const expected = 0.5 * Math.sqrt(60_000 / (365.25 * 24 * 3600_000));
    const measured = Math.sqrt(sumSq / n);
    assert.ok(Math.abs(measured / expected - 1) < 0.05, `${measured} vs ${expected}`);
  });

  test('spreads stay near their typical size, at least one point', () => {
    const rng = seededRandom('spread');
    const seen = Array.from({ length: 5000 }, () => spreadPoints(10, rng));
    assert.ok(seen.every((s) => Number.isInteger(s) && s >= 8 && s <= 24), `${Math.min(...seen)}..${Math.max(...seen)}`);
    assert.ok(seen.filter((s) => s <= 12).length > 4500);
    assert.equal(spreadPoints(0, rng), 1);
  });
});

describe('roundPrice', () => {
  test('rounds half up at the last digit despite binary representation', () => {
    assert.equal(roundPrice(1.005, 2), 1.01);
    assert.equal(roundPrice(1.0849999, 5), 1.085);
    assert.equal(roundPrice(1.234565, 5), 1.23457);
    assert.equal(roundPrice(1.234564, 5), 1.23456);
    assert.equal(roundPrice(150.2345, 3), 150.235);
    assert.equal(roundPrice(65000.125, 2), 65000.13);
    assert.equal(roundPrice(189.995, 2), 190);
    assert.equal(roundPrice(2.5, 0), 3);
    assert.equal(roundPrice(0.000015, 5), 0.00002);
    assert.equal(roundPrice(1.1, 5), 1.1);
  });

  test('the result has at most the given digits, is within half a point, and rounding is idempotent', () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-4, max: 1e6, noNaN: true }), fc.integer({ min: 0, max: 6 }), (price, digits) => {
        const r = roundPrice(price, digits);
        const point = 10 ** -digits;
        assert.ok(Math.abs(r - price) <= point / 2 + price * 1e-12, `${price} → ${r}`);
        assert.equal(roundPrice(r, digits), r);
        const decimals = (r.toString().split('.')[1] ?? '').length;
        if (!r.toString().includes('e')) assert.ok(decimals <= digits, `${r} has ${decimals} decimals`);
      }),
      { numRuns: 5000 },
    );
  });
});

describe('quote book', () => {
  const instrument = (id: number, symbol: string, group: Instrument['group'], digits: number, sessions: string[], spreadMarkup = 0): Instrument => ({
    id, symbol, description: symbol, group, base: symbol.slice(0, 3), quote: 'USD', digits, point: 10 ** -digits,
    contractSize: 1, volumeMin: 0.01, volumeStep: 0.01, volumeMax: 100, calcMode: group === 'Forex' ? 'forex' : 'cfd', tradingMode: 'full', marginRate: 1,
    sessions, schedule: parseSchedule(sessions), swapLong: 0, swapShort: 0, spreadMarkup, sim: { price: 1, spread: 1, volatility: 0, ticksPerSecond: 0 }, feeds: {},
  });
  const INSTRUMENTS = [
    instrument(1, 'EURUSD', 'Forex', 5, ['Sun 22:00-Fri 22:00']),
    instrument(2, 'USDJPY', 'Forex', 3, ['Sun 22:00-Fri 22:00'], 5),
    instrument(3, 'AAPL', 'Stocks', 2, ['Mon-Fri 13:30-20:00']),
    instrument(4, 'BTCUSD', 'Crypto', 2, ['always']),
  ];
  const wednesday = at('2026-03-04T10:00');
  const make = (sessions: 'real' | 'always' = 'real') => {
    const clock = { t: wednesday };
    const book = new QuoteBook(INSTRUMENTS, { now: () => clock.t, staleAfterMs: 30_000, sessions });
    return { book, clock };
  };

  test('validate names what is wrong, and accepts a good tick', () => {
    const { book } = make();
    assert.equal(book.validate({ symbol: 'EURUSD', bid: 1.1, ask: 1.1001 }), null);
    assert.equal(book.validate({ symbol: 'EURUSD', bid: 1.1, ask: 1.1 }), null);
    assert.match(book.validate({ symbol: 'GBPUSD', bid: 1.1, ask: 1.2 })!, /Unknown symbol GBPUSD/);
    assert.match(book.validate({ symbol: 'EURUSD', bid: NaN, ask: 1.2 })!, /finite/);
    assert.match(book.validate({ symbol: 'EURUSD', bid: 1.1, ask: Infinity })!, /finite/);
    assert.match(book.validate({ symbol: 'EURUSD', bid: 0, ask: 1.2 })!, /positive/);
    assert.match(book.validate({ symbol: 'EURUSD', bid: -1, ask: -0.5 })!, /positive/);
    assert.match(book.validate({ symbol: 'EURUSD', bid: 1.2, ask: 1.1 })!, /ask must not be below bid/);
    assert.match(book.validate({ symbol: 'EURUSD', bid: 1.1, ask: 1.2, time: 1.5 })!, /epoch milliseconds/);
    assert.match(book.validate({ symbol: 'EURUSD', bid: 1.1, ask: 1.2, time: -1 })!, /epoch milliseconds/);
    assert.match(book.validate({ symbol: 'EURUSD', bid: 1.1, ask: 1.2, time: wednesday + 5_001 })!, /future/);
    assert.equal(book.validate({ symbol: 'EURUSD', bid: 1.1, ask: 1.2, time: wednesday + 5_000 }), null);
    // Overflow after rounding, and a price jump no market makes in one tick.
    assert.match(book.validate({ symbol: 'EURUSD', bid: 1e308, ask: 1e308 })!, /out of range/);
    book.ingest({ symbol: 'EURUSD', bid: 1.1, ask: 1.1001 }, 'test');
    assert.match(book.validate({ symbol: 'EURUSD', bid: 11, ask: 11.0001 })!, /moved \d+% in one tick/);
  });

  test('ingest rounds to digits, applies the markup, stamps the clock, and tells listeners synchronously in order', () => {
    const { book } = make();
    const calls: string[] = [];
    book.onQuote((q, i) => void calls.push(`first ${q.symbol} ${i.digits}`));
    const stop = book.onQuote((q) => void calls.push(`second ${q.bid}`));
    assert.deepEqual(book.ingest({ symbol: 'EURUSD', bid: 1.1234549, ask: 1.1235551 }, 'test'), { ok: true });
    assert.deepEqual(calls, ['first EURUSD 5', 'second 1.12345']);
    assert.deepEqual(book.get('EURUSD'), { symbol: 'EURUSD', bid: 1.12345, ask: 1.12356, time: wednesday, markup: 0 });
    // 5 points of markup on 3 digits: 2 below the bid, 3 above the ask; the quote says which markup made it.
    book.ingest({ symbol: 'USDJPY', bid: 150, ask: 150.01, time: wednesday - 5 }, 'test');
    assert.deepEqual(book.get('USDJPY'), { symbol: 'USDJPY', bid: 149.998, ask: 150.013, time: wednesday - 5, markup: 5 });
    stop();
    book.ingest({ symbol: 'BTCUSD', bid: 65000, ask: 65010 }, 'test');
    assert.deepEqual(calls.slice(4), ['first BTCUSD 2']);
  });

  test('a refused or older tick changes nothing and reaches no listener; a tick at the same time replaces the quote', () => {
    const { book } = make();
    const heard: BookQuote[] = [];
    book.onQuote((q) => void heard.push(q));
    book.ingest({ symbol: 'EURUSD', bid: 1.1, ask: 1.1001, time: wednesday - 1000 }, 'test');
    const older = book.ingest({ symbol: 'EURUSD', bid: 1.2, ask: 1.2001, time: wednesday - 1001 }, 'test');
    assert.equal(older.ok, false);
    assert.match((older as { reason: string }).reason, /older than the current quote/);
    assert.equal(book.ingest({ symbol: 'EURUSD', bid: 1.3, ask: 1.2 }, 'test').ok, false);
    assert.equal(book.get('EURUSD')?.bid, 1.1);
    assert.equal(heard.length, 1);
    assert.equal(book.ingest({ symbol: 'EURUSD', bid: 1.15, ask: 1.1501, time: wednesday - 1000 }, 'test').ok, true);
    assert.equal(book.get('EURUSD')?.bid, 1.15);
  });

  test('open follows each schedule, or is always true with sessions "always"; unknown symbols are closed', () => {
    const { book, clock } = make();
    const open = () => INSTRUMENTS.map((i) => book.isOpen(i.symbol));
    assert.deepEqual(open(), [true, true, false, true]);
    clock.t = at('2026-03-04T13:30');
    assert.deepEqual(open(), [true, true, true, true]);
    clock.t = at('2026-03-07T12:00');
    assert.deepEqual(open(), [false, false, false, true]);
    assert.equal(book.isOpen('NOPE'), false);
    const always = make('always');
    always.clock.t = at('2026-03-07T12:00');
    assert.ok(INSTRUMENTS.every((i) => always.book.isOpen(i.symbol)));
  });

  test('stale: an open market with no quote, or none for longer than staleAfterMs; a closed market never', () => {
    const { book, clock } = make();
    assert.equal(book.isStale('EURUSD'), true);
    assert.equal(book.isStale('AAPL'), false, 'closed: not stale');
    book.ingest({ symbol: 'EURUSD', bid: 1.1, ask: 1.1001 }, 'test');
    assert.equal(book.isStale('EURUSD'), false);
    clock.t += 30_000;
    assert.equal(book.isStale('EURUSD'), false);
    clock.t += 1;
    assert.equal(book.isStale('EURUSD'), true);
    clock.t = at('2026-03-07T12:00');
    assert.equal(book.isStale('EURUSD'), false, 'weekend: closed, not stale');
    assert.deepEqual(book.view('EURUSD'), { symbol: 'EURUSD', bid: 1.1, ask: 1.1001, time: wednesday, stale: false, open: false });
    assert.deepEqual(book.view('BTCUSD'), { symbol: 'BTCUSD', bid: null, ask: null, time: null, stale: true, open: true });
  });

  test('restore puts back a remembered quote silently, never over a live one, never for an unknown symbol', () => {
    const { book } = make();
    const heard: BookQuote[] = [];
    book.onQuote((q) => void heard.push(q));
    book.restore({ symbol: 'EURUSD', bid: 1.05, ask: 1.0501, time: wednesday - 3600_000 });
    assert.equal(book.get('EURUSD')?.bid, 1.05);
    assert.equal(book.isStale('EURUSD'), true);
    book.restore({ symbol: 'EURUSD', bid: 1.06, ask: 1.0601, time: wednesday });
    assert.equal(book.get('EURUSD')?.bid, 1.05);
    book.restore({ symbol: 'NOPE', bid: 1, ask: 1, time: wednesday });
    assert.equal(book.get('NOPE'), undefined);
    assert.equal(heard.length, 0);
    // A live tick after the restored one replaces it.
    book.ingest({ symbol: 'EURUSD', bid: 1.07, ask: 1.0701 }, 'test');
    assert.equal(book.get('EURUSD')?.bid, 1.07);
  });
});
