import type BetterSqlite3 from 'better-sqlite3';
import { CompiledQuery, SelectQueryNode, SqliteDialect, type DatabaseConnection, type Driver, type QueryCompiler, type QueryResult } from 'kysely';
import { KeptResults } from './kept-results';
import { REUSABLE_RESULT } from './prepared';

/**
 * Kysely's SQLite dialect with three changes to its driver, all for throughput under load:
 *
 * - **A FIFO queue for the single connection.** Kysely's own mutex wakes every waiter on each
 *   release and lets them race for the lock again, so N concurrent queries cost O(N²) wake-ups (the
 *   trading benchmark saw a sweep over 5,000 accounts spend a fifth of its time there). Here each
 *   release hands the connection to the next waiter in arrival order: O(1) per release, and fair.
 * - **Prepared statements cached by SQL text** (least recently used out first), instead of preparing
 *   every query anew: the same few dozen statements run all day.
 * - **Results of prepared reads reused until a table they read changes.** A query compiled by
 *   `prepared()` (storage/prepared.ts) keeps its rows, by SQL and values, stamped with the count of
 *   statements this connection ran that may have changed the database, and with SQLite's
 *   `data_version`, which moves when another connection or process commits (the operator commands,
 *   say; asked once per turn of the event loop). Each write (`returning` ones included) records the
 *   count at which its table last changed: an `insert into`, `update` or `delete from` names its one
 *   table (the schema has no triggers and no cascading foreign keys, so nothing else changes with
 *   it); any other statement that is not a read (a rollback, a schema change, a `with … update`) counts
 *   as a change of every table. A kept read is given again — frozen, so no caller can change it for
 *   the next — while no table its SQL names changed after it was kept and `data_version` is the
 *   same. So a session's last-seen write, say, no longer throws away the kept deposits or payment
 *   accounts of every user. Begin, commit, savepoints and pragmas change no rows by themselves (the writes
 *   inside count as they run, so a transaction never reads its own changes from before them; a
 *   rollback counts as a change of everything). While the connection is free, such a read can also
 *   be answered at once (`readNow`), skipping Kysely's connection hand-over (and its query log,
 *   which only the metrics read, and its plugins, which this server does not use).
 *
 * Everything else — the query compiler, adapter and introspector — is Kysely's SQLite dialect.
 */
export class QueuedSqliteDialect extends SqliteDialect {
  private driver: QueuedSqliteDriver | undefined;

  constructor(private readonly database: BetterSqlite3.Database, private readonly statementCacheSize = 500) {
    super({ database });
  }

  override createDriver(): Driver {
    this.driver = new QueuedSqliteDriver(this.database, this.statementCacheSize);
    return this.driver;
  }

  /**
   * A prepared read answered at once, without Kysely's connection hand-over, when the connection is
   * free (no transaction open, nobody waiting); undefined otherwise, and the caller queues as usual.
   * With the connection free, running now is what the queue would do next anyway.
   */
  readNow(compiled: CompiledQuery): readonly unknown[] | undefined {
    return this.driver?.readNow(compiled);
  }

  /** See storage/prepared.ts databaseVersion: the version kept reads are checked against. */
  version(scope?: VersionScope): string | undefined {
    return this.driver?.version(scope);
  }
}

