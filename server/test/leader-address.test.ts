import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { LEADER_LOCK } from '../src/cluster/leader-lease';
import { clusterKeys } from '../src/cluster-keys';
import { ENGINE_MOVING } from '../src/cluster/engine-calls';
import { clearLeaderAddress, leaderAddress, publishLeaderAddress, refreshLeaderAddress } from '../src/cluster/leader-address';
import { openDatabase, type DatabaseHandle } from '../src/storage/db';
import { migrateToLatest } from '../src/storage/migrate';
import { restartableDatabase, startApp } from './helpers/app';
import { eventually } from './helpers/trading';
import { closeListeners, follower } from './helpers/forwarding';

/**
 * The leader's address row (cluster/leader-address.ts; security review 2, finding 4): believed only
 * under the current engine epoch, never overwritten by an older epoch, emptied when its leader
 * stops, and ignored once its leader has stopped refreshing it — a dead leader's address sent every
 * call to a dead host (each hanging until the forward deadline) until a new leader claimed an epoch.
 */
const PG = process.env.DATABASE_URL ?? '';
const onPostgres = PG.startsWith('postgres') ? false : 'needs PostgreSQL (DATABASE_URL=postgres://…)';

describe('the leader address row', { skip: onPostgres, timeout: 60_000 }, () => {
  let database: Awaited<ReturnType<typeof restartableDatabase>>;
  let handle: DatabaseHandle;
  const setEpoch = (epoch: number) => sql`update engine_epoch set epoch = ${epoch} where id = 1`.execute(handle.db);
  before(async () => {
    database = await restartableDatabase();
    handle = openDatabase(database.url);
    await migrateToLatest(handle);
  });
  after(async () => {
    await handle.close();
    await database.drop();
  });

  test('is believed under the current epoch only; an older epoch cannot overwrite a newer one', async () => {
    await setEpoch(5);
    assert.equal(await publishLeaderAddress(handle.db, 4, 'http://10.0.0.4:3000', 'k'), false, 'not the current epoch');
    assert.equal(await leaderAddress(handle.db), null);
    assert.equal(await publishLeaderAddress(handle.db, 5, 'http://10.0.0.5:3000', 'k5'), true);
    assert.deepEqual(await leaderAddress(handle.db), { address: 'http://10.0.0.5:3000', keyId: 'k5' });
    // A newer leader claims epoch 6: the row of 5 is no one's any more, and 5's late writes lose.
    await setEpoch(6);
    assert.equal(await leaderAddress(handle.db), null, "a row whose epoch is not the current one is ignored");
    assert.equal(await publishLeaderAddress(handle.db, 5, 'http://10.0.0.5:3000', 'k5'), false);
    assert.equal(await publishLeaderAddress(handle.db, 6, 'http://10.0.0.6:3000', 'k6'), true);
    assert.equal(await publishLeaderAddress(handle.db, 5, 'http://10.0.0.5:3000', 'k5'), false, 'an older epoch loses');
    assert.equal(await refreshLeaderAddress(handle.db, 5), false, "a deposed leader's refresh changes nothing");
    await clearLeaderAddress(handle.db, 5);
    assert.deepEqual(await leaderAddress(handle.db), { address: 'http://10.0.0.6:3000', keyId: 'k6' }, "a deposed leader's clearing changes nothing");
  });

  test('is ignored once not refreshed for a while; a refresh makes it current again; emptied when its leader stops', async () => {
    await setEpoch(7);
    assert.equal(await publishLeaderAddress(handle.db, 7, 'http://10.0.0.7:3000', 'k7'), true);
    await sql`update engine_leader set refreshed_at = refreshed_at - 3500 where id = 1`.execute(handle.db);
    assert.equal(await leaderAddress(handle.db), null, 'not refreshed for 3.5 s: its leader is taken for dead');
    assert.equal(await refreshLeaderAddress(handle.db, 7), true);
    assert.equal((await leaderAddress(handle.db))?.address, 'http://10.0.0.7:3000');
    await clearLeaderAddress(handle.db, 7);
    assert.equal(await leaderAddress(handle.db), null);
  });
});

describe('a leader that stops', { skip: onPostgres, timeout: 60_000 }, () => {
  after(closeListeners);

  test('keeps its row fresh while it leads, empties it when it shuts down: a follower refuses at once, as retryable', async () => {
    const database = await restartableDatabase();
    const handle = openDatabase(database.url);
    const leader = await startApp({ realClock: true, config: { databaseUrl: database.url } });
    const f = follower({ keys: clusterKeys(leader.config.clusterSecret!), lookup: async () => (await leaderAddress(handle.db))?.address ?? null });
    try {
      await eventually('the leader published its address', async () => (await leaderAddress(handle.db)) !== null, 15_000);
      // Longer than LEADER_ADDRESS_FRESH_MS: still believed, because the leader refreshes it.
      await new Promise((r) => setTimeout(r, 4_000));
      assert.notEqual(await leaderAddress(handle.db), null, 'refreshed while it leads');
      const reached = await f.call({ method: 'GET' });
      assert.equal(reached.res.statusCode, 401, `the leader answered (no session): ${reached.res.body}`);
      await leader.close();
      assert.equal(await leaderAddress(handle.db), null, 'emptied on shutdown');
      const { res, ms } = await f.call({ method: 'GET' });
      assert.equal(res.statusCode, 503);
      assert.deepEqual(res.json(), { status: 'Failure', message: ENGINE_MOVING });
      assert.ok(ms < 1_000, `refused at once (${ms} ms)`);
    } finally {
      await f.close();
      await leader.close().catch(() => undefined);
      await handle.close();
      await database.drop();
    }
  });

  test('empties its row when it stands down (its lock session ended): a follower refuses at once, as retryable', async () => {
    const database = await restartableDatabase();
    const handle = openDatabase(database.url);
    const leader = await startApp({ realClock: true, config: { databaseUrl: database.url } });
    const f = follower({ keys: clusterKeys(leader.config.clusterSecret!), lookup: async () => (await leaderAddress(handle.db))?.address ?? null });
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      await eventually('the leader published its address', async () => (await leaderAddress(handle.db)) !== null, 15_000);
      // As a network cut or an administrator would: the lock's session ends, the leader stands down.
      await admin.query(
        `select pg_terminate_backend(l.pid) from pg_locks l where l.locktype = 'advisory' and l.granted and l.classid = $1 and l.objid = $2
           and l.database = (select oid from pg_database where datname = current_database())`,
        [...LEADER_LOCK],
      );
      await eventually('the leader stood down', async () => leader.app.cluster.role === 'follower', 5_000);
      // It waits two polls before it tries for the lock again: meanwhile nobody leads.
      await eventually('emptied on stand-down', async () => (await leaderAddress(handle.db)) === null, 1_500);
      const { res, ms } = await f.call({ method: 'GET' });
      assert.equal(res.statusCode, 503);
      assert.deepEqual(res.json(), { status: 'Failure', message: ENGINE_MOVING });
      assert.ok(ms < 1_000, `refused at once (${ms} ms)`);
    } finally {
      await admin.end();
      await f.close();
      await leader.close().catch(() => undefined);
      await handle.close();
      await database.drop();
    }
  });
});
