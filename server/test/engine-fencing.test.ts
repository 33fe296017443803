import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { calls } from '@tradeport/contracts';
import { sql } from 'kysely';
import { startApp, type TestApp } from './helpers/app';
import { liveAccountOf } from './helpers/accounts';
import { ASK, BID, assertFailure, openPosition, openTrades, push, roomyLimits, tradingDesk, type TradingDesk } from './helpers/trading';

/**
 * Fencing of the trading engine (issue 19): an engine whose lead another instance has claimed in
 * the database (a newer `engine_epoch`) writes nothing more, even for commands that reached it
 * before it noticed; and `stop()` returns only once the commands already taken have finished.
 */
describe('engine fencing', () => {
  let t: TestApp;
  let desk: TradingDesk;
  before(async () => {
    t = await startApp({ config: roomyLimits });
    desk = await tradingDesk(t);
  });
  after(() => t.close());

  const positionsOf = async (userId: number) => (await t.ctx.db.selectFrom('positions').select(['id', 'status', 'stop_loss']).where('user_id', '=', userId).execute()).map((r) => ({ ...r, stop_loss: Number(r.stop_loss) }));

  test('once another engine claims a newer epoch, opens, SL/TP changes, closes and pending orders are refused as retryable and change nothing', async () => {
    const trader = await desk.fundedTrader('10000.00');
    await push(t, 'EURUSD', BID, ASK);
    const ticket = await openPosition(trader.client, { side: 'buy' });
    const before = await positionsOf(trader.id);

    // What a new leader does before it loads the positions.
    await sql`update engine_epoch set epoch = epoch + 1 where id = 1`.execute(t.ctx.db);

    const open = await trader.client.post(calls.addTrades.path, { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 1, stopLoss: 0, takeProfit: 0, comment: '' });
    assertFailure(open, 503);
    assert.ok(open.headers.get('retry-after'), 'the refusal says when to retry');
    assertFailure(await trader.client.post(calls.modifyTrades.path, { ticket, stopLoss: 1.09, takeProfit: 0 }), 503);
    assertFailure(await trader.client.post(calls.updateTrades.path, { ticket }), 503);
    assertFailure(await trader.client.post(calls.addPendingOrder.path, { fullSymbol: 'EURUSD', orderType: 'buy_limit', volume: 1, price: 1.05, stopLoss: 0, takeProfit: 0 }), 503);

    assert.deepEqual(await positionsOf(trader.id), before, 'nothing was written by the fenced engine');
    assert.equal((await t.ctx.db.selectFrom('orders').select('id').where('user_id', '=', trader.id).execute()).length, 0, 'no pending order was placed');
    // A stop loss the fenced engine still holds in memory does not close the position either.
    await push(t, 'EURUSD', 1.0, 1.0002);
    assert.deepEqual(await positionsOf(trader.id), before);
  });

  test('a restarted engine claims the epoch anew and takes commands again', async () => {
    await t.app.trading.stop();
    await t.app.trading.start();
    const trader = await desk.fundedTrader('10000.00');
    await push(t, 'EURUSD', BID, ASK);
    const ticket = await openPosition(trader.client, { side: 'buy' });
    assert.ok((await openTrades(trader.client)).some((p) => p.ticket === ticket));
  });

  test('stop() returns only after the commands already taken have finished', async () => {
    const trader = await desk.fundedTrader('10000.00');
    await push(t, 'EURUSD', BID, ASK);
    let settled = false;
    const command = t.app.trading
      .openMarket({ userId: trader.id, accountId: (await liveAccountOf(t.ctx.db, trader.id)).id, role: 'trader', staffRoles: [], ip: '127.0.0.1' }, { symbol: 'EURUSD', side: 'buy', volume: 1, stopLoss: 0, takeProfit: 0, comment: '' })
      .finally(() => (settled = true));
    await t.app.trading.stop();
    assert.equal(settled, true, 'the open in flight was finished before stop() returned');
    const opened = await command;
    assert.ok(opened.ticket > 0);
    await t.app.trading.start();
    assert.ok(t.app.trading.get(opened.ticket), 'the engine started again loads the position it acknowledged');
  });
});
