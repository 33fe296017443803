import type { Duplex } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import '@fastify/websocket';
import type { EventBus } from '../../bus/event-bus';
import { resolveSession } from '../../services/sessions';
import { TRADING_ACCOUNT_COOKIE } from '../http/call-route';
import { sendFailure } from '../http/responses';
import { currentSession, SESSION_COOKIE, SESSION_LOOKUP_DEADLINE_MS } from '../http/session-cookie';
import { isSameSite } from '../http/same-site';
import { StreamHub } from './stream-hub';

/**
 * `GET /api/stream` upgrades to a WebSocket for a signed-in user whose page is on this site (the
 * browser sends the session cookie and Origin with the upgrade). Anything else is refused with an
 * HTTP answer before the upgrade.
 */
export function streamRoute(app: FastifyInstance, bus: EventBus): StreamHub {
  const ctx = app.services;
  const accountType = async (userId: number, accountId: number) =>
    (await ctx.db.selectFrom('trading_accounts').select('account_type_id').where('id', '=', accountId).where('user_id', '=', userId).executeTakeFirst())?.account_type_id ?? null;
  const hub = new StreamHub(app.market, bus, {
    frameMs: ctx.config.market.streamFrameMs,
    heartbeatMs: ctx.config.market.streamHeartbeatMs,
    sessionCheckMs: ctx.config.market.streamSessionCheckMs,
    maxBufferedBytes: 512 * 1024,
    now: ctx.now,
    // Asked when a session may have ended: the database answers, not the session cache.
    sessionValid: async (token) => (await resolveSession(ctx, token, { fresh: true })) !== null,
    // As long as a request's session lookup may take (http/session-cookie.ts).
    sessionCheckDeadlineMs: SESSION_LOOKUP_DEADLINE_MS,
    accountType,
  });
  app.addHook('onClose', async () => hub.close());
  ctx.metrics.followStream(() => hub.connectionCount);

  // An upgrade the socket library refuses (a bad Sec-WebSocket-Key or -Version, a bad Upgrade or
  // Sec-WebSocket-Protocol header) is answered in the spec's shape, not with its text/html page.
  app.websocketServer.on('wsClientError', (err: Error, socket: Duplex) => {
    const body = JSON.stringify({ status: 'Failure', message: `The WebSocket handshake is invalid: ${err.message}.` });
    const version = /Version/.test(err.message) ? 'Sec-WebSocket-Version: 13, 8\r\n' : '';
    if (socket.writable) {
      socket.end(`HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n${version}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      socket.once('finish', () => socket.destroy());
    } else socket.destroy();
  });

  app.get(
    '/api/stream',
    {
      websocket: true,
      preValidation: async (request, reply) => {
        // A plain GET (no upgrade) would otherwise get the plugin's empty 404.
        if (!request.ws) return sendFailure(reply.header('upgrade', 'websocket'), 426, 'This is the live stream: connect with a WebSocket (Upgrade: websocket).');
        if (!isSameSite(request.headers.origin, request.headers.host, ctx.config.publicOrigins)) {
          return sendFailure(reply, 403, 'Cross-site connection refused: the stream is for the Tradeport web app.');
        }
        if (!(await currentSession(request))) return sendFailure(reply, 401, 'Please sign in to continue.');
      },
    },
    async (socket: WebSocket, request: FastifyRequest) => {
      const session = await currentSession(request);
      if (!session) return socket.close(4001, 'Session ended');
      // Quotes are priced for the account the browser chose (its cookie), else the first live one,
      // until the page names its own; a trader's first prices are already their type's.
      const chosen = Number(request.cookies[TRADING_ACCOUNT_COOKIE]);
      const accountId = session.accounts.includes(chosen) ? chosen : session.accountId;
      const typeId = accountId === null ? null : await accountType(session.userId, accountId).catch(() => null);
      // Gone during the lookup: nothing to attach (its close event has passed already).
      if (socket.readyState !== socket.OPEN) return;
      hub.attach(socket, session.userId, request.cookies[SESSION_COOKIE] as string, session.staffRoles, accountId !== null && typeId !== null ? { accountId, typeId } : null);
    },
  );
  return hub;
}
