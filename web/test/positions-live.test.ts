import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { SymbolRecord } from '@tradeport/contracts';
import { csvField, csvTime, toCsv } from '@tradeport/contracts/csv';
import { closeGroup, dateRangeMs, distancePoints, liveAccount, positionProfit, priceLookup, profitText, symbolsNeeded, underMarginCall } from '../src/terminal/positions-live';

const record = (Symbol: string, baseCurrency: string, quoteCurrency: string, digits: number, contractSize = 100_000, calcMode: 'forex' | 'cfd' = 'forex'): SymbolRecord => ({
  ID: 1,
  Symbol,
  CurrencyType: calcMode === 'forex' ? 'Forex' : 'Metals',
  description: Symbol,
  baseCurrency,
  quoteCurrency,
  digits,
  contractSize,
  volumeMin: 0.01,
  volumeStep: 0.01,
  volumeMax: 100,
  marginRate: 1,
  calcMode,
  sessions: [],
  swapLong: 0,
  swapShort: 0,
});

const EURUSD = record('EURUSD', 'EUR', 'USD', 5);
const USDJPY = record('USDJPY', 'USD', 'JPY', 3);
const EURGBP = record('EURGBP', 'EUR', 'GBP', 5);
const GBPUSD = record('GBPUSD', 'GBP', 'USD', 5);
const XAUUSD = record('XAUUSD', 'XAU', 'USD', 2, 100, 'cfd');
const known = new Map([EURUSD, USDJPY, EURGBP, GBPUSD, XAUUSD].map((r) => [r.Symbol, r]));

type Book = Record<string, { bid: number | null; ask: number | null }>;
const lookup = (book: Book) => priceLookup((s) => book[s]);
const trade = (over: Partial<{ ticket: number; symbol: string; type: 'Buy' | 'Sell'; volume: number; orginalPrice: number; swap: string; profit: string | null }> = {}) => ({
  ticket: 1,
  symbol: 'EURUSD',
  type: 'Buy' as const,
  volume: 1,
  orginalPrice: 1.1002,
  swap: '0.00',
  profit: null,
  ...over,
});

