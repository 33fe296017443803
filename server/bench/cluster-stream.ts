/**
 * `npm run bench:cluster:stream`: stream clients through HAProxy with 1, 2 and 3 production
 * processes (`src/main.ts`) on one PostgreSQL database and a Redis of their own, with the simulated
 * feed (every market open). For each instance count the cluster is started once, then for each
 * client count that many WebSocket clients (one signed-in trader, as many browser tabs) connect to
 * `/api/stream` through the balancer, which spreads them round robin over the instances, and
 * subscribe to the same symbols. Over a fixed window it measures, for the quotes whose tick time
 * falls in it: tick-to-client latency (p50/p99/max: the leader's feed, the Redis relay for clients
 * of followers, the frame, the balancer), the share delivered (each client's quotes against those
 * of a reference client connected straight to the leader, outside the count), quotes shown stale,
 * clients the server closed or that never got their snapshot (within 30 s), and gaps in the
 * messages' `seq` (a lost message). A client is "served" when it connected and stayed connected,
 * had no gap, got no stale quote and received at least 90% of the reference's quotes with its own
 * p99 under 1 s. The load generator's own CPU is reported: near a whole core, it is what limits.
 *
 * Needs PostgreSQL (BENCH_DATABASE_URL or DATABASE_URL, a server URL: a database named
 * `<BENCH_DATABASE_PREFIX><random>` is created and dropped), haproxy and redis-server.
 * Options: --instances=1,2,3 --clients=500,1000,2000 --symbols=20 --window=10 --warmup=3
 * --concurrency=100. Progress on stderr, a markdown table on stdout. Every process it starts is
 * stopped by PID at the end.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import WebSocket from 'ws';
import { arg, busyBetween, log, machine, machineCpu, num, pct } from './bench-util';

const base = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_PREFIX = process.env.BENCH_DATABASE_PREFIX ?? 'tp_bench_stream_';
const INSTANCES = arg('instances', '1,2,3').split(',').map(Number);
const CLIENTS = arg('clients', '500,1000,2000').split(',').map(Number);
const SYMBOL_COUNT = Number(arg('symbols', '20'));
const WINDOW_MS = Number(arg('window', '10')) * 1000;
const WARMUP_MS = Number(arg('warmup', '3')) * 1000;
const CONCURRENCY = Number(arg('concurrency', '100'));
/** Quotes of the window that arrive this long after it ends still count. */
const GRACE_MS = 2000;
const MAX_LATENCY_MS = 60_000;
const SERVED_SHARE = 0.9;
const SERVED_P99_MS = 1000;

const serverDir = new URL('..', import.meta.url).pathname;
/** Ports nobody listens on now (the machine may run other benchmarks and tests). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
const BALANCER = await freePort();
const origin = `http://127.0.0.1:${BALANCER}`;
const PASSWORD = 'violet-harbour-42';

if (INSTANCES.some((n) => !Number.isInteger(n) || n < 1 || n > 9) || CLIENTS.some((n) => !Number.isInteger(n) || n < 1) || !(SYMBOL_COUNT >= 1) || !(WINDOW_MS > 0) || !(CONCURRENCY >= 1)) {
  console.error('usage: cluster-stream.ts [--instances=1,2,3] [--clients=500,1000,2000] [--symbols=20] [--window=10] [--warmup=3] [--concurrency=100]');
  process.exit(2);
}

/** The first symbols of the catalogue (all of them tick with MARKET_SESSIONS=always). */
const catalogue = JSON.parse(readFileSync(join(serverDir, 'config/instruments.json'), 'utf8')) as { instruments: { symbol: string }[] };
const SYMBOLS = catalogue.instruments.slice(0, SYMBOL_COUNT).map((i) => i.symbol);

