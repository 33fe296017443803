import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, test } from 'node:test';
import Fastify from 'fastify';
import { ENGINE_MOVING, LEADER_UNKNOWN, RETRY_AFTER_SECONDS } from '../src/cluster/engine-calls';
import { ANSWER_HEADER, FORWARDED_HEADER } from '../src/cluster/forwarded-signature';
import { answerSigned, closeListeners, signedAnswer, follower as testFollower, listening, TEST_KEYS } from './helpers/forwarding';

/**
 * What a follower asks PostgreSQL before it forwards a call — who leads — is waited for a short,
 * bounded time, not the pool's 10 s (or for ever, for a database that takes the connection and
 * never answers): the client gets a 503 with Retry-After in the spec's shape. Calls that need the
 * leader's address at the same moment share one lookup.
 */
const LOOKUP_MS = 300;

/** A leader that answers every call at once. */
async function answeringLeader(): Promise<string> {
  return listening(
    http.createServer((req, res) => {
      answerSigned(req, res, 200, { 'content-type': 'application/json; charset=utf-8' }, JSON.stringify({ status: 'success', message: 'Order placed' }));
    }),
  );
}

const follower = (lookup: () => Promise<string | null>) => testFollower({ lookup, deadlineMs: 2_000, lookupDeadlineMs: LOOKUP_MS });

describe('what a follower asks PostgreSQL before forwarding', () => {
  after(closeListeners);

  test('a leader lookup that never answers: 503 with Retry-After in the spec\'s shape after the short deadline, "nothing was done"', { timeout: 10_000 }, async () => {
    const f = follower(() => new Promise<string | null>(() => undefined));
    try {
      const { res, ms } = await f.call();
      assert.equal(res.statusCode, 503);
      assert.equal(res.headers['retry-after'], String(RETRY_AFTER_SECONDS));
      assert.deepEqual(res.json(), { status: 'Failure', message: LEADER_UNKNOWN });
      assert.ok(ms >= LOOKUP_MS - 50 && ms < LOOKUP_MS + 1000, `answered after ${ms} ms`);
    } finally {
      await f.close();
    }
  });

  test('calls arriving together share one lookup of the leader', async () => {
    const leader = await answeringLeader();
    let lookups = 0;
    const f = follower(async () => {
      lookups += 1;
      await new Promise((r) => setTimeout(r, 100));
      return leader;
    });
    try {
      const answers = await Promise.all(Array.from({ length: 20 }, () => f.call()));
      assert.deepEqual(
        answers.map((a) => a.res.statusCode),
        answers.map(() => 200),
      );
      assert.equal(lookups, 1);
    } finally {
      await f.close();
    }
  });

  test('a lookup that failed is not kept: the next call asks again', async () => {
    const leader = await answeringLeader();
    let lookups = 0;
    const f = follower(async () => {
      lookups += 1;
      if (lookups === 1) throw new Error('connection refused');
      return leader;
    });
    try {
      assert.equal((await f.call()).res.statusCode, 503);
      assert.equal((await f.call()).res.statusCode, 200);
      assert.equal(lookups, 2);
    } finally {
      await f.close();
    }
  });
});

describe('a leader that answers 503', () => {
  after(closeListeners);

  test("shutting down, to a call on a kept-alive connection (Fastify's own 503): the client gets the spec's retryable refusal, and the next call looks the leader up again", async () => {
    const leader = Fastify({ logger: false, return503OnClosing: true });
    // Signs its answers as a leader does (app.ts); Fastify's own 503 while closing runs no hook.
    leader.addHook('onSend', async (request, reply, payload) => {
      const signature = signedAnswer(TEST_KEYS, reply.statusCode, request.headers[FORWARDED_HEADER], payload as string, reply.getHeaders());
      if (signature) reply.header(ANSWER_HEADER, signature);
      return payload;
    });
    let calls = 0;
    let reached: () => void = () => undefined;
    const firstReached = new Promise<void>((r) => (reached = r));
    leader.post('/api/platform/addTrades.php', async () => {
      calls += 1;
      if (calls === 1) {
        reached();
        await new Promise((r) => setTimeout(r, 300));
      }
      return { status: 'success', message: 'Order placed' };
    });
    await leader.listen({ port: 0, host: '127.0.0.1' });
    const address = `http://127.0.0.1:${(leader.server.address() as AddressInfo).port}`;
    let lookups = 0;
    const f = follower(async () => {
      lookups += 1;
      return address;
    });
    try {
      // A call under way when the leader begins to shut down finishes; the next one reuses its connection.
      const first = f.call();
      await firstReached;
      const closing = leader.close();
      assert.equal((await first).res.statusCode, 200);
      const { res } = await f.call();
      assert.equal(res.statusCode, 503);
      assert.equal(res.headers['retry-after'], String(RETRY_AFTER_SECONDS));
      assert.deepEqual(res.json(), { status: 'Failure', message: ENGINE_MOVING });
      await closing;
      await f.call();
      assert.equal(lookups, 2, 'looked up again after the 503');
    } finally {
      await f.close();
    }
  });

  test("of its own (Retry-After, the spec's shape): passed on as it is", async () => {
    const leader = await listening(
      http.createServer((req, res) => {
        answerSigned(req, res, 503, { 'content-type': 'application/json; charset=utf-8', 'retry-after': '1' }, JSON.stringify({ status: 'Failure', message: 'Two requests changed the same data at the same moment; nothing was saved. Please try again.' }));
      }),
    );
    const f = follower(async () => leader);
    try {
      const { res } = await f.call();
      assert.equal(res.statusCode, 503);
      assert.equal(res.headers['retry-after'], '1');
      assert.match(res.json().message, /nothing was saved/);
    } finally {
      await f.close();
    }
  });
});
