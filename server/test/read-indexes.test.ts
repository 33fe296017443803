import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CompiledQuery, sql, type Compilable } from 'kysely';
import { startApp, type TestApp } from './helpers/app';

/**
 * The cold reads that page through a long list read it in the list's order from an index
 * (storage/migrations/0019-read-indexes.ts, 0020-name-sort-keys.ts, 0024-position-account-kind.ts), so a page costs its own rows, not a sort of every
 * row that matches. Each query below has the shape of the read it stands for; its plan must name
 * the index and sort nothing. On PostgreSQL sorting and whole-table scans are priced out first
 * (`enable_sort`, `enable_seqscan` off), so a plan that still sorts has no index to read in order.
 */
describe('cold reads read their pages in order from an index', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp();
  });
  after(() => t.close());

  async function plan(query: Compilable<unknown>): Promise<string> {
    const { sql: text, parameters } = query.compile();
    const postgres = t.ctx.engine === 'postgres';
    return t.ctx.db.transaction().execute(async (trx) => {
      if (postgres) {
        await sql`set local enable_sort = off`.execute(trx);
        await sql`set local enable_seqscan = off`.execute(trx);
      }
      const result = await trx.executeQuery<Record<string, string>>(CompiledQuery.raw(`${postgres ? 'explain' : 'explain query plan'} ${text}`, [...parameters]));
      return result.rows.map((r) => r['QUERY PLAN'] ?? r.detail).join('\n');
    });
  }

  const readsInOrder = (shown: string, index: string) => {
    assert.match(shown, new RegExp(`\\b${index}\\b`), shown);
    assert.doesNotMatch(shown, /TEMP B-TREE FOR ORDER BY|\bSort\b/, shown);
  };

  test("the back office's closed trades of live accounts, newest closed first, each with its account", async () => {
    const db = t.ctx.db;
    const closed = db.selectFrom('positions as p').where('p.account_kind', '=', 'live').where('p.status', '=', 'closed');
    readsInOrder(await plan(closed.innerJoin('trading_accounts as a', 'a.id', 'p.account_id').selectAll('p').select('a.number').orderBy('p.closed_at', 'desc').orderBy('p.id', 'desc').limit(20).offset(0)), 'positions_kind_closed_idx');
    // Their count reads the index alone (migration 0024: the kind is on each position), no account.
    const counted = await plan(closed.select((eb) => eb.fn.countAll().as('n')));
    assert.match(counted, /\bpositions_kind_closed_idx\b/, counted);
    assert.doesNotMatch(counted, /trading_accounts/, counted);
  });

  test("a trader's order history: their positions, newest opened first", async () => {
    const db = t.ctx.db;
    readsInOrder(await plan(db.selectFrom('positions as p').selectAll().where('p.user_id', '=', 7).orderBy('p.opened_at', 'desc').orderBy('p.id', 'desc').limit(101)), 'positions_user_opened_idx');
  });

  test("a trader's balance operations, newest first", async () => {
    const db = t.ctx.db;
    readsInOrder(await plan(db.selectFrom('ledger_entries').selectAll().where('user_id', '=', 7).where('kind', '!=', 'trade').orderBy('created_at', 'desc').orderBy('id', 'desc').limit(101)), 'ledger_entries_user_created_idx');
  });

  test("a trader's latest orders of every status, newest placed first", async () => {
    const db = t.ctx.db;
    readsInOrder(await plan(db.selectFrom('orders').selectAll().where('user_id', '=', 7).orderBy('id', 'desc').limit(200)), 'orders_user_idx');
  });

  test("the back office's users by name (migration 0020: the name's sort key), from A", async () => {
    const db = t.ctx.db;
    const key = t.ctx.engine === 'postgres' ? sql`u.sort_name collate "C"` : sql`u.sort_name`;
    readsInOrder(await plan(db.selectFrom('users as u').leftJoin('countries as c', 'c.id', 'u.country_id').select(['u.id', 'u.first_name', 'c.name']).orderBy(key, 'asc').orderBy('u.id', 'asc').limit(10).offset(0)), 'users_sort_name_idx');
  });

  test("the back office's money requests of one status, newest first", async () => {
    const db = t.ctx.db;
    readsInOrder(await plan(db.selectFrom('money_requests as r').selectAll().where('r.status', '=', '1').orderBy('r.id', 'desc').limit(20).offset(0)), 'money_requests_status_id_idx');
  });
});
