import type { AccountEvent, AdminEvent, CandleRecord, PeriodName, Quote, ServerMessage } from '@tradeport/contracts';
import { QuoteBook, QuotePoller, type QuoteEntry } from './quote-book';
import { PING_AFTER_MS, SILENCE_LIMIT_MS, type ConnectionState, type SocketLike, type StreamClientOptions } from './stream-options';

/**
 * The app's one connection to `/api/stream`. It owns the socket, the live quotes and the account
 * events, outside React: components subscribe to one symbol at a time (see `hooks.ts`), so a tick
 * re-renders only what shows that symbol.
 *
 * - Reconnects with capped exponential backoff and full jitter, and resubscribes everything.
 * - Every server message carries `seq`; a gap (or a new connection) resynchronises: the symbols are
 *   subscribed again, the server answers with a snapshot of each, and listeners of `resync` refetch
 *   what events may have been missed.
 * - A connection that stays silent is found out within seconds, not at TCP's pace: after
 *   PING_AFTER_MS without a message the client pings (the server answers at once), and a
 *   connection that has said nothing for SILENCE_LIMIT_MS (a paused server, a cut network) is
 *   treated as dead and replaced: the app says so and polls meanwhile.
 * - While the socket is down, quotes are polled through `pollQuotes` (the spec's 1 s refresh)
 *   so prices keep moving and their staleness stays visible.
 *
 * The quotes, who follows them and the polling live in `quote-book.ts`; this module is the
 * connection.
 */

export { firstEntry, type Direction, type QuoteEntry } from './quote-book';
export { PING_AFTER_MS, SILENCE_LIMIT_MS, type ConnectionState, type SocketLike, type StreamClientOptions } from './stream-options';

const OPEN = 1;
const SESSION_ENDED_CODE = 4001;
type CandleListener = (candle: CandleRecord) => void;
type Listener = () => void;

function candleKey(symbol: string, period: PeriodName): string {
  return `${symbol}:${period}`;
}

export class StreamClient {
  private socket: SocketLike | null = null;
  private state: ConnectionState = 'closed';
  private started = false;
  private attempt = 0;
  private lastSeq = 0;
  /** When the open connection last said anything (Date.now()). */
  private lastHeard = 0;
  private livenessTimer: ReturnType<typeof setInterval> | null = null;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private watchdogTimer: ReturnType<typeof setTimeout> | null = null;

  /** The live quotes; a symbol is subscribed on the server while anyone follows it there. */
  private readonly book = new QuoteBook((subscribe, unsubscribe) => {
    if (unsubscribe.length > 0) this.send({ type: 'unsubscribe', symbols: unsubscribe });
    if (subscribe.length > 0) this.send({ type: 'subscribe', symbols: subscribe });
  });
  /** Quotes by REST while the socket is not open (answers arriving once it is are dropped). */
  private readonly poller: QuotePoller | null;
  private readonly candleListeners = new Map<string, Set<CandleListener>>();
  private readonly eventListeners = new Set<(event: AccountEvent) => void>();
  private readonly stateListeners = new Set<Listener>();
  private readonly resyncListeners = new Set<Listener>();
  private readonly sessionEndedListeners = new Set<Listener>();
  private readonly adminListeners = new Set<(event: AdminEvent) => void>();
  /** The trading account whose prices the connection asks for (null: the server's choice). */
  private account: number | null = null;

  constructor(private readonly options: StreamClientOptions) {
    const poll = options.pollQuotes;
    this.poller = poll ? new QuotePoller(this.book, poll, options.pollIntervalMs ?? 1000, () => this.started && this.state !== 'open') : null;
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.connect();
  }

  /** Closes the socket for good (sign-out). Subscriptions are kept for a later start. */
  stop(): void {
    this.started = false;
    this.clearTimers();
    this.dropSocket(1000, 'Signed out');
    // The next start may be another user's: nothing of this connection carries over.
    this.lastSeq = 0;
    this.attempt = 0;
    this.book.forget();
    this.setState('closed');
  }

  /** Reconnect at once (the browser came back online, or the user asked). */
  reconnectNow(): void {
    if (!this.started || this.state === 'open' || this.socket !== null) return;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    this.connect();
  }

  getState(): ConnectionState {
    return this.state;
  }

