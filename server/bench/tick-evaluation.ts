import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BusEvent } from '@tradeport/contracts';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app';
import { loadConfig, type AppConfig } from '../src/config';
import { DEFAULT_CATALOGUE_FILE, type CatalogueEntry } from '../src/market/catalogue';
import type { IncomingTick } from '../src/market/types';
import { rolloversBetween } from '../src/domain/rollover-schedule';
import type { PendingOrderType } from '../src/storage/schema-trading';
import { arg, busyBetween, log, machine, machineCpu, mb, ms, num, pct, summarize, waitForQuietMachine, type Summary } from './bench-util';
import { nameSortKey } from '../src/domain/sort-key';
import { ACCOUNT_NUMBER_MIN } from '../src/domain/account-number';
import { defaultAccountType } from '../src/services/account-types';

/**
 * Tick evaluation benchmark (`npm run bench:ticks`, or `node --expose-gc --import tsx
 * bench/tick-evaluation.ts` from server/). The issue's target: with 100,000 open positions and 20,000
 * pending orders over 50 symbols, p99 ≤ 1 ms per tick, with and without triggers.
 *
 * No HTTP: the state is written straight into the database and loaded the way a restart loads it.
 *  1. The real app (`buildApp`) on a fresh SQLite file in a temporary folder (the server's durability
 *     settings: WAL, synchronous = FULL), push feed, every market open, logger off, and a temporary
 *     catalogue of 50 instruments (the default 35 plus 15 copies of them, `EURUSD.M` …).
 *  2. Baseline: the same kind of ticks with no position at all (the book, candles and stream hub).
 *  3. Traders, their deposits, 100,000 open positions and 20,000 pending orders are inserted in bulk,
 *     spread over traders, symbols, sides and order types, with SL/TP and order prices 1–10% away from
 *     the price, so that ticks moving within ±0.5% fire nothing.
 *  4. The app is closed and built again on the same file: the engine loads everything (timed, and the
 *     memory it takes is measured after a forced GC).
 *  5. No-trigger ticks: a random walk within ±0.5% on all 50 symbols, paced at `--rate` ticks/s, each
 *     `book.ingest` call timed with process.hrtime.bigint().
 *  6. One `marginSweep()` over every account (all symbols dirty), timed, with how long it holds the
 *     event loop.
 *  7. Trigger ticks: every symbol walks away from its price (even-numbered up, odd-numbered down) in
 *     small steps beyond 1%, crossing SL/TP levels and order prices; the synchronous `ingest` cost is
 *     timed per tick, and the closes / fills it starts are timed until they commit (their account
 *     events), and as a whole until the engine is idle.
 *  8. The next daily swap rollover over every open position (`applyRollovers`, on its own timer in the
 *     server), timed with its event-loop stall. (The latest past rollover is recorded as applied in
 *     step 3, as on a server that has been running, so the closes of step 7 do not find one due.)
 * Results are a markdown report on stdout (progress on stderr). Missing a target is a finding, not a
 * failure: the exit code is non-zero only when the benchmark itself could not run.
 * Traffic: none (everything is in this process). The temporary folder is removed at the end.
 *
 * Options: --positions=100000 --orders=20000 --symbols=50 --traders=5000 --trailing=0 (of the positions, with a trailing stop)
 * --alerts=0 (price alerts waiting) --ticks=20000 --warmup=2000
 * --rate=1000 (ticks/s offered) --steps=100 (trigger steps per symbol) --sweeps=3 --seed=1
 * --sweep-ms=250 (the margin sweep timer, as the server's; a large value takes the timer out, to tell
 * its effect apart) --profile=DIR (V8 CPU profiles of the no-trigger ticks, one sweep and the trigger
 * phase, written into DIR as .cpuprofile files).
 */

const POSITIONS = Number(arg('positions', '100000'));
const ORDERS = Number(arg('orders', '20000'));
const SYMBOLS = Number(arg('symbols', '50'));
const TRADERS = Number(arg('traders', '5000'));
const TICKS = Number(arg('ticks', '20000'));
const WARMUP = Number(arg('warmup', '2000'));
const RATE = Number(arg('rate', '1000'));
const STEPS = Number(arg('steps', '100'));
const SWEEPS = Number(arg('sweeps', '3'));
const SEED = Number(arg('seed', '1'));
const SWEEP_MS = Number(arg('sweep-ms', '250'));
const PROFILE_DIR = arg('profile', '');
/** How many of the positions carry a trailing stop (docs/design.md#trailing-stops). */
const TRAILING = Number(arg('trailing', '0'));
/** How many price alerts wait in the book (docs/design.md#price-alerts), 1–10% from the price like the other levels. */
const ALERTS = Number(arg('alerts', '0'));
/** Levels and order prices lie this far from the price (fractions). */
const LEVEL_MIN = 0.01;
const LEVEL_MAX = 0.1;
/** No-trigger ticks stay within this fraction of the starting price. */
const WALK_BAND = 0.005;
/** Trigger ticks start this far out (no level is nearer than LEVEL_MIN), then step outwards. */
const TRIGGER_START = 0.009;
const TRIGGER_STEP = 0.0001;
/** Shares of positions without a stop loss / without a take profit. */
const NO_SL = 0.2;
const NO_TP = 0.2;
const BALANCE_CENTS = 100_000_000;
const RUN_DEADLINE_MS = 15 * 60_000;

