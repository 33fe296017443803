import assert from 'node:assert/strict';
import { test } from 'node:test';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, sql } from 'kysely';
import { QueuedSqliteDialect } from '../src/storage/sqlite-driver';

/**
 * The SQLite driver (FIFO hand-over of the one connection, prepared statements cached by SQL
 * text): transactions stay isolated from each other, waiters are served in arrival order, a failed
 * or rolled-back transaction frees the connection, and the statement cache returns correct results
 * at and beyond its capacity.
 */

interface Schema {
  items: { id: number; name: string; n: number };
}

function openDb(cacheSize = 500): Kysely<Schema> {
  const db = new Kysely<Schema>({ dialect: new QueuedSqliteDialect(new SqliteDatabase(':memory:'), cacheSize) });
  return db;
}

async function withItems(cacheSize: number, work: (db: Kysely<Schema>) => Promise<void>): Promise<void> {
  const db = openDb(cacheSize);
  try {
    await db.schema.createTable('items').addColumn('id', 'integer', (c) => c.primaryKey()).addColumn('name', 'text', (c) => c.notNull().unique()).addColumn('n', 'integer', (c) => c.notNull()).execute();
    await work(db);
  } finally {
    await db.destroy();
  }
}

test('200 concurrent transactions run one at a time, in the order they asked, and each sees only its own writes', () =>
  withItems(500, async (db) => {
    await db.insertInto('items').values({ id: 1, name: 'counter', n: 0 }).execute();
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 200 }, (_, k) =>
        db.transaction().execute(async (trx) => {
          order.push(k);
          const before = await trx.selectFrom('items').select('n').where('id', '=', 1).executeTakeFirstOrThrow();
          // Give every other transaction a chance to run in between, were the connection shared.
          await new Promise((resolve) => setImmediate(resolve));
          await trx.updateTable('items').set({ n: before.n + 1 }).where('id', '=', 1).execute();
        }),
      ),
    );
    assert.deepEqual(order, Array.from({ length: 200 }, (_, k) => k));
    const after = await db.selectFrom('items').select('n').where('id', '=', 1).executeTakeFirstOrThrow();
    assert.equal(after.n, 200, 'a read-modify-write in each transaction loses no update');
  }));

test('a transaction that fails is rolled back and hands the connection on: the waiters behind it run', () =>
  withItems(500, async (db) => {
    await db.insertInto('items').values({ id: 1, name: 'taken', n: 0 }).execute();
    const results = await Promise.allSettled([
      db.transaction().execute(async (trx) => {
        await trx.insertInto('items').values({ id: 2, name: 'first', n: 1 }).execute();
        await trx.insertInto('items').values({ id: 3, name: 'taken', n: 1 }).execute(); // unique violation
      }),
      db.transaction().execute(async (trx) => {
        await trx.insertInto('items').values({ id: 4, name: 'second', n: 1 }).execute();
      }),
      db.insertInto('items').values({ id: 5, name: 'third', n: 1 }).execute(),
    ]);
    assert.equal(results[0].status, 'rejected');
    assert.match(String((results[0] as PromiseRejectedResult).reason), /UNIQUE/);
    assert.equal(results[1].status, 'fulfilled');
    assert.equal(results[2].status, 'fulfilled');
    const names = await db.selectFrom('items').select('name').orderBy('id').execute();
    assert.deepEqual(
      names.map((r) => r.name),
      ['taken', 'second', 'third'],
      'the failed transaction left nothing behind',
    );
    // The statement that failed is cached; it works again with other values.
    await db.insertInto('items').values({ id: 6, name: 'fourth', n: 1 }).execute();
    assert.equal((await db.selectFrom('items').select(sql<number>`count(*)`.as('c')).executeTakeFirstOrThrow()).c, 4);
  }));

test('with a statement cache of 2, many distinct statements in turn still return the right rows', () =>
  withItems(2, async (db) => {
    for (let id = 1; id <= 20; id++) await db.insertInto('items').values({ id, name: `item-${id}`, n: id * 10 }).execute();
    for (let round = 0; round < 3; round++) {
      for (let id = 1; id <= 20; id++) {
        // Five statement shapes in rotation: more than the cache holds, so entries are evicted and re-prepared.
        const shape = id % 5;
        const row =
          shape === 0
            ? await db.selectFrom('items').select(['id', 'n']).where('id', '=', id).executeTakeFirstOrThrow()
            : shape === 1
              ? await db.selectFrom('items').select(['id', 'n']).where('name', '=', `item-${id}`).executeTakeFirstOrThrow()
              : shape === 2
                ? await db.selectFrom('items').select(['id', 'n']).where('n', '=', id * 10).executeTakeFirstOrThrow()
                : shape === 3
                  ? await db.selectFrom('items').select(['id', 'n']).where('id', '>=', id).where('id', '<=', id).executeTakeFirstOrThrow()
                  : await db.selectFrom('items').select(['n', 'id']).where('id', 'in', [id]).executeTakeFirstOrThrow();
        assert.deepEqual({ id: row.id, n: row.n }, { id, n: id * 10 });
      }
    }
    const updated = await db.updateTable('items').set({ n: 0 }).where('id', '<=', 5).executeTakeFirst();
    assert.equal(updated.numUpdatedRows, 5n);
    const inserted = await db.insertInto('items').values({ id: 99, name: 'last', n: 1 }).executeTakeFirst();
    assert.equal(inserted.insertId, 99n);
  }));

test('savepoints: rolling back to one undoes only what came after it', () =>
  withItems(500, async (db) => {
    const trx = await db.startTransaction().execute();
    await trx.insertInto('items').values({ id: 1, name: 'kept', n: 1 }).execute();
    const sp = await trx.savepoint('before_second').execute();
    await sp.insertInto('items').values({ id: 2, name: 'undone', n: 2 }).execute();
    const back = await sp.rollbackToSavepoint('before_second').execute();
    const released = await back.releaseSavepoint('before_second').execute();
    await released.commit().execute();
    const names = await db.selectFrom('items').select('name').orderBy('id').execute();
    assert.deepEqual(
      names.map((r) => r.name),
      ['kept'],
    );
  }));
