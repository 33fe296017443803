import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CompiledQuery, sql } from 'kysely';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../src/storage/db';
import { changeOf, MAX_AGE_MS } from '../src/storage/postgres-kept';
import { databaseVersion, prepared, type Param } from '../src/storage/prepared';
import { restartableDatabase } from './helpers/app';

/**
 * Prepared reads kept between requests on PostgreSQL (storage/postgres-kept.ts), for an instance
 * that is its database's only writer: a kept result is given again until a table it reads is
 * written by this process (when the write is sent and again when it commits), and ages out after
 * MAX_AGE_MS for writes made elsewhere. Against a real PostgreSQL database when DATABASE_URL names
 * one; which statements count as changes, always.
 */

const raw = (text: string) => CompiledQuery.raw(text);
const PG = (process.env.DATABASE_URL ?? '').startsWith('postgres');

describe('which statements change what', () => {
  test('a write names its table; begin, commit and reads change nothing; anything else changes every table', () => {
    assert.equal(changeOf(raw('insert into "users" ("email") values ($1)')), 'users');
    assert.equal(changeOf(raw('insert into "balances" ("user_id") values ($1) on conflict ("user_id") do update set "cents" = "balances"."cents" + $2')), 'balances');
    assert.equal(changeOf(raw('update "sessions" set "last_seen_at" = $1 where "id" = $2')), 'sessions');
    assert.equal(changeOf(raw('delete from "orders" where "id" = $1 returning "id"')), 'orders');
    assert.equal(changeOf(raw('select "id" from "users" where "id" = $1 for update')), 'none');
    assert.equal(changeOf(raw('select pg_advisory_lock($1, $2)')), 'none');
    for (const text of ['begin', 'commit', 'rollback', 'savepoint "a"', 'release "a"', 'start transaction isolation level serializable', "set local lock_timeout = '1s'"]) assert.equal(changeOf(raw(text)), 'none', text);
    for (const text of ['with "x" as (update "users" set "a" = 1 returning "id") select * from "x"', 'select * from (with "y" as (update only "public"."users" as "u" set "a" = 1 returning 1) select * from "y") "z"', "set local lock_timeout = '1s'; update \"users\" set \"a\" = 1", 'insert into "a" select * from "b" where exists (delete from "c")', 'create table "t" ("id" int)', 'truncate "users"', 'alter table "users" add column "x" int', 'vacuum', 'call something()'])
      assert.equal(changeOf(raw(text)), 'all', text);
  });
});

