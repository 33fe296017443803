import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Decimal from 'decimal.js';
import fc from 'fast-check';
import { roundToCents } from '../src/domain/money';
import { accountFigures, commissionUsd, positionLeverage, figuresAfterOrder, figureText, marginUsd, notEnoughMarginMessage, partialCloseProblem, partShareCents, profitAtLevel, profitUsd, stopsProblem, toUsd, trailedStop, trailingProblem, trailTrigger, triggeredStop, volumeLeft, volumeProblem, type LeverageLimits, type PriceLookup, type Side } from '@tradeport/trading-math';

/**
 * The trading math checked against an independent reference written here: exact rational arithmetic
 * on BigInt (prices as integer points, volumes as integer hundredths of a lot), rounded to cents the
 * way the ledger does. decimal.js must agree with it to the cent for every generated case.
 */
interface Rational {
  n: bigint;
  d: bigint;
}
const r = (n: bigint, d = 1n): Rational => (d < 0n ? { n: -n, d: -d } : { n, d });
const mul = (a: Rational, b: Rational) => r(a.n * b.n, a.d * b.d);
const div = (a: Rational, b: Rational) => r(a.n * b.d, a.d * b.n);
const sub = (a: Rational, b: Rational) => r(a.n * b.d - b.n * a.d, a.d * b.d);
/** Round half away from zero to cents. */
function cents(a: Rational): bigint {
  const scaled = a.n * 100n;
  const q = scaled / a.d;
  const rem = scaled % a.d;
  const twice = (rem < 0n ? -rem : rem) * 2n;
  if (twice >= (a.d < 0n ? -a.d : a.d)) return q + (scaled < 0n ? -1n : 1n);
  return q;
}
const price = (points: number, digits: number) => r(BigInt(points), 10n ** BigInt(digits));
const toNumber = (points: number, digits: number) => Number(new Decimal(points).div(new Decimal(10).pow(digits)).toString());

const quoteArb = (digits: number, lo: number, hi: number) =>
  fc.record({ bidPts: fc.integer({ min: lo, max: hi }), spreadPts: fc.integer({ min: 0, max: 200 }) }).map(({ bidPts, spreadPts }) => ({ bidPts, askPts: bidPts + spreadPts, digits }));

const side = fc.constantFrom<Side>('buy', 'sell');
const volumeHundredths = fc.integer({ min: 1, max: 10_000 });

