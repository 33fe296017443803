import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import type { ServiceContext } from '../src/services/context';
import { SessionCache, type CachedSession } from '../src/services/session-cache';
import { cachedSession, hashToken, resolveSession } from '../src/services/sessions';
import { restartableDatabase, startApp, type TestApp } from './helpers/app';
import { Client, signedInAdmin, signedInTrader } from './helpers/client';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const TRADES = '/platform/getTrades.php';
const PROFILE = '/dashboard/customer/getProfileDetails.php';

const entry = (userId: number, loadedAt: number): CachedSession => ({ userId, role: 'trader', staffRoles: [], accountId: null, accounts: [], persistent: false, lastSeenAt: loadedAt, expiresAt: loadedAt + 3600_000, loadedAt });

/** A second client presenting the same session cookie (another tab, or a stolen copy). */
function sameSession(t: TestApp, client: Client): Client {
  const copy = new Client(t);
  const token = /tp_session=([^;]+)/.exec(client.cookieHeader)?.[1];
  assert.ok(token, 'the client has a session cookie');
  copy.setCookie('tp_session', token);
  return copy;
}

describe('session cache', () => {
  test('an entry is trusted for its time to live, then read again', () => {
    const cache = new SessionCache(5_000);
    cache.put('a', entry(1, 1_000), cache.ticket());
    assert.equal(cache.get('a', 5_999)?.userId, 1);
    assert.equal(cache.get('a', 6_000), undefined, 'expired at loadedAt + ttl');
    assert.equal(cache.size, 0);
    cache.put('b', entry(1, 1_000), cache.ticket());
    assert.equal(cache.get('b', 999), undefined, 'a clock that went backwards reads again');
  });

  test('dropping a user forgets all of their sessions and no one else’s', () => {
    const cache = new SessionCache();
    cache.put('a1', entry(1, 0), cache.ticket());
    cache.put('a2', entry(1, 0), cache.ticket());
    cache.put('b1', entry(2, 0), cache.ticket());
    cache.dropUser(1);
    assert.equal(cache.get('a1', 1), undefined);
    assert.equal(cache.get('a2', 1), undefined);
    assert.equal(cache.get('b1', 1)?.userId, 2);
  });

  test('a lookup that read the database before a drop is not stored after it', () => {
    const cache = new SessionCache();
    const ticket = cache.ticket();
    cache.dropUser(1); // a sign-out committed while the lookup was reading the old row
    cache.put('a', entry(1, 0), ticket);
    assert.equal(cache.get('a', 1), undefined);
    cache.put('a', entry(1, 0), cache.ticket());
    assert.equal(cache.get('a', 1)?.userId, 1);
  });

  test('the cache holds at most its capacity, dropping the oldest entry first', () => {
    const cache = new SessionCache(5_000, 3);
    for (const k of ['a', 'b', 'c', 'd']) cache.put(k, entry(k.charCodeAt(0), 0), cache.ticket());
    assert.equal(cache.size, 3);
    assert.equal(cache.get('a', 1), undefined);
    assert.equal(cache.get('d', 1)?.userId, 'd'.charCodeAt(0));
  });
});

