import type BetterSqlite3 from 'better-sqlite3';
import { CompiledQuery, SelectQueryNode, SqliteDialect, type DatabaseConnection, type Driver, type QueryCompiler, type QueryResult } from 'kysely';

/**
 * Kysely's SQLite dialect with two changes to its driver, both for throughput under load:
 *
 * - **A FIFO queue for the single connection.** Kysely's own mutex wakes every waiter on each
 *   release and lets them race for the lock again, so N concurrent queries cost O(N²) wake-ups (the
 *   trading benchmark saw a sweep over 5,000 accounts spend a fifth of its time there). Here each
 *   release hands the connection to the next waiter in arrival order: O(1) per release, and fair.
 * - **Prepared statements cached by SQL text** (least recently used out first), instead of preparing
 *   every query anew: the same few dozen statements run all day. Only the compiled statements are
 *   kept, never their results: every query reads the database.
 *
 * Everything else — the query compiler, adapter and introspector — is Kysely's SQLite dialect.
 */
export class QueuedSqliteDialect extends SqliteDialect {
  constructor(private readonly database: BetterSqlite3.Database, private readonly statementCacheSize = 500) {
    super({ database });
  }

  override createDriver(): Driver {
    return new QueuedSqliteDriver(this.database, this.statementCacheSize);
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

class CachedStatementConnection implements DatabaseConnection {
  /** Insertion order is recency order: a hit is moved to the end, the first entry is the oldest. */
  private readonly statements = new Map<string, BetterSqlite3.Statement>();

  constructor(private readonly database: BetterSqlite3.Database, private readonly capacity: number) {}

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
    this.statements.clear();
  }

  executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const stmt = this.prepare(compiled.sql);
    const parameters = compiled.parameters as unknown[];
    // Reads and writes that return rows (`insert … returning`) answer rows; other writes, counts.
    if (stmt.reader) return Promise.resolve({ rows: stmt.all(parameters) as R[] });
    const { changes, lastInsertRowid } = stmt.run(parameters);
    return Promise.resolve({ numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] });
  }

  async *streamQuery<R>(compiled: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(compiled.query)) throw new Error('SQLite streams only select queries');
    // A statement being iterated cannot run anything else meanwhile: a stream gets its own.
    for (const row of this.database.prepare(compiled.sql).iterate(compiled.parameters as unknown[])) yield { rows: [row as R] };
  }
}
