import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { bucketStart, PERIODS, type Candle, type Period } from '../src/domain/candles';
import type { Instrument } from '../src/domain/instruments';
import { isOpenAt, parseSchedule } from '../src/domain/trading-sessions';
import { DEFAULT_CATALOGUE_FILE, readCatalogueFile, type CatalogueEntry } from '../src/market/catalogue';
import { SimProvider } from '../src/market/providers/sim-provider';
import { generateHistory, HISTORY_MINUTES } from '../src/market/sim-history';
import type { IncomingTick } from '../src/market/types';
import { startApp, type TestApp } from './helpers/app';
import type { Client } from './helpers/client';
import { signedInTrader } from './helpers/client';

// The simulated feed: the provider stepped at chosen (injected) times, and the server started with
// MARKET_FEED=sim on a small catalogue, on a database that survives a restart. 2026-03-04 is a
// Wednesday; the test apps' clock starts there at 10:00 UTC.

const at = (iso: string) => Date.parse(iso.endsWith('Z') ? iso : `${iso}Z`);
const START = at('2026-03-04T10:00');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const YEAR_MS = 365.25 * 24 * HOUR;

const catalogue = readCatalogueFile(DEFAULT_CATALOGUE_FILE);

function toInstrument(e: CatalogueEntry, id: number): Instrument {
  const sessions = catalogue.schedules[e.schedule]!;
  return {
    id, symbol: e.symbol, description: e.description, group: e.group, base: e.base, quote: e.quote, digits: e.digits, point: 10 ** -e.digits,
    contractSize: e.contractSize, volumeMin: e.volume.min, volumeStep: e.volume.step, volumeMax: e.volume.max, calcMode: e.calcMode, tradingMode: 'full', marginRate: 1,
    sessions, schedule: parseSchedule(sessions), swapLong: e.swapLong, swapShort: e.swapShort, spreadMarkup: e.spreadMarkup, sim: e.sim, feeds: e.feeds,
  };
}

/** The default catalogue, as the server loads it. */
const ALL = catalogue.instruments.map((e, i) => toInstrument(e, i + 1));
const bySymbol = new Map(ALL.map((i) => [i.symbol, i]));

/** Steps a provider from `from` to `to` (inclusive) every `stepMs` and returns every tick. */
function simulate(options: { seed: string; from: number; to: number; stepMs: number; sessions?: 'real' | 'always'; instruments?: Instrument[] }): IncomingTick[] {
  const provider = new SimProvider(options.instruments ?? ALL, { seed: options.seed, now: () => options.from, sessions: options.sessions ?? 'real', intervalMs: options.stepMs });
  const ticks: IncomingTick[] = [];
  for (let t = options.from; t <= options.to; t += options.stepMs) for (const tick of provider.step(t)) ticks.push(tick);
  return ticks;
}

const groupOf = (tick: IncomingTick) => bySymbol.get(tick.symbol)!.group;

describe('simulated feed: determinism', () => {
  const window = { from: START, to: START + 10 * MINUTE, stepMs: 100 };

  test('two providers with the same seed stepped at the same times produce identical ticks', () => {
    const a = simulate({ seed: 'alpha', ...window });
    const b = simulate({ seed: 'alpha', ...window });
    assert.ok(a.length > 10_000, `${a.length} ticks`);
    assert.deepEqual(a, b);
  });

  test('a different seed gives different ticks', () => {
    const a = simulate({ seed: 'alpha', ...window });
    const b = simulate({ seed: 'beta', ...window });
    assert.notDeepEqual(a, b);
    const last = (ticks: IncomingTick[], symbol: string) => ticks.filter((t) => t.symbol === symbol).at(-1)!.bid;
    assert.notEqual(last(a, 'EURUSD'), last(b, 'EURUSD'));
    assert.notEqual(last(a, 'BTCUSD'), last(b, 'BTCUSD'));
  });

  test('the same seed reproduces the same history; another seed does not', () => {
    const btc = bySymbol.get('BTCUSD')!;
    const a = generateHistory(btc, { seed: 's1', now: START, sessions: 'real' });
    const b = generateHistory(btc, { seed: 's1', now: START, sessions: 'real' });
    const c = generateHistory(btc, { seed: 's2', now: START, sessions: 'real' });
    assert.deepEqual(a, b);
    assert.notDeepEqual(a.h1.map((x) => x.open), c.h1.map((x) => x.open));
  });
});

