import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Decimal from 'decimal.js';
import fc from 'fast-check';
import { formatCents, roundToCents } from '../src/domain/money';
import { Dec, marginUsd, profitUsd, type InstrumentSpec, type PriceLookup, type Prices, type Side } from '@tradeport/trading-math';
import { centsText, decimalAccountState, exactAccountFigures, exactMarginUsd, exactProfitUsd, figureTexts, profitText, scaledOf, shownProfit, type Exact, type Held, type Scaled } from '../src/trading/account-figures';

/**
 * The live figures in scaled integers (account-figures.ts) against decimal.js, the way the API has
 * always computed them: wherever the fast path gives a value it is decimal.js's value, and every text
 * the API shows (getMargins, getTrades, the back office's trader page) is the same string.
 */

const decimalOfScaled = (x: Scaled) => new Dec(`${x.n}e-${x.s}`);
/** The profit text the API showed before the fast path: formatCents(roundToCents(profit)). */
const oldProfitText = (d: Decimal) => formatCents(roundToCents(d));

/** A price with `digits` decimals as the quote book holds it (rounded to the instrument's digits). */
const priceArb = (digits: number, lo: number, hi: number) => fc.integer({ min: lo, max: hi }).map((points) => Number(new Decimal(points).div(new Decimal(10).pow(digits)).toString()));
const volumeArb = fc.integer({ min: 1, max: 10_000 }).map((h) => Number(new Decimal(h).div(100).toString()));
const side = fc.constantFrom<Side>('buy', 'sell');
const leverageArb = fc.oneof(fc.constantFrom(1, 2, 10, 20, 30, 50, 100, 200, 400, 500, 1000), fc.integer({ min: 1, max: 1000 }));

interface Case {
  instrument: InstrumentSpec;
  digits: number;
  lo: number;
  hi: number;
}
const spec = (base: string, quote: string, contractSize: number, calcMode: 'forex' | 'cfd'): InstrumentSpec => ({ base, quote, digits: 5, contractSize, volumeMin: 0.01, volumeStep: 0.01, volumeMax: 100, calcMode, swapLong: 0, swapShort: 0 });
const cases: Case[] = [
  { instrument: spec('EUR', 'USD', 100_000, 'forex'), digits: 5, lo: 50_000, hi: 200_000 },
  { instrument: spec('GBP', 'USD', 100_000, 'forex'), digits: 5, lo: 80_000, hi: 250_000 },
  { instrument: spec('USD', 'JPY', 100_000, 'forex'), digits: 3, lo: 80_000, hi: 200_000 },
  { instrument: spec('EUR', 'GBP', 100_000, 'forex'), digits: 5, lo: 60_000, hi: 100_000 },
  { instrument: spec('AUD', 'CAD', 100_000, 'forex'), digits: 5, lo: 80_000, hi: 100_000 },
  { instrument: spec('XAU', 'USD', 100, 'cfd'), digits: 2, lo: 100_000, hi: 400_000 },
  { instrument: spec('XAG', 'USD', 5_000, 'cfd'), digits: 3, lo: 10_000, hi: 60_000 },
  { instrument: spec('BTC', 'USD', 1, 'cfd'), digits: 2, lo: 1_000_000, hi: 20_000_000 },
  { instrument: spec('AAPL', 'USD', 1, 'cfd'), digits: 2, lo: 5_000, hi: 50_000 },
  { instrument: spec('DAX', 'EUR', 1, 'cfd'), digits: 1, lo: 100_000, hi: 250_000 },
];
const caseArb = fc.constantFrom(...cases);

/** Conversion quotes: every pair to and from USD may be there or not. */
const ratesArb = fc.record({
  EURUSD: fc.option(priceArb(5, 50_000, 200_000), { nil: undefined }),
  GBPUSD: fc.option(priceArb(5, 80_000, 250_000), { nil: undefined }),
  USDJPY: fc.option(priceArb(3, 80_000, 200_000), { nil: undefined }),
  USDCAD: fc.option(priceArb(5, 100_000, 150_000), { nil: undefined }),
  AUDUSD: fc.option(priceArb(5, 50_000, 100_000), { nil: undefined }),
});
const lookup =
  (rates: Record<string, number | undefined>): PriceLookup =>
  (symbol) => {
    const bid = rates[symbol];
    return bid === undefined ? undefined : { bid, ask: bid };
  };

