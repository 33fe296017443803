import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket from 'ws';
import { loadConfig } from '../src/config';
import { BENCH_ADMIN, BENCH_SYMBOLS, TICKS_PER_SECOND, type ChildMessage } from './bench-child';
import { arg, busyBetween, log, machine, machineCpu, num, pct, QUIET_BUSY, waitForQuietMachine } from './bench-util';
import { armDeadline, killServerChildren, ServerChild } from './server-child';

/**
 * Stream fan-out benchmark (`npm run bench`, or `node --import tsx bench/stream-fanout.ts` from
 * server/). For each client count it runs three servers, each in its own child process, with the
 * same load: every client follows the same 20 symbols, each ticking 10 times a second (200 ticks/s,
 * generated inside the server process):
 *
 * - `hub`: the real app's `/api/stream` (StreamHub: one message per client per frame),
 * - `hub-3-types`: the same, its clients spread over three account types, two with a spread markup
 *   of their own on every symbol: every frame is priced and encoded three ways,
 * - `bare-naive`: a bare `ws` server broadcasting one message per quote per client,
 * - `bare-batched`: a bare `ws` server with the hub's strategy (one message per client per frame).
 *
 * This process is the load generator: it opens the clients (bounded concurrency), warms up, then
 * over a fixed window counts the quotes received whose tick time falls in the window, their
 * tick-to-client latency, and samples the server child's CPU and memory. Output: a markdown table on
 * stdout (progress on stderr). Missing a target is a finding, not a failure: the exit code is
 * non-zero only when the benchmark itself could not run.
 *
 * Options: --clients=1000,5000 --variants=hub,bare-naive,bare-batched --window=15 --warmup=3
 * --concurrency=200 --profile=DIR (writes V8 CPU profiles of each server child into DIR/<variant>-<clients>/).
 * Traffic goes to 127.0.0.1 only; every child is killed by PID at the end.
 */

type Variant = 'hub' | 'hub-3-types' | 'bare-naive' | 'bare-batched';
const VARIANTS: Variant[] = ['bare-naive', 'bare-batched', 'hub', 'hub-3-types'];
const isHub = (v: Variant) => v === 'hub' || v === 'hub-3-types';

const CLIENT_COUNTS = arg('clients', '1000,5000').split(',').map(Number);
const SELECTED = arg('variants', VARIANTS.join(',')).split(',') as Variant[];
const WINDOW_MS = Number(arg('window', '15')) * 1000;
const WARMUP_MS = Number(arg('warmup', '3')) * 1000;
const CONCURRENCY = Number(arg('concurrency', '200'));
const PROFILE_DIR = arg('profile', '');
/** Quotes of the window that arrive this long after it ends still count. */
const GRACE_MS = 2000;
const FRAME_MS = loadConfig({ LOG_LEVEL: 'silent', STREAM_FRAME_MS: process.env.STREAM_FRAME_MS }).market.streamFrameMs;
/** A safety net: a normal run takes about 2.5 minutes, plus at most QUIET_WAIT_MS of waiting. */
const RUN_DEADLINE_MS = 8 * 60_000;
/** The longest the whole run waits, in total, for the machine to become quiet. */
const QUIET_WAIT_MS = 90_000;
const quietWait = { ms: QUIET_WAIT_MS };
const MAX_LATENCY_MS = 60_000;
const SYMBOLS = BENCH_SYMBOLS.map((s) => s.symbol);

if (CLIENT_COUNTS.some((n) => !Number.isInteger(n) || n < 1) || SELECTED.some((v) => !VARIANTS.includes(v)) || !(WINDOW_MS > 0) || !(WARMUP_MS >= 0) || !(CONCURRENCY >= 1)) {
  console.error(`usage: stream-fanout.ts [--clients=1000,5000] [--variants=${VARIANTS.join(',')}] [--window=15] [--warmup=3] [--concurrency=200] [--profile=DIR]`);
  process.exit(2);
}


// ------------------------------------------------------------------ server child processes

