import { loadConfig, type AppConfig } from '../src/config';
import { BENCH_ADMIN } from './bench-child';
import { serveBenchApp } from './serve-app';

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
  admin: BENCH_ADMIN,
  market: { ...base.market, feeds: ['push'], feedToken: BENCH_FEED_TOKEN, sessions: 'always', simHistory: false, simSeed: 'bench', streamFrameMs: frameMs },
};

await serveBenchApp(config);
