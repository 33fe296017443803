import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../src/app';
import { loadConfig, type AppConfig, type MarketConfig } from '../../src/config';
import type { OutboxFile } from '../../src/mail/mailer';
import type { ServiceContext } from '../../src/services/context';

/**
 * Builds the real server on a fresh database and listens on a random local port. The database is
 * SQLite in memory, or, when DATABASE_URL names PostgreSQL (as CI does on its second pass), a new
 * PostgreSQL database created for this app and dropped when it closes.
 */
export interface TestApp {
  url: string;
  origin: string;
  app: FastifyInstance;
  ctx: ServiceContext;
  clock: TestClock;
  config: AppConfig;
  /** Mails written to this app's dev outbox so far (waits for mails still being written), oldest first. */
  outbox(): Promise<OutboxFile[]>;
  close(): Promise<void>;
}

export interface TestClock {
  now(): number;
  advance(ms: number): void;
  set(ms: number): void;
}

export const ADMIN_EMAIL = 'admin@tradeport.test';
export const ADMIN_PASSWORD = 'Admin-Pass-4-Tests';

export function testClock(start = Date.parse('2026-03-04T10:00:00Z')): TestClock {
  let t = start;
  return { now: () => t, advance: (ms) => void (t += ms), set: (ms) => void (t = ms) };
}

async function freshPostgres(baseUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `tp_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export const FEED_TOKEN = 'test-feed-token-0123456789';

/**
 * The CLUSTER_SECRET of the instances on one test database: the same for every instance a test
 * starts on it, and another for every other database, so tests that share a Redis (each file runs
 * in a process of its own, at the same time as others) never hear each other's bus.
 */
export function testClusterSecret(databaseUrl: string): string {
  return createHash('sha256').update(`tradeport test cluster ${databaseUrl}`).digest('base64url');
}

export interface StartOptions {
  config?: Partial<AppConfig>;
  /** Market data settings; tests default to the push feed with every market open. */
  market?: Partial<MarketConfig>;
  /** Use the real clock instead of the injectable test clock. */
  realClock?: boolean;
  /** Logger settings (tests log nothing unless they ask to read the log). */
  logger?: FastifyServerOptions['logger'];
  /** Receives the server's log lines (JSON, level info and up); without it nothing is logged. */
  logLines?: string[];
}

export async function startApp(options: StartOptions = {}): Promise<TestApp> {
  const dbBase = process.env.DATABASE_URL ?? '';
  const pgDb = dbBase.startsWith('postgres') ? await freshPostgres(dbBase) : null;
  const defaults: AppConfig = loadConfig({ ADMIN_EMAIL, ADMIN_PASSWORD, LOG_LEVEL: 'silent', STAFF_TWO_FACTOR: 'optional' });
  // Each app has an outbox of its own, so tests read only their own mails.
  const outboxDir = options.config?.mail?.outboxDir ?? mkdtempSync(join(tmpdir(), 'tp_outbox_'));
  const config: AppConfig = {
    ...defaults,
    databaseUrl: pgDb?.url ?? 'sqlite::memory:',
    // Cheap hashes keep the suite fast; production cost is set in config.ts.
    scryptCost: 1024,
    ...options.config,
    mail: { ...defaults.mail, ...options.config?.mail, outboxDir },
  };
  if (options.config?.clusterSecret === undefined) config.clusterSecret = testClusterSecret(config.databaseUrl);
  const base = loadConfig({}).market;
  config.market = { ...base, feeds: ['push'], feedToken: FEED_TOKEN, sessions: 'always', simHistory: false, simSeed: 'test', ...options.market };
  const clock = testClock();
  let app: FastifyInstance;
  try {
    const logger = options.logger ?? (options.logLines ? { level: 'info', stream: { write: (line: string) => void options.logLines!.push(line) } } : false);
    app = await buildApp({ config, logger, ...(options.realClock ? {} : { now: clock.now }) });
    await app.listen({ port: 0, host: '127.0.0.1' });
  } catch (err) {
    await pgDb?.drop();
    if (!options.config?.mail?.outboxDir) rmSync(outboxDir, { recursive: true, force: true });
    throw err;
  }
  const { port } = app.server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/api`,
    origin,
    app,
    ctx: app.services,
    clock,
    config,
    async outbox() {
      await app.services.mailer.idle();
      let names: string[] = [];
      try {
        names = readdirSync(outboxDir).filter((n) => n.endsWith('.json')).sort();
      } catch {
        // no mail yet: the directory is created by the first one
      }
      return names.map((n) => JSON.parse(readFileSync(join(outboxDir, n), 'utf8')) as OutboxFile);
    },
    async close() {
      await app.close();
      await pgDb?.drop();
      if (!options.config?.mail?.outboxDir) rmSync(outboxDir, { recursive: true, force: true });
    },
  };
}

/**
 * A database that outlives one server, for restart tests: a temporary SQLite file, or (when
 * DATABASE_URL names PostgreSQL) a database of its own. `drop()` removes it.
 */
export async function restartableDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const base = process.env.DATABASE_URL ?? '';
  if (base.startsWith('postgres')) return freshPostgres(base);
  const file = join(tmpdir(), `tp_restart_${process.pid}_${randomBytes(4).toString('hex')}.db`);
  return {
    url: `sqlite:${file}`,
    async drop() {
      for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) rmSync(f, { force: true });
    },
  };
}