describe('profit, against exact rational arithmetic', () => {
  test('USD-quoted Forex (EURUSD): (bid − open) × C × V for a Buy, (open − ask) × C × V for a Sell', () => {
    fc.assert(
      fc.property(side, volumeHundredths, fc.integer({ min: 50_000, max: 200_000 }), quoteArb(5, 50_000, 200_000), (s, vol, openPts, q) => {
        const open = price(openPts, 5);
        const diff = s === 'buy' ? sub(price(q.bidPts, 5), open) : sub(open, price(q.askPts, 5));
        const expected = cents(mul(mul(diff, r(100_000n)), r(BigInt(vol), 100n)));
        const got = profitUsd(s, vol / 100, toNumber(openPts, 5), { bid: toNumber(q.bidPts, 5), ask: toNumber(q.askPts, 5) }, { contractSize: 100_000, quote: 'USD' }, () => undefined);
        assert.ok(got);
        assert.equal(BigInt(roundToCents(got)), expected);
      }),
      { numRuns: 500 },
    );
  });

  test('JPY-quoted Forex (USDJPY): profit in yen divided by the USDJPY bid', () => {
    fc.assert(
      fc.property(side, volumeHundredths, fc.integer({ min: 100_000, max: 200_000 }), quoteArb(3, 100_000, 200_000), (s, vol, openPts, q) => {
        const open = price(openPts, 3);
        const diff = s === 'buy' ? sub(price(q.bidPts, 3), open) : sub(open, price(q.askPts, 3));
        const yen = mul(mul(diff, r(100_000n)), r(BigInt(vol), 100n));
        const expected = cents(div(yen, price(q.bidPts, 3)));
        const p = { bid: toNumber(q.bidPts, 3), ask: toNumber(q.askPts, 3) };
        const got = profitUsd(s, vol / 100, toNumber(openPts, 3), p, { contractSize: 100_000, quote: 'JPY' }, (sym) => (sym === 'USDJPY' ? p : undefined));
        assert.ok(got);
        assert.equal(BigInt(roundToCents(got)), expected);
      }),
      { numRuns: 500 },
    );
  });

  test('a cross quoted in GBP (EURGBP) converts at the GBPUSD bid', () => {
    fc.assert(
      fc.property(side, volumeHundredths, fc.integer({ min: 70_000, max: 95_000 }), quoteArb(5, 70_000, 95_000), fc.integer({ min: 110_000, max: 150_000 }), (s, vol, openPts, q, gbpusdPts) => {
        const open = price(openPts, 5);
        const diff = s === 'buy' ? sub(price(q.bidPts, 5), open) : sub(open, price(q.askPts, 5));
        const expected = cents(mul(mul(mul(diff, r(100_000n)), r(BigInt(vol), 100n)), price(gbpusdPts, 5)));
        const gbpusd = { bid: toNumber(gbpusdPts, 5), ask: toNumber(gbpusdPts + 10, 5) };
        const got = profitUsd(s, vol / 100, toNumber(openPts, 5), { bid: toNumber(q.bidPts, 5), ask: toNumber(q.askPts, 5) }, { contractSize: 100_000, quote: 'GBP' }, (sym) => (sym === 'GBPUSD' ? gbpusd : undefined));
        assert.ok(got);
        assert.equal(BigInt(roundToCents(got)), expected);
      }),
      { numRuns: 300 },
    );
  });

  test('CFDs (XAUUSD, contract 100; stocks, contract 1) use the same formula, never leverage', () => {
    fc.assert(
      fc.property(side, volumeHundredths, fc.constantFrom(1, 100, 5000), fc.integer({ min: 1000, max: 400_000 }), quoteArb(2, 1000, 400_000), (s, vol, contract, openPts, q) => {
        const open = price(openPts, 2);
        const diff = s === 'buy' ? sub(price(q.bidPts, 2), open) : sub(open, price(q.askPts, 2));
        const expected = cents(mul(mul(diff, r(BigInt(contract))), r(BigInt(vol), 100n)));
        const got = profitUsd(s, vol / 100, toNumber(openPts, 2), { bid: toNumber(q.bidPts, 2), ask: toNumber(q.askPts, 2) }, { contractSize: contract, quote: 'USD' }, () => undefined);
        assert.equal(BigInt(roundToCents(got!)), expected);
      }),
      { numRuns: 300 },
    );
  });
});

describe('leverage limits', () => {
  test("a position's leverage is the account's, at most the instrument's limit, else its group's; never more than the account's", () => {
    const limit = fc.option(fc.integer({ min: 1, max: 1000 }), { nil: undefined });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1000 }), limit, limit, (account, own, group) => {
        const limits: LeverageLimits = { symbols: own === undefined ? {} : { EURUSD: own }, groups: group === undefined ? {} : { Forex: group } };
        const got = positionLeverage(account, limits, { symbol: 'EURUSD', group: 'Forex' });
        const cap = own ?? group;
        assert.equal(got, cap === undefined ? account : Math.min(account, cap));
        // Another instrument of the group takes only the group's limit; one of another group, none.
        assert.equal(positionLeverage(account, limits, { symbol: 'GBPUSD', group: 'Forex' }), group === undefined ? account : Math.min(account, group));
        assert.equal(positionLeverage(account, limits, { symbol: 'XAUUSD', group: 'Metals' }), account);
      }),
    );
    assert.equal(positionLeverage(200, null, { symbol: 'EURUSD', group: 'Forex' }), 200);
  });
});

