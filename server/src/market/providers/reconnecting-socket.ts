import WebSocket from 'ws';

/** The slice of a logger (pino's shape) the providers need. */
export interface ProviderLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export interface BackoffOptions {
  /** Delay before the first retry, and again after a connection has delivered a message. */
  initialMs?: number;
  /** No delay is ever longer than this. */
  maxMs?: number;
  /** Each consecutive failure multiplies the delay by this. */
  factor?: number;
  /**
   * Share of each delay removed at random (0.2 → between 80% and 100% of it), so that many
   * servers restarted together do not all knock on the provider's door in the same millisecond.
   */
  jitter?: number;
}

export type Backoff = Required<BackoffOptions>;

export const DEFAULT_BACKOFF: Backoff = { initialMs: 500, maxMs: 30_000, factor: 2, jitter: 0.2 };
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;
/** Provider messages are a few hundred bytes; anything near this is not a quote. */
const MAX_PAYLOAD_BYTES = 1024 * 1024;
/** How long `stop()` waits for the peer to answer a close frame before cutting the connection. */
const CLOSE_GRACE_MS = 1_000;
/** Malformed and rejected messages are logged the first time and then once per this many. */
const LOG_EVERY = 1_000;

/** What a provider reports about one of its connections. Never contains a key. */
export interface ConnectionStatus {
  url: string;
  connected: boolean;
  /** Epoch ms of the last message received on any connection to this url; null before the first. */
  lastMessageAt: number | null;
  /** Connection attempts after the first. */
  reconnects: number;
  /** Messages (or events inside a message) the provider could not read. */
  malformed: number;
  /** Ticks the sink refused. */
  rejected: number;
}

export interface ReconnectingSocketOptions {
  /** Must not contain a secret: it is logged and reported in status. */
  url: string;
  /** Called on every successful connection, e.g. to authenticate or subscribe. */
  onOpen?: (send: (text: string) => void) => void;
  /** Called with every text message. Must not throw; if it does, the message counts as malformed. */
  onMessage: (text: string) => void;
  backoff?: BackoffOptions;
  connectTimeoutMs?: number;
  /**
   * A connection that answers neither with messages nor with pongs to our pings for this long is
   * assumed dead and replaced. A quiet market (weekends, nights) is not silence: the provider still
   * answers pings.
   */
  idleTimeoutMs?: number;
  /** After staying up this long, a connection counts as healthy and the backoff starts over. */
  stableAfterMs?: number;
  log?: ProviderLog;
  /** For jitter; Math.random unless a test wants determinism. */
  random?: () => number;
  now?: () => number;
}

/** The delay before the retry that follows `failures` consecutive failed attempts (0 = first retry). */
export function backoffDelayMs(failures: number, backoff: Backoff, random: () => number = Math.random): number {
  const base = Math.min(backoff.maxMs, backoff.initialMs * backoff.factor ** failures);
  return Math.max(0, Math.round(base * (1 - backoff.jitter * random())));
}

const silentLog: ProviderLog = { warn() {}, info() {} };

function toText(data: WebSocket.RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}

/**
 * One long-lived websocket to a market-data provider that keeps itself up: it connects with a
 * timeout, replaces a connection that falls silent, and retries with capped exponential backoff
 * (reset once a connection has proved itself by delivering a message) until `stop()`. Only the
 * current connection's events count: a late event from a connection already given up is ignored.
 * Timers are unref'd, so a forgotten socket never holds the process open on its own.
 */
export class ReconnectingSocket {
  readonly url: string;
  lastMessageAt: number | null = null;
  reconnects = 0;
  malformed = 0;
  rejected = 0;

  private readonly backoff: Backoff;
  private readonly connectTimeoutMs: number;
  private readonly idleTimeoutMs: number;
  private readonly stableAfterMs: number;
  private readonly log: ProviderLog;
  private readonly random: () => number;
  private readonly now: () => number;
  private ws: WebSocket | null = null;
  private open = false;
  /** Consecutive attempts that ended without delivering a message. */
  private failures = 0;
  private started = false;
  private stopped = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private connectTimer: NodeJS.Timeout | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  private stableTimer: NodeJS.Timeout | null = null;
  private lastHeard = 0;

  constructor(private readonly options: ReconnectingSocketOptions) {
    const url = new URL(options.url);
    if (url.protocol !== 'ws:' && url.protocol !== 'wss:') throw new Error(`A market feed url must start with ws:// or wss:// (got ${url.protocol}).`);
    this.url = options.url;
    this.backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
    if (!(this.backoff.initialMs > 0 && this.backoff.maxMs >= this.backoff.initialMs && this.backoff.factor >= 1 && this.backoff.jitter >= 0 && this.backoff.jitter <= 1)) {
      throw new Error('Backoff needs 0 < initialMs ≤ maxMs, factor ≥ 1 and 0 ≤ jitter ≤ 1.');
    }
    this.connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    this.idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    this.stableAfterMs = options.stableAfterMs ?? 10_000;
    this.log = options.log ?? silentLog;
    this.random = options.random ?? Math.random;
    this.now = options.now ?? Date.now;
  }

  get connected(): boolean {
    return this.open;
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.connect();
  }

