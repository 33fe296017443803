import assert from 'node:assert/strict';
import { accountEvent, calls, type AccountEvent } from '@tradeport/contracts';
import { after, before, describe, test } from 'node:test';
import { liveAccountOf } from './helpers/accounts';
import { startApp, type TestApp } from './helpers/app';
import { eventually, openPosition, push, recordEvents, roomyLimits, tradingDesk, type TradingDesk } from './helpers/trading';

type Closed = Extract<AccountEvent, { type: 'position.closed' }>;
type OrderUpdated = Extract<AccountEvent, { type: 'order.updated' }>;

/**
 * The account events the terminal's notices are made from: every way a position closes says why
 * (manual, stop loss, take profit, stop-out, back office), and a pending order's placement, each
 * change and its final state are announced with the order's symbol, type and volume. Each event matches the contracts' schema.
 */
describe('terminal events', () => {
  let t: TestApp;
  let desk: TradingDesk;

  before(async () => {
    t = await startApp({ config: roomyLimits });
    desk = await tradingDesk(t);
  });
  after(() => t.close());

  const closedEvent = (events: AccountEvent[], ticket: number) => eventually(`position.closed #${ticket}`, async () => events.find((e): e is Closed => e.type === 'position.closed' && e.ticket === ticket));
  const orderEvent = (events: AccountEvent[], orderId: number) => eventually(`order.updated #${orderId}`, async () => events.find((e): e is OrderUpdated => e.type === 'order.updated' && e.orderId === orderId && e.status !== 'pending'));
  const orderEvents = (events: AccountEvent[], orderId: number) => events.filter((e): e is OrderUpdated => e.type === 'order.updated' && e.orderId === orderId);

  test('position.closed names the reason for each kind of close, with symbol, price and profit', async () => {
    const { client, id } = await desk.fundedTrader('10000.00');
    const rec = recordEvents(t, id);
    try {
      await push(t, 'EURUSD', 1.1, 1.1002);
      const manual = await openPosition(client, { side: 'buy', volume: 0.1 });
      const sl = await openPosition(client, { side: 'buy', volume: 0.1, stopLoss: 1.099 });
      const tp = await openPosition(client, { side: 'sell', volume: 0.1, takeProfit: 1.099 });
      const admin = await openPosition(client, { side: 'buy', volume: 0.1 });
      assert.equal((await client.post(calls.updateTrades.path, { ticket: manual })).status, 200);
      assert.equal((await desk.admin.post(calls.editStatusTrades.path, { traders_id: id, ticket: admin })).status, 200);
      // One tick takes the buy's stop loss (bid 1.0988) and the sell's take profit (ask 1.0990).
      await push(t, 'EURUSD', 1.0988, 1.099);
      const got = {
        manual: await closedEvent(rec.events, manual),
        sl: await closedEvent(rec.events, sl),
        tp: await closedEvent(rec.events, tp),
        admin: await closedEvent(rec.events, admin),
      };
      assert.deepEqual(
        Object.values(got).map((e) => [e.reason, e.symbol, e.price, e.profit]),
        [
          ['manual', 'EURUSD', 1.1, '-2.00'],
          ['sl', 'EURUSD', 1.0988, '-14.00'],
          ['tp', 'EURUSD', 1.099, '10.00'],
          ['admin', 'EURUSD', 1.1, '-2.00'],
        ],
      );
      for (const e of Object.values(got)) assert.deepEqual(accountEvent.parse(e), e, 'matches the contract');
    } finally {
      rec.stop();
    }
  });

  test('position.closed says stop-out when the margin level falls to the stop-out level', async () => {
    const { client, id } = await desk.fundedTrader('1200.00');
    const rec = recordEvents(t, id);
    try {
      await push(t, 'EURUSD', 1.1, 1.1002);
      const ticket = await openPosition(client, { side: 'buy', volume: 1 });
      // Equity 1200 − 1020 = 180 against 1090 of margin: 16.5 %, under the stop-out level.
      await push(t, 'EURUSD', 1.09, 1.0902);
      const e = await closedEvent(rec.events, ticket);
      assert.deepEqual([e.reason, e.price, e.profit], ['stop-out', 1.09, '-1020.00']);
      assert.deepEqual(accountEvent.parse(e), e);
    } finally {
      rec.stop();
    }
  });

  test('order.updated tells the owner’s other devices of a placement and of each change as status pending, once per change (a retried placement says nothing more)', async () => {
    const { client, id } = await desk.fundedTrader('500.00');
    const other = await desk.fundedTrader('500.00');
    const accountId = (await liveAccountOf(t.ctx.db, id)).id;
    const rec = recordEvents(t);
    try {
      await push(t, 'EURUSD', 1.1, 1.1002);
      const body = { fullSymbol: 'EURUSD', orderType: 'Buy Limit', volume: 0.05, price: 1.099, stopLoss: 1.095, takeProfit: 1.105 };
      const placed = await client.post(calls.addPendingOrder.path, body, { 'idempotency-key': 'place-once-1' });
      assert.equal(placed.status, 200, JSON.stringify(placed.body));
      const orderId = placed.body.orderId as number;
      const first = await eventually('the placement event', async () => orderEvents(rec.events, orderId)[0]);
      assert.deepEqual(first, { type: 'order.updated', userId: id, accountId, orderId, status: 'pending', reason: 'Placed', ticket: null, symbol: 'EURUSD', orderType: 'buy_limit', volume: 0.05 });
      assert.deepEqual(accountEvent.parse(first), first, 'matches the contract');
      // The same request again (a retry): the same order, and no second announcement.
      const retry = await client.post(calls.addPendingOrder.path, body, { 'idempotency-key': 'place-once-1' });
      assert.equal(retry.body.orderId, orderId);

      const modified = await client.post(calls.modifyPendingOrder.path, { orderId, price: 1.0985, stopLoss: 1.094, takeProfit: 1.106 });
      assert.equal(modified.status, 200, JSON.stringify(modified.body));
      await eventually('the change event', async () => orderEvents(rec.events, orderId)[1]);
      // A refused change (the stop loss above a Buy's price) changed nothing and says nothing.
      assert.equal((await client.post(calls.modifyPendingOrder.path, { orderId, price: 1.0985, stopLoss: 1.099 })).status, 400);
      assert.equal((await client.post(calls.cancelPendingOrder.path, { orderId })).status, 200);
      await eventually('the cancel event', async () => orderEvents(rec.events, orderId)[2]);

      assert.deepEqual(
        orderEvents(rec.events, orderId).map((e) => [e.userId, e.status, e.reason]),
        [
          [id, 'pending', 'Placed'],
          [id, 'pending', 'Modified'],
          [id, 'cancelled', 'Cancelled by the trader'],
        ],
      );
      assert.ok(!rec.events.some((e) => 'userId' in e && e.userId === other.id), 'another trader hears nothing of it');
    } finally {
      rec.stop();
    }
  });

  test('order.updated announces a fill, an expiry, a rejection and a cancel with the order’s symbol, type and volume', async () => {
    const { client, id } = await desk.fundedTrader('500.00');
    const rec = recordEvents(t, id);
    const place = async (body: Record<string, unknown>) => {
      const r = await client.post(calls.addPendingOrder.path, { fullSymbol: 'EURUSD', ...body });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body.orderId as number;
    };
    try {
      await push(t, 'EURUSD', 1.1, 1.1002);
      const fills = await place({ orderType: 'Buy Limit', volume: 0.02, price: 1.0995 });
      const expires = await place({ orderType: 'Sell Stop', volume: 0.03, price: 1.09, expiration: t.clock.now() + 60_000 });
      // 5 lots need about 5,500 USD of margin: rejected when it would fill.
      const rejected = await place({ orderType: 'Buy Stop Limit', volume: 5, price: 1.101, stopLimitPrice: 1.1008 });
      const cancelled = await place({ orderType: 'Sell Limit', volume: 0.04, price: 1.12 });

      await push(t, 'EURUSD', 1.0993, 1.0995);
      // The stop-limit's stop (ask 1.1010) is reached, then its limit (ask 1.1008 or lower).
      await push(t, 'EURUSD', 1.101, 1.1012);
      await push(t, 'EURUSD', 1.1005, 1.1007);
      await t.app.trading.expireOrders(t.clock.now() + 60_000);
      assert.equal((await client.post(calls.cancelPendingOrder.path, { orderId: cancelled })).status, 200);

      const filled = await orderEvent(rec.events, fills);
      const position = await eventually('position.opened', async () => rec.events.find((e) => e.type === 'position.opened'));
      assert.equal(position.type, 'position.opened');
      const ticket = position.type === 'position.opened' ? position.ticket : 0;
      const got = [filled, await orderEvent(rec.events, expires), await orderEvent(rec.events, rejected), await orderEvent(rec.events, cancelled)];
      assert.deepEqual(
        got.map((e) => [e.status, e.symbol, e.orderType, e.volume, e.ticket]),
        [
          ['filled', 'EURUSD', 'buy_limit', 0.02, ticket],
          ['expired', 'EURUSD', 'sell_stop', 0.03, null],
          ['rejected', 'EURUSD', 'buy_stop_limit', 5, null],
          ['cancelled', 'EURUSD', 'sell_limit', 0.04, null],
        ],
      );
      assert.deepEqual(
        got.map((e) => e.reason),
        ['Filled', 'Expired', got[2]!.reason, 'Cancelled by the trader'],
      );
      assert.match(got[2]!.reason, /^Not enough free margin/);
      for (const e of got) assert.deepEqual(accountEvent.parse(e), e, 'matches the contract');
      assert.equal(rec.events.filter((e) => e.type === 'order.updated' && e.status !== 'pending').length, 4, 'one final event per order');
      for (const orderId of [fills, expires, rejected, cancelled]) {
        assert.deepEqual(
          orderEvents(rec.events, orderId).map((e) => [e.status, e.reason]),
          [
            ['pending', 'Placed'],
            [got.find((g) => g.orderId === orderId)!.status, got.find((g) => g.orderId === orderId)!.reason],
          ],
          `#${orderId}: placed, then its final state`,
        );
      }

      // The History's order list (status=all, paged) shows each order's final state, reason and time.
      const listed = await client.get(`${calls.getPendingOrders.path}?status=all&limit=10`);
      assert.equal(listed.status, 200);
      assert.equal(listed.body.nextCursor, null);
      const rows = listed.body.data as { orderId: number; status: string; reason: string; ticket: number | null; updatedAt: string; timeStamp: string }[];
      assert.deepEqual(
        rows.map((r) => [r.orderId, r.status, r.ticket]),
        [
          [cancelled, 'cancelled', null],
          [rejected, 'rejected', null],
          [expires, 'expired', null],
          [fills, 'filled', ticket],
        ],
      );
      assert.deepEqual(rows.map((r) => r.reason), ['Cancelled by the trader', got[2]!.reason, 'Expired', 'Filled']);
      assert.ok(rows.every((r) => Date.parse(r.updatedAt) >= Date.parse(r.timeStamp)));
    } finally {
      rec.stop();
    }
  });
});