for (const [name, v] of Object.entries({ positions: POSITIONS, orders: ORDERS, symbols: SYMBOLS, traders: TRADERS, ticks: TICKS, rate: RATE, steps: STEPS, sweeps: SWEEPS, 'sweep-ms': SWEEP_MS })) {
  if (!Number.isInteger(v) || v < 1) {
    console.error(`tick-evaluation: --${name} must be a positive whole number`);
    process.exit(2);
  }
}
if (!Number.isInteger(ALERTS) || ALERTS < 0) {
  console.error('tick-evaluation: --alerts must be a whole number');
  process.exit(2);
}
if (!Number.isInteger(TRAILING) || TRAILING < 0 || TRAILING > POSITIONS) {
  console.error('tick-evaluation: --trailing must be a whole number no larger than --positions');
  process.exit(2);
}
if (!Number.isInteger(WARMUP) || WARMUP < 0) {
  console.error('tick-evaluation: --warmup must be a whole number');
  process.exit(2);
}

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) log('run with node --expose-gc for memory figures after a full GC (npm run bench:ticks does); measuring without');

/** Small deterministic PRNG (mulberry32), so runs place the same levels. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = prng(SEED);
const between = (lo: number, hi: number) => lo + (hi - lo) * random();

// ------------------------------------------------------------------ catalogue and configuration

interface BenchInstrument {
  symbol: string;
  digits: number;
  point: number;
  price: number;
  spread: number;
}

/** The default catalogue, plus copies (`<symbol>.M`) of every other instrument until there are `count`. */
function writeCatalogue(path: string, count: number): BenchInstrument[] {
  const file = JSON.parse(readFileSync(DEFAULT_CATALOGUE_FILE, 'utf8')) as { $comment?: string; schedules: Record<string, string[]>; instruments: CatalogueEntry[] };
  const base = file.instruments;
  const list = base.slice(0, count);
  for (let i = 0; list.length < count; i += 2) {
    const from = base[i % base.length] as CatalogueEntry;
    const round = Math.floor(i / base.length);
    list.push({ ...from, symbol: `${from.symbol}.${round === 0 ? 'M' : `M${round}`}`, description: `${from.description} (benchmark copy)`, feeds: {} });
  }
  writeFileSync(path, JSON.stringify({ $comment: 'Generated by bench/tick-evaluation.ts', schedules: file.schedules, instruments: list }, null, 1));
  return list.map((i) => {
    const point = 10 ** -i.digits;
    return { symbol: i.symbol, digits: i.digits, point, price: i.sim.price, spread: Math.max(1, i.sim.spread) * point };
  });
}

const round = (price: number, digits: number) => Math.round(price * 10 ** digits) / 10 ** digits;

function config(dbFile: string, catalogueFile: string): AppConfig {
  const base = loadConfig({ LOG_LEVEL: 'silent' });
  return {
    ...base,
    databaseUrl: `sqlite:${dbFile}`,
    scryptCost: 1024,
    market: { ...base.market, feeds: ['push'], feedToken: 'bench-feed-token-0123456789', sessions: 'always', simHistory: false, simSeed: 'bench', catalogueFile },
    trading: { ...base.trading, marginCheckMs: SWEEP_MS },
  };
}

// ------------------------------------------------------------------ generated state

interface Level {
  price: number;
  /** 'bid' levels are reached by the bid, 'ask' levels by the ask. */
  on: 'bid' | 'ask';
  /** 'up' levels are reached by a rising price, 'down' by a falling one. */
  dir: 'up' | 'down';
}

/** Every level (SL, TP, order price or stop) per symbol, to know how many triggers a tick should fire. */
const levels: Level[][] = [];

function addLevel(s: number, l: Level): void {
  (levels[s] ??= []).push(l);
}

