import { performance } from 'node:perf_hooks';
import type { DatabaseConnection, Dialect, Driver, QueryCompiler, TransactionSettings } from 'kysely';

/**
 * What the database handle reports, for the metrics (metrics.ts): how long each query and each
 * wait for a connection took, in seconds.
 */
export interface DatabaseObserver {
  /**
   * A query or transaction waited this long for a connection: on SQLite for the one connection
   * (sqlite-driver.ts queues everyone behind whoever holds it), on PostgreSQL for one of the pool's.
   */
  connectionWait(seconds: number): void;
  /** A statement took this long to run, as Kysely times it (failed ones too). */
  query(seconds: number): void;
}

/**
 * `dialect` with the wait for each connection timed. Only the hand-over is wrapped: the driver and
 * its connections are the dialect's own, so whatever they do besides (the SQLite queue, its statement cache)
 * is unchanged.
 */
export function timedConnections(dialect: Dialect, observer: DatabaseObserver): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => new TimedDriver(dialect.createDriver(), observer),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
  };
}

const noSavepoints = () => Promise.reject(new Error('This database driver has no savepoints.'));

class TimedDriver implements Driver {
  constructor(
    private readonly inner: Driver,
    private readonly observer: DatabaseObserver,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const start = performance.now();
    try {
      return await this.inner.acquireConnection();
    } finally {
      this.observer.connectionWait((performance.now() - start) / 1000);
    }
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.inner.beginTransaction(connection, settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(connection);
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(connection);
  }

  savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.inner.savepoint ? this.inner.savepoint(connection, name, compile) : noSavepoints();
  }

  rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.inner.rollbackToSavepoint ? this.inner.rollbackToSavepoint(connection, name, compile) : noSavepoints();
  }

  releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.inner.releaseSavepoint ? this.inner.releaseSavepoint(connection, name, compile) : noSavepoints();
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(connection);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}
