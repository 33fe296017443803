import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { clusterKeys } from '../src/cluster-keys';
import { CLOCKS_DIFFER, FORGED_CALL } from '../src/cluster/engine-calls';
import { ANSWER_HEADER, bodyText, CLIENT_IP_HEADER, FORWARDED_HEADER, forwardedHeader, SIGNATURE_VALID_MS } from '../src/cluster/forwarded-signature';
import { Forwarder } from '../src/cluster/forwarding';
import { signedAnswer, TEST_KEYS } from './helpers/forwarding';

/**
 * What a leader does with a call that says another instance forwarded it: it carries it out — and
 * believes the client address in it — only when the call is signed with the cluster's key over
 * what it asks (method, URL, body, session cookie, client address), recently, and for the first
 * time. Anything else is refused before any of it runs. Its answers to such calls are signed.
 */
const ORDER = '/api/platform/addTrades.php';

/** A leader's side: the call's route (forwarding as call-route.ts does) and the answers' signing hook (app.ts). */
async function leaderApp(shared: boolean): Promise<{ app: FastifyInstance; ran: string[] }> {
  const forwarder = new Forwarder({ role: 'leader', shared, leaderWithin: async () => true }, shared ? TEST_KEYS : null, async () => null);
  const ran: string[] = [];
  const app = Fastify({ logger: false });
  app.addHook('preHandler', (request, reply, done) => {
    if (forwarder.admit(request, reply)) done();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    forwarder.signAnswer(request, reply, payload);
    done(null, payload);
  });
  app.get('/api/health', async () => ({ status: 'ok' }));
  app.post(ORDER, async (request, reply) => {
    if (await forwarder.route(request, reply)) return reply;
    const ip = forwarder.clientIp(request);
    ran.push(ip);
    return { status: 'success', message: 'carried out', ip };
  });
  app.addHook('onClose', async () => forwarder.close());
  return { app, ran };
}

const payload = { fullSymbol: 'EURUSD', volume: 1 };
// Every header the signature covers is given (inject would add its own host and user-agent).
const baseHeaders = { host: 'trade.example.com', 'user-agent': 'test', cookie: 'tp_session=abc', [CLIENT_IP_HEADER]: '203.0.113.5' };

/** A call to the leader as a follower sends it; `change` alters it after it was signed. */
function signed(options: { keys?: typeof TEST_KEYS; at?: number; change?: (h: Record<string, string>, body: Record<string, unknown>) => void } = {}) {
  const headers: Record<string, string> = { ...baseHeaders };
  const body: Record<string, unknown> = { ...payload };
  headers[FORWARDED_HEADER] = forwardedHeader(options.keys ?? TEST_KEYS, 'POST', ORDER, bodyText('POST', body), headers, options.at ?? Date.now());
  options.change?.(headers, body);
  return { method: 'POST' as const, url: ORDER, headers, payload: body, remoteAddress: '10.9.8.7' };
}

