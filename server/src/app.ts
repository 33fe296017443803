import { existsSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifyMultipart from '@fastify/multipart';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import { dictionary } from '@zxcvbn-ts/language-common';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { InProcessEventBus, type EventBus } from './bus/event-bus';
import { RedisEventBus } from './bus/redis-event-bus';
import type { AppConfig } from './config';
import { createPasswordPolicy } from './domain/password-policy';
import { ensureBootstrapAdmin } from './services/bootstrap';
import type { ServiceContext } from './services/context';
import { syncCountries } from './services/countries';
import { pruneSessions } from './services/sessions';
import { prunePasswordResets } from './services/password-reset';
import { Mailer } from './mail/mailer';
import { openDatabase, type DatabaseHandle } from './storage/db';
import { migrateToLatest } from './storage/migrate';
import { messageForFrameworkError, sendFailure } from './transport/http/responses';
import { accountRoutes } from './transport/http/routes/account-routes';
import { adminRoutes } from './transport/http/routes/admin-routes';
import { authRoutes } from './transport/http/routes/auth-routes';
import { systemRoutes } from './transport/http/routes/system-routes';
import { marketRoutes } from './transport/http/routes/market-routes';
import { siteRoutes } from './transport/http/routes/site-routes';
import { isSameSite } from './transport/http/same-site';
import { streamRoute } from './transport/ws/stream-route';
import { MarketData } from './market/market-data';
import { TradingEngine } from './trading/engine';
import { tradingRoutes } from './transport/http/routes/trading-routes';
import fastifyWebsocket from '@fastify/websocket';

export interface BuildOptions {
  config: AppConfig;
  /** Injected clock (epoch ms) for tests; defaults to Date.now. */
  now?: () => number;
  /** Logger settings; tests pass `false`. */
  logger?: FastifyServerOptions['logger'];
  /** Called once with the bootstrap admin's generated password, if one was generated. */
  onGeneratedAdminPassword?: (email: string, password: string) => void;
}

const BODY_LIMIT_BYTES = 64 * 1024;
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route is called by servers with their own credentials, not by browsers with cookies. */
    csrfExempt?: boolean;
    /** The route accepts multipart/form-data bodies. */
    multipart?: boolean;
  }
}

/** Answers a request the HTTP parser refused, in the spec's `{status, message}` shape, and closes the connection. */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex, log: (err: unknown) => void): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  log(err);
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

const defaultWebDist = () => resolve(dirname(fileURLToPath(import.meta.url)), '../../web/dist');

/**
 * Files under `assets/` carry a content hash in their names (Vite), so they never change: browsers
 * keep them a year without asking. Everything else, index.html first (also when it answers a
 * client-side route), is revalidated on every load (ETag / Last-Modified), so a deploy shows at once.
 */
export function webCacheControl(pathInDist: string): string {
  const path = pathInDist.split(sep).join('/');
  return path.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
}

export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    // Requests are logged once, by the onResponse hook, with no headers; redaction is a second guard.
    redact: { paths: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]', '*.password', '*.newPassword', '*.currentPassword', '*.token'], censor: '[redacted]' },
  };
}

/**
 * Builds the whole server: database (migrated), bus, services, HTTP routes and the web app.
 * Nothing listens yet; the caller decides the port. Closing the app closes the database and bus.
 */
