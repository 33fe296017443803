import assert from 'node:assert/strict';
import http from 'node:http';
import { after, describe, test } from 'node:test';
import { BUS_DOWN, RETRY_AFTER_SECONDS } from '../src/cluster/engine-calls';
import { answerSigned, closeListeners, follower, listening } from './helpers/forwarding';

/**
 * A follower whose Redis is down has prices that stopped and would not hear of a fill or a close:
 * it refuses every engine call that changes something with the spec's retryable 503, before it
 * asks who leads or sends anything, keeps forwarding the reads, and forwards changes again as soon
 * as its bus is back. (The whole instance, on PostgreSQL and a Redis stopped and started:
 * follower-redis-down.test.ts.)
 */
describe('a follower without its bus', () => {
  after(closeListeners);

  test('refuses an order as retryable without asking who leads or reaching the leader; forwards reads; forwards orders again once the bus is back', async () => {
    const reached: string[] = [];
    const leader = await listening(
      http.createServer((req, res) => {
        reached.push(`${req.method} ${req.url}`);
        answerSigned(req, res, 200, { 'content-type': 'application/json; charset=utf-8' }, JSON.stringify({ status: 'success', message: 'done by the leader' }));
      }),
    );
    let up = false;
    let lookups = 0;
    const f = follower({
      leading: { busUp: () => up },
      lookup: async () => {
        lookups += 1;
        return leader;
      },
    });
    try {
      const refused = await f.call();
      assert.equal(refused.res.statusCode, 503);
      assert.equal(refused.res.headers['retry-after'], String(RETRY_AFTER_SECONDS));
      assert.deepEqual(refused.res.json(), { status: 'Failure', message: BUS_DOWN });
      assert.deepEqual(reached, [], 'nothing was sent to the leader');
      assert.equal(lookups, 0, 'nobody was asked who leads');

      const read = await f.call({ method: 'GET' });
      assert.equal(read.res.statusCode, 200);
      assert.deepEqual(reached, ['GET /api/platform/getTrades.php'], 'reads are still forwarded');

      up = true;
      const again = await f.call();
      assert.equal(again.res.statusCode, 200);
      assert.equal(again.res.json().message, 'done by the leader');
      assert.deepEqual(reached.at(-1), 'POST /api/platform/addTrades.php');
    } finally {
      await f.close();
    }
  });

  test('an instance taking the lead right now runs the call itself, bus or not: the leader needs no Redis to execute', async () => {
    const f = follower({ leading: { busUp: () => false, leaderWithin: async () => true }, lookup: async () => null });
    try {
      const { res } = await f.call();
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().message, 'carried out here');
    } finally {
      await f.close();
    }
  });
});
