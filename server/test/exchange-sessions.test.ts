import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { readCatalogueFile, DEFAULT_CATALOGUE_FILE } from '../src/market/catalogue';
import { isOpenAt, parseSchedule } from '../src/domain/trading-sessions';
import { rolloversBetween, type RolloverTime } from '../src/domain/rollover-schedule';
import { wallClock, zonedInstant, offsetMs } from '../src/domain/zoned-time';
import { loadConfig } from '../src/config';

/**
 * Trading sessions and the daily rollover in exchange time (IANA zones through `Intl`), checked
 * against oracles written here from the published daylight-time rules — the code under test uses
 * the platform's zone data, never rules of its own — across changes in both directions.
 */

const at = (iso: string) => Date.parse(iso);
const HOUR = 3600_000;
const DAY = 24 * HOUR;

/** Oracle: the UTC offset of New York (US rules since 2007: 2nd Sunday of March 02:00 to 1st Sunday of November 02:00 local). */
function newYorkOffset(t: number): number {
  const y = new Date(t).getUTCFullYear();
  const nthSunday = (month: number, n: number) => {
    const first = new Date(Date.UTC(y, month, 1)).getUTCDay();
    return 1 + ((7 - first) % 7) + (n - 1) * 7;
  };
  // 02:00 EST = 07:00 UTC; 02:00 EDT = 06:00 UTC.
  const start = Date.UTC(y, 2, nthSunday(2, 2), 7);
  const end = Date.UTC(y, 10, nthSunday(10, 1), 6);
  return t >= start && t < end ? -4 * HOUR : -5 * HOUR;
}

/** Oracle: London (EU rules: last Sunday of March 01:00 UTC to last Sunday of October 01:00 UTC). */
function londonOffset(t: number): number {
  const y = new Date(t).getUTCFullYear();
  const lastSunday = (month: number) => {
    const last = new Date(Date.UTC(y, month + 1, 0));
    return last.getUTCDate() - last.getUTCDay();
  };
  const start = Date.UTC(y, 2, lastSunday(2), 1);
  const end = Date.UTC(y, 9, lastSunday(9), 1);
  return t >= start && t < end ? HOUR : 0;
}

/** Local weekday (0 = Sunday) and minute of the day under an oracle offset. */
function local(t: number, offset: (t: number) => number): { weekday: number; minute: number } {
  const d = new Date(t + offset(t));
  return { weekday: d.getUTCDay(), minute: d.getUTCHours() * 60 + d.getUTCMinutes() };
}

// 2007 (the current US rules) to 2037: every daylight-time change in both directions, many times.
const anyTime = fc.integer({ min: at('2007-03-01T00:00:00Z'), max: at('2037-12-31T00:00:00Z') });
/** Times within two days of a daylight-time change in New York (spring or autumn), to concentrate the search there. */
const nearNewYorkChange = fc.record({ year: fc.integer({ min: 2008, max: 2037 }), spring: fc.boolean(), offset: fc.integer({ min: -2 * DAY, max: 2 * DAY }) }).map(({ year, spring, offset }) => {
  const base = spring ? Date.UTC(year, 2, 1) : Date.UTC(year, 10, 1);
  // The change itself is the instant where the oracle's offset moves; find it hour by hour.
  let t = base;
  while (newYorkOffset(t) === newYorkOffset(base)) t += HOUR;
  return t + offset;
});
const nearChange = fc.oneof(anyTime, nearNewYorkChange);

const stocks = parseSchedule(['America/New_York Mon-Fri 09:30-16:00']);
const forex = parseSchedule(['America/New_York Sun 17:00-Fri 17:00']);
const NY_1700: RolloverTime = { zone: 'America/New_York', minuteOfDay: 17 * 60 };

describe('zoned time', () => {
  test('offsets from the platform match the published rules for New York and London', () => {
    fc.assert(
      fc.property(nearChange, (t) => {
        assert.equal(offsetMs('America/New_York', t), newYorkOffset(t), new Date(t).toISOString());
        assert.equal(offsetMs('Europe/London', t), londonOffset(t), new Date(t).toISOString());
      }),
      { numRuns: 3000 },
    );
  });

  test('a wall-clock time maps back to the instant it came from, and times skipped or repeated by a change resolve as documented', () => {
    fc.assert(
      fc.property(nearChange, (t) => {
        const minute = Math.floor(t / 60_000) * 60_000;
        const c = wallClock('America/New_York', minute);
        const back = zonedInstant('America/New_York', c.day, c.minuteOfDay);
        // The instant itself, or (in the repeated hour of autumn) its first occurrence an hour earlier.
        assert.ok(back === minute || back === minute - HOUR, `${new Date(minute).toISOString()} → ${new Date(back).toISOString()}`);
      }),
      { numRuns: 3000 },
    );
    const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / DAY;
    // Spring: 02:30 does not exist on 8 March 2026; it happens when clocks jump to 03:00 EDT (07:00 UTC).
    assert.equal(zonedInstant('America/New_York', day('2026-03-08'), 150), at('2026-03-08T07:00:00Z'));
    // Autumn: 01:30 occurs twice on 1 November 2026; the first (EDT, 05:30 UTC) is meant.
    assert.equal(zonedInstant('America/New_York', day('2026-11-01'), 90), at('2026-11-01T05:30:00Z'));
  });
});

