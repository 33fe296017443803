import { fork, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { hashPassword } from '../src/services/passwords';
import { newUserRow } from '../src/services/new-user';
import { openTradingAccount } from '../src/services/trading-accounts';
import { openDatabase } from '../src/storage/db';
import { migrateToLatest } from '../src/storage/migrate';
import type { ProbeStats } from './production-probe';
import { stopChild } from './bench-util';

/**
 * The production entry for the reads benchmark (`reads-http.ts`): `src/main.ts`, as `npm start`
 * runs it, in a child process configured only through its environment (the default log level,
 * info, unless told otherwise; the simulated feed), with `production-probe.ts` loaded first to answer its CPU time over IPC. Before it starts, the benchmark's traders and their sessions are
 * written straight into its database (signing a thousand people in over HTTP would measure scrypt
 * and the sign-in rate limit, not reads).
 */

const here = dirname(fileURLToPath(import.meta.url));
const SESSION_DAYS_MS = 30 * 24 * 3600_000;

export interface BenchDatabase {
  url: string;
  /**
   * Gathers the planner's statistics, as a running database has them. PostgreSQL's autovacuum
   * (on by default) analyses a table soon after its rows change; a benchmark measures seconds after
   * writing every row, and on a server with autovacuum off it would never happen. Without
   * statistics PostgreSQL guesses a handful of rows per table and picks plans no running database
   * would (the Closed Trades page: 2.5 ms sorting every closed trade instead of 0.1 ms reading an
   * index backwards). SQLite plans from its indexes alone.
   */
  analyze(): Promise<void>;
  drop(): Promise<void>;
}

/** A fresh database: an SQLite file in `dir`, or a new PostgreSQL database on the server `postgresUrl` names. */
export async function freshDatabase(dir: string, postgresUrl: string): Promise<BenchDatabase> {
  if (!postgresUrl) return { url: `sqlite:${join(dir, 'bench.db')}`, analyze: async () => undefined, drop: async () => undefined };
  const name = `tp_bench_reads_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async analyze() {
      const c = new pg.Client({ connectionString: url.toString() });
      await c.connect();
      await c.query('analyze');
      await c.end();
    },
    async drop() {
      const c = new pg.Client({ connectionString: postgresUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export interface SeededTrader {
  id: number;
  email: string;
  /** `tp_session=<token>`, ready for a Cookie header. */
  cookie: string;
}

/**
 * Migrates the database and writes `count` active traders, each with one remembered session (as a
 * sign-in with "Remember me" writes it: the token's SHA-256, 30 days). All share one password.
 */
export async function seedTraders(databaseUrl: string, count: number, password: string): Promise<SeededTrader[]> {
  const handle = openDatabase(databaseUrl);
  try {
    await migrateToLatest(handle);
    const passwordHash = await hashPassword(password, 2 ** 16);
    const now = Date.now();
    const traders: SeededTrader[] = [];
    for (let from = 0; from < count; from += 200) {
      await handle.db.transaction().execute(async (trx) => {
        for (let i = from; i < Math.min(count, from + 200); i++) {
          const email = `bench.trader.${i}@example.com`;
          const user = await trx
            .insertInto('users')
            .values(newUserRow({ email, passwordHash, firstName: 'Bench', lastName: `Trader ${i}`, phoneNo: '4915112345678', countryId: null, role: 'trader', reserved: false, now }))
            .returning('id')
            .executeTakeFirstOrThrow();
          await openTradingAccount(trx, { userId: user.id, kind: 'live', defaultLeverage: 100, now });
          const token = randomBytes(32).toString('base64url');
          await trx
            .insertInto('sessions')
            .values({ id_hash: createHash('sha256').update(token).digest('hex'), user_id: user.id, persistent: 1, created_at: now, last_seen_at: now, expires_at: now + SESSION_DAYS_MS, ip: '127.0.0.1', user_agent: 'reads benchmark', revoked_at: null })
            .execute();
          traders.push({ id: user.id, email, cookie: `tp_session=${token}` });
        }
      });
    }
    return traders;
  } finally {
    await handle.close();
  }
}

export interface ProductionOptions {
  databaseUrl: string;
  port: number;
  adminEmail: string;
  adminPassword: string;
  /** Where the server's log (stdout: JSON lines), outbox and empty web folder go. */
  dir: string;
  /** LOG_LEVEL (undefined: not set, so the server's default, info: a line per request). */
  logLevel?: string;
  /** Write a V8 CPU profile of the server there. */
  profileDir?: string;
  /** Extra environment (EVENT_BUS, REDIS_URL, INSTANCE_NAME…). */
  env?: Record<string, string>;
}

/** One `src/main.ts` process, configured as an operator would, with the probe answering over IPC. */
export class ProductionServer {
  private nextId = 1;
  private readonly waiting = new Map<number, (m: ProbeStats) => void>();

  private constructor(
    private readonly proc: ChildProcess,
    readonly port: number,
    readonly logFile: string,
  ) {
    proc.on('message', (m: ProbeStats) => {
      if (m.type === 'probe') {
        this.waiting.get(m.id)?.(m);
        this.waiting.delete(m.id);
      }
    });
  }

  static async start(o: ProductionOptions): Promise<ProductionServer> {
    const webDir = join(o.dir, `web-${o.port}`);
    mkdirSync(webDir, { recursive: true });
    const logFile = join(o.dir, `server-${o.port}.log`);
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: String(o.port),
      HOST: '127.0.0.1',
      DATABASE_URL: o.databaseUrl,
      ADMIN_EMAIL: o.adminEmail,
      ADMIN_PASSWORD: o.adminPassword,
      // The benchmarks sign their administrator in with the password alone (a second factor adds a step at sign-in, nothing to the reads measured).
      STAFF_TWO_FACTOR: 'optional',
      ...(o.logLevel ? { LOG_LEVEL: o.logLevel } : {}),
      MARKET_FEED: 'sim',
      // Every market open, so the benchmark's positions can be opened on any day of the week.
      MARKET_SESSIONS: 'always',
      SIM_SEED: 'reads-bench',
      MAIL_OUTBOX_DIR: join(o.dir, `outbox-${o.port}`),
      // No web app build: the benchmark reads the API only (an empty folder, so nothing is served).
      WEB_DIST_DIR: webDir,
      ...o.env,
    };
    const execArgv = ['--import', 'tsx', '--import', resolve(here, 'production-probe.ts'), ...(o.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${resolve(o.profileDir)}`] : [])];
    // Its standard output is the file itself, as under a service manager writing to a file: the
    // benchmark's process (the load generator) does not copy the lines.
    const out = openSync(logFile, 'a');
    const proc = fork(resolve(here, '../src/main.ts'), [], { execArgv, env, cwd: resolve(here, '../..'), stdio: ['ignore', out, 'inherit', 'ipc'] });
    closeSync(out);
    const server = new ProductionServer(proc, o.port, logFile);
    // The first start generates a year of simulated history (slow into PostgreSQL on a busy machine).
    const deadline = Date.now() + 600_000;
    for (;;) {
      if (proc.exitCode !== null) throw new Error(`the server on port ${o.port} exited with code ${proc.exitCode}; see ${logFile}`);
      try {
        const res = await fetch(`http://127.0.0.1:${o.port}/api/health`);
        if (res.status === 200) return server;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) {
        await server.stop();
        throw new Error(`the server on port ${o.port} did not answer /api/health within 600 s`);
      }
      await sleep(250);
    }
  }

  /** Kills the server by PID at once, if it still runs (for a benchmark that is exiting). */
  kill(): void {
    if (this.proc.pid !== undefined && this.proc.exitCode === null && this.proc.signalCode === null) this.proc.kill('SIGKILL');
  }

  probe(): Promise<ProbeStats> {
    const id = this.nextId++;
    return new Promise((resolveProbe, reject) => {
      const timer = setTimeout(() => reject(new Error('the server did not answer the probe within 30 s')), 30_000);
      this.waiting.set(id, (m) => {
        clearTimeout(timer);
        resolveProbe(m);
      });
      this.proc.send({ type: 'probe', id });
    });
  }

  private readBytes = 0;
  private partial = '';
  private readonly warned: string[] = [];

  /**
   * The lines the server has logged so far at warn and above (pino's level 40+). The file is read
   * on from where the last call stopped: at the default level it holds a line per request, far too
   * much to read whole each time.
   */
  warnings(): readonly string[] {
    let fd: number;
    try {
      fd = openSync(this.logFile, 'r');
    } catch {
      return [];
    }
    try {
      const chunk = Buffer.alloc(1 << 20);
      for (;;) {
        const n = readSync(fd, chunk, 0, chunk.length, this.readBytes);
        if (n === 0) break;
        this.readBytes += n;
        const text = this.partial + chunk.toString('utf8', 0, n);
        const end = text.lastIndexOf('\n');
        this.partial = text.slice(end + 1);
        for (const line of text.slice(0, Math.max(0, end)).split('\n')) {
          if (line === '') continue;
          const level = Number(/"level":(\d+)/.exec(line)?.[1] ?? 0);
          if (level >= 40) this.warned.push(line);
        }
      }
    } finally {
      closeSync(fd);
    }
    return this.warned;
  }

  /** SIGTERM (the server shuts down as in production), then SIGKILL by PID after `graceMs`. */
  async stop(graceMs = 15_000): Promise<void> {
    await stopChild(this.proc, graceMs);
  }
}
