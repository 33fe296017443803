import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { calls } from '@tradeport/contracts';
import { startApp, type TestApp } from './helpers/app';
import { Client } from './helpers/client';
import { ASK, BID, assertFailure, openPosition, openTrades, push, roomyLimits, tradingDesk, type TradingDesk } from './helpers/trading';

/**
 * Inputs that used to slip past the schemas (issue 10): each is refused with the spec's
 * `{status, message}` shape and a 4xx code, never answered 500, and changes nothing.
 */
describe('input bounds', () => {
  let t: TestApp;
  let desk: TradingDesk;
  before(async () => {
    t = await startApp({ config: roomyLimits });
    desk = await tradingDesk(t);
    await push(t, 'EURUSD', BID, ASK);
  });
  after(() => t.close());

  test('an email that grows when lower-cased is refused like an unknown account, before any table sees it', async () => {
    // 'İ' lower-cases to two UTF-16 units: 254 of them become 508 characters, over the column's 254.
    const email = `${'İ'.repeat(254)}`;
    const r = await new Client(t).post('/login.php', { email, password: 'whatever-123' });
    assert.equal(r.status, 401, JSON.stringify(r.body));
    assert.equal(r.body.status, 'This account does not exist');
    const throttled = await t.ctx.db.selectFrom('login_throttle').select('email').execute();
    assert.ok(throttled.every((row) => row.email.length <= 254), 'no over-long email reached login_throttle');
    const long = await new Client(t).post('/login.php', { email: `${'İ'.repeat(120)}@example.com`, password: 'whatever-123' });
    assert.equal(long.status, 401, JSON.stringify(long.body));
  });

  test('a far-future expiration is refused when placing or modifying, so the order list keeps answering', async () => {
    const { client } = await desk.fundedTrader();
    const body = { fullSymbol: 'EURUSD', orderType: 'buy_limit', volume: 0.1, price: 1.099, stopLoss: 0, takeProfit: 0 };
    for (const expiration of [9_000_000_000_000_000, '+275760-09-13T00:00:00.000Z', 8.64e15]) {
      assertFailure(await client.post(calls.addPendingOrder.path, { ...body, expiration }), 400, /expiration/);
    }
    const placed = await client.post(calls.addPendingOrder.path, { ...body, expiration: Date.parse('2026-03-05T10:00:00Z') });
    assert.equal(placed.status, 200, JSON.stringify(placed.body));
    assertFailure(await client.post(calls.modifyPendingOrder.path, { orderId: placed.body.orderId, price: 1.099, stopLoss: 0, takeProfit: 0, expiration: 9_000_000_000_000_000 }), 400, /expiration/);
    const list = await client.get(`${calls.getPendingOrders.path}?status=all`);
    assert.equal(list.status, 200, JSON.stringify(list.body));
  });

  test('SL/TP must be plain decimal numbers in a price range; hex, denormals and huge values are refused', async () => {
    const { client } = await desk.fundedTrader();
    for (const stopLoss of ['0x10', 1e-320, 1e308, '1e308', 'Infinity', '-1', ' 0b1 ']) {
      const r = await client.post(calls.addTrades.path, { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 0.1, stopLoss, takeProfit: 0 });
      assertFailure(r, 400, /Stop loss/);
    }
    for (const takeProfit of ['0x10', 1e-320, 1e308]) {
      const r = await client.post(calls.addTrades.path, { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 0.1, stopLoss: 0, takeProfit });
      assertFailure(r, 400, /Take profit/);
    }
    assert.deepEqual(await openTrades(client), []);
  });

  test("SL/TP are rounded to the instrument's digits, as order prices are", async () => {
    const { client } = await desk.fundedTrader();
    const ticket = await openPosition(client, { side: 'buy', volume: 0.1, stopLoss: 1.0912345678, takeProfit: '1.1112345' as unknown as number });
    let [row] = await openTrades(client);
    assert.equal(row?.stopLoss, 1.09123);
    assert.equal(row?.takeProfit, 1.11123);
    const stored = await t.ctx.db.selectFrom('positions').select(['stop_loss', 'take_profit']).where('id', '=', ticket).executeTakeFirstOrThrow();
    assert.deepEqual(stored, { stop_loss: 1.09123, take_profit: 1.11123 });
    const modified = await client.post(calls.modifyTrades.path, { ticket, stopLoss: 1.0800049, takeProfit: 1.2000051 });
    assert.equal(modified.status, 200, JSON.stringify(modified.body));
    [row] = await openTrades(client);
    assert.equal(row?.stopLoss, 1.08);
    assert.equal(row?.takeProfit, 1.20001);
    const order = await client.post(calls.addPendingOrder.path, { fullSymbol: 'EURUSD', orderType: 'buy_limit', volume: 0.1, price: 1.099, stopLoss: 1.0900049, takeProfit: 1.1100051 });
    assert.equal(order.status, 200, JSON.stringify(order.body));
    const stored2 = await t.ctx.db.selectFrom('orders').select(['stop_loss', 'take_profit']).where('id', '=', order.body.orderId).executeTakeFirstOrThrow();
    assert.deepEqual(stored2, { stop_loss: 1.09, take_profit: 1.11001 });
  });

  test('an admin close of a ticket that is already closed answers 409, as a trader close does', async () => {
    const { client, id } = await desk.fundedTrader();
    const ticket = await openPosition(client, { side: 'buy', volume: 0.1 });
    const first = await desk.admin.post(calls.editStatusTrades.path, { traders_id: id, ticket });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assertFailure(await desk.admin.post(calls.editStatusTrades.path, { traders_id: id, ticket }), 409, /already been closed/);
    assertFailure(await client.post(calls.updateTrades.path, { ticket }), 409, /already been closed/);
    // Another trader's ticket, or no ticket at all, stays 404.
    assertFailure(await desk.admin.post(calls.editStatusTrades.path, { traders_id: id + 1000, ticket }), 404);
    assertFailure(await desk.admin.post(calls.editStatusTrades.path, { traders_id: id, ticket: 999_999 }), 404);
  });
});
