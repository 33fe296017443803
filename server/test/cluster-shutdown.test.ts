import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import pg from 'pg';
import { InProcessEventBus } from '../src/bus/event-bus';
import { Cluster, type ClusterParts } from '../src/cluster/cluster';
import { LEADER_LOCK } from '../src/cluster/leader-lease';
import { restartableDatabase } from './helpers/app';
import { eventually, sleep } from './helpers/trading';

/**
 * An instance shutting down stops its engine, then gives the engine lead back. Between the two,
 * it must not take the lead (the leader of the moment going away too): it would load an engine
 * that nothing stops any more and hold the lock from the instance that should lead. And an engine
 * start already under way when the shutdown begins is finished before the engine is stopped —
 * `TradingEngine.stop()` during `start()` would leave it running.
 */
const PG = process.env.DATABASE_URL ?? '';

function fakeCluster(databaseUrl: string, startMs: number) {
  const events: string[] = [];
  const trading = {
    running: false,
    async start() {
      events.push('start');
      await sleep(startMs);
      this.running = true;
      events.push('started');
    },
    async stop() {
      events.push('stop');
      this.running = false;
    },
  };
  const market = { book: { followRelay: () => undefined }, async lead() {}, async standDown() {} };
  const parts = {
    config: { instanceName: 'shutdown-test', databaseUrl, eventBus: 'redis' },
    db: null,
    bus: new InProcessEventBus(),
    market,
    trading,
    log: { info: () => undefined, warn: () => undefined },
    leaseTiming: { pollMs: 50, checkTimeoutMs: 2000, idleSessionMs: 6000 },
  } as unknown as ClusterParts;
  const cluster = new Cluster(parts);
  /** What app.ts's close hook does, in its order. */
  const shutdown = async () => {
    await cluster.stopLeading();
    await trading.stop();
    await cluster.close();
  };
  return { cluster, trading, events, shutdown };
}

async function lockHolder(url: string): Promise<{ release(): Promise<void>; tryAgain(): Promise<boolean>; end(): Promise<void> }> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const { rows } = await c.query<{ ok: boolean }>('select pg_try_advisory_lock($1, $2) as ok', [...LEADER_LOCK]);
  assert.equal(rows[0]?.ok, true);
  return {
    release: async () => void (await c.query('select pg_advisory_unlock($1, $2)', [...LEADER_LOCK])),
    tryAgain: async () => (await c.query<{ ok: boolean }>('select pg_try_advisory_lock($1, $2) as ok', [...LEADER_LOCK])).rows[0]?.ok === true,
    end: () => c.end(),
  };
}

describe('an instance shutting down', { skip: PG.startsWith('postgres') ? false : 'needs PostgreSQL (DATABASE_URL=postgres://…)', timeout: 60_000 }, () => {
  test('takes no engine lead once its shutdown has begun, even when the lock comes free meanwhile', async () => {
    const db = await restartableDatabase();
    const holder = await lockHolder(db.url);
    const f = fakeCluster(db.url, 0);
    try {
      await f.cluster.start();
      assert.equal(f.cluster.role, 'follower');
      await f.cluster.stopLeading();
      await holder.release();
      // Many polls of the lease.
      await sleep(500);
      assert.deepEqual(f.events, [], 'no engine started');
      assert.equal(await holder.tryAgain(), true, 'the lock is free for the instance that should lead');
      await f.trading.stop();
      await f.cluster.close();
    } finally {
      await f.cluster.close().catch(() => undefined);
      await holder.end();
      await db.drop();
    }
  });

  test('finishes an engine start under way before the engine is stopped, so it is stopped for good', async () => {
    const db = await restartableDatabase();
    const holder = await lockHolder(db.url);
    const f = fakeCluster(db.url, 400);
    try {
      await f.cluster.start();
      await holder.release();
      await eventually('the engine start begins', async () => f.events.includes('start'));
      await f.shutdown();
      assert.deepEqual(f.events, ['start', 'started', 'stop']);
      assert.equal(f.trading.running, false);
      assert.equal(f.cluster.role, 'follower');
      assert.equal(await holder.tryAgain(), true, 'the lock was given back');
    } finally {
      await f.cluster.close().catch(() => undefined);
      await holder.end();
      await db.drop();
    }
  });
});
