import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { calls } from '@tradeport/contracts';
import { sql } from 'kysely';
import { findLedgerMismatches } from '../src/services/ledger';
import { openDatabase } from '../src/storage/db';
import { migratorFor } from '../src/storage/migrate';
import { liveAccountOf } from './helpers/accounts';
import { restartableDatabase, startApp, type TestApp } from './helpers/app';
import { Client, fund, paymentAccount, signedInAdmin, signedInTrader } from './helpers/client';
import { assertFailure, openPosition, push } from './helpers/trading';

/**
 * A pending withdrawal is set aside at once (getWithdrawable shows it, by the same rule a new
 * withdrawal is checked with), and the trader may cancel an own pending request ('3'): exactly
 * once, audited, moving no money, and never after the broker decided it (nor the broker after it).
 */

const WITHDRAWABLE = calls.getWithdrawable.path;
const CANCEL = calls.cancelMoneyRequest.path;
const ADD_WITHDRAWAL = calls.addWithdrawal.path;
const ADD_DEPOSIT = calls.addDeposite.path;
const DECIDE_WITHDRAWAL = calls.editStatusWithdrawal.path;
const DECIDE_DEPOSIT = calls.editStatusDeposite.path;
const OWN_WITHDRAWALS = calls.getTraderWithdrawals.path;
const PENDING_WITHDRAWALS = calls.getPendingWithdrawal.path;
const ACTIVITY = calls.getActivity.path;
const AUDIT = calls.getAuditLog.path;

const roomyLimits = { signupRateLimitPerMinute: 10_000, signinRateLimitPerMinute: 10_000, orderRateLimitPerMinute: 1_000_000 };

