import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dayFigures } from '../src/domain/candles';
import { restartableDatabase, startApp, type TestApp } from './helpers/app';
import { Client, signedInTrader } from './helpers/client';
import { pushTicks } from './helpers/trading';

/**
 * `GET /api/platform/getMarketSummary.php`: every enabled instrument with its quote and its day
 * from the daily candles (latest D1 candle, previous D1 close, change since), over real HTTP with
 * prices pushed through the price bridge on a test clock.
 */

const at = (iso: string) => Date.parse(`${iso}Z`);

describe('GET /api/platform/getMarketSummary.php', () => {
  let t: TestApp;
  let trader: Client;

  /** Moves the clock to `iso` (UTC) and pushes one tick at that moment. */
  const tickAt = async (iso: string, symbol: string, bid: number, ask: number) => {
    t.clock.set(at(iso));
    await pushTicks(t, [{ symbol, bid, ask }]);
  };

  before(async () => {
    t = await startApp({ config: { signupRateLimitPerMinute: 1000, signinRateLimitPerMinute: 1000 } });
    trader = (await signedInTrader(t)).client;
    // Monday, Tuesday, then Wednesday (the test clock's day) for EURUSD.
    await tickAt('2026-03-02T09:00:00', 'EURUSD', 1.08, 1.0802);
    await tickAt('2026-03-02T15:00:00', 'EURUSD', 1.085, 1.0852);
    await tickAt('2026-03-03T08:00:00', 'EURUSD', 1.086, 1.0862);
    await tickAt('2026-03-03T20:00:00', 'EURUSD', 1.09, 1.0902);
    await tickAt('2026-03-04T00:30:00', 'EURUSD', 1.095, 1.0952);
    await tickAt('2026-03-04T03:00:00', 'EURUSD', 1.1, 1.1002);
    await tickAt('2026-03-04T05:00:00', 'EURUSD', 1.092, 1.0922);
    await tickAt('2026-03-04T09:00:00', 'EURUSD', 1.098, 1.0982);
    // GBPUSD only trades today.
    await tickAt('2026-03-04T09:10:00', 'GBPUSD', 1.27, 1.2702);
    t.clock.set(at('2026-03-04T10:00:00'));
  });
  after(() => t.close());

  const summary = async () => {
    const r = await trader.get('/platform/getMarketSummary.php');
    assert.equal(r.status, 200);
    assert.equal(r.body.status, 'success');
    return r.body.data as Record<string, unknown>[];
  };
  const row = async (symbol: string) => (await summary()).find((r) => r.symbol === symbol)!;

  test('lists every enabled instrument in catalogue order with the documented fields', async () => {
    const data = await summary();
    const symbols = (await trader.get('/platform/getMainCurrencies.php')).body.data.map((s: { Symbol: string }) => s.Symbol);
    assert.deepEqual(data.map((r) => r.symbol), symbols);
    for (const r of data) {
      assert.deepEqual(Object.keys(r).sort(), ['ask', 'bid', 'change', 'changePct', 'dayHigh', 'dayLow', 'dayOpen', 'description', 'digits', 'group', 'open', 'prevClose', 'stale', 'symbol', 'time'].sort());
    }
  });

  test("the day's open, high and low come from the latest daily candle; change is against the previous day's close", async () => {
    assert.deepEqual(await row('EURUSD'), {
      symbol: 'EURUSD',
      group: 'Forex',
      description: (await row('EURUSD')).description,
      digits: 5,
      bid: 1.098,
      ask: 1.0982,
      time: at('2026-03-04T09:00:00'),
      open: true,
      stale: true, // no tick for an hour
      dayOpen: 1.095,
      dayHigh: 1.1,
      dayLow: 1.092,
      prevClose: 1.09,
      change: 0.008,
      changePct: 0.73,
    });
  });

  test('the same figures after the candles are written to the database (one query for all symbols)', async () => {
    await t.app.market.candles.flush();
    const eurusd = await row('EURUSD');
    assert.deepEqual([eurusd.dayOpen, eurusd.dayHigh, eurusd.dayLow, eurusd.prevClose, eurusd.change, eurusd.changePct], [1.095, 1.1, 1.092, 1.09, 0.008, 0.73]);
  });

  test('a symbol with only today has no previous close and no change; one without ticks is all null', async () => {
    const gbp = await row('GBPUSD');
    assert.deepEqual([gbp.bid, gbp.dayOpen, gbp.dayHigh, gbp.dayLow, gbp.prevClose, gbp.change, gbp.changePct], [1.27, 1.27, 1.27, 1.27, null, null, null]);
    const none = await row('EURAUD');
    assert.deepEqual([none.bid, none.ask, none.time, none.dayOpen, none.dayHigh, none.dayLow, none.prevClose, none.change, none.changePct], [null, null, null, null, null, null, null, null, null]);
  });

  test('a new tick moves the day and the change at once, falls included, at the instrument digits', async () => {
    t.clock.set(at('2026-03-04T10:00:00'));
    await pushTicks(t, [{ symbol: 'EURUSD', bid: 1.0801, ask: 1.0803 }]);
    const r = await row('EURUSD');
    assert.deepEqual([r.dayLow, r.change, r.changePct, r.stale], [1.0801, -0.0099, -0.91, false]);
  });

  test('after a weekend the previous close is the last trading day before the latest', async () => {
    // USDJPY: Friday, then (a fresh week) Monday — the latest candle is Monday, the previous Friday.
    const u = await startApp();
    try {
      const c = (await signedInTrader(u)).client;
      u.clock.set(at('2026-02-27T18:00:00'));
      await pushTicks(u, [{ symbol: 'USDJPY', bid: 150.123, ask: 150.135 }]);
      u.clock.set(at('2026-03-02T01:00:00'));
      await pushTicks(u, [{ symbol: 'USDJPY', bid: 150.456, ask: 150.468 }]);
      await u.app.market.candles.flush();
      u.clock.set(at('2026-03-02T02:00:00'));
      const r = (await c.get('/platform/getMarketSummary.php')).body.data.find((x: { symbol: string }) => x.symbol === 'USDJPY');
      assert.deepEqual([r.prevClose, r.dayOpen, r.change, r.changePct], [150.123, 150.456, 0.333, 0.22]);
    } finally {
      await u.close();
    }
  });

  test('after a restart the day figures are the same: the stored latest and previous daily candles are read back', async () => {
    const target = await restartableDatabase();
    const figures = async (u: TestApp) => {
      const c = (await signedInTrader(u)).client;
      const r = (await c.get('/platform/getMarketSummary.php')).body.data.find((x: { symbol: string }) => x.symbol === 'EURUSD');
      return [r.dayOpen, r.dayHigh, r.dayLow, r.prevClose];
    };
    try {
      const first = await startApp({ config: { databaseUrl: target.url } });
      first.clock.set(at('2026-03-03T12:00:00'));
      await pushTicks(first, [{ symbol: 'EURUSD', bid: 1.09, ask: 1.0902 }]);
      first.clock.set(at('2026-03-04T08:00:00'));
      await pushTicks(first, [{ symbol: 'EURUSD', bid: 1.095, ask: 1.0952 }]);
      first.clock.set(at('2026-03-04T09:00:00'));
      await pushTicks(first, [{ symbol: 'EURUSD', bid: 1.1, ask: 1.1002 }]);
      const before = await figures(first);
      assert.deepEqual(before, [1.095, 1.1, 1.095, 1.09]);
      await first.close();
      const second = await startApp({ config: { databaseUrl: target.url } });
      try {
        second.clock.set(at('2026-03-04T10:00:00'));
        assert.deepEqual(await figures(second), before);
      } finally {
        await second.close();
      }
    } finally {
      await target.drop();
    }
  });

  test('history imported while the server runs shows in the day figures at once, behind the day still forming', async () => {
    const u = await startApp();
    try {
      const c = (await signedInTrader(u)).client;
      u.clock.set(at('2026-03-04T09:00:00'));
      await pushTicks(u, [{ symbol: 'USDCHF', bid: 0.9, ask: 0.9002 }]);
      const day = (time: string, close: number) => ({ symbol: 'USDCHF', period: 'D1', time: at(time), open: close, high: close, low: close, close, volume: 1 });
      await u.app.market.candles.importHistory([day('2026-03-02T00:00:00', 0.88), day('2026-03-03T00:00:00', 0.89)]);
      const r = (await c.get('/platform/getMarketSummary.php')).body.data.find((x: { symbol: string }) => x.symbol === 'USDCHF');
      assert.deepEqual([r.dayOpen, r.prevClose, r.change], [0.9, 0.89, 0.01]);
    } finally {
      await u.close();
    }
  });

  test('needs a session', async () => {
    const r = await new Client(t).get('/platform/getMarketSummary.php');
    assert.equal(r.status, 401);
    assert.equal(r.body.status, 'Failure');
  });
});

