import { instrumentGroup } from '@tradeport/contracts';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { DatabaseObserver } from './storage/timed-connections';

/**
 * The server's Prometheus metrics (docs/operations.md, "Metrics"), in one registry per app, so
 * the apps a test starts in one process count apart. Whatever is a state (stream clients, quote
 * ages, the engine lead) is read when Prometheus scrapes, through the plain callbacks the app hands
 * over (`follow`, `followStream`); whatever is an event is counted where it happens, once: order
 * calls by the wrapper the order calls' handlers run in (transport/http/order-calls.ts), closes by
 * the engine after their commit (`positionClosed`), HTTP requests by the metrics plugin's response
 * hook, database waits by the database handle (`database`). Automatic closes and fills are also
 * logged here, one line each, since this is where they are timed.
 *
 * It imports nothing of the server but the database handle's observer type: the parts above feed
 * it, so it never depends on the engine, the cluster or the routes it counts.
 *
 * Without METRICS_TOKEN nothing can read them: the process metrics, the HTTP hook and the
 * database timing are then off, and what is left costs a counter increment per order or close.
 */

export const ORDER_KINDS = ['market', 'pending', 'modify', 'cancel', 'close'] as const;
/** market: addTrades; pending: addPendingOrder; modify: a position's SL/TP or a pending order's levels; cancel: a pending order; close: a trader's or an administrator's. */
export type OrderKind = (typeof ORDER_KINDS)[number];
export const ORDER_OUTCOMES = ['accepted', 'refused', 'unavailable', 'failed'] as const;
/** refused: a 4xx refusal, nothing done; unavailable: the engine was moving to another instance (503, retryable); failed: anything else (5xx). */
export type OrderOutcome = (typeof ORDER_OUTCOMES)[number];
/** Why a position was closed: the engine's `CloseReason` (trading/types.ts), one series each. */
export const CLOSE_REASONS = ['manual', 'sl', 'tp', 'stop-out', 'admin'] as const;
export type ClosedBy = (typeof CLOSE_REASONS)[number];

