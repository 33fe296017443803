import { z } from 'zod';
import type { Instrument } from '../../domain/instruments';
import type { FeedProvider, TickSink } from '../types';
import { ReconnectingSocket, type BackoffOptions, type ConnectionStatus, type ProviderLog } from './reconnecting-socket';

export interface BinanceProviderOptions {
  /** Instruments with `feeds.binance` set are subscribed; the rest are left to other providers. */
  instruments: Instrument[];
  baseUrl?: string;
  backoff?: BackoffOptions;
  idleTimeoutMs?: number;
  connectTimeoutMs?: number;
  log?: ProviderLog;
}

export const BINANCE_DEFAULT_BASE_URL = 'wss://stream.binance.com:9443';

/** Binance sends prices as decimal strings ("25.35190000"); anything else is not a price. */
const decimal = z.string().regex(/^\d{1,20}(\.\d{1,20})?$/).transform(Number);

/** A combined-stream book-ticker message: best bid and ask, no event time. */
const bookTickerMessage = z.object({
  stream: z.string(),
  data: z.object({ s: z.string(), b: decimal, a: decimal }),
});

/**
 * Best bid/ask for crypto from Binance's public combined book-ticker stream (no key needed): one
 * connection carrying one stream per instrument. Binance gives no event time on this stream, so
 * the quote book stamps each tick with its own clock.
 */
export class BinanceProvider implements FeedProvider {
  readonly name = 'binance';
  private readonly symbols: ReadonlyMap<string, string>;
  private readonly socket: ReconnectingSocket | null;
  private sink: TickSink | null = null;

  constructor(private readonly options: BinanceProviderOptions) {
    this.symbols = new Map(options.instruments.flatMap((i) => (i.feeds.binance ? [[i.feeds.binance.toUpperCase(), i.symbol] as const] : [])));
    const streams = [...this.symbols.keys()].map((s) => `${s.toLowerCase()}@bookTicker`);
    const baseUrl = (options.baseUrl ?? BINANCE_DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.socket = streams.length === 0 ? null : new ReconnectingSocket({
      url: `${baseUrl}/stream?streams=${streams.join('/')}`,
      onMessage: (text) => this.handle(text),
      backoff: options.backoff,
      idleTimeoutMs: options.idleTimeoutMs,
      connectTimeoutMs: options.connectTimeoutMs,
      log: options.log,
    });
  }

  start(sink: TickSink): void {
    this.sink = sink;
    if (!this.socket) {
      this.options.log?.warn({}, 'binance feed has no instruments with feeds.binance; nothing to subscribe');
      return;
    }
    this.socket.start();
  }

  async stop(): Promise<void> {
    await this.socket?.stop();
  }

  status(): ConnectionStatus[] {
    return this.socket ? [this.socket.status()] : [];
  }

  private handle(text: string): void {
    const socket = this.socket as ReconnectingSocket;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      socket.noteMalformed({ problem: 'not JSON', excerpt: text.slice(0, 200) });
      return;
    }
    const parsed = bookTickerMessage.safeParse(json);
    if (!parsed.success) {
      socket.noteMalformed({ problem: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '), excerpt: text.slice(0, 200) });
      return;
    }
    const { s, b, a } = parsed.data.data;
    const symbol = this.symbols.get(s.toUpperCase());
    if (!symbol || !this.sink) return;
    const result = this.sink.ingest({ symbol, bid: b, ask: a }, this.name);
    if (result.ok) socket.noteHealthy();
    else socket.noteRejected({ symbol, reason: result.reason });
  }
}