  /** Sends on the current connection; false when there is none open. */
  send(text: string): boolean {
    if (!this.ws || !this.open) return false;
    this.ws.send(text);
    return true;
  }

  /**
   * Gives up the current connection and tries again later: after the usual backoff, or after the
   * longest delay when the provider has refused us (a bad key will not get better in 500 ms).
   */
  restart(reason: string, delay: 'backoff' | 'max' = 'backoff'): void {
    if (this.ws) this.drop(this.ws, reason, delay);
  }

  /**
   * The adapter received something it could use (an accepted tick): the connection works, so the
   * backoff starts over. A status greeting followed by a close does not count.
   */
  noteHealthy(): void {
    this.failures = 0;
  }

  noteMalformed(detail: object): void {
    this.malformed += 1;
    if (this.malformed % LOG_EVERY === 1) this.log.warn({ url: this.url, malformed: this.malformed, ...detail }, 'market feed sent a message it could not read');
  }

  noteRejected(detail: object): void {
    this.rejected += 1;
    if (this.rejected % LOG_EVERY === 1) this.log.warn({ url: this.url, rejected: this.rejected, ...detail }, 'quote book refused a tick from the market feed');
  }

  status(): ConnectionStatus {
    return { url: this.url, connected: this.open, lastMessageAt: this.lastMessageAt, reconnects: this.reconnects, malformed: this.malformed, rejected: this.rejected };
  }

  /** Closes the connection (politely, briefly) and never reconnects. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.clearTimer('retryTimer');
    const ws = this.ws;
    if (!ws) return;
    this.detach();
    if (ws.readyState !== WebSocket.OPEN) {
      ws.terminate();
      return;
    }
    await new Promise<void>((resolve) => {
      const grace = setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
      ws.once('close', () => {
        clearTimeout(grace);
        resolve();
      });
      ws.close(1000, 'stopping');
    });
  }

  private connect(): void {
    if (this.stopped) return;
    const ws = new WebSocket(this.url, { maxPayload: MAX_PAYLOAD_BYTES });
    this.ws = ws;
    // ws emits 'error' for failed handshakes, including after terminate(); without a listener that
    // would crash the process. The reason reaches the log through 'close' or the timers instead.
    let lastError: string | undefined;
    ws.on('error', (err) => {
      lastError = err.message;
    });
    this.connectTimer = setTimeout(() => this.drop(ws, `no connection within ${this.connectTimeoutMs} ms`), this.connectTimeoutMs).unref();
    ws.on('open', () => {
      if (ws !== this.ws) return;
      this.clearTimer('connectTimer');
      this.open = true;
      this.lastHeard = this.now();
      // Liveness by ping: every half idle period, ping; if nothing (message or pong) was heard for a
      // whole idle period, the connection is dead.
      this.idleTimer = setInterval(() => {
        if (this.now() - this.lastHeard > this.idleTimeoutMs) this.drop(ws, `nothing heard for ${this.idleTimeoutMs} ms`);
        else ws.ping();
      }, Math.max(1, Math.floor(this.idleTimeoutMs / 2))).unref();
      this.stableTimer = setTimeout(() => this.noteHealthy(), this.stableAfterMs).unref();
      this.log.info({ url: this.url, reconnects: this.reconnects }, 'market feed connected');
      try {
        this.options.onOpen?.((text) => {
          if (ws === this.ws) ws.send(text);
        });
      } catch (err) {
        this.drop(ws, `onOpen failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    });
    ws.on('pong', () => {
      if (ws === this.ws) this.lastHeard = this.now();
    });
    ws.on('message', (data) => {
      if (ws !== this.ws) return;
      this.lastMessageAt = this.now();
      this.lastHeard = this.lastMessageAt;
      try {
        this.options.onMessage(toText(data));
      } catch (err) {
        this.noteMalformed({ error: err instanceof Error ? err.message : String(err) });
      }
    });
    ws.on('close', (code) => {
      if (ws !== this.ws) return;
      this.drop(ws, lastError ? `connection failed: ${lastError}` : `connection closed (code ${code})`);
    });
  }

  /** Ends `ws` if it is still the current connection and schedules the next attempt. */
  private drop(ws: WebSocket, reason: string, delay: 'backoff' | 'max' = 'backoff'): void {
    if (ws !== this.ws) return;
    this.detach();
    ws.terminate();
    if (this.stopped) return;
    const delayMs = delay === 'max' ? this.backoff.maxMs : backoffDelayMs(this.failures, this.backoff, this.random);
    if (delay === 'backoff') this.failures += 1;
    this.log.warn({ url: this.url, reason, retryInMs: delayMs }, 'market feed disconnected');
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.reconnects += 1;
      this.connect();
    }, delayMs).unref();
  }

  /** Forgets the current connection: its late events are ignored from now on. */
  private detach(): void {
    this.ws = null;
    this.open = false;
    this.clearTimer('connectTimer');
    this.clearTimer('idleTimer');
    this.clearTimer('stableTimer');
  }

  private clearTimer(name: 'retryTimer' | 'connectTimer' | 'idleTimer' | 'stableTimer'): void {
    const timer = this[name];
    if (timer) clearTimeout(timer);
    this[name] = null;
  }
}