const started = new Set<ChildProcess>();
const launch = (cmd: string, args: string[], env: Record<string, string> = {}): ChildProcess => {
  const child = spawn(cmd, args, { cwd: serverDir, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  started.add(child);
  child.on('exit', () => started.delete(child));
  return child;
};
function killAll(signal: NodeJS.Signals): void {
  for (const c of started) if (c.pid !== undefined && c.exitCode === null) process.kill(c.pid, signal);
}
process.on('SIGINT', () => {
  killAll('SIGKILL');
  process.exit(130);
});

async function until(what: string, probe: () => Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await probe().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

// ------------------------------------------------------------------ what the clients receive

const QUOTES_PREFIX = Buffer.from('{"type":"quotes","seq":');
const TIME_KEY = Buffer.from('"time":');
const STALE_TRUE = Buffer.from('"stale":true');
const startsWith = (buf: Buffer, prefix: Buffer) => buf.length >= prefix.length && buf.compare(prefix, 0, prefix.length, 0, prefix.length) === 0;

/** Reads the whole number at `at` in `buf` (NaN when there is none). */
function numberAt(buf: Buffer, at: number): [value: number, end: number] {
  let j = at;
  let c = buf[j];
  if (c === undefined || c < 48 || c > 57) return [Number.NaN, j];
  let v = 0;
  while (c !== undefined && c >= 48 && c <= 57) {
    v = v * 10 + (c - 48);
    c = buf[++j];
  }
  return [v, j];
}

/** One client's counts; its latencies go into the shared histogram and its own. */
class Client {
  seq = 0;
  gaps = 0;
  received = 0;
  stale = 0;
  closed = false;
  /** Never got its snapshot (refused, or nothing within 30 s). */
  unopened = false;
  readonly own: number[] = [];
  constructor(readonly shared: Window) {}

  onMessage = (data: WebSocket.RawData): void => {
    const buf = data as Buffer;
    // Every message carries seq 1, 2, 3 … per connection: the `seq` is the second key of each.
    const at = buf.indexOf('"seq":');
    if (at !== -1) {
      const [seq] = numberAt(buf, at + 6);
      if (Number.isFinite(seq)) {
        if (this.seq !== 0 && seq !== this.seq + 1) this.gaps += 1;
        this.seq = seq;
      }
    }
    if (!startsWith(buf, QUOTES_PREFIX)) return;
    const w = this.shared;
    const now = Date.now();
    let i = buf.indexOf(TIME_KEY);
    while (i !== -1) {
      const [t, end] = numberAt(buf, i + TIME_KEY.length);
      if (t >= w.from && t < w.to) {
        this.received += 1;
        const ms = Math.min(MAX_LATENCY_MS, Math.max(0, now - t));
        w.latency[ms]! += 1;
        this.own.push(ms);
      }
      i = buf.indexOf(TIME_KEY, end);
    }
    if (now >= w.from && now < w.to + GRACE_MS && buf.includes(STALE_TRUE)) this.stale += 1;
  };
}

class Window {
  from = Number.POSITIVE_INFINITY;
  to = Number.NEGATIVE_INFINITY;
  readonly latency = new Uint32Array(MAX_LATENCY_MS + 1);
  percentile(p: number): number {
    const total = this.latency.reduce((a, b) => a + b, 0);
    if (total === 0) return Number.NaN;
    const rank = Math.ceil((p / 100) * total);
    let seen = 0;
    for (let ms = 0; ms < this.latency.length; ms++) {
      seen += this.latency[ms]!;
      if (seen >= rank) return ms;
    }
    return MAX_LATENCY_MS;
  }
  max(): number {
    for (let ms = this.latency.length - 1; ms >= 0; ms--) if (this.latency[ms]! > 0) return ms;
    return Number.NaN;
  }
}

function open(url: string, cookie: string, client: Client): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers: { Origin: origin, Cookie: cookie }, perMessageDeflate: false });
    let ready = false;
    const timer = setTimeout(() => fail(new Error('no snapshot within 30 s')), 30_000);
    const fail = (err: Error) => {
      clearTimeout(timer);
      ws.terminate();
      reject(err);
    };
    ws.on('message', (data: WebSocket.RawData) => {
      client.onMessage(data);
      if (ready) return;
      const buf = data as Buffer;
      if (startsWith(buf, Buffer.from('{"type":"hello"'))) ws.send(JSON.stringify({ type: 'subscribe', symbols: SYMBOLS }));
      else if (startsWith(buf, Buffer.from('{"type":"snapshot"'))) {
        ready = true;
        clearTimeout(timer);
        resolve(ws);
      } else if (startsWith(buf, Buffer.from('{"type":"error"'))) fail(new Error(`subscription refused: ${buf.toString()}`));
    });
    ws.on('error', (err) => (ready ? undefined : fail(err)));
    ws.on('close', () => {
      if (ready) client.closed = true;
      else fail(new Error('closed before the snapshot'));
    });
  });
}