describe('exchange-time sessions', () => {
  test('US stocks open at 09:30 and close at 16:00 New York time, whatever the season (14:30 UTC in winter, 13:30 UTC in summer)', () => {
    assert.equal(isOpenAt(stocks, at('2026-01-14T14:29:59Z')), false);
    assert.equal(isOpenAt(stocks, at('2026-01-14T14:30:00Z')), true);
    assert.equal(isOpenAt(stocks, at('2026-01-14T13:30:00Z')), false, 'an hour early in winter');
    assert.equal(isOpenAt(stocks, at('2026-01-14T20:59:59Z')), true);
    assert.equal(isOpenAt(stocks, at('2026-01-14T21:00:00Z')), false);
    assert.equal(isOpenAt(stocks, at('2026-07-15T13:30:00Z')), true);
    assert.equal(isOpenAt(stocks, at('2026-07-15T13:29:59Z')), false);
    assert.equal(isOpenAt(stocks, at('2026-07-15T20:00:00Z')), false);
    // The Monday after each change.
    assert.equal(isOpenAt(stocks, at('2026-03-09T13:30:00Z')), true);
    assert.equal(isOpenAt(stocks, at('2026-03-06T13:30:00Z')), false);
    assert.equal(isOpenAt(stocks, at('2026-11-02T14:29:00Z')), false);
    assert.equal(isOpenAt(stocks, at('2026-11-02T14:30:00Z')), true);
  });

  test('property: stocks are open exactly on New York weekdays 09:30-16:00, across daylight-time changes in both directions', () => {
    fc.assert(
      fc.property(nearChange, (t) => {
        const l = local(t, newYorkOffset);
        assert.equal(isOpenAt(stocks, t), l.weekday >= 1 && l.weekday <= 5 && l.minute >= 570 && l.minute < 960, new Date(t).toISOString());
      }),
      { numRuns: 5000 },
    );
  });

  test('property: Forex is open from Sunday 17:00 to Friday 17:00 New York time, across daylight-time changes in both directions', () => {
    fc.assert(
      fc.property(nearChange, (t) => {
        const l = local(t, newYorkOffset);
        const m = l.weekday * 1440 + l.minute;
        assert.equal(isOpenAt(forex, t), m >= 17 * 60 && m < 5 * 1440 + 17 * 60, new Date(t).toISOString());
      }),
      { numRuns: 5000 },
    );
  });

  test('property: a window in a European zone follows its own changes (London 08:00-16:30)', () => {
    const lse = parseSchedule(['Europe/London Mon-Fri 08:00-16:30']);
    fc.assert(
      fc.property(anyTime, (t) => {
        const l = local(t, londonOffset);
        assert.equal(isOpenAt(lse, t), l.weekday >= 1 && l.weekday <= 5 && l.minute >= 480 && l.minute < 990, new Date(t).toISOString());
      }),
      { numRuns: 3000 },
    );
  });

  test('holiday closures and early closes are local dates of the calendar zone', () => {
    const s = parseSchedule(['America/New_York Mon-Fri 09:30-16:00'], { zone: 'America/New_York', closed: ['2026-11-26'], earlyCloses: [{ date: '2026-11-27', close: '13:00' }] });
    // Thanksgiving: closed all day.
    assert.equal(isOpenAt(s, at('2026-11-26T15:00:00Z')), false);
    // The day after: open 09:30 to 13:00 local (14:30 to 18:00 UTC in November).
    assert.equal(isOpenAt(s, at('2026-11-27T14:30:00Z')), true);
    assert.equal(isOpenAt(s, at('2026-11-27T17:59:59Z')), true);
    assert.equal(isOpenAt(s, at('2026-11-27T18:00:00Z')), false);
    // Ordinary days around them are unaffected.
    assert.equal(isOpenAt(s, at('2026-11-25T20:59:00Z')), true);
    assert.equal(isOpenAt(s, at('2026-11-30T20:59:00Z')), true);
    assert.throws(() => parseSchedule(['always'], { zone: 'Mars/Olympus', closed: [] }), /unknown time zone "Mars\/Olympus"/);
    assert.throws(() => parseSchedule(['always'], { zone: 'UTC', closed: ['2026-02-30'] }), /"2026-02-30" is not a date/);
    assert.throws(() => parseSchedule(['Moon/Base Mon-Fri 09:30-16:00']), /unknown time zone "Moon\/Base"/);
  });

  test("the shipped catalogue writes sessions in New York time and closes US stocks on the exchange's holidays", () => {
    const file = readCatalogueFile(DEFAULT_CATALOGUE_FILE);
    assert.deepEqual(file.schedules.forex, ['America/New_York Sun 17:00-Fri 17:00']);
    assert.deepEqual(file.schedules['us-stocks'], ['America/New_York Mon-Fri 09:30-16:00']);
    const aaplSchedule = parseSchedule(file.schedules['us-stocks']!, file.holidays?.Stocks ?? null);
    assert.equal(isOpenAt(aaplSchedule, at('2026-12-25T15:00:00Z')), false, 'Christmas');
    assert.equal(isOpenAt(aaplSchedule, at('2026-12-24T18:30:00Z')), false, 'Christmas Eve closes at 13:00');
    assert.equal(isOpenAt(aaplSchedule, at('2026-12-23T18:30:00Z')), true);
  });
});

