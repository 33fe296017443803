import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { formatBalance, formatDateTime, formatDecimal, formatLocalTime, formatPercent, formatPrice, formatUsd, formatVolume, fromLocalInput, signOf, timeZoneLabel, toLocalInput } from '../src/format/format';

describe('formatting figures', () => {
  it('shows USD amounts with 2 decimals and thousands separators', () => {
    assert.equal(formatUsd('1250.5'), '1,250.50');
    assert.equal(formatUsd('0'), '0.00');
    assert.equal(formatUsd(null), '0.00');
    assert.equal(formatUsd('-1234567.89'), '-1,234,567.89');
    assert.equal(formatUsd('999999999999.99'), '999,999,999,999.99');
  });

  it('shows the balance with 4 decimals', () => {
    assert.equal(formatBalance('1250.5'), '1,250.5000');
    assert.equal(formatBalance(undefined), '0.0000');
  });

  it('rounds half away from zero on the decimal digits, not through floats', () => {
    assert.equal(formatDecimal('1.005', 2), '1.01');
    assert.equal(formatDecimal('-1.005', 2), '-1.01');
    assert.equal(formatDecimal('9.995', 2), '10.00');
    assert.equal(formatDecimal('999.9999', 2), '1,000.00');
    assert.equal(formatDecimal('-0.001', 2), '0.00');
  });

  it('shows prices with the instrument digits', () => {
    assert.equal(formatPrice(1.08, 5), '1.08000');
    assert.equal(formatPrice(151.234, 3), '151.234');
    assert.equal(formatPrice(65432.1, 2), '65,432.10');
    assert.equal(formatPrice(1e-7, 8), '0.00000010');
    assert.equal(formatPrice(null, 5), '—');
    assert.equal(formatPrice(Number.NaN, 5), '—');
  });

  it('shows percentages with 2 decimals and an optional sign', () => {
    assert.equal(formatPercent('12.5'), '12.50%');
    assert.equal(formatPercent(1.254, { sign: true }), '+1.25%');
    assert.equal(formatPercent(-0.5, { sign: true }), '-0.50%');
    assert.equal(formatPercent(0, { sign: true }), '0.00%');
  });

  it('shows volumes in lots with 2 decimals', () => {
    assert.equal(formatVolume(0.01), '0.01');
    assert.equal(formatVolume('10'), '10.00');
  });

  it('shows malformed input as a dash instead of NaN', () => {
    assert.equal(formatDecimal('abc', 2), '—');
    assert.equal(formatDecimal('', 2), '—');
    assert.equal(formatDecimal(Number.POSITIVE_INFINITY, 2), '—');
  });

  it('tells the sign of amounts for colouring', () => {
    assert.equal(signOf('12.00'), 1);
    assert.equal(signOf('-0.01'), -1);
    assert.equal(signOf('0.00'), 0);
    assert.equal(signOf(null), 0);
  });

  it("shows times in the trader's time zone, named; a field's local value goes back to the same instant", () => {
    const zone = timeZoneLabel(Date.parse('2026-11-24T09:15:02Z'));
    assert.equal(formatDateTime('2026-11-24T09:15:02Z'), `${formatLocalTime('2026-11-24T09:15:02Z')} ${zone}`);
    if (new Date('2026-11-24T09:15:02Z').getTimezoneOffset() === 0) assert.equal(formatDateTime('2026-11-24T09:15:02Z'), '24 Nov 2026, 09:15:02 UTC');
    assert.equal(formatDateTime('not a date'), '—');
    const local = toLocalInput('2030-11-30T03:00:00Z');
    assert.match(local, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    assert.equal(fromLocalInput(local), Date.parse('2030-11-30T03:00:00Z'));
    assert.equal(fromLocalInput('30/11/2030 12:00'), null);
  });

  it('agrees with exact cents for any amount in cents (property)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 14n), max: 10n ** 14n }), (cents) => {
        const negative = cents < 0n;
        const abs = negative ? -cents : cents;
        const text = `${negative ? '-' : ''}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
        const shown = formatUsd(text);
        assert.equal(shown.replace(/,/g, ''), cents === 0n ? '0.00' : text);
      }),
    );
  });

  it('rounds a 4-decimal amount to the nearest cent (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 9 }), (tenThousandths) => {
        const text = `${Math.floor(tenThousandths / 10000)}.${String(tenThousandths % 10000).padStart(4, '0')}`;
        const expectedCents = Math.floor((tenThousandths + 50) / 100);
        const expected = `${Math.floor(expectedCents / 100)}.${String(expectedCents % 100).padStart(2, '0')}`;
        assert.equal(formatDecimal(text, 2).replace(/,/g, ''), expected);
      }),
    );
  });
});