describe('simulated feed: trading sessions', () => {
  test('through a whole weekend, only crypto ticks; Forex and metals resume at Sunday 17:00 New York (21:00 UTC, daylight time from that morning), stocks on Monday 09:30 New York (13:30 UTC)', () => {
    const friday = at('2026-03-06T21:00');
    // Ten-second steps: every open instrument ticks at every step.
    const ticks = simulate({ seed: 'weekend', from: friday, to: at('2026-03-09T14:00'), stepMs: 10_000 });
    const when = (tick: IncomingTick) => tick.time!;
    const closedAt = (group: string, from: string, to: string) => ticks.filter((t) => groupOf(t) === group && when(t) >= at(from) && when(t) < at(to));

    // Friday until 22:00 UTC (17:00 EST): Forex and metals still tick; stocks closed since 21:00 UTC (16:00 EST).
    assert.ok(closedAt('Forex', '2026-03-06T21:00', '2026-03-06T22:00').length > 0);
    assert.equal(closedAt('Stocks', '2026-03-06T21:00', '2026-03-09T13:30').length, 0, 'no stock ticks from Friday 21:00 to Monday 13:30');
    // Friday 22:00 UTC to Sunday 21:00 UTC (17:00 EDT): nothing but crypto.
    for (const group of ['Forex', 'Metals', 'Stocks']) assert.equal(closedAt(group, '2026-03-06T22:00', '2026-03-08T21:00').length, 0, group);
    const saturday = ticks.filter((t) => when(t) >= at('2026-03-07T00:00') && when(t) < at('2026-03-08T00:00'));
    assert.ok(saturday.length > 0);
    assert.ok(saturday.every((t) => groupOf(t) === 'Crypto'));
    for (const crypto of ALL.filter((i) => i.group === 'Crypto')) assert.ok(saturday.filter((t) => t.symbol === crypto.symbol).length > 8000, crypto.symbol);
    // Sunday 17:00 New York: every Forex pair and metal ticks again within a minute.
    const sundayOpen = ticks.filter((t) => when(t) >= at('2026-03-08T21:00') && when(t) < at('2026-03-08T21:01'));
    for (const i of ALL.filter((x) => x.group === 'Forex' || x.group === 'Metals')) assert.ok(sundayOpen.some((t) => t.symbol === i.symbol), i.symbol);
    // Monday 13:30: stocks open.
    const mondayOpen = ticks.filter((t) => when(t) >= at('2026-03-09T13:30') && when(t) < at('2026-03-09T13:31'));
    for (const i of ALL.filter((x) => x.group === 'Stocks')) assert.ok(mondayOpen.some((t) => t.symbol === i.symbol), i.symbol);
    // And no tick at all outside its instrument's session.
    for (const tick of ticks) assert.ok(isOpenAt(bySymbol.get(tick.symbol)!.schedule, when(tick)), `${tick.symbol} ticked at ${new Date(when(tick)).toISOString()}`);
  });

  test('the session boundary is exact to the step: no Forex tick before Sunday 17:00:00 New York, the first one right after', () => {
    const ticks = simulate({ seed: 'boundary', from: at('2026-03-08T20:59'), to: at('2026-03-08T21:01'), stepMs: 100, instruments: ALL.filter((i) => i.symbol === 'EURUSD' || i.symbol === 'BTCUSD') });
    const eurusd = ticks.filter((t) => t.symbol === 'EURUSD');
    assert.ok(eurusd.length > 100);
    assert.ok(eurusd[0]!.time! >= at('2026-03-08T21:00'), new Date(eurusd[0]!.time!).toISOString());
    assert.ok(eurusd[0]!.time! < at('2026-03-08T21:00:02'), new Date(eurusd[0]!.time!).toISOString());
    assert.ok(ticks.some((t) => t.symbol === 'BTCUSD' && t.time! < at('2026-03-08T21:00')), 'crypto ticks before');
  });

  test("with sessions 'always' every market ticks on Saturday", () => {
    const ticks = simulate({ seed: 'always', from: at('2026-03-07T12:00'), to: at('2026-03-07T12:05'), stepMs: 1000, sessions: 'always' });
    for (const group of ['Forex', 'Metals', 'Stocks', 'Crypto']) assert.ok(ticks.some((t) => groupOf(t) === group), group);
  });
});

