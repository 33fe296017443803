import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { calls } from '@tradeport/contracts';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import { arg, busyBetween, log, machine, machineCpu, ms, num, pct, waitForQuietMachine } from './bench-util';
import { call, expectOk } from './http-client';
import { freshDatabase, ProductionServer, seedTraders, type BenchDatabase, type SeededTrader } from './production-server';
import { armDeadline, ServerChild } from './server-child';

/**
 * Authenticated reads over HTTP against a bare Fastify hello-world (`npm run bench:reads -w server`,
 * part of `npm run bench`; or `node --import tsx bench/reads-http.ts` from server/). The issue's
 * targets: `GET /api/health` at least 60% of the hello-world's requests/s and every authenticated
 * read at least 40%, measured in the same run on the same machine.
 *
 * Two modes:
 *
 * - `--mode=production` (the default): the production entry, `src/main.ts` as `npm start` runs it,
 *   in a child process with its default log level (info: a JSON line per request on its standard
 *   output, a file here; `--log-level=warn` for fewer) and the simulated feed ticking (`production-server.ts`),
 *   on a fresh SQLite file (or, with `--database=postgres://…`, a fresh PostgreSQL database), with
 *   `--users=1000` traders signed in (their sessions written up front). Each trader gets a deposit
 *   approved, opens three positions and closes one and places a pending order, over HTTP; every
 *   20th also requests a withdrawal. With `--accounts=2` (the default; 1–4), each trader also opens
 *   a demo account and trades on it (two positions, one closed, a pending order), so the session
 *   lookup, the engine and the tables hold two accounts per trader; the reads are the first live
 *   account's, as a client naming no account gets. autocannon's 100 connections rotate through all their cookies, so the
 *   thousand sessions stay active (each is touched every 30 s, as a browser's would be); the back
 *   office's calls use the administrator's session, and `getTraderDetails` rotates through the
 *   traders. The server's CPU time is read from it (`production-probe.ts`).
 *   With `--instances=2` (and --database), two instances share the database and a Redis the
 *   benchmark starts (port 47551), the first the engine's leader; the load is split between them.
 * - `--mode=app`: the earlier setup, `buildApp` in a child (`orders-server.ts`) with the logger off,
 *   the push feed fed 200 ticks/s, and one trader.
 *
 * The hello-world (`hello-server.ts`) is measured first and last, with the same cookie rotation (so
 * the load generator does the same work); a read's share is its requests/s over the mean of the two.
 * autocannon runs in this process and shares the machine's cores with the server, as in the issue:
 * 100 connections, 10 s per call after 2 s of warm-up. Every answer of a measured read must be a 200
 * (non-2xx are counted and reported).
 *
 * Each read is sent as a screen sends it (`readsToMeasure`): the back office's paged lists as their
 * first page of ten. `getQuotes` and those lists are measured a second time in the spec's form,
 * without a query; the back-office forms (whole lists, or a default page of 100) are reported, not
 * held to the target (no screen asks for them; their size bounds them).
 *
 * A read whose answer is larger than `--same-bytes` (16384 bytes by default; 0: never) is followed by
 * the hello-world answering a body of the same size (`/bytes/<n>`): what Fastify and autocannon
 * manage at that size on this machine, the most such a read could reach, whatever the app does.
 *
 * Options: --mode=production|app --users=1000 --accounts=2 --database=postgres://… --instances=1 --port=47510
 * (the first instance's; the next ones follow) --connections=100 --same-bytes=16384
 * --duration=10 --warmup=2 --calls=getQuotes,getTrades,health (call names from the contracts table,
 * or `health`; default: health and every GET call that needs a session; a public call is measured
 * only when named) --log-level=warn (the server's LOG_LEVEL; default: not set) --profile=DIR (V8 CPU
 * profile of the server).
 */

