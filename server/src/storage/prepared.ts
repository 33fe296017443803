import type { CompiledQuery, Compilable, InferResult, QueryResult } from 'kysely';
import type { Db, Tx } from './db';

/**
 * A query compiled once and run many times with different values. Building and compiling a Kysely
 * query costs more than running a small indexed SQLite statement, so the statements a busy server
 * runs on every request are declared once with `prepared`: `build` gets the database and a
 * `param(name)` function whose result stands in for a value, and each run substitutes the real
 * values into the compiled parameter list. Name the values by annotating `param`:
 * `prepared((db, param: Param<{ id: number }>) => db.selectFrom('users').selectAll().where('id', '=', param('id')))`. SQL differs per dialect, so the query is compiled once
 * per database handle (lazily, on first use).
 *
 * Only single values can be parameters (not lists for `in`), used where Kysely binds a value
 * (comparisons, `set`, `limit`, `offset`). Run it on the handle it was compiled for, or on a
 * transaction of that handle (it compiles anew for each transaction, so keep hot paths outside).
 */
export interface Prepared<A extends Record<string, unknown>, R> {
  all(db: Db | Tx, args: A): Promise<R[]>;
  first(db: Db | Tx, args: A): Promise<R | undefined>;
  /** The raw result, for statements (numAffectedRows). */
  exec(db: Db | Tx, args: A): Promise<QueryResult<R>>;
}

const MARK = '\u0000tradeport-param:';

/**
 * Marks a compiled query whose result the SQLite driver may keep and hand out again until the
 * database changes (see sqlite-driver.ts). Only prepared queries carry it; their callers read rows
 * and build their own objects, never changing the rows (which come frozen).
 */
export const REUSABLE_RESULT: unique symbol = Symbol('tradeport.reusableResult');

/** What a database handle offers beyond Kysely (SQLite's, see sqlite-driver.ts). */
export interface DirectReads {
  /** A prepared read answered at once, or undefined when it must queue for the connection. */
  readNow(compiled: CompiledQuery): readonly unknown[] | undefined;
  /**
   * Changes whenever the database may have changed (with `accounts`: any table but the market data's,
   * which the feed writes all the time); undefined while the connection is busy (a transaction or a
   * queued query under way).
   */
  version(scope?: 'all' | 'accounts'): string | undefined;
  /**
   * Runs a prepared read (`run`) that `readNow` could not answer, sharing the answer of the same read
   * already on its way when nothing may have changed since it was sent (PostgreSQL's, where a kept
   * read thrown away would otherwise be asked for by every request that comes meanwhile).
   */
  shared?(compiled: CompiledQuery, run: () => Promise<readonly unknown[]>): Promise<readonly unknown[]>;
}
const direct = new WeakMap<object, DirectReads>();

/** Lets prepared reads on `db` skip the connection hand-over while the connection is free. */
export function registerDirectReads(db: object, reads: DirectReads): void {
  direct.set(db, reads);
}

/**
 * A value that is the same only while nothing in the database has changed (SQLite: no write on this
 * connection, no commit by another, as kept reads see it), so an answer built from it at one value
 * can be given again at the same value without reading. Undefined where no such value is known
 * (PostgreSQL; on SQLite while the connection is busy with a transaction or a queued query, which
 * prepared reads answered at once make rare).
 */
export function databaseVersion(db: Db | Tx, scope: 'all' | 'accounts' = 'all'): string | undefined {
  return direct.get(db)?.version(scope);
}

export type Param<A> = <K extends keyof A & string>(name: K) => A[K];

interface Compiled {
  query: CompiledQuery;
  slots: { index: number; name: string }[];
}

export function prepared<A extends Record<string, unknown>, Q extends Compilable<unknown>>(build: (db: Db | Tx, param: Param<A>) => Q): Prepared<A, InferResult<Q>[number]> {
  type R = InferResult<Q>[number];
  const byHandle = new WeakMap<Db | Tx, Compiled>();
  const param = ((name: string) => `${MARK}${name}`) as Param<A>;
  const compiledFor = (on: Db | Tx): Compiled => {
    let c = byHandle.get(on);
    if (!c) {
      const query = build(on, param).compile();
      // Where each named value goes in the parameter list; the rest are constants of the query.
      const slots: Compiled['slots'] = [];
      query.parameters.forEach((value, index) => {
        if (typeof value === 'string' && value.startsWith(MARK)) slots.push({ index, name: value.slice(MARK.length) });
      });
      byHandle.set(on, (c = { query, slots }));
    }
    return c;
  };
  const withValues = (on: Db | Tx, args: A): CompiledQuery<R> => {
    const { query, slots } = compiledFor(on);
    const parameters = query.parameters.slice();
    for (const { index, name } of slots) {
      const value = args[name];
      if (value === undefined) throw new Error(`prepared query: no value for ${name}`);
      parameters[index] = value;
    }
    return { ...query, parameters, [REUSABLE_RESULT]: true } as CompiledQuery<R>;
  };
  const rowsOf = async (on: Db | Tx, args: A): Promise<readonly R[]> => {
    const compiled = withValues(on, args);
    const reads = direct.get(on);
    const now = reads?.readNow(compiled);
    if (now !== undefined) return now as readonly R[];
    const run = async () => (await on.executeQuery(compiled)).rows;
    return (reads?.shared ? await reads.shared(compiled, run) : await run()) as readonly R[];
  };
  return {
    async all(on, args) {
      return (await rowsOf(on, args)) as R[];
    },
    async first(on, args) {
      return (await rowsOf(on, args))[0];
    },
    exec(on, args) {
      return on.executeQuery(withValues(on, args));
    },
  };
}

/**
 * For a query whose filters are optional: one prepared statement per combination of filters used
 * (`shape`, e.g. the names of the filters present, in a fixed order), compiled on first use. `build`
 * adds a filter's condition when the shape names it, with the filter's value as a parameter.
 */
export function preparedShapes<A extends Record<string, unknown>, Q extends Compilable<unknown>>(build: (db: Db | Tx, param: Param<A>, shape: string) => Q) {
  type R = InferResult<Q>[number];
  const byShape = new Map<string, Prepared<A, R>>();
  const forShape = (shape: string): Prepared<A, R> => {
    let p = byShape.get(shape);
    if (!p) byShape.set(shape, (p = prepared((db, param: Param<A>) => build(db, param, shape))));
    return p;
  };
  return {
    all: (db: Db | Tx, shape: string, args: A): Promise<R[]> => forShape(shape).all(db, args),
    first: (db: Db | Tx, shape: string, args: A): Promise<R | undefined> => forShape(shape).first(db, args),
  };
}

const mappedRows = new WeakMap<readonly unknown[], WeakMap<(row: never) => unknown, readonly unknown[]>>();

/**
 * `rows.map(map)`, done once for rows a prepared read handed out again (they come frozen, see
 * sqlite-driver.ts): the same rows and the same `map` (a function defined once, not per call) give
 * the same frozen list (typed as a plain array, as the answers are; changing it would throw). Other
 * rows are simply mapped.
 */
export function mapRows<T, U>(rows: readonly T[], map: (row: T) => U): U[] {
  if (!Object.isFrozen(rows)) return rows.map(map);
  let byMap = mappedRows.get(rows);
  if (!byMap) mappedRows.set(rows, (byMap = new WeakMap()));
  let list = byMap.get(map as (row: never) => unknown) as U[] | undefined;
  if (!list) byMap.set(map as (row: never) => unknown, (list = Object.freeze(rows.map((r) => Object.freeze(map(r)))) as U[]));
  return list;
}
