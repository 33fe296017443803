/**
 * `npm run bench:cluster`: orders per second through HAProxy with 1, 2 and 3 production processes
 * (`src/main.ts`) on one PostgreSQL database and a Redis of their own, then what a fail-over costs:
 * the leader is killed with SIGKILL under load and the longest time without an accepted order is
 * measured. Needs PostgreSQL (BENCH_DATABASE_URL or DATABASE_URL, a server URL: a database is
 * created and dropped), haproxy and redis-server. Options: BENCH_SECONDS (10), BENCH_WORKERS (32).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const base = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 32);
const serverDir = new URL('..', import.meta.url).pathname;
const BALANCER = 47410;
const REDIS_PORT = 47460;
const FEED = 'cluster-bench-feed-token-0123456789';
const ADMIN = { email: 'admin@bench.test', password: 'Cluster-Bench-Admin-42' };
const origin = `http://127.0.0.1:${BALANCER}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const launch = (cmd: string, args: string[], env: Record<string, string> = {}): ChildProcess =>
  spawn(cmd, args, { cwd: serverDir, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });

async function until(what: string, probe: () => Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await probe().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

class Session {
  cookie = '';
  async post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
    const r = await fetch(`${origin}/api${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin, cookie: this.cookie, ...headers }, body: JSON.stringify(body) });
    const set = r.headers.getSetCookie()[0];
    if (set) this.cookie = set.split(';')[0]!;
    return { status: r.status, body: (await r.json().catch(() => ({}))) as Record<string, unknown> };
  }
}

async function run(instances: number, failover: boolean): Promise<{ ordersPerSecond: number; gapMs: number | null; takeoverMs: number | null }> {
  const name = `tp_bench_cluster_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const dir = mkdtempSync(join(tmpdir(), 'tp-bench-cluster-'));
  const procs: ChildProcess[] = [];
  const ports = Array.from({ length: instances }, (_, i) => BALANCER + 1 + i);
  try {
    procs.push(launch('redis-server', ['--port', String(REDIS_PORT), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no']));
    // What the instances share to trust each other: a fresh one each run.
    const clusterSecret = randomBytes(32).toString('base64url');
    const apps = ports.map((port, i) =>
      launch(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        HOST: '127.0.0.1', PORT: String(port), DATABASE_URL: url.toString(), EVENT_BUS: 'redis', REDIS_URL: `redis://127.0.0.1:${REDIS_PORT}`, CLUSTER_SECRET: clusterSecret,
        INSTANCE_NAME: `app-${i + 1}`, MARKET_FEED: 'push', FEED_TOKEN: FEED, MARKET_SESSIONS: 'always', SIM_HISTORY: 'false',
        ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, STAFF_TWO_FACTOR: 'optional', PUBLIC_ORIGIN: origin, SIGNUP_RATE_LIMIT_PER_MINUTE: '100000', SIGNIN_RATE_LIMIT_PER_MINUTE: '100000', ORDER_RATE_LIMIT_PER_MINUTE: '1000000', LOG_LEVEL: 'warn',
      }),
    );
    procs.push(...apps);
    for (const port of ports) await until(`instance ${port}`, async () => (await fetch(`http://127.0.0.1:${port}/api/health`)).ok, 180_000);
    const cfg = join(dir, 'haproxy.cfg');
    writeFileSync(cfg, ['global', '  maxconn 4000', 'defaults', '  mode http', '  timeout connect 2s', '  timeout client 30s', '  timeout server 30s', '  timeout check 2s', '  option redispatch', '  retries 2', 'frontend f', `  bind 127.0.0.1:${BALANCER}`, '  default_backend app', 'backend app', '  balance roundrobin', '  option httpchk GET /api/health', '  default-server inter 500ms fall 2 rise 1', ...ports.map((p, i) => `  server app-${i + 1} 127.0.0.1:${p} check`), ''].join('\n'));
    procs.push(launch('haproxy', ['-db', '-f', cfg]));
    await until('the balancer', async () => (await fetch(`${origin}/api/health`)).ok, 20_000);

    const boss = new Session();
    await boss.post('/login.php', ADMIN);
    const gateway = (await boss.post('/dashboard/admin/addNewPayments.php', { name: 'Bank', number: 'GB29NWBK60161331926819', moreInfo: 'Reference', isActive: 1 })).body.id;
    const traders: Session[] = [];
    for (let i = 0; i < WORKERS; i++) {
      const s = new Session();
      const email = `bench.${i}.${randomBytes(3).toString('hex')}@example.com`;
      await s.post('/registration.php', { firstName: 'Bench', lastName: 'Trader', phoneNo: '4915112345678', email, password: 'violet-harbour-42', country_id: 840 });
      await s.post('/login.php', { email, password: 'violet-harbour-42' });
      const d = await s.post('/platform/addDeposite.php', { depositAmount: '1000000', paymentAccount: '1', payment_getways_id: gateway });
      await boss.post('/dashboard/admin/editStatusDeposite.php', { deposites_id: d.body.id, status: 1 });
      traders.push(s);
    }
    await fetch(`${origin}/api/feed/ticks`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${FEED}` }, body: JSON.stringify({ ticks: [{ symbol: 'EURUSD', bid: 1.1, ask: 1.1002 }] }) });

    let running = true;
    let accepted = 0;
    let lastAccepted = Date.now();
    let gapMs = 0;
    let killedAt = 0;
    const work = traders.map(async (s) => {
      while (running) {
        const key = randomUUID();
        for (;;) {
          const r = await s.post('/platform/addTrades.php', { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 0.01, stopLoss: 0, takeProfit: 0, comment: '' }, { 'idempotency-key': key }).catch(() => null);
          if (r?.status === 200) break;
          if (!running) return;
          await sleep(100);
        }
        const now = Date.now();
        if (killedAt && now - lastAccepted > gapMs) gapMs = now - lastAccepted;
        lastAccepted = now;
        accepted += 1;
      }
    });
    const started = Date.now();
    let takeoverMs: number | null = null;
    if (failover && instances > 1) {
      await sleep((SECONDS * 1000) / 2);
      const roles = await Promise.all(ports.map(async (p) => ((await (await fetch(`http://127.0.0.1:${p}/api/health`)).json()) as { role: string }).role));
      const leader = roles.indexOf('leader');
      killedAt = Date.now();
      apps[leader]!.kill('SIGKILL');
      const others = ports.filter((_, i) => i !== leader);
      await until('a new leader', async () => (await Promise.all(others.map(async (p) => ((await (await fetch(`http://127.0.0.1:${p}/api/health`)).json()) as { role: string }).role))).includes('leader'), 30_000);
      takeoverMs = Date.now() - killedAt;
      await sleep((SECONDS * 1000) / 2);
    } else await sleep(SECONDS * 1000);
    running = false;
    const elapsed = (Date.now() - started) / 1000;
    await Promise.all(work);
    return { ordersPerSecond: accepted / elapsed, gapMs: killedAt ? gapMs : null, takeoverMs };
  } finally {
    for (const p of procs) if (p.exitCode === null) p.kill('SIGTERM');
    await sleep(3000);
    for (const p of procs) if (p.exitCode === null) p.kill('SIGKILL');
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  console.log(`# cluster bench: ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), Node ${process.version}, ${WORKERS} workers each sending durable market orders (Idempotency-Key) one after another through HAProxy, ${SECONDS} s per run`);
  for (const n of [1, 2, 3]) {
    const r = await run(n, false);
    console.log(`instances=${n} orders/s=${r.ordersPerSecond.toFixed(0)}`);
  }
  const f = await run(3, true);
  console.log(`fail-over (3 instances, leader SIGKILLed under load): new leader after ${f.takeoverMs} ms; longest time without an accepted order ${f.gapMs} ms; orders/s over the run ${f.ordersPerSecond.toFixed(0)}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