/** The server of one scenario: the real app (`hub`) or one of the bare baselines. */
function startServer(variant: Variant, clients: number): Promise<ServerChild> {
  const [script, args] = isHub(variant) ? ['stream-server.ts', [String(FRAME_MS)]] : ['bare-server.ts', [variant === 'bare-naive' ? 'naive' : 'batched', String(FRAME_MS)]];
  // One folder per scenario: Node writes one profile per thread (tsx's loader runs in its own).
  return ServerChild.start(script as string, args as string[], PROFILE_DIR ? resolve(PROFILE_DIR, `${variant}-${clients}`) : '');
}

// ------------------------------------------------------------------ load generator

const QUOTES_PREFIX = Buffer.from('{"type":"quotes"');
const HELLO_PREFIX = Buffer.from('{"type":"hello"');
const SNAPSHOT_PREFIX = Buffer.from('{"type":"snapshot"');
const ERROR_PREFIX = Buffer.from('{"type":"error"');
const TIME_KEY = Buffer.from('"time":');
const startsWith = (buf: Buffer, prefix: Buffer) => buf.length >= prefix.length && buf.compare(prefix, 0, prefix.length, 0, prefix.length) === 0;

/**
 * Counts what the clients receive. A `quotes` message is scanned for its `"time":` fields rather than
 * parsed, so the load generator stays cheap next to the server it measures; every 1,000th message is
 * also JSON-parsed and the counts compared (`mismatches` must stay 0).
 */
class Receiver {
  from = Number.POSITIVE_INFINITY;
  to = Number.NEGATIVE_INFINITY;
  received = 0;
  messages = 0;
  private quoteMessages = 0;
  checked = 0;
  mismatches = 0;
  unexpectedCloses = 0;
  /** Set before the load generator closes its clients, so those closes are not counted. */
  tearingDown = false;
  readonly latency = new Uint32Array(MAX_LATENCY_MS + 1);

