import assert from 'node:assert/strict';
import type { AppConfig } from '../../src/config';
import { restartableDatabase, startApp, type TestApp } from './app';
import { startOwnRedis } from './own-redis';
import { roomyLimits } from './trading';

export interface LeaderAndFollower {
  leader: TestApp;
  follower: TestApp;
  /** The Redis of the test's own: `stop()` and `start()` make an outage and its end. */
  redis: Awaited<ReturnType<typeof startOwnRedis>>;
  /** Closes both instances (follower first), then stops Redis and drops the database. */
  close(): Promise<void>;
}

/**
 * Two instances as an operator runs them (issue 19): the same fresh database, `EVENT_BUS=redis` on
 * a Redis of the test's own, a real clock. The first to start is the engine leader, the second a
 * follower; both roles are checked before the test goes on.
 */
export async function startLeaderAndFollower(extra: Partial<AppConfig> = {}): Promise<LeaderAndFollower> {
  const db = await restartableDatabase();
  const redis = await startOwnRedis();
  const apps: TestApp[] = [];
  const close = async () => {
    for (const a of apps.reverse()) await a.close().catch(() => undefined);
    await redis.stop();
    await db.drop();
  };
  try {
    const config = { ...roomyLimits, ...extra, databaseUrl: db.url, eventBus: 'redis' as const, redisUrl: redis.url };
    const leader = await startApp({ realClock: true, config });
    apps.push(leader);
    const follower = await startApp({ realClock: true, config });
    apps.push(follower);
    assert.equal(leader.app.cluster.role, 'leader');
    assert.equal(follower.app.cluster.role, 'follower');
    return { leader, follower, redis, close };
  } catch (error) {
    await close();
    throw error;
  }
}
