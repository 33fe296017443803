import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, type Dialect, type KyselyConfig, type PostgresPool, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import { statementName } from './prepared';
import type { Database } from './schema';
import { QueuedSqliteDialect } from './sqlite-driver';
import { timedConnections, type DatabaseObserver } from './timed-connections';
import type { Db, Engine } from './types';

export type { Db, Engine, Tx } from './types';

export interface DatabaseHandle {
  db: Db;
  engine: Engine;
  close(): Promise<void>;
}

const PG_INT8_OID = 20;

/**
 * Opens the database named by DATABASE_URL: `sqlite:/path.db`, `sqlite::memory:` or `postgres://…`.
 * `observe`: told how long queries and waits for a connection take (the metrics).
 */
export function openDatabase(url: string, onConnectionError: (err: Error) => void = () => undefined, options: { observe?: DatabaseObserver } = {}): DatabaseHandle {
  const { observe } = options;
  // Kysely times each statement only when it has a log to write it to.
  const kysely = (dialect: Dialect): Db => {
    const config: KyselyConfig = observe
      ? { dialect: timedConnections(dialect, observe), log: (event) => observe.query(event.queryDurationMillis / 1000) }
      : { dialect };
    return new Kysely<Database>(config);
  };
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length);
    if (path !== ':memory:') mkdirSync(dirname(resolve(path)), { recursive: true });
    const sqlite = new SqliteDatabase(path === ':memory:' ? ':memory:' : resolve(path));
    sqlite.pragma('journal_mode = WAL');
    // FULL makes each committed money movement durable across power loss, not just process crashes.
    sqlite.pragma('synchronous = FULL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    // SQLite's built-in lower() folds ASCII only; PostgreSQL's folds every letter. Searches must
    // find 'Özil' on both engines, so lower() gets JavaScript's Unicode case folding here.
    sqlite.function('lower', { deterministic: true }, (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : v) as string | null);
    const db = kysely(new QueuedSqliteDialect(sqlite));
    return { db, engine: 'sqlite', close: () => db.destroy() };
  }
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    const pool = new pg.Pool({
      connectionString: url,
      max: 10,
      connectionTimeoutMillis: 10_000,
      // A transaction left open by a process that froze (or lost its engine lead mid-write) is
      // rolled back by PostgreSQL after this long, so it never holds the rows a new engine leader
      // must lock to fence it (cluster/leader-lease.ts) for longer than the fail-over may take.
      // No transaction of ours waits on anything but its own statements.
      idle_in_transaction_session_timeout: 8_000,
      // Cents and epoch milliseconds are 64-bit columns; both stay far below 2^53.
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
          oid === PG_INT8_OID ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
      },
    });
    // An idle connection the server drops (restart, failover, admin command) must not crash the
    // process: the pool discards that client and the next query opens a fresh one.
    pool.on('error', onConnectionError);
    const db = kysely(new PostgresDialect({ pool: namingPool(pool) }));
    return { db, engine: 'postgres', close: () => db.destroy() };
  }
  throw new Error(`Unsupported DATABASE_URL: ${url.replace(/\/\/[^@]*@/, '//***@')}`);
}

/**
 * `pool` as Kysely's PostgreSQL dialect uses it, with each statement `prepared` compiled
 * (storage/prepared.ts) sent by its name: PostgreSQL parses and plans it the first time a
 * connection runs it and only binds and runs it after that. Parsing and planning cost more than
 * running most of our reads (docs/benchmarks.md, "Authenticated reads over HTTP"). Every other
 * statement goes as it would without this.
 */
function namingPool(pool: pg.Pool): PostgresPool {
  const clients = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  return {
    async connect() {
      const client = await pool.connect();
      let named = clients.get(client);
      if (!named) {
        const query = (text: string, values: ReadonlyArray<unknown>) => {
          const name = statementName(text);
          return client.query(name ? { name, text, values: values as unknown[] } : { text, values: values as unknown[] });
        };
        // Only the (text, values) form: Kysely calls the cursor form only when given a cursor class.
        named = { query, release: () => client.release() } as unknown as PostgresPoolClient;
        clients.set(client, named);
      }
      return named;
    },
    end: () => pool.end(),
  };
}

/** True when an error is a unique-constraint violation on either engine. */
export function isUniqueViolation(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { code?: string };
  return e.code === '23505' || e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