export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const { config } = options;
  // The HTTP instance comes first: it owns the logger the storage and bus report through.
  const app = Fastify({
    logger: options.logger ?? loggerOptions(config.logLevel),
    // Fastify's own two lines per request are off: the onResponse hook below writes one.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.trustProxy,
    requestTimeout: 30_000,
    connectionTimeout: 60_000,
    return503OnClosing: true,
    // Requests Node's HTTP parser cannot read (a bad or negative Content-Length, both Content-Length
    // and Transfer-Encoding, a bad chunk, a header without a colon, control characters, headers
    // too large) never reach a route: they get the spec's shape here too, not Fastify's default.
    clientErrorHandler: (err, socket) => answerClientError(err, socket, (e) => app.log.debug({ code: (e as NodeJS.ErrnoException).code }, 'malformed HTTP request refused')),
  });

  const handle: DatabaseHandle = openDatabase(config.databaseUrl, (err) => app.log.warn({ err }, 'database connection dropped'));
  let bus: EventBus | null = null;
  try {
    await migrateToLatest(handle);
    await syncCountries(handle.db);
    const onBusError = (err: unknown) => app.log.warn({ err }, 'event bus error');
    bus = config.eventBus === 'redis' && config.redisUrl ? await RedisEventBus.connect(config.redisUrl, onBusError) : new InProcessEventBus();
  } catch (err) {
    await handle.close().catch(() => undefined);
    throw err;
  }
  // One close hook, so the order is explicit: providers stop and the last candles and quotes are
  // written while the bus and the database are still open.
  let market: MarketData | null = null;
  let trading: TradingEngine | null = null;
  const now = options.now ?? Date.now;
  const mailer = Mailer.create(config.mail, now, app.log);
  if (mailer.mode === 'outbox') app.log.info({ outbox: resolve(config.mail.outboxDir) }, 'SMTP_URL is not set: mails are not sent, they are written to the dev outbox');
  app.addHook('onClose', async () => {
    await trading?.stop().catch((err: unknown) => app.log.warn({ err }, 'trading engine did not stop cleanly'));
    await market?.stop().catch((err: unknown) => app.log.warn({ err }, 'market data did not stop cleanly'));
    await bus?.close();
    await mailer.close();
    await handle.close();
  });

  const services: ServiceContext = {
    db: handle.db,
    engine: handle.engine,
    config,
    bus,
    passwordPolicy: createPasswordPolicy(dictionary['passwords-common'] as string[]),
    mailer,
    now,
  };
  app.decorate('services', services);

  try {
    const admin = await ensureBootstrapAdmin(services);
    if (admin.created && admin.generatedPassword) options.onGeneratedAdminPassword?.(admin.email, admin.generatedPassword);
    market = await MarketData.start(handle.db, config.market, services.now, app.log);
    app.decorate('market', market);
    trading = new TradingEngine(services, market, app.log);
    await trading.start();
    app.decorate('trading', trading);
  } catch (err) {
    await app.close();
    throw err;
  }

  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Mantine sets CSS custom properties through style attributes.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    hsts: false,
  });
  await app.register(fastifyCookie);
  // Forms carry a few short fields. A field may be as long as a whole JSON body, so nothing is
  // silently cut short below the body limit (which the Content-Length check below enforces).
  await app.register(fastifyMultipart, { attachFieldsToBody: 'keyValues', limits: { files: 0, fields: 20, fieldSize: BODY_LIMIT_BYTES, parts: 20 } });
  await app.register(fastifyRateLimit, {
    global: false,
    keyGenerator: (request) => request.ip,
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      code: 'RATE_LIMITED',
      message: `Too many attempts from your network. Please wait ${Math.max(1, Math.ceil(context.ttl / 1000))} seconds and try again.`,
    }),
  });

  // The JSON parser enforces bodyLimit itself; this makes the same limit hold for every body,
  // multipart forms included, before any of it is read.
  app.addHook('onRequest', async (request, reply) => {
    const length = Number(request.headers['content-length'] ?? 0);
    if (length > BODY_LIMIT_BYTES) return sendFailure(reply, 413, 'The request is too large.');
  });

  // CSRF: a state-changing call must come from a page of this site. Browsers always send Origin
  // (or at least Referer) on such requests, so one naming another site, or neither, is refused.
  // The check keys on the method, not the path, so no spelling of a URL can route around it; a
  // route meant for non-browser clients (the price feed) opts out through its config.
  app.addHook('onRequest', async (request, reply) => {
    if (!STATE_CHANGING.has(request.method)) return;
    if (request.routeOptions.config.csrfExempt !== true && !isSameSite(request.headers.origin ?? request.headers.referer, request.headers.host, config.publicOrigins)) {
      return sendFailure(reply, 403, 'Cross-site request refused: this call must come from the Tradeport web app.');
    }
    // Multipart bodies are read only by the calls the spec gives a form; elsewhere they are refused
    // before parsing, so a plain cross-site HTML form has nothing to aim at.
    if (request.headers['content-type']?.toLowerCase().startsWith('multipart/') && request.routeOptions.config.multipart !== true) {
      return sendFailure(reply, 415, 'Unsupported content type. Send JSON.');
    }
  });

  app.addHook('onResponse', async (request, reply) => {
    const session = request.sessionPromise ? await request.sessionPromise.catch(() => null) : null;
    request.log.info({ method: request.method, url: request.url.split('?')[0], statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime), ip: request.ip, userId: session?.userId }, 'request');
  });

  app.setErrorHandler((error: { statusCode?: number; code?: string; message?: string }, request, reply) => {
    const statusCode = error.statusCode ?? 500;
    if (statusCode === 429) return sendFailure(reply, 429, error.message ?? 'Too many requests.');
    if (statusCode >= 400 && statusCode < 500) return sendFailure(reply, statusCode, messageForFrameworkError(error.code, statusCode));
    // Body parsers (the multipart one in particular) throw plain errors for malformed input; an
    // error raised before the route's handler started is the client's, not ours.
    if (!request.handlerStarted) return sendFailure(reply, 400, 'The request body could not be read.');
    request.log.error({ err: error }, 'request failed');
    return sendFailure(reply, 500, 'Something went wrong on our side. Please try again.');
  });

  await app.register(fastifyWebsocket, {
    options: { maxPayload: 16 * 1024, perMessageDeflate: false },
    // A client breaking the WebSocket protocol (invalid UTF-8, an unmasked frame, a bad opcode, a
    // payload over the limit) is the client's fault: one short line, no stack, so a signed-in user
    // cannot flood the error log. Anything else is ours and logged in full.
    errorHandler: (error: Error & { code?: string }, socket, request) => {
      if (typeof error.code === 'string' && (error.code.startsWith('WS_ERR_') || error.code === 'ECONNRESET' || error.code === 'EPIPE')) {
        request.log.info({ code: error.code, ip: request.ip }, 'stream connection closed: the client broke the WebSocket protocol');
      } else {
        request.log.error({ err: error }, 'stream connection failed');
      }
      socket.terminate();
    },
  });
  streamRoute(app, bus);

  systemRoutes(app);
  marketRoutes(app);
  tradingRoutes(app);
  authRoutes(app);
  accountRoutes(app);
  adminRoutes(app);
  siteRoutes(app);

  const webDist = resolve(config.webDistDir ?? defaultWebDist());
  const hasWeb = existsSync(resolve(webDist, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: ['index.html'],
      // The build writes .br and .gz beside each file worth compressing; the client's
      // Accept-Encoding picks one (brotli first), and every answer says it varies on it.
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, path) => void reply.header('cache-control', webCacheControl(relative(webDist, path))),
    });
  }

  app.setNotFoundHandler(async (request, reply) => {
    if (request.url.startsWith('/api/') || request.url === '/api') return sendFailure(reply, 404, 'No such API call.');
    if (request.method !== 'GET' && request.method !== 'HEAD') return sendFailure(reply, 404, 'Not found.');
    // A missing bundle file must not be answered with the page (a browser would run HTML as a script).
    if (request.url.startsWith('/assets/')) return reply.code(404).header('cache-control', 'no-cache').type('text/plain').send('Not found.');
    // The web app routes on the client: every other page path serves its entry document.
    if (hasWeb) return reply.type('text/html').sendFile('index.html');
    return reply.code(503).type('text/plain').send('The web app has not been built. Run `npm run build` (npm start does this).');
  });

  const pruneTimer = setInterval(() => {
    void pruneSessions(services).catch((err: unknown) => app.log.warn({ err }, 'session pruning failed'));
    void prunePasswordResets(services).catch((err: unknown) => app.log.warn({ err }, 'password-reset pruning failed'));
  }, 3600_000);
  pruneTimer.unref();
  app.addHook('onClose', async () => clearInterval(pruneTimer));
  return app;
}