const MODE = arg('mode', 'production');
const USERS = Number(arg('users', '1000'));
const ACCOUNTS = Number(arg('accounts', '2'));
const DATABASE = arg('database', '');
const INSTANCES = Number(arg('instances', '1'));
const CONNECTIONS = Number(arg('connections', '100'));
const DURATION_S = Number(arg('duration', '10'));
const WARMUP_S = Number(arg('warmup', '2'));
const ONLY = arg('calls', '').split(',').filter(Boolean);
const PROFILE_DIR = arg('profile', '');
const SAME_BYTES = Number(arg('same-bytes', '16384'));
const LOG_LEVEL = arg('log-level', '');
const ADMIN_EMAIL = 'bench.admin@example.com';
const ADMIN_PASSWORD = 'Bench-Admin-Pass-42';
const TRADER_PASSWORD = 'violet-harbour-42';
const PORT = Number(arg('port', '47510'));
const TARGET_SHARE = 0.4;
const HEALTH_TARGET_SHARE = 0.6;
const RUN_DEADLINE_MS = 30 * 60_000;
const SETUP_CONCURRENCY = 16;

const usage = 'usage: reads-http.ts [--mode=production|app] [--users=1000] [--accounts=2] [--database=postgres://…] [--instances=1] [--port=47510] [--connections=100] [--duration=10] [--warmup=2] [--calls=health,getQuotes,getTrades] [--same-bytes=16384] [--log-level=warn] [--profile=DIR]';
if (!['production', 'app'].includes(MODE) || !Number.isInteger(USERS) || USERS < 1 || !Number.isInteger(ACCOUNTS) || ACCOUNTS < 1 || ACCOUNTS > 4 || !Number.isInteger(CONNECTIONS) || CONNECTIONS < 1 || !(DURATION_S > 0) || !(WARMUP_S >= 0) || !(SAME_BYTES >= 0)) {
  console.error(usage);
  process.exit(2);
}
if (DATABASE && !/^postgres(ql)?:\/\//.test(DATABASE)) {
  console.error(`--database must name a PostgreSQL server (postgres://…); without it the benchmark uses a fresh SQLite file\n${usage}`);
  process.exit(2);
}
if (!Number.isInteger(INSTANCES) || INSTANCES < 1 || INSTANCES > 4 || (INSTANCES > 1 && (MODE !== 'production' || !DATABASE))) {
  console.error(`--instances=1…4; more than one needs --mode=production and --database=postgres://… (several instances share PostgreSQL and a Redis this benchmark starts)\n${usage}`);
  process.exit(2);
}
if (MODE === 'app' && DATABASE) {
  console.error('--database applies to --mode=production');
  process.exit(2);
}

type CallName = keyof typeof calls;
interface Read {
  name: CallName | 'hello-world' | 'health';
  path: string;
  as: 'trader' | 'admin' | null;
  /** The query is a trader's id, rotated with the cookies (the back office's trader page). */
  perTrader?: (traderId: number) => string;
  /**
   * The spec's form of a back-office call whose screens ask for a page of ten: the whole list, or
   * the call's default page of 100. Measured and reported beside the hello-world answering as many
   * bytes, not held to the target (its size, 40 KB to hundreds of KB at 1,000 traders, is what
   * bounds it).
   */
  wholeList?: true;
}