describe('PostgreSQL kept reads', { skip: PG ? false : 'needs DATABASE_URL=postgres://…' }, () => {
  let database: { url: string; drop(): Promise<void> };
  let handle: DatabaseHandle;
  let other: pg.Client;
  const byId = prepared((db, param: Param<{ id: number }>) => (db as unknown as DatabaseHandle['db']).selectFrom('kept_test' as never).selectAll().where('id' as never, '=', param('id') as never));
  type Row = { id: number; v: string };
  const read = async (id: number) => (await byId.all(handle.db, { id })) as unknown as Row[];
  const write = (id: number, v: string) => sql`update kept_test set v = ${v} where id = ${id}`.execute(handle.db);

  before(async () => {
    database = await restartableDatabase();
    handle = openDatabase(database.url, () => undefined, { keepReads: true });
    await sql`create table kept_test (id integer primary key, v text not null)`.execute(handle.db);
    await sql`insert into kept_test (id, v) values (1, 'a'), (2, 'b')`.execute(handle.db);
    other = new pg.Client({ connectionString: database.url });
    await other.connect();
  });
  after(async () => {
    await other?.end();
    await handle?.close();
    await database?.drop();
  });

  test('a read is kept (the same frozen rows) until this process writes its table', async () => {
    const first = await read(1);
    assert.deepEqual(first, [{ id: 1, v: 'a' }]);
    assert.ok(Object.isFrozen(first) && Object.isFrozen(first[0]));
    assert.equal(await read(1), first, 'given again');
    await write(1, 'a2');
    const after = await read(1);
    assert.deepEqual(after, [{ id: 1, v: 'a2' }]);
    assert.notEqual(after, first);
  });

  test('a write inside a transaction: reads meanwhile see the rows before it, and the first read after the commit sees it', async () => {
    const before = await read(2);
    await handle.db.transaction().execute(async (trx) => {
      await sql`update kept_test set v = 'b2' where id = 2`.execute(trx);
      // Outside the transaction the row is still 'b' (and what is read now is not kept past the commit).
      assert.deepEqual(await read(2), [{ id: 2, v: 'b' }]);
      assert.deepEqual(await read(2), [{ id: 2, v: 'b' }]);
    });
    assert.deepEqual(await read(2), [{ id: 2, v: 'b2' }]);
    assert.notEqual(await read(2), before);
  });

  test('a read sent while a write is in flight is not kept past its commit, whichever answers first', async () => {
    // A row of its own each round, so nothing kept from before can answer for it.
    for (let i = 0; i < 20; i++) {
      const id = 100 + i;
      await sql`insert into kept_test (id, v) values (${id}, 'old')`.execute(handle.db);
      await read(id);
      const reads: Promise<Row[]>[] = [];
      await handle.db.transaction().execute(async (trx) => {
        const update = sql`update kept_test set v = 'new' where id = ${id}`.execute(trx);
        // Sent after the update was sent, on other connections: answered before or after it commits.
        reads.push(read(id), read(id));
        await update;
        reads.push(read(id));
      });
      const during = await Promise.all(reads);
      for (const rows of during) assert.ok(rows[0]?.v === 'old' || rows[0]?.v === 'new', `round ${i}`);
      assert.deepEqual(await read(id), [{ id, v: 'new' }], `round ${i}: the read after the commit`);
    }
  });

  test('the same read asked for again while on its way is shared, unless a write was sent meanwhile', async () => {
    await sql`insert into kept_test (id, v) values (200, 'one')`.execute(handle.db);
    const together = await Promise.all(Array.from({ length: 10 }, () => read(200)));
    assert.ok(together.every((rows) => rows === together[0]), 'one answer for all ten');
    // A read that takes a while: a write made (and committed) while it is on its way.
    const slow = prepared((db, param: Param<{ id: number }>) => (db as unknown as DatabaseHandle['db']).selectFrom('kept_test' as never).select(['id' as never, 'v' as never, sql`pg_sleep(0.3)`.as('slept')]).where('id' as never, '=', param('id') as never));
    const slowRead = async (id: number) => (await slow.all(handle.db, { id })) as unknown as Row[];
    const first = slowRead(200);
    await write(200, 'two');
    const second = slowRead(200);
    const [a, b] = await Promise.all([first, second]);
    assert.notEqual(a, b, 'a read sent after a write is not given the one sent before it');
    assert.equal(b[0]?.v, 'two');
  });

  test('a rolled-back write leaves the rows as they were', async () => {
    const before = await read(2);
    await assert.rejects(
      handle.db.transaction().execute(async (trx) => {
        await sql`update kept_test set v = 'never' where id = 2`.execute(trx);
        throw new Error('roll back');
      }),
    );
    assert.deepEqual(await read(2), before);
  });

  test('a write made by another connection shows within MAX_AGE_MS of the read, and the version moves with it', async () => {
    const version = databaseVersion(handle.db);
    assert.ok(version !== undefined);
    const kept = await read(2);
    await other.query("update kept_test set v = 'elsewhere' where id = 2");
    // Not seen at once: that is the price of keeping (only this process's writes are known).
    assert.equal(await read(2), kept);
    await new Promise((resolve) => setTimeout(resolve, MAX_AGE_MS + 50));
    assert.deepEqual(await read(2), [{ id: 2, v: 'elsewhere' }]);
    assert.notEqual(databaseVersion(handle.db), version, 'the version ages out too');
    const now = databaseVersion(handle.db);
    await write(2, 'again');
    assert.notEqual(databaseVersion(handle.db), now, 'a write moves the version');
  });
});
