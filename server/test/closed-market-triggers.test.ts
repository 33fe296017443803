import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { calls, type AccountEvent } from '@tradeport/contracts';
import { findLedgerMismatches } from '../src/services/ledger';
import { liveAccountOf } from './helpers/accounts';
import { startApp, type StartOptions, type TestApp } from './helpers/app';
import { eventually, history, openPosition, openTrades, pushTicks, recordEvents, roomyLimits, tradingDesk, type TradingDesk } from './helpers/trading';

/**
 * Stop-outs, SL/TP and pending fills with real trading sessions (issue 10): nothing executes in a
 * closed market or on a stale quote; triggers wait for the first tradable tick after the open, and a
 * stop-out closes the largest loser among the positions that can be closed now.
 */

const at = (iso: string) => Date.parse(iso);
/** Wednesday 4 March 2026 (New York on EST): US stocks trade 14:30-21:00 UTC, Forex all day. */
const WED_STOCKS_OPEN = at('2026-03-04T15:00:00Z');
const WED_STOCKS_CLOSED = at('2026-03-04T21:30:00Z');
const THU_STOCKS_OPEN = at('2026-03-05T14:31:00Z');

const options = {
  config: { ...roomyLimits, trading: { marginCallLevel: 100, stopOutLevel: 50, marginCheckMs: 3_600_000, rollover: { zone: 'America/New_York', minuteOfDay: 17 * 60 } } },
  market: { sessions: 'real' as const, staleAfterMs: 30_000 },
};

/** A server whose clock starts at `start`, with its trading desk (the admin signed in at that time). */
async function withDeskAt(start: number, opts: StartOptions, bank: string, run: (t: TestApp, desk: TradingDesk) => Promise<void>): Promise<void> {
  const t = await startApp(opts);
  try {
    t.clock.set(start);
    await run(t, await tradingDesk(t, bank));
  } finally {
    await t.close();
  }
}

const flush = () => new Promise((resolve) => setImmediate(resolve));
const sweep = async (t: TestApp) => {
  await t.app.trading.marginSweep();
  await flush();
};