  onState(listener: Listener): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  onEvent(listener: (event: AccountEvent) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  /** Called after a reconnect or a sequence gap: events may have been missed. */
  onResync(listener: Listener): () => void {
    this.resyncListeners.add(listener);
    return () => this.resyncListeners.delete(listener);
  }

  /** The server ended the session (close code 4001, or a sessions-revoked event): sign-in again. */
  onSessionEnded(listener: Listener): () => void {
    this.sessionEndedListeners.add(listener);
    return () => this.sessionEndedListeners.delete(listener);
  }

  /**
   * Back-office events (administrators only): a trader filed a money request, an administrator
   * decided one. The connection asks for them once someone listens, and again after a reconnect.
   */
  onAdminEvent(listener: (event: AdminEvent) => void): () => void {
    const first = this.adminListeners.size === 0;
    this.adminListeners.add(listener);
    if (first) this.send({ type: 'subscribeAdmin' });
    return () => this.adminListeners.delete(listener);
  }

  /**
   * Prices this connection's quotes for that trading account (its account type's spread markups):
   * told to the server now and after every reconnect. The server starts with the account the
   * browser chose; once it has looked this one up it sends a snapshot at its prices.
   */
  priceFor(accountId: number | null): void {
    if (accountId === this.account) return;
    this.account = accountId;
    if (accountId !== null) this.send({ type: 'account', accountId });
  }

  getQuote(symbol: string): QuoteEntry | undefined {
    return this.book.get(symbol);
  }

  /** The page's own quotes, shown until the client has its own (`QuoteBook.seed`). */
  seedQuotes(quotes: readonly Quote[]): void {
    this.book.seed(quotes);
  }

  /** Follow one symbol's quote; the symbol is subscribed on the server while anyone follows it. */
  subscribeQuote(symbol: string, listener: Listener): () => void {
    return this.book.follow(symbol, listener);
  }

  subscribeCandles(symbol: string, period: PeriodName, listener: CandleListener): () => void {
    const key = candleKey(symbol, period);
    let listeners = this.candleListeners.get(key);
    if (!listeners) {
      listeners = new Set();
      this.candleListeners.set(key, listeners);
      this.send({ type: 'subscribeCandles', symbol, period });
    }
    listeners.add(listener);
    return () => {
      const current = this.candleListeners.get(key);
      if (!current) return;
      current.delete(listener);
      if (current.size === 0) {
        this.candleListeners.delete(key);
        this.send({ type: 'unsubscribeCandles', symbol, period });
      }
    };
  }

  subscribedSymbols(): string[] {
    return this.book.followed();
  }

  // ------------------------------------------------------------------ connection

  private dropSocket(code: number, reason: string): void {
    const socket = this.socket;
    this.socket = null;
    if (!socket) return;
    socket.onclose = null;
    socket.onmessage = null;
    try {
      socket.close(code, reason);
    } catch {
      // already closed
    }
  }

  private connect(): void {
    const create = this.options.createSocket ?? ((url: string) => new WebSocket(url) as unknown as SocketLike);
    this.dropSocket(4000, 'Replaced');
    this.setState(this.attempt === 0 && this.lastSeq === 0 ? 'connecting' : 'reconnecting');
    // Prices keep coming by REST until the socket says hello; a handshake that hangs is given up.
    this.startPolling();
    this.armWatchdog(this.options.connectTimeoutMs ?? 10_000);
    let socket: SocketLike;
    try {
      socket = create(this.options.url());
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.onmessage = (ev) => {
      if (this.socket !== socket) return;
      this.lastHeard = Date.now();
      this.receive(ev.data);
    };
    socket.onclose = (ev) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (ev.code === SESSION_ENDED_CODE) {
        this.stop();
        this.sessionEndedListeners.forEach((l) => l());
        return;
      }
      this.scheduleReconnect();
    };
    socket.onerror = () => undefined;
  }

  private scheduleReconnect(): void {
    if (!this.started) return;
    this.clearWatchdog();
    this.stopLiveness();
    this.setState('reconnecting');
    this.startPolling();
    const initial = this.options.initialBackoffMs ?? 500;
    const cap = this.options.maxBackoffMs ?? 15_000;
    const ceiling = Math.min(cap, initial * 2 ** this.attempt);
    // Full jitter: thousands of browsers that lost the server together do not return together.
    const delay = Math.max(100, Math.round((this.options.random ?? Math.random)() * ceiling));
    this.attempt += 1;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.connect();
    }, delay);
  }

  /** A handshake past its time: given up and tried again. */
  private armWatchdog(timeoutMs: number): void {
    this.clearWatchdog();
    this.watchdogTimer = setTimeout(() => {
      this.dropSocket(4000, 'No hello');
      this.scheduleReconnect();
    }, timeoutMs);
  }

  /** Once open: pings when the stream goes quiet, and gives up on a connection silent too long. */
  private startLiveness(): void {
    this.stopLiveness();
    const pingAfter = this.options.pingAfterMs ?? PING_AFTER_MS;
    const limit = this.options.silenceLimitMs ?? SILENCE_LIMIT_MS;
    let pingedAt = 0;
    this.lastHeard = Date.now();
    this.livenessTimer = setInterval(() => {
      const now = Date.now();
      const quiet = now - this.lastHeard;
      if (quiet >= limit) {
        this.dropSocket(4000, 'Silent');
        this.scheduleReconnect();
      } else if (quiet >= pingAfter && now - pingedAt >= pingAfter) {
        pingedAt = now;
        this.send({ type: 'ping' });
      }
    }, Math.max(50, Math.round(Math.min(pingAfter, limit) / 4)));
  }

  private stopLiveness(): void {
    if (this.livenessTimer) clearInterval(this.livenessTimer);
    this.livenessTimer = null;
  }

  private clearWatchdog(): void {
    if (this.watchdogTimer) clearTimeout(this.watchdogTimer);
    this.watchdogTimer = null;
  }

  private clearTimers(): void {
    this.clearWatchdog();
    this.stopLiveness();
    this.stopPolling();
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
  }

  private startPolling(): void {
    this.poller?.start();
  }

  private stopPolling(): void {
    this.poller?.stop();
  }

  private setState(state: ConnectionState): void {
    if (this.state === state) return;
    this.state = state;
    this.stateListeners.forEach((l) => l());
  }

  private send(message: object): void {
    if (this.socket && this.socket.readyState === OPEN && this.state === 'open') this.socket.send(JSON.stringify(message));
  }

  /** After `hello` or a gap: ask again for everything followed; the snapshot brings current quotes. */
  private resubscribe(): void {
    if (this.adminListeners.size > 0) this.send({ type: 'subscribeAdmin' });
    if (this.account !== null) this.send({ type: 'account', accountId: this.account });
    const symbols = this.subscribedSymbols();
    if (symbols.length > 0) this.send({ type: 'subscribe', symbols });
    for (const key of this.candleListeners.keys()) {
      const [symbol, period] = key.split(':') as [string, PeriodName];
      this.send({ type: 'subscribeCandles', symbol, period });
    }
  }

  private receive(data: unknown): void {
    let message: ServerMessage;
    try {
      message = JSON.parse(String(data)) as ServerMessage;
    } catch {
      return;
    }
    if (message.type === 'hello') {
      const reconnected = this.lastSeq !== 0 || this.attempt > 0;
      this.lastSeq = message.seq;
      this.attempt = 0;
      this.stopPolling();
      this.setState('open');
      this.clearWatchdog();
      this.startLiveness();
      this.resubscribe();
      if (reconnected) this.resyncListeners.forEach((l) => l());
      return;
    }
    if (message.seq !== this.lastSeq + 1) {
      this.lastSeq = message.seq;
      this.resubscribe();
      this.resyncListeners.forEach((l) => l());
    } else this.lastSeq = message.seq;

    switch (message.type) {
      case 'snapshot':
      case 'quotes':
        message.quotes.forEach((q) => this.book.apply(q));
        break;
      case 'candle':
        this.candleListeners.get(candleKey(message.symbol, message.period))?.forEach((l) => l(message.candle));
        break;
      case 'admin':
        this.adminListeners.forEach((l) => l(message.event));
        break;
      case 'event':
        this.eventListeners.forEach((l) => l(message.event));
        if (message.event.type === 'account.sessionsRevoked') {
          this.stop();
          this.sessionEndedListeners.forEach((l) => l());
        }
        break;
      default:
        break;
    }
  }
}
