import { sql, type CompiledQuery, type Compilable, type InferResult, type QueryResult, type RawBuilder } from 'kysely';
import type { Db, Tx } from './types';

/**
 * A LIMIT written into the statement's text, never bound as a value. The SQLite that
 * better-sqlite3 ships (3.53) plans a bound LIMIT by its value, so binding one expires the
 * statement and every run of it is prepared anew: 25–50 µs for one of our paged reads, more than
 * running it (docs/benchmarks.md, "Authenticated reads over HTTP"). Kysely binds every value it is
 * given, constants too, so each `.limit()` takes `rowLimit(n)`, or the `rows` that a prepared
 * query's `build` is handed (the lint configuration holds to it). OFFSET is not planned by its
 * value and stays a bound value.
 */
export function rowLimit(n: number): RawBuilder<number> {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`A row limit is a whole number, not ${n}.`);
  return sql.lit(n);
}

/**
 * A query compiled once and run many times with different values. Building and compiling a Kysely
 * query costs more than running a small indexed SQLite statement, so the statements a busy server
 * runs on every request are declared once with `prepared`: `build` gets the database and a
 * `param(name)` function whose result stands in for a value, and each run substitutes the real
 * values into the compiled parameter list. Name the values by annotating `param`:
 * `prepared((db, param: Param<{ id: number }>) => db.selectFrom('users').selectAll().where('id', '=', param('id')))`.
 * SQL differs per dialect, so the query is compiled once per database (lazily, on first use); its
 * transactions share the database's compiled form (they share its dialect adapter, which is the key).
 *
 * Only single values can be parameters (not lists for `in`), used where Kysely binds a value
 * (comparisons, `set`, `offset`). A row limit is not a parameter but part of the statement (see
 * `rowLimit`): `build`'s third argument `rows` is the `limit` of the values it runs with, and the
 * query is compiled once for each limit it is run with (a page size: a handful of them).
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

/** Compiled forms kept per query and database: its limits (and, for `preparedShapes`, its shapes). */
const COMPILED_FORMS_MAX = 64;

/**
 * The statements `prepared` compiled, by their text, each with a name of its own. On PostgreSQL a
 * named statement is parsed and planned once per connection and then only bound and run
 * (db.ts sends these texts named); every other statement is parsed and planned on each run. The
 * names are bounded like the compiled forms: past the bound, new texts run unnamed.
 */
const statementNames = new Map<string, string>();
const STATEMENT_NAMES_MAX = 2_000;

/** The name `prepared` gave this statement text, if it compiled it. */
export function statementName(text: string): string | undefined {
  return statementNames.get(text);
}

/** The limit `args` name, for `build`; undefined when they name none. */
const limitOf = (args: Record<string, unknown>): number | undefined => (typeof args.limit === 'number' ? args.limit : undefined);

export function prepared<A extends Record<string, unknown>, Q extends Compilable<unknown>>(build: (db: Db | Tx, param: Param<A>, rows: RawBuilder<number>) => Q): Prepared<A, InferResult<Q>[number]> {
  type R = InferResult<Q>[number];
  const byDatabase = new WeakMap<object, Map<number | undefined, Compiled>>();
  const param = ((name: string) => `${MARK}${name}`) as Param<A>;
  const compiledFor = (on: Db | Tx, limit: number | undefined): Compiled => {
    const database = on.getExecutor().adapter;
    let forms = byDatabase.get(database);
    if (!forms) byDatabase.set(database, (forms = new Map()));
    let c = forms.get(limit);
    if (!c) {
      // `rows` is only read by a query with a limit, and then `args.limit` is there.
      const query = build(on, param, rowLimit(limit ?? 0)).compile();
      // Where each named value goes in the parameter list; the rest are constants of the query.
      const slots: Compiled['slots'] = [];
      query.parameters.forEach((value, index) => {
        if (typeof value === 'string' && value.startsWith(MARK)) slots.push({ index, name: value.slice(MARK.length) });
      });
      // A caller choosing a new page size for every request would otherwise grow this without end.
      if (forms.size >= COMPILED_FORMS_MAX) forms.clear();
      forms.set(limit, (c = { query, slots }));
      if (!statementNames.has(query.sql) && statementNames.size < STATEMENT_NAMES_MAX) statementNames.set(query.sql, `tp_${statementNames.size + 1}`);
    }
    return c;
  };
  const withValues = (on: Db | Tx, args: A): CompiledQuery<R> => {
    const { query, slots } = compiledFor(on, limitOf(args));
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
export function preparedShapes<A extends Record<string, unknown>, Q extends Compilable<unknown>>(build: (db: Db | Tx, param: Param<A>, shape: string, rows: RawBuilder<number>) => Q) {
  type R = InferResult<Q>[number];
  const byShape = new Map<string, Prepared<A, R>>();
  const forShape = (shape: string): Prepared<A, R> => {
    let p = byShape.get(shape);
    if (!p) {
      if (byShape.size >= COMPILED_FORMS_MAX) byShape.clear();
      byShape.set(shape, (p = prepared((db, param: Param<A>, rows) => build(db, param, shape, rows))));
    }
    return p;
  };
  return {
    all: (db: Db | Tx, shape: string, args: A): Promise<R[]> => forShape(shape).all(db, args),
    first: (db: Db | Tx, shape: string, args: A): Promise<R | undefined> => forShape(shape).first(db, args),
  };
}
