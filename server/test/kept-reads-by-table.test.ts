import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { openDatabase, type DatabaseHandle } from '../src/storage/db';
import { migrateToLatest } from '../src/storage/migrate';
import { prepared } from '../src/storage/prepared';
import { writtenTable, wordsOf } from '../src/storage/sqlite-driver';
import { restartableDatabase } from './helpers/app';

describe('the table a write changes', () => {
  test('is named by insert, update and delete as Kysely compiles them, quoted or not', () => {
    assert.equal(writtenTable('insert into "sessions" ("id_hash") values (?)'), 'sessions');
    assert.equal(writtenTable('update "users" set "last_seen_at" = ? where "id" = ?'), 'users');
    assert.equal(writtenTable('delete from "login_throttle" where "email" = ?'), 'login_throttle');
    assert.equal(writtenTable('insert or replace into payment_accounts (name) values (?)'), 'payment_accounts');
    assert.equal(writtenTable('UPDATE Users SET x = 1'), 'users');
  });

  test('is unknown for anything else, which then counts as a change of every table', () => {
    assert.equal(writtenTable('with t as (select 1) update "users" set "x" = 1'), null);
    assert.equal(writtenTable('rollback'), null);
    assert.equal(writtenTable('create table "x" ("a" integer)'), null);
  });

  test('a read depends on every word of its SQL that names a table, raw fragments included', () => {
    const words = wordsOf('select "p"."id", (select count(*) from ledger where user_id = "p"."user_id") from "positions" as "p" inner join "users" on 1');
    for (const table of ['ledger', 'positions', 'users']) assert.ok(words.includes(table), table);
  });
});

describe('results of prepared reads, kept per table (SQLite, or PostgreSQL with reads kept)', () => {
  const onPostgres = (process.env.DATABASE_URL ?? '').startsWith('postgres');
  let dir = '';
  let handle: DatabaseHandle;
  let userId = 0;
  let database: { url: string; drop(): Promise<void> } | undefined;
  before(async () => {
    if (onPostgres) {
      database = await restartableDatabase();
      handle = openDatabase(database.url, () => undefined, { keepReads: true });
    } else {
      dir = mkdtempSync(join(tmpdir(), 'tp_kept_tables_'));
      handle = openDatabase(`sqlite:${join(dir, 'kept.db')}`);
    }
    await migrateToLatest(handle);
    await handle.db.insertInto('payment_accounts').values({ name: 'First', number: '1', more_info: '', is_active: 1, created_at: 1, created_by: null }).execute();
    const user = await handle.db
      .insertInto('users')
      .values({ email: 'kept@example.com', password_hash: 'x', first_name: 'Kept', last_name: 'Reads', phone_no: '1', country_id: null, date_of_birth: '', nationality: '', role: 'trader', is_active: 1, is_reserved: 0, leverage: 100, balance_cents: 0, credit_cents: 0, created_at: 1, updated_at: 1, last_seen_at: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    userId = user.id;
  });
  after(async () => {
    await handle?.close();
    await database?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  const accounts = prepared((db) => db.selectFrom('payment_accounts').select(['id', 'name']).orderBy('id'));
  const sessionsOfUsers = prepared((db) => db.selectFrom('sessions').innerJoin('users', 'users.id', 'sessions.user_id').select(['sessions.id_hash', 'users.first_name']).orderBy('sessions.id_hash'));
  const withRawSubquery = prepared((db) => db.selectFrom('payment_accounts').select(['id', sql<number>`(select count(*) from users)`.as('users')]));

  test('stay kept through writes to tables they do not read', async () => {
    const first = await accounts.all(handle.db, {});
    await handle.db.updateTable('users').set({ last_seen_at: 5 }).where('id', '=', userId).execute();
    await handle.db.insertInto('sessions').values({ id_hash: 'a', user_id: userId, persistent: 0, created_at: 1, last_seen_at: 1, expires_at: 10, ip: '', user_agent: '', revoked_at: null }).execute();
    assert.equal(await accounts.all(handle.db, {}), first, 'the same rows, not read again');
  });

  test('stay kept through a pragma (it changes how the connection works, not rows)', async (ctx) => {
    if (onPostgres) return ctx.skip('SQLite only');
    const first = await accounts.all(handle.db, {});
    await sql`pragma synchronous = full`.execute(handle.db);
    assert.equal(await accounts.all(handle.db, {}), first);
  });

  test('are read again after a write to any table they join', async () => {
    const before = await sessionsOfUsers.all(handle.db, {});
    assert.deepEqual(before.map((r) => r.first_name), ['Kept']);
    await handle.db.updateTable('users').set({ first_name: 'Renamed' }).where('id', '=', userId).execute();
    assert.deepEqual((await sessionsOfUsers.all(handle.db, {})).map((r) => r.first_name), ['Renamed']);
    await handle.db.insertInto('sessions').values({ id_hash: 'b', user_id: userId, persistent: 0, created_at: 1, last_seen_at: 1, expires_at: 10, ip: '', user_agent: '', revoked_at: null }).execute();
    assert.deepEqual((await sessionsOfUsers.all(handle.db, {})).map((r) => r.id_hash), ['a', 'b']);
  });

  test('are read again after a write to a table only a raw subquery names', async () => {
    const before = await withRawSubquery.all(handle.db, {});
    assert.equal(before[0]?.users, 1);
    await handle.db.insertInto('users').values({ email: 'second@example.com', password_hash: 'x', first_name: 'Second', last_name: 'User', phone_no: '1', country_id: null, date_of_birth: '', nationality: '', role: 'trader', is_active: 1, is_reserved: 0, leverage: 100, balance_cents: 0, credit_cents: 0, created_at: 1, updated_at: 1, last_seen_at: null }).execute();
    assert.equal((await withRawSubquery.all(handle.db, {}))[0]?.users, 2);
  });

  test('a transaction rolled back leaves no kept read of what it wrote', async () => {
    const before = await accounts.all(handle.db, {});
    await assert.rejects(
      handle.db.transaction().execute(async (trx) => {
        await trx.updateTable('payment_accounts').set({ name: 'Never' }).execute();
        // Read (and kept) inside the transaction, after its write.
        assert.deepEqual((await accounts.all(trx, {})).map((r) => r.name), ['Never']);
        throw new Error('roll back');
      }),
      /roll back/,
    );
    const after = await accounts.all(handle.db, {});
    assert.deepEqual(after.map((r) => r.name), before.map((r) => r.name));
  });

  test('a statement whose table is not known counts as a change of every table', async () => {
    const before = await accounts.all(handle.db, {});
    await sql`with renamed as (select 'Via CTE' as name) update payment_accounts set name = (select name from renamed)`.execute(handle.db);
    const after = await accounts.all(handle.db, {});
    assert.notEqual(after, before);
    assert.deepEqual(after.map((r) => r.name), ['Via CTE']);
  });
});
