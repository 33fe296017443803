import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { calls } from '@tradeport/contracts';
import { findLedgerMismatches } from '../src/services/ledger';
import { liveAccountOf } from './helpers/accounts';
import { startApp, type TestApp, restartableDatabase } from './helpers/app';
import type { Client } from './helpers/client';
import { ASK, BID, assertFailure, eventually, openTrades, push, pushTicks, recordEvents, roomyLimits, signIn, sleep, tradingDesk, type TradingDesk } from './helpers/trading';

/**
 * Pending orders over real HTTP (docs/design.md#pending-orders, docs/architecture.md#trading-engine): MT5
 * placement rules for the six types, SL/TP around the entry price, activation on the ask (Buy) or
 * the bid (Sell) at the tick's price, Stop Limit's two stages, the margin check at activation,
 * expiry, modify, cancel, ownership, idempotency, restart and exactly-once fills.
 */

const PLACE = calls.addPendingOrder.path;
const LIST = calls.getPendingOrders.path;
const MODIFY = calls.modifyPendingOrder.path;
const CANCEL = calls.cancelPendingOrder.path;
const HISTORY = calls.getTradesHistory.path;
const MARGINS = calls.getMargins.path;

type OrderType = 'buy_limit' | 'sell_limit' | 'buy_stop' | 'sell_stop' | 'buy_stop_limit' | 'sell_stop_limit';

interface OrderRow {
  orderId: number;
  symbol: string;
  orderType: OrderType;
  volume: number;
  price: number;
  stopLimitPrice: number;
  stopTriggered: boolean;
  stopLoss: number;
  takeProfit: number;
  comment: string;
  expiration: string | null;
  status: 'pending' | 'filled' | 'cancelled' | 'expired' | 'rejected';
  reason: string;
  ticket: number | null;
  timeStamp: string;
  updatedAt: string;
}

interface OrderBody {
  fullSymbol?: string;
  orderType: string;
  volume?: number | string;
  price: number | string;
  stopLimitPrice?: number;
  stopLoss?: number;
  takeProfit?: number;
  comment?: string;
  expiration?: number | string | null;
}

const orderBody = (o: OrderBody) => ({ fullSymbol: 'EURUSD', volume: 0.1, ...o });

/** Places an order that must be accepted; returns its id. */
async function place(client: Client, o: OrderBody, headers: Record<string, string> = {}): Promise<number> {
  const r = await client.post(PLACE, orderBody(o), headers);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.equal(r.body.status, 'success');
  assert.ok(Number.isInteger(r.body.orderId) && r.body.orderId > 0, JSON.stringify(r.body));
  assert.equal(r.body.message, `Order #${r.body.orderId} placed.`);
  return r.body.orderId as number;
}

async function orders(client: Client, status?: 'pending' | 'all'): Promise<OrderRow[]> {
  const r = await client.get(status ? `${LIST}?status=${status}` : LIST);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.equal(r.body.status, 'success');
  return r.body.data as OrderRow[];
}

async function order(client: Client, orderId: number): Promise<OrderRow> {
  const row = (await orders(client, 'all')).find((o) => o.orderId === orderId);
  assert.ok(row, `order #${orderId} is listed`);
  return row;
}

/** Waits until the order has left 'pending' (filled, rejected, expired …) and returns its row. */
const waitFinished = (client: Client, orderId: number, timeoutMs?: number) =>
  eventually(`order #${orderId} to leave 'pending'`, async () => {
    const row = await order(client, orderId);
    return row.status !== 'pending' && row;
  }, timeoutMs);

/** After a tick that must not activate anything: the order is still pending a moment later, and nothing opened. */
async function assertStillPending(client: Client, orderId: number, what: string, positionsBefore = 0): Promise<OrderRow> {
  await sleep(40);
  const row = await order(client, orderId);
  assert.equal(row.status, 'pending', `${what}: order #${orderId} is still pending (${JSON.stringify(row)})`);
  assert.equal(row.ticket, null, what);
  assert.equal((await openTrades(client)).length, positionsBefore, `${what}: no position opened`);
  return row;
}

async function positionRows(t: TestApp, userId: number) {
  return t.ctx.db.selectFrom('positions').select(['id', 'side', 'open_price', 'status']).where('user_id', '=', userId).orderBy('id').execute();
}

