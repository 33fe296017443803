import fastifyMultipart from '@fastify/multipart';
import fastifyWebsocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { accountRoutes } from '../transport/http/routes/account-routes';
import { tradingAccountRoutes } from '../transport/http/routes/trading-account-routes';
import { adminFormRoutes, adminRoutes } from '../transport/http/routes/admin-routes';
import { authRoutes } from '../transport/http/routes/auth-routes';
import { backOfficeMoneyRoutes } from '../transport/http/routes/back-office-money-routes';
import { backOfficeFormRoutes, backOfficeRoutes } from '../transport/http/routes/back-office-routes';
import { catalogueRoutes } from '../transport/http/routes/catalogue-routes';
import { staffRoutes } from '../transport/http/routes/staff-routes';
import { chartRoutes } from '../transport/http/routes/chart-routes';
import { favouritesRoutes } from '../transport/http/routes/favourites-routes';
import { marketRoutes } from '../transport/http/routes/market-routes';
import { siteRoutes } from '../transport/http/routes/site-routes';
import { systemRoutes } from '../transport/http/routes/system-routes';
import { tradingRoutes } from '../transport/http/routes/trading-routes';
import { alertRoutes } from '../transport/http/routes/alert-routes';
import { notificationRoutes } from '../transport/http/routes/notification-routes';
import { backOfficeTradesRoutes } from '../transport/http/routes/back-office-trades-routes';
import { exposureRoutes } from '../transport/http/routes/exposure-routes';
import { brokerReportRoutes } from '../transport/http/routes/broker-report-routes';
import { statementRoutes } from '../transport/http/routes/statement-routes';
import { streamRoute } from '../transport/ws/stream-route';
import { BODY_LIMIT_BYTES } from './security';

/**
 * Every API call (registered from the contracts' calls table by the route modules) and the
 * `/api/stream` WebSocket, each group in a context of its own with only the parsers it needs: the
 * WebSocket plugin's hooks and handler wrapper serve the stream alone, the multipart parser's hooks
 * (three asynchronous ones per request) the back office's form calls alone, and every other
 * call — nearly every request — runs none of them.
 */
async function routes(app: FastifyInstance): Promise<void> {
  let websocketServer: FastifyInstance['websocketServer'] | undefined;
  await app.register(async (stream) => {
    // Shutting down: every stream client is told the server is going away (1001), so browsers
    // reconnect (to another instance behind a balancer) at once. This runs before the WebSocket
    // plugin's own pre-close hook, which would close them with no code at all (1005), and before
    // the stream hub's close, which comes too late to name one.
    stream.addHook('preClose', async () => {
      for (const client of stream.websocketServer.clients) client.close(1001, 'Server shutting down');
    });
    await stream.register(fastifyWebsocket, {
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
    streamRoute(stream, app.services.bus);
    websocketServer = stream.websocketServer;
  });
  // The stream's server, for the rest of the app (and its tests) as if the plugin were registered here.
  app.decorate('websocketServer', websocketServer as FastifyInstance['websocketServer']);

  await app.register(async (forms) => {
    // Forms carry a few short fields. A field may be as long as a whole JSON body, so nothing is
    // silently cut short below the body limit (which the security plugin enforces up front).
    await forms.register(fastifyMultipart, { attachFieldsToBody: 'keyValues', limits: { files: 0, fields: 20, fieldSize: BODY_LIMIT_BYTES, parts: 20 } });
    adminFormRoutes(forms);
    backOfficeFormRoutes(forms);
  });

  await app.register(async (api) => {
    // No multipart parser here: a form sent to a JSON call is refused before it is read (security plugin).
    api.decorateRequest('isMultipart', function isMultipart() {
      return false;
    });
    systemRoutes(api);
    marketRoutes(api);
    tradingRoutes(api);
    alertRoutes(api);
    notificationRoutes(api);
    backOfficeTradesRoutes(api);
    exposureRoutes(api);
    catalogueRoutes(api);
    staffRoutes(api);
    brokerReportRoutes(api);
    statementRoutes(api);
    chartRoutes(api);
    favouritesRoutes(api);
    authRoutes(api);
    accountRoutes(api);
    tradingAccountRoutes(api);
    adminRoutes(api);
    backOfficeMoneyRoutes(api);
    backOfficeRoutes(api);
    siteRoutes(api);
  });
}

export const routesPlugin = fp(routes, { name: 'tradeport-routes', fastify: '5.x', decorators: { fastify: ['services', 'market', 'trading'] }, dependencies: ['tradeport-security', 'tradeport-sessions'] });