// ------------------------------------------------------------------ the cluster

interface Cluster {
  apps: ChildProcess[];
  ports: number[];
  stop(): Promise<void>;
}

async function startCluster(instances: number): Promise<Cluster> {
  const name = `${DB_PREFIX}${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const dir = mkdtempSync(join(tmpdir(), 'tp-bench-cluster-stream-'));
  const procs: ChildProcess[] = [];
  const ports: number[] = [];
  for (let i = 0; i < instances; i++) ports.push(await freePort());
  const redisPort = await freePort();
  const stop = async () => {
    for (const p of procs) if (p.exitCode === null) p.kill('SIGTERM');
    for (let i = 0; i < 30 && procs.some((p) => p.exitCode === null); i++) await sleep(100);
    for (const p of procs) if (p.exitCode === null) p.kill('SIGKILL');
    await admin.query(`drop database if exists ${name} with (force)`).catch(() => undefined);
    await admin.end();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    procs.push(launch('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no']));
    // What the instances share to trust each other: a fresh one each run.
    const clusterSecret = randomBytes(32).toString('base64url');
    const apps = ports.map((port, i) =>
      launch(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        HOST: '127.0.0.1', PORT: String(port), DATABASE_URL: url.toString(), EVENT_BUS: 'redis', REDIS_URL: `redis://127.0.0.1:${redisPort}`, CLUSTER_SECRET: clusterSecret,
        INSTANCE_NAME: `app-${i + 1}`, MARKET_FEED: 'sim', SIM_SEED: 'cluster-stream', MARKET_SESSIONS: 'always', SIM_HISTORY: 'false',
        ADMIN_EMAIL: 'admin@bench.test', ADMIN_PASSWORD: 'Cluster-Bench-Admin-42', STAFF_TWO_FACTOR: 'optional', PUBLIC_ORIGIN: origin, LOG_LEVEL: 'warn',
        SIGNUP_RATE_LIMIT_PER_MINUTE: '100000', SIGNIN_RATE_LIMIT_PER_MINUTE: '100000',
      }),
    );
    procs.push(...apps);
    for (const port of ports) await until(`instance ${port}`, async () => (await fetch(`http://127.0.0.1:${port}/api/health`)).ok, 180_000);
    // Client-side connections: HAProxy needs two descriptors for each (client and server side).
    const maxconn = Math.max(...CLIENTS) + 500;
    const cfg = join(dir, 'haproxy.cfg');
    writeFileSync(
      cfg,
      [
        'global', `  maxconn ${maxconn}`, 'defaults', '  mode http', `  maxconn ${maxconn}`, '  timeout connect 2s', '  timeout client 60s', '  timeout server 60s', '  timeout check 2s', '  timeout tunnel 1h',
        '  option redispatch', '  retries 2', 'frontend f', `  bind 127.0.0.1:${BALANCER}`, '  default_backend app', 'backend app', '  balance roundrobin', '  option httpchk GET /api/health',
        '  default-server inter 1s fall 2 rise 1', ...ports.map((p, i) => `  server app-${i + 1} 127.0.0.1:${p} check`), '',
      ].join('\n'),
    );
    const balancer = launch('haproxy', ['-db', '-f', cfg]);
    procs.push(balancer);
    await sleep(500);
    if (balancer.exitCode !== null) throw new Error('haproxy did not start');
    await until('the balancer', async () => (await fetch(`${origin}/api/health`)).ok, 20_000);
    // Every instance in the balancer's rotation (its first checks may still be under way).
    await sleep(2500);
    return { apps, ports, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function signIn(): Promise<string> {
  const email = `bench.stream.${randomBytes(4).toString('hex')}@example.com`;
  const post = (path: string, body: unknown) => fetch(`${origin}/api${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin }, body: JSON.stringify(body) });
  await post('/registration.php', { firstName: 'Bench', lastName: 'Trader', phoneNo: '4915112345678', email, password: PASSWORD, country_id: 840 });
  const res = await post('/login.php', { email, password: PASSWORD });
  const cookie = res.headers.getSetCookie().map((line) => line.split(';')[0]!).find((pair) => pair.startsWith('tp_session='));
  if (!cookie) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return cookie;
}

async function leaderPort(ports: number[]): Promise<number> {
  for (let i = 0; i < 50; i++) {
    for (const p of ports) {
      const h = (await (await fetch(`http://127.0.0.1:${p}/api/health`)).json()) as { role?: string };
      if (h.role === 'leader') return p;
    }
    await sleep(200);
  }
  throw new Error('no engine leader');
}