describe('pending orders over HTTP', () => {
  let t: TestApp;
  let admin: Client;
  /** A new trader with `amount` USD deposited and approved. */
  let fundedTrader: TradingDesk['fundedTrader'];

  before(async () => {
    t = await startApp({ config: roomyLimits });
    ({ admin, fundedTrader } = await tradingDesk(t, 'Pending orders test bank'));
  });
  after(() => t.close());

  // ------------------------------------------------------------------ placement

  interface PlacementCase {
    type: OrderType;
    rule: string;
    refused: { price: number; stopLimitPrice?: number; message: string }[];
    accepted: { price: number; stopLimitPrice?: number }[];
  }
  const placementCases: PlacementCase[] = [
    {
      type: 'buy_limit',
      rule: 'a Buy Limit is accepted below the ask and refused at or above it',
      refused: [
        { price: ASK, message: 'A Buy Limit must be below the current ask.' },
        { price: 1.1005, message: 'A Buy Limit must be below the current ask.' },
      ],
      // Between the bid and the ask is still below the ask.
      accepted: [{ price: 1.0990 }, { price: 1.1001 }],
    },
    {
      type: 'buy_stop',
      rule: 'a Buy Stop is accepted above the ask and refused at or below it',
      refused: [
        { price: ASK, message: 'A Buy Stop must be above the current ask.' },
        { price: 1.1001, message: 'A Buy Stop must be above the current ask.' },
        { price: 1.0990, message: 'A Buy Stop must be above the current ask.' },
      ],
      accepted: [{ price: 1.1003 }, { price: 1.1050 }],
    },
    {
      type: 'sell_limit',
      rule: 'a Sell Limit is accepted above the bid and refused at or below it',
      refused: [
        { price: BID, message: 'A Sell Limit must be above the current bid.' },
        { price: 1.0990, message: 'A Sell Limit must be above the current bid.' },
      ],
      accepted: [{ price: 1.1001 }, { price: 1.1010 }],
    },
    {
      type: 'sell_stop',
      rule: 'a Sell Stop is accepted below the bid and refused at or above it',
      refused: [
        { price: BID, message: 'A Sell Stop must be below the current bid.' },
        { price: 1.1001, message: 'A Sell Stop must be below the current bid.' },
        { price: 1.1010, message: 'A Sell Stop must be below the current bid.' },
      ],
      accepted: [{ price: 1.0999 }, { price: 1.0950 }],
    },
    {
      type: 'buy_stop_limit',
      rule: 'a Buy Stop Limit needs its stop above the ask and its limit below the stop',
      refused: [
        { price: ASK, stopLimitPrice: 1.0995, message: 'A Buy Stop Limit stop price must be above the current ask.' },
        { price: 1.0990, stopLimitPrice: 1.0985, message: 'A Buy Stop Limit stop price must be above the current ask.' },
        { price: 1.1010, stopLimitPrice: 1.1010, message: 'A Buy Stop Limit limit price must be below its stop price.' },
        { price: 1.1010, stopLimitPrice: 1.1015, message: 'A Buy Stop Limit limit price must be below its stop price.' },
        { price: 1.1010, message: 'A Buy Stop Limit limit price must be below its stop price.' },
      ],
      // The limit may be anywhere below the stop, even below the current ask.
      accepted: [{ price: 1.1010, stopLimitPrice: 1.1005 }, { price: 1.1010, stopLimitPrice: 1.0990 }],
    },
    {
      type: 'sell_stop_limit',
      rule: 'a Sell Stop Limit needs its stop below the bid and its limit above the stop',
      refused: [
        { price: BID, stopLimitPrice: 1.1005, message: 'A Sell Stop Limit stop price must be below the current bid.' },
        { price: 1.1010, stopLimitPrice: 1.1015, message: 'A Sell Stop Limit stop price must be below the current bid.' },
        { price: 1.0990, stopLimitPrice: 1.0990, message: 'A Sell Stop Limit limit price must be above its stop price.' },
        { price: 1.0990, stopLimitPrice: 1.0985, message: 'A Sell Stop Limit limit price must be above its stop price.' },
        { price: 1.0990, message: 'A Sell Stop Limit limit price must be above its stop price.' },
      ],
      accepted: [{ price: 1.0990, stopLimitPrice: 1.0995 }, { price: 1.0990, stopLimitPrice: 1.1010 }],
    },
  ];

  for (const c of placementCases) {
    test(`placement: ${c.rule}`, async () => {
      const { client } = await fundedTrader();
      await push(t, 'EURUSD', BID, ASK);
      for (const r of c.refused) {
        assertFailure(await client.post(PLACE, orderBody({ orderType: c.type, price: r.price, ...(r.stopLimitPrice === undefined ? {} : { stopLimitPrice: r.stopLimitPrice }) })), 400, r.message);
      }
      assert.deepEqual(await orders(client, 'all'), [], 'a refused order leaves nothing behind');
      const ids: number[] = [];
      for (const a of c.accepted) ids.push(await place(client, { orderType: c.type, price: a.price, stopLimitPrice: a.stopLimitPrice ?? 0 }));
      const rows = await orders(client);
      assert.deepEqual(
        rows.map((r) => ({ orderId: r.orderId, symbol: r.symbol, orderType: r.orderType, volume: r.volume, price: r.price, stopLimitPrice: r.stopLimitPrice, stopTriggered: r.stopTriggered, status: r.status, ticket: r.ticket, expiration: r.expiration })),
        c.accepted
          .map((a, i) => ({ orderId: ids[i], symbol: 'EURUSD', orderType: c.type, volume: 0.1, price: a.price, stopLimitPrice: a.stopLimitPrice ?? 0, stopTriggered: false, status: 'pending', ticket: null, expiration: null }))
          .reverse(),
      );
      assert.deepEqual(await openTrades(client), [], 'placing an order opens no position');
    });
  }

  test("the orderType is accepted as the terminal's labels ('Buy Limit' … 'Sell Stop Limit'), in any case, and in snake case", async () => {
    const { client } = await fundedTrader();
    await push(t, 'EURUSD', BID, ASK);
    const cases: [string, OrderType, number, number][] = [
      ['Buy Limit', 'buy_limit', 1.099, 0],
      ['Sell Limit', 'sell_limit', 1.101, 0],
      ['Buy Stop', 'buy_stop', 1.101, 0],
      ['Sell Stop', 'sell_stop', 1.099, 0],
      ['Buy Stop Limit', 'buy_stop_limit', 1.101, 1.1005],
      ['Sell Stop Limit', 'sell_stop_limit', 1.099, 1.0995],
      ['  BUY   LIMIT ', 'buy_limit', 1.098, 0],
      ['sell_stop_limit', 'sell_stop_limit', 1.098, 1.0992],
    ];
    for (const [label, type, price, stopLimitPrice] of cases) {
      const id = await place(client, { orderType: label, price, stopLimitPrice });
      assert.equal((await order(client, id)).orderType, type, label);
    }
    for (const bad of ['Buy', 'Market', 'buy-limit', 'Buy Limit Stop', '']) {
      assertFailure(await client.post(PLACE, orderBody({ orderType: bad, price: 1.099 })), 400, 'orderType must be one of Buy Limit, Sell Limit, Buy Stop, Sell Stop, Buy Stop Limit, Sell Stop Limit.');
    }
    assert.equal((await orders(client)).length, cases.length);
  });

  test('SL/TP are validated around the entry price (the order price, or the limit price of a Stop Limit), not the current quote', async () => {
    const { client } = await fundedTrader();
    await push(t, 'EURUSD', BID, ASK);
    const refused: [OrderBody, string][] = [
      [{ orderType: 'buy_limit', price: 1.099, stopLoss: 1.099 }, 'For a Buy order, the stop loss must be below the order price.'],
      // Below the current bid (fine for a market Buy) but above the order price.
      [{ orderType: 'buy_limit', price: 1.099, stopLoss: 1.0995 }, 'For a Buy order, the stop loss must be below the order price.'],
      [{ orderType: 'buy_limit', price: 1.099, takeProfit: 1.099 }, 'For a Buy order, the take profit must be above the order price.'],
      [{ orderType: 'buy_stop', price: 1.101, takeProfit: 1.1005 }, 'For a Buy order, the take profit must be above the order price.'],
      [{ orderType: 'sell_limit', price: 1.101, stopLoss: 1.101 }, 'For a Sell order, the stop loss must be above the order price.'],
      [{ orderType: 'sell_limit', price: 1.101, takeProfit: 1.1015 }, 'For a Sell order, the take profit must be below the order price.'],
      [{ orderType: 'sell_stop', price: 1.099, stopLoss: 1.0985 }, 'For a Sell order, the stop loss must be above the order price.'],
      [{ orderType: 'sell_stop', price: 1.099, takeProfit: 1.099 }, 'For a Sell order, the take profit must be below the order price.'],
      // Stop Limit: the position opens near the limit, so SL/TP are judged around the limit, not the stop.
      [{ orderType: 'buy_stop_limit', price: 1.101, stopLimitPrice: 1.1005, stopLoss: 1.1007 }, 'For a Buy order, the stop loss must be below the order price.'],
      [{ orderType: 'buy_stop_limit', price: 1.101, stopLimitPrice: 1.1005, takeProfit: 1.1005 }, 'For a Buy order, the take profit must be above the order price.'],
      [{ orderType: 'sell_stop_limit', price: 1.099, stopLimitPrice: 1.0995, stopLoss: 1.0993 }, 'For a Sell order, the stop loss must be above the order price.'],
      [{ orderType: 'sell_stop_limit', price: 1.099, stopLimitPrice: 1.0995, takeProfit: 1.0995 }, 'For a Sell order, the take profit must be below the order price.'],
    ];
    for (const [body, message] of refused) assertFailure(await client.post(PLACE, orderBody(body)), 400, message);
    assert.deepEqual(await orders(client, 'all'), []);

    const accepted: OrderBody[] = [
      // TP below the current bid, but above the order price.
      { orderType: 'buy_limit', price: 1.099, stopLoss: 1.098, takeProfit: 1.0995 },
      // SL above the current bid, but below the order price.
      { orderType: 'buy_stop', price: 1.101, stopLoss: 1.1005, takeProfit: 1.102 },
      { orderType: 'sell_limit', price: 1.101, stopLoss: 1.102, takeProfit: 1.1005 },
      { orderType: 'sell_stop', price: 1.099, stopLoss: 1.0995, takeProfit: 1.098 },
      // Between the limit and the stop.
      { orderType: 'buy_stop_limit', price: 1.101, stopLimitPrice: 1.1005, stopLoss: 1.1, takeProfit: 1.1008 },
      { orderType: 'sell_stop_limit', price: 1.099, stopLimitPrice: 1.0995, stopLoss: 1.1, takeProfit: 1.0992 },
    ];
    for (const body of accepted) {
      const id = await place(client, body);
      const row = await order(client, id);
      assert.deepEqual([row.stopLoss, row.takeProfit], [body.stopLoss, body.takeProfit], body.orderType);
    }
  });

  test('orders are refused for a volume below the minimum, off the step, or above the maximum; the maximum itself is accepted', async () => {
    const { client } = await fundedTrader();
    await push(t, 'EURUSD', BID, ASK);
    const cases: [number | string, string][] = [
      [0.001, 'The minimum volume is 0.01.'],
      [0.015, 'Volume must be in steps of 0.01.'],
      ['1.234', 'Volume must be in steps of 0.01.'],
      [100.01, 'The maximum volume is 100.'],
      [101, 'The maximum volume is 100.'],
      [0, 'Volume must be a positive number.'],
      [-1, 'Volume must be a positive number.'],
    ];
    for (const [volume, message] of cases) {
      assertFailure(await client.post(PLACE, orderBody({ orderType: 'buy_limit', price: 1.099, volume })), 400, message);
    }
    assert.deepEqual(await orders(client, 'all'), []);
    // Margin is checked when the order fills, not when it is placed.
    const id = await place(client, { orderType: 'Buy Limit', price: 1.099, volume: 100 });
    assert.equal((await order(client, id)).volume, 100);
    await place(client, { orderType: 'Sell Stop', price: 1.099, volume: '0.01' });
  });

  test('an expiration must lie in the future; epoch ms and ISO 8601 are accepted, an empty one means good till cancelled', async () => {
    const { client } = await fundedTrader();
    await push(t, 'EURUSD', BID, ASK);
    const now = t.clock.now();
    for (const expiration of [now - 1, now, new Date(now - 60_000).toISOString()]) {
      assertFailure(await client.post(PLACE, orderBody({ orderType: 'buy_limit', price: 1.099, expiration })), 400, 'The expiration must be in the future.');
    }
    assertFailure(await client.post(PLACE, orderBody({ orderType: 'buy_limit', price: 1.099, expiration: 'next tuesday' })), 400, 'expiration must be a time (epoch ms or ISO 8601) or empty.');
    assert.deepEqual(await orders(client, 'all'), []);
    const inAnHour = now + 3600_000;
    const byMs = await place(client, { orderType: 'buy_limit', price: 1.099, expiration: inAnHour });
    const byIso = await place(client, { orderType: 'buy_limit', price: 1.098, expiration: new Date(inAnHour + 1000).toISOString() });
    assert.equal((await order(client, byMs)).expiration, new Date(inAnHour).toISOString());
    assert.equal((await order(client, byIso)).expiration, new Date(inAnHour + 1000).toISOString());
    for (const expiration of [null, 0, '']) {
      const gtc = await place(client, { orderType: 'buy_limit', price: 1.097, expiration });
      assert.equal((await order(client, gtc)).expiration, null, `expiration ${JSON.stringify(expiration)} is good till cancelled`);
    }
    // Leave nothing that a later test's expireOrders would count.
    for (const id of [byMs, byIso]) assert.equal((await client.post(CANCEL, { orderId: id })).status, 200);
  });

  test('an order for an unknown symbol is refused, and an administrator cannot place orders (403)', async () => {
    const { client } = await fundedTrader();
    await push(t, 'EURUSD', BID, ASK);
    assertFailure(await client.post(PLACE, orderBody({ fullSymbol: 'NOPE', orderType: 'buy_limit', price: 1.099 })), 400, 'Unknown symbol NOPE.');
    assertFailure(await admin.post(PLACE, orderBody({ orderType: 'buy_limit', price: 1.099 })), 403);
    assertFailure(await admin.get(LIST), 403);
    assert.deepEqual(await orders(client, 'all'), []);
  });

  // ------------------------------------------------------------------ triggers

  interface TriggerCase {
    name: string;
    type: OrderType;
    price: number;
    /** Ticks (bid, ask) that must not activate it. */
    near: [number, number][];
    hit: [number, number];
    /** The fill: the hit tick's ask for Buy types, its bid for Sell types. */
    fill: number;
  }
  const triggerCases: TriggerCase[] = [
    // The bid reaching a Buy Limit is not enough: it waits for the ask.
    { name: 'a Buy Limit fills at the ask when the ask falls to it, not when only the bid does', type: 'buy_limit', price: 1.099, near: [[1.0995, 1.0997], [1.099, 1.0992], [1.0989, 1.0991]], hit: [1.0988, 1.099], fill: 1.099 },
    { name: 'a Buy Limit gapped through fills at the lower ask of the tick', type: 'buy_limit', price: 1.099, near: [], hit: [1.097, 1.0972], fill: 1.0972 },
    // The ask reaching a Buy Stop is enough, though the bid is still below it.
    { name: 'a Buy Stop fills at the ask when the ask rises to it, the bid still below', type: 'buy_stop', price: 1.101, near: [[1.1005, 1.1009]], hit: [1.1007, 1.101], fill: 1.101 },
    { name: 'a Buy Stop gapped through fills at the higher ask of the tick (slippage)', type: 'buy_stop', price: 1.101, near: [], hit: [1.103, 1.1032], fill: 1.1032 },
    // The ask reaching a Sell Limit is not enough: it waits for the bid.
    { name: 'a Sell Limit fills at the bid when the bid rises to it, not when only the ask does', type: 'sell_limit', price: 1.101, near: [[1.1005, 1.1008], [1.1008, 1.101], [1.1009, 1.1011]], hit: [1.101, 1.1012], fill: 1.101 },
    { name: 'a Sell Limit gapped through fills at the higher bid of the tick', type: 'sell_limit', price: 1.101, near: [], hit: [1.103, 1.1032], fill: 1.103 },
    // The bid reaching a Sell Stop is enough, though the ask is still above it.
    { name: 'a Sell Stop fills at the bid when the bid falls to it, the ask still above', type: 'sell_stop', price: 1.099, near: [[1.0991, 1.0993]], hit: [1.099, 1.0995], fill: 1.099 },
    { name: 'a Sell Stop gapped through fills at the lower bid of the tick (slippage)', type: 'sell_stop', price: 1.099, near: [], hit: [1.097, 1.0972], fill: 1.097 },
  ];

  for (const c of triggerCases) {
    test(`trigger: ${c.name}`, async () => {
      const { client, id: userId } = await fundedTrader();
      await push(t, 'EURUSD', BID, ASK);
      const orderId = await place(client, { orderType: c.type, price: c.price, volume: 1 });
      for (const [bid, ask] of c.near) {
        await push(t, 'EURUSD', bid, ask);
        await assertStillPending(client, orderId, `after ${bid}/${ask}`);
      }
      await push(t, 'EURUSD', ...c.hit);
      const row = await waitFinished(client, orderId);
      assert.equal(row.status, 'filled', JSON.stringify(row));
      assert.equal(row.reason, 'Filled');
      const side = c.type.startsWith('buy') ? 'Buy' : 'Sell';
      const trades = await openTrades(client);
      assert.deepEqual(
        trades.map((p) => ({ ticket: p.ticket, type: p.type, volume: p.volume, orginalPrice: p.orginalPrice })),
        [{ ticket: row.ticket, type: side, volume: 1, orginalPrice: c.fill }],
      );
      // Later ticks through the level do not fill it again.
      await push(t, 'EURUSD', ...c.hit);
      await sleep(30);
      assert.equal((await positionRows(t, userId)).length, 1);
    });
  }

  test("a filled order: the position carries the order's SL/TP and comment, the order shows 'filled' with the ticket, and order.updated and position.opened reach the owner", async () => {
    const { client, id: userId } = await fundedTrader('10000.00');
    const other = await fundedTrader();
    const { events: seen, stop } = recordEvents(t);
    try {
      await push(t, 'EURUSD', BID, ASK);
      const orderId = await place(client, { orderType: 'Buy Stop', price: 1.101, volume: 1, stopLoss: 1.095, takeProfit: 1.11, comment: 'breakout' });
      const otherOrder = await place(other.client, { orderType: 'Buy Stop', price: 1.102, volume: 0.1 });
      assert.deepEqual(await orders(client), [await order(client, orderId)]);

      await push(t, 'EURUSD', 1.101, 1.1012);
      const row = await waitFinished(client, orderId);
      assert.equal(row.status, 'filled');
      const ticket = row.ticket;
      assert.ok(Number.isInteger(ticket) && (ticket as number) > 0, JSON.stringify(row));
      assert.deepEqual(
        { orderType: row.orderType, price: row.price, stopLoss: row.stopLoss, takeProfit: row.takeProfit, comment: row.comment, reason: row.reason },
        { orderType: 'buy_stop', price: 1.101, stopLoss: 1.095, takeProfit: 1.11, comment: 'breakout', reason: 'Filled' },
      );
      assert.deepEqual(await orders(client), [], 'a filled order is no longer pending');

      const trades = await openTrades(client);
      assert.deepEqual(
        trades.map((p) => ({ ticket: p.ticket, symbol: p.symbol, type: p.type, volume: p.volume, orginalPrice: p.orginalPrice, stopLoss: p.stopLoss, takeProfit: p.takeProfit, comment: p.comment })),
        [{ ticket, symbol: 'EURUSD', type: 'Buy', volume: 1, orginalPrice: 1.1012, stopLoss: 1.095, takeProfit: 1.11, comment: 'breakout' }],
      );
      // The margin of the new position is held.
      assert.equal((await client.get(MARGINS)).body.totalMargin, '1101.00');

      const accountId = (await liveAccountOf(t.ctx.db, userId)).id;
      const updated = await eventually('order.updated (filled)', async () => seen.find((e) => e.type === 'order.updated' && e.orderId === orderId && e.status !== 'pending'));
      assert.deepEqual(updated, { type: 'order.updated', userId, accountId, orderId, status: 'filled', reason: 'Filled', ticket, symbol: 'EURUSD', orderType: 'buy_stop', volume: 1 });
      const opened = await eventually('position.opened', async () => seen.find((e) => e.type === 'position.opened' && e.ticket === ticket));
      assert.deepEqual(opened, { type: 'position.opened', userId, accountId, ticket, symbol: 'EURUSD', side: 'buy', volume: 1, price: 1.1012 });
      // The other trader's order was not reached: they heard of its placement only.
      assert.equal((await order(other.client, otherOrder)).status, 'pending');
      assert.deepEqual(
        seen.filter((e) => e.userId === other.id).map((e) => (e.type === 'order.updated' ? [e.type, e.orderId, e.status] : [e.type])),
        [['order.updated', otherOrder, 'pending']],
      );

      // The position's stop loss, taken from the order, fires like any other.
      await push(t, 'EURUSD', 1.0949, 1.0951);
      const closed = await eventually('the stop loss close', async () => ((await client.get(HISTORY)).body.data as { ID: number; closeReason: string; lastPrice: number }[]).find((h) => h.ID === ticket));
      assert.deepEqual([closed.closeReason, closed.lastPrice], ['sl', 1.0949]);
      assert.deepEqual(await findLedgerMismatches(t.ctx.db), []);
      assert.equal((await client.post(CANCEL, { orderId: otherOrder })).status, 404, 'only the owner may cancel');
      assert.equal((await other.client.post(CANCEL, { orderId: otherOrder })).status, 200);
    } finally {
      stop();
    }
  });

  // ------------------------------------------------------------------ stop limit

  test('a Buy Stop Limit: the ask reaching the stop turns it into a limit (stopTriggered, no position); it fills when the ask falls to the limit', async () => {
    const { client } = await fundedTrader();
    await push(t, 'EURUSD', BID, ASK);
    const orderId = await place(client, { orderType: 'Buy Stop Limit', price: 1.101, stopLimitPrice: 1.1005, volume: 1, stopLoss: 1.095, takeProfit: 1.11, comment: 'stop limit' });
    await push(t, 'EURUSD', 1.1007, 1.1009);
    await assertStillPending(client, orderId, 'ask below the stop');
    assert.equal((await order(client, orderId)).stopTriggered, false);

    await push(t, 'EURUSD', 1.1008, 1.101);
    const waiting = await eventually('the stop to be reached', async () => {
      const row = await order(client, orderId);
      return row.stopTriggered && row;
    });
    assert.deepEqual([waiting.status, waiting.ticket, waiting.price, waiting.stopLimitPrice], ['pending', null, 1.101, 1.1005]);
    assert.deepEqual(await openTrades(client), [], 'reaching the stop opens nothing');
    assert.deepEqual((await orders(client)).map((o) => [o.orderId, o.stopTriggered]), [[orderId, true]], 'still listed as pending');

    // Above the limit: nothing; the stop itself does not fire again.
    await push(t, 'EURUSD', 1.1005, 1.1007);
    await assertStillPending(client, orderId, 'ask above the limit');
    await push(t, 'EURUSD', 1.1012, 1.1014);
    await assertStillPending(client, orderId, 'ask back above the stop');
    await push(t, 'EURUSD', 1.1002, 1.1004);
    const row = await waitFinished(client, orderId);
    assert.equal(row.status, 'filled', JSON.stringify(row));
    const trades = await openTrades(client);
    assert.deepEqual(
      trades.map((p) => ({ ticket: p.ticket, type: p.type, orginalPrice: p.orginalPrice, stopLoss: p.stopLoss, takeProfit: p.takeProfit, comment: p.comment })),
      [{ ticket: row.ticket, type: 'Buy', orginalPrice: 1.1004, stopLoss: 1.095, takeProfit: 1.11, comment: 'stop limit' }],
    );
  });

  test('a Sell Stop Limit: the bid reaching the stop turns it into a limit; it fills when the bid rises to the limit', async () => {
    const { client } = await fundedTrader();
    await push(t, 'EURUSD', BID, ASK);
    const orderId = await place(client, { orderType: 'sell_stop_limit', price: 1.099, stopLimitPrice: 1.0995, volume: 0.5 });
    // The ask at the stop is not enough.
    await push(t, 'EURUSD', 1.0991, 1.0993);
    await assertStillPending(client, orderId, 'bid above the stop');
    await push(t, 'EURUSD', 1.0989, 1.0991);
    await eventually('the stop to be reached', async () => (await order(client, orderId)).stopTriggered);
    await assertStillPending(client, orderId, 'stop reached');
    // The ask at the limit is not enough: the Sell waits for the bid.
    await push(t, 'EURUSD', 1.0994, 1.0996);
    await assertStillPending(client, orderId, 'bid below the limit');
    await push(t, 'EURUSD', 1.0996, 1.0998);
    const row = await waitFinished(client, orderId);
    assert.equal(row.status, 'filled', JSON.stringify(row));
    assert.deepEqual((await openTrades(client)).map((p) => [p.ticket, p.type, p.volume, p.orginalPrice]), [[row.ticket, 'Sell', 0.5, 1.0996]]);
  });

  test('a Buy Stop Limit fills at once when the tick right after its stop, in the same feed batch, reaches its limit', async () => {
    // One tick can never satisfy both (the stop needs ask ≥ stop, the limit ask ≤ limit < stop), so
    // "at once" means the first tick that reaches the limit once the stop was reached: here the
    // next tick of the same batch. It must fill there, even if the price then moves away again.
    const { client } = await fundedTrader();
    await push(t, 'EURUSD', BID, ASK);
    const orderId = await place(client, { orderType: 'buy_stop_limit', price: 1.101, stopLimitPrice: 1.1005, volume: 1 });
    await pushTicks(t, [
      { symbol: 'EURUSD', bid: 1.1009, ask: 1.1011 },
      { symbol: 'EURUSD', bid: 1.1001, ask: 1.1003 },
    ]);
    await sleep(100);
    await push(t, 'EURUSD', 1.1008, 1.101);
    const row = await waitFinished(client, orderId).catch(async () => order(client, orderId));
    assert.deepEqual(
      { status: row.status, stopTriggered: row.stopTriggered, positions: (await openTrades(client)).map((p) => p.orginalPrice) },
      { status: 'filled', stopTriggered: true, positions: [1.1003] },
      'the limit was reached by the tick after the stop (ask 1.10030 ≤ limit 1.10050), so the order must have filled there',
    );
  });

  // ------------------------------------------------------------------ margin at activation

  test("not enough free margin at activation: the order is 'rejected' with the reason, no position opens, and the owner is told", async () => {
    const { client, id: userId } = await fundedTrader('100.00');
    const { events: seen, stop } = recordEvents(t);
    try {
      await push(t, 'EURUSD', BID, ASK);
      // Placing needs no margin: it is checked when the order fills.
      const orderId = await place(client, { orderType: 'buy_limit', price: 1.099, volume: 1 });
      const small = await place(client, { orderType: 'buy_limit', price: 1.098, volume: 0.01 });
      await push(t, 'EURUSD', 1.0988, 1.099);
      const row = await waitFinished(client, orderId);
      assert.equal(row.status, 'rejected', JSON.stringify(row));
      assert.match(row.reason, /^Not enough free margin: this order needs 1,098\.8000 USD of margin; free margin would be -[\d,]+\.\d{2}00 USD\.$/);
      assert.equal(row.ticket, null);
      assert.deepEqual(await openTrades(client), []);
      assert.deepEqual(await positionRows(t, userId), []);
      const event = await eventually('order.updated (rejected)', async () => seen.find((e) => e.type === 'order.updated' && e.orderId === orderId && e.status !== 'pending'));
      const accountId = (await liveAccountOf(t.ctx.db, userId)).id;
      assert.deepEqual(event, { type: 'order.updated', userId, accountId, orderId, status: 'rejected', reason: row.reason, ticket: null, symbol: 'EURUSD', orderType: 'buy_limit', volume: 1 });
      assert.ok(!seen.some((e) => e.type === 'position.opened' && e.userId === userId));
      assert.equal((await client.get(MARGINS)).body.balance, '100.00');
      // A rejected order is final: the price coming back does not retry it.
      await push(t, 'EURUSD', BID, ASK);
      await push(t, 'EURUSD', 1.0988, 1.099);
      await sleep(40);
      assert.equal((await order(client, orderId)).status, 'rejected');
      // An order the account can afford still fills.
      await push(t, 'EURUSD', 1.0978, 1.098);
      const filled = await waitFinished(client, small);
      assert.equal(filled.status, 'filled', JSON.stringify(filled));
      assert.deepEqual((await openTrades(client)).map((p) => [p.ticket, p.volume]), [[filled.ticket, 0.01]]);
    } finally {
      stop();
    }
  });

  // ------------------------------------------------------------------ expiry

  test("expireOrders expires an order at its expiration, not before ('expired', order.updated), and it never fills afterwards", async () => {
    const { client, id: userId } = await fundedTrader();
    const { events: seen, stop } = recordEvents(t);
    try {
      await push(t, 'EURUSD', BID, ASK);
      const expiresAt = t.clock.now() + 3600_000;
      const orderId = await place(client, { orderType: 'sell_limit', price: 1.101, expiration: expiresAt });
      const gtc = await place(client, { orderType: 'sell_limit', price: 1.1011 });

      await t.app.trading.expireOrders(expiresAt - 1);
      assert.equal((await order(client, orderId)).status, 'pending', 'one millisecond before its expiration');
      assert.ok(!seen.some((e) => e.type === 'order.updated' && e.orderId === orderId && e.status !== 'pending'));

      assert.ok((await t.app.trading.expireOrders(expiresAt)) >= 1);
      const row = await order(client, orderId);
      assert.deepEqual([row.status, row.reason, row.ticket, row.expiration], ['expired', 'Expired', null, new Date(expiresAt).toISOString()]);
      const event = await eventually('order.updated (expired)', async () => seen.find((e) => e.type === 'order.updated' && e.orderId === orderId && e.status !== 'pending'));
      const accountId = (await liveAccountOf(t.ctx.db, userId)).id;
      assert.deepEqual(event, { type: 'order.updated', userId, accountId, orderId, status: 'expired', reason: 'Expired', ticket: null, symbol: 'EURUSD', orderType: 'sell_limit', volume: 0.1 });
      assert.deepEqual((await orders(client)).map((o) => o.orderId), [gtc], 'the good-till-cancelled order is still pending');
      // Expiring again changes nothing.
      await t.app.trading.expireOrders(expiresAt + 1000);
      assert.equal((await order(client, orderId)).status, 'expired');

      // The price reaching the expired order fills nothing; the good-till-cancelled one fills.
      await push(t, 'EURUSD', 1.1012, 1.1014);
      const filled = await waitFinished(client, gtc);
      assert.equal(filled.status, 'filled');
      await sleep(30);
      assert.equal((await order(client, orderId)).status, 'expired');
      assert.deepEqual((await openTrades(client)).map((p) => p.ticket), [filled.ticket]);
      assert.deepEqual(seen.flatMap((e) => (e.type === 'order.updated' && e.orderId === orderId ? [e.status] : [])), ['pending', 'expired'], 'placed, then expired once');
    } finally {
      stop();
    }
  });

  test('an order reached by a tick after its expiration has passed is expired, not filled', async () => {
    const { client } = await fundedTrader();
    await push(t, 'EURUSD', BID, ASK);
    const orderId = await place(client, { orderType: 'buy_stop', price: 1.101, expiration: t.clock.now() + 5000 });
    t.clock.advance(5000);
    // Whether the expiry timer or the tick gets there first, the order expires and opens nothing.
    await push(t, 'EURUSD', 1.101, 1.1012);
    const row = await waitFinished(client, orderId);
    assert.deepEqual([row.status, row.reason, row.ticket], ['expired', 'Expired', null]);
    await sleep(30);
    assert.deepEqual(await openTrades(client), []);
  });

  test('good-till-cancelled orders never expire', async () => {
    const { client } = await fundedTrader();
    await push(t, 'EURUSD', BID, ASK);
    const a = await place(client, { orderType: 'buy_limit', price: 1.09 });
    const b = await place(client, { orderType: 'sell_stop_limit', price: 1.09, stopLimitPrice: 1.095, expiration: null });
    await t.app.trading.expireOrders(t.clock.now() + 365 * 24 * 3600_000);
    await t.app.trading.expireOrders(Number.MAX_SAFE_INTEGER);
    assert.deepEqual((await orders(client)).map((o) => [o.orderId, o.status, o.expiration]), [
      [b, 'pending', null],
      [a, 'pending', null],
    ]);
    for (const orderId of [a, b]) assert.equal((await client.post(CANCEL, { orderId })).status, 200);
  });

  // ------------------------------------------------------------------ modify

  test('modifyPendingOrder changes the price, SL/TP and expiration: the old price no longer fills, the new one does with the new SL/TP', async () => {
    const { client } = await fundedTrader();
    await push(t, 'EURUSD', BID, ASK);
    const now = t.clock.now();
    const orderId = await place(client, { orderType: 'buy_limit', price: 1.099, stopLoss: 1.095, takeProfit: 1.105, comment: 'dip', expiration: now + 3600_000 });
    const r = await client.post(MODIFY, { orderId, price: 1.098, stopLoss: 1.094, takeProfit: 1.106, expiration: new Date(now + 7200_000).toISOString() });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body, { status: 'success', message: `Order #${orderId} changed.` });
    let row = await order(client, orderId);
    assert.deepEqual(
      { price: row.price, stopLoss: row.stopLoss, takeProfit: row.takeProfit, expiration: row.expiration, comment: row.comment, status: row.status, volume: row.volume },
      { price: 1.098, stopLoss: 1.094, takeProfit: 1.106, expiration: new Date(now + 7200_000).toISOString(), comment: 'dip', status: 'pending', volume: 0.1 },
    );
    // The old expiration no longer applies.
    await t.app.trading.expireOrders(now + 3600_000);
    assert.equal((await order(client, orderId)).status, 'pending');
    // An omitted expiration makes it good till cancelled.
    assert.equal((await client.post(MODIFY, { orderId, price: 1.098, stopLoss: 1.094, takeProfit: 1.106 })).status, 200);
    row = await order(client, orderId);
    assert.equal(row.expiration, null);
    await t.app.trading.expireOrders(now + 7200_000);
    assert.equal((await order(client, orderId)).status, 'pending');

    // The old price is reached: nothing. The new one: filled with the new SL/TP.
    await push(t, 'EURUSD', 1.0988, 1.099);
    await assertStillPending(client, orderId, 'at the old price');
    await push(t, 'EURUSD', 1.0978, 1.098);
    const filled = await waitFinished(client, orderId);
    assert.equal(filled.status, 'filled', JSON.stringify(filled));
    assert.deepEqual(
      (await openTrades(client)).map((p) => ({ ticket: p.ticket, orginalPrice: p.orginalPrice, stopLoss: p.stopLoss, takeProfit: p.takeProfit, comment: p.comment })),
      [{ ticket: filled.ticket, orginalPrice: 1.098, stopLoss: 1.094, takeProfit: 1.106, comment: 'dip' }],
    );
    // A filled order cannot be modified or cancelled.
    assertFailure(await client.post(MODIFY, { orderId, price: 1.097 }), 404, `Order #${orderId} is not pending.`);
    assertFailure(await client.post(CANCEL, { orderId }), 404, `Order #${orderId} is not pending.`);
  });

  test('modifyPendingOrder is re-validated (placement, SL/TP around the new price, expiration) and a refused change leaves the order as it was', async () => {
    const { client } = await fundedTrader();
    await push(t, 'EURUSD', BID, ASK);
    const buyStop = await place(client, { orderType: 'buy_stop', price: 1.101, stopLoss: 1.1, takeProfit: 1.103 });
    const stopLimit = await place(client, { orderType: 'sell_stop_limit', price: 1.099, stopLimitPrice: 1.0995, stopLoss: 1.1, takeProfit: 1.098 });
    const before = await orders(client);
    // The market moved since placement: the rules are judged against the current quote.
    await push(t, 'EURUSD', 1.1004, 1.1006);
    const cases: [Record<string, unknown>, string][] = [
      [{ orderId: buyStop, price: 1.1006, stopLoss: 1.1, takeProfit: 1.103 }, 'A Buy Stop must be above the current ask.'],
      [{ orderId: buyStop, price: 1.1008, stopLoss: 1.1009, takeProfit: 1.103 }, 'For a Buy order, the stop loss must be below the order price.'],
      [{ orderId: buyStop, price: 1.1008, stopLoss: 1.1, takeProfit: 1.1008 }, 'For a Buy order, the take profit must be above the order price.'],
      [{ orderId: buyStop, price: 1.1008, expiration: t.clock.now() }, 'The expiration must be in the future.'],
      [{ orderId: stopLimit, price: 1.1005, stopLimitPrice: 1.101 }, 'A Sell Stop Limit stop price must be below the current bid.'],
      [{ orderId: stopLimit, price: 1.099, stopLimitPrice: 1.0985 }, 'A Sell Stop Limit limit price must be above its stop price.'],
      [{ orderId: stopLimit, price: 1.099, stopLimitPrice: 1.0995, stopLoss: 1.0994 }, 'For a Sell order, the stop loss must be above the order price.'],
    ];
    for (const [body, message] of cases) assertFailure(await client.post(MODIFY, body), 400, message);
    assert.deepEqual(await orders(client), before, 'refused changes leave the orders as they were');
    // The unchanged orders still work at their own levels.
    assert.equal((await client.post(MODIFY, { orderId: buyStop, price: 1.1008, stopLoss: 1.1, takeProfit: 1.103 })).status, 200);
    await push(t, 'EURUSD', 1.1006, 1.1008);
    const filled = await waitFinished(client, buyStop);
    assert.deepEqual([filled.status, filled.price], ['filled', 1.1008]);
    assert.equal((await client.post(CANCEL, { orderId: stopLimit })).status, 200);
  });

  test("modifying a Stop Limit whose stop was reached is refused with 409; it can still be cancelled", async () => {
    const { client } = await fundedTrader();
    await push(t, 'EURUSD', BID, ASK);
    const orderId = await place(client, { orderType: 'buy_stop_limit', price: 1.101, stopLimitPrice: 1.1005 });
    // Before its stop, it may be changed.
    assert.equal((await client.post(MODIFY, { orderId, price: 1.1012, stopLimitPrice: 1.1006 })).status, 200);
    await push(t, 'EURUSD', 1.101, 1.1012);
    await eventually('the stop to be reached', async () => (await order(client, orderId)).stopTriggered);
    assertFailure(await client.post(MODIFY, { orderId, price: 1.1015, stopLimitPrice: 1.1006 }), 409, `Order #${orderId} has reached its stop and waits as a limit order; cancel it instead.`);
    const row = await order(client, orderId);
    assert.deepEqual([row.price, row.stopLimitPrice, row.stopTriggered, row.status], [1.1012, 1.1006, true, 'pending']);
    assert.equal((await client.post(CANCEL, { orderId })).status, 200);
    assert.equal((await order(client, orderId)).status, 'cancelled');
    // The limit reached after the cancel fills nothing.
    await push(t, 'EURUSD', 1.1002, 1.1004);
    await sleep(40);
    assert.deepEqual(await openTrades(client), []);
  });

  test('a modify racing the tick that reached the old price never leaves a Buy Limit filled above its price', async () => {
    // The tick reaches the old price (1.09900) while the change to 1.09800 is being written. Either
    // the fill comes first (the modify then finds no pending order: 404) or the change does (the
    // tick at ask 1.09850 no longer reaches the order). A modify answered 200 followed by a fill at
    // 1.09850 leaves a Buy Limit at 1.09800 filled above its price.
    const { client } = await fundedTrader('50000.00');
    const outcomes: string[] = [];
    for (let round = 0; round < 20; round++) {
      await push(t, 'EURUSD', BID, ASK);
      const orderId = await place(client, { orderType: 'buy_limit', price: 1.099, volume: 0.01 });
      const [modified] = await Promise.all([
        client.post(MODIFY, { orderId, price: 1.098 }),
        (async () => {
          for (let i = 0; i < round % 4; i++) await new Promise((resolve) => setImmediate(resolve));
          await push(t, 'EURUSD', 1.0983, 1.0985);
        })(),
      ]);
      await sleep(50);
      const row = await order(client, orderId);
      const position = row.ticket === null ? undefined : await t.ctx.db.selectFrom('positions').select('open_price').where('id', '=', row.ticket).executeTakeFirst();
      outcomes.push(`modify ${modified.status}, order ${row.status} at ${row.price}, filled at ${position?.open_price ?? '-'}`);
      if (row.status === 'pending') assert.equal((await client.post(CANCEL, { orderId })).status, 200);
    }
    const broken = outcomes.filter((o) => /^modify 200, order filled at 1\.098, filled at 1\.0985$/.test(o));
    assert.deepEqual(broken, [], `outcomes: ${JSON.stringify(outcomes)}`);
  });

  // ------------------------------------------------------------------ cancel and ownership

  test("cancelPendingOrder: 'cancelled' with order.updated, and the order never fills afterwards", async () => {
    const { client, id: userId } = await fundedTrader();
    const { events: seen, stop } = recordEvents(t);
    try {
      await push(t, 'EURUSD', BID, ASK);
      const orderId = await place(client, { orderType: 'sell_limit', price: 1.101, volume: 1 });
      const r = await client.post(CANCEL, { orderId });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.deepEqual(r.body, { status: 'success', message: `Order #${orderId} cancelled.` });
      const row = await order(client, orderId);
      assert.deepEqual([row.status, row.reason, row.ticket], ['cancelled', 'Cancelled by the trader', null]);
      assert.deepEqual(await orders(client), []);
      const event = await eventually('order.updated (cancelled)', async () => seen.find((e) => e.type === 'order.updated' && e.orderId === orderId && e.status !== 'pending'));
      const accountId = (await liveAccountOf(t.ctx.db, userId)).id;
      assert.deepEqual(event, { type: 'order.updated', userId, accountId, orderId, status: 'cancelled', reason: 'Cancelled by the trader', ticket: null, symbol: 'EURUSD', orderType: 'sell_limit', volume: 1 });

      await push(t, 'EURUSD', 1.1012, 1.1014);
      await sleep(40);
      assert.deepEqual(await openTrades(client), []);
      assert.equal((await order(client, orderId)).status, 'cancelled');
      assertFailure(await client.post(CANCEL, { orderId }), 404, `Order #${orderId} is not pending.`);
      assertFailure(await client.post(MODIFY, { orderId, price: 1.102 }), 404, `Order #${orderId} is not pending.`);
      assertFailure(await client.post(CANCEL, { orderId: 987654321 }), 404);
      assert.deepEqual(seen.flatMap((e) => (e.type === 'order.updated' && e.orderId === orderId ? [e.status] : [])), ['pending', 'cancelled'], 'placed, then cancelled once');
    } finally {
      stop();
    }
  });

  test("cancelling or modifying another trader's order is 404 and changes nothing; it still fills for its owner", async () => {
    const owner = await fundedTrader();
    const other = await fundedTrader();
    await push(t, 'EURUSD', BID, ASK);
    const orderId = await place(owner.client, { orderType: 'buy_limit', price: 1.099, stopLoss: 1.095 });
    const before = await order(owner.client, orderId);
    assertFailure(await other.client.post(CANCEL, { orderId }), 404, `Order #${orderId} is not pending.`);
    assertFailure(await other.client.post(MODIFY, { orderId, price: 1.0995, stopLoss: 1.09 }), 404, `Order #${orderId} is not pending.`);
    assert.deepEqual(await order(owner.client, orderId), before);
    assert.deepEqual(await orders(other.client, 'all'), []);
    await push(t, 'EURUSD', 1.0988, 1.099);
    const filled = await waitFinished(owner.client, orderId);
    assert.equal(filled.status, 'filled');
    assert.deepEqual((await openTrades(owner.client)).map((p) => p.ticket), [filled.ticket]);
    assert.deepEqual(await openTrades(other.client), []);
  });

  test("a trader's list shows only their own orders (pending by default, status=all with finished ones)", async () => {
    const a = await fundedTrader();
    const b = await fundedTrader();
    await push(t, 'EURUSD', BID, ASK);
    const a1 = await place(a.client, { orderType: 'buy_limit', price: 1.09 });
    const a2 = await place(a.client, { orderType: 'sell_limit', price: 1.11 });
    const b1 = await place(b.client, { orderType: 'buy_stop', price: 1.11 });
    assert.equal((await a.client.post(CANCEL, { orderId: a2 })).status, 200);
    assert.deepEqual((await orders(a.client)).map((o) => o.orderId), [a1]);
    assert.deepEqual((await orders(a.client, 'pending')).map((o) => o.orderId), [a1]);
    assert.deepEqual((await orders(a.client, 'all')).map((o) => [o.orderId, o.status]), [
      [a2, 'cancelled'],
      [a1, 'pending'],
    ]);
    assert.deepEqual((await orders(b.client, 'all')).map((o) => o.orderId), [b1]);
    assertFailure(await a.client.get(`${LIST}?status=filled`), 400, "status must be 'pending', 'all' or 'history'.");
    assert.equal((await a.client.post(CANCEL, { orderId: a1 })).status, 200);
    assert.equal((await b.client.post(CANCEL, { orderId: b1 })).status, 200);
  });

  test('the working orders (read from the engine) are row for row what the orders table holds: placed, modified, a stop reached, with an expiry', async () => {
    const { client } = await fundedTrader();
    await push(t, 'EURUSD', BID, ASK);
    const stored = async () => (await orders(client, 'all')).filter((o) => o.status === 'pending');
    const limit = await place(client, { orderType: 'buy_limit', price: 1.09, stopLoss: 1.08, comment: 'würde kaufen', expiration: t.clock.now() + 3_600_000 });
    const stopLimit = await place(client, { orderType: 'Buy Stop Limit', price: 1.101, stopLimitPrice: 1.1005, volume: 0.1 });
    assert.deepEqual(await orders(client), await stored(), 'after placing');
    assert.deepEqual((await orders(client)).map((o) => o.orderId), [stopLimit, limit], 'newest first');
    t.clock.advance(5_000);
    const changed = await client.post(MODIFY, { orderId: limit, price: 1.0905, stopLoss: 1.085, takeProfit: 1.1, expiration: null });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.deepEqual(await orders(client), await stored(), 'after a change (new levels, no expiry, a later updatedAt)');
    await push(t, 'EURUSD', 1.1008, 1.101);
    await eventually('the stop to be recorded', async () => (await stored()).find((o) => o.orderId === stopLimit)?.stopTriggered === true);
    assert.deepEqual(await orders(client), await stored(), 'after the stop was reached');
    for (const orderId of [limit, stopLimit]) assert.equal((await client.post(CANCEL, { orderId })).status, 200);
    assert.deepEqual(await orders(client), [], 'none left after cancelling');
  });

  // ------------------------------------------------------------------ idempotency and exactly once

  test('an Idempotency-Key returns the same orderId on retry and places one order', async () => {
    const { client } = await fundedTrader();
    await push(t, 'EURUSD', BID, ASK);
    const key = `pending-${randomBytes(6).toString('hex')}`;
    const body = orderBody({ orderType: 'Buy Limit', price: 1.099, volume: 0.2, comment: 'once' });
    const first = await client.post(PLACE, body, { 'idempotency-key': key });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    // The price moves; the retry still answers the first placement.
    await push(t, 'EURUSD', 1.1004, 1.1006);
    const retry = await client.post(PLACE, body, { 'idempotency-key': key });
    assert.deepEqual(retry.body, first.body);
    const burst = await Promise.all(Array.from({ length: 10 }, () => client.post(PLACE, body, { 'idempotency-key': key })));
    for (const r of burst) assert.deepEqual([r.status, r.body.orderId], [200, first.body.orderId]);
    assert.deepEqual((await orders(client, 'all')).map((o) => o.orderId), [first.body.orderId]);
    assertFailure(await client.post(PLACE, { ...body, price: 1.0985 }, { 'idempotency-key': key }), 409, 'This Idempotency-Key was already used for a different request.');
    // Concurrent first attempts with a new key: still one order.
    const key2 = `pending-${randomBytes(6).toString('hex')}`;
    const race = await Promise.all(Array.from({ length: 10 }, () => client.post(PLACE, { ...body, orderType: 'Sell Stop' }, { 'idempotency-key': key2 })));
    assert.ok(race.every((r) => r.status === 200), JSON.stringify(race.map((r) => r.body)));
    assert.equal(new Set(race.map((r) => r.body.orderId)).size, 1, JSON.stringify(race.map((r) => r.body)));
    assert.equal((await orders(client, 'all')).length, 2);
    // A refused attempt keeps nothing: the same key may be retried once the request is valid.
    const key3 = `pending-${randomBytes(6).toString('hex')}`;
    assertFailure(await client.post(PLACE, orderBody({ orderType: 'buy_stop', price: 1.1 }), { 'idempotency-key': key3 }), 400, 'A Buy Stop must be above the current ask.');
    assert.equal((await orders(client, 'all')).length, 2);
    for (const o of await orders(client)) assert.equal((await client.post(CANCEL, { orderId: o.orderId })).status, 200);
  });

  test('many simultaneous ticks through the level fill an order exactly once (one position)', async () => {
    const { client, id: userId } = await fundedTrader('50000.00');
    await push(t, 'EURUSD', BID, ASK);
    const limit = await place(client, { orderType: 'buy_limit', price: 1.099, volume: 1 });
    const stop = await place(client, { orderType: 'sell_stop', price: 1.0985, volume: 1 });
    // 30 ticks at once, every one of them through both levels, from separate requests.
    await Promise.all(Array.from({ length: 30 }, (_, i) => push(t, 'EURUSD', 1.0980 - i * 0.0001, 1.0982 - i * 0.0001)));
    // And a batch of 30 more in one request.
    await pushTicks(t, Array.from({ length: 30 }, (_, i) => ({ symbol: 'EURUSD', bid: 1.0975 - i * 0.0001, ask: 1.0977 - i * 0.0001 })));
    const a = await waitFinished(client, limit);
    const b = await waitFinished(client, stop);
    await sleep(100);
    assert.deepEqual([a.status, b.status], ['filled', 'filled']);
    const rows = await positionRows(t, userId);
    assert.equal(rows.length, 2, JSON.stringify(rows));
    assert.deepEqual(new Set(rows.map((r) => r.id)), new Set([a.ticket, b.ticket]));
    const bySide = new Map(rows.map((r) => [r.side, r]));
    assert.ok((bySide.get('buy')?.open_price ?? 9) <= 1.099, 'the Buy Limit filled at or below its price');
    assert.ok((bySide.get('sell')?.open_price ?? 0) <= 1.0985, 'the Sell Stop filled at or below its price');
    assert.equal((await openTrades(client)).length, 2);
    assert.deepEqual(await findLedgerMismatches(t.ctx.db), []);
  });
});

