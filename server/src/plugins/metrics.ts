import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { sendFailure } from '../transport/http/responses';

/** Bundle files are routes of their own (one per file); in the metrics they are one route. */
const ASSETS = '/assets/';

/** The label of a request's route: its pattern (never the URL asked for), or `(none)` for what no route took (the web app's pages and 404s). */
function routeOf(request: FastifyRequest): string {
  const url = request.routeOptions.url;
  if (url === undefined) return '(none)';
  return url.startsWith(ASSETS) ? `${ASSETS}*` : url;
}

/** Whether `Authorization` carries the token, compared in constant time (as hashes: their lengths are equal whatever was sent). */
function bearerMatches(header: string | undefined, token: string): boolean {
  // The scheme name is case-insensitive (RFC 9110); the token is not.
  const presented = /^bearer +(\S+)$/i.exec(header ?? '')?.[1];
  if (presented === undefined) return false;
  return timingSafeEqual(createHash('sha256').update(presented).digest(), createHash('sha256').update(token).digest());
}

/**
 * `GET /metrics` for Prometheus (metrics.ts), with `Authorization: Bearer <METRICS_TOKEN>`, and
 * every HTTP request counted and timed by its route. Without METRICS_TOKEN the path answers 404,
 * as a path nothing serves (rather than the web app's page), and requests are not counted.
 */
async function serveMetrics(app: FastifyInstance): Promise<void> {
  const { metrics, config } = app.services;
  const token = config.metricsToken;
  if (!metrics.enabled || token === null) {
    app.get('/metrics', async (_request, reply) => reply.code(404).header('cache-control', 'no-cache').type('text/plain').send('Not found.'));
    return;
  }

  app.addHook('onResponse', (request, reply, done) => {
    metrics.httpRequest(request.method, routeOf(request), reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  app.get('/metrics', async (request, reply) => {
    // Whatever was sent, the refusal is the same and says nothing about the token.
    if (!bearerMatches(request.headers.authorization, token)) return sendFailure(reply.header('www-authenticate', 'Bearer realm="metrics"'), 401, 'A valid metrics token is required (Authorization: Bearer <METRICS_TOKEN>).');
    const text = await metrics.text();
    return reply.header('cache-control', 'no-store').type(metrics.contentType).send(text);
  });
}

export const metricsPlugin = fp(serveMetrics, { name: 'tradeport-metrics', fastify: '5.x', decorators: { fastify: ['services'] }, dependencies: ['tradeport-security'] });
