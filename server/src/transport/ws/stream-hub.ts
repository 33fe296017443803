import { clientMessage, holds, isAdminEvent, isInstanceEvent, MAX_STREAM_SYMBOLS, type AdminEvent, type BusEvent, type Quote, type ServerMessage, type StaffRole } from '@tradeport/contracts';
import { performance } from 'node:perf_hooks';
import type { WebSocket } from 'ws';
import type { EventBus } from '../../bus/event-bus';
import type { Candle, Period } from '../../domain/candles';
import type { MarketData } from '../../market/market-data';
import { OPEN, QuoteGroups, type Client, type CandleUpdate, type QuotesMessage } from './stream-groups';
import type { HubOptions } from './stream-options';
import { SessionChecks } from './stream-sessions';

/** Client messages per second above which a connection is closed as abusive. */
const MAX_CLIENT_MESSAGES_PER_SECOND = 50;
/** A message to send, before its `seq` is set. */
type Unsequenced = ServerMessage extends infer M ? (M extends { seq: number } ? Omit<M, 'seq'> : never) : never;
const candleKey = (symbol: string, period: string) => `${symbol}|${period}`;

/**
 * The fan-out behind `/api/stream`. Ticks never write to sockets directly: a tick only records its
 * symbol's latest quote for the current frame (latest wins). Once per frame, the quotes that changed
 * are picked out and encoded once for each "group" of clients that follow exactly the same
 * symbols, and each client is sent them in one message with its own `seq`. A client that reads slowly (its socket buffer above `maxBufferedBytes`) is skipped and keeps
 * only the latest quote per symbol in a map of its own, so its memory is bounded by its
 * subscriptions, never by the tick rate. Frames run on a fixed clock and heartbeats are spread over
 * time, so no single frame stalls. Account events go only to the sockets of their user; back-office
 * events only to administrators' sockets that asked for them (`subscribeAdmin`).
 */
export class StreamHub {
  private readonly clients = new Set<Client>();
  private readonly bySymbol = new Map<string, Set<Client>>();
  private readonly byCandle = new Map<string, Set<Client>>();
  private readonly byUser = new Map<number, Set<Client>>();
  /** Administrators' connections that receive back-office events. */
  private readonly adminClients = new Set<Client>();
  private readonly dirty = new Set<Client>();
  private readonly groups: QuoteGroups;
  /** The latest quote of every subscribed symbol that changed in this frame. */
  private frameQuotes = new Map<string, Quote>();
  private frameTimer: NodeJS.Timeout | null = null;
  /** Last open/stale flags sent per symbol, so a market opening or going stale is pushed too. */
  private readonly lastFlags = new Map<string, string>();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly unsubscribers: (() => void)[] = [];
  private readonly sessions: SessionChecks;

  constructor(
    private readonly market: MarketData,
    bus: EventBus,
    private readonly options: HubOptions,
  ) {
    this.groups = new QuoteGroups();
    this.sessions = new SessionChecks(options.sessionValid, options.sessionCheckDeadlineMs);
    this.unsubscribers.push(market.book.onQuote((q) => this.quoteChanged(q.symbol)));
    this.unsubscribers.push(market.candles.onCandle((symbol, period, candle) => this.candleChanged(symbol, period, candle)));
    this.unsubscribers.push(bus.subscribe((event) => this.accountEvent(event)));
    // A type's markups changed: every symbol goes out again at the new prices in the next frame.
    this.unsubscribers.push(market.typePrices.onChange(() => this.repriceAll()));
    this.scheduleFrames();
    this.every(1000, () => this.sweepFlags());
    this.every(Math.max(10, Math.min(1000, options.heartbeatMs / 4)), () => this.heartbeatDue());
    this.every(options.sessionCheckMs, () => this.sessions.round(this.clients));
  }

  /**
   * Frame k is due at start + k × frameMs, however long the previous one took. (setInterval counts
   * each interval from when its callback ran, so every late frame would push all later ones back
   * and the frame rate would sag under load.) A frame more than one slot late skips the missed slots.
   */
  private scheduleFrames(): void {
    const frameMs = this.options.frameMs;
    let due = performance.now() + frameMs;
    const run = () => {
      this.flush();
      const now = performance.now();
      due += frameMs;
      if (due < now) due += Math.ceil((now - due) / frameMs) * frameMs;
      this.frameTimer = setTimeout(run, due - now);
      this.frameTimer.unref();
    };
    this.frameTimer = setTimeout(run, frameMs);
    this.frameTimer.unref();
  }

