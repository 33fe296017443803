import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import pg from 'pg';
import { findLedgerMismatches } from '../src/services/ledger';
import { openDatabase } from '../src/storage/db';
import { call, expectOk } from './http-client';
import { armDeadline, killServerChildren, ServerChild } from './server-child';
import { arg, busyBetween, log, machine, machineCpu, ms, num, pct, summarize, waitForQuietMachine, type Summary } from './bench-util';

/**
 * Market orders over HTTP (`npm run bench:orders`, or `node --import tsx bench/orders-http.ts` from
 * server/). The issue's targets, on SQLite: at least 1,000 orders/s at 50 connections, and p99 ≤ 10 ms
 * at a fixed 500 orders/s. PostgreSQL is measured the same way when it is reachable.
 *
 * For each database the real server runs in a child process (`orders-server.ts`: `buildApp` on a
 * fresh SQLite file in a temporary folder, or on a PostgreSQL database created for the run and
 * dropped after it), with 200 ticks/s flowing into its quote book. This process signs up one trader
 * per connection over HTTP, funds each through the admin flow (deposit request, approval), and then
 * drives autocannon: every connection alternates `addTrades` (open 0.01 lot EURUSD, Buy or Sell) and
 * `updateTrades` (close that ticket), each answered only after its transaction committed. An order
 * is one request, open or close.
 *
 * 1. Most orders/s: 50 connections, no rate limit, after a warm-up.
 * 2. p50/p99 at 500 orders/s, twice: (a) autocannon's `overallRate` over the 50 connections (its
 *    limiter lets each connection send its 10 requests of the second back to back as soon as the
 *    second starts, so the server gets a burst of 50 concurrent requests each second); (b) 50
 *    single-connection autocannon instances with `connectionRate` 10, started 20 ms apart, so the
 *    bursts are spread over the second (closer to a steady 500/s).
 * Latency is taken from every 2xx response (autocannon's own histogram rounds to whole ms).
 * Afterwards the database is checked: every answered open and close is in the `positions` table, and
 * every balance equals its ledger.
 *
 * Options: --engines=sqlite,postgres --connections=50 --duration=20 (s per measurement) --warmup=5
 * --rate=500 (orders/s of the fixed-rate runs) --profile=DIR (V8 CPU profile of each server child,
 * in DIR/<engine>/). BENCH_PG_URL overrides the PostgreSQL server
 * (default postgres://postgres@127.0.0.1:5432/postgres); PostgreSQL is skipped when unreachable.
 * Traffic goes to 127.0.0.1 only; the server child is killed by PID at the end.
 */

const ENGINES = arg('engines', 'sqlite,postgres').split(',');
const CONNECTIONS = Number(arg('connections', '50'));
const DURATION_S = Number(arg('duration', '20'));
const WARMUP_S = Number(arg('warmup', '5'));
const RATE = Number(arg('rate', '500'));
const PROFILE_DIR = arg('profile', '');
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ADMIN_EMAIL = 'bench.admin@example.com';
const ADMIN_PASSWORD = 'Bench-Admin-Pass-42';
const TRADER_PASSWORD = 'violet-harbour-42';
const RUN_DEADLINE_MS = 15 * 60_000;
const SYMBOL = 'EURUSD';

if (ENGINES.some((e) => e !== 'sqlite' && e !== 'postgres') || !Number.isInteger(CONNECTIONS) || CONNECTIONS < 1 || !(DURATION_S > 0) || !(WARMUP_S >= 0) || !Number.isInteger(RATE) || RATE < CONNECTIONS) {
  console.error('usage: orders-http.ts [--engines=sqlite,postgres] [--connections=50] [--duration=20] [--warmup=5] [--rate=500 (at least one per connection)]');
  process.exit(2);
}

// ------------------------------------------------------------------ setup over HTTP

/** Signs in the administrator, adds a payment account, and signs up, signs in and funds `n` traders. */
async function setUpTraders(origin: string, n: number): Promise<string[]> {
  const admin = expectOk('admin sign-in', await call(origin, '/login.php', { body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } })).cookie;
  if (!admin) throw new Error('the admin sign-in returned no session cookie');
  const gateway = expectOk('payment account', await call(origin, '/dashboard/admin/addNewPayments.php', { cookie: admin, form: { name: 'Bench bank', number: 'GB29NWBK60161331926819', moreInfo: 'Reference: your email', isActive: '1' } })).body.id as number;
  const tag = `${process.pid}.${Date.now().toString(36)}`;
  const cookies: string[] = new Array(n);
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const i = next++;
      const email = `bench.orders.${tag}.${i}@example.com`;
      expectOk('sign-up', await call(origin, '/registration.php', { body: { firstName: 'Bench', lastName: `Trader ${i}`, phoneNo: '4915112345678', email, password: TRADER_PASSWORD, country_id: 840 } }));
      const cookie = expectOk('sign-in', await call(origin, '/login.php', { body: { email, password: TRADER_PASSWORD } })).cookie;
      if (!cookie) throw new Error('a trader sign-in returned no session cookie');
      const deposit = expectOk('deposit request', await call(origin, '/platform/addDeposite.php', { cookie, body: { depositAmount: '10000', paymentAccount: '1234', payment_getways_id: gateway } }));
      expectOk('deposit approval', await call(origin, '/dashboard/admin/editStatusDeposite.php', { cookie: admin, body: { deposites_id: deposit.body.id, status: 1 } }));
      cookies[i] = cookie;
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return cookies;
}