describe('live profit and account figures (the engine math at streamed prices)', () => {
  it('values a Buy at the bid and a Sell at the ask, in USD', () => {
    const prices = lookup({ EURUSD: { bid: 1.1012, ask: 1.1014 } });
    assert.equal(positionProfit(trade(), EURUSD, prices)?.toFixed(2), '100.00');
    assert.equal(positionProfit(trade({ type: 'Sell', orginalPrice: 1.1 }), EURUSD, prices)?.toFixed(2), '-140.00');
  });

  it("converts a JPY profit at USDJPY's bid, and needs GBPUSD for EURGBP", () => {
    // Sell 1 lot USDJPY at 151.200, ask now 151.000: 0.2 × 100,000 = 20,000 JPY = 20,000 / 150.980 USD.
    const prices = lookup({ USDJPY: { bid: 150.98, ask: 151 } });
    assert.equal(positionProfit(trade({ symbol: 'USDJPY', type: 'Sell', orginalPrice: 151.2 }), USDJPY, prices)?.toFixed(2), '132.47');
    assert.deepEqual(symbolsNeeded(EURGBP, known), ['EURGBP', 'GBPUSD']);
    assert.deepEqual(symbolsNeeded(EURGBP, known, true), ['EURGBP', 'GBPUSD', 'EURUSD']);
    assert.equal(positionProfit(trade({ symbol: 'EURGBP', orginalPrice: 0.85 }), EURGBP, lookup({ EURGBP: { bid: 0.851, ask: 0.8512 } })), null, 'no GBPUSD: no figure');
  });

  it("shows the server's last profit when the stream has no usable quote", () => {
    assert.equal(profitText(trade({ profit: '-20.00' }), EURUSD, lookup({ EURUSD: { bid: null, ask: null } })), '-20.00');
    assert.equal(profitText(trade({ profit: '-20.00' }), EURUSD, lookup({ EURUSD: { bid: 1.1, ask: 1.1002 } })), '-20.00');
    assert.equal(profitText(trade({ profit: '-20.00' }), EURUSD, lookup({ EURUSD: { bid: 1.10005, ask: 1.10025 } })), '-15.00');
  });

  it("gives the server's own getMargins figures (server/test/trading.test.ts) for a 1 lot EURUSD Buy", () => {
    const figures = liveAccount({ balance: '10000.00', credit: '0.00' }, [trade()], known, 100, lookup({ EURUSD: { bid: 1.1012, ask: 1.1014 } }));
    assert.deepEqual(figures, { balance: '10000.00', credit: '0.00', equity: '10100.00', margin: '1101.20', freeMargin: '8998.80', marginLevel: '917.18' });
    const atOpen = liveAccount({ balance: '10000.00', credit: '0.00' }, [trade()], known, 100, lookup({ EURUSD: { bid: 1.1, ask: 1.1002 } }));
    assert.deepEqual(atOpen, { balance: '10000.00', credit: '0.00', equity: '9980.00', margin: '1100.00', freeMargin: '8880.00', marginLevel: '907.27' });
  });

  it('adds swap and credit to equity, values a CFD margin at its open price, and says 0.00 without margin', () => {
    const prices = lookup({ XAUUSD: { bid: 2001, ask: 2001.5 } });
    // 1 lot gold opened at 2000.00: margin 1 × 100 × 2000 / 100 = 2000.00; profit (2001 − 2000) × 100 = 100.00; swap −7.20.
    const f = liveAccount({ balance: '5000.00', credit: '50.00' }, [trade({ symbol: 'XAUUSD', orginalPrice: 2000, swap: '-7.20' })], known, 100, prices);
    assert.deepEqual(f, { balance: '5000.00', credit: '50.00', equity: '5142.80', margin: '2000.00', freeMargin: '3142.80', marginLevel: '257.14' });
    assert.deepEqual(liveAccount({ balance: '10.00', credit: '0.00' }, [], known, 100, prices), { balance: '10.00', credit: '0.00', equity: '10.00', margin: '0.00', freeMargin: '10.00', marginLevel: '0.00' });
  });

  it("margins each position at the account's leverage, at most its type's limit on the instrument, else its group's (as the engine does)", () => {
    const prices = lookup({ EURUSD: { bid: 1.1, ask: 1.1002 }, XAUUSD: { bid: 2001, ask: 2001.5 } });
    const held = [trade(), trade({ ticket: 2, symbol: 'XAUUSD', orginalPrice: 2000, swap: '0.00' })];
    // At 1:100: 1,100.00 + 2,000.00.
    assert.equal(liveAccount({ balance: '10000.00', credit: '0.00' }, held, known, 100, prices)?.margin, '3100.00');
    // EURUSD at its own 1:50 (2,200.00); gold at the Metals limit of 1:20 (10,000.00).
    assert.equal(liveAccount({ balance: '100000.00', credit: '0.00' }, held, known, 100, prices, { symbols: { EURUSD: 50 }, groups: { Metals: 20, Forex: 10 } })?.margin, '12200.00');
    // A limit above the account's leverage changes nothing.
    assert.equal(liveAccount({ balance: '10000.00', credit: '0.00' }, held, known, 100, prices, { symbols: {}, groups: { Forex: 500 } })?.margin, '3100.00');
  });

  it('gives up (null) when any position cannot be valued, so the server figures are shown instead', () => {
    assert.equal(liveAccount({ balance: '10000.00', credit: '0.00' }, [trade(), trade({ ticket: 2, symbol: 'USDJPY', orginalPrice: 151 })], known, 100, lookup({ EURUSD: { bid: 1.1, ask: 1.1002 } })), null);
  });

  it('shows the margin-call banner only with margin held and the level at or under the margin-call level', () => {
    assert.equal(underMarginCall('89.91', '109.00', 100), true);
    assert.equal(underMarginCall('100.00', '109.00', 100), true);
    assert.equal(underMarginCall('100.01', '109.00', 100), false);
    assert.equal(underMarginCall('0.00', '0.00', 100), false, 'no positions: level 0.00 is not a margin call');
    assert.equal(underMarginCall('50.00', '10.00', undefined), false, 'level unknown until the config arrives');
  });
});

describe('close all / profitable / losing', () => {
  const rows = [trade({ ticket: 1, profit: '80.00' }), trade({ ticket: 2, profit: '-120.00' }), trade({ ticket: 3, profit: '5.00', swap: '-7.20' }), trade({ ticket: 4, profit: null }), trade({ ticket: 5, profit: '0.00' })];
  const profitOf = (t: { profit: string | null }) => t.profit;

  it('picks by profit plus swap and totals what it picked', () => {
    assert.deepEqual(closeGroup(rows, 'profitable', profitOf), { tickets: [1], total: '80.00' });
    assert.deepEqual(closeGroup(rows, 'losing', profitOf), { tickets: [2, 3], total: '-122.20' });
    assert.deepEqual(closeGroup(rows, 'all', profitOf), { tickets: [1, 2, 3, 4, 5], total: '-42.20' });
  });

  it('property: profitable and losing are disjoint parts of all, and their totals add up to the total of all', () => {
    const cents = fc.integer({ min: -10_000_000, max: 10_000_000 }).map((c) => (c / 100).toFixed(2));
    fc.assert(
      fc.property(fc.array(fc.record({ profit: fc.option(cents, { nil: null }), swap: cents }), { maxLength: 30 }), (list) => {
        const ts = list.map((t, i) => ({ ...t, ticket: i + 1 }));
        const all = closeGroup(ts, 'all', profitOf);
        const up = closeGroup(ts, 'profitable', profitOf);
        const down = closeGroup(ts, 'losing', profitOf);
        assert.equal(up.tickets.filter((t) => down.tickets.includes(t)).length, 0);
        assert.ok([...up.tickets, ...down.tickets].every((t) => all.tickets.includes(t)));
        assert.equal(all.tickets.length, ts.length);
        assert.equal(Math.round(Number(up.total) * 100) + Math.round(Number(down.total) * 100), Math.round(Number(all.total) * 100));
      }),
    );
  });
});

