import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { pruneIdempotencyKeys } from '../services/idempotency';
import { prunePasswordResets } from '../services/password-reset';
import { changesSessions } from '../services/session-cache';
import { flushTouches, pruneSessions, TOUCH_FLUSH_MS, type SessionUser } from '../services/sessions';
import { SESSION_LOOKUP_DEADLINE_MS, settledLookups } from '../transport/http/session-cookie';

const PRUNE_EVERY_MS = 3600_000;
export const SESSION_LOOKUP_TIMEOUT = 'TP_SESSION_LOOKUP_TIMEOUT';
/** A session lookup that outlasted its deadline; answered 503 with Retry-After (security plugin). */
export class SessionLookupTimeout extends Error {
  readonly code = SESSION_LOOKUP_TIMEOUT;
  constructor(ms: number) {
    super(`the database did not answer the session lookup within ${ms} ms`);
  }
}
const kLookup = Symbol('sessionLookup');

declare module 'fastify' {
  interface FastifyRequest {
    [kLookup]: Promise<SessionUser | null> | undefined;
  }
}

/** `lookup`, or a rejection with SessionLookupTimeout if it has not settled within `ms`. */
function within(lookup: Promise<SessionUser | null>, ms: number): Promise<SessionUser | null> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new SessionLookupTimeout(ms)), ms);
    lookup.then(
      (session) => {
        clearTimeout(timer);
        resolve(session);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}

/**
 * Sessions around the routes: the cookie parser (routes resolve the `tp_session` cookie lazily,
 * see transport/http/session-cookie.ts), the instance's session cache kept in step with sessions
 * ended on other instances, sessions' last-seen times written every few seconds, hourly pruning of
 * dead sessions, reset tokens and idempotency keys past their day, and the one log line per request (which names the user when the
 * request had a session).
 */
async function sessions(app: FastifyInstance, options: { lookupDeadlineMs?: number }): Promise<void> {
  const services = app.services;
  await app.register(fastifyCookie);

  // The request's session lookup (transport/http/session-cookie.ts `currentSession`, which stores
  // it in `request.sessionPromise` the first time a route asks) is bounded here, where it is
  // stored: a lookup that reads the database and gets no answer within the deadline fails with
  // SessionLookupTimeout, which the error handler answers 503 with Retry-After in the spec's
  // shape. The read itself is not cancelled: it ends when the database answers or the connection fails.
  // A session in the cache needs no read: its lookup is settled when it is made, and no timer is
  // set for it.
  const deadlineMs = options.lookupDeadlineMs ?? SESSION_LOOKUP_DEADLINE_MS;
  app.decorateRequest(kLookup, undefined);
  app.decorateRequest('sessionPromise', {
    getter(this: FastifyRequest) {
      return this[kLookup];
    },
    setter(this: FastifyRequest, lookup: Promise<SessionUser | null> | undefined) {
      this[kLookup] = lookup === undefined || settledLookups.has(lookup) ? lookup : within(lookup, deadlineMs);
    },
  });

  // Sessions ended on another instance stop working here as soon as the bus brings the news
  // (those ended here were dropped already, right after their commit); so does a new trading
  // account (the sessions' lists of the person's accounts are read again).
  const unsubscribe = services.bus.subscribe((event) => {
    if (changesSessions(event)) services.sessionCache.dropUser(event.userId);
  });

  const pruneTimer = setInterval(() => {
    void pruneSessions(services).catch((err: unknown) => app.log.warn({ err }, 'session pruning failed'));
    void prunePasswordResets(services).catch((err: unknown) => app.log.warn({ err }, 'password-reset pruning failed'));
    void pruneIdempotencyKeys(services).catch((err: unknown) => app.log.warn({ err }, 'idempotency-key pruning failed'));
  }, PRUNE_EVERY_MS);
  pruneTimer.unref();
  // Sessions in steady use have their last-seen times written together (services/sessions.ts).
  const flush = (notedBy = Infinity) => flushTouches(services, notedBy).catch((err: unknown) => app.log.warn({ err }, 'writing sessions’ last-seen times failed; trying again at the next flush'));
  const flushTimer = setInterval(() => void flush(services.now() - TOUCH_FLUSH_MS), TOUCH_FLUSH_MS);
  flushTimer.unref();
  // Runs before the database closes (onClose hooks run last-registered first; app.ts's closes the database).
  app.addHook('onClose', async () => {
    clearInterval(pruneTimer);
    clearInterval(flushTimer);
    unsubscribe();
    await flush();
  });

  // With logging off (or above info) there is no line to write, so no hook either.
  const logsRequests = (app.log as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled?.('info') ?? false;
  if (!logsRequests) return;
  // The request line is written for every request, so it goes through one child made here rather
  // than a child per request, and without the redaction pass (the logger's second guard for lines
  // that carry objects): its fields are fixed below, and none can hold a secret (the path without
  // its query, the status, the time, the address and the user's id).
  const requestLog = app.log.child({}, { redact: [] });
  // The session was resolved during the request if the route needed it; this only reads it back.
  const logLine = (request: FastifyRequest, reply: FastifyReply, userId: number | undefined) =>
    requestLog.info({ reqId: request.id, method: request.method, url: request.url.split('?')[0], statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime), ip: request.ip, userId }, 'request');
  app.addHook('onResponse', (request, reply, done) => {
    if (!request.sessionPromise) {
      logLine(request, reply, undefined);
      return done();
    }
    request.sessionPromise.then(
      (session) => logLine(request, reply, session?.userId),
      () => logLine(request, reply, undefined),
    );
    done();
  });
}

export const sessionsPlugin = fp(sessions, { name: 'tradeport-sessions', fastify: '5.x', decorators: { fastify: ['services'] } });
