import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, describe, test } from 'node:test';
import { ENGINE_MOVING, OUTCOME_UNKNOWN, RETRY_AFTER_SECONDS } from '../src/cluster/engine-calls';
import { answerSigned, closeListeners, follower as testFollower, listening, stopListening } from './helpers/forwarding';

/**
 * A call a follower forwards to the engine leader has a deadline for the whole exchange: a leader
 * that never answers, or answers a byte at a time, gets the client a 503 with Retry-After within
 * it, never a request that hangs.
 */
const DEADLINE_MS = 400;

/** The follower gave up on the leader after the call reached it: 503, Retry-After, "may or may not have been carried out". */
function assertOutcomeUnknown(res: { statusCode: number; headers: Record<string, unknown>; json(): unknown }): void {
  assert.equal(res.statusCode, 503);
  assert.equal(res.headers['retry-after'], String(RETRY_AFTER_SECONDS));
  assert.deepEqual(res.json(), { status: 'Failure', message: OUTCOME_UNKNOWN });
}

/** A follower whose calls go to `leader`, found after `lookupMs`. */
function follower(leader: string, lookupMs = 0) {
  const lookup = async () => {
    if (lookupMs > 0) await new Promise((r) => setTimeout(r, lookupMs));
    return leader;
  };
  return testFollower({ lookup, deadlineMs: DEADLINE_MS });
}

describe('a call forwarded to the engine leader', () => {
  after(closeListeners);

  test('a leader that takes the call and never answers: 503 with Retry-After within the deadline, "may or may not have been carried out"', async () => {
    const leader = await listening(net.createServer(() => undefined));
    const f = follower(leader);
    try {
      const { res, ms } = await f.call();
      assertOutcomeUnknown(res);
      assert.ok(ms >= DEADLINE_MS - 50 && ms < DEADLINE_MS + 1500, `answered after ${ms} ms`);
    } finally {
      await f.close();
    }
  });

  test('the time spent finding the leader counts: the deadline runs from the call\'s arrival, not from when it was sent on', async () => {
    const leader = await listening(net.createServer(() => undefined));
    const f = follower(leader, DEADLINE_MS * 0.75);
    try {
      const { res, ms } = await f.call();
      assertOutcomeUnknown(res);
      assert.ok(ms < DEADLINE_MS + 250, `answered after ${ms} ms`);
    } finally {
      await f.close();
    }
  });

  test('a leader that sends its headers and then a byte at a time, never finishing: 503 within the deadline, not after it stops', async () => {
    const dribbling = new Set<NodeJS.Timeout>();
    const leader = await listening(
      http.createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{');
        const timer = setInterval(() => res.write(' '), 50);
        dribbling.add(timer);
        res.on('close', () => clearInterval(timer));
      }),
    );
    const f = follower(leader);
    try {
      const { res, ms } = await f.call();
      assertOutcomeUnknown(res);
      assert.ok(ms < DEADLINE_MS + 1500, `answered after ${ms} ms`);
    } finally {
      for (const t of dribbling) clearInterval(t);
      await f.close();
    }
  });

  test("a leader that answers in time: its answer is the client's, and nothing follows it", async () => {
    const leader = await listening(
      http.createServer((req, res) => {
        assert.match(String(req.headers['x-tradeport-forwarded']), /^v2 [A-Za-z0-9_-]+ \d+ \d+ \S+$/);
        answerSigned(req, res, 200, { 'content-type': 'application/json; charset=utf-8' }, JSON.stringify({ status: 'success', message: 'Order placed', ticket: 7 }));
      }),
    );
    const f = follower(leader);
    try {
      const { res } = await f.call();
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), { status: 'success', message: 'Order placed', ticket: 7 });
      // The deadline's timer was cleared: nothing fires after the answer.
      await new Promise((r) => setTimeout(r, DEADLINE_MS + 100));
    } finally {
      await f.close();
    }
  });

  test('no leader listening at the address: 503 "nothing was done" at once', async () => {
    const gone = await listening(net.createServer());
    await stopListening(gone);
    const f = follower(gone);
    try {
      const { res, ms } = await f.call();
      assert.equal(res.statusCode, 503);
      assert.deepEqual(res.json(), { status: 'Failure', message: ENGINE_MOVING });
      assert.ok(ms < DEADLINE_MS, `answered after ${ms} ms`);
    } finally {
      await f.close();
    }
  });
});

describe('the connections a follower keeps to the leader', () => {
  test("are closed by the follower once idle, before the leader's own keep-alive timeout could close one under a call", async () => {
    const closedByClient: boolean[] = [];
    const leader = http.createServer((req, res) => {
      answerSigned(req, res, 200, { 'content-type': 'application/json; charset=utf-8' }, JSON.stringify({ status: 'success', message: 'Order placed' }));
    });
    leader.keepAliveTimeout = 60_000;
    leader.on('connection', (s: net.Socket) => s.on('end', () => closedByClient.push(true)));
    await new Promise<void>((resolve) => leader.listen(0, '127.0.0.1', resolve));
    const address = `http://127.0.0.1:${(leader.address() as AddressInfo).port}`;
    const f = testFollower({ lookup: async () => address, deadlineMs: DEADLINE_MS, lookupDeadlineMs: DEADLINE_MS, idleMs: 300 });
    try {
      const { res } = await f.call({ payload: {} });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(closedByClient, [], 'kept for the next call');
      await new Promise((r) => setTimeout(r, 800));
      assert.deepEqual(closedByClient, [true], 'closed by the follower after 300 ms idle');
    } finally {
      await f.close();
      leader.closeAllConnections();
      await new Promise((r) => leader.close(r));
    }
  });
});
