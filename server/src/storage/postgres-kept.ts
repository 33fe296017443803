import { CompiledQuery, PostgresDialect, SelectQueryNode, type DatabaseConnection, type Driver, type PostgresDialectConfig, type QueryCompiler, type QueryResult, type TransactionSettings } from 'kysely';
import { KeptResults } from './kept-results';
import { REUSABLE_RESULT, type DirectReads } from './prepared';
import { MARKET_DATA_TABLES, type VersionScope, wordsOf, writtenTable } from './sqlite-driver';

/**
 * Kysely's PostgreSQL dialect with the results of prepared reads kept between requests, for an
 * instance that is its database's only writer (EVENT_BUS=memory: the cluster refuses to start a
 * second instance beside it, storage/db.ts turns this on only then).
 *
 * Every statement goes through this driver, so it knows when a table may have changed: a write
 * (`insert into`, `update`, `delete from`, which name their one table; anything else that is not a
 * read or a transaction's own begin, commit or savepoint counts as a change of every table) is
 * counted **when it is sent and again when it is committed** (at once for a write outside a
 * transaction, when its transaction's commit has answered otherwise). A prepared read outside a
 * transaction keeps its rows, frozen, by SQL and values, stamped with the count when it was sent;
 * it is given again while no table its SQL names was counted since. Counting at both ends covers a
 * read that runs while a write is in flight: one that started before the commit may have read the
 * rows before it, and the count at the commit, later than its stamp, throws it away.
 *
 * What this process does not write (a person changing rows by hand, the command-line tools) is not
 * seen: kept rows (from when they were read) and versions age out after `MAX_AGE_MS`, so such a
 * change shows within twice that (an answer kept by version may have been built from rows kept
 * almost that long).
 */
export class KeptReadsPostgresDialect extends PostgresDialect {
  private readonly kept = new KeptReads();

  constructor(config: PostgresDialectConfig) {
    super(config);
  }

  override createDriver(): Driver {
    return new KeptReadsDriver(super.createDriver(), this.kept);
  }

  /** The reads offered to storage/prepared.ts (readNow, version). */
  get reads(): DirectReads {
    return this.kept;
  }
}

/** How long a kept result or a version holds at most: the bound on seeing a change made outside this process. */
export const MAX_AGE_MS = 2_000;
/** Statements that change no rows by themselves. */
const NO_CHANGE = /^\s*(?:begin|start\s+transaction|commit|end|rollback|savepoint|release|set|show|reset)\b/i;
/**
 * A write anywhere in a statement's SQL text (parameters are bound apart, so no value is read as
 * SQL): `on conflict do update set` is not one more, as no table name follows its `update`.
 */
const WRITES = /\b(?:insert\s+into|update\s+(?:only\s+)?"?[a-z_][a-z0-9_]*"?(?:\s*\.\s*"?[a-z_][a-z0-9_]*"?)?(?:\s+(?:as\s+)?"?[a-z_][a-z0-9_]*"?)?\s+set|delete\s+from|truncate|alter|create|drop|merge\s+into|copy)\b/gi;

/**
 * What a statement may change: nothing, its one table, or any table (a writing `with`, a schema
 * change, several statements, anything unknown). A read is taken at its word: a prepared read must
 * not call a function that writes (none does).
 */
export function changeOf(compiled: CompiledQuery): 'none' | 'all' | string {
  const sql = compiled.sql;
  // Several statements in one: whatever they are, count them as everything.
  if (sql.includes(';')) return 'all';
  if (NO_CHANGE.test(sql)) return 'none';
  const writes = sql.match(WRITES)?.length ?? 0;
  const written = writtenTable(sql);
  if (written !== null) return writes === 1 ? written : 'all';
  const read = SelectQueryNode.is(compiled.query) || /^\s*select\b/i.test(sql);
  return read && writes === 0 ? 'none' : 'all';
}

class KeptReads implements DirectReads {
  /** Writes counted (each when sent and when committed). */
  private changes = 0;
  /** The same, leaving out writes to the market data's tables. */
  private accountChanges = 0;
  private readonly tableChangedAt = new Map<string, number>();
  private anyChangedAt = 0;
  /** The schema's table names (lower case), read when first needed and again after any change of every table. */
  tables: Set<string> | null = null;
  /** Moves whenever `tables` is forgotten: names read before that are not taken. */
  tablesGeneration = 0;
  private readonly readTables = new Map<string, string[]>();
  private readonly kept = new KeptResults<{ at: number; time: number; rows: readonly unknown[] }>();
  /** Prepared reads on their way, by SQL and values, with the count when each was sent. */
  private readonly inFlight = new Map<string, { at: number; rows: Promise<readonly unknown[]> }>();

  /** Counts a change of `table`, or of every table. */
  changed(table: string | 'all'): void {
    this.changes += 1;
    if (table === 'all' || !MARKET_DATA_TABLES.has(table)) this.accountChanges += 1;
    if (table === 'all') {
      this.anyChangedAt = this.changes;
      this.tables = null;
      this.tablesGeneration += 1;
      this.readTables.clear();
    } else this.tableChangedAt.set(table, this.changes);
  }

  /** The count (and time) a read sent now is stamped with. */
  stamp(): { at: number; time: number } {
    return { at: this.changes, time: Date.now() };
  }

  private tablesOf(sql: string): string[] | null {
    if (this.tables === null) return null;
    let tables = this.readTables.get(sql);
    if (tables === undefined) {
      const names = this.tables;
      tables = wordsOf(sql).filter((w) => names.has(w));
      this.readTables.set(sql, tables);
    }
    return tables;
  }

