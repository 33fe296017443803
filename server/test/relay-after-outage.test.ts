import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RELAY_SNAPSHOT_MS } from '../src/cluster/quote-relay';
import { startLeaderAndFollower } from './helpers/two-instances';
import { eventually, push, sleep } from './helpers/trading';

/**
 * The leader relays only the quotes that changed. A follower that missed batches while Redis was
 * away would keep, shown as live, its price from before the outage for every symbol that has not
 * ticked since: the leader sends its whole book every few seconds, and the follower applies only
 * what it does not have (a repeated quote is no new tick for its candles or its stream).
 */
const PG = process.env.DATABASE_URL ?? '';

describe('relayed quotes after a Redis outage', { skip: PG.startsWith('postgres') ? false : 'needs PostgreSQL (DATABASE_URL=postgres://…)', timeout: 120_000 }, () => {
  test("a follower catches up on a price the leader changed during the outage, without a new tick; repeats are not ticks", async () => {
    const { leader, follower, redis, close } = await startLeaderAndFollower();
    try {
      await push(leader, 'EURUSD', 1.1, 1.1002);
      await eventually('the follower has the relayed price', async () => follower.app.market.book.get('EURUSD')?.bid === 1.1);

      await redis.stop();
      await eventually('the follower sees Redis down', async () => !follower.ctx.bus.connected(), 10_000);
      await push(leader, 'EURUSD', 1.15, 1.1502);
      await sleep(200);
      assert.equal(follower.app.market.book.get('EURUSD')?.bid, 1.1);
      await redis.start();
      await eventually('the follower sees Redis again', async () => follower.ctx.bus.connected(), 20_000);

      // No tick since: the leader's next snapshot brings the price.
      await eventually('the follower has the price of the outage', async () => follower.app.market.book.get('EURUSD')?.bid === 1.15, RELAY_SNAPSHOT_MS + 3_000);

      // Later snapshots repeat it: nothing on the follower takes that for a tick.
      let ticks = 0;
      const stop = follower.app.market.book.onQuote((q) => {
        if (q.symbol === 'EURUSD') ticks += 1;
      });
      await sleep(RELAY_SNAPSHOT_MS + 1_000);
      stop();
      assert.equal(ticks, 0);
    } finally {
      await close();
    }
  });
});