// ------------------------------------------------------------------ one measurement

interface Result {
  instances: number;
  clients: number;
  connectS: number;
  served: number;
  delivered: number;
  reference: number;
  p50: number;
  p99: number;
  max: number;
  stale: number;
  closed: number;
  unopened: number;
  gaps: number;
  machineBusy: number;
  loadgenCpu: number;
}

async function measure(instances: number, n: number, cookie: string, leader: number): Promise<Result> {
  const window = new Window();
  const reference = new Client(window);
  const referenceSocket = await open(`ws://127.0.0.1:${leader}/api/stream`, cookie, reference);
  const clients = Array.from({ length: n }, () => new Client(window));
  const sockets: WebSocket[] = [];
  const connectStarted = Date.now();
  try {
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(CONCURRENCY, n) }, async () => {
        while (next < n) {
          const c = clients[next++]!;
          try {
            sockets.push(await open(`ws://127.0.0.1:${BALANCER}/api/stream`, cookie, c));
          } catch {
            // Overloaded: counted as a client not served, and the run goes on.
            c.unopened = true;
          }
        }
      }),
    );
    const connectS = (Date.now() - connectStarted) / 1000;
    log(`${instances} instance(s) × ${n} clients: subscribed in ${connectS.toFixed(1)} s; warm-up ${WARMUP_MS / 1000} s`);
    await sleep(WARMUP_MS);
    window.from = Date.now();
    window.to = window.from + WINDOW_MS;
    const cpu0 = machineCpu();
    const own0 = process.cpuUsage();
    await sleep(WINDOW_MS);
    const machineBusy = busyBetween(cpu0, machineCpu());
    const own = process.cpuUsage(own0);
    // This process reads every client's messages: near a whole core, it is the bottleneck, not the servers.
    const loadgenCpu = (own.user + own.system) / 1000 / WINDOW_MS;
    await sleep(GRACE_MS);
    const offered = reference.received;
    const ownQuantile = (c: Client, q: number) => {
      const sorted = c.own.sort((a, b) => a - b);
      return sorted.length === 0 ? Number.POSITIVE_INFINITY : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
    };
    const served = clients.filter((c) => !c.unopened && !c.closed && c.gaps === 0 && c.stale === 0 && offered > 0 && c.received >= SERVED_SHARE * offered && ownQuantile(c, 0.99) <= SERVED_P99_MS).length;
    const receivedAll = clients.reduce((a, c) => a + c.received, 0);
    const result: Result = {
      instances,
      clients: n,
      connectS,
      served,
      delivered: offered > 0 ? receivedAll / (offered * n) : Number.NaN,
      reference: offered / (WINDOW_MS / 1000),
      // The reference client's quotes are in the histogram too: one among n.
      p50: window.percentile(50),
      p99: window.percentile(99),
      max: window.max(),
      stale: clients.filter((c) => c.stale > 0).length,
      closed: clients.filter((c) => c.closed).length,
      unopened: clients.filter((c) => c.unopened).length,
      gaps: clients.reduce((a, c) => a + c.gaps, 0),
      machineBusy,
      loadgenCpu,
    };
    log(
      `${instances} instance(s) × ${n} clients: served ${result.served}, delivered ${pct(result.delivered, 1)}, p50 ${result.p50} ms, p99 ${result.p99} ms, max ${result.max} ms, ` +
        `stale ${result.stale}, closed ${result.closed}, not connected ${result.unopened}, gaps ${result.gaps}, machine ${pct(machineBusy, 0)} busy, load generator ${pct(loadgenCpu, 0)} of a core`,
    );
    return result;
  } finally {
    for (const s of sockets) s.terminate();
    referenceSocket.terminate();
    await sleep(1000);
  }
}