// ------------------------------------------------------------------ the order cycle

/** Orders answered, by kind, over a whole engine's run (warm-up included), for the database check. */
interface Answered {
  opens: number;
  closes: number;
}

interface CycleContext {
  cookie?: string;
  ticket?: number;
}

/**
 * The two requests every connection repeats: open a position, then close that ticket. `traderFor`
 * picks the trader of a cycle and `release` hands it back once the cycle is over.
 */
function orderCycle(origin: string, answered: Answered, traderFor: () => string, release: (cookie: string) => void): autocannon.Request[] {
  let n = 0;
  const headers = (cookie: string) => ({ 'content-type': 'application/json', origin, cookie });
  return [
    {
      method: 'POST',
      path: '/api/platform/addTrades.php',
      setupRequest: (req, raw) => {
        const ctx = raw as CycleContext;
        ctx.cookie = traderFor();
        ctx.ticket = undefined;
        const side = n++ % 2 === 0 ? 'buy' : 'sell';
        return { ...req, headers: headers(ctx.cookie), body: JSON.stringify({ fullSymbol: SYMBOL, tradestypes: side, volume: 0.01, stopLoss: 0, takeProfit: 0, comment: '' }) };
      },
      onResponse: (status, body, raw) => {
        const ctx = raw as CycleContext;
        if (status === 200) {
          answered.opens += 1;
          ctx.ticket = (JSON.parse(body) as { ticket: number }).ticket;
        } else if (ctx.cookie) {
          release(ctx.cookie);
          ctx.cookie = undefined;
        }
      },
    },
    {
      method: 'POST',
      path: '/api/platform/updateTrades.php',
      setupRequest: (req, raw) => {
        const ctx = raw as CycleContext;
        // No ticket (the open was refused): autocannon starts the cycle again.
        if (ctx.ticket === undefined || !ctx.cookie) return null as unknown as autocannon.Request;
        return { ...req, headers: headers(ctx.cookie), body: JSON.stringify({ ticket: ctx.ticket }) };
      },
      onResponse: (status, _body, raw) => {
        const ctx = raw as CycleContext;
        if (status === 200) answered.closes += 1;
        if (ctx.cookie) release(ctx.cookie);
        ctx.cookie = undefined;
      },
    },
  ];
}

/** Traders for the connections of one autocannon instance: each cycle takes a free one. */
class TraderPool {
  private readonly free: string[];
  /** Cycles that found no free trader and shared one (the engine then runs them one after the other). */
  shared = 0;
  private i = 0;
  constructor(private readonly all: string[]) {
    this.free = [...all];
  }
  take = (): string => {
    const c = this.free.pop();
    if (c !== undefined) return c;
    this.shared += 1;
    return this.all[this.i++ % this.all.length] as string;
  };
  give = (cookie: string): void => {
    if (!this.free.includes(cookie)) this.free.push(cookie);
  };
}

interface RunResult {
  label: string;
  connections: number;
  offered: string;
  ok: number;
  /** 2xx responses per second: the sum of each instance's count over its own duration. */
  rate: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  seconds: number;
  latency: Summary;
  acP99: number;
  serverCpu: number;
  serverElu: number;
  loadgenCpu: number;
  restOfMachine: number;
  shared: number;
}