describe('a call forwarded to the leader', () => {
  let leader: Awaited<ReturnType<typeof leaderApp>>;
  before(async () => {
    leader = await leaderApp(true);
  });
  after(() => leader.app.close());

  it('is carried out when signed, with the client address the follower saw; the answer is signed for that call', async () => {
    const call = signed();
    const res = await leader.app.inject(call);
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().ip, '203.0.113.5');
    assert.equal(res.headers[ANSWER_HEADER], signedAnswer(TEST_KEYS, 200, call.headers[FORWARDED_HEADER], res.body, res.headers as Record<string, string>));
  });

  it('is refused, and not carried out, when it only says it was forwarded (no signature), or is signed with another key', async () => {
    const before = leader.ran.length;
    for (const call of [
      { method: 'POST' as const, url: ORDER, headers: { ...baseHeaders, [FORWARDED_HEADER]: '1' }, payload },
      signed({ keys: clusterKeys('another deployment has another cluster secret') }),
    ]) {
      const res = await leader.app.inject(call);
      assert.equal(res.statusCode, 403);
      assert.deepEqual(res.json(), { status: 'Failure', message: FORGED_CALL });
    }
    assert.equal(leader.ran.length, before, 'nothing was carried out');
  });

  it('is refused when anything it asks was changed after it was signed: the body, the session cookie, the client address', async () => {
    const before = leader.ran.length;
    for (const change of [
      (_h: Record<string, string>, b: Record<string, unknown>) => void (b.volume = 100),
      (h: Record<string, string>) => void (h.cookie = 'tp_session=someone-else'),
      (h: Record<string, string>) => void (h[CLIENT_IP_HEADER] = '198.51.100.1'),
    ]) {
      assert.equal((await leader.app.inject(signed({ change }))).statusCode, 403);
    }
    assert.equal(leader.ran.length, before);
  });

  it('is carried out once: the same signed call sent again, or one signed too long ago, is refused as retryable (security review 2, finding 6)', async () => {
    const call = signed();
    assert.equal((await leader.app.inject(call)).statusCode, 200);
    const before = leader.ran.length;
    // A replay: retryable, and unsigned (the first may have been carried out: the follower says
    // the outcome is unknown). Before, a non-retryable 403 "not signed", signed and passed on.
    const again = await leader.app.inject(call);
    assert.equal(again.statusCode, 503);
    assert.equal(again.headers['retry-after'], '2');
    assert.equal(again.headers[ANSWER_HEADER], undefined);
    // Signed by a follower whose clock is behind: nothing was done, and the leader says so, signed.
    const late = signed({ at: Date.now() - SIGNATURE_VALID_MS - 1_000 });
    const stale = await leader.app.inject(late);
    assert.equal(stale.statusCode, 503);
    assert.equal(stale.headers['retry-after'], '2');
    assert.deepEqual(stale.json(), { status: 'Failure', message: CLOCKS_DIFFER });
    assert.equal(stale.headers[ANSWER_HEADER], signedAnswer(TEST_KEYS, 503, late.headers[FORWARDED_HEADER], stale.body, stale.headers as Record<string, string>));
    assert.equal(leader.ran.length, before);
  });

  it('gets no answer signature unless it verified: a made-up header on any route, a 404, a forged call\'s refusal (security review 2, finding 1)', async () => {
    // Before, every answer to a request whose header merely had the right shape was signed: a fake
    // leader could have a follower's nonce signed by the real one on any route.
    const made = { [FORWARDED_HEADER]: forwardedHeader(clusterKeys('not this cluster\'s secret'), 'GET', '/x', '', {}) };
    const shaped = `v2 ${'A'.repeat(12)} 1 ${Date.now()} ${'B'.repeat(43)}`;
    for (const header of [made[FORWARDED_HEADER], shaped]) {
      for (const call of [
        { method: 'GET' as const, url: '/api/health', headers: { ...baseHeaders, [FORWARDED_HEADER]: header } },
        { method: 'GET' as const, url: '/no/such/route', headers: { ...baseHeaders, [FORWARDED_HEADER]: header } },
        { method: 'POST' as const, url: ORDER, headers: { ...baseHeaders, [FORWARDED_HEADER]: header }, payload },
      ]) {
        const res = await leader.app.inject(call);
        assert.notEqual(res.statusCode, 200, `${call.method} ${call.url}`);
        assert.equal(res.headers[ANSWER_HEADER], undefined, `${call.method} ${call.url} got a signed answer`);
      }
    }
  });

  it('signs every header it passes back with the answer, for the call it answers only', async () => {
    const call = signed();
    const res = await leader.app.inject(call);
    const headers = res.headers as Record<string, string>;
    const body = res.body;
    const good = signedAnswer(TEST_KEYS, 200, call.headers[FORWARDED_HEADER], body, headers);
    assert.equal(res.headers[ANSWER_HEADER], good);
    assert.notEqual(signedAnswer(TEST_KEYS, 200, call.headers[FORWARDED_HEADER], body, { ...headers, 'cache-control': 'public, max-age=3600' }), good);
    assert.notEqual(signedAnswer(TEST_KEYS, 200, call.headers[FORWARDED_HEADER], body, { ...headers, 'set-cookie': 'tp_session=x' }), good);
    assert.notEqual(signedAnswer(TEST_KEYS, 200, signed().headers[FORWARDED_HEADER], body, headers), good, 'another call');
  });

  it('with more followers in the window than are remembered, a genuine call is refused as retryable, signed: nothing was done', async () => {
    const busy = await leaderApp(true);
    try {
      for (let i = 0; i < 1_000; i++) assert.equal((await busy.app.inject(signed())).statusCode, 200);
      const ran = busy.ran.length;
      const call = signed();
      const res = await busy.app.inject(call);
      assert.equal(res.statusCode, 503);
      assert.equal(res.headers['retry-after'], '2');
      assert.equal(res.headers[ANSWER_HEADER], signedAnswer(TEST_KEYS, 503, call.headers[FORWARDED_HEADER], res.body, res.headers as Record<string, string>));
      assert.equal(busy.ran.length, ran);
    } finally {
      await busy.app.close();
    }
  });

  it('a client address header on a call that is not forwarded is ignored', async () => {
    const res = await leader.app.inject({ method: 'POST', url: ORDER, headers: baseHeaders, payload, remoteAddress: '10.9.8.7' });
    assert.equal(res.json().ip, '10.9.8.7');
  });

  it('on the single SQLite process (no cluster, no key) a forwarded call is never taken: a client cannot choose the address recorded', async () => {
    const single = await leaderApp(false);
    try {
      const res = await single.app.inject(signed());
      assert.equal(res.statusCode, 403);
      assert.deepEqual(single.ran, []);
      assert.equal((await single.app.inject({ method: 'POST', url: ORDER, headers: baseHeaders, payload, remoteAddress: '10.9.8.7' })).json().ip, '10.9.8.7');
    } finally {
      await single.app.close();
    }
  });
});
