import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { customRangeProblem, monthChoices } from '../src/statements/statement-period';

const DAY_MS = 86_400_000;

/** The periods the Statements page offers (docs/api.md#statements): months as the server counts days (UTC), and custom ranges it would take. */
describe('statement periods', () => {
  test('this month to today first, then the twelve whole months before it, across a year end', () => {
    const months = monthChoices(Date.parse('2026-01-15T23:30:00Z'));
    assert.equal(months.length, 13);
    assert.deepEqual(months[0], { value: '2026-01', label: 'January 2026 (to date)', from: '2026-01-01', to: '2026-01-15' });
    assert.deepEqual(months[1], { value: '2025-12', label: 'December 2025', from: '2025-12-01', to: '2025-12-31' });
    assert.deepEqual(months[12], { value: '2025-01', label: 'January 2025', from: '2025-01-01', to: '2025-01-31' });
    assert.equal(monthChoices(Date.parse('2028-03-01T00:00:00Z'))[1]!.to, '2028-02-29', 'a leap February');
  });

  test('property: every month offered is a whole calendar month the server takes, and they follow each other', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.parse('2000-01-01'), max: Date.parse('2090-12-31') }), (now) => {
        const months = monthChoices(now);
        for (const [i, m] of months.entries()) {
          assert.equal(customRangeProblem(m, now), null, `${m.value} is a range the server takes`);
          assert.equal(m.from.slice(8), '01');
          if (i > 0) assert.equal(Date.parse(m.to) + DAY_MS, Date.parse(months[i - 1]!.from), 'each month ends the day before the next starts');
        }
      }),
    );
  });

  test('a custom range is refused before it is asked for: missing days, backwards, after today, too long', () => {
    const now = Date.parse('2026-12-01T10:00:00Z');
    assert.equal(customRangeProblem({ from: '', to: '2026-11-30' }, now), 'Choose the first day.');
    assert.equal(customRangeProblem({ from: '2026-11-01', to: '' }, now), 'Choose the last day.');
    assert.equal(customRangeProblem({ from: '2026-11-30', to: '2026-11-01' }, now), 'The first day must be on or before the last.');
    assert.equal(customRangeProblem({ from: '2026-11-30', to: '2026-12-02' }, now), 'A statement cannot end after today (UTC).');
    assert.equal(customRangeProblem({ from: '2025-11-28', to: '2026-11-30' }, now), 'A statement covers at most 367 days.');
    assert.equal(customRangeProblem({ from: '2025-11-30', to: '2026-12-01' }, now), null, '367 days, today included');
  });
});
