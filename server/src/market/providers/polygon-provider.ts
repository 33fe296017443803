import { z } from 'zod';
import type { Instrument } from '../../domain/instruments';
import type { FeedProvider, TickSink } from '../types';
import { ReconnectingSocket, type BackoffOptions, type ConnectionStatus, type ProviderLog } from './reconnecting-socket';

export interface PolygonProviderOptions {
  /** Forex and Metals instruments with `feeds.polygon` go to the forex cluster, Stocks to the stocks cluster. */
  instruments: Instrument[];
  /** Sent only inside the auth message: never in a url, a log line or status. */
  apiKey: string;
  baseUrl?: string;
  backoff?: BackoffOptions;
  idleTimeoutMs?: number;
  connectTimeoutMs?: number;
  log?: ProviderLog;
}

export const POLYGON_DEFAULT_BASE_URL = 'wss://socket.polygon.io';

/** Status events a connection can end on: the provider refused us, retrying soon will not help. */
const REFUSALS = new Set(['auth_failed', 'max_connections']);

const statusEvent = z.object({ ev: z.literal('status'), status: z.string(), message: z.string().optional() });
const time = z.number().int().nonnegative().optional();
/** Forex (and metals) quote: pair, bid, ask, exchange id, time in ms. */
const forexQuote = z.object({ ev: z.literal('C'), p: z.string(), b: z.number(), a: z.number(), t: time });
/** Stock NBBO quote: symbol, bid price, ask price, time in ms (sizes and exchanges are not needed). */
const stockQuote = z.object({ ev: z.literal('Q'), sym: z.string(), bp: z.number(), ap: z.number(), t: time });

interface Cluster {
  name: 'forex' | 'stocks';
  /** Subscription channel per symbol: C for currency quotes, Q for stock quotes. */
  channel: 'C' | 'Q';
  /** Provider name (EUR/USD, AAPL) → our symbol. */
  symbols: ReadonlyMap<string, string>;
  /** Reads one data event into a tick, or null when the event is not a quote of this cluster. */
  read(event: unknown): { name: string; bid: number; ask: number; time: number | undefined } | null;
  socket: ReconnectingSocket;
}

/**
 * Forex, metals and stock quotes from a Polygon-style websocket. Polygon serves each asset class
 * from its own cluster, so this keeps one connection per cluster that has instruments. On each
 * connection it authenticates with the key, subscribes to its instruments' quotes once the server
 * confirms, and passes the provider's own time with every tick.
 */
export class PolygonProvider implements FeedProvider {
  readonly name = 'polygon';
  private readonly clusters: Cluster[] = [];
  private sink: TickSink | null = null;

  constructor(private readonly options: PolygonProviderOptions) {
    if (!options.apiKey) throw new Error('The polygon feed needs an API key.');
    const baseUrl = (options.baseUrl ?? POLYGON_DEFAULT_BASE_URL).replace(/\/+$/, '');
    const forex = new Map<string, string>();
    const stocks = new Map<string, string>();
    for (const instrument of options.instruments) {
      const name = instrument.feeds.polygon;
      if (!name) continue;
      if (instrument.group === 'Forex' || instrument.group === 'Metals') forex.set(name, instrument.symbol);
      else if (instrument.group === 'Stocks') stocks.set(name, instrument.symbol);
    }
    if (forex.size > 0) {
      this.addCluster(baseUrl, 'forex', 'C', forex, (event) => {
        const q = forexQuote.safeParse(event);
        return q.success ? { name: q.data.p, bid: q.data.b, ask: q.data.a, time: q.data.t } : null;
      });
    }
    if (stocks.size > 0) {
      this.addCluster(baseUrl, 'stocks', 'Q', stocks, (event) => {
        const q = stockQuote.safeParse(event);
        return q.success ? { name: q.data.sym, bid: q.data.bp, ask: q.data.ap, time: q.data.t } : null;
      });
    }
  }

  start(sink: TickSink): void {
    this.sink = sink;
    if (this.clusters.length === 0) this.options.log?.warn({}, 'polygon feed has no instruments with feeds.polygon; nothing to subscribe');
    for (const cluster of this.clusters) cluster.socket.start();
  }

  async stop(): Promise<void> {
    await Promise.all(this.clusters.map((c) => c.socket.stop()));
  }

  status(): ConnectionStatus[] {
    return this.clusters.map((c) => c.socket.status());
  }

  private addCluster(baseUrl: string, name: Cluster['name'], channel: Cluster['channel'], symbols: Map<string, string>, read: Cluster['read']): void {
    const socket = new ReconnectingSocket({
      url: `${baseUrl}/${name}`,
      // Polygon's own client authenticates as soon as the socket opens rather than waiting for
      // the "connected" status; the server accepts either.
      onOpen: (send) => send(JSON.stringify({ action: 'auth', params: this.options.apiKey })),
      onMessage: (text) => this.handle(cluster, text),
      backoff: this.options.backoff,
      idleTimeoutMs: this.options.idleTimeoutMs,
      connectTimeoutMs: this.options.connectTimeoutMs,
      log: this.options.log,
    });
    const cluster: Cluster = { name, channel, symbols, read, socket };
    this.clusters.push(cluster);
  }

  private handle(cluster: Cluster, text: string): void {
    const { socket } = cluster;
    let events: unknown;
    try {
      events = JSON.parse(text);
    } catch {
      socket.noteMalformed({ problem: 'not JSON', excerpt: this.redact(text.slice(0, 200)) });
      return;
    }
    if (!Array.isArray(events)) {
      socket.noteMalformed({ problem: 'not an array of events', excerpt: this.redact(text.slice(0, 200)) });
      return;
    }
    for (const event of events) {
      const status = statusEvent.safeParse(event);
      if (status.success) {
        this.handleStatus(cluster, status.data.status, status.data.message);
        // A refusal ends this connection; whatever follows in the message belongs to it.
        if (REFUSALS.has(status.data.status)) return;
        continue;
      }
      const quote = cluster.read(event);
      if (!quote) {
        socket.noteMalformed({ problem: `not a ${cluster.channel} quote`, excerpt: this.redact(JSON.stringify(event).slice(0, 200)) });
        continue;
      }
      const symbol = cluster.symbols.get(quote.name);
      if (!symbol || !this.sink) continue;
      const result = this.sink.ingest({ symbol, bid: quote.bid, ask: quote.ask, time: quote.time }, this.name);
      if (result.ok) socket.noteHealthy();
      else socket.noteRejected({ symbol, reason: result.reason });
    }
  }

  private handleStatus(cluster: Cluster, status: string, message: string | undefined): void {
    const detail = { url: cluster.socket.url, status, message: message === undefined ? undefined : this.redact(message) };
    if (status === 'auth_success') {
      const params = [...cluster.symbols.keys()].map((name) => `${cluster.channel}.${name}`).join(',');
      cluster.socket.send(JSON.stringify({ action: 'subscribe', params }));
      this.options.log?.info(detail, 'polygon feed authenticated; subscribing');
    } else if (REFUSALS.has(status)) {
      this.options.log?.warn(detail, 'polygon feed refused the connection; retrying after the longest backoff');
      cluster.socket.restart(`polygon ${status}`, 'max');
    } else {
      this.options.log?.info(detail, 'polygon feed status');
    }
  }

  /** Belt and braces: a provider message that echoes the key must not carry it into our logs. */
  private redact(text: string): string {
    return text.split(this.options.apiKey).join('***');
  }
}
