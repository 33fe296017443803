import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { runBenchChild } from './bench-child';

/**
 * The baseline of the HTTP reads benchmark (`reads-http.ts`): a bare Fastify hello-world, logger
 * off, nothing registered but one route answering `{"hello":"world"}` (and `/bytes/<n>`, below). It
 * is what Fastify on this machine can answer at all, so the real app's reads are reported as a share
 * of it.
 */
const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));

/**
 * `/bytes/<n>`: the same bare server answering a JSON body of n bytes (built once per size, sent as
 * a Buffer), so a large answer's rate can be set against what
 * Fastify and the load generator manage at that size on this machine, whatever the app does.
 */
const bodies = new Map<number, Buffer>();
app.get<{ Params: { n: string } }>('/bytes/:n', async (request, reply) => {
  const n = Math.min(16 * 1024 * 1024, Math.max(14, Number(request.params.n) || 14));
  let body = bodies.get(n);
  if (!body) bodies.set(n, (body = Buffer.from(`{"hello":"${'w'.repeat(n - 14)}ld"}`, 'utf8')));
  return reply.type('application/json; charset=utf-8').send(body);
});
await app.listen({ port: 0, host: '127.0.0.1' });
runBenchChild(
  (app.server.address() as AddressInfo).port,
  () => true,
  () => app.close(),
);