// ---------------------------------------------------------------------- separate servers

describe('pending orders: market sessions, stale quotes and restarts', () => {
  test("orders are refused with 'Market Closed' when the market is closed (real sessions, on a Saturday); crypto is accepted", async () => {
    const t = await startApp({ config: roomyLimits, market: { sessions: 'real' } });
    try {
      // Friday 21:00 UTC: forex is still open for an hour.
      t.clock.set(Date.parse('2026-03-06T21:00:00Z'));
      const { fundedTrader } = await tradingDesk(t);
      // 'Remember me', so the session outlives the weekend jump below.
      const trader = await fundedTrader('10000.00', { remember: true });
      await push(t, 'EURUSD', BID, ASK);
      const friday = await place(trader.client, { orderType: 'buy_limit', price: 1.099 });

      t.clock.set(Date.parse('2026-03-07T12:00:00Z')); // Saturday
      await push(t, 'EURUSD', BID, ASK);
      assertFailure(await trader.client.post(PLACE, orderBody({ orderType: 'buy_limit', price: 1.099 })), 400, 'Market Closed');
      assertFailure(await trader.client.post(PLACE, orderBody({ orderType: 'Sell Stop Limit', price: 1.099, stopLimitPrice: 1.0995 })), 400, 'Market Closed');
      assertFailure(await trader.client.post(MODIFY, { orderId: friday, price: 1.0985 }), 400, 'Market Closed');
      assert.deepEqual((await orders(trader.client, 'all')).map((o) => [o.orderId, o.price, o.status]), [[friday, 1.099, 'pending']]);
      // Crypto trades around the clock.
      await push(t, 'BTCUSD', 60000, 60010);
      const btc = await place(trader.client, { fullSymbol: 'BTCUSD', orderType: 'Buy Limit', price: 59000, volume: 0.01 });
      assert.equal((await order(trader.client, btc)).symbol, 'BTCUSD');
    } finally {
      await t.close();
    }
  });

  test('orders and changes are refused on a stale quote, and accepted again after a fresh tick', async () => {
    const t = await startApp({ config: roomyLimits, market: { staleAfterMs: 1000 } });
    try {
      const { fundedTrader } = await tradingDesk(t);
      const trader = await fundedTrader('10000.00');
      await push(t, 'EURUSD', BID, ASK);
      const orderId = await place(trader.client, { orderType: 'sell_stop', price: 1.099 });

      t.clock.advance(2000);
      const stale = 'Prices for EURUSD are not current; please try again in a moment.';
      assertFailure(await trader.client.post(PLACE, orderBody({ orderType: 'buy_limit', price: 1.099 })), 400, stale);
      assertFailure(await trader.client.post(MODIFY, { orderId, price: 1.0985 }), 400, stale);
      // A symbol that never had a tick is refused the same way.
      assertFailure(await trader.client.post(PLACE, orderBody({ fullSymbol: 'GBPUSD', orderType: 'buy_limit', price: 1.2 })), 400, 'Prices for GBPUSD are not current; please try again in a moment.');
      assert.deepEqual((await orders(trader.client, 'all')).map((o) => [o.orderId, o.price]), [[orderId, 1.099]]);

      await push(t, 'EURUSD', 1.1001, 1.1003);
      const fresh = await place(trader.client, { orderType: 'buy_limit', price: 1.099 });
      assert.equal((await trader.client.post(MODIFY, { orderId, price: 1.0985 })).status, 200);
      assert.deepEqual((await orders(trader.client)).map((o) => [o.orderId, o.price]), [
        [fresh, 1.099],
        [orderId, 1.0985],
      ]);
    } finally {
      await t.close();
    }
  });

  test('a restart on the same database keeps pending orders (a reached stop included) and they still fill afterwards', async () => {
    const db = await restartableDatabase();
    let email = '';
    let password = '';
    let traderId = 0;
    let limit = 0;
    let stopLimit = 0;
    let expiring = 0;
    let cancelled = 0;
    let before: OrderRow[] = [];
    const expiresAt = Date.parse('2026-03-04T12:00:00Z');
    try {
      const first = await startApp({ config: { ...roomyLimits, databaseUrl: db.url } });
      try {
        const { fundedTrader } = await tradingDesk(first);
        const trader = await fundedTrader('10000.00');
        ({ email, password, id: traderId } = trader);
        await push(first, 'EURUSD', BID, ASK);
        limit = await place(trader.client, { orderType: 'Buy Limit', price: 1.099, volume: 1, stopLoss: 1.095, takeProfit: 1.11, comment: 'survives' });
        stopLimit = await place(trader.client, { orderType: 'Sell Stop Limit', price: 1.0992, stopLimitPrice: 1.0995, volume: 0.5, takeProfit: 1.098, comment: 'two stages' });
        expiring = await place(trader.client, { orderType: 'Sell Limit', price: 1.105, expiration: expiresAt });
        cancelled = await place(trader.client, { orderType: 'Buy Stop', price: 1.101 });
        assert.equal((await trader.client.post(CANCEL, { orderId: cancelled })).status, 200);
        // The Sell Stop Limit's stop is reached before the restart (the Buy Limit's ask is not).
        await push(first, 'EURUSD', 1.0991, 1.0993);
        await eventually('the stop to be reached', async () => (await order(trader.client, stopLimit)).stopTriggered);
        before = await orders(trader.client, 'all');
        assert.equal(before.length, 4);
      } finally {
        await first.close();
      }

      const second = await startApp({ config: { ...roomyLimits, databaseUrl: db.url } });
      try {
        const client = await signIn(second, { email, password });
        assert.deepEqual(await orders(client, 'all'), before, 'every order is listed as it was');
        assert.deepEqual((await orders(client)).map((o) => [o.orderId, o.stopTriggered]), [
          [expiring, false],
          [stopLimit, true],
          [limit, false],
        ]);

        // The reached Sell Stop Limit waits as a limit: the bid rising to 1.09950 fills it.
        await push(second, 'EURUSD', 1.0994, 1.0996);
        await assertStillPending(client, stopLimit, 'bid below the limit after the restart');
        await push(second, 'EURUSD', 1.0996, 1.0998);
        const sl = await waitFinished(client, stopLimit);
        assert.deepEqual([sl.status, sl.stopTriggered], ['filled', true]);
        // The Buy Limit fills on the ask with its SL/TP and comment.
        await push(second, 'EURUSD', 1.0987, 1.0989);
        const bl = await waitFinished(client, limit);
        assert.equal(bl.status, 'filled');
        assert.deepEqual(
          (await openTrades(client)).map((p) => ({ ticket: p.ticket, type: p.type, volume: p.volume, orginalPrice: p.orginalPrice, stopLoss: p.stopLoss, takeProfit: p.takeProfit, comment: p.comment })),
          [
            { ticket: sl.ticket, type: 'Sell', volume: 0.5, orginalPrice: 1.0996, stopLoss: 0, takeProfit: 1.098, comment: 'two stages' },
            { ticket: bl.ticket, type: 'Buy', volume: 1, orginalPrice: 1.0989, stopLoss: 1.095, takeProfit: 1.11, comment: 'survives' },
          ],
        );
        // The expiration survives too; the cancelled order stays cancelled.
        await second.app.trading.expireOrders(expiresAt - 1);
        assert.equal((await order(client, expiring)).status, 'pending');
        await second.app.trading.expireOrders(expiresAt);
        assert.equal((await order(client, expiring)).status, 'expired');
        assert.equal((await order(client, cancelled)).status, 'cancelled');
        // A tick through the expired Sell Limit and the cancelled Buy Stop opens nothing more.
        await push(second, 'EURUSD', 1.1051, 1.1053);
        await sleep(40);
        assert.deepEqual((await positionRows(second, traderId)).map((r) => r.status), ['open', 'open']);
        assert.deepEqual(await findLedgerMismatches(second.ctx.db), []);
      } finally {
        await second.close();
      }
    } finally {
      await db.drop();
    }
  });
});
