import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { calls, traderDetailsResponse } from '@tradeport/contracts';
import { startApp, type TestApp } from './helpers/app';
import type { Client, SignedInTrader } from './helpers/client';
import { openPosition, push, tradingDesk } from './helpers/trading';

/** The back office's trader page: one call with everything support needs about one user. */
const DETAILS = calls.getTraderDetails.path;

describe('admin trader details', () => {
  let t: TestApp;
  let admin: Client;
  let trader: SignedInTrader;
  let other: SignedInTrader;
  let ticket: number;
  let orderId: number;

  before(async () => {
    t = await startApp();
    const desk = await tradingDesk(t);
    admin = desk.admin;
    trader = await desk.fundedTrader('10000.00', { firstName: 'Carla' });
    other = await desk.fundedTrader('500.00', { firstName: 'Dario' });
    await push(t, 'EURUSD', 1.1, 1.1002);
    ticket = await openPosition(trader.client, { side: 'buy', volume: 0.1 });
    const order = await trader.client.post(calls.addPendingOrder.path, { fullSymbol: 'EURUSD', orderType: 'Buy Limit', volume: 0.1, price: 1.05 });
    assert.equal(order.body.status, 'success', JSON.stringify(order.body));
    orderId = order.body.orderId as number;
    await push(t, 'EURUSD', 1.101, 1.1012);
  });
  after(() => t.close());

  test("answers one trader's profile, totals, live account figures, positions, pending orders and activity", async () => {
    const r = await admin.get(`${DETAILS}?traderId=${trader.id}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const body = traderDetailsResponse.parse(r.body);
    assert.equal(body.profile.id, trader.id);
    assert.equal(body.profile.firstName, 'Carla');
    assert.equal(body.profile.email, trader.email);
    assert.equal(body.profile.isActive, '1');
    assert.equal(body.profile.accountType, '0');
    assert.equal(body.profile.status, 'Online');
    assert.equal(body.account.balance, '10000.00');
    assert.equal(body.account.totalDeposite, '10000.00');
    assert.equal(body.account.totalWithdrawals, '0.00');
    assert.equal(body.account.profit, '8.00'); // (1.1010 − 1.1002) × 100,000 × 0.1
    assert.equal(body.account.equity, '10008.00');
    assert.equal(body.account.openPositions, 1);
    assert.equal(body.account.pendingOrders, 1);
    assert.deepEqual(
      body.openTrades.map((p) => [p.ticket, p.symbol, p.type, p.volume, p.profit]),
      [[ticket, 'EURUSD', 'Buy', 0.1, '8.00']],
    );
    assert.deepEqual(
      body.pendingOrders.map((o) => [o.orderId, o.orderType, o.price, o.status]),
      [[orderId, 'buy_limit', 1.05, 'pending']],
    );
    const kinds = body.activity.map((a) => a.activity);
    assert.ok(kinds.includes('Deposit approved'), kinds.join(', '));
    assert.ok(kinds.includes('Account created'), kinds.join(', '));
    assert.ok(body.activity.length <= 50);
  });

  test("another trader's page holds only their own figures", async () => {
    const body = traderDetailsResponse.parse((await admin.get(`${DETAILS}?traderId=${other.id}`)).body);
    assert.equal(body.profile.firstName, 'Dario');
    assert.equal(body.account.balance, '500.00');
    assert.equal(body.account.profit, '0.00');
    assert.deepEqual(body.openTrades, []);
    assert.deepEqual(body.pendingOrders, []);
  });

  test('an unknown user is 404, a bad id 400, and traders may not read it', async () => {
    const missing = await admin.get(`${DETAILS}?traderId=999999`);
    assert.equal(missing.status, 404);
    assert.equal(missing.body.message, 'User not found.');
    for (const bad of ['', '?traderId=', '?traderId=abc', '?traderId=0', '?traderId=-3']) assert.equal((await admin.get(`${DETAILS}${bad}`)).status, 400, bad);
    assert.equal((await trader.client.get(`${DETAILS}?traderId=${trader.id}`)).status, 403);
  });
});