/** Asserts an exact result is decimal.js's value (or null where it is null), and says whether it was exact. */
function sameValue(exact: Exact, decimal: Decimal | null): boolean {
  if (exact === 'inexact') return false;
  if (exact === null) {
    assert.equal(decimal, null);
    return true;
  }
  assert.ok(decimal !== null);
  assert.ok(decimalOfScaled(exact).eq(decimal), `${exact.n}e-${exact.s} is not ${decimal.toString()}`);
  return true;
}

describe('exact valuations against decimal.js', () => {
  test('a number is read as the decimal it prints as, as the trading math reads it', () => {
    fc.assert(
      fc.property(fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer({ min: -1e9, max: 1e9 }).map((n) => n / 1000), priceArb(5, 1, 10_000_000)), (x) => {
        const s = scaledOf(x);
        if (s !== null) assert.ok(decimalOfScaled(s).eq(new Dec(x.toString())), `${x}`);
      }),
      { numRuns: 2000 },
    );
    assert.deepEqual(scaledOf(1.08123), { n: 108123, s: 5 });
    assert.deepEqual(scaledOf(-0.5), { n: -5, s: 1 });
    assert.equal(scaledOf(1e-7), null);
    assert.equal(scaledOf(1e21), null);
  });

  test('profit: the same value as profitUsd, and the same text, whenever it is exact', () => {
    let exactCount = 0;
    fc.assert(
      fc.property(caseArb, side, volumeArb, fc.nat(), fc.nat(), fc.integer({ min: 0, max: 200 }), ratesArb, (c, s, volume, openAt, bidAt, spread, rates) => {
        const span = c.hi - c.lo;
        const toPrice = (points: number) => Number(new Decimal(points).div(new Decimal(10).pow(c.digits)).toString());
        const open = toPrice(c.lo + (openAt % span));
        const bidPts = c.lo + (bidAt % span);
        const q: Prices = { bid: toPrice(bidPts), ask: toPrice(bidPts + spread) };
        const prices = lookup(rates);
        const exact = exactProfitUsd(s, volume, open, q, c.instrument, prices);
        const decimal = profitUsd(s, volume, open, q, c.instrument, prices);
        if (sameValue(exact, decimal)) exactCount += 1;
        if (exact !== null && exact !== 'inexact' && decimal !== null) assert.equal(profitText(decimal), oldProfitText(decimal));
        // The row's text straight from the integers (getTrades, the trader page): decimal.js's text, and decimal.js not asked for when exact.
        let asked = false;
        const shown = shownProfit(exact, () => ((asked = true), decimal));
        assert.equal(shown, decimal === null ? null : oldProfitText(decimal));
        if (exact !== 'inexact') assert.equal(asked, false);
      }),
      { numRuns: 3000 },
    );
    // Most instruments are quoted in USD or convert at an XXXUSD rate: most cases must be exact.
    assert.ok(exactCount > 1500, `only ${exactCount} of 3000 exact`);
  });

  test('margin: the same value as marginUsd whenever it is exact, for any leverage', () => {
    let exactCount = 0;
    fc.assert(
      fc.property(caseArb, volumeArb, fc.nat(), leverageArb, ratesArb, (c, volume, openAt, leverage, rates) => {
        const open = Number(new Decimal(c.lo + (openAt % (c.hi - c.lo))).div(new Decimal(10).pow(c.digits)).toString());
        const prices = lookup(rates);
        if (sameValue(exactMarginUsd(volume, open, leverage, c.instrument, prices), marginUsd(volume, open, leverage, c.instrument, prices))) exactCount += 1;
      }),
      { numRuns: 3000 },
    );
    assert.ok(exactCount > 1500, `only ${exactCount} of 3000 exact`);
  });

  test('a position quoted in JPY (profit divided by the USDJPY price) is left to decimal.js', () => {
    const usdJpy = cases[2] as Case;
    assert.equal(exactProfitUsd('buy', 1, 150.123, { bid: 150.456, ask: 150.466 }, usdJpy.instrument, lookup({ USDJPY: 150.456 })), 'inexact');
  });
});

/** Up to `maxUsd` in absolute value with up to `decimals` decimals, as a scaled integer. */
const scaledArb = (maxUsd: number, decimals: number, min = -1) =>
  fc.integer({ min: 0, max: decimals }).chain((s) => {
    const most = Math.min(Number.MAX_SAFE_INTEGER, maxUsd * 10 ** s);
    return fc.integer({ min: min < 0 ? -most : 0, max: most }).map((n) => ({ n, s }));
  });
