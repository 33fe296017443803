import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { toCents, type Cents } from './domain/money';
import { type RolloverTime } from './domain/rollover-schedule';
import { envSchema, type Feed } from './config-env';

export interface AppConfig {
  port: number;
  host: string;
  databaseUrl: string;
  admin: { email: string; password: string } | null;
  logLevel: string;
  /**
   * Fastify's trustProxy: false, a list of addresses/CIDRs, or a hop count (as a function). Never
   * `true`, which would take the left-most X-Forwarded-For, written by the client.
   */
  trustProxy: false | string | ((address: string, hop: number) => boolean);
  /**
   * The site is public over HTTPS (the first PUBLIC_ORIGIN is https://): the session cookie is always
   * `Secure`, whatever protocol the request seems to have come by (a TLS-terminating proxy that does
   * not send X-Forwarded-Proto must not downgrade it).
   */
  httpsOnly: boolean;
  /** Strict-Transport-Security max-age in seconds; 0 sends no HSTS header. */
  hstsMaxAgeSeconds: number;
  publicOrigins: string[];
  sessionIdleMs: number;
  rememberMeMs: number;
  /** A browser-session cookie still expires on the server after this long, even if kept busy. */
  sessionMaxMs: number;
  signinRateLimitPerMinute: number;
  signupRateLimitPerMinute: number;
  /** Consecutive failed sign-ins for one email before it is refused for `lockoutMs`. */
  lockoutThreshold: number;
  lockoutMs: number;
  maxDepositCents: Cents;
  maxWithdrawalCents: Cents;
  /** Withdrawals above this need a second approver (docs/design.md#four-eyes-approval). */
  secondApprovalAboveCents: Cents;
  /** Whether staff must sign in with a second factor (docs/architecture.md#two-factor-sign-in); `optional` only for a test or demo installation. */
  staffTwoFactor: 'required' | 'optional';
  defaultLeverage: number;
  /** Order calls (market, pending, modify, cancel, close) one user may make per minute, all together. */
  orderRateLimitPerMinute: number;
  /** Pending orders one account may hold at once. */
  maxPendingOrders: number;
  /** The virtual balance a demo account opens with, and a reset returns it to. */
  demoInitialBalanceCents: Cents;
  /** Live and demo trading accounts one trader may hold. */
  maxLiveAccounts: number;
  maxDemoAccounts: number;
  /** A user counts as Online when seen within this window. */
  onlineWindowMs: number;
  eventBus: 'memory' | 'redis';
  redisUrl: string | null;
  /**
   * CLUSTER_SECRET: what the instances of one deployment share to trust each other — every
   * message on the Redis bus, every request a follower forwards to the engine leader and every
   * answer to one is signed with keys derived from it (cluster-keys.ts). Required with
   * EVENT_BUS=redis; null for a single instance, which needs none. Never logged.
   */
  clusterSecret: string | null;
  /**
   * This instance's name in logs and health: INSTANCE_NAME, else a random name made at start
   * (`tp-` and 8 hex digits), since the anonymous health check must not say which host it runs on.
   */
  instanceName: string;
  /** Where the instance runs (host name and port): in its start-up log and an administrator's health view. */
  instanceHost: string;
  webDistDir: string | null;
  /** Reset requests and resets per IP per minute. */
  passwordResetRateLimitPerMinute: number;
  /** Calls to the password-strength meter per IP per minute (each one scores a password). */
  passwordStrengthRateLimitPerMinute: number;
  /** Password changes per signed-in user per hour (each one with the right current password scores and hashes one). */
  passwordChangeRateLimitPerHour: number;
  /** Reset mails one account can be sent per hour; further requests get the same answer and no mail. */
  passwordResetsPerAccountPerHour: number;
  mail: MailConfig;
  /** Where links in mails point: the first PUBLIC_ORIGIN, else http://localhost:<PORT>. Never the request's Host. */
  publicUrl: string;
  /** The broker's name (BROKER_NAME) at the top of account statements. */
  brokerName: string;
  /** The broker's chat number (digits only) for the web app's chat button; null hides the button. */
  supportChatPhone: string | null;
  /** Where the legal documents (markdown) are read from; null means `server/config/legal`. */
  legalDir: string | null;
  /**
   * The bearer token of `GET /metrics` (Prometheus). Null: the route is not served and nothing
   * beyond a few counters is collected (metrics.ts). Never logged.
   */
  metricsToken: string | null;
  /** scrypt cost parameter N; tests lower it to keep thousands of hashes fast. */
  scryptCost: number;
  market: MarketConfig;
  trading: TradingConfig;
}