  private fresh(sql: string, entry: { at: number; time: number }): boolean {
    if (entry.at < this.anyChangedAt || Date.now() - entry.time > MAX_AGE_MS) return false;
    const tables = this.tablesOf(sql);
    if (tables === null) return entry.at === this.changes;
    for (const table of tables) if ((this.tableChangedAt.get(table) ?? 0) > entry.at) return false;
    return true;
  }

  readNow(compiled: CompiledQuery): readonly unknown[] | undefined {
    const entry = this.kept.get(compiled.sql, JSON.stringify(compiled.parameters));
    return entry !== undefined && this.fresh(compiled.sql, entry) ? entry.rows : undefined;
  }

  /** Keeps the rows of a read sent at `stamp` (if no table it reads was counted since, they are still the database's). */
  keep(compiled: CompiledQuery, stamp: { at: number; time: number }, rows: readonly unknown[]): void {
    const entry = { ...stamp, rows };
    if (this.fresh(compiled.sql, entry)) this.kept.set(compiled.sql, JSON.stringify(compiled.parameters), entry);
  }

  shared(compiled: CompiledQuery, run: () => Promise<readonly unknown[]>): Promise<readonly unknown[]> {
    const key = `${compiled.sql}\u0000${JSON.stringify(compiled.parameters)}`;
    const going = this.inFlight.get(key);
    // Nothing counted since it was sent: no write was sent or committed meanwhile, so its answer is
    // what a read sent now would get.
    if (going !== undefined && going.at === this.changes) return going.rows;
    const rows = run();
    const entry = { at: this.changes, rows };
    this.inFlight.set(key, entry);
    const done = () => {
      if (this.inFlight.get(key) === entry) this.inFlight.delete(key);
    };
    rows.then(done, done);
    return rows;
  }

  version(scope: VersionScope = 'all'): string | undefined {
    // Ages out too: a change made outside this process shows in answers kept by version within MAX_AGE_MS.
    return `${scope === 'all' ? this.changes : this.accountChanges}:${Math.floor(Date.now() / MAX_AGE_MS)}`;
  }
}

/** A connection of the pool as this driver hands it out: tracks its transaction's writes. */
class KeptReadsConnection implements DatabaseConnection {
  /** The tables written in the open transaction (counted again at its commit); null outside one. */
  written: Set<string | 'all'> | null = null;

  constructor(readonly inner: DatabaseConnection, private readonly kept: KeptReads) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const change = changeOf(compiled);
    if (change !== 'none') {
      this.kept.changed(change);
      // Counted again at the commit (in a transaction) or when it has run, even if it failed: a
      // statement that errs on the way back may still have been applied.
      const written = this.written;
      written?.add(change);
      try {
        return await this.inner.executeQuery<R>(compiled);
      } finally {
        if (written === null) this.kept.changed(change);
      }
    }
    const keep = this.written === null && (compiled as { [REUSABLE_RESULT]?: boolean })[REUSABLE_RESULT] === true;
    if (!keep) return this.inner.executeQuery<R>(compiled);
    if (this.kept.tables === null) {
      const generation = this.kept.tablesGeneration;
      const names = await this.inner.executeQuery<{ name: string }>(CompiledQuery.raw("select lower(table_name) as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'"));
      // A schema change counted meanwhile may have added a table these names do not hold.
      if (this.kept.tablesGeneration === generation) this.kept.tables = new Set(names.rows.map((r) => r.name));
    }
    const stamp = this.kept.stamp();
    const result = await this.inner.executeQuery<R>(compiled);
    const rows = Object.freeze(result.rows.map((row) => Object.freeze(row)));
    this.kept.keep(compiled, stamp, rows);
    return { ...result, rows: rows as R[] };
  }

  streamQuery<R>(compiled: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    if (changeOf(compiled) !== 'none') throw new Error('only reads are streamed');
    return this.inner.streamQuery<R>(compiled, chunkSize);
  }
}

class KeptReadsDriver implements Driver {
  private readonly wrapped = new WeakMap<DatabaseConnection, KeptReadsConnection>();

  constructor(private readonly inner: Driver, private readonly kept: KeptReads) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.inner.acquireConnection();
    let wrapped = this.wrapped.get(connection);
    if (!wrapped) this.wrapped.set(connection, (wrapped = new KeptReadsConnection(connection, this.kept)));
    return wrapped;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const c = connection as KeptReadsConnection;
    await this.inner.beginTransaction(c.inner, settings);
    c.written = new Set();
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.end(connection as KeptReadsConnection, (inner) => this.inner.commitTransaction(inner));
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.end(connection as KeptReadsConnection, (inner) => this.inner.rollbackTransaction(inner));
  }

  /** Ends a transaction; what it wrote is counted again once it has ended (committed or not: counting again is harmless). */
  private async end(c: KeptReadsConnection, finish: (inner: DatabaseConnection) => Promise<void>): Promise<void> {
    const written = c.written ?? new Set();
    c.written = null;
    try {
      await finish(c.inner);
    } finally {
      for (const table of written) this.kept.changed(table);
    }
  }

  savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.inner.savepoint?.((connection as KeptReadsConnection).inner, name, compile) ?? Promise.resolve();
  }

  rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.inner.rollbackToSavepoint?.((connection as KeptReadsConnection).inner, name, compile) ?? Promise.resolve();
  }

  releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.inner.releaseSavepoint?.((connection as KeptReadsConnection).inner, name, compile) ?? Promise.resolve();
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const c = connection as KeptReadsConnection;
    // A connection given back with a transaction still open (its client broke mid-way): what it wrote counts.
    if (c.written !== null) {
      for (const table of c.written) this.kept.changed(table);
      c.written = null;
    }
    await this.inner.releaseConnection(c.inner);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}