describe('dayFigures', () => {
  const candle = (open: number, high: number, low: number, close: number) => ({ time: 0, open, high, low, close, volume: 1 });

  test('change and percentage round at the digits and at 2 decimals, symmetric for falls', () => {
    assert.deepEqual(dayFigures(candle(1, 1.2, 0.9, 1.1), candle(1, 1, 1, 1.1), 1.10005, 5), { dayOpen: 1, dayHigh: 1.2, dayLow: 0.9, prevClose: 1.1, change: 0.00005, changePct: 0 });
    assert.equal(dayFigures(null, candle(1, 1, 1, 2), 1.99, 2).change, -0.01);
    assert.equal(dayFigures(null, candle(1, 1, 1, 200), 197, 0).changePct, -1.5);
    assert.equal(dayFigures(null, candle(1, 1, 1, 200), 203, 0).changePct, 1.5);
  });

  test("without a bid the day's close stands in; without data everything is null", () => {
    assert.equal(dayFigures(candle(1, 1, 1, 1.5), candle(1, 1, 1, 1), null, 2).change, 0.5);
    assert.deepEqual(dayFigures(null, null, null, 5), { dayOpen: null, dayHigh: null, dayLow: null, prevClose: null, change: null, changePct: null });
    assert.equal(dayFigures(null, candle(0, 0, 0, 0), 1, 2).changePct, null);
  });
});
