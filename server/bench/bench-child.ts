import { monitorEventLoopDelay, performance } from 'node:perf_hooks';

/**
 * What the two servers of the stream fan-out benchmark share: the tick load (20 symbols, 10 ticks a
 * second each, generated inside the server process) and the IPC protocol through which the load
 * generator (the parent, `stream-fanout.ts`) starts the ticks and reads the server's CPU and memory.
 * Each server is a child process so its CPU and memory are measured apart from the load generator.
 */

/** The 20 symbols every client follows; all are in the default catalogue (config/instruments.json). */
/** The administrator the benchmark servers start with (it makes the account types of `hub-3-types`). */
export const BENCH_ADMIN = { email: 'bench.admin@example.com', password: 'Bench-Admin-Pass-42' };

export const BENCH_SYMBOLS: readonly { symbol: string; price: number; digits: number; spread: number }[] = [
  { symbol: 'EURUSD', price: 1.085, digits: 5, spread: 0.0001 },
  { symbol: 'GBPUSD', price: 1.27, digits: 5, spread: 0.00012 },
  { symbol: 'USDJPY', price: 150.2, digits: 3, spread: 0.012 },
  { symbol: 'USDCHF', price: 0.885, digits: 5, spread: 0.00014 },
  { symbol: 'AUDUSD', price: 0.662, digits: 5, spread: 0.00012 },
  { symbol: 'USDCAD', price: 1.362, digits: 5, spread: 0.00015 },
  { symbol: 'NZDUSD', price: 0.611, digits: 5, spread: 0.00016 },
  { symbol: 'EURGBP', price: 0.854, digits: 5, spread: 0.00014 },
  { symbol: 'EURJPY', price: 162.9, digits: 3, spread: 0.018 },
  { symbol: 'GBPJPY', price: 190.7, digits: 3, spread: 0.025 },
  { symbol: 'AUDJPY', price: 99.4, digits: 3, spread: 0.02 },
  { symbol: 'EURCHF', price: 0.96, digits: 5, spread: 0.00018 },
  { symbol: 'CHFJPY', price: 169.7, digits: 3, spread: 0.025 },
  { symbol: 'EURAUD', price: 1.639, digits: 5, spread: 0.00022 },
  { symbol: 'BTCUSD', price: 65000, digits: 2, spread: 15 },
  { symbol: 'ETHUSD', price: 3200, digits: 2, spread: 1.5 },
  { symbol: 'SOLUSD', price: 150, digits: 2, spread: 0.08 },
  { symbol: 'XRPUSD', price: 0.55, digits: 5, spread: 0.0004 },
  { symbol: 'LTCUSD', price: 80, digits: 2, spread: 0.06 },
  { symbol: 'ADAUSD', price: 0.45, digits: 5, spread: 0.0004 },
];
export const TICKS_PER_SYMBOL_PER_SECOND = 10;
export const TICKS_PER_SECOND = BENCH_SYMBOLS.length * TICKS_PER_SYMBOL_PER_SECOND;
/** A server that falls further behind than this drops the overdue ticks (counted) instead of queueing them. */
const MAX_BACKLOG_TICKS = TICKS_PER_SECOND;
/** A child never outlives this, whatever the parent does. */
const CHILD_LIFETIME_MS = 10 * 60_000;

export interface BenchTick {
  symbol: string;
  bid: number;
  ask: number;
  /** Epoch ms when the tick was handed to the server's fan-out: the client measures latency from it. */
  time: number;
}

export type ParentMessage =
  | { type: 'start' }
  /** Starts the measurement window: the event-loop delay histogram is reset. */
  | { type: 'mark' }
  | { type: 'stats'; id: number }
  | { type: 'ticks'; id: number; from: number; to: number };

export interface ChildStats {
  type: 'stats';
  id: number;
  /** performance.now() of the child when sampled (ms). */
  at: number;
  cpuUserUs: number;
  cpuSystemUs: number;
  rss: number;
  heapUsed: number;
  eluActive: number;
  eluIdle: number;
  /** Event-loop delay since the last `mark` (ms). */
  loopDelayP99: number;
  loopDelayMax: number;
}

export type ChildMessage =
  | { type: 'ready'; port: number }
  | ChildStats
  /** Ticks emitted with `time` in [from, to), and ticks scheduled in that range but dropped as overdue. */
  | { type: 'ticks'; id: number; emitted: number; dropped: number; rejected: number; lagP50: number; lagP99: number; lagMax: number };