async function insertState(app: FastifyInstance, instruments: BenchInstrument[]): Promise<{ sides: Map<number, 'buy' | 'sell'> }> {
  const db = app.services.db;
  const now = Date.now();
  const chunk = async <T>(rows: T[], size: number, insert: (part: T[]) => Promise<unknown>) => {
    for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
  };
  await db.transaction().execute(async (trx) => {
    const users = Array.from({ length: TRADERS }, (_, i) => ({
      email: `bench.trader.${i}@example.com`,
      password_hash: 'not-a-hash',
      first_name: 'Bench',
      last_name: `Trader ${i}`,
      sort_name: nameSortKey('Bench', `Trader ${i}`),
      phone_no: '4915112345678',
      country_id: null,
      date_of_birth: '',
      nationality: '',
      role: 'trader' as const,
      is_active: 1,
      is_reserved: 0,
      created_at: now,
      updated_at: now,
      last_seen_at: null,
    }));
    await chunk(users, 500, (part) => trx.insertInto('users').values(part).execute());
    const userIds = (await trx.selectFrom('users').select('id').where('email', 'like', 'bench.trader.%').orderBy('id').execute()).map((r) => r.id);
    // One live account each, of the default live type, numbered in order (the server draws numbers at random; any unique ones do here).
    const type = await defaultAccountType(trx, 'live');
    await chunk(userIds, 500, (part) =>
      trx
        .insertInto('trading_accounts')
        .values(part.map((id) => ({ number: ACCOUNT_NUMBER_MIN + id, user_id: id, kind: 'live' as const, currency: 'USD', leverage: 100, balance_cents: BALANCE_CENTS, credit_cents: 0, state: 'active' as const, initial_balance_cents: null, account_type_id: type.id, created_at: now, updated_at: now })))
        .execute(),
    );
    const holders = await trx.selectFrom('trading_accounts').select(['id', 'user_id']).where('user_id', 'in', userIds).orderBy('id').execute();
    const ids = holders.map((a) => a.user_id);
    const accountOf = new Map(holders.map((a) => [a.user_id, a.id]));
    await chunk(ids, 500, (part) =>
      trx
        .insertInto('ledger_entries')
        .values(part.map((id) => ({ user_id: id, account_id: accountOf.get(id) as number, kind: 'deposit' as const, amount_cents: BALANCE_CENTS, balance_after_cents: BALANCE_CENTS, ref_type: 'bench-seed', ref_id: String(id), memo: 'Benchmark deposit', created_at: now })))
        .execute(),
    );

    const positions = Array.from({ length: POSITIONS }, (_, k) => {
      const s = k % instruments.length;
      const i = instruments[s] as BenchInstrument;
      const side = random() < 0.5 ? ('buy' as const) : ('sell' as const);
      const open = round(i.price * (1 + between(-0.002, 0.002)), i.digits);
      const sl = random() < NO_SL ? 0 : round(i.price * (1 + (side === 'buy' ? -1 : 1) * between(LEVEL_MIN, LEVEL_MAX)), i.digits);
      const tp = random() < NO_TP ? 0 : round(i.price * (1 + (side === 'buy' ? 1 : -1) * between(LEVEL_MIN, LEVEL_MAX)), i.digits);
      // Buy: SL on the bid going down, TP on the bid going up. Sell: SL on the ask going up, TP on the ask going down.
      if (sl !== 0) addLevel(s, side === 'buy' ? { price: sl, on: 'bid', dir: 'down' } : { price: sl, on: 'ask', dir: 'up' });
      if (tp !== 0) addLevel(s, side === 'buy' ? { price: tp, on: 'bid', dir: 'up' } : { price: tp, on: 'ask', dir: 'down' });
      const holder = ids[Math.floor(random() * ids.length)] as number;
      // A trailing stop at the distance of its stop loss from the open (or 1–10% without one), half
      // of them active at once and half after 0.1–0.5% of profit, moving in steps of 0.05%: in the
      // walk within ±0.5% many of them move, again and again.
      const points = (fraction: number) => Math.max(1, Math.round((i.price * fraction) / i.point));
      const trailing = k < TRAILING ? { trail_distance: sl !== 0 ? Math.max(1, Math.round(Math.abs(open - sl) / i.point)) : points(between(LEVEL_MIN, LEVEL_MAX)), trail_activation: random() < 0.5 ? 0 : points(between(0.001, 0.005)), trail_step: points(0.0005) } : {};
      return {
        ...trailing,
        user_id: holder,
        account_id: accountOf.get(holder) as number,
        account_kind: 'live' as const,
        symbol: i.symbol,
        side,
        volume: Math.round(between(1, 100)) / 100,
        open_price: open,
        stop_loss: sl,
        take_profit: tp,
        comment: '',
        opened_at: now,
        open_tick_bid: null,
        open_tick_ask: null,
        open_tick_time: null,
        status: 'open' as const,
        close_price: null,
        closed_at: null,
        close_reason: null,
        close_tick_bid: null,
        close_tick_ask: null,
        close_tick_time: null,
        profit_cents: null,
        closed_by: null,
      };
    });
    await chunk(positions, 1000, (part) => trx.insertInto('positions').values(part).execute());

    const types: PendingOrderType[] = ['buy_limit', 'sell_limit', 'buy_stop', 'sell_stop', 'buy_stop_limit', 'sell_stop_limit'];
    const orders = Array.from({ length: ORDERS }, (_, k) => {
      const s = (k * 7) % instruments.length;
      const i = instruments[s] as BenchInstrument;
      const type = types[k % types.length] as PendingOrderType;
      const d = between(LEVEL_MIN, LEVEL_MAX);
      // Buy Limit below (ask ≤), Sell Limit above (bid ≥), Buy Stop above (ask ≥), Sell Stop below (bid ≤);
      // a stop limit's stop as its stop, its limit 0.2% on the far side of the stop.
      const above = type === 'sell_limit' || type === 'buy_stop' || type === 'buy_stop_limit';
      const price = round(i.price * (1 + (above ? d : -d)), i.digits);
      const stopLimit = type === 'buy_stop_limit' ? round(price * 0.998, i.digits) : type === 'sell_stop_limit' ? round(price * 1.002, i.digits) : 0;
      addLevel(s, { price, on: type.startsWith('buy') ? 'ask' : 'bid', dir: above ? 'up' : 'down' });
      const holder = ids[Math.floor(random() * ids.length)] as number;
      return {
        user_id: holder,
        account_id: accountOf.get(holder) as number,
        symbol: i.symbol,
        type,
        volume: Math.round(between(1, 100)) / 100,
        price,
        stop_limit_price: stopLimit,
        stop_triggered: 0,
        stop_loss: 0,
        take_profit: 0,
        comment: '',
        expires_at: null,
        status: 'pending' as const,
        reason: '',
        position_id: null,
        created_at: now,
        updated_at: now,
      };
    });
    await chunk(orders, 1000, (part) => trx.insertInto('orders').values(part).execute());

    const alerts = Array.from({ length: ALERTS }, (_, k) => {
      const s = (k * 3) % instruments.length;
      const i = instruments[s] as BenchInstrument;
      const above = random() < 0.5;
      const price = random() < 0.5 ? ('bid' as const) : ('ask' as const);
      const level = round(i.price * (1 + (above ? 1 : -1) * between(LEVEL_MIN, LEVEL_MAX)), i.digits);
      addLevel(s, { price: level, on: price, dir: above ? 'up' : 'down' });
      return { user_id: ids[Math.floor(random() * ids.length)] as number, symbol: i.symbol, price_side: price, direction: above ? ('above' as const) : ('below' as const), level, note: '', expires_at: null, by_mail: 0, status: 'active' as const, created_at: now, updated_at: now, ended_at: null, fired_price: null };
    });
    await chunk(alerts, 1000, (part) => trx.insertInto('price_alerts').values(part).execute());
    // As on a server that has been running: the latest daily rollover is recorded as applied, so the
    // closes measured here do not each find a rollover due (that is measured on its own at the end).
    const last = rolloversBetween(now - 7 * 24 * 3600_000, now).at(-1);
    if (last) await trx.insertInto('swap_rollovers').values({ at: last.at, positions: 0, applied_at: now }).execute();
  });
  const sides = new Map<number, 'buy' | 'sell'>();
  for (const r of await db.selectFrom('positions').select(['id', 'side']).execute()) sides.set(r.id, r.side);
  return { sides };
}