describe('margin, against exact rational arithmetic', () => {
  const leverage = fc.constantFrom(1, 10, 30, 50, 100, 200, 500);

  test('Forex: V × C / L in the base currency, converted to USD', () => {
    fc.assert(
      fc.property(volumeHundredths, leverage, fc.integer({ min: 50_000, max: 200_000 }), (vol, lev, eurusdPts) => {
        const notional = mul(r(BigInt(vol), 100n), r(100_000n));
        // Base USD (USDJPY): no conversion.
        const usdBase = marginUsd(vol / 100, 150.123, lev, { contractSize: 100_000, calcMode: 'forex', base: 'USD', quote: 'JPY' }, () => undefined);
        assert.equal(BigInt(roundToCents(usdBase!)), cents(div(notional, r(BigInt(lev)))));
        // Base EUR: at the EURUSD bid.
        const eurusd = { bid: toNumber(eurusdPts, 5), ask: toNumber(eurusdPts + 8, 5) };
        const eurBase = marginUsd(vol / 100, 0.85, lev, { contractSize: 100_000, calcMode: 'forex', base: 'EUR', quote: 'GBP' }, (s) => (s === 'EURUSD' ? eurusd : undefined));
        assert.equal(BigInt(roundToCents(eurBase!)), cents(mul(div(notional, r(BigInt(lev))), price(eurusdPts, 5))));
      }),
      { numRuns: 300 },
    );
  });

  test('CFD: V × C × open / L in the quote currency', () => {
    fc.assert(
      fc.property(volumeHundredths, leverage, fc.constantFrom(1, 100, 5000), fc.integer({ min: 100, max: 500_000 }), (vol, lev, contract, openPts) => {
        const expected = cents(div(mul(mul(r(BigInt(vol), 100n), r(BigInt(contract))), price(openPts, 2)), r(BigInt(lev))));
        const got = marginUsd(vol / 100, toNumber(openPts, 2), lev, { contractSize: contract, calcMode: 'cfd', base: 'XAU', quote: 'USD' }, () => undefined);
        assert.equal(BigInt(roundToCents(got!)), expected);
      }),
      { numRuns: 300 },
    );
  });

  test("an instrument's margin rate multiplies the margin exactly, Forex and CFD; a commission per million ignores it", () => {
    fc.assert(
      fc.property(volumeHundredths, leverage, fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 50_000, max: 200_000 }), fc.integer({ min: 100, max: 500_000 }), (vol, lev, rateTenThousandths, eurusdPts, openPts) => {
        const rate = rateTenThousandths / 10_000;
        const eurusd = { bid: toNumber(eurusdPts, 5), ask: toNumber(eurusdPts + 8, 5) };
        const forex = { contractSize: 100_000, calcMode: 'forex' as const, base: 'EUR', quote: 'GBP', marginRate: rate };
        const got = marginUsd(vol / 100, 0.85, lev, forex, (s) => (s === 'EURUSD' ? eurusd : undefined));
        const notional = mul(r(BigInt(vol), 100n), r(100_000n));
        assert.equal(BigInt(roundToCents(got!)), cents(div(mul(mul(notional, r(BigInt(rateTenThousandths), 10_000n)), price(eurusdPts, 5)), r(BigInt(lev)))));
        const cfd = marginUsd(vol / 100, toNumber(openPts, 2), lev, { contractSize: 100, calcMode: 'cfd', base: 'XAU', quote: 'USD', marginRate: rate }, () => undefined);
        assert.equal(BigInt(roundToCents(cfd!)), cents(div(mul(mul(mul(r(BigInt(vol), 100n), r(100n)), price(openPts, 2)), r(BigInt(rateTenThousandths), 10_000n)), r(BigInt(lev)))));
        const perMillion = { basis: 'million' as const, amount: 7 };
        const asIs = { ...forex, marginRate: 1 };
        assert.equal(commissionUsd(perMillion, vol / 100, 0.85, forex, (s) => (s === 'EURUSD' ? eurusd : undefined))!.toString(), commissionUsd(perMillion, vol / 100, 0.85, asIs, (s) => (s === 'EURUSD' ? eurusd : undefined))!.toString());
      }),
      { numRuns: 300 },
    );
  });

  test('a currency no quote can convert gives no figure rather than a guess', () => {
    const none: PriceLookup = () => undefined;
    assert.equal(toUsd(new Decimal(1), 'JPY', none), null);
    assert.equal(marginUsd(1, 1, 100, { contractSize: 100_000, calcMode: 'forex', base: 'EUR', quote: 'USD' }, none), null);
    assert.equal(profitUsd('buy', 1, 150, { bid: 151, ask: 151.02 }, { contractSize: 100_000, quote: 'JPY' }, none), null);
  });
});