/** Amounts an account holds (up to ten million USD, as prices and volumes make them), and now and then far past them. */
const heldArb = fc.record({
  profit: fc.option(fc.oneof({ arbitrary: scaledArb(1e7, 7), weight: 9 }, { arbitrary: scaledArb(1e12, 9), weight: 1 }), { nil: null }),
  margin: fc.option(fc.oneof({ arbitrary: scaledArb(1e7, 7, 0), weight: 9 }, { arbitrary: scaledArb(1e12, 9, 0), weight: 1 }), { nil: null }),
  swapCents: fc.integer({ min: -1e7, max: 1e7 }),
});
const centsArb = fc.oneof(fc.integer({ min: -1e6, max: 1e8 }), fc.integer({ min: 0, max: 1e13 }));

function bothWays(balanceCents: number, creditCents: number, leverage: number, held: Held<Scaled>[]) {
  const exact = exactAccountFigures(balanceCents, creditCents, leverage, held);
  const decimal = decimalAccountState(
    balanceCents,
    creditCents,
    leverage,
    held.map((h) => ({ profit: h.profit && decimalOfScaled(h.profit), margin: h.margin && decimalOfScaled(h.margin), swapCents: h.swapCents })),
  );
  return { exact, decimal };
}

describe('account figures from exact valuations against decimal.js', () => {
  test('the same texts as the decimal.js figures, and the same decimal.js values when read', () => {
    let exactCount = 0;
    fc.assert(
      fc.property(centsArb, fc.integer({ min: 0, max: 1e7 }), leverageArb, fc.array(heldArb, { maxLength: 8 }), (balanceCents, creditCents, leverage, held) => {
        const { exact, decimal } = bothWays(balanceCents, creditCents, leverage, held);
        if (exact === null) return;
        exactCount += 1;
        assert.deepEqual(figureTexts(exact), figureTexts(decimal));
        assert.equal(exact.unvalued, decimal.unvalued);
        for (const k of ['floating', 'margin', 'equity', 'freeMargin', 'marginLevel'] as const) {
          assert.ok(exact[k].eq(decimal[k]), `${k}: ${exact[k].toString()} ≠ ${decimal[k].toString()}`);
          assert.equal(exact[k].constructor, decimal[k].constructor, `${k} is not of the same Decimal class`);
          assert.equal(exact[k].toString(), decimal[k].toString());
        }
      }),
      { numRuns: 5000 },
    );
    assert.ok(exactCount > 1500, `only ${exactCount} of 5000 exact`);
  });

  test('edges: no margin, a negative level that rounds to zero ("-0.00"), half-hundredths of a percent, ties in cents', () => {
    const edge = (balanceCents: number, profit: Scaled | null, margin: Scaled | null, swapCents = 0) => {
      const { exact, decimal } = bothWays(balanceCents, 0, 100, [{ profit, margin, swapCents }]);
      assert.ok(exact);
      assert.deepEqual(figureTexts(exact), figureTexts(decimal));
      return figureTexts(exact);
    };
    assert.equal(edge(100_000, { n: 5, s: 1 }, null).marginLevel, '0.00');
    // Equity −0.00001 on a margin of 100: −0.00001 % → "-0.00".
    assert.equal(edge(0, { n: -1, s: 5 }, { n: 100, s: 0 }).marginLevel, '-0.00');
    // Equity 1.00005 on a margin of 1: 100.005 % → half up, away from zero.
    assert.equal(edge(100, { n: 5, s: 5 }, { n: 1, s: 0 }).marginLevel, '100.01');
    assert.equal(edge(-200, { n: -5, s: 5 }, { n: 1, s: 0 }).marginLevel, '-200.01');
    // Half a cent of profit rounds away from zero, either sign.
    assert.equal(edge(0, { n: 5, s: 3 }, { n: 1, s: 0 }).profit, '0.01');
    assert.equal(edge(0, { n: -5, s: 3 }, { n: 1, s: 0 }).profit, '-0.01');
    assert.equal(edge(0, { n: -4, s: 3 }, { n: 1, s: 0 }).profit, '0.00');
    // A level of a third: the quotient does not end.
    assert.equal(edge(100, null, { n: 3, s: 0 }).marginLevel, figureTexts(decimalAccountState(100, 0, 100, [{ profit: null, margin: new Dec(3), swapCents: 0 }])).marginLevel);
  });

  test('cents as text, as formatCents writes them', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: -1e6, max: 1e6 }), fc.maxSafeInteger(), fc.maxSafeNat().map((n) => -n)), (cents) => {
        assert.equal(centsText(cents), formatCents(cents));
      }),
      { numRuns: 3000 },
    );
    assert.equal(centsText(-0), formatCents(-0));
  });
});
