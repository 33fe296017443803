import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Decimal from 'decimal.js';
import fc from 'fast-check';
import type { Instrument } from '../src/domain/instruments';
import { accountFigures, marginUsd, profitUsd, type Prices, type Side } from '@tradeport/trading-math';
import { clearlyAbove, screenAccount, SCREEN_BAND, SweepPrices, UsdRates, type ScreenedPosition } from '../src/trading/margin-screen';

/**
 * The margin sweep's float screen against the exact decimal figures the engine decides with: the
 * screened level agrees with the exact one to well within the band the sweep leaves, so an account
 * at or below the margin-call level is never screened out.
 */

const inst = (symbol: string, base: string, quote: string, contractSize: number, calcMode: 'forex' | 'cfd', digits: number, marginRate = 1): Instrument =>
  ({ symbol, base, quote, contractSize, calcMode, digits, marginRate }) as Instrument;

const INSTRUMENTS = new Map<string, Instrument>(
  [
    inst('EURUSD', 'EUR', 'USD', 100_000, 'forex', 5),
    inst('USDJPY', 'USD', 'JPY', 100_000, 'forex', 3),
    // Margin rates other than 1, on a Forex cross and a CFD (docs/design.md#margin).
    inst('EURGBP', 'EUR', 'GBP', 100_000, 'forex', 5, 1.25),
    inst('GBPUSD', 'GBP', 'USD', 100_000, 'forex', 5),
    inst('XAUUSD', 'XAU', 'USD', 100, 'cfd', 2),
    inst('AAPL', 'AAPL', 'USD', 1, 'cfd', 2),
    inst('DAX40', 'DAX', 'EUR', 1, 'cfd', 1, 0.5),
  ].map((i) => [i.symbol, i]),
);

const round = (x: number, digits: number) => Number(x.toFixed(digits));

/** A market: a mid price per symbol and a spread in points. */
const marketArb = fc
  .record({
    EURUSD: fc.double({ min: 0.8, max: 1.6, noNaN: true }),
    USDJPY: fc.double({ min: 90, max: 180, noNaN: true }),
    EURGBP: fc.double({ min: 0.7, max: 0.95, noNaN: true }),
    GBPUSD: fc.double({ min: 1.0, max: 1.6, noNaN: true }),
    XAUUSD: fc.double({ min: 1500, max: 3500, noNaN: true }),
    AAPL: fc.double({ min: 50, max: 400, noNaN: true }),
    DAX40: fc.double({ min: 10_000, max: 25_000, noNaN: true }),
  })
  .map((mids) => {
    const book = new Map<string, Prices>();
    for (const [symbol, mid] of Object.entries(mids)) {
      const d = INSTRUMENTS.get(symbol)?.digits ?? 5;
      const bid = round(mid, d);
      book.set(symbol, { bid, ask: round(bid + 20 * 10 ** -d, d) });
    }
    return book;
  });

const positionArb = fc
  .record({
    symbol: fc.constantFrom(...INSTRUMENTS.keys()),
    side: fc.constantFrom<Side>('buy', 'sell'),
    volume: fc.integer({ min: 1, max: 500 }).map((v) => v / 100),
    move: fc.double({ min: -0.1, max: 0.1, noNaN: true }),
    swapCents: fc.integer({ min: -50_000, max: 5_000 }),
  })
  .map(({ symbol, side, volume, move, swapCents }) => ({ symbol, side, volume, move, swapCents }));

/** The exact margin level (decimal.js), as `AccountFigures.figures` (trading/account-figures.ts) computes it. */
function exactLevel(balanceCents: number, creditCents: number, leverage: number, positions: ScreenedPosition[], book: Map<string, Prices>): Decimal | null {
  const lookup = (s: string) => book.get(s);
  let floating = new Decimal(0);
  let margin = new Decimal(0);
  for (const p of positions) {
    const i = INSTRUMENTS.get(p.symbol) as Instrument;
    const q = book.get(p.symbol) as Prices;
    floating = floating.plus(profitUsd(p.side, p.volume, p.openPrice, q, i, lookup) ?? 0).plus(new Decimal(p.swapCents).div(100));
    margin = margin.plus(marginUsd(p.volume, p.openPrice, leverage, i, lookup) ?? 0);
  }
  if (margin.isZero()) return null;
  return accountFigures(new Decimal(balanceCents).div(100), new Decimal(creditCents).div(100), floating, margin).marginLevel;
}

