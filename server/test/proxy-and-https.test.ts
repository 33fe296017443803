import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../src/config';
import { startApp, type TestApp } from './helpers/app';
import { Client, signedInTrader } from './helpers/client';

/**
 * Client addresses behind a reverse proxy, and HTTPS behind a TLS-terminating one (security review
 * findings 2 and 3). The test client always connects from 127.0.0.1, so "the proxy" is either that
 * address (trusted) or someone else's (not trusted), and a client that forges X-Forwarded-For is
 * played by a header that changes on every request.
 */

const LIMIT = 10;
const resetRequest = (t: TestApp, xff: string) => new Client(t, { headers: { 'x-forwarded-for': xff } }).post('/requestPasswordReset.php', { email: 'nobody@example.com' });

/** Sends LIMIT + 1 reset requests, each with a new forged left-most X-Forwarded-For entry. */
async function forgedBurst(t: TestApp, appendedByProxy: string | null): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i <= LIMIT; i++) {
    const forged = `198.18.${i}.${i + 1}`;
    statuses.push((await resetRequest(t, appendedByProxy ? `${forged}, ${appendedByProxy}` : forged)).status);
  }
  return statuses;
}

describe('TRUST_PROXY', () => {
  test('true is refused at start with a message that says what to set instead', () => {
    assert.throws(() => loadConfig({ TRUST_PROXY: 'true' }), (err: Error) => {
      assert.match(err.message, /TRUST_PROXY=true would believe whatever X-Forwarded-For a client sends/);
      assert.match(err.message, /addresses or CIDR ranges of your reverse proxies \(e\.g\. TRUST_PROXY=10\.0\.0\.5 or 10\.0\.0\.0\/8\)/);
      assert.match(err.message, /TRUST_PROXY=1/);
      return true;
    });
    assert.equal(loadConfig({ TRUST_PROXY: 'false' }).trustProxy, false);
    assert.equal(loadConfig({}).trustProxy, false);
    assert.equal(loadConfig({ TRUST_PROXY: '10.0.0.5, 192.168.0.0/16' }).trustProxy, '10.0.0.5, 192.168.0.0/16');
    assert.equal(typeof loadConfig({ TRUST_PROXY: '1' }).trustProxy, 'function');
  });

  describe('one proxy hop (TRUST_PROXY=1)', () => {
    let t: TestApp;
    before(async () => {
      t = await startApp({ config: { trustProxy: loadConfig({ TRUST_PROXY: '1' }).trustProxy, passwordResetRateLimitPerMinute: LIMIT } });
    });
    after(() => t.close());

    test('the client address is the one the proxy appended, so a forged left-most entry does not escape the per-IP limit', async () => {
      const statuses = await forgedBurst(t, '203.0.113.9');
      assert.deepEqual(statuses.slice(0, LIMIT), Array(LIMIT).fill(200));
      assert.equal(statuses[LIMIT], 429);
      // Another client behind the same proxy has a budget of its own.
      assert.equal((await resetRequest(t, '198.18.0.1, 203.0.113.10')).status, 200);
    });

    test('the activity log records the address the proxy saw, not the one the client claimed', async () => {
      const trader = await signedInTrader(t);
      const forged = new Client(t, { headers: { 'x-forwarded-for': '6.6.6.6, 203.0.113.77' } });
      assert.equal((await forged.post('/login.php', { email: trader.email, password: trader.password })).body.status, 'Success');
      const row = await t.ctx.db.selectFrom('activity_log').select(['ip', 'kind']).where('user_id', '=', trader.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
      assert.equal(row.kind, 'signin');
      assert.equal(row.ip, '203.0.113.77');
    });
  });

  describe("the proxy's own address (TRUST_PROXY=127.0.0.1)", () => {
    let t: TestApp;
    before(async () => {
      t = await startApp({ config: { trustProxy: loadConfig({ TRUST_PROXY: '127.0.0.1' }).trustProxy, passwordResetRateLimitPerMinute: LIMIT } });
    });
    after(() => t.close());

    test('requests from the trusted proxy are counted per client, forged entries included', async () => {
      const statuses = await forgedBurst(t, '203.0.113.20');
      assert.equal(statuses[LIMIT], 429);
      assert.equal(statuses.filter((s) => s === 200).length, LIMIT);
    });
  });

  describe('a server reached directly, not through the named proxy (TRUST_PROXY=10.0.0.0/8)', () => {
    let t: TestApp;
    before(async () => {
      t = await startApp({ config: { trustProxy: loadConfig({ TRUST_PROXY: '10.0.0.0/8' }).trustProxy, passwordResetRateLimitPerMinute: LIMIT } });
    });
    after(() => t.close());

    test('X-Forwarded-For from an untrusted peer is ignored: every forged header shares one budget', async () => {
      const statuses = await forgedBurst(t, null);
      assert.equal(statuses[LIMIT], 429);
    });
  });
});

describe('HTTPS behind a TLS-terminating proxy', () => {
  const cookieOf = (headers: Headers) => headers.getSetCookie().find((c) => c.startsWith('tp_session='));

  test('with an https PUBLIC_ORIGIN the session cookie is always Secure and HSTS is sent, even when the proxy forwards plain HTTP without X-Forwarded-Proto', async () => {
    const cfg = loadConfig({ PUBLIC_ORIGIN: 'https://trade.example.com' });
    const t = await startApp({ config: { publicOrigins: cfg.publicOrigins, publicUrl: cfg.publicUrl, httpsOnly: cfg.httpsOnly, hstsMaxAgeSeconds: cfg.hstsMaxAgeSeconds } });
    try {
      const trader = await signedInTrader(t);
      const login = await new Client(t).post('/login.php', { email: trader.email, password: trader.password });
      assert.match(cookieOf(login.headers) ?? '', /; Secure/i);
      const logout = await trader.client.post('/logout.php');
      assert.match(cookieOf(logout.headers) ?? '', /; Secure/i);
      for (const path of ['/api/health', '/api/getAppConfig.php', '/']) {
        const res = await fetch(`${t.origin}${path}`);
        assert.equal(res.headers.get('strict-transport-security'), 'max-age=15552000', path);
      }
    } finally {
      await t.close();
    }
  });

  test('HSTS_MAX_AGE_SECONDS sets the max-age, 0 turns HSTS off, and it is refused without an https PUBLIC_ORIGIN', async () => {
    assert.equal(loadConfig({ PUBLIC_ORIGIN: 'https://trade.example.com', HSTS_MAX_AGE_SECONDS: '31536000' }).hstsMaxAgeSeconds, 31536000);
    assert.equal(loadConfig({ PUBLIC_ORIGIN: 'https://trade.example.com', HSTS_MAX_AGE_SECONDS: '0' }).hstsMaxAgeSeconds, 0);
    assert.throws(() => loadConfig({ HSTS_MAX_AGE_SECONDS: '600' }), /HSTS_MAX_AGE_SECONDS needs an https:\/\/ PUBLIC_ORIGIN/);
    assert.throws(() => loadConfig({ PUBLIC_ORIGIN: 'https://trade.example.com', HSTS_MAX_AGE_SECONDS: 'forever' }), /HSTS_MAX_AGE_SECONDS/);
    const off = loadConfig({ PUBLIC_ORIGIN: 'https://trade.example.com', HSTS_MAX_AGE_SECONDS: '0' });
    const t = await startApp({ config: { httpsOnly: off.httpsOnly, hstsMaxAgeSeconds: off.hstsMaxAgeSeconds } });
    try {
      assert.equal((await fetch(`${t.origin}/api/health`)).headers.get('strict-transport-security'), null);
    } finally {
      await t.close();
    }
  });

  test('a plain-HTTP site (the embedded default) sends no HSTS and a cookie without Secure; a trusted proxy saying X-Forwarded-Proto: https makes it Secure', async () => {
    const t = await startApp({ config: { trustProxy: loadConfig({ TRUST_PROXY: '127.0.0.1' }).trustProxy } });
    try {
      const trader = await signedInTrader(t);
      const plain = await new Client(t).post('/login.php', { email: trader.email, password: trader.password });
      assert.doesNotMatch(cookieOf(plain.headers) ?? 'missing', /Secure/i);
      assert.ok(cookieOf(plain.headers));
      assert.equal(plain.headers.get('strict-transport-security'), null);
      const proxied = await new Client(t, { headers: { 'x-forwarded-proto': 'https' } }).post('/login.php', { email: trader.email, password: trader.password });
      assert.match(cookieOf(proxied.headers) ?? '', /; Secure/i);
    } finally {
      await t.close();
    }
  });
});
