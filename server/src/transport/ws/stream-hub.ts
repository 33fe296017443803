import { clientMessage, MAX_STREAM_SYMBOLS, type AccountEvent, type PeriodName, type Quote } from '@tradeport/contracts';
import type { WebSocket } from 'ws';
import type { EventBus } from '../../bus/event-bus';
import type { Candle, Period } from '../../domain/candles';
import type { MarketData } from '../../market/market-data';

/**
 * The fan-out behind `/api/stream`. Ticks never write to sockets directly: each tick replaces the
 * pending quote of its symbol for every subscribed client (latest wins) and marks the client dirty;
 * once per frame every dirty client gets one message carrying all its changed quotes. A client that
 * reads slowly (its socket buffer above `maxBufferedBytes`) is skipped for that frame and keeps only
 * the latest quote per symbol, so its memory is bounded by its subscriptions, never by the tick rate.
 * Account events go only to the sockets of the user they are addressed to.
 */
export interface HubOptions {
  frameMs: number;
  heartbeatMs: number;
  /** How often each connection's session is checked (and counted as activity). */
  sessionCheckMs: number;
  maxBufferedBytes: number;
  now: () => number;
  /** Is this session still valid? Called periodically and after account events. */
  sessionValid: (token: string) => Promise<boolean>;
}

interface Client {
  socket: WebSocket;
  userId: number;
  token: string;
  seq: number;
  symbols: Set<string>;
  candleKeys: Set<string>;
  pendingQuotes: Map<string, string>;
  pendingCandles: Map<string, string>;
  alive: boolean;
  messagesThisSecond: number;
}

const OPEN = 1;
/** Client messages per second above which a connection is closed as abusive. */
const MAX_CLIENT_MESSAGES_PER_SECOND = 50;
const candleKey = (symbol: string, period: string) => `${symbol}|${period}`;

export class StreamHub {
  private readonly clients = new Set<Client>();
  private readonly bySymbol = new Map<string, Set<Client>>();
  private readonly byCandle = new Map<string, Set<Client>>();
  private readonly byUser = new Map<number, Set<Client>>();
  private readonly dirty = new Set<Client>();
  /** Last open/stale flags sent per symbol, so a market opening or going stale is pushed too. */
  private readonly lastFlags = new Map<string, string>();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly unsubscribers: (() => void)[] = [];

  constructor(
    private readonly market: MarketData,
    bus: EventBus,
    private readonly options: HubOptions,
  ) {
    this.unsubscribers.push(market.book.onQuote((q) => this.quoteChanged(q.symbol)));
    this.unsubscribers.push(market.candles.onCandle((symbol, period, candle) => this.candleChanged(symbol, period, candle)));
    this.unsubscribers.push(bus.subscribe((event) => this.accountEvent(event)));
    this.every(options.frameMs, () => this.flush());
    this.every(1000, () => this.sweepFlags());
    this.every(1000, () => this.clients.forEach((c) => (c.messagesThisSecond = 0)));
    this.every(options.heartbeatMs, () => this.heartbeat());
    this.every(options.sessionCheckMs, () => void this.checkSessions());
  }

  private every(ms: number, fn: () => void): void {
    const t = setInterval(fn, ms);
    t.unref();
    this.timers.push(t);
  }

  get connectionCount(): number {
    return this.clients.size;
  }

  attach(socket: WebSocket, userId: number, token: string): void {
    const client: Client = { socket, userId, token, seq: 0, symbols: new Set(), candleKeys: new Set(), pendingQuotes: new Map(), pendingCandles: new Map(), alive: true, messagesThisSecond: 0 };
    this.clients.add(client);
    let forUser = this.byUser.get(userId);
    if (!forUser) this.byUser.set(userId, (forUser = new Set()));
    forUser.add(client);
    socket.on('pong', () => (client.alive = true));
    socket.on('message', (data, isBinary) => this.receive(client, isBinary ? null : data.toString()));
    socket.on('close', () => this.detach(client));
    socket.on('error', () => socket.terminate());
    this.send(client, (seq) => JSON.stringify({ type: 'hello', seq, userId, serverTime: this.options.now(), heartbeatMs: this.options.heartbeatMs }));
  }

