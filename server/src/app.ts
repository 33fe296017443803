import { STATUS_CODES } from 'node:http';
import type { Duplex, Writable } from 'node:stream';
import { resolve } from 'node:path';
import { PASSWORD_RESET_VALID_MINUTES } from '@tradeport/contracts';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { InProcessEventBus, type EventBus } from './bus/event-bus';
import { RedisEventBus } from './bus/redis-event-bus';
import { Cluster } from './cluster/cluster';
import { clusterKeys } from './cluster-keys';
import type { LeaseTiming } from './cluster/leader-lease';
import { holdStartupLock } from './cluster/startup-lock';
import { ConfigError, type AppConfig } from './config';
import { Mailer } from './mail/mailer';
import { productionPasswordPolicy } from './services/password-strength';
import { MarketData } from './market/market-data';
import { Metrics } from './metrics';
import { metricsPlugin } from './plugins/metrics';
import { routesPlugin } from './plugins/routes';
import { BODY_LIMIT_BYTES, securityPlugin } from './plugins/security';
import { sessionsPlugin } from './plugins/sessions';
import { webAppPlugin } from './plugins/web-app';
import { ensureBootstrapAdmin } from './services/bootstrap';
import type { ServiceContext } from './services/context';
import { syncCountries } from './services/countries';
import { lazyChildLogger } from './request-logger';
import { DEFAULT_LEGAL_DIR, LegalLibrary } from './services/legal-documents';
import { SessionCache } from './services/session-cache';
import { openDatabase, type DatabaseHandle } from './storage/db';
import { migrateToLatest } from './storage/migrate';
import { TradingEngine } from './trading/engine';

export interface BuildOptions {
  config: AppConfig;
  /** Injected clock (epoch ms) for tests; defaults to Date.now. */
  now?: () => number;
  /** Logger settings; tests pass `false`. */
  logger?: FastifyServerOptions['logger'];
  /** Called once with the bootstrap admin's generated password, if one was generated. */
  onGeneratedAdminPassword?: (email: string, password: string) => void;
  /** Tests shorten the engine lead's polling and checks (cluster/leader-lease.ts). */
  leaseTiming?: LeaseTiming;
}

/** Answers a request the HTTP parser refused, in the spec's `{status, message}` shape, and closes the connection. */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex, log: (err: unknown) => void): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  log(err);
  // A hook may have answered already (a refused Origin, before the bad body arrived): one answer
  // per request, so the connection just closes (Node's own handler checks the same).
  const current = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (current?.headersSent) return void socket.destroy();
  const [code, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'The request headers are too large.']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'The request took too long to arrive.']
        : [400, 'The request is not valid HTTP.'];
  const body = JSON.stringify({ status: 'Failure', message });
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${code} ${STATUS_CODES[code]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy();
}

/**
 * The server's logger: pino's JSON lines on standard output, or into `stream` (main.ts gives the
 * readable one of `readableLog` when standard output is a terminal).
 */
export function loggerOptions(level: string, stream?: Writable): FastifyServerOptions['logger'] {
  return {
    level,
    // Requests are logged once, by the sessions plugin's onResponse hook, with no headers;
    // redaction is a second guard.
    redact: { paths: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]', '*.password', '*.newPassword', '*.currentPassword', '*.token', '*.code', '*.backupCodes', '*.secret'], censor: '[redacted]' },
    ...(stream ? { stream } : {}),
  };
}

/**
 * Log lines for a person at a terminal (pino-pretty): time, level and message, then the line's
 * fields on the same line, in colour on standard output. Written synchronously, so nothing is lost
 * when the process exits. Loaded only when asked for: a server logging JSON never loads it.
 */
