import type { CompiledQuery, Compilable, InferResult, QueryResult } from 'kysely';
import type { Db, Tx } from './types';

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
    return { ...query, parameters } as CompiledQuery<R>;
  };
  return {
    async all(on, args) {
      return (await on.executeQuery(withValues(on, args))).rows;
    },
    async first(on, args) {
      return (await on.executeQuery(withValues(on, args))).rows[0];
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
