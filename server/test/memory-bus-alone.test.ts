import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, test } from 'node:test';
import { ConfigError } from '../src/config';
import { restartableDatabase, startApp, testClusterSecret, type TestApp } from './helpers/app';
import { Client, signedInTrader } from './helpers/client';
import { push, roomyLimits } from './helpers/trading';
import { startOwnRedis } from './helpers/own-redis';

/**
 * EVENT_BUS=memory reaches only its own process: a second instance on the same PostgreSQL database
 * would follow the engine leader without its quotes or account events. It refuses to start; one
 * instance alone (and one started after the other stopped) runs as before.
 */
const PG = process.env.DATABASE_URL ?? '';
const serverDir = new URL('..', import.meta.url).pathname;
const REFUSAL = /another Tradeport instance is running on this PostgreSQL database[\s\S]*Set EVENT_BUS=redis and REDIS_URL/;

const REDIS_REFUSAL = /a Tradeport instance with EVENT_BUS=memory is running on this PostgreSQL database[\s\S]*start it again with EVENT_BUS=redis and REDIS_URL/;

/** The production entry as a second instance; resolves with its exit code and what it printed. */
function startMain(databaseUrl: string, env: Record<string, string> = {}): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATABASE_URL: databaseUrl, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', MARKET_FEED: 'push', FEED_TOKEN: 'memory-bus-test-token-0123456789', SMTP_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    }),
  );
}


describe('EVENT_BUS=memory on PostgreSQL', { skip: PG.startsWith('postgres') ? false : 'needs PostgreSQL (DATABASE_URL=postgres://…)' }, () => {
  test('a second instance on the same database is refused with a message naming EVENT_BUS=redis and REDIS_URL; the first keeps serving; alone again, one starts', async () => {
    const db = await restartableDatabase();
    let first: TestApp | null = null;
    try {
      first = await startApp({ config: { ...roomyLimits, databaseUrl: db.url } });
      assert.equal(first.app.cluster.role, 'leader');
      const { client: trader } = await signedInTrader(first);

      await assert.rejects(startApp({ config: { ...roomyLimits, databaseUrl: db.url } }), (err: Error) => err instanceof ConfigError && REFUSAL.test(err.message));
      // As an operator starts it: the process says why and exits with EX_CONFIG.
      const second = await startMain(db.url);
      assert.equal(second.code, 78, second.out);
      assert.match(second.out, REFUSAL);

      // The first is still the leader and serves quotes and orders' reads.
      assert.equal(first.app.cluster.role, 'leader');
      await push(first, 'EURUSD', 1.2, 1.2002);
      const quotes = await trader.get('/platform/getQuotes.php?symbols=EURUSD');
      assert.equal(quotes.status, 200);
      assert.equal(quotes.body.data[0].bid, 1.2);
      const health = await new Client(first).get('/health');
      assert.equal(health.body.role, 'leader');

      await first.close();
      first = null;
      // Alone on the database again (a restart): it starts and leads as before.
      const next = await startApp({ config: { ...roomyLimits, databaseUrl: db.url } });
      try {
        assert.equal(next.app.cluster.role, 'leader');
      } finally {
        await next.close();
      }
    } finally {
      await first?.close();
      await db.drop();
    }
  });

  test('an instance with EVENT_BUS=redis started after one with EVENT_BUS=memory is refused too (the first would never see it); once the first is gone it starts', async () => {
    const db = await restartableDatabase();
    const redis = await startOwnRedis();
    let first: TestApp | null = null;
    try {
      first = await startApp({ config: { ...roomyLimits, databaseUrl: db.url } });
      assert.equal(first.app.cluster.role, 'leader');
      const onRedis = { ...roomyLimits, databaseUrl: db.url, eventBus: 'redis' as const, redisUrl: redis.url };

      await assert.rejects(startApp({ config: onRedis }), (err: Error) => err instanceof ConfigError && REDIS_REFUSAL.test(err.message));
      const second = await startMain(db.url, { EVENT_BUS: 'redis', REDIS_URL: redis.url, CLUSTER_SECRET: testClusterSecret(db.url) });
      assert.equal(second.code, 78, second.out);
      assert.match(second.out, REDIS_REFUSAL);
      assert.equal(first.app.cluster.role, 'leader');

      await first.close();
      first = null;
      // Alone on the database, instances on Redis start (and one leads) as they should.
      const a = await startApp({ config: onRedis });
      const b = await startApp({ config: onRedis }).catch(async (err: unknown) => {
        await a.close();
        throw err;
      });
      try {
        assert.deepEqual([a.app.cluster.role, b.app.cluster.role].sort(), ['follower', 'leader']);
        // And now a memory instance is the one refused.
        await assert.rejects(startApp({ config: { ...roomyLimits, databaseUrl: db.url } }), (err: Error) => err instanceof ConfigError && REFUSAL.test(err.message));
      } finally {
        await b.close();
        await a.close();
      }
    } finally {
      await first?.close();
      await redis.stop();
      await db.drop();
    }
  });
});