describe('withdrawal hold and cancel', () => {
  let t: TestApp;
  let admin: Client;
  let gateway: number;

  before(async () => {
    t = await startApp({ config: roomyLimits });
    admin = await signedInAdmin(t);
    gateway = await paymentAccount(admin, 'Hold bank');
  });
  after(() => t.close());

  const funded = async (amount = '1000.00') => {
    const trader = await signedInTrader(t);
    await fund(trader.client, admin, gateway, amount);
    return trader;
  };
  const withdraw = async (c: Client, amount: string) => {
    const r = await c.post(ADD_WITHDRAWAL, { withdrawalsAmount: amount, paymentAccount: 'IBAN DE89 0001' });
    assert.equal(r.body.status, 'success', JSON.stringify(r.body));
    return r.body.id as number;
  };
  const figures = async (c: Client) => {
    const r = await c.get(WITHDRAWABLE);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body;
  };
  const statusOf = async (id: number) => (await t.ctx.db.selectFrom('money_requests').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
  const ledgerRows = async () => Number((await t.ctx.db.selectFrom('ledger_entries').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n);

  test('a pending withdrawal is set aside at once and is free again after the cancel', async () => {
    const { client } = await funded('1000.00');
    assert.deepEqual(await figures(client), { status: 'success', balance: '1000.00', marginHeld: '0.00', pendingWithdrawals: '0.00', withdrawable: '1000.00' });

    const id = await withdraw(client, '500.00');
    assert.deepEqual(await figures(client), { status: 'success', balance: '1000.00', marginHeld: '0.00', pendingWithdrawals: '500.00', withdrawable: '500.00' });
    // The figure is the one a new request is checked against.
    assertFailure(await client.post(ADD_WITHDRAWAL, { withdrawalsAmount: '500.01', paymentAccount: 'IBAN DE89 0001' }), 400, /at most 500\.00/);

    const ledgerBefore = await ledgerRows();
    const r = await client.post(CANCEL, { id });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body, { status: 'success', message: `Withdrawal request #${id} cancelled.` });
    assert.equal(await statusOf(id), '3');
    assert.deepEqual(await figures(client), { status: 'success', balance: '1000.00', marginHeld: '0.00', pendingWithdrawals: '0.00', withdrawable: '1000.00' });
    assert.equal(await ledgerRows(), ledgerBefore, 'a cancel posts nothing');
    assert.deepEqual(await findLedgerMismatches(t.ctx.db), []);

    const own = (await client.get(OWN_WITHDRAWALS)).body.data as { id: number; status: string; decidedAt: string | null }[];
    const row = own.find((w) => w.id === id);
    assert.equal(row?.status, '3');
    assert.ok(row?.decidedAt);
    const queue = (await admin.get(PENDING_WITHDRAWALS)).body.data as { id: number }[];
    assert.ok(!queue.some((w) => w.id === id), 'a cancelled request leaves the pending queue');
    // The whole balance can be requested again.
    await withdraw(client, '1000.00');
  });

  test('margin held by open positions is shown and kept back; trading may still use what pending withdrawals set aside', async () => {
    await push(t, 'EURUSD', 1.1, 1.1002);
    const { client } = await funded('1000.00');
    await withdraw(client, '900.00');
    // 0.01 lot of EURUSD needs a little margin: the free margin (orders' check) does not count pending withdrawals.
    await openPosition(client, { side: 'buy', volume: 0.01 });
    const f = await figures(client);
    assert.equal(f.balance, '1000.00');
    assert.equal(f.pendingWithdrawals, '900.00');
    assert.ok(Number(f.marginHeld) > 0, JSON.stringify(f));
    const expected = Math.max(0, 1000 - 900 - Number(f.marginHeld));
    assert.equal(f.withdrawable, expected.toFixed(2));
  });

  test('the cancel happens exactly once under parallel calls', async () => {
    const { client, id: userId } = await funded('800.00');
    const id = await withdraw(client, '300.00');
    const answers = await Promise.all(Array.from({ length: 8 }, () => client.post(CANCEL, { id })));
    const ok = answers.filter((a) => a.status === 200);
    assert.equal(ok.length, 1, JSON.stringify(answers.map((a) => [a.status, a.body])));
    for (const a of answers.filter((x) => x.status !== 200)) assertFailure(a, 409, `Withdrawal request #${id} has already been cancelled; only a pending request can be cancelled.`);
    const activity = await t.ctx.db.selectFrom('activity_log').select('kind').where('user_id', '=', userId).where('kind', '=', 'withdrawal-cancelled').execute();
    assert.equal(activity.length, 1);
    const audit = await t.ctx.db.selectFrom('audit_log').select('action').where('target_type', '=', 'money_request').where('target_id', '=', String(id)).execute();
    assert.deepEqual(audit.map((a) => a.action), ['withdrawal.cancel']);
  });

  test('a cancel racing an approval: exactly one of them wins, and the money moves only if the approval did', async () => {
    for (let round = 0; round < 4; round++) {
      const { client, id: userId } = await funded('600.00');
      const id = await withdraw(client, '200.00');
      const [cancel, approve] = await Promise.all([client.post(CANCEL, { id }), admin.post(DECIDE_WITHDRAWAL, { withdrawals_id: id, status: 1 })]);
      const wins = [cancel.status === 200, approve.status === 200 && approve.body.status === 'success'];
      assert.equal(wins.filter(Boolean).length, 1, JSON.stringify([cancel.body, approve.body]));
      const balance = (await liveAccountOf(t.ctx.db, userId)).balanceCents;
      assert.equal(await statusOf(id), wins[0] ? '3' : '1');
      assert.equal(balance, wins[0] ? 60_000 : 40_000);
    }
    assert.deepEqual(await findLedgerMismatches(t.ctx.db), []);
  });

  test('a deposit cancel racing its approval: one wins, never a deadlock or a 5xx', async () => {
    const { client, id: userId } = await funded('100.00');
    for (let round = 0; round < 6; round++) {
      const dep = await client.post(ADD_DEPOSIT, { depositAmount: '10.00', paymentAccount: '1234', payment_getways_id: gateway });
      const id = dep.body.id as number;
      const [cancel, approve] = await Promise.all([client.post(CANCEL, { id }), admin.post(DECIDE_DEPOSIT, { deposites_id: id, status: 1 })]);
      assert.deepEqual([cancel.status, approve.status].sort(), [200, 409], JSON.stringify([cancel.body, approve.body]));
      // The loser was refused by the guarded update, not rolled back by a deadlock.
      assert.match((cancel.status === 409 ? cancel : approve).body.message, /has already been (approved|cancelled)/);
      assert.equal(await statusOf(id), cancel.status === 200 ? '3' : '1');
    }
    const balance = (await liveAccountOf(t.ctx.db, userId)).balanceCents;
    const approved = await t.ctx.db.selectFrom('money_requests').select('id').where('user_id', '=', userId).where('kind', '=', 'deposit').where('status', '=', '1').execute();
    assert.equal(balance, 10_000 + (approved.length - 1) * 1_000, 'the funding deposit and each approved 10.00');
    assert.deepEqual(await findLedgerMismatches(t.ctx.db), []);
  });

  test("another trader's request is not found; a decided one is refused; both change nothing", async () => {
    const owner = await funded('500.00');
    const other = await signedInTrader(t);
    const id = await withdraw(owner.client, '100.00');
    assertFailure(await other.client.post(CANCEL, { id }), 404, `Request #${id} was not found.`);
    assertFailure(await owner.client.post(CANCEL, { id: 987_654 }), 404, 'Request #987654 was not found.');
    assert.equal(await statusOf(id), '0');

    assert.equal((await admin.post(DECIDE_WITHDRAWAL, { withdrawals_id: id, status: 2 })).body.status, 'success');
    assertFailure(await owner.client.post(CANCEL, { id }), 409, `Withdrawal request #${id} has already been rejected; only a pending request can be cancelled.`);
    assert.equal(await statusOf(id), '2');

    const dep = await owner.client.post(ADD_DEPOSIT, { depositAmount: '50.00', paymentAccount: '1234', payment_getways_id: gateway });
    assert.equal((await admin.post(DECIDE_DEPOSIT, { deposites_id: dep.body.id, status: 1 })).body.status, 'success');
    assertFailure(await owner.client.post(CANCEL, { id: dep.body.id }), 409, `Deposit request #${dep.body.id} has already been approved; only a pending request can be cancelled.`);

    assertFailure(await owner.client.post(CANCEL, { id: 'x' }), 400);
    assert.equal((await admin.post(CANCEL, { id })).status, 403, 'an administrator decides, and does not cancel');
    assert.equal((await new Client(t).post(CANCEL, { id })).status, 401);
  });

  test('an admin cannot approve or reject a cancelled request', async () => {
    const { client, id: userId } = await funded('500.00');
    const wid = await withdraw(client, '120.00');
    const dep = await client.post(ADD_DEPOSIT, { depositAmount: '70.00', paymentAccount: '1234', payment_getways_id: gateway });
    assert.equal((await client.post(CANCEL, { id: wid })).status, 200);
    assert.equal((await client.post(CANCEL, { id: dep.body.id })).status, 200);
    for (const status of [1, 2]) {
      assertFailure(await admin.post(DECIDE_WITHDRAWAL, { withdrawals_id: wid, status }), 409, `Withdrawal request #${wid} has already been cancelled.`);
      assertFailure(await admin.post(DECIDE_DEPOSIT, { deposites_id: dep.body.id, status }), 409, `Deposit request #${dep.body.id} has already been cancelled.`);
    }
    const balance = (await liveAccountOf(t.ctx.db, userId)).balanceCents;
    assert.equal(balance, 50_000);
    assert.equal(await statusOf(wid), '3');
    assert.equal(await statusOf(dep.body.id), '3');
    // The back office's history finds them under the new status, the trader as the one who decided.
    const listed = await admin.get(`${calls.getMoneyRequests.path}?status=3&traderId=${userId}`);
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    const rows = listed.body.data as { id: number; status: string; decidedBy: string }[];
    assert.deepEqual(rows.map((r) => [r.id, r.status]).sort(), [[wid, '3'], [dep.body.id, '3']].sort());
  });

  test('the cancel is in the trader\'s activity log and in the audit log, the trader its actor', async () => {
    const { client, id: userId, email } = await funded('500.00');
    const id = await withdraw(client, '75.50');
    assert.equal((await client.post(CANCEL, { id })).status, 200);

    const activity = (await client.get(`${ACTIVITY}?limit=5`)).body.data as { activity: string; details: string; status: string }[];
    const cancelled = activity.find((a) => a.activity === 'Withdrawal cancelled');
    assert.ok(cancelled, JSON.stringify(activity));
    assert.equal(cancelled.details, `Withdrawal request #${id} of 75.50 USD cancelled`);
    assert.equal(cancelled.status, 'Cancelled');

    const audit = (await admin.get(`${AUDIT}?limit=20`)).body.data as { action: string; targetType: string; targetId: string; actorId: number; actorEmail: string; before: unknown; after: unknown; targetUser: { id: number } | null }[];
    const entry = audit.find((a) => a.action === 'withdrawal.cancel' && a.targetId === String(id));
    assert.ok(entry, JSON.stringify(audit.slice(0, 3)));
    assert.equal(entry.actorId, userId);
    assert.equal(entry.actorEmail, email);
    assert.equal(entry.targetType, 'money_request');
    assert.deepEqual(entry.before, { status: '0' });
    assert.deepEqual(entry.after, { status: '3' });
    assert.equal(entry.targetUser?.id, userId);
  });

  test('the cancel is published to the trader and to the back office', async () => {
    const { client, id: userId } = await funded('500.00');
    const id = await withdraw(client, '10.00');
    const seen: unknown[] = [];
    const stop = t.ctx.bus.subscribe((e) => {
      if ('requestId' in e && e.requestId === id) seen.push(e);
    });
    try {
      assert.equal((await client.post(CANCEL, { id })).status, 200);
      const deadline = Date.now() + 3000;
      while (seen.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    } finally {
      stop();
    }
    assert.deepEqual(seen, [
      { type: 'moneyRequest.updated', userId, accountId: (await liveAccountOf(t.ctx.db, userId)).id, requestId: id, kind: 'withdrawal', status: '3', amount: '10.00' },
      { type: 'moneyRequest.cancelled', requestId: id, kind: 'withdrawal', traderId: userId },
    ]);
  });
});

describe('migration 0014: cancelled money requests', () => {
  test('rows made before it are kept with their ids, status 3 is allowed, other values still refused', async () => {
    const target = await restartableDatabase();
    const handle = openDatabase(target.url);
    try {
      const { error } = await migratorFor(handle).migrateTo('0013-engine-leader-liveness');
      assert.equal(error, undefined);
      const db = handle.db;
      const now = Date.parse('2026-03-04T10:00:00Z');
      const user = await db
        .insertInto('users')
        .values({ email: 'before@example.com', password_hash: 'x', first_name: 'Bea', last_name: 'Fore', phone_no: '123', role: 'trader', leverage: 100, created_at: now, updated_at: now } as never)
        .returning('id')
        .executeTakeFirstOrThrow();
      const bank = await db.insertInto('payment_accounts').values({ name: 'Old bank', number: '1', more_info: '', is_active: 1, created_at: now } as never).returning('id').executeTakeFirstOrThrow();
      const rows = [
        { kind: 'deposit', user_id: user.id, payment_account_id: bank.id, account_ref: 'A1', amount_cents: 10_000, status: '1', created_at: now, decided_at: now + 1, decided_by: user.id },
        { kind: 'withdrawal', user_id: user.id, payment_account_id: null, account_ref: 'IBAN 2', amount_cents: 2_500, status: '0', created_at: now + 2, decided_at: null, decided_by: null },
        { kind: 'withdrawal', user_id: user.id, payment_account_id: null, account_ref: 'IBAN 3', amount_cents: 700, status: '2', created_at: now + 3, decided_at: now + 4, decided_by: user.id },
      ] as const;
      // Rows of the schema of 0013/0014 (no trading accounts yet, so no account_id): typed `as never` against today's schema.
      for (const r of rows) await db.insertInto('money_requests').values(r as never).execute();
      // The last request made before the migration was removed (never done by the app; a counter check).
      const gone = await db.insertInto('money_requests').values({ ...rows[1], account_ref: 'gone' } as never).returning('id').executeTakeFirstOrThrow();
      await db.deleteFrom('money_requests').where('id', '=', gone.id).execute();
      await assert.rejects(db.updateTable('money_requests').set({ status: '3' }).where('account_ref', '=', 'IBAN 2').execute(), 'the old constraint refuses 3');
      const beforeRows = await db.selectFrom('money_requests').selectAll().orderBy('id').execute();

      // Up to 0014 only: later migrations add columns of their own (0015 the reject reason).
      const up = await migratorFor(handle).migrateTo('0014-request-cancel');
      assert.equal(up.error, undefined);
      assert.deepEqual(up.results?.map((r) => r.migrationName), ['0014-request-cancel']);
      assert.deepEqual(await db.selectFrom('money_requests').selectAll().orderBy('id').execute(), beforeRows);
      await db.updateTable('money_requests').set({ status: '3' }).where('account_ref', '=', 'IBAN 2').execute();
      await assert.rejects(db.updateTable('money_requests').set({ status: '4' as never }).where('account_ref', '=', 'IBAN 3').execute(), 'other statuses are still refused');
      await assert.rejects(db.insertInto('money_requests').values({ ...rows[1], amount_cents: 0 } as never).execute(), 'the amount check is kept');
      await assert.rejects(db.insertInto('money_requests').values({ ...rows[1], kind: 'gift' } as never).execute(), 'the kind check is kept');
      await assert.rejects(db.insertInto('money_requests').values({ ...rows[1], user_id: 999_999 } as never).execute(), 'the user reference is kept');
      const next = await db.insertInto('money_requests').values({ ...rows[1], account_ref: 'after' } as never).returning('id').executeTakeFirstOrThrow();
      assert.ok(next.id > gone.id, `no id is handed out twice (${next.id} after ${gone.id})`);
      if (handle.engine === 'sqlite') {
        const indexes = await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'money_requests' order by name`.execute(db);
        assert.deepEqual(indexes.rows.map((r) => r.name), ['money_requests_status_idx', 'money_requests_user_idx']);
        assert.deepEqual((await sql`pragma foreign_key_check`.execute(db)).rows, []);
        const leftovers = await sql<{ name: string }>`select name from sqlite_master where name like 'money_requests_new%'`.execute(db);
        assert.deepEqual(leftovers.rows, []);
      }
    } finally {
      await handle.close();
      await target.drop();
    }
  });
});