describe('simulated feed: realistic behaviour', () => {
  // A whole Wednesday in five-second steps (each open instrument ticks at nearly every step).
  const bySymbolTicks = new Map<string, IncomingTick[]>();
  before(() => {
    for (const tick of simulate({ seed: 'day', from: at('2026-03-04T00:00'), to: at('2026-03-04T23:59:59'), stepMs: 5000 })) {
      const list = bySymbolTicks.get(tick.symbol) ?? [];
      list.push(tick);
      bySymbolTicks.set(tick.symbol, list);
    }
  });
  const ticksOf = (symbol: string) => bySymbolTicks.get(symbol) ?? [];

  test('every instrument ticks during its session, at its digits, with ask above bid', () => {
    for (const i of ALL) {
      const ticks = ticksOf(i.symbol);
      assert.ok(ticks.length > 1000, `${i.symbol}: ${ticks.length}`);
      for (const t of ticks) {
        assert.ok(t.ask > t.bid && t.bid > 0, `${i.symbol} ${t.bid}/${t.ask}`);
        assert.ok(Math.abs(t.bid * 10 ** i.digits - Math.round(t.bid * 10 ** i.digits)) < 1e-6, `${i.symbol} bid ${t.bid} has more than ${i.digits} digits`);
        assert.ok(Math.abs(t.ask * 10 ** i.digits - Math.round(t.ask * 10 ** i.digits)) < 1e-6, `${i.symbol} ask ${t.ask}`);
      }
    }
  });

  test('spreads stay within a few times the configured typical spread, averaging near it', () => {
    for (const i of ALL) {
      const spreads = ticksOf(i.symbol).map((t) => Math.round((t.ask - t.bid) / i.point));
      const typical = i.sim.spread;
      const min = Math.min(...spreads);
      const max = Math.max(...spreads);
      const mean = spreads.reduce((s, x) => s + x, 0) / spreads.length;
      assert.ok(min >= Math.max(1, Math.floor(0.75 * typical)), `${i.symbol}: min spread ${min} vs typical ${typical}`);
      assert.ok(max <= Math.max(3, 2.5 * typical), `${i.symbol}: max spread ${max} vs typical ${typical}`);
      assert.ok(mean >= 0.9 * typical && mean <= 1.2 * typical, `${i.symbol}: mean spread ${mean} vs typical ${typical}`);
    }
  });

  test('prices stay within a plausible band of the reference over a day, without jumps', () => {
    for (const i of ALL) {
      const ticks = ticksOf(i.symbol);
      const dailySigma = i.sim.volatility * Math.sqrt((24 * HOUR) / YEAR_MS);
      let worstJump = 0;
      for (let k = 0; k < ticks.length; k++) {
        const drift = Math.abs(Math.log(ticks[k]!.bid / i.sim.price));
        assert.ok(drift < 6 * dailySigma + 5 * i.point / i.sim.price, `${i.symbol}: ${ticks[k]!.bid} is ${(drift * 100).toFixed(2)}% from ${i.sim.price}`);
        if (k > 0) {
          const dt = ticks[k]!.time! - ticks[k - 1]!.time!;
          const sigma = i.sim.volatility * Math.sqrt(dt / YEAR_MS);
          const jump = Math.abs(Math.log(ticks[k]!.bid / ticks[k - 1]!.bid)) - 1.5 * i.point / ticks[k]!.bid;
          worstJump = Math.max(worstJump, jump / sigma);
        }
      }
      assert.ok(worstJump < 7, `${i.symbol}: a tick moved ${worstJump.toFixed(1)} standard deviations`);
    }
  });

  test('liquid symbols tick several times a second on average (at the real 100 ms step)', () => {
    // 10:00 New York (15:00 UTC in March before the change): every market is in session.
    const from = at('2026-03-04T15:00');
    const seconds = 600;
    const ticks = simulate({ seed: 'rate', from, to: from + seconds * 1000 - 100, stepMs: 100 });
    for (const i of ALL) {
      const rate = ticks.filter((t) => t.symbol === i.symbol).length / seconds;
      assert.ok(Math.abs(rate - i.sim.ticksPerSecond) < 0.15 * i.sim.ticksPerSecond + 0.2, `${i.symbol}: ${rate.toFixed(2)}/s, configured ${i.sim.ticksPerSecond}/s`);
    }
    for (const symbol of ['EURUSD', 'GBPUSD', 'USDJPY', 'XAUUSD', 'BTCUSD', 'ETHUSD']) {
      const rate = ticks.filter((t) => t.symbol === symbol).length / seconds;
      assert.ok(rate >= 3, `${symbol}: ${rate}/s`);
    }
  });
});

// ------------------------------------------------------------------ the server with MARKET_FEED=sim

const SMALL = ['EURUSD', 'BTCUSD', 'AAPL'];

function writeCatalogue(dir: string, name: string, symbols: string[], edit: (e: CatalogueEntry) => CatalogueEntry = (e) => e): string {
  const file = { schedules: catalogue.schedules, instruments: symbols.map((s) => edit(catalogue.instruments.find((i) => i.symbol === s)!)) };
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(file, null, 2));
  return path;
}

