import type { IncomingMessage, ServerResponse } from 'node:http';
import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';
import { Redis } from 'ioredis';
import { ENGINE_MOVING, sendRetryable } from '../cluster/engine-calls';
import { FORWARDED_HEADER } from '../cluster/forwarded-signature';
import type { AppConfig } from '../config';
import { memoryCounter, rateLimitStore, sharedCounter, type WindowCounter } from './rate-limit-store';
import { SESSION_LOOKUP_TIMEOUT } from './sessions';
import { messageForFrameworkError, sendFailure } from '../transport/http/responses';
import { isSameSite } from '../transport/http/same-site';

export const BODY_LIMIT_BYTES = 64 * 1024;
/** Where the per-address rate-limit counts live in Redis (with EVENT_BUS=redis). */
export const RATE_LIMIT_KEY_PREFIX = 'tradeport:rate-limit:';
/** A count Redis has not answered within this long is made in the instance's memory instead. */
const RATE_LIMIT_REDIS_TIMEOUT_MS = 500;
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** The answer to a request that reaches an instance shutting down (a rolling restart, say). */
export const SERVER_RESTARTING = 'This server is restarting; nothing was done. Please try again in a moment.';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route is called by servers with their own credentials, not by browsers with cookies. */
    csrfExempt?: boolean;
    /** The route accepts multipart/form-data bodies. */
    multipart?: boolean;
  }
  interface FastifyInstance {
    /** Fixed-window request counts: in Redis with several instances (shared by all), else in this process. */
    windowCounts: WindowCounter;
  }
}


/**
 * The web app's one inline script (web/index.html: it sets the colour scheme before the first
 * paint), allowed by its hash and nothing else inline. A test recomputes it from web/index.html, so
 * an edit of the script that forgets this fails there instead of being blocked in browsers.
 */
export const INLINE_SCRIPT_HASHES = ["'sha256-KnaM3vFMndThQLPtkeJMpvpTYsBltQHeAfX+0vrjTHM='"];

const CONTENT_SECURITY_POLICY = {
  directives: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", ...INLINE_SCRIPT_HASHES],
    // Mantine sets CSS custom properties through style attributes.
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    fontSrc: ["'self'", 'data:'],
    objectSrc: ["'none'"],
    frameAncestors: ["'none'"],
    upgradeInsecureRequests: null,
  },
};

/** Helmet's options for this server: HSTS only when the site is public over HTTPS (`hstsMaxAgeSeconds`). */
export function helmetOptions(config: Pick<AppConfig, 'hstsMaxAgeSeconds'>): HelmetOptions {
  return {
    contentSecurityPolicy: CONTENT_SECURITY_POLICY,
    // Not includeSubDomains: the broker's other hosts are not ours to pin to HTTPS.
    strictTransportSecurity: config.hstsMaxAgeSeconds > 0 ? { maxAge: config.hstsMaxAgeSeconds, includeSubDomains: false } : false,
  };
}

/**
 * The security headers helmet sets with our options. They depend on nothing in the request, so
 * helmet runs once, here, against a stand-in response, instead of on every request (where parsing
 * its CSP directives anew cost several percent of an API call).
 */
export function securityHeaders(options: HelmetOptions = helmetOptions({ hstsMaxAgeSeconds: 0 })): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: string | number | readonly string[]) => void (headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  let failure: unknown = null;
  helmet(options)({} as IncomingMessage, res as unknown as ServerResponse, (err?: unknown) => void (failure = err ?? null));
  if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
  return headers;
}

/**
 * What keeps requests honest before any route runs: security headers on every answer, one body
 * limit for every kind of body, the CSRF origin check, multipart only where a call takes a form,
 * rate limiting (per route), and errors answered in the spec's shape without details.
 */