// ------------------------------------------------------------------ ticks

interface Walk {
  mid: number[];
}

function tickAt(i: BenchInstrument, mid: number): IncomingTick {
  const bid = round(mid - i.spread / 2, i.digits);
  return { symbol: i.symbol, bid, ask: round(bid + i.spread, i.digits) };
}

/** The next no-trigger tick: symbol k mod n takes a small random step, reflected to stay within the band. */
function walkTick(instruments: BenchInstrument[], walk: Walk, k: number): IncomingTick {
  const s = k % instruments.length;
  const i = instruments[s] as BenchInstrument;
  let mid = (walk.mid[s] as number) * (1 + (random() - 0.5) * 4e-4);
  const lo = i.price * (1 - WALK_BAND);
  const hi = i.price * (1 + WALK_BAND);
  if (mid < lo) mid = lo + (lo - mid);
  if (mid > hi) mid = hi - (mid - hi);
  walk.mid[s] = mid;
  return tickAt(i, mid);
}

/**
 * Calls `emit(k)` for k = 0 … count−1 at `rate` per second (catching up in bursts after a stall), and
 * returns how late each call was against that schedule (ms): the time a tick from a feed would have
 * waited for the event loop before the book saw it.
 */
async function paced(count: number, rate: number, emit: (k: number) => void): Promise<Float64Array> {
  const lag = new Float64Array(count);
  const start = performance.now();
  let k = 0;
  while (k < count) {
    const now = performance.now();
    const due = Math.min(count, Math.floor(((now - start) * rate) / 1000) + 1);
    while (k < due) {
      lag[k] = Math.max(0, now - (start + (k * 1000) / rate));
      emit(k++);
    }
    if (k < count) await sleep(1);
  }
  return lag;
}

interface Usage {
  cpu: NodeJS.CpuUsage;
  machine: ReturnType<typeof machineCpu>;
  at: number;
}
const usageNow = (): Usage => ({ cpu: process.cpuUsage(), machine: machineCpu(), at: performance.now() });
/** This process's CPU (share of one core) and the rest of the machine's (share of one core) since `from`. */
function usageSince(from: Usage): { own: number; rest: number } {
  const to = usageNow();
  const wall = to.at - from.at;
  const own = (to.cpu.user - from.cpu.user + to.cpu.system - from.cpu.system) / 1000 / wall;
  return { own, rest: Math.max(0, busyBetween(from.machine, to.machine) * cpus().length - own) };
}

/** Ingests one tick and returns its synchronous cost in ms (hrtime), or throws if refused. */
function timedIngest(app: FastifyInstance, tick: IncomingTick): number {
  const t0 = process.hrtime.bigint();
  const r = app.market.book.ingest(tick, 'bench');
  const dt = Number(process.hrtime.bigint() - t0) / 1e6;
  if (!r.ok) throw new Error(`tick refused: ${r.reason}`);
  return dt;
}

interface Phase {
  cost: Summary;
  lag: Summary;
  loopDelayP99: number;
  loopDelayMax: number;
  seconds: number;
  own: number;
  rest: number;
}

async function noTriggerTicks(app: FastifyInstance, instruments: BenchInstrument[], walk: Walk): Promise<Phase> {
  if (WARMUP > 0) await paced(WARMUP, RATE * 4, (k) => void timedIngest(app, walkTick(instruments, walk, k)));
  const costs = new Float64Array(TICKS);
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  await sleep(20);
  const usage = usageNow();
  const lag = await paced(TICKS, RATE, (k) => void (costs[k] = timedIngest(app, walkTick(instruments, walk, k))));
  const seconds = (performance.now() - usage.at) / 1000;
  loop.disable();
  return { cost: summarize(costs), lag: summarize(lag), loopDelayP99: loop.percentile(99) / 1e6, loopDelayMax: loop.max / 1e6, seconds, ...usageSince(usage) };
}