/** Every GET call a session can make, with a query a real screen sends, and the health check. */
function readsToMeasure(): Read[] {
  const queries: Partial<Record<CallName, string>> = {
    getQuotes: '?symbols=EURUSD',
    getCandles: '?symbol=EURUSD&period=M1&limit=100',
    getActivity: '?page=1',
    getChartLayout: '?symbol=EURUSD',
    // The back office's first page of each list, as its screens ask for it (the Users table by
    // name, ten rows; Open Trades, ten traders; ten closed trades and money requests; the audit
    // log's ten and one more, to know whether there is an older page); the spec's forms (whole
    // lists, or its default page of 100) are measured after them.
    getTraders: '?sort=name&direction=asc&limit=10&offset=0',
    getOpenTrades: '?limit=10&offset=0',
    getClosedTrades: '?limit=10&offset=0',
    getMoneyRequests: '?limit=10&offset=0',
    getAuditLog: '?limit=11',
    // The first money request's notes (a deposit every trader made).
    getMoneyRequestNotes: '?requestId=1',
  };
  /** Calls about one trader: each request names the next trader of the rotation. */
  const perTrader: CallName[] = ['getTraderDetails', 'getTraderBalanceOperations', 'getTraderAccounts'];
  /** The spec's form of a call (no query) measured too, after the screen's. */
  const alsoWhole: CallName[] = ['getQuotes', 'getTraders', 'getOpenTrades', 'getClosedTrades', 'getMoneyRequests', 'getAuditLog'];
  const reads: Read[] = [];
  if (ONLY.length === 0 || ONLY.includes('health')) reads.push({ name: 'health', path: '/api/health', as: null });
  for (const [name, c] of Object.entries(calls) as [CallName, (typeof calls)[CallName]][]) {
    // Downloads (the CSV exports) are files a person asks for now and then, not reads a screen makes.
    if (c.method !== 'GET' || ('produces' in c && c.produces !== undefined)) continue;
    // Public calls only when named (to compare the framework's own cost); the rest are every read a session makes.
    if (ONLY.length > 0 ? !ONLY.includes(name) : c.access !== 'signed-in' && c.access !== 'trader' && c.access !== 'staff') continue;
    const read: Read = { name, path: `/api${c.path}${queries[name] ?? ''}`, as: c.access === 'staff' ? 'admin' : 'trader' };
    if (perTrader.includes(name)) read.perTrader = (id) => `/api${c.path}?traderId=${id}`;
    reads.push(read);
  }
  for (const name of alsoWhole) {
    const at = reads.findIndex((r) => r.name === name);
    if (at >= 0) reads.splice(at + 1, 0, { ...(reads[at] as Read), path: `/api${calls[name].path}`, ...(name === 'getQuotes' ? {} : { wholeList: true as const }) });
  }
  return reads;
}

/** Who the load signs in as: the traders' cookies (rotated) and the administrator's. */
interface Sessions {
  traders: { id: number; cookie: string }[];
  admin: string;
}

/** Runs `task` over `items`, `concurrency` at a time. */
async function pool<T>(items: T[], concurrency: number, task: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      await task(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}

async function adminSession(origin: string): Promise<{ admin: string; gateway: number }> {
  const admin = expectOk('admin sign-in', await call(origin, '/login.php', { body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } })).cookie;
  if (!admin) throw new Error('the admin sign-in returned no session cookie');
  const gateway = expectOk('payment account', await call(origin, '/dashboard/admin/addNewPayments.php', { cookie: admin, form: { name: 'Bench bank', number: 'GB29NWBK60161331926819', moreInfo: 'Reference: your email', isActive: '1' } })).body.id as number;
  return { admin, gateway };
}

/** A trader's account as a screen shows it: a deposit, open and closed positions, a pending order, a withdrawal request. */
async function furnish(origin: string, admin: string, gateway: number, trader: string, positions: number, closes: number, orders: number, withdrawal = true): Promise<void> {
  const deposit = expectOk('deposit request', await call(origin, '/platform/addDeposite.php', { cookie: trader, body: { depositAmount: '10000', paymentAccount: '1234', payment_getways_id: gateway } }));
  expectOk('deposit approval', await call(origin, '/dashboard/admin/editStatusDeposite.php', { cookie: admin, body: { deposites_id: deposit.body.id, status: 1 } }));
  const tickets: number[] = [];
  for (let i = 0; i < positions; i++) {
    const opened = expectOk('open', await call(origin, '/platform/addTrades.php', { cookie: trader, body: { fullSymbol: i % 2 ? 'GBPUSD' : 'EURUSD', tradestypes: i % 3 ? 'buy' : 'sell', volume: 0.01, stopLoss: 0, takeProfit: 0, comment: '' } }));
    tickets.push(opened.body.ticket as number);
  }
  for (const ticket of tickets.slice(0, closes)) expectOk('close', await call(origin, '/platform/updateTrades.php', { cookie: trader, body: { ticket } }));
  for (const [orderType, price] of ([['buy_limit', 0.9], ['sell_limit', 1.5]] as const).slice(0, orders)) {
    expectOk('pending order', await call(origin, '/platform/addPendingOrder.php', { cookie: trader, body: { fullSymbol: 'EURUSD', orderType, volume: 0.01, price, stopLimitPrice: 0, stopLoss: 0, takeProfit: 0 } }));
  }
  if (withdrawal) expectOk('withdrawal request', await call(origin, '/platform/addWithdrawal.php', { cookie: trader, body: { withdrawalsAmount: '100', paymentAccount: '1234' } }));
}