describe('commission of a deal, against exact rational arithmetic', () => {
  // Amounts in cents: 0.01–50.00 USD per lot, or per million USD traded.
  const amountCents = fc.integer({ min: 1, max: 5_000 });

  test('per lot: amount × V, whatever the instrument or price', () => {
    fc.assert(
      fc.property(volumeHundredths, amountCents, (vol, amount) => {
        const got = commissionUsd({ basis: 'lot', amount: amount / 100 }, vol / 100, 1.2345, { contractSize: 100_000, calcMode: 'forex', base: 'EUR', quote: 'USD' }, () => undefined);
        assert.equal(BigInt(roundToCents(got!)), cents(mul(r(BigInt(amount), 100n), r(BigInt(vol), 100n))));
      }),
      { numRuns: 300 },
    );
  });

  test('per million: amount × the notional in USD / 1,000,000 — V × C in the base (Forex, at the base’s rate), V × C × price in the quote (CFD)', () => {
    fc.assert(
      fc.property(volumeHundredths, amountCents, fc.integer({ min: 50_000, max: 200_000 }), fc.integer({ min: 100, max: 500_000 }), (vol, amount, eurusdPts, goldPts) => {
        const perMillion = { basis: 'million' as const, amount: amount / 100 };
        const eurusd = { bid: toNumber(eurusdPts, 5), ask: toNumber(eurusdPts + 8, 5) };
        // EURGBP: 1 lot is 100,000 EUR, in USD at the EURUSD bid; the deal's own price does not matter.
        const forex = commissionUsd(perMillion, vol / 100, 0.85, { contractSize: 100_000, calcMode: 'forex', base: 'EUR', quote: 'GBP' }, (s) => (s === 'EURUSD' ? eurusd : undefined));
        const forexNotional = mul(mul(r(BigInt(vol), 100n), r(100_000n)), price(eurusdPts, 5));
        assert.equal(BigInt(roundToCents(forex!)), cents(div(mul(forexNotional, r(BigInt(amount), 100n)), r(1_000_000n))));
        // XAUUSD: 1 lot is 100 ounces at the deal's price.
        const cfd = commissionUsd(perMillion, vol / 100, toNumber(goldPts, 2), { contractSize: 100, calcMode: 'cfd', base: 'XAU', quote: 'USD' }, () => undefined);
        const cfdNotional = mul(mul(r(BigInt(vol), 100n), r(100n)), price(goldPts, 2));
        assert.equal(BigInt(roundToCents(cfd!)), cents(div(mul(cfdNotional, r(BigInt(amount), 100n)), r(1_000_000n))));
      }),
      { numRuns: 300 },
    );
  });

  test('per million with no rate to USD gives no figure; per lot needs none', () => {
    const gbpBase = { contractSize: 100_000, calcMode: 'forex' as const, base: 'GBP', quote: 'JPY' };
    assert.equal(commissionUsd({ basis: 'million', amount: 25 }, 1, 190, gbpBase, () => undefined), null);
    assert.equal(commissionUsd({ basis: 'lot', amount: 3.5 }, 2, 190, gbpBase, () => undefined)?.toString(), '7');
  });
});