/**
 * The trigger ticks: every symbol steps away from its price (even-numbered up, odd-numbered down),
 * each step of at least one point, so every tick's prices are new for its symbol. Records each tick's
 * cost, when each price was first seen (to match commits to ticks), and how many levels the tick
 * reached for the first time (the triggers it should fire, from the levels placed).
 */
function triggerPlan(instruments: BenchInstrument[]) {
  const dirs = instruments.map((_, s) => (s % 2 === 0 ? 1 : -1));
  const steps = instruments.map((i) => Math.max(i.price * TRIGGER_STEP, i.point));
  const tickTimes = instruments.map(() => ({ bid: new Map<number, number>(), ask: new Map<number, number>() }));
  const ahead = instruments.map((_, s) => {
    const dir = dirs[s] === 1 ? 'up' : 'down';
    const mine = (levels[s] ?? []).filter((l) => l.dir === dir);
    const order = (a: Level, b: Level) => (dir === 'up' ? a.price - b.price : b.price - a.price);
    return { bid: mine.filter((l) => l.on === 'bid').sort(order).map((l) => l.price), ask: mine.filter((l) => l.on === 'ask').sort(order).map((l) => l.price), nextBid: 0, nextAsk: 0 };
  });
  const triggerCosts: number[] = [];
  const expectedPerTick: number[] = [];
  const feed = (app: FastifyInstance, k: number): void => {
    const s = k % instruments.length;
    const step = Math.floor(k / instruments.length) + 1;
    const i = instruments[s] as BenchInstrument;
    const dir = dirs[s] as number;
    const at = performance.now();
    triggerCosts.push(timedIngest(app, tickAt(i, i.price * (1 + dir * TRIGGER_START) + dir * step * (steps[s] as number))));
    const q = app.market.book.get(i.symbol);
    if (!q) throw new Error(`no quote for ${i.symbol}`);
    const times = tickTimes[s] as { bid: Map<number, number>; ask: Map<number, number> };
    if (!times.bid.has(q.bid)) times.bid.set(q.bid, at);
    if (!times.ask.has(q.ask)) times.ask.set(q.ask, at);
    const a = ahead[s] as (typeof ahead)[number];
    const reached = (price: number, level: number) => (dir === 1 ? price >= level : price <= level);
    let fired = 0;
    for (; a.nextBid < a.bid.length && reached(q.bid, a.bid[a.nextBid] as number); a.nextBid++) fired++;
    for (; a.nextAsk < a.ask.length && reached(q.ask, a.ask[a.nextAsk] as number); a.nextAsk++) fired++;
    expectedPerTick.push(fired);
  };
  return { dirs, tickTimes, triggerCosts, expectedPerTick, feed };
}