/**
 * A trader's further accounts (demo ones; up to `ACCOUNTS` in all), each traded as a screen would:
 * two positions, one of them closed, and a pending order. The browser's choice (the `tp_account`
 * cookie) names the account, as the web app's switcher does.
 */
async function furnishDemoAccounts(origin: string, trader: string): Promise<void> {
  for (let n = 1; n < ACCOUNTS; n++) {
    const opened = expectOk('demo account', await call(origin, '/platform/openAccount.php', { cookie: trader, body: { kind: 'demo' } }));
    const on = `${trader}; tp_account=${(opened.body.account as { id: number }).id}`;
    const tickets: number[] = [];
    for (let i = 0; i < 2; i++) {
      const position = expectOk('demo open', await call(origin, '/platform/addTrades.php', { cookie: on, body: { fullSymbol: i ? 'GBPUSD' : 'EURUSD', tradestypes: 'buy', volume: 0.1, stopLoss: 0, takeProfit: 0, comment: '' } }));
      tickets.push(position.body.ticket as number);
    }
    expectOk('demo close', await call(origin, '/platform/updateTrades.php', { cookie: on, body: { ticket: tickets[0] } }));
    expectOk('demo pending order', await call(origin, '/platform/addPendingOrder.php', { cookie: on, body: { fullSymbol: 'EURUSD', orderType: 'buy_limit', volume: 0.1, price: 0.9, stopLimitPrice: 0, stopLoss: 0, takeProfit: 0 } }));
  }
}

/** --mode=app: one trader signs up and gets seven positions (two closed), two pending orders and a withdrawal. */
async function setUpOneTrader(origin: string): Promise<Sessions> {
  const { admin, gateway } = await adminSession(origin);
  const email = `bench.reads.${process.pid}@example.com`;
  expectOk('sign-up', await call(origin, '/registration.php', { body: { firstName: 'Bench', lastName: 'Reader', phoneNo: '4915112345678', email, password: TRADER_PASSWORD, country_id: 840 } }));
  const trader = expectOk('sign-in', await call(origin, '/login.php', { body: { email, password: TRADER_PASSWORD } })).cookie;
  if (!trader) throw new Error('the trader sign-in returned no session cookie');
  await furnish(origin, admin, gateway, trader, 7, 2, 2);
  const traders = await fetch(`${origin}/api/dashboard/admin/getTraders.php`, { headers: { cookie: admin } });
  const list = ((await traders.json()) as { data: { id: number; email: string }[] }).data;
  const traderId = list.find((t) => t.email === email)?.id;
  if (traderId === undefined) throw new Error('the new trader is missing from getTraders');
  return { traders: [{ id: traderId, cookie: trader }], admin };
}