describe('the token memo: a held session is not hashed again', () => {
  const HOUR = 3600_000;
  const token = 'A'.repeat(43);
  // Just what cachedSession reads of the context.
  const contextAt = (cache: SessionCache, clock: { now: number }) =>
    ({ sessionCache: cache, now: () => clock.now, config: { onlineWindowMs: 5 * 60_000, sessionIdleMs: 30 * 60_000 } }) as unknown as ServiceContext;
  const held = (userId: number, at: number, more: Partial<CachedSession> = {}): CachedSession => ({ ...entry(userId, at), token, ...more });

  test('the hash of a token is known exactly while its entry is held', () => {
    const cache = new SessionCache(5_000, 2);
    assert.equal(cache.hashOf(token), undefined);
    cache.put('h', held(1, 0), cache.ticket());
    assert.equal(cache.hashOf(token), 'h');
    assert.equal(cache.get('h', 5_000), undefined, 'past its time to live');
    assert.equal(cache.hashOf(token), undefined, 'gone with its entry');
    cache.put('h', held(1, 10_000), cache.ticket());
    cache.dropUser(1);
    assert.equal(cache.hashOf(token), undefined, 'gone when the user’s sessions are revoked');
    cache.put('h', held(1, 10_000), cache.ticket());
    cache.put('x', entry(2, 10_000), cache.ticket());
    cache.put('y', entry(3, 10_000), cache.ticket());
    assert.equal(cache.hashOf(token), undefined, 'gone when the entry is pushed out by capacity');
    cache.put('h', held(1, 10_000), cache.ticket());
    cache.clear();
    assert.equal(cache.hashOf(token), undefined, 'gone when the cache is emptied');
    const stale = cache.ticket();
    cache.dropUser(9);
    cache.put('h', held(1, 10_000), stale);
    assert.equal(cache.hashOf(token), undefined, 'a lookup that raced a revocation leaves no token either');
  });

  test('a held session is answered from the memo, and refused at once when it expires, idles out or is revoked', () => {
    const cache = new SessionCache(5 * HOUR);
    const clock = { now: 1_000 };
    const ctx = contextAt(cache, clock);
    // The entry's hash is not the token's SHA-256: the answer naming it shows the memo was used, not a hash.
    cache.put('memo', held(7, 1_000, { expiresAt: 1_000 + HOUR, accountId: 70, accounts: [70, 71] }), cache.ticket());
    assert.deepEqual(cachedSession(ctx, token), { userId: 7, role: 'trader', staffRoles: [], sessionHash: 'memo', accountId: 70, accounts: [70, 71] });
    clock.now = 1_000 + HOUR - 1;
    cache.get('memo', clock.now)!.lastSeenAt = clock.now;
    assert.equal(cachedSession(ctx, token)?.userId, 7, 'a millisecond before its expiry');
    clock.now = 1_000 + HOUR;
    assert.equal(cachedSession(ctx, token), null, 'at its expiry, although the entry is held');

    clock.now = 10 * HOUR;
    cache.put('memo', held(7, clock.now, { expiresAt: 20 * HOUR }), cache.ticket());
    clock.now += 30 * 60_000;
    assert.equal(cachedSession(ctx, token), null, 'a browser session idle for SESSION_IDLE_MINUTES');

    clock.now = 12 * HOUR;
    cache.put('memo', held(7, clock.now, { expiresAt: 20 * HOUR }), cache.ticket());
    assert.equal(cachedSession(ctx, token)?.userId, 7);
    cache.dropUser(7); // sign-out, a password change, deactivation: account.sessionsRevoked
    assert.equal(cachedSession(ctx, token), undefined, 'revoked: not answered from memory, the database decides');
  });

  test('a use after a pause long enough to be written first is left to resolveSession, which writes it', () => {
    const cache = new SessionCache(5 * HOUR);
    const clock = { now: 0 };
    const ctx = contextAt(cache, clock);
    cache.put('memo', held(7, 0, { persistent: true, expiresAt: 20 * HOUR }), cache.ticket());
    clock.now = 5 * 60_000;
    assert.equal(cachedSession(ctx, token), undefined);
    assert.equal(cache.pendingTouch('memo'), undefined, 'nothing noted by the look that did not answer');
    clock.now = 5 * 60_000 + 1;
    cache.put('memo', held(7, clock.now - 60_000, { persistent: true, expiresAt: 20 * HOUR }), cache.ticket());
    assert.equal(cachedSession(ctx, token)?.userId, 7, 'a shorter pause is noted and answered at once');
    assert.equal(cache.pendingTouch('memo'), clock.now);
  });
});

describe('a session found in the database is held with its token', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp();
  });
  after(() => t.close());

  test('the next request finds the hash in the memo; sign-out takes it out and refuses the cookie at once', async () => {
    const { client } = await signedInTrader(t);
    const tab = sameSession(t, client);
    const token = /tp_session=([^;]+)/.exec(client.cookieHeader)?.[1] as string;
    assert.equal((await tab.get(TRADES)).status, 200);
    assert.equal(t.ctx.sessionCache.hashOf(token), hashToken(token));
    assert.equal((await client.post('/logout.php', {})).status, 200);
    assert.equal(t.ctx.sessionCache.hashOf(token), undefined);
    assert.equal((await tab.get(TRADES)).status, 401);
    assert.equal(await resolveSession(t.ctx, token), null);
    assert.equal(t.ctx.sessionCache.hashOf(token), undefined, 'a refused token is not held');
  });

  test('a token that names no session is never held', async () => {
    const forged = new Client(t);
    forged.setCookie('tp_session', 'B'.repeat(43));
    assert.equal((await forged.get(TRADES)).status, 401);
    assert.equal(t.ctx.sessionCache.hashOf('B'.repeat(43)), undefined);
  });
});