// ------------------------------------------------------------------ main

async function main(): Promise<void> {
  log(`${machine()}; ${SYMBOLS.length} symbols of the simulated feed; window ${WINDOW_MS / 1000} s after ${WARMUP_MS / 1000} s warm-up`);
  const results: Result[] = [];
  for (const instances of INSTANCES) {
    log(`starting ${instances} instance(s)`);
    const cluster = await startCluster(instances);
    try {
      const cookie = await signIn();
      const leader = await leaderPort(cluster.ports);
      for (const n of CLIENTS) results.push(await measure(instances, n, cookie, leader));
    } finally {
      await cluster.stop();
    }
  }
  const out = [
    '## Stream clients with 1, 2 and 3 instances',
    '',
    `Machine: ${machine()}. Production processes (\`src/main.ts\`, \`LOG_LEVEL=warn\`) on PostgreSQL and Redis behind HAProxy (round robin), simulated feed with every market open; each client follows the first ${SYMBOLS.length} symbols of the catalogue; ${WINDOW_MS / 1000} s window after ${WARMUP_MS / 1000} s of warm-up. ` +
      `Delivered: quotes received with a tick time in the window, against those of a reference client connected to the leader directly (quotes/s in the last column). Served: connected to the end, no gap in \`seq\`, no stale quote, at least ${pct(SERVED_SHARE, 0)} of the reference's quotes and its own p99 under ${SERVED_P99_MS} ms.`,
    '',
    '| instances | clients | served | delivered | p50 ms | p99 ms | max ms | clients shown a stale quote | closed by the server | not connected | seq gaps | connect s | machine busy | load generator (% of a core) | reference quotes/s |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...results.map(
      (r) =>
        `| ${r.instances} | ${num(r.clients)} | ${num(r.served)} | ${pct(r.delivered, 1)} | ${num(r.p50)} | ${num(r.p99)} | ${num(r.max)} | ${num(r.stale)} | ${num(r.closed)} | ${num(r.unopened)} | ${num(r.gaps)} | ${r.connectS.toFixed(1)} | ${pct(r.machineBusy, 0)} | ${pct(r.loadgenCpu, 0)} | ${num(r.reference)} |`,
    ),
    '',
  ];
  process.stdout.write(out.join('\n'));
}

main().catch((err: unknown) => {
  log(`benchmark failed: ${(err as Error).stack ?? String(err)}`);
  killAll('SIGKILL');
  process.exit(1);
});