  private every(ms: number, fn: () => void): void {
    const t = setInterval(fn, ms);
    t.unref();
    this.timers.push(t);
  }

  get connectionCount(): number {
    return this.clients.size;
  }

  /**
   * `account`: the trading account (and its type) the connection's quotes are priced for at first
   * (the one the browser chose); the page names its own with an `account` message.
   */
  attach(socket: WebSocket, userId: number, token: string, staffRoles: readonly StaffRole[] = [], account: { accountId: number; typeId: number } | null = null): void {
    // The first heartbeat lands at a random point of the interval, so clients that connected
    // together (a server restart) do not all get pinged in the same frame ever after.
    const nextHeartbeat = performance.now() + this.options.heartbeatMs * (0.5 + Math.random() / 2);
    const client: Client = { socket, userId, staffRoles, token, seq: 0, symbols: new Set(), accountId: account?.accountId ?? null, typeId: account?.typeId, pricings: 0, group: null, candleKeys: new Set(), pendingQuotes: new Map(), pendingCandles: new Map(), alive: true, nextHeartbeat, recentMessages: new Float64Array(MAX_CLIENT_MESSAGES_PER_SECOND), messagesReceived: 0 };
    this.clients.add(client);
    let forUser = this.byUser.get(userId);
    if (!forUser) this.byUser.set(userId, (forUser = new Set()));
    forUser.add(client);
    socket.on('pong', () => (client.alive = true));
    socket.on('message', (data, isBinary) => this.receive(client, isBinary ? null : data.toString()));
    socket.on('close', () => this.detach(client));
    socket.on('error', () => socket.terminate());
    this.send(client, { type: 'hello', userId, serverTime: this.options.now(), heartbeatMs: this.options.heartbeatMs });
  }

  private detach(client: Client): void {
    this.clients.delete(client);
    this.dirty.delete(client);
    this.adminClients.delete(client);
    this.groups.leave(client);
    for (const s of client.symbols) this.bySymbol.get(s)?.delete(client);
    for (const k of client.candleKeys) this.byCandle.get(k)?.delete(client);
    this.byUser.get(client.userId)?.delete(client);
    if (this.byUser.get(client.userId)?.size === 0) this.byUser.delete(client.userId);
  }

  /**
   * Sends one message with the client's next sequence number. Quotes wait while a client's buffer
   * is above `maxBufferedBytes` (see flush); anything else that would pile up beyond four times
   * that means the client is not reading at all, and the connection is dropped.
   */
  private send(client: Client, message: Unsequenced): void {
    if (client.socket.readyState !== OPEN) return;
    if (client.socket.bufferedAmount > this.options.maxBufferedBytes * 4) {
      client.socket.terminate();
      return;
    }
    client.seq += 1;
    client.socket.send(JSON.stringify({ ...message, seq: client.seq }));
  }

  private error(client: Client, message: string): void {
    this.send(client, { type: 'error', message });
  }