/** --mode=production: every seeded trader's account is furnished over HTTP. */
async function setUpTraders(origin: string, seeded: SeededTrader[]): Promise<Sessions> {
  const { admin, gateway } = await adminSession(origin);
  const t0 = performance.now();
  // A back office's queue holds some withdrawals, not one per trader: every 20th asks for one.
  await pool(seeded, SETUP_CONCURRENCY, async (t, i) => {
    await furnish(origin, admin, gateway, t.cookie, 3, 1, 1, i % 20 === 0);
    await furnishDemoAccounts(origin, t.cookie);
  });
  log(`furnished ${seeded.length} traders' ${ACCOUNTS === 1 ? 'accounts' : `${ACCOUNTS} accounts each`} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return { traders: seeded.map((t) => ({ id: t.id, cookie: t.cookie })), admin };
}

/** What a measurement needs from a server: its port and CPU time. */
interface Target {
  port: number;
  sample(): Promise<{ at: number; cpuUs: number }>;
}

const childTarget = (c: ServerChild): Target => ({
  port: c.port,
  sample: async () => {
    const s = await c.stats();
    return { at: s.at, cpuUs: s.cpuUserUs + s.cpuSystemUs };
  },
});
const productionTarget = (s: ProductionServer): Target => ({
  port: s.port,
  sample: async () => {
    const p = await s.probe();
    return { at: p.at, cpuUs: p.cpuUs };
  },
});

interface Measured {
  read: Read;
  rate: number;
  /** Mean bytes per answer, headers included. */
  bytes: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  serverCpu: number;
  loadgenCpu: number;
  machineBusy: number;
  /** The body of the first answer, in bytes. */
  bodyBytes: number;
}

/** The cookie and path of the i-th request of a read: the traders' sessions in turn (the admin's for the back office). */
function requestOf(read: Read, sessions: Sessions | null, i: number): { path: string; cookie: string | null } {
  const trader = sessions ? sessions.traders[i % sessions.traders.length] : undefined;
  const path = read.perTrader && trader ? read.perTrader(trader.id) : read.path;
  // The hello-world and health carry the traders' cookies too, so the load generator's work is the same for every row.
  const cookie = read.as === 'admin' ? (sessions?.admin ?? null) : (trader?.cookie ?? null);
  return { path, cookie };
}

/** Measures a read on every target at once (the connections split between them), each request the next session in turn. */
async function measure(targets: Target[], read: Read, sessions: Sessions | null, seconds: number): Promise<Measured> {
  const s0 = await Promise.all(targets.map((t) => t.sample()));
  const cpu0 = process.cpuUsage();
  const m0 = machineCpu();
  const t0 = performance.now();
  let next = 0;
  const results = await Promise.all(
    targets.map((target) =>
      autocannon({
        url: `http://127.0.0.1:${target.port}${read.path}`,
        connections: Math.max(1, Math.round(CONNECTIONS / targets.length)),
        duration: seconds,
        timeout: 10,
        requests: [
          {
            setupRequest: (req) => {
              const { path, cookie } = requestOf(read, sessions, next++);
              return { ...req, path, headers: cookie ? { ...req.headers, cookie } : req.headers };
            },
          },
        ],
      }),
    ),
  );
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const m1 = machineCpu();
  const s1 = await Promise.all(targets.map((t) => t.sample()));
  const sum = (f: (r: (typeof results)[number]) => number) => results.reduce((a, r) => a + f(r), 0);
  return {
    read,
    rate: sum((r) => r['2xx'] / r.duration),
    bytes: sum((r) => r.throughput.total) / Math.max(1, sum((r) => r.requests.total)),
    // With several instances: the slowest instance's percentiles.
    p50: Math.max(...results.map((r) => r.latency.p50)),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors + r.timeouts),
    // Every server's CPU together, in % of one core.
    serverCpu: s1.reduce((a, s, i) => a + (s.cpuUs - (s0[i]?.cpuUs ?? 0)) / 1000 / (s.at - (s0[i]?.at ?? 0)), 0),
    loadgenCpu: (cpu.user + cpu.system) / 1000 / (wall * 1000),
    machineBusy: busyBetween(m0, m1),
    bodyBytes: 0,
  };
}

