import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { calls } from '@tradeport/contracts';
import { IDEMPOTENCY_KEY_TTL_MS, pruneIdempotencyKeys } from '../src/services/idempotency';
import { USER_LIMIT_KEY_PREFIX } from '../src/transport/http/call-route';
import { startApp, type TestApp } from './helpers/app';
import type { Client } from './helpers/client';
import { startLeaderAndFollower, type LeaderAndFollower } from './helpers/two-instances';
import { ASK, BID, assertFailure, openTrades, push, roomyLimits, tradingDesk, type TradingDesk } from './helpers/trading';

/**
 * The limits on orders (security review, finding 2): how often one trader may send order calls
 * (ORDER_RATE_LIMIT_PER_MINUTE, all order calls drawing on one count, per user, across instances),
 * how many pending orders an account may hold (MAX_PENDING_ORDERS), and how long Idempotency-Keys
 * are kept (a day, then pruned).
 */

const limitOrder = (price = 1.09) => ({ fullSymbol: 'EURUSD', orderType: 'buy_limit', volume: 0.1, price });
const isPostgres = (process.env.DATABASE_URL ?? '').startsWith('postgres');

async function pendingCount(client: Client): Promise<number> {
  const r = await client.get(`${calls.getPendingOrders.path}?status=pending`);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return (r.body.data as unknown[]).length;
}

describe('the order rate limit', () => {
  let t: TestApp;
  let desk: TradingDesk;
  before(async () => {
    t = await startApp({ config: { ...roomyLimits, orderRateLimitPerMinute: 6 } });
    desk = await tradingDesk(t);
    await push(t, 'EURUSD', BID, ASK);
  });
  after(() => t.close());

  test('every order call counts against one per-user limit; over it, 429 with Retry-After and nothing done; others are not limited', async () => {
    const { client } = await desk.fundedTrader();
    // Six calls of six kinds, each accepted: the limit is 6 a minute across them all.
    const opened = await client.post(calls.addTrades.path, { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 0.1, stopLoss: 0, takeProfit: 0, comment: '' });
    assert.equal(opened.status, 200, JSON.stringify(opened.body));
    const ticket = opened.body.ticket as number;
    assert.equal((await client.post(calls.modifyTrades.path, { ticket, stopLoss: 1.05, takeProfit: 0 })).status, 200);
    const placed = await client.post(calls.addPendingOrder.path, limitOrder());
    assert.equal(placed.status, 200, JSON.stringify(placed.body));
    const orderId = placed.body.orderId as number;
    assert.equal((await client.post(calls.modifyPendingOrder.path, { orderId, price: 1.08, stopLimitPrice: 0, stopLoss: 0, takeProfit: 0, expiration: null })).status, 200);
    assert.equal((await client.post(calls.cancelPendingOrder.path, { orderId })).status, 200);
    assert.equal((await client.post(calls.updateTrades.path, { ticket })).status, 200);

    // Reads are not order calls: they do not count and are not refused.
    assert.equal((await client.get(calls.getTrades.path)).status, 200);

    const refused = await client.post(calls.addTrades.path, { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 0.1, stopLoss: 0, takeProfit: 0, comment: '' });
    assertFailure(refused, 429, /^Too many requests: at most 6 a minute\. Nothing was done; please wait \d+ seconds and try again\.$/);
    const retryAfter = Number(refused.headers.get('retry-after'));
    assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    assert.deepEqual(await openTrades(client), [], 'the refused order opened nothing');
    assertFailure(await client.post(calls.addPendingOrder.path, limitOrder()), 429);
    assert.equal(await pendingCount(client), 0, 'the refused pending order was not placed');

    // Another trader has a count of their own.
    const other = await desk.fundedTrader();
    assert.equal((await other.client.post(calls.addPendingOrder.path, limitOrder())).status, 200);
  });

});

