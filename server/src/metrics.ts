import { calls, instrumentGroup, type CallDefinition } from '@tradeport/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { MarketData } from './market/market-data';
import { Refusal } from './services/errors';
import type { DatabaseObserver } from './storage/timed-connections';
import { EngineUnavailable } from './trading/engine-state';
import type { CloseReason, TradingEngine } from './trading/engine';
import type { CallHandler, CallInput } from './transport/http/call-route';

/**
 * The server's Prometheus metrics (docs/operations.md, "Metrics"), in one registry per app, so
 * the apps a test starts in one process count apart. Whatever is a state (stream clients, quote
 * ages, the engine lead) is read when Prometheus scrapes, from the part that holds it; whatever is
 * an event is counted where it happens, once: order calls by `instrumentCall` (call-route.ts
 * wraps each order call's handler with it), closes by the engine after their commit
 * (`positionClosed`), HTTP requests by the metrics plugin's response hook, database waits by the
 * database handle (`database`). Order calls and automatic closes are also logged here, one line
 * each, since this is where they are timed.
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
const CLOSE_REASONS: readonly CloseReason[] = ['manual', 'sl', 'tp', 'stop-out', 'admin'];

/** Seconds: an order or request takes a few milliseconds; the top buckets catch a database in trouble. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds: statements and connection hand-overs take microseconds when all is well. */
const DATABASE_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** What an order's log line names. */
interface OrderFacts {
  /** The account's owner (for an administrator's close, the trader; `by` is the administrator). */
  userId: number;
  symbol: string | null;
  /** The position's ticket (market orders: once opened). */
  ticket?: number;
  /** The pending order's number (placed orders: once placed). */
  orderId?: number;
  by?: number;
}

interface OrderCall<C extends CallDefinition> {
  kind: OrderKind;
  /** What is known before the call runs (a position or order it names is still in the engine then). */
  before(input: CallInput<C>, engine: TradingEngine | null): OrderFacts;
  /** What its answer adds: the new ticket or order number. */
  after?(answer: unknown): Partial<OrderFacts>;
}

const orderCall = <C extends CallDefinition>(call: C, how: OrderCall<C>): [CallDefinition, OrderCall<CallDefinition>] => [call, how as unknown as OrderCall<CallDefinition>];
const numberIn = (answer: unknown, key: string): number | undefined => {
  const value = typeof answer === 'object' && answer !== null ? (answer as Record<string, unknown>)[key] : undefined;
  return typeof value === 'number' ? value : undefined;
};

/** The calls that place, change, cancel or close orders, and what each one's log line names. */
const ORDER_CALLS = new Map<CallDefinition, OrderCall<CallDefinition>>([
  orderCall(calls.addTrades, { kind: 'market', before: ({ body, actor }) => ({ userId: actor.userId, symbol: body.fullSymbol }), after: (answer) => ({ ticket: numberIn(answer, 'ticket') }) }),
  orderCall(calls.addPendingOrder, { kind: 'pending', before: ({ body, actor }) => ({ userId: actor.userId, symbol: body.fullSymbol }), after: (answer) => ({ orderId: numberIn(answer, 'orderId') }) }),
  orderCall(calls.modifyTrades, { kind: 'modify', before: ({ body, actor }, engine) => ({ userId: actor.userId, ticket: body.ticket, symbol: engine?.get(body.ticket)?.symbol ?? null }) }),
  orderCall(calls.modifyPendingOrder, { kind: 'modify', before: ({ body, actor }, engine) => ({ userId: actor.userId, orderId: body.orderId, symbol: engine?.pendingOrder(body.orderId)?.symbol ?? null }) }),
  orderCall(calls.cancelPendingOrder, { kind: 'cancel', before: ({ body, actor }, engine) => ({ userId: actor.userId, orderId: body.orderId, symbol: engine?.pendingOrder(body.orderId)?.symbol ?? null }) }),
  orderCall(calls.updateTrades, { kind: 'close', before: ({ body, actor }, engine) => ({ userId: actor.userId, ticket: body.ticket, symbol: engine?.get(body.ticket)?.symbol ?? null }) }),
  orderCall(calls.editStatusTrades, { kind: 'close', before: ({ body, actor }, engine) => ({ userId: body.traders_id, by: actor.userId, ticket: body.ticket, symbol: engine?.get(body.ticket)?.symbol ?? null }) }),
]);

function outcomeOf(err: unknown): OrderOutcome {
  if (err instanceof Refusal) return 'refused';
  if (err instanceof EngineUnavailable) return 'unavailable';
  return 'failed';
}

/** The slice of a logger the metrics write through (pino's shape). */
export interface MetricsLog {
  info(obj: object, msg: string): void;
}

/** What the scrape-time gauges read. */
export interface MetricsSources {
  market: MarketData;
  trading: TradingEngine;
  cluster: { readonly role: 'leader' | 'follower' };
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
  private readonly leader: Gauge = new Gauge({ name: 'tradeport_engine_leader', help: '1 on the instance running the trading engine and the feeds, 0 on the others.', registers: this.registers, collect: () => this.leader.set(this.sources?.cluster.role === 'leader' ? 1 : 0) });
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
    const book = this.sources?.market.book;
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
   * An order call's handler, counted, timed from the request received to its commit (accepted
   * calls), and logged with its ticket, user, symbol and time; any other call's handler as it is.
   * It runs on the instance that carries the call out, so a call a follower forwards to the engine
   * leader is counted once, there. Calls refused before they reach it (not signed in, over the rate
   * limit, a malformed body) show in the HTTP metrics only.
   */
  instrumentCall<C extends CallDefinition>(call: C, handler: CallHandler<C>): CallHandler<C> {
    const how = ORDER_CALLS.get(call);
    if (!how) return handler;
    return async (input) => {
      const facts = how.before(input as CallInput<CallDefinition>, this.sources?.trading ?? null);
      try {
        const answer = await handler(input);
        this.orderDone(input, how.kind, 'accepted', { ...facts, ...how.after?.(answer) }, null);
        return answer;
      } catch (err) {
        this.orderDone(input, how.kind, outcomeOf(err), facts, err);
        throw err;
      }
    };
  }

  private orderDone(input: { request: FastifyRequest; reply: FastifyReply }, kind: OrderKind, outcome: OrderOutcome, facts: OrderFacts, err: unknown): void {
    const ms = input.reply.elapsedTime;
    this.orders.inc({ kind, outcome });
    if (outcome === 'accepted') this.orderSeconds.observe({ kind }, ms / 1000);
    // A refusal's message is written for the trader and names nothing secret; other errors are logged in full by the error handler.
    const reason = err instanceof Refusal || err instanceof EngineUnavailable ? err.message : undefined;
    input.request.log.info({ order: kind, outcome, ...facts, ms: Math.round(ms * 100) / 100, reason }, `order ${outcome}`);
  }

  /**
   * A position's close, committed. Closes the engine makes by itself (SL, TP, stop-out) are logged
   * here with the time since `since` (the tick that reached the level, or the start of the
   * stop-out's close); a trader's or an administrator's close is an order call and logged as one.
   */
  positionClosed(p: { id: number; userId: number; symbol: string }, reason: CloseReason, since: number): void {
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
