import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { runBenchChild } from './bench-child';

/**
 * The baseline of the HTTP reads benchmark (`reads-http.ts`): a bare Fastify hello-world, logger
 * off, nothing registered but one route answering `{"hello":"world"}`. It is what Fastify on this
 * machine can answer at all, so the real app's reads are reported as a share of it.
 */
const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ port: 0, host: '127.0.0.1' });
runBenchChild(
  (app.server.address() as AddressInfo).port,
  () => true,
  () => app.close(),
);