describe('account figures and order rules', () => {
  test('equity, free margin and margin level (0 without margin)', () => {
    const a = accountFigures('1000.00', '50.00', '-125.50', '200.00');
    assert.equal(a.equity.toString(), '924.5');
    assert.equal(a.freeMargin.toString(), '724.5');
    assert.equal(a.marginLevel.toString(), '462.25');
    assert.equal(accountFigures(100, 0, 0, 0).marginLevel.toString(), '0');
  });

  test('volume limits and step', () => {
    const limits = { volumeMin: 0.01, volumeStep: 0.01, volumeMax: 100 };
    assert.equal(volumeProblem(0.01, limits), null);
    assert.equal(volumeProblem(0.07, limits), null);
    assert.equal(volumeProblem(100, limits), null);
    assert.match(volumeProblem(0.005, limits)!, /minimum/);
    assert.match(volumeProblem(100.01, limits)!, /maximum/);
    assert.match(volumeProblem(0.015, limits)!, /steps/);
    assert.match(volumeProblem(Number.NaN, limits)!, /positive/);
  });

  test('SL/TP must sit on the valid side of the price (0 means none)', () => {
    const p = { bid: 1.1, ask: 1.1002 };
    assert.equal(stopsProblem('buy', 1.09, 1.11, p), null);
    assert.equal(stopsProblem('buy', 0, 0, p), null);
    assert.match(stopsProblem('buy', 1.1005, 0, p)!, /stop loss must be below/);
    assert.match(stopsProblem('buy', 0, 1.0995, p)!, /take profit must be above/);
    assert.equal(stopsProblem('sell', 1.11, 1.09, p), null);
    assert.match(stopsProblem('sell', 1.1001, 0, p)!, /stop loss must be above/);
    assert.match(stopsProblem('sell', 0, 1.1003, p)!, /take profit must be below/);
  });

  test('triggers: a Buy closes on the bid, a Sell on the ask, at or through the level', () => {
    fc.assert(
      fc.property(fc.integer({ min: 100_000, max: 120_000 }), fc.integer({ min: 0, max: 50 }), fc.integer({ min: -500, max: 500 }), (bidPts, spread, offset) => {
        const p = { bid: toNumber(bidPts, 5), ask: toNumber(bidPts + spread, 5) };
        const level = toNumber(bidPts + offset, 5);
        assert.equal(triggeredStop('buy', level, 0, p), p.bid <= level ? 'sl' : null);
        assert.equal(triggeredStop('buy', 0, level, p), p.bid >= level ? 'tp' : null);
        assert.equal(triggeredStop('sell', level, 0, p), p.ask >= level ? 'sl' : null);
        assert.equal(triggeredStop('sell', 0, level, p), p.ask <= level ? 'tp' : null);
      }),
    );
  });
});