describe("a pending order's distance from the market", () => {
  it('measures from the ask for Buy orders and the bid for Sell orders, in whole points', () => {
    const q = { bid: 1.1, ask: 1.1002 };
    assert.equal(distancePoints({ orderType: 'buy_limit', price: 1.099, stopLimitPrice: 0, stopTriggered: false }, q, 5), 120);
    assert.equal(distancePoints({ orderType: 'sell_stop', price: 1.095, stopLimitPrice: 0, stopTriggered: false }, q, 5), 500);
    assert.equal(distancePoints({ orderType: 'sell_limit', price: 1.1003, stopLimitPrice: 0, stopTriggered: false }, q, 5), 30);
    assert.equal(distancePoints({ orderType: 'buy_limit', price: 1.099, stopLimitPrice: 0, stopTriggered: false }, undefined, 5), null);
  });

  it("watches a stop-limit's stop first, then its limit once the stop was reached", () => {
    const q = { bid: 1.1, ask: 1.1002 };
    const order = { orderType: 'buy_stop_limit' as const, price: 1.101, stopLimitPrice: 1.1005, stopTriggered: false };
    assert.equal(distancePoints(order, q, 5), 80);
    assert.equal(distancePoints({ ...order, stopTriggered: true }, q, 5), 30);
  });
});

describe('History date range and CSV', () => {
  it("turns the date fields into from (inclusive) and to (the next midnight, exclusive), in the trader's time zone", () => {
    assert.deepEqual(dateRangeMs('', ''), { ok: true, from: undefined, to: undefined });
    assert.deepEqual(dateRangeMs('2026-11-25', '2026-11-25'), { ok: true, from: new Date(2026, 10, 25).getTime(), to: new Date(2026, 10, 26).getTime() });
    assert.deepEqual(dateRangeMs('', '2026-01-31'), { ok: true, from: undefined, to: new Date(2026, 1, 1).getTime() });
    assert.equal(dateRangeMs('2026-11-26', '2026-11-25').ok, false);
    assert.equal(dateRangeMs('25/11/2026', '').ok, false);
  });

  it('quotes fields with commas, quotes or line breaks and defuses spreadsheet formulas, keeping negative numbers', () => {
    assert.equal(csvField('plain'), 'plain');
    assert.equal(csvField('first, "quoted"'), '"first, ""quoted"""');
    assert.equal(csvField('=HYPERLINK("x")'), `"'=HYPERLINK(""x"")"`);
    assert.equal(csvField('-12.50'), '-12.50');
    assert.equal(csvField('@SUM(A1)'), "'@SUM(A1)");
    assert.equal(csvField(null), '');
    assert.equal(toCsv(['a', 'b'], [[1, 'x,y']]), 'a,b\r\n1,"x,y"\r\n');
  });

  it('writes times as a spreadsheet reads them, in UTC, from the wire’s ISO text or epoch milliseconds', () => {
    assert.equal(csvTime('2026-11-29T01:12:11.345Z'), '2026-11-29 01:12:11');
    assert.equal(csvTime(Date.UTC(2026, 10, 29, 1, 12, 11)), '2026-11-29 01:12:11');
    assert.equal(csvTime(null), '');
    assert.equal(csvTime(''), '');
    assert.equal(csvTime('not a time'), '');
  });

  it('property: every field reads back as written (RFC 4180), whatever it holds', () => {
    const parse = (line: string): string[] => {
      const out: string[] = [];
      let i = 0;
      for (;;) {
        let field = '';
        if (line[i] === '"') {
          i += 1;
          for (;;) {
            if (line[i] === '"' && line[i + 1] === '"') {
              field += '"';
              i += 2;
            } else if (line[i] === '"') {
              i += 1;
              break;
            } else field += line[i++];
          }
        } else while (i < line.length && line[i] !== ',') field += line[i++];
        out.push(field);
        if (i >= line.length) return out;
        i += 1;
      }
    };
    fc.assert(
      fc.property(fc.array(fc.string().filter((s) => !/^[=+\-@\t\r]/.test(s)), { minLength: 1, maxLength: 6 }), (fields) => {
        const text = toCsv(fields, []);
        assert.deepEqual(parse(text.slice(0, -2)), fields);
      }),
    );
  });
});
