import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { calls } from '@tradeport/contracts';
import pg from 'pg';
import WebSocket from 'ws';
import { restartableDatabase, type TestApp } from './helpers/app';
import { Client, fund, paymentAccount, registrationBody } from './helpers/client';

/**
 * Three production processes (`node --import tsx src/main.ts`) on one PostgreSQL database and a
 * Redis of their own, behind HAProxy, as docs/operations.md tells an operator to run them. Orders
 * and ticks go through the balancer; the engine leader is killed with SIGKILL under load, and
 * Redis is stopped and started again under load.
 */
const PG = process.env.DATABASE_URL ?? '';
const has = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
const skip = !PG.startsWith('postgres')
  ? 'needs PostgreSQL (DATABASE_URL=postgres://…): several instances share one PostgreSQL database'
  : !has('haproxy')
    ? 'needs HAProxy (apt-get install haproxy)'
    : !has('redis-server')
      ? 'needs redis-server (apt-get install redis-server)'
      : false;

const serverDir = new URL('..', import.meta.url).pathname;
const BALANCER = 47400;
const PORTS = [47401, 47402, 47403];
const REDIS_PORT = 47450;
const FEED = 'cluster-test-feed-token-0123456789';
/** What the three instances share to trust each other (and nothing else on Redis or the database). */
const CLUSTER_SECRET = 'cluster-test-secret-shared-by-the-three-instances';
const ADMIN = { email: 'admin@cluster.test', password: 'Cluster-Admin-Pass-42' };
const origin = `http://127.0.0.1:${BALANCER}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Proc {
  child: ChildProcess;
  out: () => string;
  exited: Promise<number | null>;
}

function launch(cmd: string, args: string[], env: Record<string, string> = {}): Proc {
  const child = spawn(cmd, args, { cwd: serverDir, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-20_000)));
  child.stderr?.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-20_000)));
  return { child, out: () => out, exited: new Promise((r) => child.on('exit', (code) => r(code))) };
}

type Health = { role: 'leader' | 'follower'; instance: string; redis?: 'up' | 'down' };
async function health(port: number): Promise<Health | null> {
  try {
    const r = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(2000) });
    return r.status === 200 ? ((await r.json()) as Health) : null;
  } catch {
    return null;
  }
}

async function until<T>(what: string, probe: () => Promise<T | null | false | undefined>, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** The balancer, as the helpers' Client sees an app. */
const viaBalancer = { url: `${origin}/api`, origin } as TestApp;

describe('three instances behind HAProxy: one engine leader, fail-over, Redis outage', { skip, timeout: 600_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'tp-cluster-'));
  let db: { url: string; drop(): Promise<void> };
  let redis: Proc;
  let haproxy: Proc;
  const apps = new Map<number, Proc>();
  let sql: pg.Client;

  const startRedis = () => launch('redis-server', ['--port', String(REDIS_PORT), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no']);
  const startApp = (port: number, i: number) => {
    const p = launch(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: db.url,
      EVENT_BUS: 'redis',
      REDIS_URL: `redis://127.0.0.1:${REDIS_PORT}`,
      CLUSTER_SECRET,
      INSTANCE_NAME: `app-${i + 1}`,
      MARKET_FEED: 'push',
      FEED_TOKEN: FEED,
      MARKET_SESSIONS: 'always',
      SIM_HISTORY: 'false',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      // The administrator signs in with the password alone here; two-factor across instances: cluster-staff.test.ts.
      STAFF_TWO_FACTOR: 'optional',
      PUBLIC_ORIGIN: origin,
      SIGNUP_RATE_LIMIT_PER_MINUTE: '10000',
      SIGNIN_RATE_LIMIT_PER_MINUTE: '10000',
      // Each trader sends orders back to back through the fail-over, far faster than a person.
      ORDER_RATE_LIMIT_PER_MINUTE: '1000000',
      LOG_LEVEL: 'warn',
    });
    apps.set(port, p);
    return p;
  };

  before(async () => {
    db = await restartableDatabase();
    redis = startRedis();
    // The first instance migrates the fresh database; the other two start while it is still at it.
    PORTS.forEach((port, i) => startApp(port, i));
    await Promise.all(PORTS.map((port) => until(`instance on ${port}: ${apps.get(port)!.out()}`, () => health(port), 240_000)));
    const cfg = join(dir, 'haproxy.cfg');
    writeFileSync(
      cfg,
      [
        'global',
        '  maxconn 2000',
        'defaults',
        '  mode http',
        '  timeout connect 2s',
        '  timeout client 30s',
        '  timeout server 30s',
        '  timeout check 2s',
        '  timeout tunnel 1h',
        '  option redispatch',
        '  retries 2',
        'frontend tradeport',
        `  bind 127.0.0.1:${BALANCER}`,
        '  default_backend app',
        'backend app',
        '  balance roundrobin',
        '  option httpchk GET /api/health',
        '  http-check expect status 200',
        '  default-server inter 500ms fall 2 rise 1',
        ...PORTS.map((port, i) => `  server app-${i + 1} 127.0.0.1:${port} check`),
        '',
      ].join('\n'),
    );
    haproxy = launch('haproxy', ['-db', '-f', cfg]);
    await until('the balancer', () => fetch(`${origin}/api/health`).then((r) => r.ok, () => false), 20_000);
    sql = new pg.Client({ connectionString: db.url });
    await sql.connect();
  });

  after(async () => {
    await sql?.end().catch(() => undefined);
    const all = [...apps.values(), haproxy, redis].filter(Boolean);
    for (const p of all) if (p.child.exitCode === null) p.child.kill('SIGTERM');
    await Promise.race([Promise.all(all.map((p) => p.exited)), sleep(15_000)]);
    for (const p of all) if (p.child.exitCode === null) p.child.kill('SIGKILL');
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const roles = async () => {
    const list = await Promise.all(PORTS.map(async (port) => ({ port, h: await health(port) })));
    return list.filter((x) => x.h !== null) as { port: number; h: Health }[];
  };
  const push = (ticks: { symbol: string; bid: number; ask: number }[]) =>
    fetch(`${origin}/api${calls.feedTicks.path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${FEED}` }, body: JSON.stringify({ ticks }) });

  /** An order sent until it is answered: a retryable refusal is retried with the same key. */
  async function order(client: Client, body: object, key: string): Promise<{ ticket: number; tries: number; statuses: number[] }> {
    const statuses: number[] = [];
    for (let tries = 1; tries <= 60; tries++) {
      // The balancer itself may drop or fail (its own 502/503 page) a request that was on the
      // killed instance: the client cannot know whether it happened, so it sends it again with the same key.
      const r = await client.post(calls.addTrades.path, body, { 'idempotency-key': key }).catch(() => null);
      statuses.push(r?.status ?? 0);
      if (r === null || ((r.status === 502 || r.status === 503) && typeof r.body !== 'object')) {
        await sleep(250);
        continue;
      }
      assert.notEqual(r.status, 500, `a 500 for an order: ${JSON.stringify(r.body)}`);
      if (r.status === 200) return { ticket: r.body.ticket as number, tries, statuses };
      assert.equal(r.status, 503, `only a retryable refusal is expected: ${r.status} ${JSON.stringify(r.body)}`);
      assert.equal(r.body.status, 'Failure');
      assert.match(r.body.message, /try again|send it again/);
      assert.ok(r.headers.get('retry-after'), 'a retryable refusal says when to retry');
      await sleep(250);
    }
    throw new Error(`order never accepted: ${statuses.join(',')}`);
  }

  test('one leader; orders and ticks through the balancer; the leader killed under load; Redis stopped and started', async () => {
    const before = await roles();
    assert.equal(before.length, 3);
    assert.deepEqual(before.map((x) => x.h.role).sort(), ['follower', 'follower', 'leader'], 'exactly one engine leader');
    assert.deepEqual(before.map((x) => x.h.instance).sort(), ['app-1', 'app-2', 'app-3']);
    const leader = before.find((x) => x.h.role === 'leader')!.port;
    const survivor = before.find((x) => x.h.role === 'follower')!.port;

    // Traders, funded through the balancer (round robin: each call may land on another instance).
    const admin = new Client(viaBalancer);
    assert.equal((await admin.post('/login.php', ADMIN)).body.status, 'Success');
    const gateway = await paymentAccount(admin);
    const traders: Client[] = [];
    for (let i = 0; i < 4; i++) {
      const c = new Client(viaBalancer);
      const body = registrationBody();
      assert.equal((await c.post('/registration.php', body)).body.status, 'Success');
      assert.equal((await c.post('/login.php', { email: body.email, password: body.password })).body.status, 'Success');
      await fund(c, admin, gateway, '100000');
      traders.push(c);
    }
    assert.equal((await push([{ symbol: 'EURUSD', bid: 1.1, ask: 1.1002 }])).status, 200);

    // A stream client on an instance that survives: it gets the leader's quotes over Redis.
    const cookie = traders[0]!.cookieHeader;
    const ws = new WebSocket(`ws://127.0.0.1:${survivor}/api/stream`, { headers: { origin, cookie } });
    const bids: number[] = [];
    ws.on('message', (data) => {
      const msg = JSON.parse(String(data)) as { type: string; quotes?: { symbol: string; bid: number | null }[] };
      if (msg.type === 'quotes' || msg.type === 'snapshot') for (const q of msg.quotes ?? []) if (q.symbol === 'EURUSD' && q.bid !== null) bids.push(q.bid);
    });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    ws.send(JSON.stringify({ type: 'subscribe', symbols: ['EURUSD'] }));
    await sleep(300);
    assert.equal((await push([{ symbol: 'EURUSD', bid: 1.1003, ask: 1.1005 }])).status, 200);
    // The same tick again until it shows: a busy machine may take the subscription after the first one passed.
    await until('the relayed quote on a follower', async () => bids.includes(1.1003) || ((await push([{ symbol: 'EURUSD', bid: 1.1003, ask: 1.1005 }])).status === 200 && false), 5000);

    // Load: each trader sends orders one after another (a Buy with a stop loss at 1.0950); the
    // leader is killed while they run.
    const acknowledged: number[] = [];
    let running = true;
    let refusals = 0;
    const load = traders.map(async (client) => {
      while (running) {
        const r = await order(client, { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 0.01, stopLoss: 1.095, takeProfit: 0, comment: '' }, randomUUID());
        refusals += r.tries - 1;
        acknowledged.push(r.ticket);
      }
    });
    const ticker = (async () => {
      let bid = 1.1003;
      while (running) {
        bid = Math.round((bid + 0.00001) * 1e5) / 1e5;
        const r = await push([{ symbol: 'EURUSD', bid, ask: Math.round((bid + 0.0002) * 1e5) / 1e5 }]).catch(() => null);
        assert.notEqual(r?.status, 500);
        await sleep(50);
      }
    })();
    await sleep(1500);
    const beforeKill = acknowledged.length;
    assert.ok(beforeKill > 0, 'orders go through before the fail-over');
    const killedAt = Date.now();
    apps.get(leader)!.child.kill('SIGKILL');
    const next = await until(
      'a new leader',
      async () => (await roles()).find((x) => x.port !== leader && x.h.role === 'leader'),
      15_000,
    );
    const takeover = Date.now() - killedAt;
    assert.ok(takeover <= 10_000, `takeover took ${takeover} ms`);
    const afterTakeover = acknowledged.length;
    await until('orders after the takeover', async () => acknowledged.length > afterTakeover + 8, 20_000);
    running = false;
    await Promise.all([...load, ticker]);
    console.log(`# fail-over: new leader ${next.h.instance} after ${takeover} ms; ${acknowledged.length} orders acknowledged (${beforeKill} before the kill), ${refusals} retryable refusals retried`);

    // Every acknowledged order is kept, once.
    assert.equal(new Set(acknowledged).size, acknowledged.length, 'no ticket acknowledged twice');
    const { rows } = await sql.query<{ id: number }>(`select id from positions where id = any($1::int[]) and status = 'open'`, [acknowledged]);
    assert.equal(rows.length, acknowledged.length, 'every acknowledged order is an open position');

    // The stop loss fires on the new leader: every position closes once, at its stop.
    assert.equal((await push([{ symbol: 'EURUSD', bid: 1.094, ask: 1.0942 }])).status, 200);
    await until(
      'every stop loss fired',
      async () => Number((await sql.query(`select count(*) as n from positions where status = 'open'`)).rows[0].n) === 0,
      15_000,
    );
    const closes = await sql.query<{ n: string; reasons: string[] }>(`select count(*) as n, array_agg(distinct close_reason) as reasons from positions where id = any($1::int[])`, [acknowledged]);
    assert.deepEqual(closes.rows[0]!.reasons, ['sl']);
    const postings = await sql.query<{ ref_id: number; n: string }>(
      `select ref_id, kind, count(*) as n from ledger_entries where ref_type = 'position' and ref_id = any($1::text[]) group by ref_id, kind having count(*) > 1`,
      [acknowledged.map(String)],
    );
    assert.deepEqual(postings.rows, [], 'no position closed (posted) twice');

    // The stream client on the survivor still gets quotes, now relayed by the new leader.
    assert.equal((await push([{ symbol: 'EURUSD', bid: 1.0961, ask: 1.0963 }])).status, 200);
    await until('quotes after the fail-over on the survivor', async () => bids.includes(1.0961), 5000);

    // Redis stopped under load: every instance keeps serving reads and says so in health; the
    // leader carries out orders, a follower refuses them as retryable (its prices have stopped);
    // after Redis is back quotes flow again and the follower forwards orders again.
    redis.child.kill('SIGTERM');
    await redis.exited;
    const survivors = PORTS.filter((p) => p !== leader);
    const follower = survivors.find((p) => p !== next.port)!;
    await until('health reports Redis down', async () => (await Promise.all(survivors.map(health))).every((h) => h?.redis === 'down'), 10_000);
    const reader = traders[1]!;
    const direct = (port: number) => {
      const c = new Client({ url: `http://127.0.0.1:${port}/api`, origin } as TestApp);
      for (const pair of reader.cookieHeader.split('; ')) c.setCookie(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
      return c;
    };
    const sell = { fullSymbol: 'EURUSD', tradestypes: 'sell', volume: 0.01, stopLoss: 0, takeProfit: 0, comment: '' };
    for (let i = 0; i < 6; i++) {
      const q = await reader.get(`${calls.getQuotes.path}?symbols=EURUSD`);
      assert.equal(q.status, 200, 'reads are served while Redis is down');
      const o = await reader.post(calls.addTrades.path, sell, { 'idempotency-key': randomUUID() });
      assert.ok(o.status === 200 || o.status === 503, `an order while Redis is down is carried out or refused as retryable: ${o.status} ${JSON.stringify(o.body)}`);
      if (o.status === 503) assert.ok(o.headers.get('retry-after'));
    }
    const refused = await direct(follower).post(calls.addTrades.path, sell, { 'idempotency-key': randomUUID() });
    assert.equal(refused.status, 503, `an order on a follower while Redis is down: ${JSON.stringify(refused.body)}`);
    assert.equal(refused.body.status, 'Failure');
    assert.match(refused.body.message, /Trading is briefly unavailable on this server.*nothing was done.*try again/);
    assert.ok(refused.headers.get('retry-after'));
    assert.equal((await direct(follower).get(calls.getTrades.path)).status, 200, "a follower still serves the leader's reads");
    const onLeader = await direct(next.port).post(calls.addTrades.path, sell, { 'idempotency-key': randomUUID() });
    assert.equal(onLeader.status, 200, `the leader needs no Redis to execute: ${JSON.stringify(onLeader.body)}`);
    redis = startRedis();
    await until('health reports Redis up again', async () => (await Promise.all(survivors.map(health))).every((h) => h?.redis === 'up'), 20_000);
    // It refuses until the leader's whole book has come (it asks for it as it hears from the
    // leader): about a second. A client retries a 503 with Retry-After, with the same key.
    const againKey = randomUUID();
    const again = await until(
      'a follower forwards orders again once Redis is back',
      async () => {
        const r = await direct(follower).post(calls.addTrades.path, sell, { 'idempotency-key': againKey });
        if (r.status === 503 && r.headers.get('retry-after')) return null;
        return r;
      },
      3_000,
    );
    assert.equal(again.status, 200, `a follower forwards orders again once Redis is back: ${JSON.stringify(again.body)}`);
    if (follower === survivor) {
      await sleep(500);
      assert.equal((await push([{ symbol: 'EURUSD', bid: 1.0977, ask: 1.0979 }])).status, 200);
      await until('quotes after Redis came back', async () => bids.includes(1.0977), 10_000);
    }
    ws.close();

    // The ledger agrees with every balance.
    const check = spawnSync('npm', ['run', '--silent', 'ledger:check'], { cwd: join(serverDir, '..'), env: { ...process.env, DATABASE_URL: db.url }, encoding: 'utf8' });
    assert.equal(check.status, 0, `${check.stdout}\n${check.stderr}`);
    assert.match(check.stdout, /Ledger check passed/);
  });
});
