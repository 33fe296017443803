import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import SqliteDatabase from 'better-sqlite3';
import { openDatabase, type DatabaseHandle } from '../src/storage/db';
import { migrateToLatest } from '../src/storage/migrate';
import { prepared, rowLimit, type Param } from '../src/storage/prepared';
import { startApp, type TestApp } from './helpers/app';
import { signedInTrader } from './helpers/client';

describe('prepared statements', () => {
  let t: TestApp;
  const ids: number[] = [];
  before(async () => {
    t = await startApp();
    for (const firstName of ['Ada', 'Grace', 'Linus']) ids.push((await signedInTrader(t, { firstName })).id);
  });
  after(() => t.close());

  const byIdAndRole = prepared((db, param: Param<{ id: number; role: 'trader' | 'admin' }>) =>
    db.selectFrom('users').select(['id', 'first_name']).where('id', '=', param('id')).where('role', '=', param('role')).where('is_active', '=', 1),
  );

  test('each run substitutes its own values and answers like the query built anew', async () => {
    for (const id of ids) {
      const built = await t.ctx.db.selectFrom('users').select(['id', 'first_name']).where('id', '=', id).where('role', '=', 'trader').where('is_active', '=', 1).execute();
      assert.deepEqual(await byIdAndRole.all(t.ctx.db, { id, role: 'trader' }), built);
    }
    assert.deepEqual(await byIdAndRole.all(t.ctx.db, { id: ids[0]!, role: 'admin' }), [], 'the second value is a parameter too');
  });

  test('values stay values: text that looks like SQL is only compared, never run', async () => {
    const byName = prepared((db, param: Param<{ name: string }>) => db.selectFrom('users').select('id').where('first_name', '=', param('name')));
    assert.deepEqual(await byName.all(t.ctx.db, { name: "Ada' or '1'='1" }), []);
    assert.equal((await byName.all(t.ctx.db, { name: 'Grace' })).length, 1);
  });

  test('first() gives the first row or undefined; exec() reports changed rows', async () => {
    assert.equal((await byIdAndRole.first(t.ctx.db, { id: ids[1]!, role: 'trader' }))?.first_name, 'Grace');
    assert.equal(await byIdAndRole.first(t.ctx.db, { id: 999_999, role: 'trader' }), undefined);
    const rename = prepared((db, param: Param<{ id: number; name: string }>) => db.updateTable('users').set({ nationality: param('name') }).where('id', '=', param('id')));
    const result = await rename.exec(t.ctx.db, { id: ids[2]!, name: 'Finnish' });
    assert.equal(Number(result.numAffectedRows), 1);
  });

  test('it runs inside a transaction, seeing that transaction’s writes', async () => {
    const nationalityOf = prepared((db, param: Param<{ id: number }>) => db.selectFrom('users').select('nationality').where('id', '=', param('id')));
    await t.ctx.db.transaction().execute(async (trx) => {
      await trx.updateTable('users').set({ nationality: 'Icelandic' }).where('id', '=', ids[0]!).execute();
      assert.equal((await nationalityOf.first(trx, { id: ids[0]! }))?.nationality, 'Icelandic');
    });
  });

  test('a row limit is written into the statement, not bound, and each run gets its own limit', async () => {
    const compiled = t.ctx.db.selectFrom('users').select('id').where('role', '=', 'trader').limit(rowLimit(2)).compile();
    assert.match(compiled.sql, /limit 2$/);
    assert.deepEqual(compiled.parameters, ['trader'], 'the limit is not among the bound values');
    const newest = prepared((db, param: Param<{ role: 'trader' | 'admin'; limit: number }>, rows) => db.selectFrom('users').select('id').where('role', '=', param('role')).orderBy('id', 'desc').limit(rows));
    const all = await t.ctx.db.selectFrom('users').select('id').where('role', '=', 'trader').orderBy('id', 'desc').execute();
    for (const limit of [1, 3, 2, 1, 0]) assert.deepEqual(await newest.all(t.ctx.db, { role: 'trader', limit }), all.slice(0, limit), `limit ${limit}`);
  });

  test('a row limit that is not a whole number is refused before any SQL is written', () => {
    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) assert.throws(() => rowLimit(bad), RangeError, String(bad));
  });

  test('a transaction runs the form compiled for its database: the query is built once', async () => {
    let builds = 0;
    const nameOf = prepared((db, param: Param<{ id: number }>) => {
      builds += 1;
      return db.selectFrom('users').select('first_name').where('id', '=', param('id'));
    });
    assert.equal((await nameOf.first(t.ctx.db, { id: ids[1]! }))?.first_name, 'Grace');
    for (let i = 0; i < 3; i++) await t.ctx.db.transaction().execute(async (trx) => assert.equal((await nameOf.first(trx, { id: ids[1]! }))?.first_name, 'Grace'));
    assert.equal(builds, 1);
  });

  test('on PostgreSQL a prepared query is a named statement of the connection, planned once; other queries are not', async (c) => {
    if (t.ctx.engine !== 'postgres') return c.skip('SQLite prepares every statement once per connection by itself (sqlite-driver.ts)');
    const emailOf = prepared((db, param: Param<{ id: number }>) => db.selectFrom('users').select('email').where('id', '=', param('id')));
    await t.ctx.db.transaction().execute(async (trx) => {
      // One transaction is one connection: the statements it prepared are listed for that connection.
      for (const id of ids) assert.match((await emailOf.first(trx, { id }))?.email ?? '', /@/);
      const onTheSpot = trx.selectFrom('users').select(['last_name', 'phone_no']).where('email', '=', 'nobody@example.com');
      await onTheSpot.execute();
      const listed = await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(trx);
      const text = trx.selectFrom('users').select('email').where('id', '=', 0).compile().sql;
      const mine = listed.rows.filter((r) => r.statement === text);
      assert.equal(mine.length, 1, 'prepared once, run three times');
      assert.match(mine[0]!.name, /^tp_\d+$/);
      assert.deepEqual(listed.rows.filter((r) => r.statement === onTheSpot.compile().sql), [], 'a query built on the spot is not kept');
    });
  });

  test('a missing value is an error, not a query with a placeholder in it', async () => {
    await assert.rejects(byIdAndRole.all(t.ctx.db, { id: ids[0]! } as { id: number; role: 'trader' }), /no value for role/);
  });
});

