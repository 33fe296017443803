import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { MemoryCounts } from '../src/plugins/rate-limit-store';
import { restartableDatabase, startApp, type TestApp } from './helpers/app';
import { Client } from './helpers/client';

/** A Redis of this test's own (port 47550, nothing written to disk), so it can be stopped and started under the servers. */
const PORT = 47550;
const REDIS_URL = `redis://127.0.0.1:${PORT}`;
const LIMIT = 3;

async function redisAnswers(): Promise<boolean> {
  const probe = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

async function startRedis(dir: string): Promise<ChildProcess> {
  const proc = spawn('redis-server', ['--port', String(PORT), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    if (await redisAnswers()) return proc;
    await new Promise((r) => setTimeout(r, 50));
  }
  proc.kill('SIGKILL');
  throw new Error(`redis-server did not answer on port ${PORT}`);
}

async function stopRedis(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise((r) => proc.once('exit', r));
  proc.kill('SIGKILL');
  await exited;
}

/** A sign-in with a wrong password: 401 while allowed, 429 once the address is over its limit. */
const attempt = async (t: TestApp) => (await new Client(t).post('/login.php', { email: 'nobody@example.com', password: 'wrong-password-1' })).status;

describe('rate limits across instances (EVENT_BUS=redis)', () => {
  let available = true;
  let dir = '';
  let redis: ChildProcess | null = null;
  let db: Awaited<ReturnType<typeof restartableDatabase>>;
  let a: TestApp;
  let b: TestApp;
  const logA: string[] = [];
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tp_rate_redis_'));
    try {
      redis = await startRedis(dir);
    } catch {
      available = false;
      return;
    }
    db = await restartableDatabase();
    const shared = { databaseUrl: db.url, eventBus: 'redis' as const, redisUrl: REDIS_URL, signinRateLimitPerMinute: LIMIT };
    a = await startApp({ config: shared, logLines: logA });
    b = await startApp({ config: shared });
  });
  after(async () => {
    await a?.close();
    await b?.close();
    await db?.drop();
    if (redis) await stopRedis(redis);
    rmSync(dir, { recursive: true, force: true });
  });

  test('two instances share one count per address: the limit holds for the pair, not for each', async (ctx) => {
    if (!available) return ctx.skip('redis-server is not installed');
    // Both instances count in Redis before the attempts: on a busy machine a client may still be
    // connecting as the servers start, and a count made then goes to the instance's memory (by design).
    for (let i = 0; ; i++) {
      const key = `warm-up:${i}`;
      await a.app.windowCounts.incr(key, 60_000);
      if ((await b.app.windowCounts.incr(key, 60_000)).current === 2) break;
      assert.ok(i < 200, 'both instances reach Redis within 20 s');
      await new Promise((r) => setTimeout(r, 100));
    }
    const statuses = [await attempt(a), await attempt(b), await attempt(a)];
    assert.deepEqual(statuses, [401, 401, 401]);
    assert.equal(await attempt(b), 429, 'the fourth attempt, on the instance that saw only one, is over the shared limit');
    assert.equal(await attempt(a), 429);
  });

  test('with Redis down, sign-in still answers, each instance counting on its own, and the log says so once', async (ctx) => {
    if (!available || !redis) return ctx.skip('redis-server is not installed');
    const warnedBefore = logA.filter((l) => l.includes('Redis does not answer')).length;
    await stopRedis(redis);
    redis = null;
    const onA = [];
    for (let i = 0; i < LIMIT + 1; i++) onA.push(await attempt(a));
    assert.deepEqual(onA, [401, 401, 401, 429], 'counted in the instance’s memory: never a 500, never refused for want of Redis');
    assert.equal(await attempt(b), 401, 'the other instance counts apart meanwhile');
    const warnings = logA.filter((l) => l.includes('Redis does not answer'));
    assert.equal(warnings.length - warnedBefore, 1, logA.join('\n'));
  });

  test('when Redis is back, the counts are shared (and kept in Redis) again', async (ctx) => {
    if (!available) return ctx.skip('redis-server is not installed');
    redis = await startRedis(dir);
    // The client reconnects within its retry delay (at most 2 s, more on a busy machine); until then attempts are counted in memory.
    let status = 429;
    for (let i = 0; i < 200 && (status === 429 || !logA.some((l) => l.includes('Redis answers again'))); i++) {
      await new Promise((r) => setTimeout(r, 100));
      status = await attempt(a);
    }
    assert.equal(status, 401, 'a fresh Redis count lets the address try again');
    assert.ok(logA.some((l) => l.includes('Redis answers again')));
    const check = new Redis(REDIS_URL, { maxRetriesPerRequest: 0 });
    try {
      const keys = await check.keys('tradeport:rate-limit:*');
      assert.ok(keys.some((k) => k.includes('/api/login.php')), keys.join(', '));
    } finally {
      check.disconnect();
    }
  });
});

describe('counts kept in memory while Redis is away', () => {
  test('a window counts up, ends after its time, and starts again', () => {
    let now = 1_000;
    const counts = new MemoryCounts(() => now);
    assert.deepEqual(counts.incr('k', 60_000), { current: 1, ttl: 60_000 });
    now += 10_000;
    assert.deepEqual(counts.incr('k', 60_000), { current: 2, ttl: 50_000 });
    assert.deepEqual(counts.read('k'), { current: 2, ttl: 50_000 });
    now += 50_000;
    assert.deepEqual(counts.read('k'), { current: 0, ttl: 0 });
    assert.deepEqual(counts.incr('k', 60_000), { current: 1, ttl: 60_000 });
  });

  test('holds a bounded number of addresses, dropping ended windows first', () => {
    let now = 0;
    const counts = new MemoryCounts(() => now, 2);
    counts.incr('old', 1_000);
    counts.incr('live', 60_000);
    now = 2_000;
    counts.incr('new', 60_000);
    assert.equal(counts.read('live').current, 1, 'the live window is kept; the ended one made room');
    assert.equal(counts.read('new').current, 1);
  });
});
