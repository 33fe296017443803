import type { AddressInfo } from 'node:net';
import { buildApp } from '../src/app';
import { loadConfig, type AppConfig } from '../src/config';
import { BENCH_SYMBOLS, runBenchChild } from './bench-child';

/**
 * The server under test of the stream fan-out benchmark: the real app (Fastify, sessions, the
 * `/api/stream` hub) on a fresh in-memory database with the push feed and every market open. Ticks
 * are generated in this process and go straight into the quote book, as a provider's would, so the
 * feed path is not HTTP-bound. Started by `stream-fanout.ts` with the frame length as its argument.
 */
export const BENCH_FEED_TOKEN = 'bench-feed-token-0123456789';

const frameMs = Number(process.argv[2] ?? 100);
const base = loadConfig({ LOG_LEVEL: 'silent' });
const config: AppConfig = {
  ...base,
  databaseUrl: 'sqlite::memory:',
  // Cheap hashes: the benchmark signs in once and measures the stream, not scrypt.
  scryptCost: 1024,
  market: { ...base.market, feeds: ['push'], feedToken: BENCH_FEED_TOKEN, sessions: 'always', simHistory: false, simSeed: 'bench', streamFrameMs: frameMs },
};

const app = await buildApp({ config, logger: false });
const missing = BENCH_SYMBOLS.filter((s) => !app.market.book.instruments.has(s.symbol));
if (missing.length > 0) throw new Error(`benchmark symbols missing from the catalogue: ${missing.map((s) => s.symbol).join(', ')}`);
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address() as AddressInfo;

runBenchChild(
  port,
  (tick) => app.market.book.ingest(tick, 'bench').ok,
  () => app.close(),
);