describe('sessions end at once although lookups are cached', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp();
  });
  after(() => t.close());

  test('sign-out: the same cookie is refused on the very next request', async () => {
    const { client } = await signedInTrader(t);
    const tab = sameSession(t, client);
    assert.equal((await tab.get(TRADES)).status, 200, 'the session is cached now');
    assert.equal((await client.post('/logout.php', {})).status, 200);
    assert.equal((await tab.get(TRADES)).status, 401);
  });

  test('deactivation by an administrator: the trader’s next request is refused', async () => {
    const admin = await signedInAdmin(t);
    const { client, id } = await signedInTrader(t);
    assert.equal((await client.get(TRADES)).status, 200);
    const form = new FormData();
    form.append('id', String(id));
    form.append('isActive', '0');
    assert.equal((await admin.request('POST', '/dashboard/admin/editStatusTraders.php', { body: form })).status, 200);
    assert.equal((await client.get(TRADES)).status, 401);
  });

  test('password change: every other session is refused at once, the new one works', async () => {
    const { client, password } = await signedInTrader(t);
    const other = sameSession(t, client);
    assert.equal((await other.get(PROFILE)).status, 200);
    const changed = await client.post('/dashboard/customer/changePassword.php', { currentPassword: password, newPassword: 'amber-lighthouse-97' });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.equal((await other.get(PROFILE)).status, 401);
    assert.equal((await client.get(PROFILE)).status, 200);
  });

  test('signing in again ends the session the browser presented, even while it is cached', async () => {
    const { client, email, password } = await signedInTrader(t);
    const old = sameSession(t, client);
    assert.equal((await old.get(TRADES)).status, 200);
    assert.equal((await client.post('/login.php', { email, password })).status, 200);
    assert.equal((await old.get(TRADES)).status, 401);
    assert.equal((await client.get(TRADES)).status, 200);
  });

  test('a change made straight in the database shows once the cached entry is older than its time to live', async () => {
    const { client, id } = await signedInTrader(t);
    assert.equal((await client.get(TRADES)).status, 200);
    await t.ctx.db.updateTable('sessions').set({ revoked_at: t.clock.now() }).where('user_id', '=', id).execute();
    t.clock.advance(t.ctx.sessionCache.ttlMs);
    assert.equal((await client.get(TRADES)).status, 401);
  });

  test('testSession shows a profile edit at once (names are not cached)', async () => {
    const { client } = await signedInTrader(t, { firstName: 'Ada' });
    assert.equal((await client.get('/testSession.php')).body.user.firstName, 'Ada');
    const edited = await client.post('/dashboard/customer/editProfileDetails.php', { firstName: 'Grace', lastName: 'Hopper', phoneNo: '4915112345678', country_id: '840' });
    assert.equal(edited.status, 200, JSON.stringify(edited.body));
    assert.equal((await client.get('/testSession.php')).body.user.firstName, 'Grace');
  });
});

describe('sessions end at once across instances (Redis bus)', () => {
  let available = true;
  before(async () => {
    const probe = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    try {
      await probe.connect();
      await probe.ping();
    } catch {
      available = false;
    } finally {
      probe.disconnect();
    }
  });

  test('a sign-out on one instance is refused on the other, whose cache held the session', async (ctx) => {
    if (!available) return ctx.skip(`no Redis at ${REDIS_URL}`);
    const db = await restartableDatabase();
    const shared = { databaseUrl: db.url, eventBus: 'redis' as const, redisUrl: REDIS_URL };
    const a = await startApp({ config: shared });
    const b = await startApp({ config: shared });
    try {
      const { client } = await signedInTrader(a);
      const onB = sameSession(b, client);
      assert.equal((await onB.get(TRADES)).status, 200, 'instance B has the session cached');
      assert.equal((await client.post('/logout.php', {})).status, 200);
      // The news travels through Redis: allow it a moment, far below the cache's time to live.
      let status = 200;
      for (let i = 0; i < 50 && status === 200; i++) {
        status = (await onB.get(TRADES)).status;
        if (status === 200) await new Promise((r) => setTimeout(r, 10));
      }
      assert.equal(status, 401);
    } finally {
      await a.close();
      await b.close();
      await db.drop();
    }
  });
});