  private detach(client: Client): void {
    this.clients.delete(client);
    this.dirty.delete(client);
    for (const s of client.symbols) this.bySymbol.get(s)?.delete(client);
    for (const k of client.candleKeys) this.byCandle.get(k)?.delete(client);
    this.byUser.get(client.userId)?.delete(client);
    if (this.byUser.get(client.userId)?.size === 0) this.byUser.delete(client.userId);
  }

  /**
   * Sends one message built with the client's next sequence number. Quotes wait while a client's
   * buffer is above `maxBufferedBytes` (see flush); anything else that would pile up beyond four
   * times that means the client is not reading at all, and the connection is dropped.
   */
  private send(client: Client, build: (seq: number) => string): void {
    if (client.socket.readyState !== OPEN) return;
    if (client.socket.bufferedAmount > this.options.maxBufferedBytes * 4) {
      client.socket.terminate();
      return;
    }
    client.seq += 1;
    client.socket.send(build(client.seq));
  }

  private error(client: Client, message: string): void {
    this.send(client, (seq) => JSON.stringify({ type: 'error', seq, message }));
  }

  private receive(client: Client, text: string | null): void {
    if (++client.messagesThisSecond > MAX_CLIENT_MESSAGES_PER_SECOND) {
      client.socket.close(1008, 'Too many messages');
      return;
    }
    let raw: unknown;
    try {
      raw = text === null ? undefined : JSON.parse(text);
    } catch {
      raw = undefined;
    }
    const parsed = clientMessage.safeParse(raw);
    if (!parsed.success) {
      this.error(client, 'Messages must be JSON: subscribe, unsubscribe, subscribeCandles, unsubscribeCandles or ping.');
      return;
    }
    const msg = parsed.data;
    switch (msg.type) {
      case 'subscribe': {
        const requested = [...new Set(msg.symbols)];
        const unknown = requested.filter((s) => !this.market.book.instruments.has(s));
        if (unknown.length > 0) return this.error(client, `Unknown symbol${unknown.length > 1 ? 's' : ''}: ${unknown.slice(0, 10).join(', ')}.`);
        const added = requested.filter((s) => !client.symbols.has(s));
        if (client.symbols.size + added.length > MAX_STREAM_SYMBOLS) return this.error(client, `At most ${MAX_STREAM_SYMBOLS} symbols per connection.`);
        for (const s of added) {
          client.symbols.add(s);
          let set = this.bySymbol.get(s);
          if (!set) this.bySymbol.set(s, (set = new Set()));
          set.add(client);
          client.pendingQuotes.delete(s);
        }
        // The snapshot answers with every requested symbol, so a resubscribe after a gap resyncs.
        const quotes = requested.map((s) => JSON.stringify(this.market.book.view(s)));
        this.send(client, (seq) => `{"type":"snapshot","seq":${seq},"quotes":[${quotes.join(',')}]}`);
        return;
      }
      case 'unsubscribe':
        for (const s of msg.symbols) {
          client.symbols.delete(s);
          client.pendingQuotes.delete(s);
          this.bySymbol.get(s)?.delete(client);
        }
        return;
      case 'subscribeCandles': {
        if (!this.market.book.instruments.has(msg.symbol)) return this.error(client, `Unknown symbol: ${msg.symbol}.`);
        const key = candleKey(msg.symbol, msg.period);
        if (!client.candleKeys.has(key) && client.candleKeys.size >= 20) return this.error(client, 'At most 20 candle series per connection.');
        client.candleKeys.add(key);
        let set = this.byCandle.get(key);
        if (!set) this.byCandle.set(key, (set = new Set()));
        set.add(client);
        const live = this.market.candles.live(msg.symbol, msg.period as Period);
        if (live) this.send(client, (seq) => this.candleMessage(seq, msg.symbol, msg.period, live));
        return;
      }
      case 'unsubscribeCandles': {
        const key = candleKey(msg.symbol, msg.period);
        client.candleKeys.delete(key);
        for (const pending of client.pendingCandles.keys()) if (pending.startsWith(`${key}|`)) client.pendingCandles.delete(pending);
        this.byCandle.get(key)?.delete(client);
        return;
      }
      case 'ping':
        this.send(client, (seq) => JSON.stringify({ type: 'pong', seq, time: this.options.now() }));
        return;
    }
  }