/** A database that outlives one app: a file for SQLite, a database of its own for PostgreSQL. */
async function persistentDatabase(dir: string): Promise<{ url: string; drop(): Promise<void> }> {
  const base = process.env.DATABASE_URL ?? '';
  if (!base.startsWith('postgres')) return { url: `sqlite:${join(dir, `market-${randomBytes(4).toString('hex')}.db`)}`, drop: async () => undefined };
  const name = `tp_sim_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

async function getCandles(client: Client, symbol: string, period: Period, extra = ''): Promise<Candle[]> {
  const r = await client.get(`/platform/getCandles.php?symbol=${symbol}&period=${period}&limit=5000${extra}`);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body.data as Candle[];
}

/** Candles of `coarse` must contain exactly the finer candles inside them. */
function assertContains(symbol: string, coarse: Candle[], coarsePeriod: Period, fine: Candle[], fromTime: number): void {
  let checked = 0;
  for (const big of coarse) {
    if (big.time < fromTime) continue;
    const inside = fine.filter((c) => bucketStart(coarsePeriod, c.time) === big.time);
    assert.ok(inside.length > 0, `${symbol} ${coarsePeriod} ${new Date(big.time).toISOString()} has no finer candles`);
    for (const c of inside) {
      assert.ok(big.high >= c.high, `${symbol} ${coarsePeriod} high ${big.high} < ${c.high}`);
      assert.ok(big.low <= c.low, `${symbol} ${coarsePeriod} low ${big.low} > ${c.low}`);
    }
    assert.equal(big.high, Math.max(...inside.map((c) => c.high)), `${symbol} ${coarsePeriod} ${new Date(big.time).toISOString()} high`);
    assert.equal(big.low, Math.min(...inside.map((c) => c.low)), `${symbol} ${coarsePeriod} low`);
    assert.equal(big.open, inside[0]!.open, `${symbol} ${coarsePeriod} open`);
    assert.equal(big.close, inside.at(-1)!.close, `${symbol} ${coarsePeriod} close`);
    assert.equal(big.volume, inside.reduce((s, c) => s + c.volume, 0), `${symbol} ${coarsePeriod} volume`);
    checked++;
  }
  assert.ok(checked > 0, `${symbol} ${coarsePeriod}: nothing compared`);
}

describe('sim history on first start, and restarts', () => {
  let dir: string;
  let db: { url: string; drop(): Promise<void> };
  let catalogueFile: string;
  let t: TestApp;
  let client: Client;
  const history: Record<string, Partial<Record<Period, Candle[]>>> = {};
  /** The same, for candles before the current one of each period. */
  const past: Record<string, Partial<Record<Period, Candle[]>>> = {};
  let quotesAtClose: { symbol: string; bid: number; ask: number; time: number }[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tradeport-sim-'));
    db = await persistentDatabase(dir);
    catalogueFile = writeCatalogue(dir, 'small.json', SMALL);
    t = await startApp({ config: { databaseUrl: db.url }, market: { feeds: ['sim'], simHistory: true, sessions: 'real', catalogueFile, simSeed: 'first-seed', flushIntervalMs: 3_600_000 } });
    client = (await signedInTrader(t)).client;
    // The simulator's first step (at the start time, the clock stands still) may add a tick to the
    // current candles; let it happen before the snapshot.
    await sleep(300);
    for (const symbol of SMALL) {
      history[symbol] = {};
      past[symbol] = {};
      for (const period of PERIODS) {
        history[symbol]![period] = await getCandles(client, symbol, period);
        past[symbol]![period] = await getCandles(client, symbol, period, `&before=${bucketStart(period, START)}`);
      }
    }
  });
  after(async () => {
    await t?.close();
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('every period M1…MN has candles for every instrument', () => {
    const minimum: Record<Period, number> = { M1: 300, M5: 60, M15: 20, M30: 10, H1: 1000, H4: 300, D1: 200, W1: 50, MN: 12 };
    for (const symbol of SMALL) {
      for (const period of PERIODS) {
        const candles = history[symbol]![period]!;
        assert.ok(candles.length >= minimum[period], `${symbol} ${period}: ${candles.length} candles`);
        for (let k = 1; k < candles.length; k++) assert.ok(candles[k]!.time > candles[k - 1]!.time, `${symbol} ${period} ascending`);
        for (const c of candles) {
          assert.equal(bucketStart(period, c.time), c.time, `${symbol} ${period} bucket`);
          assert.ok(c.high >= Math.max(c.open, c.close) && Math.min(c.open, c.close) >= c.low && c.low > 0, `${symbol} ${period} ${JSON.stringify(c)}`);
          assert.ok(c.volume >= 1 && Number.isInteger(c.volume));
          assert.ok(c.time <= START, `${symbol} ${period}: a candle in the future`);
        }
      }
      // A year of history: the monthly candles reach back about 12 months.
      assert.ok(history[symbol]!.MN![0]!.time <= at('2025-04-01'), `${symbol} MN starts ${new Date(history[symbol]!.MN![0]!.time).toISOString()}`);
    }
    // The minute history reaches the current minute (crypto never closes).
    assert.ok(history.BTCUSD!.M1!.at(-1)!.time >= START - MINUTE);
  });

  test('candles agree across periods: D1 ⊇ H1, H1 ⊇ M1, W1 and MN ⊇ D1, M5 ⊇ M1', () => {
    for (const symbol of SMALL) {
      const h = history[symbol]!;
      const h1 = h.H1!;
      const firstFullDay = bucketStart('D1', h1[0]!.time) + 24 * HOUR;
      assertContains(symbol, h.D1!, 'D1', h1, firstFullDay);
      assertContains(symbol, h.H4!, 'H4', h1, bucketStart('H4', h1[0]!.time) + 4 * HOUR);
      assertContains(symbol, h.W1!, 'W1', h.D1!, 0);
      assertContains(symbol, h.MN!, 'MN', h.D1!, 0);
      const m1 = h.M1!;
      const firstFullHour = bucketStart('H1', m1[0]!.time) + (m1[0]!.time === bucketStart('H1', m1[0]!.time) ? 0 : HOUR);
      assertContains(symbol, h1, 'H1', m1, firstFullHour);
      assertContains(symbol, h.M5!, 'M5', m1, bucketStart('M5', m1[0]!.time) + 5 * MINUTE);
    }
  });

  test('history is continuous: each candle opens where the previous one closed', () => {
    for (const symbol of SMALL) {
      for (const period of ['H1', 'M1', 'D1'] as const) {
        const candles = history[symbol]![period]!.filter((c) => c.time < bucketStart(period, START));
        let breaks = 0;
        for (let k = 1; k < candles.length; k++) if (candles[k]!.open !== candles[k - 1]!.close) breaks++;
        assert.equal(breaks, 0, `${symbol} ${period}: ${breaks} candles do not open at the previous close`);
      }
    }
  });

  test('history respects trading sessions: no Forex candles at the weekend, stock minutes only 09:30-16:00 New York on weekdays', async () => {
    const forex = bySymbol.get('EURUSD')!.schedule;
    const stocks = bySymbol.get('AAPL')!.schedule;
    for (const c of history.EURUSD!.M1!) assert.ok(isOpenAt(forex, c.time), `EURUSD M1 at ${new Date(c.time).toISOString()}`);
    for (const c of history.AAPL!.M1!) assert.ok(isOpenAt(stocks, c.time), `AAPL M1 at ${new Date(c.time).toISOString()}`);
    // An hour is kept if its first or last minute is in session.
    for (const c of history.EURUSD!.H1!) assert.ok(isOpenAt(forex, c.time) || isOpenAt(forex, c.time + HOUR - MINUTE), `EURUSD H1 at ${new Date(c.time).toISOString()}`);
    for (const c of history.AAPL!.H1!) assert.ok(isOpenAt(stocks, c.time) || isOpenAt(stocks, c.time + HOUR - MINUTE), `AAPL H1 at ${new Date(c.time).toISOString()}`);
    assert.ok(!history.EURUSD!.D1!.some((c) => new Date(c.time).getUTCDay() === 6), 'no Saturday D1 candle for EURUSD');
    assert.ok(!history.AAPL!.D1!.some((c) => [0, 6].includes(new Date(c.time).getUTCDay())), 'no weekend D1 candle for AAPL');
    assert.ok(history.BTCUSD!.D1!.some((c) => new Date(c.time).getUTCDay() === 6), 'crypto trades on Saturday');
    // The minute history covers the last four days of sessions (Monday and Tuesday for AAPL).
    const days = new Set(history.AAPL!.M1!.map((c) => new Date(c.time).toISOString().slice(0, 10)));
    assert.deepEqual([...days], ['2026-03-02', '2026-03-03']);
    assert.ok(history.EURUSD!.M1![0]!.time === at('2026-03-01T22:00'), new Date(history.EURUSD!.M1![0]!.time).toISOString());
    const firstBtcMinute = await t.ctx.db.selectFrom('candles').select((eb) => eb.fn.min('time').as('t')).where('symbol', '=', 'BTCUSD').where('period', '=', 'M1').executeTakeFirstOrThrow();
    assert.equal(Number(firstBtcMinute.t), bucketStart('H1', START) - HISTORY_MINUTES * MINUTE);
  });

  test('each market shows its last price from the start, closed ones included; the live feed continues from the history', async () => {
    const r = await client.get('/platform/getQuotes.php');
    const quotes = new Map<string, { bid: number; ask: number; open: boolean; stale: boolean; time: number }>(r.body.data.map((q: { symbol: string }) => [q.symbol, q]));
    // AAPL is closed on Wednesday at 10:00: it shows the last minute's close from Tuesday.
    const aapl = quotes.get('AAPL')!;
    assert.equal(aapl.open, false);
    assert.equal(aapl.stale, false);
    assert.equal(aapl.bid, history.AAPL!.M1!.at(-1)!.close);
    assert.ok(aapl.ask > aapl.bid);
    for (const symbol of ['EURUSD', 'BTCUSD']) {
      const q = quotes.get(symbol)!;
      assert.equal(q.open, true, symbol);
      const lastClose = history[symbol]!.M1!.filter((c) => c.time < bucketStart('M1', START)).at(-1)!.close;
      assert.ok(Math.abs(q.bid / lastClose - 1) < 0.002, `${symbol}: quote ${q.bid} vs last close ${lastClose}`);
      assert.ok(q.ask > q.bid);
    }
  });

  test('a second start on the same database does not generate history again and continues from the last close', async () => {
    quotesAtClose = t.app.market.book.all();
    const rowsBefore = await t.ctx.db.selectFrom('candles').select(['symbol', 'period', 'time', 'open', 'high', 'low', 'close', 'volume']).where('time', '<', bucketStart('D1', START) - 7 * 24 * HOUR).orderBy('symbol').orderBy('period').orderBy('time').execute();
    assert.ok(rowsBefore.length > 1000);
    await t.close();
    // Another seed: regenerating history would rewrite every candle.
    t = await startApp({ config: { databaseUrl: db.url }, market: { feeds: ['sim'], simHistory: true, sessions: 'real', catalogueFile, simSeed: 'second-seed', flushIntervalMs: 3_600_000 } });
    client = (await signedInTrader(t)).client;
    const rowsAfter = await t.ctx.db.selectFrom('candles').select(['symbol', 'period', 'time', 'open', 'high', 'low', 'close', 'volume']).where('time', '<', bucketStart('D1', START) - 7 * 24 * HOUR).orderBy('symbol').orderBy('period').orderBy('time').execute();
    assert.deepEqual(rowsAfter, rowsBefore);
    for (const symbol of SMALL) {
      for (const period of PERIODS) {
        assert.deepEqual(await getCandles(client, symbol, period, `&before=${bucketStart(period, START)}`), past[symbol]![period], `${symbol} ${period}`);
      }
    }
    const r = await client.get('/platform/getQuotes.php');
    for (const q of r.body.data as { symbol: string; bid: number }[]) {
      const previous = quotesAtClose.find((x) => x.symbol === q.symbol)!;
      assert.ok(previous, q.symbol);
      assert.ok(Math.abs(q.bid / previous.bid - 1) < 0.002, `${q.symbol}: ${q.bid} after the restart vs ${previous.bid} before`);
    }
    // The closed market's price is exactly the one it had.
    assert.equal(t.app.market.book.get('AAPL')?.bid, quotesAtClose.find((q) => q.symbol === 'AAPL')!.bid);
  });

  test('the restarted feed keeps ticking on from there as the clock moves', async () => {
    const last = t.app.market.book.get('BTCUSD')!;
    t.clock.advance(5000);
    const deadline = Date.now() + 3000;
    while (t.app.market.book.get('BTCUSD')!.time === last.time && Date.now() < deadline) await sleep(20);
    const next = t.app.market.book.get('BTCUSD')!;
    assert.equal(next.time, START + 5000);
    assert.ok(Math.abs(next.bid / last.bid - 1) < 0.01, `${next.bid} after ${last.bid}`);
    const live = t.app.market.candles.live('BTCUSD', 'M1')!;
    assert.equal(live.time, START);
    assert.equal(live.close, next.bid);
  });
});

describe('the running simulator respects sessions (injected clock)', () => {
  test('on Saturday only crypto ticks; from Sunday 17:00 New York Forex ticks again; stocks stay closed', async () => {
    const t = await startApp({ market: { feeds: ['sim'], sessions: 'real', simSeed: 'weekend-app' } });
    try {
      const seen: { symbol: string; time: number }[] = [];
      t.app.market.book.onQuote((q) => void seen.push({ symbol: q.symbol, time: q.time }));
      // Let the simulator take its first step (at the start time) before the clock moves.
      await sleep(300);
      const stepTo = async (time: number) => {
        const count = seen.length;
        t.clock.set(time);
        const deadline = Date.now() + 3000;
        // A step after a long pause ticks every open market at once.
        while (!seen.slice(count).some((s) => s.time === time) && Date.now() < deadline) await sleep(10);
      };
      const saturday = at('2026-03-07T12:00');
      for (let k = 0; k < 5; k++) await stepTo(saturday + k * 1000);
      const onSaturday = seen.filter((s) => s.time >= saturday);
      assert.ok(onSaturday.length >= 5);
      assert.deepEqual([...new Set(onSaturday.map((s) => bySymbol.get(s.symbol)!.group))], ['Crypto']);
      await stepTo(at('2026-03-08T20:59:59'));
      assert.ok(!seen.some((s) => s.time >= saturday && bySymbol.get(s.symbol)!.group !== 'Crypto'));
      const sunday = at('2026-03-08T21:00');
      for (let k = 0; k < 3; k++) await stepTo(sunday + k * 1000);
      const afterOpen = seen.filter((s) => s.time >= sunday);
      assert.ok(afterOpen.some((s) => s.symbol === 'EURUSD'), 'EURUSD ticks after Sunday 17:00 New York');
      assert.ok(afterOpen.some((s) => s.symbol === 'XAUUSD'), 'XAUUSD ticks after Sunday 17:00 New York');
      assert.ok(!afterOpen.some((s) => bySymbol.get(s.symbol)!.group === 'Stocks'), 'stocks are closed on Sunday night');
    } finally {
      await t.close();
    }
  });
});

describe('catalogue sync', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'tradeport-catalogue-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('the file seeds the table: a later start adds its new instruments and leaves the ones the table has as they are', async () => {
    const db = await persistentDatabase(dir);
    const reduced = writeCatalogue(dir, 'reduced.json', ['EURUSD', 'BTCUSD']);
    const grown = writeCatalogue(dir, 'grown.json', ['AAPL', 'EURUSD', 'BTCUSD'], (e) => (e.symbol === 'EURUSD' ? { ...e, description: 'Changed in the file', spreadMarkup: 99 } : e));
    const symbolsOf = async (t: TestApp) => {
      const client = (await signedInTrader(t)).client;
      const r = await client.get('/platform/getMainCurrencies.php');
      return { client, rows: r.body.data as { ID: number; Symbol: string; description: string }[] };
    };
    let t = await startApp({ config: { databaseUrl: db.url }, market: { catalogueFile: reduced } });
    try {
      const first = await symbolsOf(t);
      assert.deepEqual(first.rows.map((r) => r.Symbol), ['EURUSD', 'BTCUSD']);
      const ids = new Map(first.rows.map((r) => [r.Symbol, r.ID]));
      const eurusd = first.rows.find((r) => r.Symbol === 'EURUSD')!;
      await t.close();

      // A new instrument in the file is added after the others; EURUSD keeps the table's values.
      t = await startApp({ config: { databaseUrl: db.url }, market: { catalogueFile: grown } });
      const second = await symbolsOf(t);
      assert.deepEqual(second.rows.map((r) => r.Symbol), ['EURUSD', 'BTCUSD', 'AAPL']);
      for (const r of second.rows.filter((x) => ids.has(x.Symbol))) assert.equal(r.ID, ids.get(r.Symbol), `${r.Symbol} keeps its ID`);
      assert.equal(second.rows.find((r) => r.Symbol === 'EURUSD')!.description, eurusd.description);
      const row = await t.ctx.db.selectFrom('instruments').selectAll().where('symbol', '=', 'EURUSD').executeTakeFirstOrThrow();
      assert.notEqual(row.spread_markup, 99);
      // A disabled instrument is not offered.
      await t.ctx.db.updateTable('instruments').set({ trading_mode: 'disabled' }).where('symbol', '=', 'AAPL').execute();
      await t.close();

      // An instrument left out of the file stays: the table, not the file, is the catalogue.
      t = await startApp({ config: { databaseUrl: db.url }, market: { catalogueFile: reduced } });
      const third = await symbolsOf(t);
      assert.deepEqual(third.rows.map((r) => r.Symbol), ['EURUSD', 'BTCUSD']);
      assert.deepEqual((await third.client.get('/platform/getQuotes.php?symbols=AAPL')).body.data, []);
      assert.equal((await third.client.get('/platform/getCandles.php?symbol=AAPL&period=M1')).status, 400);
      assert.ok(!(await third.client.get('/platform/getQuotes.php')).body.data.some((q: { symbol: string }) => q.symbol === 'AAPL'));
    } finally {
      await t.close();
      await db.drop();
    }
  });

  const invalid: [string, (file: { schedules: Record<string, string[]>; instruments: Record<string, unknown>[] }) => unknown, RegExp][] = [
    ['a symbol listed twice', (f) => ({ ...f, instruments: [...f.instruments, f.instruments[0]] }), /EURUSD: listed twice/],
    ['an unknown schedule', (f) => ({ ...f, instruments: f.instruments.map((i) => (i.symbol === 'AAPL' ? { ...i, schedule: 'weekdays' } : i)) }), /AAPL: unknown schedule "weekdays"/],
    ['a session window that is not a time', (f) => ({ ...f, schedules: { ...f.schedules, forex: ['Sun 25:00-Fri 22:00'] } }), /schedules\.forex: "25:00" is not a time of day/],
    ['an unreadable session window', (f) => ({ ...f, schedules: { ...f.schedules, crypto: ['24/7'] } }), /schedules\.crypto: "24\/7" is not a session window/],
    ['too many digits', (f) => ({ ...f, instruments: f.instruments.map((i, k) => (k === 0 ? { ...i, digits: 9 } : i)) }), /instruments\.0\.digits/],
    ['a negative contract size', (f) => ({ ...f, instruments: f.instruments.map((i, k) => (k === 1 ? { ...i, contractSize: -1 } : i)) }), /instruments\.1\.contractSize: contractSize must be positive/],
    ['a lower-case symbol', (f) => ({ ...f, instruments: f.instruments.map((i, k) => (k === 2 ? { ...i, symbol: 'aapl' } : i)) }), /instruments\.2\.symbol: symbol must be 1-20 capital letters/],
    ['an unknown group', (f) => ({ ...f, instruments: f.instruments.map((i, k) => (k === 0 ? { ...i, group: 'Bonds' } : i)) }), /instruments\.0\.group/],
    ['no instruments', (f) => ({ ...f, instruments: [] }), /instruments/],
    ['no schedules', (f) => ({ instruments: f.instruments }), /schedules/],
  ];

  const writeInvalid = (edit: (typeof invalid)[number][1]) => {
    const base = { schedules: catalogue.schedules, instruments: SMALL.map((s) => catalogue.instruments.find((i) => i.symbol === s)!) as unknown as Record<string, unknown>[] };
    const path = join(dir, `bad-${randomBytes(4).toString('hex')}.json`);
    writeFileSync(path, JSON.stringify(edit(structuredClone(base))));
    return path;
  };

  test('an invalid catalogue is refused with one message naming the file and the problem', () => {
    for (const [what, edit, message] of invalid) {
      const path = writeInvalid(edit);
      assert.throws(() => readCatalogueFile(path), (err: Error) => {
        assert.match(err.message, /Invalid instrument catalogue/, what);
        assert.ok(err.message.includes(path), `${what}: the message names the file`);
        assert.match(err.message, message, what);
        return true;
      });
    }
  });

  for (const [what, edit, message] of invalid.slice(0, 3)) {
    test(`${what} stops start-up with a message naming the problem`, async () => {
      const path = writeInvalid(edit);
      await assert.rejects(startApp({ market: { catalogueFile: path } }), (err: Error) => {
        assert.match(err.message, /Invalid instrument catalogue/);
        assert.ok(err.message.includes(path), 'the message names the file');
        assert.match(err.message, message);
        return true;
      });
    });
  }

  test('a missing or malformed file stops start-up too', async () => {
    const missing = join(dir, 'missing.json');
    await assert.rejects(startApp({ market: { catalogueFile: missing } }), new RegExp(`Cannot read the instrument catalogue ${missing}`));
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{ "schedules": { ');
    await assert.rejects(startApp({ market: { catalogueFile: broken } }), /Cannot read the instrument catalogue .*broken\.json: .*JSON/);
  });

  test('the server process exits with the message when INSTRUMENTS_FILE is invalid', async () => {
    const path = writeCatalogue(dir, 'twice.json', ['EURUSD', 'EURUSD']);
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !['DATABASE_URL', 'ADMIN_EMAIL', 'ADMIN_PASSWORD', 'PORT'].includes(k)));
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: new URL('..', import.meta.url).pathname,
      env: { ...clean, HOST: '127.0.0.1', PORT: '0', DATABASE_URL: 'sqlite::memory:', INSTRUMENTS_FILE: path, LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    assert.notEqual(code, 0);
    assert.match(output, /Invalid instrument catalogue/);
    assert.match(output, /EURUSD: listed twice/);
  });
});