  readonly onMessage = (data: WebSocket.RawData): void => {
    const buf = data as Buffer;
    if (!startsWith(buf, QUOTES_PREFIX)) return;
    const now = Date.now();
    if (now >= this.from && now < this.to) this.messages += 1;
    let count = 0;
    let i = buf.indexOf(TIME_KEY);
    while (i !== -1) {
      let j = i + TIME_KEY.length;
      let c = buf[j];
      if (c !== undefined && c >= 48 && c <= 57) {
        let t = 0;
        while (c !== undefined && c >= 48 && c <= 57) {
          t = t * 10 + (c - 48);
          c = buf[++j];
        }
        count += 1;
        if (t >= this.from && t < this.to) {
          this.received += 1;
          const ms = now - t;
          this.latency[ms < 0 ? 0 : ms > MAX_LATENCY_MS ? MAX_LATENCY_MS : ms]! += 1;
        }
      }
      i = buf.indexOf(TIME_KEY, j);
    }
    if (++this.quoteMessages % 1000 === 0) {
      this.checked += 1;
      const parsed = JSON.parse(buf.toString()) as { quotes: { time: number | null }[] };
      if (parsed.quotes.filter((q) => q.time !== null).length !== count) this.mismatches += 1;
    }
  };

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

/**
 * For `hub-3-types`: two account types with a spread markup of their own on every benchmark symbol
 * (10 and 30 points), made through the back office's calls, and three traders — one on the default
 * type, one on each — so the hub prices every frame three ways. Returns the three Cookie headers.
 */
async function threePricings(origin: string): Promise<string[]> {
  const admin = await signInAs(origin, BENCH_ADMIN.email, BENCH_ADMIN.password);
  const call = async (cookie: string, method: 'GET' | 'POST', path: string, body?: unknown) => {
    const res = await fetch(`${origin}/api${path}`, { method, headers: { 'content-type': 'application/json', origin, cookie }, body: body === undefined ? undefined : JSON.stringify(body) });
    const answer = (await res.json()) as { data?: unknown; message?: string };
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(answer)}`);
    return answer;
  };
  const cookies = [await signIn(origin), await signIn(origin), await signIn(origin)];
  for (const [i, points] of [[1, 10], [2, 30]] as const) {
    const type = (await call(admin, 'POST', '/dashboard/admin/saveAccountType.php', { name: `Bench ${points}`, kind: 'live', leverage: null, marginCallLevel: null, stopOutLevel: null, tradingMode: 'full', isDefault: false, state: 'active', symbolMarkups: SYMBOLS.map((symbol) => ({ symbol, points })) })).data as { id: number };
    const [account] = (await call(cookies[i]!, 'GET', '/platform/getAccounts.php')).data as { id: number }[];
    await call(admin, 'POST', '/dashboard/admin/setAccountType.php', { accountId: account!.id, typeId: type.id });
  }
  return cookies;
}

/** Opens one client: waits for the server's hello, subscribes to the 20 symbols, waits for the snapshot. */
function openClient(url: string, headers: Record<string, string>, receiver: Receiver): Promise<WebSocket> {
  return new Promise((resolveClient, reject) => {
    const ws = new WebSocket(url, { headers, perMessageDeflate: false });
    let subscribed = false;
    const fail = (err: Error) => {
      clearTimeout(timer);
      ws.terminate();
      reject(err);
    };
    const timer = setTimeout(() => fail(new Error('client did not get its snapshot within 30 s')), 30_000);
    const setup = (data: WebSocket.RawData) => {
      const buf = data as Buffer;
      if (startsWith(buf, HELLO_PREFIX)) ws.send(JSON.stringify({ type: 'subscribe', symbols: SYMBOLS }));
      else if (startsWith(buf, ERROR_PREFIX)) fail(new Error(`server refused the subscription: ${buf.toString()}`));
      else if (startsWith(buf, SNAPSHOT_PREFIX)) {
        clearTimeout(timer);
        subscribed = true;
        ws.off('message', setup);
        ws.on('message', receiver.onMessage);
        resolveClient(ws);
      }
    };
    ws.on('message', setup);
    ws.on('error', (err) => (subscribed ? undefined : fail(err)));
    ws.on('close', () => {
      if (subscribed && !receiver.tearingDown) receiver.unexpectedCloses += 1;
      else if (!subscribed) fail(new Error('connection closed before the snapshot'));
    });
  });
}

async function openClients(n: number, url: string, headersOf: (i: number) => Record<string, string>, receiver: Receiver): Promise<WebSocket[]> {
  const sockets: WebSocket[] = [];
  let started = 0;
  let failure: Error | null = null;
  const worker = async () => {
    while (started < n && failure === null) {
      const i = started;
      started += 1;
      try {
        sockets.push(await openClient(url, headersOf(i), receiver));
      } catch (err) {
        failure ??= err as Error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, n) }, worker));
  if (failure !== null) {
    sockets.forEach((s) => s.terminate());
    const e = failure as Error & { code?: string };
    if (e.code === 'EMFILE' || /EMFILE|ECONNRESET|socket hang up/.test(e.message)) {
      log(`Opening ${n} clients failed (${e.message}). Each process needs about ${n + 200} file descriptors: raise the open-file limit (e.g. \`ulimit -n 20000\`) and run again.`);
    }
    throw e;
  }
  return sockets;
}