/** Runs autocannon instances (started `staggerMs` apart) and gathers their figures. */
async function measure(label: string, offered: string, server: ServerChild, instances: { opts: autocannon.Options; pool?: TraderPool }[], staggerMs: number): Promise<RunResult> {
  const latencies: number[] = [];
  const s0 = await server.stats();
  const cpu0 = process.cpuUsage();
  const m0 = machineCpu();
  const t0 = performance.now();
  const results = await Promise.all(
    instances.map(async ({ opts }, k) => {
      if (staggerMs > 0) await sleep(k * staggerMs);
      return new Promise<autocannon.Result>((resolveResult, reject) => {
        const instance = autocannon(opts, (err: unknown, result) => (err ? reject(err as Error) : resolveResult(result)));
        (instance as NodeJS.EventEmitter).on('response', (_client: unknown, status: number, _bytes: number, responseTime: number) => {
          if (status >= 200 && status < 300) latencies.push(responseTime);
        });
      });
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const m1 = machineCpu();
  const s1 = await server.stats();
  const serverCpu = (s1.cpuUserUs + s1.cpuSystemUs - s0.cpuUserUs - s0.cpuSystemUs) / 1000 / (s1.at - s0.at);
  const loadgenCpu = (cpu.user + cpu.system) / 1000 / (seconds * 1000);
  const sum = (f: (r: autocannon.Result) => number) => results.reduce((n, r) => n + f(r), 0);
  const r: RunResult = {
    label,
    connections: sum((x) => x.connections),
    offered,
    ok: sum((x) => x['2xx']),
    rate: sum((x) => x['2xx'] / x.duration),
    non2xx: sum((x) => x.non2xx),
    errors: sum((x) => x.errors),
    timeouts: sum((x) => x.timeouts),
    seconds,
    latency: summarize(latencies),
    acP99: Math.max(...results.map((x) => x.latency.p99)),
    serverCpu,
    serverElu: (s1.eluActive - s0.eluActive) / (s1.eluActive - s0.eluActive + s1.eluIdle - s0.eluIdle),
    loadgenCpu,
    restOfMachine: Math.max(0, busyBetween(m0, m1) * cpus().length - serverCpu - loadgenCpu),
    shared: instances.reduce((n, i) => n + (i.pool?.shared ?? 0), 0),
  };
  log(`${label}: ${num(r.rate)} orders/s, p50 ${ms(r.latency.p50)} ms, p99 ${ms(r.latency.p99)} ms, non-2xx ${r.non2xx}, errors ${r.errors}; server CPU ${pct(serverCpu, 0)}, load generator ${pct(loadgenCpu, 0)}`);
  return r;
}

// ------------------------------------------------------------------ one database

interface EngineResult {
  engine: 'sqlite' | 'postgres';
  background: number;
  runs: RunResult[];
  answered: Answered;
  rows: { open: number; closed: number };
  ledgerMismatches: number;
  setupS: number;
}

async function freshPostgres(): Promise<{ url: string; drop(): Promise<void> } | null> {
  const name = `tp_bench_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (err) {
    log(`PostgreSQL at ${PG_URL.replace(/\/\/[^@]*@/, '//***@')} is not reachable (${(err as Error).message}); skipping it`);
    return null;
  }
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

async function runEngine(engine: 'sqlite' | 'postgres', budget: { ms: number }): Promise<EngineResult | null> {
  let databaseUrl: string;
  let cleanup: () => Promise<void>;
  if (engine === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'tradeport-orders-'));
    databaseUrl = `sqlite:${join(dir, 'bench.db')}`;
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
  } else {
    const db = await freshPostgres();
    if (!db) return null;
    databaseUrl = db.url;
    cleanup = () => db.drop();
  }
  let server: ServerChild | null = null;
  try {
    const background = await waitForQuietMachine(engine, budget);
    log(`${engine}: starting the server`);
    server = await ServerChild.start('orders-server.ts', [databaseUrl, ADMIN_EMAIL, ADMIN_PASSWORD], PROFILE_DIR ? resolve(PROFILE_DIR, engine) : '');
    server.send({ type: 'start' });
    await sleep(500);
    const origin = `http://127.0.0.1:${server.port}`;
    const t0 = performance.now();
    const traders = await setUpTraders(origin, CONNECTIONS);
    const setupS = (performance.now() - t0) / 1000;
    log(`${engine}: ${CONNECTIONS} traders signed up and funded in ${setupS.toFixed(1)} s`);

    const answered: Answered = { opens: 0, closes: 0 };
    const base = { url: origin, method: 'POST' as const, timeout: 10 };
    const pooled = (extra: Partial<autocannon.Options>) => {
      const pool = new TraderPool(traders);
      return { pool, opts: { ...base, connections: CONNECTIONS, duration: DURATION_S, requests: orderCycle(origin, answered, pool.take, pool.give), ...extra } as autocannon.Options };
    };
    if (WARMUP_S > 0) {
      log(`${engine}: warm-up, ${WARMUP_S} s at ${CONNECTIONS} connections`);
      await measure('warm-up', 'unlimited', server, [pooled({ duration: WARMUP_S })], 0);
    }
    const runs: RunResult[] = [];
    runs.push(await measure('most orders/s', 'unlimited', server, [pooled({})], 0));
    await sleep(1000);
    runs.push(await measure(`${num(RATE)}/s, autocannon overallRate`, `${num(RATE)}/s`, server, [pooled({ overallRate: RATE, ignoreCoordinatedOmission: true })], 0));
    await sleep(1000);
    const perConnection = RATE / CONNECTIONS;
    const spread = traders.map((cookie) => ({ opts: { ...base, connections: 1, connectionRate: perConnection, duration: DURATION_S, ignoreCoordinatedOmission: true, requests: orderCycle(origin, answered, () => cookie, () => undefined) } as autocannon.Options }));
    runs.push(await measure(`${num(RATE)}/s, connections staggered`, `${num(RATE)}/s`, server, spread, 1000 / CONNECTIONS));

    await server.stop();
    server = null;
    // Every answered order is in the database, and every balance equals its ledger.
    const handle = openDatabase(databaseUrl);
    try {
      const rows = await handle.db.selectFrom('positions').select(['status', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('status').execute();
      const count = (status: string) => Number(rows.find((r) => r.status === status)?.n ?? 0);
      const mismatches = await findLedgerMismatches(handle.db);
      return { engine, background, runs, answered, rows: { open: count('open'), closed: count('closed') }, ledgerMismatches: mismatches.length, setupS };
    } finally {
      await handle.close();
    }
  } finally {
    await server?.stop();
    await cleanup();
  }
}

// ------------------------------------------------------------------ report

function report(results: EngineResult[]): string {
  const lines = [
    '## Market orders over HTTP',
    '',
    `Machine: ${machine()}. Each order is one request (open 0.01 lot ${SYMBOL}, or close that ticket), answered after its commit; ${CONNECTIONS} traders, ${DURATION_S} s per measurement; 200 ticks/s into the book meanwhile. Latency: every 2xx response, in ms.`,
    '',
    '| database | run | connections | offered | orders/s | p50 ms | p99 ms | max ms | non-2xx | errors | server CPU (% of 1 core) | server event loop busy | load generator CPU | rest of machine |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const e of results) {
    for (const r of e.runs) {
      lines.push(`| ${e.engine} | ${r.label} | ${r.connections} | ${r.offered} | ${num(r.rate)} | ${ms(r.latency.p50)} | ${ms(r.latency.p99)} | ${ms(r.latency.max)} | ${num(r.non2xx)} | ${num(r.errors)} | ${pct(r.serverCpu, 0)} | ${pct(r.serverElu, 0)} | ${pct(r.loadgenCpu, 0)} | ${pct(r.restOfMachine, 0)} |`);
    }
  }
  lines.push('');
  for (const e of results) {
    const opened = e.rows.open + e.rows.closed;
    lines.push(
      `- ${e.engine}: machine ${pct(e.background, 0)} busy before; setup ${e.setupS.toFixed(1)} s. Answered ${num(e.answered.opens)} opens and ${num(e.answered.closes)} closes; the database holds ${num(opened)} positions, ${num(e.rows.closed)} closed (${opened >= e.answered.opens && e.rows.closed >= e.answered.closes ? 'every answered order is there' : 'MISSING answered orders'}); ledger mismatches: ${e.ledgerMismatches}.${e.runs.some((r) => r.shared > 0) ? ` Cycles that shared a trader: ${num(e.runs.reduce((n, r) => n + r.shared, 0))}.` : ''}`,
    );
  }
  const sqlite = results.find((e) => e.engine === 'sqlite');
  if (sqlite) {
    const max = sqlite.runs[0] as RunResult;
    const fixed = sqlite.runs.slice(1);
    lines.push('', 'Targets on SQLite (issue: ≥ 1,000 orders/s at 50 connections; p99 ≤ 10 ms at 500 orders/s):');
    lines.push(`- most orders/s: ${num(max.rate)} — ${max.rate >= 1000 ? 'met' : 'NOT met'}`);
    for (const r of fixed) lines.push(`- p99 at ${r.label}: ${ms(r.latency.p99)} ms — ${r.latency.p99 <= 10 ? 'met' : 'NOT met'}`);
  }
  return lines.join('\n');
}

// ------------------------------------------------------------------ main

const disarmDeadline = armDeadline(RUN_DEADLINE_MS, log);

log(`${machine()}; ${CONNECTIONS} connections, ${DURATION_S} s per measurement, fixed rate ${RATE}/s`);
const budget = { ms: 90_000 };
const results: EngineResult[] = [];
try {
  for (const engine of ENGINES as ('sqlite' | 'postgres')[]) {
    const r = await runEngine(engine, budget);
    if (r) results.push(r);
  }
} catch (err) {
  log(`benchmark failed: ${(err as Error).stack ?? String(err)}`);
  killServerChildren();
  process.exit(1);
}
process.stdout.write(`${report(results)}\n`);
disarmDeadline();
