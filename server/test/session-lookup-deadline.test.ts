import assert from 'node:assert/strict';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, describe, test } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { InProcessEventBus } from '../src/bus/event-bus';
import { loadConfig } from '../src/config';
import { securityPlugin } from '../src/plugins/security';
import { sessionsPlugin } from '../src/plugins/sessions';
import type { ServiceContext } from '../src/services/context';
import { SessionCache } from '../src/services/session-cache';
import { hashToken } from '../src/services/sessions';
import { openDatabase, type DatabaseHandle } from '../src/storage/db';
import { currentSession, SESSION_COOKIE, SESSION_LOOKUP_DEADLINE_MS } from '../src/transport/http/session-cookie';

/**
 * An authenticated request reads its session from the database unless the instance's session
 * cache has it. With a database that takes connections and never answers, that read would wait
 * for the pool's 10 s (or for ever, on a connection that was open before the database hung): the
 * request is answered 503 with Retry-After in the spec's shape after a short deadline instead,
 * while a session the cache holds is served at once.
 */
const DEADLINE_MS = 500;
const BUSY = { status: 'Failure', message: 'The service is busy or briefly unavailable. Please try again in a moment.' };
const sockets = new Set<net.Socket>();
const servers: net.Server[] = [];
const handles: DatabaseHandle[] = [];

/** A PostgreSQL "database" that accepts connections and never says a word. */
async function silentDatabase(): Promise<string> {
  const server = net.createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `postgres://postgres@127.0.0.1:${(server.address() as AddressInfo).port}/postgres`;
}

/** The security and sessions plugins as app.ts registers them, over the silent database, and one call that needs a session. */
async function appOnSilentDatabase(lookupDeadlineMs?: number): Promise<FastifyInstance> {
  const handle = openDatabase(await silentDatabase());
  handles.push(handle);
  const config = loadConfig({});
  const services = { db: handle.db, engine: handle.engine, config, bus: new InProcessEventBus(), now: Date.now, sessionCache: new SessionCache() } as unknown as ServiceContext;
  const app = Fastify({ logger: false });
  app.decorate('services', services);
  await app.register(securityPlugin, { config });
  await app.register(sessionsPlugin, lookupDeadlineMs === undefined ? {} : { lookupDeadlineMs });
  app.get('/api/whoami', async (request) => {
    request.handlerStarted = true;
    const session = await currentSession(request);
    return { status: 'success', userId: session?.userId ?? null };
  });
  return app;
}

const token = (c: string) => c.repeat(43);

async function timed(app: FastifyInstance, cookie?: string) {
  const started = Date.now();
  const res = await app.inject({ method: 'GET', url: '/api/whoami', headers: cookie ? { cookie: `${SESSION_COOKIE}=${cookie}` } : {} });
  return { res, ms: Date.now() - started };
}

describe('a session lookup while the database does not answer', () => {
  after(async () => {
    for (const s of sockets) s.destroy();
    for (const s of servers) s.close();
    await Promise.all(handles.map((h) => h.close().catch(() => undefined)));
  });

  test('the deadline is a few seconds, well under the pool’s 10 s wait for a connection', () => {
    assert.ok(SESSION_LOOKUP_DEADLINE_MS >= 1_000 && SESSION_LOOKUP_DEADLINE_MS <= 5_000, String(SESSION_LOOKUP_DEADLINE_MS));
  });

  test('a session not in the cache: 503 with Retry-After in the spec’s shape after the deadline, not the pool’s 10 s', { timeout: 20_000 }, async () => {
    const app = await appOnSilentDatabase(DEADLINE_MS);
    try {
      const { res, ms } = await timed(app, token('a'));
      assert.equal(res.statusCode, 503);
      assert.equal(res.headers['retry-after'], '2');
      assert.deepEqual(res.json(), BUSY);
      assert.ok(ms >= DEADLINE_MS - 50 && ms < DEADLINE_MS + 1_500, `answered after ${ms} ms`);
    } finally {
      await app.close();
    }
  });

  test('with the default deadline too', { timeout: 20_000 }, async () => {
    const app = await appOnSilentDatabase();
    try {
      const { res, ms } = await timed(app, token('b'));
      assert.equal(res.statusCode, 503);
      assert.equal(res.headers['retry-after'], '2');
      assert.deepEqual(res.json(), BUSY);
      assert.ok(ms >= SESSION_LOOKUP_DEADLINE_MS - 50 && ms < SESSION_LOOKUP_DEADLINE_MS + 1_500, `answered after ${ms} ms`);
    } finally {
      await app.close();
    }
  });

  test('a session in the cache is served at once, without the database', { timeout: 20_000 }, async () => {
    const app = await appOnSilentDatabase(DEADLINE_MS);
    try {
      const now = Date.now();
      const cached = token('c');
      app.services.sessionCache.put(hashToken(cached), { userId: 42, role: 'trader', staffRoles: [], accountId: null, accounts: [], persistent: false, lastSeenAt: now, expiresAt: now + 3600_000, loadedAt: now }, app.services.sessionCache.ticket());
      for (let i = 0; i < 3; i++) {
        const { res, ms } = await timed(app, cached);
        assert.equal(res.statusCode, 200);
        assert.deepEqual(res.json(), { status: 'success', userId: 42 });
        assert.ok(ms < DEADLINE_MS / 2, `answered after ${ms} ms`);
      }
      // No session cookie: nothing to look up.
      const { res } = await timed(app);
      assert.deepEqual(res.json(), { status: 'success', userId: null });
    } finally {
      await app.close();
    }
  });
});