const post = (origin: string, path: string, body: unknown) => fetch(`${origin}/api${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin }, body: JSON.stringify(body) });
let traders = 0;

/** Signs up one trader and signs in, returning the Cookie header every client of the hub sends. */
async function signIn(origin: string): Promise<string> {
  const password = 'violet-harbour-42';
  const email = `bench.${process.pid}.${Date.now().toString(36)}.${++traders}@example.com`;
  const reg = (await (await post(origin, '/registration.php', { firstName: 'Bench', lastName: 'Trader', phoneNo: '4915112345678', email, password, country_id: 840 })).json()) as { status: string };
  if (reg.status !== 'Success') throw new Error(`sign-up failed: ${JSON.stringify(reg)}`);
  return signInAs(origin, email, password);
}

async function signInAs(origin: string, email: string, password: string): Promise<string> {
  const res = await post(origin, '/login.php', { email, password });
  const login = (await res.json()) as { status: string };
  if (login.status !== 'Success') throw new Error(`sign-in failed: ${JSON.stringify(login)}`);
  const cookie = res.headers.getSetCookie().map((line) => line.split(';')[0]!).find((pair) => pair.startsWith('tp_session='));
  if (!cookie) throw new Error('sign-in returned no session cookie');
  return cookie;
}


// ------------------------------------------------------------------ one scenario

interface Result {
  variant: Variant;
  clients: number;
  connectS: number;
  offered: number;
  generatedShare: number;
  received: number;
  delivered: number;
  quotesPerS: number;
  messagesPerS: number;
  p50: number;
  p99: number;
  max: number;
  cpuCore: number;
  elu: number;
  rssIdleMb: number;
  rssPeakMb: number;
  loadgenCpuCore: number;
  machineBusy: number;
  backgroundBusy: number;
  loopDelayP99: number;
  loopDelayMax: number;
  tickLagP99: number;
  mismatches: number;
  checked: number;
  unexpectedCloses: number;
  droppedAtSource: number;
}

const mb = (bytes: number) => bytes / 1024 / 1024;



async function runScenario(variant: Variant, n: number): Promise<Result> {
  const background = await waitForQuietMachine(`${variant} × ${n}`, quietWait);
  log(`${variant} × ${n} clients: starting the server`);
  const child = await startServer(variant, n);
  const sockets: WebSocket[] = [];
  try {
    const origin = `http://127.0.0.1:${child.port}`;
    // The clients of `hub-3-types` take turns among three traders, each on another account type.
    const cookies = variant === 'hub' ? [await signIn(origin)] : variant === 'hub-3-types' ? await threePricings(origin) : [];
    const headersOf = (i: number): Record<string, string> => (cookies.length > 0 ? { Origin: origin, Cookie: cookies[i % cookies.length]! } : { Origin: origin });
    const url = isHub(variant) ? `ws://127.0.0.1:${child.port}/api/stream` : `ws://127.0.0.1:${child.port}/`;
    const idle = await child.stats();

    const receiver = new Receiver();
    const connectStarted = Date.now();
    sockets.push(...(await openClients(n, url, headersOf, receiver)));
    const connectS = (Date.now() - connectStarted) / 1000;
    log(`${variant} × ${n}: ${n} clients subscribed in ${connectS.toFixed(1)} s; ticking, warm-up ${WARMUP_MS / 1000} s`);

    child.send({ type: 'start' });
    await sleep(WARMUP_MS);
    const from = Date.now();
    const to = from + WINDOW_MS;
    receiver.from = from;
    receiver.to = to;
    child.send({ type: 'mark' });
    const machine0 = machineCpu();
    const first = await child.stats();
    const parentCpu0 = process.cpuUsage();
    const parentAt0 = performance.now();
    let peakRss = first.rss;
    let last = first;
    while (Date.now() < to) {
      await sleep(Math.max(0, Math.min(1000, to - Date.now())));
      last = await child.stats();
      peakRss = Math.max(peakRss, last.rss);
    }
    const parentCpu = process.cpuUsage(parentCpu0);
    const machine1 = machineCpu();
    const parentWallMs = performance.now() - parentAt0;
    await sleep(GRACE_MS);
    const ticks = await child.request<Extract<ChildMessage, { type: 'ticks' }>>({ type: 'ticks', from, to });
    const unexpectedCloses = receiver.unexpectedCloses;
    receiver.tearingDown = true;

    const nominalTicks = (TICKS_PER_SECOND * WINDOW_MS) / 1000;
    const offered = nominalTicks * n;
    const cpuMs = (last.cpuUserUs + last.cpuSystemUs - first.cpuUserUs - first.cpuSystemUs) / 1000;
    const eluActive = last.eluActive - first.eluActive;
    const eluIdle = last.eluIdle - first.eluIdle;
    const result: Result = {
      variant,
      clients: n,
      connectS,
      offered,
      generatedShare: ticks.emitted / nominalTicks,
      received: receiver.received,
      delivered: receiver.received / offered,
      quotesPerS: receiver.received / (WINDOW_MS / 1000),
      messagesPerS: receiver.messages / (WINDOW_MS / 1000),
      p50: receiver.percentile(50),
      p99: receiver.percentile(99),
      max: receiver.max(),
      cpuCore: cpuMs / (last.at - first.at),
      elu: eluActive / (eluActive + eluIdle),
      rssIdleMb: mb(idle.rss),
      rssPeakMb: mb(peakRss),
      loadgenCpuCore: (parentCpu.user + parentCpu.system) / 1000 / parentWallMs,
      machineBusy: busyBetween(machine0, machine1),
      backgroundBusy: background,
      loopDelayP99: last.loopDelayP99,
      loopDelayMax: last.loopDelayMax,
      tickLagP99: ticks.lagP99,
      mismatches: receiver.mismatches,
      checked: receiver.checked,
      unexpectedCloses,
      droppedAtSource: ticks.dropped,
    };
    log(
      `${variant} × ${n}: delivered ${(result.delivered * 100).toFixed(2)}%, ${Math.round(result.quotesPerS)} quotes/s, p50 ${result.p50} ms, p99 ${result.p99} ms, ` +
        `server CPU ${(result.cpuCore * 100).toFixed(0)}% of a core, RSS ${result.rssPeakMb.toFixed(0)} MB, load generator ${(result.loadgenCpuCore * 100).toFixed(0)}%`,
    );
    return result;
  } finally {
    sockets.forEach((s) => s.terminate());
    await child.stop(3000);
  }
}