async function run(read: Read, targets: Target[], sessions: Sessions | null): Promise<Measured> {
  const first = requestOf(read, sessions, 0);
  // The answer must be a success (from every instance) before it is worth measuring.
  let bodyBytes = 0;
  for (const target of targets) {
    const res = await fetch(`http://127.0.0.1:${target.port}${first.path}`, { headers: first.cookie ? { cookie: first.cookie } : {} });
    const text = await res.text();
    bodyBytes = Buffer.byteLength(text);
    const body = JSON.parse(text) as { status?: unknown; hello?: unknown };
    if (res.status !== 200 || (body.status !== 'success' && typeof body.hello !== 'string')) throw new Error(`${first.path} on port ${target.port} answered ${res.status}: ${text.slice(0, 200)}`);
  }
  if (WARMUP_S > 0) await measure(targets, read, sessions, WARMUP_S);
  const m = { ...(await measure(targets, read, sessions, DURATION_S)), bodyBytes };
  // Server CPU per answer is less at the mercy of other work on a shared machine than the rate is.
  log(`${read.name} ${read.path}: ${num(m.rate)} req/s, p99 ${ms(m.p99)} ms, non-2xx ${m.non2xx}, server CPU ${pct(m.serverCpu, 0)} (${Math.round((m.serverCpu * 1e6) / Math.max(1, m.rate))} µs per answer), load generator ${pct(m.loadgenCpu, 0)}`);
  return m;
}

/** A large read and the hello-world answering a body of the same size, measured right after it. */
interface SameBytes {
  read: Measured;
  hello: Measured;
}

function report(hello: Measured[], reads: Measured[], sameBytes: SameBytes[], background: number, setup: string, logLines: number | null): string {
  const baseline = hello.reduce((s, m) => s + m.rate, 0) / hello.length;
  const row = (m: Measured, share: string) =>
    `| ${m.read.name} | \`${m.read.path.replace(/^\/api/, '')}\` | ${m.read.as ?? '—'} | ${num(m.rate)} | ${share} | ${num(m.bytes)} | ${m.p50} | ${m.p99} | ${num(m.non2xx + m.errors)} | ${pct(m.serverCpu, 0)} | ${pct(m.loadgenCpu, 0)} | ${pct(m.machineBusy, 0)} |`;
  const lines = [
    '## Authenticated reads over HTTP',
    '',
    `Machine: ${machine()}; ${pct(background, 0)} busy before. ${setup} autocannon in the load generator process, ${CONNECTIONS} connections, ${DURATION_S} s per call after ${WARMUP_S} s of warm-up. Latency in ms (autocannon, whole ms).`,
    '',
    '| call | path | session | req/s | share of hello-world | bytes per answer | p50 | p99 | non-2xx + errors | server CPU (% of 1 core) | load generator CPU | machine busy |',
    '|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...hello.map((m, i) => row(m, i === 0 ? 'first' : 'last')),
    ...reads.flatMap((m) => {
      const same = sameBytes.find((b) => b.read === m);
      return same ? [row(m, pct(m.rate / baseline, 0)), row(same.hello, pct(same.hello.rate / baseline, 0))] : [row(m, pct(m.rate / baseline, 0))];
    }),
  ];
  const targetOf = (m: Measured) => (m.read.name === 'health' ? HEALTH_TARGET_SHARE : TARGET_SHARE);
  const below = reads.filter((m) => (m.rate / baseline < targetOf(m) && !m.read.wholeList) || m.non2xx + m.errors > 0);
  const whole = reads.filter((m) => m.read.wholeList);
  const authenticated = reads.filter((m) => m.read.as !== null);
  lines.push('', `Hello-world baseline: ${num(baseline)} req/s (mean of first and last). Targets: \`GET /api/health\` ≥ ${pct(HEALTH_TARGET_SHARE, 0)} of it, every authenticated read ≥ ${pct(TARGET_SHARE, 0)} (${num(baseline * TARGET_SHARE)} req/s), with no failed answer.`);
  const slowest = authenticated.filter((m) => !m.read.wholeList).reduce<Measured | null>((a, m) => (a === null || m.rate < a.rate ? m : a), null);
  lines.push(below.length === 0 ? `- met by all ${reads.length - whole.length} rows held to it; the slowest authenticated read, ${slowest?.read.name}, at ${pct((slowest?.rate ?? 0) / baseline, 0)}` : `- NOT met by: ${below.map((m) => `${m.read.name} (${pct(m.rate / baseline, 0)}${m.non2xx + m.errors > 0 ? `, ${m.non2xx + m.errors} failed` : ''})`).join(', ')}`);
  if (whole.length > 0) lines.push(`- not held to it: the spec's forms (whole lists, or a default page of 100), which the back office's screens do not ask for (they ask for ten rows, above them): ${whole.map((m) => `${m.read.name} ${pct(m.rate / baseline, 0)}, ${num(m.bodyBytes)} bytes`).join('; ')}`);
  for (const { read, hello: same } of sameBytes) {
    lines.push(`- ${read.read.name} answers ${num(read.bodyBytes)} bytes: the bare hello-world answering a body that size does ${num(same.rate)} req/s (${pct(same.rate / baseline, 0)} of the hello-world), so ${read.read.name} is at ${pct(read.rate / Math.max(1, same.rate), 0)} of what this machine sends at that size`);
  }
  if (logLines !== null) lines.push(`- the server logged ${logLines} line${logLines === 1 ? '' : 's'} (warn and above) while it was measured`);
  return lines.join('\n');
}

