import { existsSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sendFailure } from '../transport/http/responses';

const defaultWebDist = () => resolve(dirname(fileURLToPath(import.meta.url)), '../../../web/dist');

/**
 * Files under `assets/` carry a content hash in their names (Vite), so they never change: browsers
 * keep them a year without asking. Everything else, index.html first (also when it answers a
 * client-side route), is revalidated on every load (ETag / Last-Modified), so a deploy shows at once.
 */
export function webCacheControl(pathInDist: string): string {
  const path = pathInDist.split(sep).join('/');
  return path.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/**
 * The built web app (web/dist, or WEB_DIST_DIR) on the same origin as the API, and the answer for
 * every path no route took: an API 404 in the spec's shape, a plain 404 for a missing bundle file,
 * and the app's entry document for any other page (the app routes on the client).
 */
async function webApp(app: FastifyInstance, { webDistDir }: { webDistDir?: string }): Promise<void> {
  const webDist = resolve(webDistDir ?? defaultWebDist());
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
    if (hasWeb) return reply.type('text/html').sendFile('index.html');
    return reply.code(503).type('text/plain').send('The web app has not been built. Run `npm run build` (npm start does this).');
  });
}

export const webAppPlugin = fp(webApp, { name: 'tradeport-web-app', fastify: '5.x' });