export async function readableLog(destination: number | Writable = 1): Promise<Writable> {
  const { default: pretty } = await import('pino-pretty');
  return pretty({ destination, colorize: destination === 1, sync: true, singleLine: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
}

/**
 * Builds the whole server: database (migrated), bus, services, market data and trading engine,
 * then the HTTP side as plugins in order — security (headers, body limit, CSRF, rate limits,
 * errors), sessions (cookies, session cache, request log), metrics (`/metrics`, request counts),
 * routes (every API call and the stream) and the web app (static files and the fallback). The
 * metrics (metrics.ts) are made first, so the database and the engine report to them. Nothing
 * listens yet; the caller decides the port. Closing the app stops the engine and market data and
 * closes the bus and the database.
 */
export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const { config } = options;
  // The HTTP instance comes first: it owns the logger the storage and bus report through.
  const app = Fastify({
    logger: options.logger ?? loggerOptions(config.logLevel),
    // Fastify's own two lines per request are off: the sessions plugin writes one.
    logController: new LogController({ disableRequestLogging: true }),
    // A request's child logger is made only if the request logs a line (request-logger.ts).
    childLoggerFactory: lazyChildLogger,
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.trustProxy,
    requestTimeout: 30_000,
    connectionTimeout: 60_000,
    // Requests arriving while the app closes are refused by the security plugin, in the spec's shape
    // with Retry-After, instead of Fastify's bare 503.
    return503OnClosing: false,
    // Requests Node's HTTP parser cannot read (a bad or negative Content-Length, both Content-Length
    // and Transfer-Encoding, a bad chunk, a header without a colon, control characters, headers
    // too large) never reach a route: they get the spec's shape here too, not Fastify's default.
    clientErrorHandler: (err, socket) => answerClientError(err, socket, (e) => app.log.debug({ code: (e as NodeJS.ErrnoException).code }, 'malformed HTTP request refused')),
  });

  const metrics = new Metrics(config.metricsToken, options.now ?? Date.now, app.log);
  const handle: DatabaseHandle = openDatabase(config.databaseUrl, (err) => app.log.warn({ err }, 'database connection dropped'), { observe: metrics.database });
  let bus: EventBus | null = null;
  // Instances started together on PostgreSQL migrate and seed one after another (cluster/startup-lock.ts).
  let startupLock: (() => Promise<void>) | null = null;
  const startupDone = async () => {
    const release = startupLock;
    startupLock = null;
    await release?.();
  };
  try {
    if (handle.engine === 'postgres') startupLock = await holdStartupLock(config.databaseUrl);
    await migrateToLatest(handle);
    await syncCountries(handle.db);
    const onBusError = (err: unknown) => app.log.warn({ err }, 'event bus error');
    if (config.eventBus === 'redis') {
      // loadConfig refuses this too; a configuration built in code gets the same answer.
      if (!config.redisUrl || !config.clusterSecret) throw new ConfigError('Invalid configuration:\n  - EVENT_BUS=redis needs REDIS_URL and CLUSTER_SECRET');
      bus = await RedisEventBus.connect(config.redisUrl, clusterKeys(config.clusterSecret), onBusError);
    } else bus = new InProcessEventBus();
  } catch (err) {
    await startupDone();
    await handle.close().catch(() => undefined);
    throw err;
  }
  // One close hook, so the order is explicit: providers stop and the last candles and quotes are
  // written while the bus and the database are still open.
  let market: MarketData | null = null;
  let trading: TradingEngine | null = null;
  let cluster: Cluster | null = null;
  const now = options.now ?? Date.now;
  const mailer = Mailer.create(config.mail, now, app.log);
  if (config.staffTwoFactor === 'optional') {
    app.log.warn('STAFF_TWO_FACTOR=optional: staff may sign in with a password alone. Fit for a test or demo installation only; leave it unset (required) in production');
  }
  if (mailer.mode === 'outbox') {
    app.log.warn(
      { outbox: resolve(config.mail.outboxDir) },
      `SMTP_URL is not set: no mail is sent. Password-reset mails are written to the dev outbox instead and deleted after ${PASSWORD_RESET_VALID_MINUTES} minutes; set SMTP_URL to send them`,
    );
  }
  app.addHook('onClose', async () => {
    // The engine stops before the lock is given back, so the next leader never overlaps with it;
    // and nothing takes the lead, or is still loading the engine, once it is stopped here.
    await cluster?.stopLeading().catch((err: unknown) => app.log.warn({ err }, 'the engine lead was not settled before shutdown'));
    await trading?.stop().catch((err: unknown) => app.log.warn({ err }, 'trading engine did not stop cleanly'));
    await market?.stop().catch((err: unknown) => app.log.warn({ err }, 'market data did not stop cleanly'));
    await cluster?.close().catch((err: unknown) => app.log.warn({ err }, 'the engine lead was not given back cleanly'));
    await bus?.close();
    await mailer.close();
    await handle.close();
  });

  const services: ServiceContext = {
    db: handle.db,
    engine: handle.engine,
    config,
    bus,
    passwordPolicy: productionPasswordPolicy(),
    mailer,
    now,
    sessionCache: new SessionCache(),
    legal: new LegalLibrary(config.legalDir ?? DEFAULT_LEGAL_DIR),
    metrics,
  };
  app.decorate('services', services);

  try {
    const admin = await ensureBootstrapAdmin(services);
    if (admin.created && admin.generatedPassword) options.onGeneratedAdminPassword?.(admin.email, admin.generatedPassword);
    // Every instance loads market data and builds the engine; only the engine leader (always the
    // single SQLite process) starts the feeds and the engine (cluster/cluster.ts).
    market = await MarketData.start(handle.db, config.market, services.now, app.log, { lead: false });
    await startupDone();
    app.decorate('market', market);
    trading = new TradingEngine(services, market, app.log);
    app.decorate('trading', trading);
    // Each account type's prices, here whether this instance leads or not (the stream sends them),
    // and again whenever a type is saved on any instance.
    const engine = trading;
    await engine.reloadTypePrices();
    const rereadPrices = () => void engine.reloadTypePrices().catch((err: unknown) => app.log.warn({ err }, "could not read the account types' prices again"));
    // An instrument saved in the back office (on any instance) applies here too, its prices with it.
    const loaded = market;
    const reread = (symbol?: string) =>
      void loaded
        .reloadInstruments(symbol)
        .catch((err: unknown) => app.log.warn({ err, symbol }, 'could not read the instrument catalogue again'))
        .then(rereadPrices);
    bus.subscribe((event) => {
      if (event.type === 'accountTypes.changed') rereadPrices();
      if (event.type === 'instrument.changed') reread(event.symbol);
    });
    // A bus that lost its subscription may have missed a change: read them again when it is back.
    bus.onLink?.((link, state) => {
      if (link === 'subscribe' && state === 'up') reread();
    });
    cluster = new Cluster({ config, db: handle.db, bus, market, trading, log: app.log, leaseTiming: options.leaseTiming });
    app.decorate('cluster', cluster);
    const leading = cluster;
    metrics.follow({ book: market.book, role: () => leading.role });
    // A call that says another instance forwarded it goes no further unless it verifies (whatever
    // its route), after its body was parsed: the signature covers the body.
    const forwarder = cluster.forwarder;
    app.addHook('preHandler', (request, reply, done) => {
      if (forwarder.admit(request, reply)) done();
    });
    await cluster.start();
    const started = cluster;
    app.server.once('listening', () => void started.advertise(app.server.address()));
  } catch (err) {
    await startupDone();
    await app.close();
    throw err;
  }

  await app.register(securityPlugin, { config });
  await app.register(sessionsPlugin);
  await app.register(metricsPlugin);
  await app.register(routesPlugin);
  await app.register(webAppPlugin, { webDistDir: config.webDistDir ?? undefined });
  // The answer to a forwarded call that verified is signed, however it was answered (the call, a
  // refusal, a shutdown's), so the follower can tell it from anyone else's. Added last, so that it
  // runs after every other onSend hook (the session cookie's is one): it signs the headers they set.
  const signing = app.cluster.forwarder;
  app.addHook('onSend', (request, reply, payload, done) => {
    signing.signAnswer(request, reply, payload);
    done(null, payload);
  });
  return app;
}