/**
 * Emits ticks on a fixed schedule: tick k (symbol k mod 20) is due at start + k × 5 ms. A 5 ms timer
 * catches up on whatever is due (for at most 100 ms per turn of the event loop, so a saturated
 * server still answers its parent), so a busy event loop delays ticks — the delay is recorded as tick
 * lag — but does not lose them unless it is more than a second behind. A tick's `time` is when it is
 * handed to the server, so tick lag is not part of the tick-to-client latency the clients measure.
 * Prices take a small random walk at each symbol's digits.
 */
class Ticker {
  private next = 0;
  private startedAt = 0;
  private startedEpoch = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly prices = BENCH_SYMBOLS.map((s) => s.price);
  readonly emittedAt: number[] = [];
  /** How late each emitted tick was against its schedule (ms): time spent waiting for the event loop. */
  readonly lagMs: number[] = [];
  readonly droppedAt: number[] = [];
  rejected = 0;

  constructor(private readonly emit: (tick: BenchTick) => boolean) {}

  start(): void {
    if (this.timer) return;
    this.startedAt = performance.now();
    this.startedEpoch = Date.now();
    this.timer = setInterval(() => this.pump(), 5);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private pump(): void {
    const slotMs = 1000 / TICKS_PER_SECOND;
    const due = Math.floor((performance.now() - this.startedAt) / slotMs) + 1;
    if (due - this.next > MAX_BACKLOG_TICKS) {
      const keepFrom = due - MAX_BACKLOG_TICKS;
      for (let k = this.next; k < keepFrom; k++) this.droppedAt.push(this.startedEpoch + k * slotMs);
      this.next = keepFrom;
    }
    // A saturated server still answers its parent: one pump emits for at most 100 ms, the rest comes next time.
    const pumpStarted = performance.now();
    while (this.next < due && performance.now() - pumpStarted < 100) {
      const i = this.next % BENCH_SYMBOLS.length;
      const s = BENCH_SYMBOLS[i]!;
      const factor = 10 ** s.digits;
      const price = (this.prices[i] = (this.prices[i] as number) * (1 + (Math.random() - 0.5) * 2e-4));
      const bid = Math.round(price * factor) / factor;
      const ask = Math.round((price + s.spread) * factor) / factor;
      const time = Date.now();
      if (!this.emit({ symbol: s.symbol, bid, ask, time })) this.rejected += 1;
      this.emittedAt.push(time);
      this.lagMs.push(performance.now() - this.startedAt - this.next * slotMs);
      this.next += 1;
    }
  }
}

const countIn = (times: number[], from: number, to: number) => times.reduce((n, t) => (t >= from && t < to ? n + 1 : n), 0);

function quantile(sorted: number[], q: number): number {
  return sorted.length === 0 ? Number.NaN : (sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] as number);
}

/**
 * Wires a benchmark server to its parent: reports `ready` with the port, starts the ticks on
 * request, answers stats and tick-count requests, and exits when the parent goes away (or after
 * CHILD_LIFETIME_MS at the latest).
 */
export function runBenchChild(port: number, emit: (tick: BenchTick) => boolean, shutdown: () => Promise<void>): void {
  const send = (m: ChildMessage) => process.send?.(m);
  const ticker = new Ticker(emit);
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    ticker.stop();
    await Promise.race([shutdown().catch(() => undefined), new Promise((r) => setTimeout(r, 2000))]);
    process.exit(0);
  };
  process.on('message', (raw) => {
    const m = raw as ParentMessage;
    if (m.type === 'start') ticker.start();
    else if (m.type === 'mark') loopDelay.reset();
    else if (m.type === 'stats') {
      const cpu = process.cpuUsage();
      const mem = process.memoryUsage();
      const elu = performance.eventLoopUtilization();
      send({ type: 'stats', id: m.id, at: performance.now(), cpuUserUs: cpu.user, cpuSystemUs: cpu.system, rss: mem.rss, heapUsed: mem.heapUsed, eluActive: elu.active, eluIdle: elu.idle, loopDelayP99: loopDelay.percentile(99) / 1e6, loopDelayMax: loopDelay.max / 1e6 });
    } else if (m.type === 'ticks') {
      const lags = ticker.lagMs.filter((_, i) => (ticker.emittedAt[i] as number) >= m.from && (ticker.emittedAt[i] as number) < m.to).sort((a, b) => a - b);
      send({
        type: 'ticks',
        id: m.id,
        emitted: countIn(ticker.emittedAt, m.from, m.to),
        dropped: countIn(ticker.droppedAt, m.from, m.to),
        rejected: ticker.rejected,
        lagP50: quantile(lags, 0.5),
        lagP99: quantile(lags, 0.99),
        lagMax: lags.at(-1) ?? Number.NaN,
      });
    }
  });
  process.on('disconnect', () => void stop());
  process.on('SIGTERM', () => void stop());
  setTimeout(() => void stop(), CHILD_LIFETIME_MS).unref();
  send({ type: 'ready', port });
}
