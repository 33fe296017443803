import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { LeaderLease, LEADER_LOCK } from '../src/cluster/leader-lease';
import { restartableDatabase } from './helpers/app';
import { sleep } from './helpers/trading';

const PG = process.env.DATABASE_URL ?? '';
const skip = !PG.startsWith('postgres') ? 'needs PostgreSQL (DATABASE_URL=postgres://…): the engine lead is a PostgreSQL advisory lock' : false;

const quiet = { info: () => undefined, warn: () => undefined };

async function lockHolders(url: string): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    // pg_locks spans every database of the server: count only this test's database, since other
    // suites running beside this one hold the same key in theirs.
    const r = await c.query<{ n: string }>(
      `select count(*) as n from pg_locks where locktype = 'advisory' and granted and classid = $1 and objid = $2 and objsubid = 2
        and database = (select oid from pg_database where datname = current_database())`,
      [...LEADER_LOCK],
    );
    return Number(r.rows[0]?.n ?? 0);
  } finally {
    await c.end();
  }
}

/** Ends the session that holds the engine lead's lock in this test's database, as an administrator (or a network cut) would. */
async function terminateLockSession(url: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(
      `select pg_terminate_backend(l.pid) from pg_locks l where l.locktype = 'advisory' and l.granted and l.classid = $1 and l.objid = $2
         and l.database = (select oid from pg_database where datname = current_database())`,
      [...LEADER_LOCK],
    );
  } finally {
    await admin.end();
  }
}

/** A lease polling every 200 ms that records when it acquires and loses the lead. */
class LeaseLeader {
  readonly lease: LeaderLease;
  constructor(url: string, events: string[]) {
    this.lease = new LeaderLease(url, { acquired: async () => void events.push('acquired'), lost: () => void events.push('lost') }, quiet, { pollMs: 200, checkTimeoutMs: 1000, idleSessionMs: 6000 });
  }
}

describe('leader lease', { skip }, () => {
  let db: { url: string; drop(): Promise<void> };
  before(async () => {
    db = await restartableDatabase();
  });
  after(() => db?.drop());

  test('an engine load longer than the idle-session timeout keeps the lead: the lock session is checked meanwhile', async () => {
    const lost: string[] = [];
    let loaded = false;
    // PostgreSQL ends a session quiet for 1 s; the "engine" takes 3 s to load.
    const lease = new LeaderLease(
      db.url,
      {
        acquired: async () => {
          await sleep(3000);
          loaded = true;
        },
        lost: (reason) => lost.push(reason),
      },
      quiet,
      { pollMs: 200, checkTimeoutMs: 1000, idleSessionMs: 1000 },
    );
    try {
      await lease.start();
      assert.equal(loaded, true);
      await sleep(1500);
      assert.deepEqual(lost, [], 'the lead was never lost');
      assert.equal(lease.held, true);
      assert.equal(await lockHolders(db.url), 1, 'PostgreSQL still shows the lock held');
    } finally {
      await lease.close();
    }
    assert.equal(await lockHolders(db.url), 0, 'closing gives the lock back');
  });

  test('alone, an instance whose lock session was ended takes the lead again once its stand-down is over', async () => {
    const events: string[] = [];
    const only = new LeaseLeader(db.url, events);
    try {
      await only.lease.start();
      assert.equal(only.lease.held, true);
      const cutAt = Date.now();
      await terminateLockSession(db.url);
      const end = Date.now() + 5000;
      while (events.filter((e) => e === 'acquired').length < 2 && Date.now() < end) await sleep(50);
      assert.deepEqual(events, ['acquired', 'lost', 'acquired']);
      assert.ok(Date.now() - cutAt >= 2 * 200, 'it left the lock to others for two polls first');
      assert.equal(await lockHolders(db.url), 1);
    } finally {
      await only.lease.close();
    }
  });

  test('a lock session that PostgreSQL ends is noticed: the engine is told to stop and another instance takes the lead', async () => {
    const lost: string[] = [];
    const first = new LeaderLease(db.url, { acquired: async () => undefined, lost: (r) => lost.push(r) }, quiet, { pollMs: 200, checkTimeoutMs: 1000, idleSessionMs: 6000 });
    let secondLeads = false;
    const second = new LeaderLease(db.url, { acquired: async () => void (secondLeads = true), lost: () => undefined }, quiet, { pollMs: 200, checkTimeoutMs: 1000, idleSessionMs: 6000 });
    try {
      await first.start();
      assert.equal(first.held, true);
      await second.start();
      assert.equal(second.held, false, 'one leader at a time');
      // The lock session dies (an administrator, a network cut): PostgreSQL releases the lock at once.
      await terminateLockSession(db.url);
      const end = Date.now() + 5000;
      while ((lost.length === 0 || !secondLeads) && Date.now() < end) await sleep(50);
      assert.equal(lost.length, 1, 'the first instance stood down');
      assert.equal(first.held, false);
      assert.equal(secondLeads, true, 'the second instance leads');
    } finally {
      await first.close();
      await second.close();
    }
  });
});