/** Runs `work` under the V8 CPU profiler when --profile is given, writing DIR/<name>.cpuprofile. */
async function profiled<T>(name: string, work: () => Promise<T>): Promise<T> {
  if (!PROFILE_DIR) return work();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  try {
    return await work();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    mkdirSync(resolve(PROFILE_DIR), { recursive: true });
    writeFileSync(resolve(PROFILE_DIR, `${name}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  }
}

const heap = () => {
  gc?.();
  gc?.();
  const m = process.memoryUsage();
  return { heap: m.heapUsed, rss: m.rss };
};

// ------------------------------------------------------------------ main

const deadline = setTimeout(() => {
  log(`the benchmark ran longer than ${RUN_DEADLINE_MS / 60_000} minutes; stopping`);
  process.exit(1);
}, RUN_DEADLINE_MS);
deadline.unref();

const dir = mkdtempSync(join(tmpdir(), 'tradeport-ticks-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
process.on('SIGINT', () => process.exit(130));

try {
  const catalogueFile = join(dir, 'instruments.json');
  const dbFile = join(dir, 'bench.db');
  const instruments = writeCatalogue(catalogueFile, SYMBOLS);
  const cfg = config(dbFile, catalogueFile);
  const background = await waitForQuietMachine('tick evaluation', { ms: 90_000 });
  log(`${machine()}; ${num(POSITIONS)} positions (${num(TRAILING)} trailing), ${num(ORDERS)} pending orders, ${num(ALERTS)} alerts, ${num(TRADERS)} traders, ${instruments.length} symbols; machine ${pct(background, 0)} busy before`);

  // --- empty app: baseline
  const mem0 = heap();
  let app = await buildApp({ config: cfg, logger: false });
  const walk: Walk = { mid: instruments.map((i) => i.price) };
  instruments.forEach((i) => timedIngest(app, tickAt(i, i.price)));
  const memEmpty = heap();
  log(`baseline: ${num(TICKS)} ticks with no position at ${num(RATE)} ticks/s`);
  const baseline = await noTriggerTicks(app, instruments, walk);

  // --- bulk state, then a restart that loads it
  log('inserting traders, positions and pending orders');
  let t = performance.now();
  const { sides } = await insertState(app, instruments);
  const insertS = (performance.now() - t) / 1000;
  await app.close();
  heap();
  t = performance.now();
  app = await buildApp({ config: cfg, logger: false });
  const loadS = (performance.now() - t) / 1000;
  const memLoaded = heap();
  const loadedOpen = app.trading.allOpen().length;
  const loadedOrders = await app.services.db.selectFrom('orders').select((eb) => eb.fn.countAll<number>().as('n')).where('status', '=', 'pending').executeTakeFirstOrThrow();
  log(`inserted in ${insertS.toFixed(1)} s; restart loaded ${num(loadedOpen)} positions and ${num(Number(loadedOrders.n))} pending orders in ${loadS.toFixed(2)} s`);
  if (loadedOpen !== POSITIONS) throw new Error(`the engine loaded ${loadedOpen} positions, expected ${POSITIONS}`);

  // Account events after each commit: closes, fills (and, if any, margin calls) with their arrival time.
  const events: { at: number; e: BusEvent }[] = [];
  const unsubscribe = app.services.bus.subscribe((e) => void events.push({ at: performance.now(), e }));

  // --- no-trigger ticks at scale
  instruments.forEach((i, s) => timedIngest(app, tickAt(i, walk.mid[s] as number)));
  log(`no-trigger ticks: ${num(TICKS)} at ${num(RATE)} ticks/s after ${num(WARMUP)} warm-up ticks`);
  const quiet = await profiled('no-trigger-ticks', () => noTriggerTicks(app, instruments, walk));
  const eventsDuringQuiet = events.filter((x) => x.e.type === 'position.closed' || x.e.type === 'order.updated').length;
  const movesDuringQuiet = events.filter((x) => x.e.type === 'position.modified').length;

  // --- margin sweep over every account
  const sweeps: { ms: number; blockedMs: number }[] = [];
  for (let r = 0; r < SWEEPS; r++) {
    await sleep(300); // let the timer's own sweep of the last ticks finish first
    const loop = monitorEventLoopDelay({ resolution: 1 });
    loop.enable();
    // The histogram measures from its first sample on: give it one before the sweep starts.
    await sleep(20);
    instruments.forEach((i, s) => timedIngest(app, walkTick(instruments, walk, s)));
    const t0 = performance.now();
    await app.trading.marginSweep();
    const took = performance.now() - t0;
    await sleep(5);
    loop.disable();
    sweeps.push({ ms: took, blockedMs: loop.max / 1e6 });
  }
  log(`margin sweep over ${num(TRADERS)} accounts: ${sweeps.map((s) => `${ms(s.ms)} ms`).join(', ')}`);
  if (PROFILE_DIR) {
    await sleep(300);
    instruments.forEach((i, s) => timedIngest(app, walkTick(instruments, walk, s)));
    await profiled('margin-sweep', () => app.trading.marginSweep());
  }

  // --- trigger ticks
  const trig = triggerPlan(instruments);
  // Approach: one tick per symbol to TRIGGER_START, short of every level.
  instruments.forEach((i, s) => timedIngest(app, tickAt(i, i.price * (1 + (trig.dirs[s] as number) * TRIGGER_START))));
  const eventsBefore = events.length;
  const triggerCount = STEPS * instruments.length;
  log(`trigger ticks: ${num(triggerCount)} (${STEPS} steps outwards on each symbol) at ${num(RATE)} ticks/s`);
  const triggerLoop = monitorEventLoopDelay({ resolution: 1 });
  triggerLoop.enable();
  await sleep(20);
  const triggerStarted = performance.now();
  const triggerUsage = usageNow();
  const { lag: triggerLag, lastTick, idle } = await profiled('trigger-phase', async () => {
    const lag = await paced(triggerCount, RATE, (k) => trig.feed(app, k));
    const lastTick = performance.now();
    log(`trigger ticks fed in ${((lastTick - triggerStarted) / 1000).toFixed(1)} s; waiting for the closes and fills to commit`);
    // Stopping the engine waits for every close and fill under way.
    await app.trading.stop();
    return { lag, lastTick, idle: performance.now() };
  });
  const triggerUse = usageSince(triggerUsage);
  triggerLoop.disable();
  const feedS = (lastTick - triggerStarted) / 1000;
  const { tickTimes, triggerCosts, expectedPerTick } = trig;
  unsubscribe();
  const movesDuringTriggers = events.slice(eventsBefore).filter((x) => x.e.type === 'position.modified').length;
  const alertsFired = events.slice(eventsBefore).filter((x) => x.e.type === 'alert.fired').length;

  // Attribute each commit to the tick that fired it: a close fills at that tick's bid (Buy) or ask
  // (Sell), a fill at its ask (Buy) or bid (Sell), and every trigger tick's prices are new for its symbol.
  const bySymbol = new Map(instruments.map((i, s) => [i.symbol, s]));
  const closeLatency: number[] = [];
  const fillLatency: number[] = [];
  let unattributed = 0;
  let lastCommit = triggerStarted;
  for (const { at, e } of events.slice(eventsBefore)) {
    if (e.type === 'position.closed' || e.type === 'position.opened') {
      const s = bySymbol.get(e.symbol);
      const side = e.type === 'position.closed' ? sides.get(e.ticket) : e.side;
      const onBid = e.type === 'position.closed' ? side === 'buy' : side === 'sell';
      const from = s === undefined || side === undefined ? undefined : (tickTimes[s] as { bid: Map<number, number>; ask: Map<number, number> })[onBid ? 'bid' : 'ask'].get(e.price);
      if (from === undefined) unattributed += 1;
      else (e.type === 'position.closed' ? closeLatency : fillLatency).push(at - from);
      lastCommit = Math.max(lastCommit, at);
    }
  }
  // --- the next daily rollover over every open position (on its own timer, once a day)
  const nextRollover = rolloversBetween(Date.now(), Date.now() + 7 * 24 * 3600_000)[0];
  let rollover: { ms: number; blockedMs: number; charged: number } | null = null;
  if (nextRollover) {
    const loop = monitorEventLoopDelay({ resolution: 1 });
    loop.enable();
    await sleep(20);
    const t0 = performance.now();
    await app.trading.applyRollovers(nextRollover.at);
    const took = performance.now() - t0;
    await sleep(5);
    loop.disable();
    const row = await app.services.db.selectFrom('swap_rollovers').select('positions').where('at', '=', nextRollover.at).executeTakeFirst();
    rollover = { ms: took, blockedMs: loop.max / 1e6, charged: row?.positions ?? 0 };
    log(`daily rollover over the open positions: ${ms(took)} ms`);
  }

  const db = app.services.db;
  const closedRows = await db.selectFrom('positions').select(['close_reason', (eb) => eb.fn.countAll<number>().as('n')]).where('status', '=', 'closed').groupBy('close_reason').execute();
  const orderRows = await db.selectFrom('orders').select(['status', 'stop_triggered', (eb) => eb.fn.countAll<number>().as('n')]).groupBy(['status', 'stop_triggered']).execute();
  const stillOpen = await db.selectFrom('positions').select((eb) => eb.fn.countAll<number>().as('n')).where('status', '=', 'open').executeTakeFirstOrThrow();
  const alertRows = await db.selectFrom('price_alerts').select((eb) => eb.fn.countAll<number>().as('n')).where('status', '=', 'fired').executeTakeFirstOrThrow();
  await app.close();

  const expectedTotal = expectedPerTick.reduce((a, b) => a + b, 0);
  const withTriggers = triggerCosts.filter((_, k) => (expectedPerTick[k] as number) > 0);
  const withoutTriggers = triggerCosts.filter((_, k) => expectedPerTick[k] === 0);
  const firedPerTick = summarize(expectedPerTick.filter((n) => n > 0));
  const closes = closedRows.reduce((n, r) => n + Number(r.n), 0);
  const filled = orderRows.filter((r) => r.status === 'filled').reduce((n, r) => n + Number(r.n), 0);
  const rejected = orderRows.filter((r) => r.status === 'rejected').reduce((n, r) => n + Number(r.n), 0);
  const stopsReached = orderRows.filter((r) => r.status === 'pending' && r.stop_triggered === 1).reduce((n, r) => n + Number(r.n), 0);
  const triggered = closes + filled + rejected + stopsReached + Number(alertRows.n);
  const closeL = summarize(closeLatency);
  const fillL = summarize(fillLatency);

  const cost = (label: string, s: Summary, fired: string) => `| ${label} | ${num(s.n)} | ${fired} | ${ms(s.p50 * 1000)} | ${ms(s.p99 * 1000)} | ${ms(s.max * 1000)} | ${ms(s.mean * 1000)} |`;
  const phase = (label: string, seconds: number, lag: Summary, loopP99: number, loopMax: number, use: { own: number; rest: number }) =>
    `| ${label} | ${seconds.toFixed(1)} | ${ms(lag.p50)} / ${ms(lag.p99)} / ${ms(lag.max)} | ${ms(loopP99)} / ${ms(loopMax)} | ${pct(use.own, 0)} | ${pct(use.rest, 0)} |`;
  const triggered1 = summarize(withTriggers);
  const sweepMedian = summarize(sweeps.map((s) => s.ms));
  const out = [
    '## Tick evaluation',
    '',
    `Machine: ${machine()}; ${pct(background, 0)} busy before the run. State: ${num(POSITIONS)} open positions (${num(TRAILING)} with a trailing stop), ${num(ALERTS)} price alerts and ${num(ORDERS)} pending orders of ${num(TRADERS)} traders over ${instruments.length} symbols (SL/TP and order prices ${LEVEL_MIN * 100}–${LEVEL_MAX * 100}% from the price; ${pct(NO_SL, 0)} without SL, ${pct(NO_TP, 0)} without TP), SQLite file (WAL, synchronous = FULL), margin sweep every ${cfg.trading.marginCheckMs} ms. Ticks offered at ${num(RATE)}/s; each \`book.ingest\` call timed (synchronous: validation, candles, stream hub, trading engine).`,
    '',
    '| ticks | measured | triggers fired | ingest p50 µs | p99 µs | max µs | mean µs |',
    '|---|---:|---:|---:|---:|---:|---:|',
    cost('baseline: no positions, no orders', baseline.cost, '0'),
    cost('no trigger (walk within ±0.5%)', quiet.cost, String(eventsDuringQuiet)),
    cost('trigger phase: ticks that fired ≥ 1', triggered1, `${num(expectedTotal)} (${firedPerTick.mean.toFixed(1)} per tick, max ${num(firedPerTick.max)})`),
    cost('trigger phase: ticks that fired none', summarize(withoutTriggers), '0'),
    '',
    'Around the ticks (late: how long a tick due on the schedule waited for the event loop before `ingest` ran; rest of machine: CPU used by other processes):',
    '',
    '| phase | wall s | ticks late p50 / p99 / max ms | event-loop delay p99 / max ms | this process CPU (% of 1 core) | rest of machine (% of 1 core) |',
    '|---|---:|---:|---:|---:|---:|',
    phase('baseline (no positions)', baseline.seconds, baseline.lag, baseline.loopDelayP99, baseline.loopDelayMax, baseline),
    phase('no trigger', quiet.seconds, quiet.lag, quiet.loopDelayP99, quiet.loopDelayMax, quiet),
    phase('trigger phase (until the engine is idle)', (idle - triggerStarted) / 1000, summarize(triggerLag), triggerLoop.percentile(99) / 1e6, triggerLoop.max / 1e6, triggerUse),
    '',
    `Work the trigger ticks started (${num(triggerCount)} ticks fed in ${feedS.toFixed(1)} s; ${num(expectedTotal)} triggers expected from the levels placed, ${num(triggered)} found in the database):`,
    '',
    '| triggered work | count | tick → commit p50 ms | p99 ms | max ms |',
    '|---|---:|---:|---:|---:|',
    `| SL/TP closes (${closedRows.map((r) => `${r.close_reason}: ${num(Number(r.n))}`).join(', ')}) | ${num(closes)} | ${ms(closeL.p50)} | ${ms(closeL.p99)} | ${ms(closeL.max)} |`,
    `| pending orders filled | ${num(filled)} | ${ms(fillL.p50)} | ${ms(fillL.p99)} | ${ms(fillL.max)} |`,
    `| pending orders rejected | ${num(rejected)} | | | |`,
    `| stop-limit stops reached (now limit orders) | ${num(stopsReached)} | | | |`,
    '',
    `The last commit came ${((lastCommit - lastTick) / 1000).toFixed(2)} s after the last trigger tick: ${num(closes + filled)} closes and fills in ${((lastCommit - triggerStarted) / 1000).toFixed(1)} s from the first trigger tick = ${num((closes + filled) / ((lastCommit - triggerStarted) / 1000))}/s. ${num(Number(stillOpen.n))} positions still open.${unattributed > 0 ? ` ${num(unattributed)} commits could not be matched to their tick.` : ''}`,
    '',
    '| state and background work | |',
    '|---|---:|',
    `| bulk insert (one transaction) | ${insertS.toFixed(1)} s |`,
    ...(TRAILING > 0 ? [`| trailing stops moved and written: during the no-trigger ticks / the trigger phase | ${num(movesDuringQuiet)} / ${num(movesDuringTriggers)} |`] : []),
    ...(ALERTS > 0 ? [`| price alerts fired during the trigger phase (of ${num(ALERTS)}) | ${num(alertsFired)} |`] : []),
    `| restart: \`buildApp\` loading ${num(POSITIONS)} positions + ${num(ORDERS)} orders | ${loadS.toFixed(2)} s |`,
    `| heap: empty app → loaded app${gc ? ' (after full GC)' : ' (no --expose-gc: approximate)'} | ${mb(memEmpty.heap)} → ${mb(memLoaded.heap)} MB (+${mb(memLoaded.heap - memEmpty.heap)} MB) |`,
    `| RSS: before any app → loaded app | ${mb(mem0.rss)} → ${mb(memLoaded.rss)} MB |`,
    `| \`marginSweep()\` over all ${num(TRADERS)} accounts (${SWEEPS} runs) | ${sweeps.map((s) => `${ms(s.ms)} ms`).join(', ')} |`,
    `| longest event-loop stall during each sweep | ${sweeps.map((s) => `${ms(s.blockedMs)} ms`).join(', ')} |`,
    rollover ? `| daily swap rollover (\`applyRollovers\`, ${num(rollover.charged)} positions charged) / longest event-loop stall | ${ms(rollover.ms)} ms / ${ms(rollover.blockedMs)} ms |` : '| daily swap rollover | not measured |',
    '',
    'Targets (issue: p99 ≤ 1 ms per tick, with and without triggers):',
    `- no trigger: ingest p99 ${ms(quiet.cost.p99 * 1000)} µs — ${quiet.cost.p99 <= 1 ? 'met' : 'NOT met'}`,
    `- with triggers: ingest p99 ${ms(triggered1.p99 * 1000)} µs — ${triggered1.p99 <= 1 ? 'met' : 'NOT met'}`,
    sweeps.some((s) => s.blockedMs > 1)
      ? `- but one margin sweep takes ${ms(sweepMedian.p50)} ms (every ${cfg.trading.marginCheckMs} ms) and holds the event loop for up to ${ms(Math.max(...sweeps.map((s) => s.blockedMs)))} ms: ticks arriving meanwhile wait (no-trigger ticks late p99 ${ms(quiet.lag.p99)} ms).`
      : `- the margin sweep (${ms(sweepMedian.p50)} ms) holds the event loop for at most 1 ms at a time.`,
    ...(eventsDuringQuiet > 0 ? [`- note: ${eventsDuringQuiet} closes or order updates happened during the no-trigger ticks.`] : []),
    '',
  ];
  process.stdout.write(`${out.join('\n')}\n`);
} catch (err) {
  log(`benchmark failed: ${(err as Error).stack ?? String(err)}`);
  process.exitCode = 1;
}
clearTimeout(deadline);