export interface MailConfig {
  /** SMTP server (nodemailer); null writes mails to `outboxDir` instead of sending them. */
  smtpUrl: string | null;
  from: string;
  outboxDir: string;
}

export interface TradingConfig {
  /** Margin level (%) at or below which the trader is warned once. */
  marginCallLevel: number;
  /** Margin level (%) at or below which positions are closed, largest loss first. */
  stopOutLevel: number;
  /** How often accounts whose prices moved are checked against those levels. */
  marginCheckMs: number;
  /** The daily rollover (swap): a local time in a time zone. */
  rollover: RolloverTime;
}

export interface MarketConfig {
  feeds: Feed[];
  /** Bearer token of the push feed; the endpoint refuses every call without one configured. */
  feedToken: string | null;
  simSeed: string;
  /** Generate a year of simulated history for symbols that have none (sim feed only). */
  simHistory: boolean;
  sessions: 'real' | 'always';
  staleAfterMs: number;
  catalogueFile: string | null;
  polygonApiKey: string | null;
  polygonUrl: string;
  binanceUrl: string;
  /** The stream sends each client at most one quotes message per frame. */
  streamFrameMs: number;
  /** How often forming candles and last quotes are written to the database. */
  flushIntervalMs: number;
  /** Stream heartbeat (and dead-peer detection) interval. */
  streamHeartbeatMs: number;
  /** How often each stream connection's session is re-checked. */
  streamSessionCheckMs: number;
}

export class ConfigError extends Error {}

