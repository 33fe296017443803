import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { prunePasswordResets } from '../services/password-reset';
import { flushTouches, pruneSessions, TOUCH_FLUSH_MS } from '../services/sessions';

const PRUNE_EVERY_MS = 3600_000;

/**
 * Sessions around the routes: the cookie parser (routes resolve the `tp_session` cookie lazily,
 * see transport/http/session-cookie.ts), the instance's session cache kept in step with sessions
 * ended on other instances, sessions' last-seen times written every few seconds, hourly pruning of
 * dead sessions and reset tokens, and the one log line per request (which names the user when the
 * request had a session).
 */
async function sessions(app: FastifyInstance): Promise<void> {
  const services = app.services;
  await app.register(fastifyCookie);

  // Sessions ended on another instance stop working here as soon as the bus brings the news
  // (those ended here were dropped already, right after their commit).
  const unsubscribe = services.bus.subscribe((event) => {
    if (event.type === 'account.sessionsRevoked') services.sessionCache.dropUser(event.userId);
  });

  const pruneTimer = setInterval(() => {
    void pruneSessions(services).catch((err: unknown) => app.log.warn({ err }, 'session pruning failed'));
    void prunePasswordResets(services).catch((err: unknown) => app.log.warn({ err }, 'password-reset pruning failed'));
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

  // The session was resolved during the request if the route needed it; this only reads it back.
  const logLine = (request: FastifyRequest, reply: FastifyReply, userId: number | undefined) =>
    request.log.info({ method: request.method, url: request.url.split('?')[0], statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime), ip: request.ip, userId }, 'request');
  // With logging off (or above info) there is no line to write, so no hook either.
  const logsRequests = (app.log as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled?.('info') ?? false;
  if (!logsRequests) return;
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