describe('margin screen', () => {
  test('the float level equals the exact decimal level to 1e-9 (relative) over random books, currencies and calculation modes', () => {
    fc.assert(
      fc.property(
        marketArb,
        fc.array(positionArb, { minLength: 1, maxLength: 25 }),
        fc.integer({ min: 0, max: 100_000_000 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.constantFrom(1, 10, 30, 100, 500),
        (book, raw, balanceCents, creditCents, leverage) => {
          const positions: ScreenedPosition[] = raw.map((p) => {
            const d = (INSTRUMENTS.get(p.symbol) as Instrument).digits;
            return { symbol: p.symbol, side: p.side, volume: p.volume, openPrice: round((book.get(p.symbol) as Prices).bid * (1 + p.move), d), swapCents: p.swapCents };
          });
          const exact = exactLevel(balanceCents, creditCents, leverage, positions, book);
          const screened = screenAccount({ balanceCents, creditCents, leverage }, positions, new SweepPrices((s) => INSTRUMENTS.get(s), (s) => book.get(s)));
          assert.ok(exact);
          assert.equal(screened.kind, 'level');
          if (screened.kind !== 'level') return;
          const error = Math.abs(screened.level - exact.toNumber());
          assert.ok(error <= 1e-9 * Math.max(1, Math.abs(exact.toNumber())), `screen ${screened.level} vs exact ${exact.toString()}`);
          // The consequence the sweep relies on: an account at or below the margin-call level is never skipped.
          for (const callLevel of [50, 100, 150]) {
            if (exact.lte(callLevel)) assert.equal(clearlyAbove(screened, callLevel), false);
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  test('an account within the band above the margin-call level is checked exactly; one clearly above is not', () => {
    const level = (l: number) => ({ kind: 'level', level: l }) as const;
    assert.equal(clearlyAbove(level(100), 100), false);
    assert.equal(clearlyAbove(level(100 * (1 + SCREEN_BAND)), 100), false);
    assert.equal(clearlyAbove(level(100 * (1 + SCREEN_BAND) + 0.01), 100), true);
    assert.equal(clearlyAbove(level(-40), 100), false, 'negative equity');
    assert.equal(clearlyAbove({ kind: 'no-margin' }, 100), true);
    assert.equal(clearlyAbove({ kind: 'unknown' }, 100), false);
  });

  test('a position without a quote, or a currency without a USD rate, cannot be screened', () => {
    const positions: ScreenedPosition[] = [{ symbol: 'EURGBP', side: 'buy', volume: 1, openPrice: 0.85, swapCents: 0 }];
    const account = { balanceCents: 1_000_000, creditCents: 0, leverage: 100 };
    const noGbp = new Map<string, Prices>([['EURGBP', { bid: 0.85, ask: 0.8502 }], ['EURUSD', { bid: 1.1, ask: 1.1002 }]]);
    assert.deepEqual(screenAccount(account, positions, new SweepPrices((s) => INSTRUMENTS.get(s), (s) => noGbp.get(s))), { kind: 'unknown' });
    const noQuote = new Map<string, Prices>([['GBPUSD', { bid: 1.25, ask: 1.2502 }], ['EURUSD', { bid: 1.1, ask: 1.1002 }]]);
    assert.deepEqual(screenAccount(account, positions, new SweepPrices((s) => INSTRUMENTS.get(s), (s) => noQuote.get(s))), { kind: 'unknown' });
    assert.deepEqual(screenAccount(account, [], new SweepPrices((s) => INSTRUMENTS.get(s), () => undefined)), { kind: 'no-margin' });
  });

  test('USD rates: XXXUSD at its bid, USDXXX inverted, memoised for the sweep', () => {
    let lookups = 0;
    const book = new Map<string, Prices>([['GBPUSD', { bid: 1.25, ask: 1.2502 }], ['USDJPY', { bid: 160, ask: 160.02 }]]);
    const rates = new UsdRates((s) => {
      lookups += 1;
      return book.get(s);
    });
    assert.equal(rates.rate('USD'), 1);
    assert.equal(rates.rate('GBP'), 1.25);
    assert.equal(rates.rate('JPY'), 1 / 160);
    assert.equal(rates.rate('CHF'), null);
    const after = lookups;
    rates.rate('GBP');
    rates.rate('JPY');
    rates.rate('CHF');
    assert.equal(lookups, after, 'no second lookup');
  });
});