describe('daily rollover in exchange time', () => {
  test('the default is 17:00 New York; ROLLOVER_TIME and ROLLOVER_ZONE change it, and bad values stop start-up', () => {
    assert.deepEqual(loadConfig({}).trading.rollover, NY_1700);
    assert.deepEqual(loadConfig({ ROLLOVER_TIME: '22:00', ROLLOVER_ZONE: 'UTC' }).trading.rollover, { zone: 'UTC', minuteOfDay: 1320 });
    assert.throws(() => loadConfig({ ROLLOVER_TIME: '24:00' }), /ROLLOVER_TIME/);
    assert.throws(() => loadConfig({ ROLLOVER_ZONE: 'New York' }), /ROLLOVER_ZONE/);
  });

  test('17:00 New York is 22:00 UTC in winter and 21:00 UTC in summer; Wednesday counts three days; none on weekends', () => {
    assert.deepEqual(rolloversBetween(at('2026-03-05T00:00:00Z'), at('2026-03-10T00:00:00Z'), NY_1700), [
      { at: at('2026-03-05T22:00:00Z'), days: 1 }, // Thursday, EST
      { at: at('2026-03-06T22:00:00Z'), days: 1 }, // Friday
      { at: at('2026-03-09T21:00:00Z'), days: 1 }, // Monday, EDT since Sunday
    ]);
    assert.deepEqual(rolloversBetween(at('2026-10-30T00:00:00Z'), at('2026-11-05T00:00:00Z'), NY_1700), [
      { at: at('2026-10-30T21:00:00Z'), days: 1 },
      { at: at('2026-11-02T22:00:00Z'), days: 1 },
      { at: at('2026-11-03T22:00:00Z'), days: 1 },
      { at: at('2026-11-04T22:00:00Z'), days: 3 },
    ]);
  });

  test('property: every rollover is at 17:00 New York on a weekday, Wednesday triple, across daylight-time changes in both directions', () => {
    fc.assert(
      fc.property(nearChange, fc.integer({ min: 0, max: 20 * DAY }), (from, span) => {
        const list = rolloversBetween(from, from + span, NY_1700);
        for (const r of list) {
          const l = local(r.at, newYorkOffset);
          assert.equal(l.minute, 17 * 60, new Date(r.at).toISOString());
          assert.ok(l.weekday >= 1 && l.weekday <= 5);
          assert.equal(r.days, l.weekday === 3 ? 3 : 1);
          assert.ok(r.at > from && r.at <= from + span);
        }
        // One per weekday: none is skipped and none doubled when a change falls in between.
        let weekdays = 0;
        const firstDay = Math.floor((from + newYorkOffset(from)) / DAY) - 1;
        for (let d = firstDay; d * DAY <= from + span + DAY; d++) {
          const wd = new Date(d * DAY).getUTCDay();
          if (wd < 1 || wd > 5) continue;
          // That local day's 17:00 in UTC, by the oracle (17:00 is never skipped or repeated).
          const instant = [d * DAY + 21 * HOUR, d * DAY + 22 * HOUR].find((c) => c + newYorkOffset(c) === d * DAY + 17 * HOUR);
          if (instant !== undefined && instant > from && instant <= from + span) weekdays++;
        }
        assert.equal(list.length, weekdays);
      }),
      { numRuns: 2000 },
    );
  });

  test('property: splitting a span anywhere lists the same rollovers (so runs across restarts charge each once)', () => {
    fc.assert(
      fc.property(nearChange, fc.integer({ min: 0, max: 10 * DAY }), fc.integer({ min: 0, max: 10 * DAY }), (a, x, y) => {
        const b = a + x;
        const c = b + y;
        assert.deepEqual([...rolloversBetween(a, b, NY_1700), ...rolloversBetween(b, c, NY_1700)], rolloversBetween(a, c, NY_1700));
      }),
      { numRuns: 1000 },
    );
  });

  test('a long downtime lists every missed rollover (a year: 261 weekdays)', () => {
    const list = rolloversBetween(at('2026-01-01T00:00:00Z'), at('2027-01-01T00:00:00Z'), NY_1700);
    assert.equal(list.length, 261);
  });
});