// ------------------------------------------------------------------ report



function table(results: Result[]): string {
  const cores = cpus().length;
  const head = '| clients | server | delivered | quotes/s | messages/s | p50 ms | p99 ms | max ms | server CPU (% of 1 core) | server CPU (% of machine) | server RSS idle → peak (MB) |';
  const rule = '|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|';
  const rows = results.map(
    (r) =>
      `| ${num(r.clients)} | ${r.variant} | ${pct(r.delivered, 2)} | ${num(r.quotesPerS)} | ${num(r.messagesPerS)} | ${num(r.p50)} | ${num(r.p99)} | ${num(r.max)} | ${pct(r.cpuCore, 0)} | ${pct(r.cpuCore / cores, 0)} | ${r.rssIdleMb.toFixed(0)} → ${r.rssPeakMb.toFixed(0)} |`,
  );
  return [head, rule, ...rows].join('\n');
}

function diagnostics(results: Result[]): string {
  const cores = cpus().length;
  const head = '| clients | server | connect s | ticks generated | tick lag p99 ms | server event loop busy | loop delay p99 / max ms | load generator CPU (% of 1 core) | whole machine CPU busy | rest of machine (% of 1 core) | background before |';
  const rule = '|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|';
  const rows = results.map(
    (r) =>
      `| ${num(r.clients)} | ${r.variant} | ${r.connectS.toFixed(1)} | ${pct(r.generatedShare)} | ${num(r.tickLagP99)} | ${pct(r.elu, 0)} | ${num(r.loopDelayP99)} / ${num(r.loopDelayMax)} | ${pct(r.loadgenCpuCore, 0)} | ${pct(r.machineBusy, 0)} | ${pct(Math.max(0, r.machineBusy * cores - r.cpuCore - r.loadgenCpuCore), 0)} | ${pct(r.backgroundBusy, 0)} |`,
  );
  return [head, rule, ...rows].join('\n');
}

function targets(results: Result[]): string[] {
  const n = Math.max(...results.map((r) => r.clients));
  const hub = results.find((r) => r.variant === 'hub' && r.clients === n);
  const bare = results.find((r) => r.variant === 'bare-batched' && r.clients === n);
  if (!hub) return [`Targets: not evaluated (no hub run at ${n} clients).`];
  const lines = [`Targets at ${num(n)} clients${n === 5000 ? '' : ' (the issue states them for 5,000)'}:`];
  const mark = (ok: boolean) => (ok ? 'met' : 'NOT met');
  lines.push(`- delivered ≥ 99%: ${pct(hub.delivered, 2)} — ${mark(hub.delivered >= 0.99)}`);
  if (bare) {
    const p99Ratio = hub.p99 / bare.p99;
    const cpuRatio = hub.cpuCore / bare.cpuCore;
    lines.push(`- p99 latency ≤ 1.5 × bare-batched: ${num(hub.p99)} ms vs ${num(bare.p99)} ms = ${p99Ratio.toFixed(2)}× — ${mark(p99Ratio <= 1.5)}`);
    lines.push(`- server CPU ≤ 1.5 × bare-batched: ${pct(hub.cpuCore, 0)} vs ${pct(bare.cpuCore, 0)} of a core = ${cpuRatio.toFixed(2)}× — ${mark(cpuRatio <= 1.5)}`);
  } else lines.push('- p99 and CPU ratios: not evaluated (no bare-batched run).');
  const typed = results.find((r) => r.variant === 'hub-3-types' && r.clients === n);
  if (typed) {
    lines.push(
      `- three account types priced apart (hub-3-types) against one (hub): delivered ${pct(typed.delivered, 2)} vs ${pct(hub.delivered, 2)}, p99 ${num(typed.p99)} vs ${num(hub.p99)} ms, server CPU ${pct(typed.cpuCore, 0)} vs ${pct(hub.cpuCore, 0)} of a core (${(typed.cpuCore / hub.cpuCore).toFixed(2)}×)`,
    );
  }
  return lines;
}