describe('execution only in session, at a fresh price', () => {
  test('a stop-out closes the largest loser that can be closed now, not a position whose market is closed, and says what it could not close', () =>
    withDeskAt(WED_STOCKS_OPEN, options, 'Stop-out bank', async (t, desk) => {
      const { client, id } = await desk.fundedTrader('2000.00', { remember: true });
      await pushTicks(t, [
        { symbol: 'AAPL', bid: 200, ask: 200 },
        { symbol: 'EURUSD', bid: 1.1, ask: 1.1002 },
      ]);
      const aapl = await openPosition(client, { symbol: 'AAPL', side: 'buy', volume: 10 }); // margin 20
      const eurusd = await openPosition(client, { symbol: 'EURUSD', side: 'buy', volume: 1 }); // margin 1100
      // AAPL falls to 120 while its market is open: −800, the largest loss.
      await pushTicks(t, [{ symbol: 'AAPL', bid: 120, ask: 120.02 }]);
      await sweep(t);
      assert.equal((await openTrades(client)).length, 2);

      // After the stock market's close, EURUSD falls: −720. Equity 2000 − 800 − 720 = 480 on
      // margin 1120: 42.9%, below the 50% stop-out.
      t.clock.set(WED_STOCKS_CLOSED);
      const rec = recordEvents(t, id);
      try {
        await pushTicks(t, [{ symbol: 'EURUSD', bid: 1.093, ask: 1.0932 }]);
        await sweep(t);
        // EURUSD (the only one that can be closed) is closed; AAPL stays open at its closed-session price.
        assert.deepEqual((await openTrades(client)).map((r) => r.ticket), [aapl]);
        const closed = (await history(client)).map((h) => [h.ID, h.closeReason]);
        assert.deepEqual(closed, [[eurusd, 'stop-out']]);
        const stopOuts = rec.events.filter((e): e is Extract<AccountEvent, { type: 'account.stopOut' }> => e.type === 'account.stopOut');
        assert.equal(stopOuts.length, 1, JSON.stringify(rec.events));
        assert.equal(stopOuts[0]!.ticket, eurusd);
        assert.deepEqual(stopOuts[0]!.notClosable, [{ ticket: aapl, symbol: 'AAPL', reason: 'market-closed' }]);
        assert.deepEqual(await findLedgerMismatches(t.ctx.db), []);
      } finally {
        rec.stop();
      }
    }));

  test('a stop-out that can close nothing says so once, and closes at the first tradable tick after the open', () =>
    withDeskAt(WED_STOCKS_OPEN, options, 'Blocked bank', async (t, desk) => {
      const { client, id } = await desk.fundedTrader('1000.00', { remember: true });
      await pushTicks(t, [{ symbol: 'AAPL', bid: 200, ask: 200 }]);
      const aapl = await openPosition(client, { symbol: 'AAPL', side: 'buy', volume: 40 }); // margin 80
      t.clock.set(WED_STOCKS_CLOSED);
      const rec = recordEvents(t, id);
      try {
        // A bridge pushes AAPL while its market is closed: the level falls (the quote is in the
        // book), but the position cannot be closed at a price from outside the session.
        await pushTicks(t, [{ symbol: 'AAPL', bid: 176, ask: 176.02 }]); // −960: equity 40, 50%
        await sweep(t);
        await pushTicks(t, [{ symbol: 'AAPL', bid: 175.9, ask: 175.92 }]);
        await sweep(t);
        assert.deepEqual((await openTrades(client)).map((r) => r.ticket), [aapl]);
        const blocked = rec.events.filter((e) => e.type === 'account.stopOut');
        const accountId = (await liveAccountOf(t.ctx.db, id)).id;
        assert.deepEqual(blocked, [{ type: 'account.stopOut', userId: id, accountId, marginLevel: '50.00', ticket: null, notClosable: [{ ticket: aapl, symbol: 'AAPL', reason: 'market-closed' }] }]);

        t.clock.set(THU_STOCKS_OPEN);
        await pushTicks(t, [{ symbol: 'AAPL', bid: 175, ask: 175.02 }]);
        await sweep(t);
        assert.deepEqual(await openTrades(client), []);
        const [row] = await history(client);
        assert.deepEqual([row?.ID, row?.closeReason, row?.lastPrice], [aapl, 'stop-out', 175]);
      } finally {
        rec.stop();
      }
    }));

  test('SL/TP and pending orders do not fire on a tick pushed while the market is closed; the first tick after the open fires them, at its own price', () =>
    withDeskAt(WED_STOCKS_OPEN, options, 'Open bank', async (t, desk) => {
      const { client } = await desk.fundedTrader('100000.00', { remember: true });
      await pushTicks(t, [{ symbol: 'AAPL', bid: 200, ask: 200.02 }]);
      const withStop = await openPosition(client, { symbol: 'AAPL', side: 'buy', volume: 1, stopLoss: 190 });
      const order = await client.post(calls.addPendingOrder.path, { fullSymbol: 'AAPL', orderType: 'buy_limit', volume: 1, price: 185, stopLoss: 0, takeProfit: 0 });
      assert.equal(order.status, 200, JSON.stringify(order.body));
      t.clock.set(WED_STOCKS_CLOSED);
      await pushTicks(t, [{ symbol: 'AAPL', bid: 180, ask: 180.02 }]);
      // Ticks are evaluated synchronously as they enter the book: a firing stop would be queued by now.
      assert.ok(!t.app.trading.get(withStop)?.triggered, 'the stop must not fire in a closed market');
      await flush();
      assert.deepEqual((await openTrades(client)).map((r) => r.ticket), [withStop]);
      assert.deepEqual((await client.get(calls.getPendingOrders.path)).body.data.map((o: { status: string }) => o.status), ['pending']);
      t.clock.set(THU_STOCKS_OPEN);
      await pushTicks(t, [{ symbol: 'AAPL', bid: 182, ask: 182.02 }]);
      const closed = await eventually('the stop fired', async () => (await history(client)).find((h) => h.ID === withStop));
      assert.deepEqual([closed.closeReason, closed.lastPrice], ['sl', 182]);
      const filled = await eventually('the order filled', async () => (await openTrades(client)).find((r) => r.symbol === 'AAPL'));
      assert.equal(filled.orginalPrice, 182.02);
    }));

  test('a tick that is already stale when it arrives (an old provider time) fires nothing; the next fresh one does', () =>
    withDeskAt(WED_STOCKS_OPEN, { ...options, market: { ...options.market, sessions: 'always' as const } }, 'Stale bank', async (t, desk) => {
      const { client } = await desk.fundedTrader('10000.00', { remember: true });
      const start = t.clock.now();
      await pushTicks(t, [{ symbol: 'EURUSD', bid: 1.1, ask: 1.1002 }]);
      const ticket = await openPosition(client, { side: 'buy', volume: 0.1, stopLoss: 1.095 });
      // Two minutes later a tick arrives stamped 90 s ago: newer than the quote, but beyond the 30 s stale limit.
      t.clock.set(start + 120_000);
      await pushTicks(t, [{ symbol: 'EURUSD', bid: 1.09, ask: 1.0902, time: start + 30_000 } as { symbol: string; bid: number; ask: number }]);
      assert.ok(!t.app.trading.get(ticket)?.triggered, 'the stop must not fire on a stale tick');
      await flush();
      assert.deepEqual((await openTrades(client)).map((r) => r.ticket), [ticket]);
      await pushTicks(t, [{ symbol: 'EURUSD', bid: 1.091, ask: 1.0912 }]);
      const closed = await eventually('the stop fired', async () => (await history(client)).find((h) => h.ID === ticket));
      assert.deepEqual([closed.closeReason, closed.lastPrice], ['sl', 1.091]);
    }));
});
