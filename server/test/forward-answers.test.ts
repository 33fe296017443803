import assert from 'node:assert/strict';
import http from 'node:http';
import { after, describe, test } from 'node:test';
import { clusterKeys } from '../src/cluster-keys';
import Fastify from 'fastify';
import { OTHER_SECRET, OUTCOME_UNKNOWN } from '../src/cluster/engine-calls';
import { ANSWER_HEADER, FORWARDED_HEADER } from '../src/cluster/forwarded-signature';
import { Forwarder } from '../src/cluster/forwarding';
import { closeListeners, follower, listening, signedAnswer, TEST_KEYS } from './helpers/forwarding';

/**
 * What a follower passes back from whoever answered a forwarded call (security review 2, findings 1
 * and 2): only the leader's answer to that very call — signed with the cluster's key over the
 * status, the call's MAC, the body and every header passed back — and the call reaches the leader
 * exactly as it was signed, whatever its URL holds.
 */
type Mode = 'good' | 'unsigned' | 'other key' | 'replayed' | 'header altered' | 'cookie added';

async function standIn(mode: () => Mode): Promise<{ address: string; urls: string[] }> {
  const urls: string[] = [];
  let first: { headers: Record<string, string>; body: string } | null = null;
  const server = http.createServer((req, res) => {
    urls.push(req.url ?? '');
    const body = JSON.stringify({ status: 'success', message: 'from the stand-in' });
    const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };
    const m = mode();
    const keys = m === 'other key' ? clusterKeys('another deployment, another secret') : TEST_KEYS;
    const signature = signedAnswer(keys, 200, req.headers[FORWARDED_HEADER], body, headers)!;
    const signedHeaders = { ...headers, [ANSWER_HEADER]: signature };
    if (m === 'good') first = { headers: signedHeaders, body };
    if (m === 'replayed') {
      // The first call's genuine signed answer, given to another call.
      res.writeHead(200, first!.headers);
      return res.end(first!.body);
    }
    if (m === 'unsigned') res.writeHead(200, headers);
    else if (m === 'header altered') res.writeHead(200, { ...signedHeaders, 'cache-control': 'public, max-age=31536000' });
    else if (m === 'cookie added') res.writeHead(200, { ...signedHeaders, 'set-cookie': 'tp_session=the-attackers; Path=/' });
    else res.writeHead(200, signedHeaders);
    res.end(body);
  });
  return { address: await listening(server), urls };
}

describe("a follower and the leader's answers", () => {
  after(closeListeners);

  test('passes back a signed answer to its call, and nothing unsigned, signed with another key, given to another call, or with a header changed', async () => {
    let mode: Mode = 'good';
    const leader = await standIn(() => mode);
    const f = follower({ lookup: async () => leader.address });
    try {
      const good = await f.call({ method: 'GET' });
      assert.equal(good.res.statusCode, 200, good.res.body);
      assert.equal(good.res.json().message, 'from the stand-in');
      for (const m of ['unsigned', 'other key', 'replayed', 'header altered', 'cookie added'] as const) {
        mode = m;
        const { res } = await f.call({ method: 'GET' });
        assert.equal(res.statusCode, 503, `${m}: ${res.body}`);
        assert.deepEqual(res.json(), { status: 'Failure', message: OUTCOME_UNKNOWN }, m);
        assert.equal(res.headers['set-cookie'], undefined, m);
        assert.equal(res.headers['cache-control'], undefined, m);
      }
    } finally {
      await f.close();
    }
  });
});

describe('a URL that a URL parser would write differently', () => {
  after(closeListeners);

  test("reaches the leader as the client sent it, and verifies: quotes, spaces written %20, '..'; so does a HEAD", async () => {
    // The leader's side: the signature check (app.ts's hooks) and a read that echoes its URL.
    const leaderForwarder = new Forwarder({ role: 'leader', shared: true, leaderWithin: async () => true }, TEST_KEYS, async () => null);
    const leader = Fastify({ logger: false });
    leader.addHook('preHandler', (request, reply, done) => {
      if (leaderForwarder.admit(request, reply)) done();
    });
    leader.addHook('onSend', (request, reply, payload, done) => {
      leaderForwarder.signAnswer(request, reply, payload);
      done(null, payload);
    });
    leader.get('/api/platform/*', async (request, reply) => {
      // One cookie, set as a string: the follower's Node reads it as a list; the signature holds.
      if (request.url.includes('cookie')) reply.header('set-cookie', 'tp_session=renewed; Path=/; HttpOnly');
      return { status: 'success', url: request.url };
    });
    const leaderAddress = await leader.listen({ port: 0, host: '127.0.0.1' });
    // The follower's side, listening, so that the URL reaches it untouched (no inject).
    const followerForwarder = new Forwarder({ role: 'follower', shared: true, leaderWithin: async () => false }, TEST_KEYS, async () => leaderAddress);
    const followerApp = Fastify({ logger: false });
    followerApp.get('/api/platform/*', async (request, reply) => ((await followerForwarder.route(request, reply)) ? reply : { status: 'here' }));
    const followerAddress = new URL(await followerApp.listen({ port: 0, host: '127.0.0.1' }));
    try {
      // HEAD on a forwarded GET route: Fastify sends no body, and the leader signs none.
      const head = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request({ hostname: '127.0.0.1', port: followerAddress.port, path: '/api/platform/getTrades.php', method: 'HEAD' }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: '' }));
        });
        req.on('error', reject);
        req.end();
      });
      assert.equal(head.status, 200, 'HEAD through a follower');
      const withCookie = await fetch(`${followerAddress.origin}/api/platform/cookie.php`);
      assert.equal(withCookie.status, 200, await withCookie.text());
      assert.equal(withCookie.headers.get('set-cookie'), 'tp_session=renewed; Path=/; HttpOnly', 'a cookie set by the leader is passed back');
      for (const path of ["/api/platform/getTrades.php?x=it's", '/api/platform/getTrades.php?q="a"%20b', '/api/platform/x/../getTrades.php?a=1', '/api/platform/getTrades.php?a=<b>|{c}^`d`']) {
        const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
          const req = http.request({ hostname: '127.0.0.1', port: followerAddress.port, path }, (res) => {
            let body = '';
            res.on('data', (c: Buffer) => (body += c.toString()));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          });
          req.on('error', reject);
          req.end();
        });
        assert.equal(answer.status, 200, `${path}: ${answer.body}`);
        assert.equal(JSON.parse(answer.body).url, path);
      }
    } finally {
      followerForwarder.close();
      leaderForwarder.close();
      await followerApp.close();
      await leader.close();
    }
  });
});

describe('a leader with another cluster secret', () => {
  after(closeListeners);

  test('is sent nothing: the client is told nothing was done, as retryable (security review 2, finding 6)', async () => {
    const leader = await standIn(() => 'good');
    const f = follower({ lookup: async () => ({ address: leader.address, keyId: clusterKeys('another secret').keyId }) });
    try {
      const { res } = await f.call();
      assert.equal(res.statusCode, 503);
      assert.equal(res.headers['retry-after'], '2');
      assert.deepEqual(res.json(), { status: 'Failure', message: OTHER_SECRET });
      assert.deepEqual(leader.urls, [], 'nothing was sent');
    } finally {
      await f.close();
    }
    // The same secret's key id: forwarded as ever.
    const g = follower({ lookup: async () => ({ address: leader.address, keyId: TEST_KEYS.keyId }) });
    try {
      assert.equal((await g.call()).res.statusCode, 200);
    } finally {
      await g.close();
    }
  });
});