  private receive(client: Client, text: string | null): void {
    // More than the limit within any one second (not within a clock second, which a burst could
    // straddle): the message that many back in the ring came less than a second ago.
    const now = performance.now();
    const slot = client.messagesReceived % MAX_CLIENT_MESSAGES_PER_SECOND;
    if (client.messagesReceived >= MAX_CLIENT_MESSAGES_PER_SECOND && now - client.recentMessages[slot]! < 1000) {
      client.socket.close(1008, 'Too many messages');
      return;
    }
    client.recentMessages[slot] = now;
    client.messagesReceived += 1;
    let raw: unknown;
    try {
      raw = text === null ? undefined : JSON.parse(text);
    } catch {
      raw = undefined;
    }
    const parsed = clientMessage.safeParse(raw);
    if (!parsed.success) {
      this.error(client, 'Messages must be JSON: subscribe, unsubscribe, subscribeCandles, unsubscribeCandles, subscribeAdmin, account or ping.');
      return;
    }
    const msg = parsed.data;
    switch (msg.type) {
      case 'subscribe': {
        // A symbol disabled since the page listed it is left out, so the others keep their prices.
        const requested = [...new Set(msg.symbols)].filter((s) => this.market.offers(s) || !this.market.book.instruments.has(s));
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
        this.groups.join(client);
        // The snapshot answers with every requested symbol, so a resubscribe after a gap resyncs.
        this.send(client, { type: 'snapshot', quotes: requested.map((s) => this.viewFor(client, s)) });
        return;
      }
      case 'account':
        void this.priceFor(client, msg.accountId, true);
        return;
      case 'unsubscribe':
        for (const s of msg.symbols) {
          client.symbols.delete(s);
          client.pendingQuotes.delete(s);
          this.bySymbol.get(s)?.delete(client);
        }
        this.groups.join(client);
        return;
      case 'subscribeCandles': {
        if (!this.market.offers(msg.symbol)) return this.error(client, `Unknown symbol: ${msg.symbol}.`);
        const key = candleKey(msg.symbol, msg.period);
        if (!client.candleKeys.has(key) && client.candleKeys.size >= 20) return this.error(client, 'At most 20 candle series per connection.');
        client.candleKeys.add(key);
        let set = this.byCandle.get(key);
        if (!set) this.byCandle.set(key, (set = new Set()));
        set.add(client);
        const live = this.market.candles.live(msg.symbol, msg.period as Period);
        if (live) this.send(client, { type: 'candle', symbol: msg.symbol, period: msg.period, candle: live });
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
        this.send(client, { type: 'pong', time: this.options.now() });
        return;
      case 'subscribeAdmin':
        // The back-office events are about deposits and withdrawals: for those who may see them.
        if (!holds(client.staffRoles, 'money.view')) return this.error(client, 'Back-office events are for staff with the Finance or Administrator role.');
        this.adminClients.add(client);
        return;
    }
  }

  /** A symbol's quote as this client sees it: at its account type's prices. */
  private viewFor(client: Client, symbol: string): Quote {
    const view = this.market.book.view(symbol);
    return client.typeId === undefined ? view : this.market.typePrices.view(client.typeId, view);
  }

  /**
   * Prices the client's quotes for `accountId` (one of its user's) from now on, and sends it a
   * snapshot at those prices; `ask`: the client asked, and is told when the account is not theirs.
   */
  private async priceFor(client: Client, accountId: number, ask: boolean): Promise<void> {
    const pricing = ++client.pricings;
    let typeId: number | null;
    try {
      typeId = await this.options.accountType(client.userId, accountId);
      // A later switch (or move) was asked for meanwhile: its answer decides, not this one.
      if (pricing !== client.pricings) return;
    } catch {
      if (ask) this.error(client, 'The account could not be looked up; please try again.');
      return;
    }
    if (typeId === null) {
      if (ask) this.error(client, 'That trading account was not found.');
      return;
    }
    if (!this.clients.has(client)) return;
    client.accountId = accountId;
    client.typeId = typeId;
    this.groups.join(client);
    client.pendingQuotes.clear();
    if (client.symbols.size > 0) this.send(client, { type: 'snapshot', quotes: [...client.symbols].map((s) => this.viewFor(client, s)) });
  }

  /** Every followed symbol goes out again in the next frame (the types' prices changed). */
  private repriceAll(): void {
    for (const symbol of this.bySymbol.keys()) this.quoteChanged(symbol);
  }

  private quoteChanged(symbol: string, view: Quote = this.market.book.view(symbol)): void {
    this.lastFlags.set(symbol, `${view.open}|${view.stale}`);
    const subscribers = this.bySymbol.get(symbol);
    if (!subscribers || subscribers.size === 0) return;
    this.frameQuotes.set(symbol, view);
  }

  private candleChanged(symbol: string, period: Period, candle: Candle): void {
    const subscribers = this.byCandle.get(candleKey(symbol, period));
    if (!subscribers || subscribers.size === 0) return;
    const update: CandleUpdate = { symbol, period, candle };
    // Pending candles are kept per bucket: when a bucket closes and the next opens within one
    // frame, the client still gets the closed candle in its final form, then the new one.
    const pendingKey = `${symbol}|${period}|${candle.time}`;
    for (const c of subscribers) {
      c.pendingCandles.set(pendingKey, update);
      // A client stuck behind a full buffer keeps a bounded number: the oldest buckets go first.
      if (c.pendingCandles.size > 2 * c.candleKeys.size + 2) c.pendingCandles.delete(c.pendingCandles.keys().next().value as string);
      this.dirty.add(c);
    }
  }

  /**
   * A frame's quotes for one client. A client that reads slowly (or already has quotes waiting)
   * gets them merged into its own pending quotes instead (newest wins), sent by flush() once its
   * buffer drains.
   */
  private sendQuotes(client: Client, quotes: Quote[], message: QuotesMessage): void {
    if (client.pendingQuotes.size > 0 || client.socket.bufferedAmount > this.options.maxBufferedBytes) {
      for (const q of quotes) client.pendingQuotes.set(q.symbol, q);
      this.dirty.add(client);
      return;
    }
    client.seq += 1;
    client.socket.send(message.bytes(client.seq), { binary: false });
  }

  /** One frame: each group's changed quotes, then each dirty client's own pending quotes and candles. */
  flush(): void {
    if (this.frameQuotes.size > 0) {
      const changed = this.frameQuotes;
      this.frameQuotes = new Map();
      const prices = this.market.typePrices;
      this.groups.forEach(changed, (typeId, q) => prices.view(typeId, q), (c, quotes, message) => this.sendQuotes(c, quotes, message));
    }
    for (const c of this.dirty) {
      if (c.socket.readyState !== OPEN) {
        this.dirty.delete(c);
        continue;
      }
      if (c.socket.bufferedAmount > this.options.maxBufferedBytes) continue;
      if (c.pendingQuotes.size > 0) {
        const quotes = [...c.pendingQuotes.values()];
        c.pendingQuotes.clear();
        this.send(c, { type: 'quotes', quotes });
      }
      for (const update of c.pendingCandles.values()) this.send(c, { type: 'candle', ...update });
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

  /** Heartbeats for the clients whose turn it is; a client that missed the last ping's pong is dropped. */
  private heartbeatDue(): void {
    const now = performance.now();
    for (const c of this.clients) {
      if (c.nextHeartbeat > now) continue;
      c.nextHeartbeat = now + this.options.heartbeatMs;
      if (!c.alive) {
        c.socket.terminate();
        continue;
      }
      c.alive = false;
      c.socket.ping();
      this.send(c, { type: 'heartbeat', time: this.options.now() });
    }
  }

  private accountEvent(event: BusEvent): void {
    if (isInstanceEvent(event)) return;
    if (isAdminEvent(event)) return this.adminEvent(event);
    // An account moved to another type: its connections are priced at the new type's from now on.
    if (event.type === 'account.changed' && event.change === 'type') {
      for (const c of this.byUser.get(event.userId) ?? []) if (c.accountId === event.accountId) void this.priceFor(c, event.accountId, false);
    }
    if (event.type === 'account.sessionsRevoked') {
      void this.sessions.check(this.byUser.get(event.userId) ?? []);
      return;
    }
    // New roles apply to the person's open connections at once (and their page is told, below).
    if (event.type === 'staff.rolesChanged') {
      for (const c of this.byUser.get(event.userId) ?? []) {
        c.staffRoles = event.roles;
        if (!holds(c.staffRoles, 'money.view')) this.adminClients.delete(c);
      }
    }
    for (const c of this.byUser.get(event.userId) ?? []) this.send(c, { type: 'event', event });
  }

  private adminEvent(event: AdminEvent): void {
    if (this.adminClients.size === 0) return;
    for (const c of this.adminClients) this.send(c, { type: 'admin', event });
  }

  close(): void {
    this.timers.forEach(clearInterval);
    this.sessions.close();
    if (this.frameTimer) clearTimeout(this.frameTimer);
    this.unsubscribers.forEach((u) => u());
    for (const c of this.clients) c.socket.close(1001, 'Server shutting down');
  }
}
