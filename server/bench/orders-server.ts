import { loadConfig, type AppConfig } from '../src/config';
import { serveBenchApp } from './serve-app';

/**
 * The server under test of the HTTP orders benchmark (`orders-http.ts` starts it): the real app on
 * the database named by the first argument (`sqlite:/tmp/…/bench.db` or `postgres://…`) with the
 * server's own durability settings (SQLite: WAL, synchronous = FULL; PostgreSQL: its defaults), the
 * push feed, every market open and the logger off. The administrator is created from the second and
 * third arguments. Quotes come from the stream benchmark's ticker (20 symbols, 200 ticks/s, generated
 * in this process), so prices stay fresh and the engine sees a realistic tick load while orders run.
 */
const [databaseUrl, adminEmail, adminPassword] = process.argv.slice(2);
if (!databaseUrl || !adminEmail || !adminPassword) {
  console.error('usage: orders-server.ts <DATABASE_URL> <admin email> <admin password>');
  process.exit(2);
}

const base = loadConfig({ LOG_LEVEL: 'silent' });
const config: AppConfig = {
  ...base,
  databaseUrl,
  admin: { email: adminEmail, password: adminPassword },
  // Cheap hashes and roomy limits: the benchmark signs up and signs in its traders once, from one
  // address, and measures orders, not scrypt. Its few traders each send far more orders than a
  // person could (the load of thousands of traders), so the per-trader order limit is lifted; each
  // call is still counted against it, as in production.
  scryptCost: 1024,
  signupRateLimitPerMinute: 100_000,
  signinRateLimitPerMinute: 100_000,
  orderRateLimitPerMinute: 1_000_000,
  maxPendingOrders: 100_000,
  market: { ...base.market, feeds: ['push'], feedToken: 'bench-feed-token-0123456789', sessions: 'always', simHistory: false, simSeed: 'bench' },
};

await serveBenchApp(config);