function parseTrustProxy(v: string | undefined): AppConfig['trustProxy'] {
  if (v === undefined || v === '' || v === 'false') return false;
  if (/^\d+$/.test(v)) {
    const hops = Number(v);
    // Fastify takes a function for a hop count: trust the nearest `hops` proxies.
    return (_address, hop) => hop < hops;
  }
  return v;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const relevant = Object.fromEntries(Object.keys(envSchema.shape).map((k) => [k, env[k] === '' ? undefined : env[k]]));
  const parsed = envSchema.safeParse(relevant);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  - ${i.path.join('.') || 'config'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if ((e.ADMIN_EMAIL === undefined) !== (e.ADMIN_PASSWORD === undefined)) {
    throw new ConfigError('Invalid configuration:\n  - ADMIN_EMAIL and ADMIN_PASSWORD must be set together');
  }
  if (e.STOP_OUT_LEVEL >= e.MARGIN_CALL_LEVEL) {
    throw new ConfigError('Invalid configuration:\n  - STOP_OUT_LEVEL must be below MARGIN_CALL_LEVEL');
  }
  if (e.MARKET_FEED.includes('push') && !e.FEED_TOKEN) {
    throw new ConfigError('Invalid configuration:\n  - MARKET_FEED=push needs FEED_TOKEN (the price bridge authenticates with it)');
  }
  if (e.MARKET_FEED.includes('polygon') && !e.POLYGON_API_KEY) {
    throw new ConfigError('Invalid configuration:\n  - MARKET_FEED=polygon needs POLYGON_API_KEY');
  }
  if (e.EVENT_BUS === 'redis' && !e.REDIS_URL) {
    throw new ConfigError('Invalid configuration:\n  - EVENT_BUS=redis needs REDIS_URL (redis://host:port)');
  }
  if (e.EVENT_BUS === 'redis' && e.DATABASE_URL.startsWith('sqlite:')) {
    throw new ConfigError(
      'Invalid configuration:\n  - EVENT_BUS=redis is for several instances, and several instances need PostgreSQL: an SQLite file belongs to one process. Set DATABASE_URL=postgres://… (the same for every instance), or leave EVENT_BUS unset to run one process on SQLite',
    );
  }
  if (e.EVENT_BUS === 'redis' && !e.CLUSTER_SECRET) {
    throw new ConfigError(
      'Invalid configuration:\n  - EVENT_BUS=redis needs CLUSTER_SECRET: the same random value of at least 32 characters on every instance (e.g. the output of: openssl rand -base64 32). ' +
        'The instances sign what they send each other with it (docs/operations.md, "Several instances")',
    );
  }
  const publicUrl = e.PUBLIC_ORIGIN ? e.PUBLIC_ORIGIN.split(',')[0]!.trim() : `http://localhost:${e.PORT}`;
  const httpsOnly = publicUrl.startsWith('https://');
  if (e.HSTS_MAX_AGE_SECONDS !== undefined && e.HSTS_MAX_AGE_SECONDS > 0 && !httpsOnly) {
    throw new ConfigError('Invalid configuration:\n  - HSTS_MAX_AGE_SECONDS needs an https:// PUBLIC_ORIGIN (browsers ignore HSTS over plain HTTP)');
  }
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    admin: e.ADMIN_EMAIL && e.ADMIN_PASSWORD ? { email: e.ADMIN_EMAIL, password: e.ADMIN_PASSWORD } : null,
    logLevel: e.LOG_LEVEL,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    publicOrigins: e.PUBLIC_ORIGIN ? e.PUBLIC_ORIGIN.split(',').map((o) => o.trim()) : [],
    sessionIdleMs: e.SESSION_IDLE_MINUTES * 60_000,
    rememberMeMs: 30 * 24 * 3600_000,
    sessionMaxMs: 24 * 3600_000,
    signinRateLimitPerMinute: e.SIGNIN_RATE_LIMIT_PER_MINUTE,
    signupRateLimitPerMinute: e.SIGNUP_RATE_LIMIT_PER_MINUTE,
    lockoutThreshold: 10,
    lockoutMs: 15 * 60_000,
    maxDepositCents: toCents(e.MAX_DEPOSIT_AMOUNT),
    maxWithdrawalCents: toCents(e.MAX_WITHDRAWAL_AMOUNT),
    secondApprovalAboveCents: toCents(e.WITHDRAWAL_SECOND_APPROVAL_ABOVE),
    staffTwoFactor: e.STAFF_TWO_FACTOR,
    defaultLeverage: e.DEFAULT_LEVERAGE,
    orderRateLimitPerMinute: e.ORDER_RATE_LIMIT_PER_MINUTE,
    maxPendingOrders: e.MAX_PENDING_ORDERS,
    demoInitialBalanceCents: toCents(e.DEMO_INITIAL_BALANCE),
    maxLiveAccounts: e.MAX_LIVE_ACCOUNTS,
    maxDemoAccounts: e.MAX_DEMO_ACCOUNTS,
    onlineWindowMs: 5 * 60_000,
    eventBus: e.EVENT_BUS,
    redisUrl: e.REDIS_URL ?? null,
    clusterSecret: e.CLUSTER_SECRET ?? null,
    instanceName: e.INSTANCE_NAME ?? `tp-${randomBytes(4).toString('hex')}`,
    instanceHost: `${hostname()}:${e.PORT}`,
    webDistDir: e.WEB_DIST_DIR ?? null,
    legalDir: e.LEGAL_DIR ?? null,
    metricsToken: e.METRICS_TOKEN ?? null,
    supportChatPhone: e.SUPPORT_CHAT_PHONE ?? null,
    brokerName: e.BROKER_NAME,
    passwordResetRateLimitPerMinute: e.PASSWORD_RESET_RATE_LIMIT_PER_MINUTE,
    passwordStrengthRateLimitPerMinute: e.PASSWORD_STRENGTH_RATE_LIMIT_PER_MINUTE,
    passwordChangeRateLimitPerHour: e.PASSWORD_CHANGE_RATE_LIMIT_PER_HOUR,
    passwordResetsPerAccountPerHour: 3,
    mail: { smtpUrl: e.SMTP_URL ?? null, from: e.MAIL_FROM, outboxDir: e.MAIL_OUTBOX_DIR },
    publicUrl,
    httpsOnly,
    // HSTS only means something to a browser over HTTPS: on by default (180 days) for an https site.
    hstsMaxAgeSeconds: httpsOnly ? (e.HSTS_MAX_AGE_SECONDS ?? 180 * 24 * 3600) : 0,
    scryptCost: 2 ** 16,
    market: {
      feeds: e.MARKET_FEED as Feed[],
      feedToken: e.FEED_TOKEN ?? null,
      simSeed: e.SIM_SEED ?? randomBytes(8).toString('hex'),
      simHistory: e.SIM_HISTORY === 'true',
      sessions: e.MARKET_SESSIONS,
      staleAfterMs: e.QUOTE_STALE_SECONDS * 1000,
      catalogueFile: e.INSTRUMENTS_FILE ?? null,
      polygonApiKey: e.POLYGON_API_KEY ?? null,
      polygonUrl: e.POLYGON_WS_URL,
      binanceUrl: e.BINANCE_WS_URL,
      streamFrameMs: e.STREAM_FRAME_MS,
      flushIntervalMs: 2000,
      streamHeartbeatMs: 15_000,
      streamSessionCheckMs: 60_000,
    },
    trading: {
      marginCallLevel: e.MARGIN_CALL_LEVEL,
      stopOutLevel: e.STOP_OUT_LEVEL,
      marginCheckMs: 250,
      rollover: { zone: e.ROLLOVER_ZONE, minuteOfDay: Number(e.ROLLOVER_TIME.slice(0, 2)) * 60 + Number(e.ROLLOVER_TIME.slice(3)) },
    },
  };
}
