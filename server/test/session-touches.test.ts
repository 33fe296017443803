import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { openDatabase } from '../src/storage/db';
import { SessionCache } from '../src/services/session-cache';
import { flushTouches } from '../src/services/sessions';
import { restartableDatabase, startApp, type TestApp } from './helpers/app';
import { signedInTrader } from './helpers/client';

const PROFILE = '/dashboard/customer/getProfileDetails.php';

async function lastSeen(t: TestApp, userId: number): Promise<{ session: number; user: number | null }> {
  const s = await t.ctx.db.selectFrom('sessions').select('last_seen_at').where('user_id', '=', userId).where('revoked_at', 'is', null).executeTakeFirstOrThrow();
  const u = await t.ctx.db.selectFrom('users').select('last_seen_at').where('id', '=', userId).executeTakeFirstOrThrow();
  return { session: s.last_seen_at, user: u.last_seen_at };
}

describe('sessions’ last-seen times', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp();
  });
  after(async () => {
    await t.close();
  });

  test('a session in steady use is noted, not written per request; the flush writes session and user in one go', async () => {
    const { client, id } = await signedInTrader(t);
    const signedInAt = t.clock.now();
    t.clock.advance(31_000);
    assert.equal((await client.get(PROFILE)).status, 200);
    assert.deepEqual(await lastSeen(t, id), { session: signedInAt, user: signedInAt }, 'nothing written by the request');
    assert.equal(t.ctx.sessionCache.pendingTouches >= 1, true);
    await flushTouches(t.ctx);
    const now = t.clock.now();
    assert.deepEqual(await lastSeen(t, id), { session: now, user: now });
    assert.equal(t.ctx.sessionCache.pendingTouches, 0);
  });

  test('a session back after a pause is written at once, so the back office sees its user online from that request on', async () => {
    const { client, id } = await signedInTrader(t);
    t.clock.advance(6 * 60_000);
    assert.equal((await client.get(PROFILE)).status, 200);
    const now = t.clock.now();
    assert.deepEqual(await lastSeen(t, id), { session: now, user: now });
  });

  test('a pause shorter than the online window is noted, not written at once (the user is still shown online meanwhile)', async () => {
    const { client, id } = await signedInTrader(t);
    const signedInAt = t.clock.now();
    t.clock.advance(t.config.onlineWindowMs - 60_000);
    assert.equal((await client.get(PROFILE)).status, 200);
    assert.deepEqual(await lastSeen(t, id), { session: signedInAt, user: signedInAt });
    await flushTouches(t.ctx);
    assert.equal((await lastSeen(t, id)).user, t.clock.now());
  });

  test('on SQLite the flush commits without a sync to disk, and the connection is back to full durability after it', async (ctx) => {
    if (t.ctx.engine !== 'sqlite') return ctx.skip('SQLite only');
    const { client } = await signedInTrader(t);
    t.clock.advance(31_000);
    assert.equal((await client.get(PROFILE)).status, 200);
    await flushTouches(t.ctx);
    const { rows } = await sql<{ synchronous: number }>`pragma synchronous`.execute(t.ctx.db);
    assert.equal(rows[0]?.synchronous, 2, 'FULL: money movements are synced to disk as before');
  });

  test('a last-seen time is never moved back by a flush', async () => {
    const { client, id } = await signedInTrader(t);
    t.clock.advance(31_000);
    assert.equal((await client.get(PROFILE)).status, 200);
    const noted = t.clock.now();
    // Something later was written meanwhile (a sign-in elsewhere, another instance's flush).
    await t.ctx.db.updateTable('users').set({ last_seen_at: noted + 10_000 }).where('id', '=', id).execute();
    await t.ctx.db.updateTable('sessions').set({ last_seen_at: noted + 10_000 }).where('user_id', '=', id).execute();
    await flushTouches(t.ctx);
    assert.deepEqual(await lastSeen(t, id), { session: noted + 10_000, user: noted + 10_000 });
  });

  test('an idle timeout counts a use noted and not yet written', async () => {
    // Not remembered: the idle timeout applies.
    const { client } = await signedInTrader(t);
    const idleMs = t.config.sessionIdleMs;
    t.clock.advance(31_000);
    assert.equal((await client.get(PROFILE)).status, 200, 'noted, not written');
    // The cached entry expires and the row (still the sign-in time) is read again; the noted use keeps the session alive.
    t.clock.advance(idleMs - 20_000);
    assert.equal((await client.get(PROFILE)).status, 200);
  });
});

describe('flushes of last-seen times', () => {
  test('run one at a time; callers arriving while one runs share the next (a group commit)', async () => {
    const cache = new SessionCache();
    let writes = 0;
    let release: () => void = () => undefined;
    const write = async () => {
      writes += 1;
      if (writes === 1) await new Promise<void>((r) => (release = r));
    };
    const first = cache.flush(write);
    const waiting = [cache.flush(write), cache.flush(write), cache.flush(write)];
    assert.equal(writes, 1, 'the others wait for the running one');
    release();
    await Promise.all([first, ...waiting]);
    assert.equal(writes, 2, 'the three waiting callers shared one write');
  });

  test('a flush with a cutoff takes only the times noted by then; a caller joining with none takes them all', async () => {
    const cache = new SessionCache();
    cache.noteTouch('old', 1, 1_000);
    cache.noteTouch('new', 2, 9_000);
    const taken: string[][] = [];
    await cache.flush(async (cutoff) => void taken.push([...cache.takeTouches(cutoff).keys()]), 5_000);
    assert.deepEqual(taken, [['old']]);
    assert.equal(cache.pendingTouch('new'), 9_000);
    let release: () => void = () => undefined;
    const running = cache.flush(() => new Promise<void>((r) => (release = r)));
    const periodic = cache.flush(async (cutoff) => void taken.push([...cache.takeTouches(cutoff).keys()]), 5_000);
    const immediate = cache.flush(async (cutoff) => void taken.push([...cache.takeTouches(cutoff).keys()]));
    release();
    await Promise.all([running, periodic, immediate]);
    assert.deepEqual(taken, [['old'], ['new']], 'the shared flush took the newest too');
  });

  test('a failed write does not stop the next one', async () => {
    const cache = new SessionCache();
    let writes = 0;
    const failing = cache.flush(async () => {
      writes += 1;
      throw new Error('database away');
    });
    const next = cache.flush(async () => {
      writes += 1;
    });
    await assert.rejects(failing, /database away/);
    await next;
    assert.equal(writes, 2);
  });
});

describe('last-seen times noted before a shutdown', () => {
  test('are written when the server closes', async () => {
    const db = await restartableDatabase();
    let userId = 0;
    let notedAt = 0;
    try {
      const t = await startApp({ config: { databaseUrl: db.url } });
      try {
        const { client, id } = await signedInTrader(t);
        userId = id;
        t.clock.advance(31_000);
        assert.equal((await client.get(PROFILE)).status, 200);
        notedAt = t.clock.now();
        assert.equal(t.ctx.sessionCache.pendingTouches, 1);
      } finally {
        await t.close();
      }
      const handle = openDatabase(db.url);
      try {
        const row = await handle.db.selectFrom('users').select('last_seen_at').where('id', '=', userId).executeTakeFirstOrThrow();
        assert.equal(row.last_seen_at, notedAt);
      } finally {
        await handle.close();
      }
    } finally {
      await db.drop();
    }
  });
});