describe('what an order does to the account, and how figures read', () => {
  /** Cents as BigInt → '-1,234.5600', written independently of the math's own formatter. */
  const reference = (c: bigint) => {
    const neg = c < 0n;
    const abs = neg ? -c : c;
    const whole = (abs / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
    return `${neg ? '-' : ''}${whole}.${(abs % 100n).toString().padStart(2, '0')}00`;
  };

  test('an account figure is its cents (half away from zero) written with 4 decimals, thousands grouped', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }), fc.integer({ min: 2, max: 12 }), (units, scale) => {
        // A value with `scale` decimals, as the math produces (profits converted through a rate have many).
        const value = new Decimal(units.toString()).div(new Decimal(10).pow(scale));
        assert.equal(figureText(value), reference(cents(r(units, 10n ** BigInt(scale)))));
      }),
      { numRuns: 1000 },
    );
    assert.equal(figureText('10825.695'), '10,825.7000');
    assert.equal(figureText('-0.004'), '0.0000', 'no minus sign on a figure that rounds to zero');
    assert.equal(figureText(-1020), '-1,020.0000');
  });

  test('free margin after an order is the account figures with its margin and floating profit added', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e9 }), fc.integer({ min: -1e6, max: 1e6 }), fc.integer({ min: 0, max: 1e8 }), fc.integer({ min: 1, max: 1e8 }), fc.integer({ min: -1e5, max: 0 }), (balanceCents, floatingMills, marginMills, orderMarginMills, spreadMills) => {
        const account = { balance: new Decimal(balanceCents).div(100), credit: 0, floating: new Decimal(floatingMills).div(1000), margin: new Decimal(marginMills).div(1000) };
        const order = { margin: new Decimal(orderMarginMills).div(1000), floating: new Decimal(spreadMills).div(1000) };
        const after = figuresAfterOrder(account, order);
        const expected = r(BigInt(balanceCents) * 10n + BigInt(floatingMills) - BigInt(marginMills) - BigInt(orderMarginMills) + BigInt(spreadMills), 1000n);
        assert.equal(after.freeMargin.toString(), new Decimal(expected.n.toString()).div(expected.d.toString()).toString());
        // The order only takes: the free margin after is never more than before.
        assert.ok(after.freeMargin.lte(accountFigures(account.balance, 0, account.floating, account.margin).freeMargin));
      }),
      { numRuns: 500 },
    );
    assert.equal(notEnoughMarginMessage('99.0333', '-10.96557513'), 'Not enough free margin: this order needs 99.0300 USD of margin; free margin would be -10.9700 USD.');
  });

  test('the money at a stop level: a level on the stop-loss side loses, on the take-profit side gains, through the open price', () => {
    fc.assert(
      fc.property(side, volumeHundredths, fc.integer({ min: 50_000, max: 200_000 }), fc.integer({ min: -5000, max: 5000 }), (s, vol, openPts, offset) => {
        const open = toNumber(openPts, 5);
        const level = toNumber(openPts + offset, 5);
        const got = profitAtLevel(s, vol / 100, open, level, { contractSize: 100_000, quote: 'USD' }, () => undefined);
        // Each point is 1 USD per lot (100,000 × 0.00001); a Sell gains as the price falls.
        const expected = BigInt((s === 'buy' ? offset : -offset) * vol);
        assert.equal(BigInt(roundToCents(got!)), expected);
      }),
      { numRuns: 300 },
    );
  });

  test('a partial close splits the volume and every amount the position carries into two parts that add up to the whole', () => {
    const spec = { volumeMin: 0.01, volumeStep: 0.01, volumeMax: 100 };
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 10_000 }), fc.integer({ min: 1, max: 9_999 }), fc.integer({ min: -1e9, max: 1e9 }), (volHundredths, partHundredths, cents) => {
        fc.pre(partHundredths < volHundredths);
        const volume = volHundredths / 100;
        const part = partHundredths / 100;
        assert.equal(partialCloseProblem(volume, part, spec), null, `${part} of ${volume}`);
        // The lots left are exact, not a float difference (0.3 - 0.1 is 0.19999999999999998).
        assert.equal(volumeLeft(volume, part), (volHundredths - partHundredths) / 100);
        const share = partShareCents(cents, volume, part);
        assert.ok(Number.isSafeInteger(share));
        // The share is the nearest cent to the exact proportion, and it never exceeds the whole's size.
        const exact = r(BigInt(cents) * BigInt(partHundredths), BigInt(volHundredths));
        assert.ok(Math.abs(share * volHundredths - Number(exact.n)) <= volHundredths / 2 + 1e-9);
        assert.ok(Math.abs(share) <= Math.abs(cents));
        assert.equal(Math.sign(share) * Math.sign(cents) >= 0, true);
      }),
      { numRuns: 500 },
    );
  });

  test('a partial close is refused for a part that is all of it, off the step, or that leaves less than the minimum open', () => {
    const spec = { volumeMin: 0.1, volumeStep: 0.1, volumeMax: 50 };
    assert.equal(partialCloseProblem(1, 1, spec), "Volume must be less than the position's 1 lots; to close all of it, close the position.");
    assert.equal(partialCloseProblem(1, 2, spec), "Volume must be less than the position's 1 lots; to close all of it, close the position.");
    assert.equal(partialCloseProblem(1, 0, spec), 'Volume must be a positive number.');
    assert.equal(partialCloseProblem(1, Number.NaN, spec), 'Volume must be a positive number.');
    assert.equal(partialCloseProblem(1, 0.05, spec), 'The minimum volume is 0.1.');
    assert.equal(partialCloseProblem(1, 0.25, spec), 'Volume must be in steps of 0.1.');
    assert.equal(partialCloseProblem(0.15, 0.1, spec), 'The 0.05 lots left open would be below the minimum volume of 0.1.');
    assert.equal(partialCloseProblem(1, 0.9, spec), null);
    // A minimum that is not a whole number of steps (0.01, 0.03, 0.05, …): every part on the grid leaves a rest off it.
    const odd = { volumeMin: 0.01, volumeStep: 0.02, volumeMax: 50 };
    assert.equal(partialCloseProblem(0.05, 0.01, odd), 'The 0.04 lots left open would not be a volume the instrument allows (steps of 0.02 from 0.01).');
    assert.equal(partialCloseProblem(0.05, 0.03, odd), 'The 0.02 lots left open would not be a volume the instrument allows (steps of 0.02 from 0.01).');
  });
});