/** Seconds: an order or request takes a few milliseconds; the top buckets catch a database in trouble. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds: statements and connection hand-overs take microseconds when all is well. */
const DATABASE_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The slice of a logger the metrics write through (pino's shape). */
export interface MetricsLog {
  info(obj: object, msg: string): void;
}

/** The slice of the quote book the quote gauges read (market/quote-book.ts has this shape). */
export interface QuoteSource {
  readonly instruments: ReadonlyMap<string, { readonly symbol: string; readonly group: string }>;
  get(symbol: string): { readonly time: number } | undefined;
  isOpen(symbol: string, time: number): boolean;
}

/** What the scrape-time gauges read: this instance's quote book, and whether it leads the engine. */
export interface MetricsSources {
  book: QuoteSource;
  role: () => 'leader' | 'follower';
}

/**
 * The process's own metrics (CPU, memory, event loop, garbage collection, handles): one set per
 * process, however many apps it runs, since they describe the process. prom-client's collectors
 * of them cannot be stopped (the garbage collection observer, the event loop histogram), so they
 * are made once, by the first app that serves metrics, and shared.
 */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

export class Metrics {
  /** METRICS_TOKEN is set: `/metrics` is served, and everything is collected. */
  readonly enabled: boolean;
  readonly contentType = Registry.PROMETHEUS_CONTENT_TYPE;
  private readonly registry = new Registry();
  private readonly registers = [this.registry];
  private sources: MetricsSources | null = null;
  private streamClientCount: (() => number) | null = null;

  private readonly orders = new Counter({ name: 'tradeport_orders_total', help: 'Order calls that reached the trading engine (market, pending, modify, cancel, close), by outcome.', labelNames: ['kind', 'outcome'] as const, registers: this.registers });
  private readonly orderSeconds = new Histogram({ name: 'tradeport_order_duration_seconds', help: 'Accepted order calls, from the request received to the change committed.', labelNames: ['kind'] as const, buckets: LATENCY_BUCKETS, registers: this.registers });
  private readonly closes = new Counter({ name: 'tradeport_closes_total', help: 'Positions closed (committed), by reason: manual, sl, tp, stop-out, admin.', labelNames: ['reason'] as const, registers: this.registers });
  private readonly streamClients: Gauge = new Gauge({ name: 'tradeport_stream_clients', help: 'WebSocket stream clients connected to this instance.', registers: this.registers, collect: () => this.streamClients.set(this.streamClientCount?.() ?? 0) });
  private readonly quoteAge: Gauge<'group'> = new Gauge({ name: 'tradeport_quote_age_seconds', help: "Seconds since the newest quote of each instrument group in this instance's quote book (+Inf: none yet).", labelNames: ['group'] as const, registers: this.registers, collect: () => this.setByGroup(this.quoteAge, (g, now) => Math.max(0, now - g.newest) / 1000) });
  private readonly marketOpen: Gauge<'group'> = new Gauge({ name: 'tradeport_market_open', help: 'Whether any instrument of the group is in its trading session now (1) or none is (0).', labelNames: ['group'] as const, registers: this.registers, collect: () => this.setByGroup(this.marketOpen, (g) => (g.open ? 1 : 0)) });
  private readonly leader: Gauge = new Gauge({ name: 'tradeport_engine_leader', help: '1 on the instance running the trading engine and the feeds, 0 on the others.', registers: this.registers, collect: () => this.leader.set(this.sources?.role() === 'leader' ? 1 : 0) });
  private readonly connectionWaits = new Histogram({ name: 'tradeport_db_connection_wait_seconds', help: 'Waits for a database connection (SQLite: its one connection; PostgreSQL: the pool).', buckets: DATABASE_BUCKETS, registers: this.registers });
  private readonly querySeconds = new Histogram({ name: 'tradeport_db_query_duration_seconds', help: 'Database statements, as long as each took to run.', buckets: DATABASE_BUCKETS, registers: this.registers });
  private readonly httpRequests = new Counter({ name: 'tradeport_http_requests_total', help: 'HTTP requests answered, by method, route pattern and status code.', labelNames: ['method', 'route', 'status_code'] as const, registers: this.registers });
  private readonly httpSeconds = new Histogram({ name: 'tradeport_http_request_duration_seconds', help: 'HTTP requests, from received to answered, by method and route pattern.', labelNames: ['method', 'route'] as const, buckets: LATENCY_BUCKETS, registers: this.registers });

  constructor(
    token: string | null,
    private readonly now: () => number,
    private readonly log: MetricsLog,
  ) {
    this.enabled = token !== null;
    if (this.enabled) processMetrics();
    // Every series that can exist is there from the start (at 0), so rates and alerts see a series before its first event.
    for (const kind of ORDER_KINDS) {
      this.orderSeconds.zero({ kind });
      for (const outcome of ORDER_OUTCOMES) this.orders.inc({ kind, outcome }, 0);
    }
    for (const reason of CLOSE_REASONS) this.closes.inc({ reason }, 0);
  }

  /**
   * Sets a gauge per instrument group of the catalogue, in the contracts' order (the same every
   * scrape), from the newest quote time of the group's instruments in the book (-Infinity when
   * none has one, so its age is +Inf) and whether any of them is in its session now.
   */
  private setByGroup(gauge: Gauge<'group'>, value: (group: { newest: number; open: boolean }, now: number) => number): void {
    gauge.reset();
    const book = this.sources?.book;
    if (!book) return;
    const now = this.now();
    const groups = new Map<string, { newest: number; open: boolean }>();
    for (const instrument of book.instruments.values()) {
      const group = groups.get(instrument.group) ?? { newest: -Infinity, open: false };
      group.newest = Math.max(group.newest, book.get(instrument.symbol)?.time ?? -Infinity);
      group.open ||= book.isOpen(instrument.symbol, now);
      groups.set(instrument.group, group);
    }
    for (const name of instrumentGroup.options) {
      const group = groups.get(name);
      if (group) gauge.set({ group: name }, value(group, now));
    }
  }

  /** The parts whose state the gauges read (once the app has built them). */
  follow(sources: MetricsSources): void {
    this.sources = sources;
  }

  /** How many stream clients are connected (the stream hub's count). */
  followStream(count: () => number): void {
    this.streamClientCount = count;
  }

  /**
   * An order call carried out here (transport/http/order-calls.ts): counted by kind and outcome,
   * and an accepted one's time from the request received to its commit in the histogram.
   */
  orderCall(kind: OrderKind, outcome: OrderOutcome, seconds: number): void {
    this.orders.inc({ kind, outcome });
    if (outcome === 'accepted') this.orderSeconds.observe({ kind }, seconds);
  }

  /**
   * A position's close, committed. Closes the engine makes by itself (SL, TP, stop-out) are logged
   * here with the time since `since` (the tick that reached the level, or the start of the
   * stop-out's close); a trader's or an administrator's close is an order call and logged as one.
   */
  positionClosed(p: { id: number; userId: number; symbol: string }, reason: ClosedBy, since: number): void {
    this.closes.inc({ reason });
    if (reason === 'manual' || reason === 'admin') return;
    this.log.info({ close: reason, ticket: p.id, userId: p.userId, symbol: p.symbol, ms: Math.max(0, this.now() - since) }, `position closed by ${reason}`);
  }

  /** A pending order filled by a tick (committed): logged with the time since that tick. */
  pendingFilled(o: { id: number; userId: number; symbol: string }, ticket: number, since: number): void {
    this.log.info({ fill: 'pending', orderId: o.id, ticket, userId: o.userId, symbol: o.symbol, ms: Math.max(0, this.now() - since) }, 'pending order filled');
  }

  /** An HTTP request answered: `route` is the route's pattern, never the URL asked for. */
  httpRequest(method: string, route: string, statusCode: number, seconds: number): void {
    this.httpRequests.inc({ method, route, status_code: statusCode });
    this.httpSeconds.observe({ method, route }, seconds);
  }

  /** What the database handle reports to, while metrics are served (undefined: it times nothing). */
  get database(): DatabaseObserver | undefined {
    if (!this.enabled) return undefined;
    return {
      connectionWait: (seconds) => this.connectionWaits.observe(seconds),
      query: (seconds) => this.querySeconds.observe(seconds),
    };
  }

  /** The scrape: this app's metrics and the process's, in Prometheus's text format. */
  async text(): Promise<string> {
    // Two expositions one after the other are one: each family is whole in one of them.
    return `${await processMetrics().metrics()}\n${await this.registry.metrics()}`;
  }
}
