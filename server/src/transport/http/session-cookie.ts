import type { FastifyReply, FastifyRequest } from 'fastify';
import type { MarketData } from '../../market/market-data';
import type { TradingEngine } from '../../trading/engine';
import type { ServiceContext } from '../../services/context';
import { resolveSession, type IssuedSession, type SessionUser } from '../../services/sessions';

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

/** The request's session, looked up once per request and only when a route asks for it. */
export function currentSession(request: FastifyRequest): Promise<SessionUser | null> {
  request.sessionPromise ??= (async () => {
    const token = request.cookies[SESSION_COOKIE];
    return token ? resolveSession(request.server.services, token) : null;
  })();
  return request.sessionPromise;
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