describe('the pending-order cap', () => {
  let t: TestApp;
  let desk: TradingDesk;
  before(async () => {
    t = await startApp({ config: { ...roomyLimits, maxPendingOrders: 3 } });
    desk = await tradingDesk(t);
    await push(t, 'EURUSD', BID, ASK);
  });
  after(() => t.close());

  test('an account holds at most MAX_PENDING_ORDERS pending orders, also when they are sent at once; a cancel frees a place', async () => {
    const { client } = await desk.fundedTrader();
    // Five at once with a cap of three: the count is checked in the trader's turn, so exactly three pass.
    const answers = await Promise.all([0, 1, 2, 3, 4].map((i) => client.post(calls.addPendingOrder.path, limitOrder(1.09 - i * 0.001))));
    const accepted = answers.filter((r) => r.status === 200);
    const refused = answers.filter((r) => r.status !== 200);
    assert.equal(accepted.length, 3, JSON.stringify(answers.map((r) => r.body)));
    for (const r of refused) assertFailure(r, 409, 'You already have 3 pending orders, the most an account may hold. Cancel one before placing another.');
    assert.equal(await pendingCount(client), 3);

    assert.equal((await client.post(calls.cancelPendingOrder.path, { orderId: accepted[0]!.body.orderId })).status, 200);
    assert.equal((await client.post(calls.addPendingOrder.path, limitOrder(1.085))).status, 200, 'a cancelled order frees its place');
    assert.equal(await pendingCount(client), 3);
  });
});

describe('Idempotency-Keys are kept for a day, then pruned', () => {
  let t: TestApp;
  let desk: TradingDesk;
  before(async () => {
    t = await startApp({ config: roomyLimits });
    desk = await tradingDesk(t);
    await push(t, 'EURUSD', BID, ASK);
  });
  after(() => t.close());

  test('a retry within the day gets the first answer; after it the key is gone and may be used again', async () => {
    // Remembered, so the session outlives the day the clock jumps.
    const { client } = await desk.fundedTrader('10000.00', { remember: true });
    const key = { 'idempotency-key': 'order-key-for-pruning' };
    const first = await client.post(calls.addPendingOrder.path, limitOrder(), key);
    assert.equal(first.status, 200, JSON.stringify(first.body));

    t.clock.advance(IDEMPOTENCY_KEY_TTL_MS - 60_000);
    assert.equal(await pruneIdempotencyKeys(t.ctx), 0, 'a key younger than a day stays');
    const retry = await client.post(calls.addPendingOrder.path, limitOrder(), key);
    assert.deepEqual(retry.body, first.body, 'the retry replays the first answer');

    t.clock.advance(120_000);
    assert.ok((await pruneIdempotencyKeys(t.ctx)) >= 1, 'the day-old key is removed');
    const rows = await t.ctx.db.selectFrom('idempotency_keys').select('key').where('key', '=', 'order-key-for-pruning').execute();
    assert.deepEqual(rows, []);
    // A day later the quote is stale: a fresh one, so the order is judged on its key alone.
    await push(t, 'EURUSD', BID, ASK);
    const again = await client.post(calls.addPendingOrder.path, limitOrder(), key);
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.notEqual(again.body.orderId, first.body.orderId, 'a pruned key places a new order');
  });
});

describe('the order limit across instances (EVENT_BUS=redis)', { skip: isPostgres ? false : 'needs PostgreSQL (several instances)' }, () => {
  let pair: LeaderAndFollower;
  let desk: TradingDesk;
  before(async () => {
    pair = await startLeaderAndFollower({ orderRateLimitPerMinute: 4 });
    desk = await tradingDesk(pair.leader);
    await push(pair.leader, 'EURUSD', BID, ASK);
  });
  after(() => pair?.close());

  test('calls through either instance draw on one count, counted once where they run, kept in Redis', async () => {
    const trader = await desk.fundedTrader();
    const viaLeader = trader.client;
    const viaFollower = new (viaLeader.constructor as typeof Client)(pair.follower);
    viaFollower.setCookie('tp_session', viaLeader.cookieHeader.split('tp_session=')[1]!.split(';')[0]!);
    // Two through the follower (forwarded to the leader: counted once, not at both), two through the leader.
    for (const client of [viaFollower, viaFollower, viaLeader, viaLeader]) {
      const r = await client.post(calls.addPendingOrder.path, limitOrder());
      assert.equal(r.status, 200, JSON.stringify(r.body));
    }
    assertFailure(await viaFollower.post(calls.addPendingOrder.path, limitOrder()), 429);
    assertFailure(await viaLeader.post(calls.addPendingOrder.path, limitOrder()), 429);
    // The count is in Redis, where the follower reads it too (were the lead to move, it would go on from there).
    const counted = await pair.follower.app.windowCounts.read(`${USER_LIMIT_KEY_PREFIX}orders:${trader.id}`);
    assert.equal(counted.current, 6);
  });
});