describe('trailing stops', () => {
  const trailingArb = fc.record({ distance: fc.integer({ min: 1, max: 500 }), activation: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 500 })), step: fc.integer({ min: 1, max: 100 }) });

  test('along any price path the stop only moves toward profit, by at least the step, to the distance from the price, never before activation, and exactly when the indexed trigger price is reached', () => {
    fc.assert(
      fc.property(side, fc.constantFrom(2, 3, 5), fc.integer({ min: 1_000, max: 200_000 }), trailingArb, fc.array(fc.record({ move: fc.integer({ min: -300, max: 300 }), spread: fc.integer({ min: 0, max: 30 }) }), { minLength: 1, maxLength: 60 }), fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 800 })), (s, digits, openPts, t, path, slOffset) => {
        assert.equal(trailingProblem(t), null);
        const open = toNumber(openPts, digits);
        // A stop set by hand at the start (or none), on its valid side of the open.
        let stopPts = slOffset === 0 ? 0 : s === 'buy' ? openPts - slOffset : openPts + slOffset;
        let bidPts = openPts;
        for (const { move, spread } of path) {
          bidPts = Math.max(1, bidPts + move);
          const askPts = bidPts + spread;
          const quote = { bid: toNumber(bidPts, digits), ask: toNumber(askPts, digits) };
          const stop = stopPts === 0 ? 0 : toNumber(stopPts, digits);
          const moved = trailedStop(s, open, stop, t, quote, digits);
          const at = trailTrigger(s, open, stop, t, digits);
          const reached = s === 'buy' ? quote.bid >= at : quote.ask <= at;
          assert.equal(moved !== null, reached, `moves exactly when the trigger price ${at} is reached (bid ${quote.bid}, ask ${quote.ask})`);
          if (moved === null) continue;
          const movedPts = Math.round(moved * 10 ** digits);
          assert.equal(moved, toNumber(movedPts, digits), 'a price at the instrument digits');
          if (s === 'buy') {
            assert.equal(movedPts, bidPts - t.distance);
            if (stopPts !== 0) assert.ok(movedPts - stopPts >= t.step, 'up by at least the step');
            if (t.activation > 0) assert.ok(bidPts - openPts >= t.activation, 'only once activated');
            assert.equal(stopsProblem('buy', moved, 0, quote), null, 'a valid stop at the price that moved it');
          } else {
            assert.equal(movedPts, askPts + t.distance);
            if (stopPts !== 0) assert.ok(stopPts - movedPts >= t.step, 'down by at least the step');
            if (t.activation > 0) assert.ok(openPts - askPts >= t.activation, 'only once activated');
            assert.equal(stopsProblem('sell', moved, 0, quote), null, 'a valid stop at the price that moved it');
          }
          stopPts = movedPts;
        }
      }),
      { numRuns: 1000 },
    );
  });

  test('a Buy trailing 20 points from 1.10000 with activation 10 and step 5: still, then follows, then holds on the way back', () => {
    const t = { distance: 20, activation: 10, step: 5 };
    const at = (bid: number, stop: number) => trailedStop('buy', 1.1, stop, t, { bid, ask: bid + 0.00002 }, 5);
    assert.equal(at(1.10009, 0), null, 'not yet 10 points in profit');
    assert.equal(at(1.1001, 0), 1.0999);
    assert.equal(at(1.10014, 1.0999), null, 'a 4-point move is under the step');
    assert.equal(at(1.10015, 1.0999), 1.09995);
    assert.equal(at(1.1, 1.09995), null, 'never back');
    assert.equal(trailTrigger('buy', 1.1, 1.09995, t, 5), 1.1002);
    assert.equal(trailTrigger('sell', 1.1, 0, t, 5), 1.0999);
    assert.equal(trailTrigger('sell', 1.1, 0, { ...t, activation: 0 }, 5), Number.POSITIVE_INFINITY);
  });

  test('settings are whole points: a distance and step of at least 1, an activation of at least 0', () => {
    assert.match(trailingProblem({ distance: 0, activation: 0, step: 1 }) ?? '', /trailing distance/);
    assert.match(trailingProblem({ distance: 1.5, activation: 0, step: 1 }) ?? '', /trailing distance/);
    assert.match(trailingProblem({ distance: 10, activation: -1, step: 1 }) ?? '', /trailing activation/);
    assert.match(trailingProblem({ distance: 10, activation: 0, step: 0 }) ?? '', /trailing step/);
    assert.match(trailingProblem({ distance: 10_000_000, activation: 0, step: 1 }) ?? '', /trailing distance/);
  });
});