async function security(app: FastifyInstance, { config }: { config: AppConfig }): Promise<void> {
  const headers = securityHeaders(helmetOptions(config));
  const headerNames = Object.keys(headers);
  // The app's hashed files (scripts, styles, fonts) are never documents: the policies that govern a
  // page (CSP, framing, referrer, opener, …) mean nothing on them. They keep what applies to any
  // resource — no sniffing, same-origin use, HSTS — and a page of ~20 such files loads about 600
  // bytes lighter each (the terminal's script budget counts every byte on the wire).
  const assetHeaderNames = headerNames.filter((name) => ASSET_HEADERS.has(name));

  const shared = config.eventBus === 'redis' && config.redisUrl ? sharedCounts(app, config.redisUrl) : null;
  app.decorate('windowCounts', shared ?? memoryCounter());
  await app.register(fastifyRateLimit, {
    global: false,
    ...(shared ? { store: rateLimitStore(shared, RATE_LIMIT_KEY_PREFIX) } : {}),
    keyGenerator: (request) => request.ip,
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      code: 'RATE_LIMITED',
      message: `Too many attempts from your network. Please wait ${Math.max(1, Math.ceil(context.ttl / 1000))} seconds and try again.`,
    }),
  });

  // Once the app starts closing, a request still arriving — on a kept-alive connection, or after a
  // slow one on the same connection — is refused before anything runs, as a retryable 503 in the
  // spec's shape (Fastify's own `return503OnClosing` answer has neither, so it is off in app.ts).
  // Fastify adds `Connection: close` to it, so the client's next try opens a connection, which the
  // balancer sends to another instance. A call forwarded here by another instance, which took this
  // one for the engine leader, is told the engine is moving, as the forwarder would say itself.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });

  // One synchronous hook for every request (no promise per request).
  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const asset = (request.method === 'GET' || request.method === 'HEAD') && request.url.startsWith('/assets/');
    for (const name of asset ? assetHeaderNames : headerNames) reply.header(name, headers[name]);
    if (closing) {
      request.log.info({ method: request.method, url: request.url.split('?')[0] }, 'request refused: the server is shutting down');
      return void sendRetryable(reply, request.headers[FORWARDED_HEADER] === undefined ? SERVER_RESTARTING : ENGINE_MOVING);
    }
    // The JSON parser enforces bodyLimit itself; this makes the same limit hold for every body,
    // multipart forms included, before any of it is read.
    if (Number(request.headers['content-length'] ?? 0) > BODY_LIMIT_BYTES) return void sendFailure(reply, 413, 'The request is too large.');
    if (STATE_CHANGING.has(request.method)) {
      // CSRF: a state-changing call must come from a page of this site. Browsers always send Origin
      // (or at least Referer) on such requests, so one naming another site, or neither, is refused.
      // The check keys on the method, not the path, so no spelling of a URL can route around it; a
      // route meant for non-browser clients (the price feed) opts out through its config.
      if (request.routeOptions.config.csrfExempt !== true && !isSameSite(request.headers.origin ?? request.headers.referer, request.headers.host, config.publicOrigins)) {
        return void sendFailure(reply, 403, 'Cross-site request refused: this call must come from the Tradeport web app.');
      }
      // Multipart bodies are read only by the calls the spec gives a form; elsewhere they are refused
      // before parsing, so a plain cross-site HTML form has nothing to aim at.
      if (request.headers['content-type']?.toLowerCase().startsWith('multipart/') && request.routeOptions.config.multipart !== true) {
        return void sendFailure(reply, 415, 'Unsupported content type. Send JSON.');
      }
    }
    done();
  });

  app.setErrorHandler((error: { statusCode?: number; code?: string; message?: string }, request, reply) => {
    const statusCode = error.statusCode ?? 500;
    if (statusCode === 429) return sendFailure(reply, 429, error.message ?? 'Too many requests.');
    if (statusCode >= 400 && statusCode < 500) return sendFailure(reply, statusCode, messageForFrameworkError(error.code, statusCode));
    // The database out of reach or out of connections (a restart, a network cut, a pool exhausted
    // under load; in the session check before the handler too): the client may try again, and
    // every money or order call carries an Idempotency-Key, so a retry never acts twice.
    if (databaseUnavailable(error)) {
      request.log.warn({ err: error }, 'request failed: the database is not answering');
      reply.header('retry-after', '2');
      return sendFailure(reply, 503, 'The service is busy or briefly unavailable. Please try again in a moment.');
    }
    // PostgreSQL broke a lock cycle or a serialization conflict by rolling this request's
    // transaction back (two instances writing the same rows in another order, say): nothing of
    // it was written, so it is the client's to send again, not a bug of ours.
    if (transactionConflict(error)) {
      request.log.warn({ err: error }, 'request rolled back: its transaction conflicted with another one');
      reply.header('retry-after', '1');
      return sendFailure(reply, 503, CONFLICT_MESSAGE);
    }
    // Body parsers (the multipart one in particular) throw plain errors for malformed input; an
    // error raised before the route's handler started is the client's, not ours.
    if (!request.handlerStarted) return sendFailure(reply, 400, 'The request body could not be read.');
    request.log.error({ err: error }, 'request failed');
    return sendFailure(reply, 500, 'Something went wrong on our side. Please try again.');
  });
}

/** The security headers a static, hashed, non-document file keeps (see `security`). */
const ASSET_HEADERS = new Set(['x-content-type-options', 'cross-origin-resource-policy', 'strict-transport-security']);

/** Connection-class failures of the database driver (node-postgres and its pool), as opposed to a bug. */
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', '57P01', '57P02', '57P03', '53300', '08000', '08001', '08003', '08004', '08006']);
const CONNECTION_MESSAGES = /timeout exceeded when trying to connect|Connection terminated|Client has encountered a connection error|connection timeout|too many clients/i;

/** PostgreSQL's deadlock_detected and serialization_failure: the transaction was rolled back whole. */
const CONFLICT_CODES = new Set(['40P01', '40001']);
export const CONFLICT_MESSAGE = 'This request ran into another change at the same moment and was not carried out. Please try again.';

export function transactionConflict(error: { code?: string }): boolean {
  return error.code !== undefined && CONFLICT_CODES.has(error.code);
}

export function databaseUnavailable(error: { code?: string; message?: string }): boolean {
  return (error.code !== undefined && (CONNECTION_CODES.has(error.code) || error.code === SESSION_LOOKUP_TIMEOUT)) || CONNECTION_MESSAGES.test(error.message ?? '');
}

/**
 * With several instances (EVENT_BUS=redis) the counts of the rate limits (per address, and per user
 * for the order calls) are kept in Redis, so they hold across the instances. If Redis does not
 * answer, each instance counts on its own meanwhile (rate-limit-store.ts): sign-in, sign-up,
 * password reset and orders go on, limited per instance, and the log says so once per outage.
 */
function sharedCounts(app: FastifyInstance, redisUrl: string): WindowCounter {
  const redis = new Redis(redisUrl, {
    // A command never waits for a connection: without one it fails at once, and the count is made here.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: RATE_LIMIT_REDIS_TIMEOUT_MS,
    connectTimeout: 2000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
  // Connection errors show as the fallback's one warning (below) when a count needs Redis.
  redis.on('error', () => undefined);
  app.addHook('onClose', async () => void redis.disconnect());
  return sharedCounter(redis, {
    fellBack: (err) => app.log.warn({ err }, 'rate limits: Redis does not answer; this instance counts sign-in, sign-up, password-reset and order attempts on its own until it does'),
    recovered: () => app.log.warn('rate limits: Redis answers again; attempts are counted across instances'),
  });
}

export const securityPlugin = fp(security, { name: 'tradeport-security', fastify: '5.x' });
