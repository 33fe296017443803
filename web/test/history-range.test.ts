import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { dayText, HISTORY_PRESETS, presetDates, rangeLabel } from '../src/terminal/history-range';
import { dateRangeMs } from '../src/terminal/positions-live';

/** A local day (the test runs in whatever zone the machine has; the presets work in it). */
const day = (y: number, m: number, d: number, h = 12) => new Date(y, m - 1, d, h);

describe('History date presets', () => {
  it('names the days of each preset, ending today, in local days', () => {
    const today = day(2026, 5, 15, 23);
    assert.deepEqual(presetDates('today', today), { from: '2026-05-15', to: '2026-05-15' });
    assert.deepEqual(presetDates('last7', today), { from: '2026-05-09', to: '2026-05-15' });
    assert.deepEqual(presetDates('last30', today), { from: '2026-04-16', to: '2026-05-15' });
    assert.deepEqual(presetDates('month', today), { from: '2026-05-01', to: '2026-05-15' });
    assert.deepEqual(presetDates('last3months', today), { from: '2026-02-16', to: '2026-05-15' });
    assert.deepEqual(presetDates('all', today), { from: '', to: '' });
  });

  it('counts across month and year ends by the calendar, shorter months included', () => {
    assert.deepEqual(presetDates('last7', day(2026, 1, 3)), { from: '2025-12-28', to: '2026-01-03' });
    assert.deepEqual(presetDates('last3months', day(2026, 5, 31)), { from: '2026-03-01', to: '2026-05-31' });
    assert.deepEqual(presetDates('last3months', day(2024, 5, 30)), { from: '2024-03-01', to: '2024-05-30' }, 'February 2024 has 29 days');
    assert.deepEqual(presetDates('month', day(2026, 3, 1, 0)), { from: '2026-03-01', to: '2026-03-01' });
  });

  it('every preset is a valid range that holds the whole of today, and spans the days it says', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date(2001, 0, 1), max: new Date(2090, 11, 31), noInvalidDate: true }), (now) => {
        for (const preset of ['today', 'last7', 'last30', 'month', 'last3months'] as const) {
          const { from, to } = presetDates(preset, now);
          const range = dateRangeMs(from, to);
          assert.ok(range.ok, `${preset} at ${now.toString()}`);
          assert.ok(range.from! <= now.getTime() && now.getTime() < range.to!, `${preset} holds now`);
          assert.equal(to, dayText(now));
        }
        const span = (preset: 'last7' | 'last30') => {
          const { from, to } = presetDates(preset, now);
          // Counted in calendar days (a day of a clock change is not 24 hours).
          const [a, b] = [from, to].map((d) => Date.UTC(Number(d.slice(0, 4)), Number(d.slice(5, 7)) - 1, Number(d.slice(8, 10))));
          return (b! - a!) / 86_400_000 + 1;
        };
        assert.equal(span('last7'), 7);
        assert.equal(span('last30'), 30);
      }),
      { numRuns: 300 },
    );
  });

  it('labels a range by its preset, or by its custom days', () => {
    assert.deepEqual(
      HISTORY_PRESETS.map((p) => p.label),
      ['Today', 'Last 7 days', 'Last 30 days', 'This month', 'Last 3 months', 'All time', 'Custom'],
    );
    assert.equal(rangeLabel('last7', '', ''), 'Last 7 days');
    assert.equal(rangeLabel('custom', '2026-01-01', '2026-01-31'), '01 Jan 2026 – 31 Jan 2026');
    assert.equal(rangeLabel('custom', '2026-01-01', '2026-01-01'), '01 Jan 2026');
    assert.equal(rangeLabel('custom', '2026-01-01', ''), 'Since 01 Jan 2026');
    assert.equal(rangeLabel('custom', '', '2026-12-31'), 'Until 31 Dec 2026');
    assert.equal(rangeLabel('custom', '', ''), 'All time');
  });
});
