import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { calls } from '@tradeport/contracts';
import { BUS_DOWN, RETRY_AFTER_SECONDS } from '../src/cluster/engine-calls';
import { RELAY_QUIET_MS } from '../src/market/quote-book';
import type { TestApp } from './helpers/app';
import { Client } from './helpers/client';
import { startLeaderAndFollower } from './helpers/two-instances';
import { eventually, openPosition, push, sleep, tradingDesk } from './helpers/trading';

/**
 * Issue 19, the other side: the leader loses its link to Redis while a follower keeps its own. The
 * follower's prices stop (no batches) and its traders would never hear of a fill, so it refuses
 * order-changing calls as retryable, like with its own Redis down, and forwards again once the
 * leader's quotes flow.
 */
const PG = process.env.DATABASE_URL ?? '';
const on = (t: TestApp, client: Client) => {
  const other = new Client(t);
  other.setCookie('tp_session', client.cookieHeader.split('tp_session=')[1]!.split(';')[0]!);
  return other;
};

describe('the leader without Redis, a follower with', { skip: PG.startsWith('postgres') ? false : 'needs PostgreSQL (DATABASE_URL=postgres://…)', timeout: 120_000 }, () => {
  test('the follower refuses orders as retryable while the leader is cut off, and forwards again once its quotes flow', async () => {
    const { leader, follower, close } = await startLeaderAndFollower();
    try {
      await push(leader, 'EURUSD', 1.1, 1.1002);
      await eventually('relayed', async () => follower.app.market.book.get('EURUSD')?.bid === 1.1);
      const desk = await tradingDesk(leader);
      const trader = await desk.fundedTrader('10000.00');
      const there = on(follower, trader.client);
      await eventually('the follower trades', async () => follower.app.cluster.busUp());

      // Only the leader's connections to Redis go (a partition between it and Redis); ioredis
      // does not reconnect after disconnect() until told to.
      const bus = leader.ctx.bus as unknown as { pub: { disconnect(reconnect?: boolean): void; connect(): Promise<void> }; sub: { disconnect(reconnect?: boolean): void; connect(): Promise<void> } };
      bus.pub.disconnect();
      bus.sub.disconnect();
      await eventually('leader bus down', async () => !leader.ctx.bus.connected());
      assert.equal(follower.ctx.bus.connected(), true);
      await sleep(RELAY_QUIET_MS + 500);
      assert.equal(follower.app.market.book.view('EURUSD').stale, true, 'the follower shows its prices as stale');

      const order = { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 0.1, stopLoss: 0, takeProfit: 0, comment: '' };
      const refused = await there.post(calls.addTrades.path, order, { 'idempotency-key': randomUUID() });
      assert.equal(refused.status, 503, JSON.stringify(refused.body));
      assert.equal(refused.headers.get('retry-after'), String(RETRY_AFTER_SECONDS));
      assert.deepEqual(refused.body, { status: 'Failure', message: BUS_DOWN });
      const open = await leader.ctx.db.selectFrom('positions').select('id').where('user_id', '=', trader.id).execute();
      assert.equal(open.length, 0, 'nothing was carried out');

      // The leader's link is back: its whole book goes out at once, and the follower forwards again.
      await Promise.all([bus.pub.connect(), bus.sub.connect()]);
      await eventually('the leader bus up', async () => leader.ctx.bus.connected());
      await eventually('the follower trades again', async () => follower.app.cluster.busUp(), 3_000);
      const ticket = await openPosition(there, { side: 'buy', volume: 0.1 });
      assert.ok(ticket > 0);
    } finally {
      await close();
    }
  });
});