const REDIS_PORT = 47551;

/** A Redis of the benchmark's own for several instances (nothing written to disk), killed by PID at the end. */
async function startRedis(dir: string): Promise<ChildProcess> {
  const proc = spawn('redis-server', ['--port', String(REDIS_PORT), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    const client = new Redis(`redis://127.0.0.1:${REDIS_PORT}`, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on('error', () => undefined);
    try {
      await client.connect();
      if ((await client.ping()) === 'PONG') return proc;
    } catch {
      // not up yet
    } finally {
      client.disconnect();
    }
    await sleep(50);
  }
  proc.kill('SIGKILL');
  throw new Error(`redis-server did not answer on port ${REDIS_PORT}`);
}

const live: ProductionServer[] = [];
const disarmDeadline = armDeadline(RUN_DEADLINE_MS, log);
process.on('exit', () => {
  for (const s of live) s.kill();
  if (redis?.pid !== undefined && redis.exitCode === null) redis.kill('SIGKILL');
});

log(`${machine()}; ${cpus().length} cores, ${CONNECTIONS} connections, ${DURATION_S} s per call, mode ${MODE}${MODE === 'production' ? `, ${USERS} traders, ${DATABASE ? 'PostgreSQL' : 'SQLite'}` : ''}`);
const dir = mkdtempSync(join(tmpdir(), 'tradeport-reads-'));
let hello: ServerChild | null = null;
let app: ServerChild | null = null;
const production: ProductionServer[] = [];
let redis: ChildProcess | null = null;
let database: BenchDatabase | null = null;
try {
  let targets: Target[];
  let sessions: Sessions;
  let setup: string;
  if (MODE === 'production') {
    database = await freshDatabase(dir, DATABASE);
    let t0 = performance.now();
    const seeded = await seedTraders(database.url, USERS, TRADER_PASSWORD);
    log(`wrote ${USERS} traders and their sessions in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    t0 = performance.now();
    let env: Record<string, string> = {};
    if (INSTANCES > 1) {
      redis = await startRedis(dir);
      env = { EVENT_BUS: 'redis', REDIS_URL: `redis://127.0.0.1:${REDIS_PORT}`, CLUSTER_SECRET: randomBytes(32).toString('base64url') };
    }
    // The first instance starts alone, so it is the engine's leader; the others follow it.
    for (let i = 0; i < INSTANCES; i++) {
      const server = await ProductionServer.start({ databaseUrl: database.url, port: PORT + i, adminEmail: ADMIN_EMAIL, adminPassword: ADMIN_PASSWORD, dir, profileDir: PROFILE_DIR || undefined, logLevel: LOG_LEVEL || undefined, env: INSTANCES > 1 ? { ...env, INSTANCE_NAME: `bench-${i + 1}` } : {} });
      live.push(server);
      production.push(server);
      log(`instance ${i + 1} answered its health check ${((performance.now() - t0) / 1000).toFixed(1)} s after the first was started`);
    }
    sessions = await setUpTraders(`http://127.0.0.1:${PORT}`, seeded);
    await database.analyze();
    targets = production.map(productionTarget);
    setup = `${INSTANCES > 1 ? `${INSTANCES} instances of the production entry (EVENT_BUS=redis, the connections split between them; p50/p99 of the slower, server CPU of all)` : 'The production entry'} (\`src/main.ts\`, ${LOG_LEVEL ? `LOG_LEVEL=${LOG_LEVEL}` : 'its default log level, info: a line per request'}, simulated feed, every market open) on ${DATABASE ? 'PostgreSQL' : 'SQLite (a fresh file, the server’s durability settings)'}, ${num(USERS)} traders signed in, each with a deposit, 2 open positions, 1 closed and 1 pending order (every 20th with a pending withdrawal)${ACCOUNTS > 1 ? `, and ${ACCOUNTS - 1} demo account${ACCOUNTS > 2 ? 's' : ''} each with 1 open position, 1 closed and 1 pending order` : ''}; trader reads rotate through all their sessions (their first live accounts).`;
  } else {
    app = await ServerChild.start('orders-server.ts', [`sqlite:${join(dir, 'bench.db')}`, ADMIN_EMAIL, ADMIN_PASSWORD], PROFILE_DIR);
    app.send({ type: 'start' });
    await sleep(500);
    sessions = await setUpOneTrader(`http://127.0.0.1:${app.port}`);
    targets = [childTarget(app)];
    setup = '`buildApp` with the logger off on SQLite, the push feed with 200 ticks/s flowing, one trader (--mode=app).';
  }
  const background = await waitForQuietMachine('reads', { ms: 90_000 });
  const allWarnings = () => production.flatMap((p) => p.warnings());
  const logLines = () => allWarnings().length;
  const logLinesBefore = logLines();
  hello = await ServerChild.start('hello-server.ts', []);
  const helloRead: Read = { name: 'hello-world', path: '/', as: null };
  const helloRuns = [await run(helloRead, [childTarget(hello)], sessions)];
  const readRuns: Measured[] = [];
  const sameBytes: SameBytes[] = [];
  for (const read of readsToMeasure()) {
    const m = await run(read, targets, sessions);
    readRuns.push(m);
    if (SAME_BYTES > 0 && m.bodyBytes > SAME_BYTES) sameBytes.push({ read: m, hello: await run({ name: 'hello-world', path: `/bytes/${m.bodyBytes}`, as: null }, [childTarget(hello)], sessions) });
  }
  helloRuns.push(await run(helloRead, [childTarget(hello)], sessions));
  process.stdout.write(`${report(helloRuns, readRuns, sameBytes, background, setup, production.length > 0 ? logLines() - logLinesBefore : null)}\n`);
  // What the server logged while measured, so a warning is read rather than only counted.
  for (const line of allWarnings().slice(logLinesBefore, logLinesBefore + 5)) log(`server logged: ${line.slice(0, 300)}`);
} catch (err) {
  log(`benchmark failed: ${(err as Error).stack ?? String(err)}`);
  process.exitCode = 1;
} finally {
  await hello?.stop();
  await app?.stop();
  for (const p of production) await p.stop();
  if (redis?.pid !== undefined && redis.exitCode === null) redis.kill('SIGKILL');
  await database?.drop().catch((err: unknown) => log(`could not drop the benchmark database: ${String(err)}`));
  rmSync(dir, { recursive: true, force: true });
  disarmDeadline();
}