describe('prepared reads on SQLite read the database every time', () => {
  const onPostgres = (process.env.DATABASE_URL ?? '').startsWith('postgres');
  let dir = '';
  let handle: DatabaseHandle;
  before(async () => {
    if (onPostgres) return;
    dir = mkdtempSync(join(tmpdir(), 'tp_prepared_'));
    handle = openDatabase(`sqlite:${join(dir, 'prepared.db')}`);
    await migrateToLatest(handle);
    await handle.db.insertInto('payment_accounts').values({ name: 'First', number: '1', more_info: '', is_active: 1, created_at: 1, created_by: null }).execute();
  });
  after(async () => {
    if (onPostgres) return;
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const names = prepared((db) => db.selectFrom('payment_accounts').select(['id', 'name']).orderBy('id'));

  test('a read after a write through this connection sees it, and hands out fresh rows each time', async (ctx) => {
    if (onPostgres) return ctx.skip('SQLite only');
    const before = await names.all(handle.db, {});
    assert.notEqual(await names.all(handle.db, {}), before, 'a new list per read, nothing kept');
    await handle.db.updateTable('payment_accounts').set({ name: 'Renamed' }).execute();
    assert.deepEqual((await names.all(handle.db, {})).map((r) => r.name), ['Renamed']);
  });

  test('a commit by another connection (another process, an operator tool) shows on the very next read', async (ctx) => {
    if (onPostgres) return ctx.skip('SQLite only');
    await names.all(handle.db, {});
    const other = new SqliteDatabase(join(dir, 'prepared.db'));
    try {
      other.prepare("insert into payment_accounts (name, number, more_info, is_active, created_at) values ('Second', '2', '', 1, 2)").run();
    } finally {
      other.close();
    }
    assert.deepEqual((await names.all(handle.db, {})).map((r) => r.name), ['Renamed', 'Second']);
  });

  test('inside a transaction, its own writes are seen', async (ctx) => {
    if (onPostgres) return ctx.skip('SQLite only');
    await names.all(handle.db, {});
    await handle.db.transaction().execute(async (trx) => {
      await trx.insertInto('payment_accounts').values({ name: 'Third', number: '3', more_info: '', is_active: 1, created_at: 3, created_by: null }).execute();
      assert.equal((await names.all(trx, {})).length, 3);
    });
    assert.equal((await names.all(handle.db, {})).length, 3);
  });
});
