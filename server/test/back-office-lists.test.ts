import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { calls } from '@tradeport/contracts';
import { sql } from 'kysely';
import { openDatabase } from '../src/storage/db';
import { migrateToLatest, migratorFor } from '../src/storage/migrate';
import { ADMIN_EMAIL, ADMIN_PASSWORD, restartableDatabase, startApp, type TestApp } from './helpers/app';
import { Client, type SignedInTrader } from './helpers/client';
import { ASK, BID, assertFailure, push, roomyLimits, tradingDesk, type TradingDesk } from './helpers/trading';

/**
 * The back office's lists (issue 32): the audit log filtered by actor, trader, action and dates,
 * and the migration that records whom each entry is about.
 */

const DAY = 24 * 3600_000;
/** 2026-03-04 10:00 UTC, where the test clock starts. */
const START = Date.parse('2026-03-04T10:00:00Z');

describe('audit log filters', () => {
  let t: TestApp;
  let desk: TradingDesk;
  let ann: SignedInTrader;
  let bob: SignedInTrader;
  let adminId: number;
  let secondAdmin: Client;
  let secondAdminId: number;
  const LOG = calls.getAuditLog.path;
  type Entry = { id: number; action: string; actorId: number | null; actorEmail: string; targetType: string; targetId: string; timeStamp: string; targetUser: { id: number } | null };
  const entries = async (query: string): Promise<Entry[]> => {
    const r = await desk.admin.get(`${LOG}?${query}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.data as Entry[];
  };

  before(async () => {
    t = await startApp({ config: roomyLimits });
    desk = await tradingDesk(t, 'Audit bank');
    // Sessions that last across the days the clock is moved on.
    assert.equal((await desk.admin.post('/login.php', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD, rememberMe: true })).body.status, 'Success');
    adminId = (await desk.admin.get('/testSession.php')).body.user.id as number;
    ann = await desk.fundedTrader('500.00', { firstName: 'Ann', remember: true });
    t.clock.advance(DAY);
    bob = await desk.fundedTrader('700.00', { firstName: 'Bob', remember: true });
    // A second administrator (made one in the database: the product has no call for it yet).
    const second = await desk.fundedTrader('0.01', { firstName: 'Sam', lastName: 'Second' });
    await t.ctx.db.updateTable('users').set({ role: 'admin' }).where('id', '=', second.id).execute();
    secondAdmin = new Client(t);
    assert.equal((await secondAdmin.post('/login.php', { email: second.email, password: second.password, rememberMe: true })).body.status, 'Success');
    secondAdminId = second.id;
    t.clock.advance(DAY);
    assert.equal((await secondAdmin.postForm(calls.editStatusTraders.path, { id: ann.id, isActive: '0' })).status, 200);
    assert.equal((await secondAdmin.postForm(calls.editStatusTraders.path, { id: ann.id, isActive: '1' })).status, 200);
    await push(t, 'EURUSD', BID, ASK);
    const ticket = await bob.client.post(calls.addTrades.path, { fullSymbol: 'EURUSD', tradestypes: 'sell', volume: 0.01, stopLoss: 0, takeProfit: 0 });
    assert.equal((await desk.admin.post(calls.editStatusTrades.path, { traders_id: bob.id, ticket: ticket.body.ticket })).status, 200);
  });
  after(() => t.close());

  test('by actor: only what that administrator did', async () => {
    const bySecond = await entries(`actorId=${secondAdminId}`);
    assert.deepEqual(bySecond.map((e) => e.action), ['user.status', 'user.status']);
    assert.ok(bySecond.every((e) => e.actorId === secondAdminId));
    const byFirst = await entries(`actorId=${adminId}`);
    assert.ok(byFirst.length >= 5 && byFirst.every((e) => e.actorId === adminId), JSON.stringify(byFirst.map((e) => e.action)));
  });

  test('by trader: actions on the user, their money requests and their positions', async () => {
    const aboutAnn = await entries(`subjectId=${ann.id}`);
    assert.deepEqual(aboutAnn.map((e) => e.action), ['user.status', 'user.status', 'deposit.approve']);
    assert.ok(aboutAnn.every((e) => e.targetUser?.id === ann.id));
    assert.deepEqual((await entries(`subjectId=${bob.id}`)).map((e) => e.action), ['position.close', 'deposit.approve']);
  });

  test('by action, by UTC days, and all of them together', async () => {
    assert.equal((await entries('action=deposit.approve')).length, 3);
    assert.deepEqual((await entries('action=position.close')).map((e) => e.targetUser?.id), [bob.id]);
    assert.deepEqual(await entries('action=payment_account.edit'), []);
    // Day one (the 4th): the bank and Ann's deposit; day two: Bob's and Sam's; day three: the rest.
    assert.deepEqual((await entries('from=2026-03-04&to=2026-03-04')).map((e) => e.action), ['deposit.approve', 'payment_account.add']);
    assert.deepEqual((await entries('from=2026-03-05&to=2026-03-05')).map((e) => e.action), ['deposit.approve', 'deposit.approve']);
    assert.deepEqual((await entries('from=2026-03-06')).map((e) => e.action), ['position.close', 'user.status', 'user.status']);
    assert.deepEqual((await entries('to=2026-03-03')), []);
    assert.deepEqual((await entries(`from=2026-03-06&actorId=${secondAdminId}&subjectId=${ann.id}&action=user.status`)).map((e) => e.actorId), [secondAdminId, secondAdminId]);
    assert.deepEqual(await entries(`actorId=${secondAdminId}&subjectId=${bob.id}`), []);
  });

  test('filtered pages follow each other with `before`, newest first, each entry once', async () => {
    const all = await entries(`actorId=${adminId}&limit=500`);
    const seen: number[] = [];
    let before: number | undefined;
    for (;;) {
      const page = await entries(`actorId=${adminId}&limit=2${before ? `&before=${before}` : ''}`);
      if (page.length === 0) break;
      seen.push(...page.map((e) => e.id));
      before = page.at(-1)?.id;
    }
    assert.deepEqual(seen, all.map((e) => e.id));
    assert.deepEqual([...seen].sort((a, b) => b - a), seen);
  });

  test('bad filters are refused with the reason; a trader may not read the log', async () => {
    assertFailure(await desk.admin.get(`${LOG}?action=deposit`), 400, 'action must be an action name such as deposit.approve.');
    assertFailure(await desk.admin.get(`${LOG}?subjectId=x`), 400, 'subjectId must be an id.');
    assertFailure(await desk.admin.get(`${LOG}?from=2026-03-06&to=2026-03-05`), 400, 'from must be on or before to.');
    assertFailure(await desk.admin.get(`${LOG}?to=03/05/2026`), 400, 'to must be a date (YYYY-MM-DD).');
    assertFailure(await bob.client.get(`${LOG}?subjectId=${bob.id}`), 403);
    assertFailure(await new Client(t).get(LOG), 401);
  });
});

describe('migration 0018: whom each audit entry is about', () => {
  test('entries made before it get their trader from their targets; payment accounts none; the filters have their indexes', async () => {
    const target = await restartableDatabase();
    const handle = openDatabase(target.url);
    try {
      const { error } = await migratorFor(handle).migrateTo('0014-request-cancel');
      assert.equal(error, undefined);
      const db = handle.db;
      const now = START;
      const user = (email: string) => db.insertInto('users').values({ email, password_hash: 'x', first_name: 'Bea', last_name: 'Fore', phone_no: '123', role: 'trader', leverage: 100, created_at: now, updated_at: now } as never).returning('id').executeTakeFirstOrThrow();
      const admin = await user('admin@example.com');
      const ann = await user('ann@example.com');
      const bob = await user('bob@example.com');
      const cy = await user('cy@example.com');
      const bank = await db.insertInto('payment_accounts').values({ name: 'Bank', number: '1', more_info: '', is_active: 1, created_at: now } as never).returning('id').executeTakeFirstOrThrow();
      const request = await db.insertInto('money_requests').values({ kind: 'deposit', user_id: bob.id, payment_account_id: bank.id, account_ref: 'A1', amount_cents: 100, status: '1', created_at: now, decided_at: now, decided_by: admin.id } as never).returning('id').executeTakeFirstOrThrow();
      const position = await db.insertInto('positions').values({ user_id: ann.id, symbol: 'EURUSD', side: 'buy', volume: 0.1, open_price: 1.1, stop_loss: 0, take_profit: 0, comment: '', opened_at: now, swap_cents: 0, status: 'closed', close_price: 1.1, closed_at: now, close_reason: 'admin', profit_cents: 0, closed_by: admin.id } as never).returning('id').executeTakeFirstOrThrow();
      const order = await db.insertInto('orders').values({ user_id: cy.id, symbol: 'EURUSD', type: 'buy_limit', volume: 0.1, price: 1.09, stop_limit_price: 0, stop_triggered: 0, stop_loss: 0, take_profit: 0, comment: '', expires_at: null, status: 'cancelled', reason: 'x', position_id: null, created_at: now, updated_at: now } as never).returning('id').executeTakeFirstOrThrow();
      const entry = (action: string, targetType: string, targetId: string) => ({ actor_id: admin.id, action, target_type: targetType, target_id: targetId, before_json: 'null', after_json: 'null', ip: '127.0.0.1', created_at: now });
      const entries = [
        entry('user.status', 'user', String(ann.id)),
        entry('deposit.approve', 'money_request', String(request.id)),
        entry('position.close', 'position', String(position.id)),
        entry('order.cancel', 'order', String(order.id)),
        entry('payment_account.add', 'payment_account', String(bank.id)),
        entry('position.close', 'position', '999999'),
        entry('user.status', 'user', 'console'),
        entry('user.status', 'user', '99999999999'),
      ];
      for (const e of entries) await db.insertInto('audit_log').values(e as never).execute();

      assert.ok((await migrateToLatest(handle)).includes('0018-audit-subjects'));
      const rows = await db.selectFrom('audit_log').select(['action', 'target_id', 'subject_user_id']).orderBy('id').execute();
      assert.deepEqual(
        rows.map((r) => r.subject_user_id),
        [ann.id, bob.id, ann.id, cy.id, null, null, null, null],
      );
      const indexes =
        handle.engine === 'sqlite'
          ? (await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'audit_log' order by name`.execute(db)).rows
          : (await sql<{ name: string }>`select indexname as name from pg_indexes where tablename = 'audit_log' and indexname like 'audit_log_%_idx' order by indexname`.execute(db)).rows;
      assert.deepEqual(indexes.map((r) => r.name), ['audit_log_action_idx', 'audit_log_actor_idx', 'audit_log_created_idx', 'audit_log_subject_idx']);
      await assert.rejects(db.insertInto('audit_log').values({ ...entry('user.status', 'user', '1'), subject_user_id: 999_999 } as never).execute(), 'the subject must be a user');
    } finally {
      await handle.close();
      await target.drop();
    }
  });
});