class QueuedSqliteDriver implements Driver {
  private readonly connection: CachedStatementConnection;
  private busy = false;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly database: BetterSqlite3.Database, statementCacheSize: number) {
    this.connection = new CachedStatementConnection(database, statementCacheSize);
  }

  async init(): Promise<void> {}

  acquireConnection(): Promise<DatabaseConnection> {
    if (!this.busy) {
      this.busy = true;
      return Promise.resolve(this.connection);
    }
    return new Promise((resolve) => this.waiting.push(() => resolve(this.connection)));
  }

  readNow(compiled: CompiledQuery): readonly unknown[] | undefined {
    if (this.busy) return undefined;
    return this.connection.readNow(compiled);
  }

  version(scope?: VersionScope): string | undefined {
    return this.busy ? undefined : this.connection.version(scope);
  }

  async releaseConnection(): Promise<void> {
    const next = this.waiting.shift();
    // The connection passes straight to the next waiter; it is free only when nobody waits.
    if (next) next();
    else this.busy = false;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async savepoint(connection: DatabaseConnection, name: string, _compile: QueryCompiler['compileQuery']): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${quoteName(name)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string, _compile: QueryCompiler['compileQuery']): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to ${quoteName(name)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string, _compile: QueryCompiler['compileQuery']): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release ${quoteName(name)}`));
  }

  async destroy(): Promise<void> {
    this.connection.clear();
    this.database.close();
  }
}

const quoteName = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** The one table an `insert`, `update` or `delete` statement writes, as Kysely compiles them for SQLite; null for any other statement. */
const WRITTEN_TABLE = /^\s*(?:insert(?:\s+or\s+\w+)?\s+into|replace\s+into|update(?:\s+or\s+\w+)?|delete\s+from)\s+"?([A-Za-z_][A-Za-z0-9_]*)"?(?:[\s(]|$)/i;
/** Statements that change no rows by themselves (what a transaction wraps counts as it runs; a pragma sets how the connection works). */
const NO_CHANGE = /^\s*(?:begin|commit|end|savepoint|release|pragma)\b/i;
const WORD = /[A-Za-z_][A-Za-z0-9_]*/g;
/** The tables the market data writes all the time (a candle every few seconds): no account answer reads them. */
export const MARKET_DATA_TABLES = new Set(['candles', 'last_quotes']);

/** What a version covers: every table, or all but the market data's (see `MARKET_DATA_TABLES`). */
export type VersionScope = 'all' | 'accounts';

export function writtenTable(sql: string): string | null {
  return WRITTEN_TABLE.exec(sql)?.[1]?.toLowerCase() ?? null;
}

/** Every word of a statement's SQL, once (lower case): the tables it reads are among them. */
export function wordsOf(sql: string): string[] {
  return [...new Set(sql.toLowerCase().match(WORD) ?? [])];
}

class CachedStatementConnection implements DatabaseConnection {
  /** Insertion order is recency order: a hit is moved to the end, the first entry is the oldest. */
  private readonly statements = new Map<string, BetterSqlite3.Statement>();
  /** Statements run that were not reads: the database may have changed after each. */
  private changes = 0;
  /** The same, leaving out writes to the market data's tables. */
  private accountChanges = 0;
  /** `changes` when each table was last written. */
  private readonly tableChangedAt = new Map<string, number>();
  /** `changes` at the last statement that may have changed any table (a rollback, a schema change). */
  private anyChangedAt = 0;
  /** The tables each kept read's SQL names (every word of it that is a table's name); null when it names a view, which may read any table. */
  private readonly readTables = new Map<string, string[] | null>();
  /** The schema's table and view names, read when first needed and again after a statement that may have changed the schema. */
  private schemaNames: Map<string, string> | null = null;
  private readonly dataVersion: BetterSqlite3.Statement;
  private readonly kept = new KeptResults<{ changes: number; dataVersion: number; rows: readonly unknown[] }>();

  constructor(private readonly database: BetterSqlite3.Database, private readonly capacity: number) {
    this.dataVersion = database.prepare('pragma data_version').pluck();
  }

  private prepare(sql: string): BetterSqlite3.Statement {
    let stmt = this.statements.get(sql);
    if (stmt) {
      this.statements.delete(sql);
    } else {
      stmt = this.database.prepare(sql);
      if (this.statements.size >= this.capacity) {
        const oldest = this.statements.keys().next().value;
        if (oldest !== undefined) this.statements.delete(oldest);
      }
    }
    this.statements.set(sql, stmt);
    return stmt;
  }

  clear(): void {
    this.dataVersionThisTurn = undefined;
    this.readTables.clear();
    this.schemaNames = null;
    this.statements.clear();
    this.kept.clear();
  }

  /**
   * SQLite's data_version, asked once per turn of the event loop: another process's commit is seen
   * from the next turn on (this connection's own writes count in `changes` at once). Asking costs as
   * much as a small query, and a busy server makes several kept reads in one turn.
   */
  private currentDataVersion(): number {
    if (this.dataVersionThisTurn === undefined) {
      this.dataVersionThisTurn = this.dataVersion.get() as number;
      setImmediate(this.forgetDataVersion);
    }
    return this.dataVersionThisTurn;
  }
  private dataVersionThisTurn: number | undefined;
  private readonly forgetDataVersion = () => {
    this.dataVersionThisTurn = undefined;
  };

  version(scope: VersionScope = 'all'): string {
    return `${scope === 'all' ? this.changes : this.accountChanges}:${this.currentDataVersion()}`;
  }

  readNow(compiled: CompiledQuery): readonly unknown[] | undefined {
    const stmt = this.prepare(compiled.sql);
    return stmt.reader && stmt.readonly ? this.keptRead(stmt, compiled.sql, compiled.parameters as unknown[]) : undefined;
  }

  /** Counts a statement that is not a read: a change of its table, or of every table. */
  private changed(sql: string): void {
    this.changes += 1;
    const table = writtenTable(sql);
    if (table === null || !MARKET_DATA_TABLES.has(table)) this.accountChanges += 1;
    if (table !== null) this.tableChangedAt.set(table, this.changes);
    else if (!NO_CHANGE.test(sql)) {
      this.anyChangedAt = this.changes;
      // It may have been a schema change: the tables are looked up again.
      this.schemaNames = null;
      this.readTables.clear();
    }
  }

  private tablesOf(sql: string): string[] | null {
    let tables = this.readTables.get(sql);
    if (tables === undefined) {
      const names = (this.schemaNames ??= new Map(
        (this.database.prepare("select lower(name) as name, type from sqlite_master where type in ('table', 'view')").all() as { name: string; type: string }[]).map((r) => [r.name, r.type]),
      ));
      const named = wordsOf(sql).filter((w) => names.has(w));
      tables = named.some((w) => names.get(w) === 'view') ? null : named;
      this.readTables.set(sql, tables);
    }
    return tables;
  }

  /** Whether rows read at `at` may be out of date: a table the read's SQL names (or every table) changed since. */
  private changedSince(sql: string, at: number): boolean {
    if (this.anyChangedAt > at) return true;
    const tables = this.tablesOf(sql);
    if (tables === null) return this.changes > at;
    for (const table of tables) {
      const changedAt = this.tableChangedAt.get(table);
      if (changedAt !== undefined && changedAt > at) return true;
    }
    return false;
  }

  private keptRead(stmt: BetterSqlite3.Statement, sql: string, parameters: unknown[]): readonly unknown[] {
    const dataVersion = this.currentDataVersion();
    const values = JSON.stringify(parameters);
    const kept = this.kept.get(sql, values);
    if (kept !== undefined && kept.dataVersion === dataVersion && (kept.changes === this.changes || !this.changedSince(sql, kept.changes))) return kept.rows;
    const rows = Object.freeze((stmt.all(parameters) as object[]).map((row) => Object.freeze(row)));
    this.kept.set(sql, values, { changes: this.changes, dataVersion, rows });
    return rows;
  }

  executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const stmt = this.prepare(compiled.sql);
    const parameters = compiled.parameters as unknown[];
    // `insert … returning` is a reader too, but not read-only: it counts as a change and is never kept.
    if (!stmt.reader || !stmt.readonly) this.changed(compiled.sql);
    if (stmt.reader) {
      if (!stmt.readonly || (compiled as { [REUSABLE_RESULT]?: boolean })[REUSABLE_RESULT] !== true) return Promise.resolve({ rows: stmt.all(parameters) as R[] });
      return Promise.resolve({ rows: this.keptRead(stmt, compiled.sql, parameters) as R[] });
    }
    const { changes, lastInsertRowid } = stmt.run(parameters);
    return Promise.resolve({ numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] });
  }

  async *streamQuery<R>(compiled: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(compiled.query)) throw new Error('SQLite streams only select queries');
    // A statement being iterated cannot run anything else meanwhile: a stream gets its own.
    for (const row of this.database.prepare(compiled.sql).iterate(compiled.parameters as unknown[])) yield { rows: [row as R] };
  }
}