  private candleMessage(seq: number, symbol: string, period: PeriodName, candle: Candle): string {
    return JSON.stringify({ type: 'candle', seq, symbol, period, candle });
  }

  private quoteChanged(symbol: string, view: Quote = this.market.book.view(symbol)): void {
    this.lastFlags.set(symbol, `${view.open}|${view.stale}`);
    const subscribers = this.bySymbol.get(symbol);
    if (!subscribers || subscribers.size === 0) return;
    const fragment = JSON.stringify(view);
    for (const c of subscribers) {
      c.pendingQuotes.set(symbol, fragment);
      this.dirty.add(c);
    }
  }

  private candleChanged(symbol: string, period: Period, candle: Candle): void {
    const subscribers = this.byCandle.get(candleKey(symbol, period));
    if (!subscribers || subscribers.size === 0) return;
    const payload = JSON.stringify({ symbol, period, candle });
    // Pending candles are kept per bucket: when a bucket closes and the next opens within one
    // frame, the client still gets the closed candle in its final form, then the new one.
    const pendingKey = `${symbol}|${period}|${candle.time}`;
    for (const c of subscribers) {
      c.pendingCandles.set(pendingKey, payload);
      this.dirty.add(c);
    }
  }

  /** One message per dirty client per frame; slow readers are skipped and keep only the latest. */
  flush(): void {
    for (const c of this.dirty) {
      if (c.socket.readyState !== OPEN) {
        this.dirty.delete(c);
        continue;
      }
      if (c.socket.bufferedAmount > this.options.maxBufferedBytes) continue;
      if (c.pendingQuotes.size > 0) {
        const quotes = [...c.pendingQuotes.values()].join(',');
        c.pendingQuotes.clear();
        this.send(c, (seq) => `{"type":"quotes","seq":${seq},"quotes":[${quotes}]}`);
      }
      for (const payload of c.pendingCandles.values()) this.send(c, (seq) => `{"type":"candle","seq":${seq},${payload.slice(1)}`);
      c.pendingCandles.clear();
      this.dirty.delete(c);
    }
  }

  /** Pushes quotes whose open/stale flags changed with time alone (market opened, feed went quiet). */
  private sweepFlags(): void {
    for (const symbol of this.market.book.instruments.keys()) {
      const view = this.market.book.view(symbol);
      if (this.lastFlags.get(symbol) !== `${view.open}|${view.stale}`) this.quoteChanged(symbol, view);
    }
  }

  private heartbeat(): void {
    for (const c of this.clients) {
      if (!c.alive) {
        c.socket.terminate();
        continue;
      }
      c.alive = false;
      c.socket.ping();
      this.send(c, (seq) => JSON.stringify({ type: 'heartbeat', seq, time: this.options.now() }));
    }
  }

  private async checkSessions(userId?: number): Promise<void> {
    const targets = userId === undefined ? [...this.clients] : [...(this.byUser.get(userId) ?? [])];
    const verdicts = new Map<string, Promise<boolean>>();
    for (const c of targets) {
      let valid = verdicts.get(c.token);
      if (!valid) verdicts.set(c.token, (valid = this.options.sessionValid(c.token).catch(() => true)));
      if (!(await valid)) c.socket.close(4001, 'Session ended');
    }
  }

  private accountEvent(event: AccountEvent): void {
    if (event.type === 'account.sessionsRevoked') {
      void this.checkSessions(event.userId);
      return;
    }
    const payload = JSON.stringify(event);
    for (const c of this.byUser.get(event.userId) ?? []) this.send(c, (seq) => `{"type":"event","seq":${seq},"event":${payload}}`);
  }

  close(): void {
    this.timers.forEach(clearInterval);
    this.unsubscribers.forEach((u) => u());
    for (const c of this.clients) c.socket.close(1001, 'Server shutting down');
  }
}
