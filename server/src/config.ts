import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { isIP } from 'node:net';
import { hostname } from 'node:os';
import { z } from 'zod';
import { toCents, type Cents } from './domain/money';
import { DEFAULT_ROLLOVER, type RolloverTime } from './domain/rollover-schedule';
import { isTimeZone } from './domain/zoned-time';

function isAddressOrCidr(value: string): boolean {
  const [address, bits, ...rest] = value.split('/');
  if (rest.length > 0 || !address) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

function isSmtpUrl(value: string): boolean {
  const url = URL.canParse(value) ? new URL(value) : null;
  return url !== null && (url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname.length > 0 && (url.pathname === '' || url.pathname === '/');
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Configuration comes from the environment only (docs/operations.md lists every variable).
 * Anything unknown-looking or invalid stops start-up with one message per problem, so an
 * operator never runs with a setting silently ignored.
 */
const int = (name: string, min: number, max: number) =>
  z.coerce.number({ error: `${name} must be a whole number` }).int(`${name} must be a whole number`).min(min, `${name} must be at least ${min}`).max(max, `${name} must be at most ${max}`);
const decimalAmount = (name: string) =>
  z.string().regex(/^[1-9]\d{0,11}(\.\d{1,2})?$/, `${name} must be a positive amount with at most 2 decimals`);

export const FEEDS = ['sim', 'push', 'binance', 'polygon'] as const;
export type Feed = (typeof FEEDS)[number];

const envSchema = z.object({
  PORT: int('PORT', 0, 65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .default('sqlite:./data/tradeport.db')
    .refine((v) => (v.startsWith('sqlite:') && v.length > 'sqlite:'.length) || v.startsWith('postgres://') || v.startsWith('postgresql://'), 'DATABASE_URL must be sqlite:/path.db, sqlite::memory: or postgres://…'),
  ADMIN_EMAIL: z.email('ADMIN_EMAIL must be an email address').optional(),
  ADMIN_PASSWORD: z.string().min(8, 'ADMIN_PASSWORD must be at least 8 characters').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: z
    .string()
    .optional()
    .refine(
      (v) => v !== 'true',
      "TRUST_PROXY=true would believe whatever X-Forwarded-For a client sends (rate limits and logs could be fooled). Set the addresses or CIDR ranges of your reverse proxies (e.g. TRUST_PROXY=10.0.0.5 or 10.0.0.0/8), or, if the server cannot be reached except through them, how many proxies stand in front of it (e.g. TRUST_PROXY=1)",
    )
    .refine((v) => v === undefined || v === 'true' || v === 'false' || /^\d{1,2}$/.test(v) || v.split(',').every((a) => isAddressOrCidr(a.trim())), 'TRUST_PROXY must be false, a hop count, or a comma-separated list of IP addresses / CIDR ranges'),
  PUBLIC_ORIGIN: z
    .string()
    .optional()
    .refine((v) => v === undefined || v.split(',').every((o) => /^https?:\/\/[^/]+$/.test(o.trim())), 'PUBLIC_ORIGIN must be a comma-separated list of origins like https://trade.example.com'),
  HSTS_MAX_AGE_SECONDS: int('HSTS_MAX_AGE_SECONDS', 0, 2 * 365 * 24 * 3600).optional(),
  SESSION_IDLE_MINUTES: int('SESSION_IDLE_MINUTES', 1, 24 * 60).default(60),
  SIGNIN_RATE_LIMIT_PER_MINUTE: int('SIGNIN_RATE_LIMIT_PER_MINUTE', 1, 100_000).default(60),
  SIGNUP_RATE_LIMIT_PER_MINUTE: int('SIGNUP_RATE_LIMIT_PER_MINUTE', 1, 100_000).default(20),
  MAX_DEPOSIT_AMOUNT: decimalAmount('MAX_DEPOSIT_AMOUNT').default('1000000'),
  MAX_WITHDRAWAL_AMOUNT: decimalAmount('MAX_WITHDRAWAL_AMOUNT').default('1000000'),
  WITHDRAWAL_SECOND_APPROVAL_ABOVE: decimalAmount('WITHDRAWAL_SECOND_APPROVAL_ABOVE').default('10000'),
  STAFF_TWO_FACTOR: z.enum(['required', 'optional'], { error: 'STAFF_TWO_FACTOR must be required or optional' }).default('required'),
  DEFAULT_LEVERAGE: int('DEFAULT_LEVERAGE', 1, 1000).default(100),
  ORDER_RATE_LIMIT_PER_MINUTE: int('ORDER_RATE_LIMIT_PER_MINUTE', 1, 1_000_000).default(600),
  MAX_PENDING_ORDERS: int('MAX_PENDING_ORDERS', 1, 100_000).default(200),
  DEMO_INITIAL_BALANCE: decimalAmount('DEMO_INITIAL_BALANCE').default('10000'),
  MAX_LIVE_ACCOUNTS: int('MAX_LIVE_ACCOUNTS', 1, 100).default(3),
  MAX_DEMO_ACCOUNTS: int('MAX_DEMO_ACCOUNTS', 0, 100).default(3),
  EVENT_BUS: z.enum(['memory', 'redis']).default('memory'),
  REDIS_URL: z.string().optional(),
  // Never logged, never echoed in a refusal (only its length is judged).
  CLUSTER_SECRET: z
    .string()
    .min(32, 'CLUSTER_SECRET must be at least 32 characters (e.g. the output of: openssl rand -base64 32)')
    // A newline read from a file on one instance and not another would make two secrets that look alike.
    .refine((v) => v === v.trim(), 'CLUSTER_SECRET must not begin or end with spaces or a newline')
    .optional(),
  INSTANCE_NAME: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9._:-]{1,40}$/, 'INSTANCE_NAME must be 1 to 40 letters, digits, dots, dashes, underscores or colons')
    .optional(),
  WEB_DIST_DIR: z.string().optional(),
  LEGAL_DIR: z
    .string()
    .optional()
    .refine((v) => v === undefined || isDirectory(v), 'LEGAL_DIR must be an existing directory holding the legal documents (*.md)'),
  PASSWORD_RESET_RATE_LIMIT_PER_MINUTE: int('PASSWORD_RESET_RATE_LIMIT_PER_MINUTE', 1, 100_000).default(10),
  PASSWORD_STRENGTH_RATE_LIMIT_PER_MINUTE: int('PASSWORD_STRENGTH_RATE_LIMIT_PER_MINUTE', 1, 100_000).default(30),
  PASSWORD_CHANGE_RATE_LIMIT_PER_HOUR: int('PASSWORD_CHANGE_RATE_LIMIT_PER_HOUR', 1, 100_000).default(20),
  // Credentials may sit in the URL (smtps://user:pass@host:465); it is never logged.
  SMTP_URL: z
    .string()
    .trim()
    .refine((v) => isSmtpUrl(v), 'SMTP_URL must be smtp://[user:password@]host[:port] or smtps://… (URL-encode special characters in the password)')
    .optional(),
  MAIL_FROM: z
    .string()
    .trim()
    .max(300)
    .refine((v) => /^(?:[^<>@\r\n]+ )?<[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+>$|^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/.test(v), 'MAIL_FROM must be an address, with an optional name: Broker Support <support@example.com>')
    .default('Tradeport <no-reply@localhost>'),
  MAIL_OUTBOX_DIR: z.string().trim().min(1, 'MAIL_OUTBOX_DIR must name a directory').default('./data/outbox'),
  BROKER_NAME: z.string().trim().min(1, 'BROKER_NAME must not be empty').max(100, 'BROKER_NAME must be at most 100 characters').default('Tradeport'),
  // People paste numbers as they publish them (+44…); the link wants digits only.
  SUPPORT_CHAT_PHONE: z
    .string()
    .trim()
    .transform((v) => v.replace(/^\+/, ''))
    .refine((v) => /^\d{6,15}$/.test(v), 'SUPPORT_CHAT_PHONE must be a phone number in international format, digits only (6 to 15, an optional leading + is dropped), e.g. +447700900123')
    .optional(),
  MARKET_FEED: z
    .string()
    .default('sim')
    .transform((v) => v.split(',').map((f) => f.trim().toLowerCase()).filter((f) => f.length > 0))
    .refine((list) => list.length > 0 && list.every((f) => FEEDS.includes(f as Feed)), `MARKET_FEED must be a comma-separated list of ${FEEDS.join(', ')}`),
  FEED_TOKEN: z.string().min(16, 'FEED_TOKEN must be at least 16 characters').optional(),
  // Never logged, never echoed in a refusal.
  METRICS_TOKEN: z
    .string()
    .min(16, 'METRICS_TOKEN must be at least 16 characters (e.g. the output of: openssl rand -hex 24)')
    .max(512, 'METRICS_TOKEN must be at most 512 characters')
    // Sent as `Authorization: Bearer <token>`: a header value cannot carry spaces or a newline read from a file.
    .refine((v) => /^[\x21-\x7e]+$/.test(v), 'METRICS_TOKEN must be visible ASCII characters only, without spaces')
    .optional(),
  SIM_SEED: z.string().max(100).optional(),
  SIM_HISTORY: z.enum(['true', 'false'], { error: 'SIM_HISTORY must be true or false' }).default('true'),
  MARKET_SESSIONS: z.enum(['real', 'always'], { error: 'MARKET_SESSIONS must be real or always' }).default('real'),
  QUOTE_STALE_SECONDS: int('QUOTE_STALE_SECONDS', 1, 86_400).default(30),
  INSTRUMENTS_FILE: z.string().optional(),
  POLYGON_API_KEY: z.string().min(1).optional(),
  // Provider URLs are logged; keys belong in POLYGON_API_KEY, never in a URL.
  POLYGON_WS_URL: z.string().regex(/^wss?:\/\/[^\s@?#]+$/, 'POLYGON_WS_URL must be a ws:// or wss:// URL without credentials or query').default('wss://socket.polygon.io'),
  BINANCE_WS_URL: z.string().regex(/^wss?:\/\/[^\s@?#]+$/, 'BINANCE_WS_URL must be a ws:// or wss:// URL without credentials or query').default('wss://stream.binance.com:9443'),
  STREAM_FRAME_MS: int('STREAM_FRAME_MS', 10, 1000).default(100),
  MARGIN_CALL_LEVEL: int('MARGIN_CALL_LEVEL', 1, 10_000).default(100),
  STOP_OUT_LEVEL: int('STOP_OUT_LEVEL', 0, 10_000).default(50),
  ROLLOVER_TIME: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'ROLLOVER_TIME must be a time of day, HH:MM (00:00 to 23:59)').default('17:00'),
  ROLLOVER_ZONE: z.string().refine(isTimeZone, 'ROLLOVER_ZONE must be an IANA time zone such as America/New_York').default(DEFAULT_ROLLOVER.zone),
});


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
