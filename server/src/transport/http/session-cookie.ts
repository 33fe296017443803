import type { FastifyReply, FastifyRequest } from 'fastify';
import type { MarketData } from '../../market/market-data';
import type { TradingEngine } from '../../trading/engine';
import type { ServiceContext } from '../../services/context';
import { randomBytes } from 'node:crypto';
import { cachedSession, hashToken, resolveSession, type IssuedSession, type SessionUser } from '../../services/sessions';
import { CHALLENGE_COOKIE, CHALLENGE_MS } from '../../services/two-factor';

export const SESSION_COOKIE = 'tp_session';

declare module 'fastify' {
  interface FastifyRequest {
    sessionPromise?: Promise<SessionUser | null>;
    /** Set when a call's handler begins: errors before it come from reading the request. */
    handlerStarted?: boolean;
  }
  interface FastifyInstance {
    services: ServiceContext;
    market: MarketData;
    trading: TradingEngine;
  }
}

/**
 * How long a request waits for its session to be read from the database: far shorter than the
 * PostgreSQL pool's 10 s wait for a connection (and a connection that stopped answering waits for
 * ever), so a database that is out of reach costs the client a quick retryable 503 instead of a
 * hanging call. A session in the instance's session cache needs no database and never waits.
 */
export const SESSION_LOOKUP_DEADLINE_MS = 3_000;

/**
 * Lookups that were settled when they were made (the session cache answered), so the sessions
 * plugin, which bounds a lookup that waits for the database by a deadline, sets no timer for them.
 */
export const settledLookups = new WeakSet<Promise<SessionUser | null>>();

/**
 * The request's session, looked up once per request and only when a route asks for it: at once
 * from the instance's session cache when it holds the session, else from the database.
 */
export function currentSession(request: FastifyRequest): Promise<SessionUser | null> {
  if (request.sessionPromise === undefined) {
    const token = request.cookies[SESSION_COOKIE];
    const services = request.server.services;
    const known = token ? cachedSession(services, token) : null;
    if (known !== undefined) {
      const settled = Promise.resolve(known);
      settledLookups.add(settled);
      request.sessionPromise = settled;
    } else request.sessionPromise = resolveSession(services, token as string);
  }
  return request.sessionPromise as Promise<SessionUser | null>;
}

/**
 * `Secure` whenever the site is public over HTTPS, and otherwise when this request came over HTTPS
 * (directly, or through a trusted proxy's X-Forwarded-Proto).
 */
const secureFor = (request: FastifyRequest): boolean => request.server.services.config.httpsOnly || request.protocol === 'https';

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, session: IssuedSession): void {
  reply.setCookie(SESSION_COOKIE, session.token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: secureFor(request),
    ...(session.maxAgeMs !== undefined ? { maxAge: Math.floor(session.maxAgeMs / 1000) } : {}),
  });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: secureFor(request) });
}

/**
 * The sign-in step between a right password and a session (services/two-factor.ts): HttpOnly, and
 * SameSite=Strict, as it is only ever sent by the sign-in page's own calls.
 */
export function setChallengeCookie(request: FastifyRequest, reply: FastifyReply, token: string): void {
  reply.setCookie(CHALLENGE_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'strict', secure: secureFor(request), maxAge: Math.floor(CHALLENGE_MS / 1000) });
}

export function clearChallengeCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(CHALLENGE_COOKIE, { path: '/', httpOnly: true, sameSite: 'strict', secure: secureFor(request) });
}

/** A browser's device cookie: a random id it keeps for a year, so a sign-in from a new device can be told (services/sign-ins.ts). */
export const DEVICE_COOKIE = 'tp_device';
const DEVICE_TOKEN = /^[A-Za-z0-9_-]{43}$/;
const DEVICE_COOKIE_DAYS = 400;

/** The hash of the request's device cookie, setting a new cookie when it brought none (or a malformed one). */
export function deviceHashOf(request: FastifyRequest, reply: FastifyReply): string {
  let token = request.cookies[DEVICE_COOKIE];
  if (!token || !DEVICE_TOKEN.test(token)) {
    token = randomBytes(32).toString('base64url');
    reply.setCookie(DEVICE_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'lax', secure: secureFor(request), maxAge: DEVICE_COOKIE_DAYS * 86_400 });
  }
  return hashToken(token);
}
