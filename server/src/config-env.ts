import { statSync } from 'node:fs';
import { isIP } from 'node:net';
import { z } from 'zod';
import { DEFAULT_ROLLOVER } from './domain/rollover-schedule';
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

export const envSchema = z.object({
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