function notes(results: Result[]): string[] {
  const lines: string[] = [];
  for (const r of results) {
    if (r.mismatches > 0) lines.push(`- ${r.variant} × ${r.clients}: ${r.mismatches} of ${r.checked} sampled messages counted differently by the scanner and JSON.parse — the counts are suspect.`);
    if (r.unexpectedCloses > 0) lines.push(`- ${r.variant} × ${r.clients}: ${r.unexpectedCloses} clients were disconnected by the server during the run.`);
    if (r.backgroundBusy > QUIET_BUSY) lines.push(`- ${r.variant} × ${r.clients}: the machine was already ${pct(r.backgroundBusy, 0)} busy with other work when this scenario started; its figures are skewed.`);
    if (r.generatedShare < 0.99) lines.push(`- ${r.variant} × ${r.clients}: the server generated only ${pct(r.generatedShare)} of the scheduled ticks (${num(r.droppedAtSource)} dropped as more than 1 s overdue): its event loop was saturated.`);
  }
  return lines;
}

// ------------------------------------------------------------------ main

const disarmDeadline = armDeadline(RUN_DEADLINE_MS, log);

const fdLimit = Number(execFileSync('sh', ['-c', 'ulimit -n']).toString().trim());
const needed = Math.max(...CLIENT_COUNTS) + 500;
if (Number.isFinite(fdLimit) && fdLimit < needed) {
  log(`The open-file limit is ${fdLimit}; ${Math.max(...CLIENT_COUNTS)} clients need about ${needed}. Raise it first, e.g. \`ulimit -n 20000\`.`);
  process.exit(1);
}

log(`${machine()}; frame ${FRAME_MS} ms; ${SYMBOLS.length} symbols × ${TICKS_PER_SECOND / SYMBOLS.length} ticks/s; window ${WINDOW_MS / 1000} s after ${WARMUP_MS / 1000} s warm-up`);
const results: Result[] = [];
try {
  for (const n of CLIENT_COUNTS) {
    for (const variant of VARIANTS.filter((v) => SELECTED.includes(v))) results.push(await runScenario(variant, n));
  }
} catch (err) {
  log(`benchmark failed: ${(err as Error).stack ?? String(err)}`);
  killServerChildren();
  process.exit(1);
}

const out = [
  '## Stream fan-out',
  '',
  `Machine: ${machine()}. Load: every client follows the same ${SYMBOLS.length} symbols, each ticking ${TICKS_PER_SECOND / SYMBOLS.length} times a second (${TICKS_PER_SECOND} ticks/s); frame ${FRAME_MS} ms; measured over ${WINDOW_MS / 1000} s after ${WARMUP_MS / 1000} s of warm-up. Delivered = quotes received with a tick time in the window ÷ (scheduled ticks in the window × clients).`,
  '',
  table(results),
  '',
  'Diagnostics (ticks generated: share of the scheduled ticks the server emitted; tick lag: how late it emitted them; whole machine: all cores; rest of machine: CPU used by neither process — kernel work not charged to them and any other programs; background before: machine busy just before the scenario started):',
  '',
  diagnostics(results),
  '',
  ...targets(results),
  ...(notes(results).length > 0 ? ['', 'Notes:', ...notes(results)] : []),
  '',
];
process.stdout.write(`${out.join('\n')}\n`);
disarmDeadline();
