import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { calls, type CallDefinition } from '@tradeport/contracts';
import { findLedgerMismatches, postToLedger } from '../src/services/ledger';
import { liveAccountOf, setAccount } from './helpers/accounts';
import { ADMIN_EMAIL, ADMIN_PASSWORD, FEED_TOKEN, startApp, type TestApp } from './helpers/app';
import { Client, fund, paymentAccount, signedInTrader, US, type TraderOptions } from './helpers/client';

/**
 * The back office over real HTTP: the users table, activating and deactivating users, admin
 * password resets, the audit log, the money request search, and that every admin call refuses
 * anyone who is not an administrator.
 */

const TRADERS = calls.getTraders.path;
const TRADER_STATUS = calls.editStatusTraders.path;
const TRADER_PASSWORD = calls.editTraderPassword.path;
const AUDIT = calls.getAuditLog.path;
const MONEY_REQUESTS = calls.getMoneyRequests.path;
const PROFILE = calls.getProfileDetails.path;
const ADD_DEPOSIT = calls.addDeposite.path;
const ADD_WITHDRAWAL = calls.addWithdrawal.path;
const DECIDE_DEPOSIT = calls.editStatusDeposite.path;
const DECIDE_WITHDRAWAL = calls.editStatusWithdrawal.path;
const GATEWAY_STATUS = calls.editStatusPayments.path;

const RESERVED_MESSAGE = 'The built-in administrator account cannot be changed from the users table.';
const SIGN_IN_FIRST = { status: 'Failure', message: 'Please sign in to continue.' };

// Many sign-ups and sign-ins from one address within a minute; the limits are tested elsewhere.
const roomyLimits = { signupRateLimitPerMinute: 10_000, signinRateLimitPerMinute: 10_000 };

interface Row {
  id: number;
  [field: string]: unknown;
}

describe('admin back office', () => {
  let t: TestApp;
  let admin: Client;
  let adminId: number;
  let gateway: number;

  /** Signs in on a new client; 'remember me' sessions survive the clock jumping days ahead. */
  const signIn = async (email: string, password: string, rememberMe = true) => {
    const client = new Client(t);
    const reply = await client.post('/login.php', { email, password, rememberMe });
    return { client, reply };
  };
  /** A trader whose session survives clock jumps (signed in again with 'remember me'). */
  const persistentTrader = async (o: TraderOptions = {}) => {
    const trader = await signedInTrader(t, o);
    const again = await trader.client.post('/login.php', { email: trader.email, password: trader.password, rememberMe: true });
    assert.equal(again.body.status, 'Success');
    return trader;
  };
  const traderRow = async (id: number): Promise<Row> => {
    const r = await admin.get(TRADERS);
    assert.equal(r.status, 200);
    const row = (r.body.data as Row[]).find((u) => u.id === id);
    assert.ok(row, `user ${id} is listed`);
    return row;
  };
  const auditLog = async (limit = 500) => {
    const r = await admin.get(`${AUDIT}?limit=${limit}`);
    assert.equal(r.status, 200);
    assert.equal(r.body.status, 'success');
    return r.body.data as { id: number; actorEmail: string; actorId: number | null; action: string; targetType: string; targetId: string; before: unknown; after: unknown; timeStamp: string; ip: string }[];
  };

  before(async () => {
    t = await startApp({ config: roomyLimits });
    const { client, reply } = await signIn(ADMIN_EMAIL, ADMIN_PASSWORD);
    assert.equal(reply.body.status, 'Success');
    admin = client;
    adminId = (await admin.get(PROFILE)).body.data[0].id;
    gateway = await paymentAccount(admin, 'Admin test bank');
  });
  after(() => t.close());

  // ------------------------------------------------------------------ users table

  describe('getTraders', () => {
    test('lists every user, including the reserved administrator, in the spec shape', async () => {
      const trader = await signedInTrader(t, { firstName: 'Lena', lastName: 'Listed' });
      const r = await admin.get(TRADERS);
      assert.equal(r.status, 200);
      assert.equal(r.body.status, 'success');
      const rows = r.body.data as Row[];
      const userCount = (await t.ctx.db.selectFrom('users').select('id').execute()).length;
      assert.equal(rows.length, userCount);

      const reserved = rows.find((u) => u.id === adminId);
      assert.ok(reserved);
      assert.equal(reserved.email, ADMIN_EMAIL);
      assert.equal(reserved.isReserved, true);
      assert.equal(reserved.accountType, '1');
      assert.equal(reserved.isActive, '1');
      assert.deepEqual(rows.filter((u) => u.isReserved === true).map((u) => u.id), [adminId]);

      const us = (await new Client(t).get('/getCountries.php')).body.data.find((c: { id: number }) => c.id === US);
      const row = rows.find((u) => u.id === trader.id);
      assert.ok(row);
      assert.deepEqual(Object.keys(row).sort(), [
        'accountType', 'balance', 'countryCode', 'countryName', 'createdAt', 'email', 'firstName', 'id', 'isActive', 'isReserved', 'lastName', 'lastSeen', 'phoneNo', 'status', 'totalCredit', 'totalDeposite', 'totalWithdrawals',
      ]);
      assert.equal(row.firstName, 'Lena');
      assert.equal(row.lastName, 'Listed');
      assert.equal(row.email, trader.email);
      assert.equal(row.phoneNo, '4915112345678');
      assert.equal(row.countryName, us.countryName);
      assert.equal(row.countryCode, 'US');
      assert.equal(row.accountType, '0');
      assert.equal(row.isReserved, false);
      assert.equal(row.isActive, '1');
      assert.equal(row.balance, '0.00');
      assert.equal(row.totalDeposite, '0.00');
      assert.equal(row.totalWithdrawals, '0.00');
      assert.equal(row.totalCredit, '0.00');
      assert.equal(row.createdAt, new Date(t.clock.now()).toISOString());
    });

    test('balance, totalDeposite, totalWithdrawals and totalCredit are derived from the ledger', async () => {
      const trader = await signedInTrader(t);
      await fund(trader.client, admin, gateway, '300');
      await fund(trader.client, admin, gateway, '0.55');
      const rejected = await trader.client.post(ADD_DEPOSIT, { depositAmount: '1000', paymentAccount: '1', payment_getways_id: gateway });
      await admin.post(DECIDE_DEPOSIT, { deposites_id: rejected.body.id, status: 2 });
      const wd = await trader.client.post(ADD_WITHDRAWAL, { withdrawalsAmount: '100.25', paymentAccount: 'IBAN' });
      await admin.post(DECIDE_WITHDRAWAL, { withdrawals_id: wd.body.id, status: 1 });
      await trader.client.post(ADD_WITHDRAWAL, { withdrawalsAmount: '50', paymentAccount: 'IBAN' }); // pending: not counted
      const accountId = (await liveAccountOf(t.ctx.db, trader.id)).id;
      await t.ctx.db.transaction().execute(async (trx) => {
        await postToLedger(trx, { accountId, userId: trader.id, kind: 'credit', amountCents: 2_500, refType: 'test', refId: `credit-${trader.id}`, memo: 'bonus', at: t.clock.now() });
        await postToLedger(trx, { accountId, userId: trader.id, kind: 'adjustment', amountCents: -30, refType: 'test', refId: `adj-${trader.id}`, memo: 'fee', at: t.clock.now() });
      });

      const row = await traderRow(trader.id);
      assert.equal(row.balance, '200.00');
      assert.equal(row.totalDeposite, '300.55');
      assert.equal(row.totalWithdrawals, '100.25');
      assert.equal(row.totalCredit, '25.00');
      assert.deepEqual(await findLedgerMismatches(t.ctx.db), []);

      // The cached column is not what the table shows: the ledger is.
      const cached = await liveAccountOf(t.ctx.db, trader.id);
      await setAccount(t.ctx.db, trader.id, { balance_cents: 123_456_789 });
      try {
        assert.equal((await traderRow(trader.id)).balance, '200.00');
      } finally {
        await setAccount(t.ctx.db, trader.id, { balance_cents: cached.balanceCents });
      }
    });

    test("a trader is Online right after signing in and Offline after 6 idle minutes; any call brings them back", async () => {
      const trader = await signedInTrader(t);
      const fresh = await traderRow(trader.id);
      assert.equal(fresh.status, 'Online');
      assert.equal(fresh.lastSeen, new Date(t.clock.now()).toISOString());

      t.clock.advance(6 * 60_000);
      const idle = await traderRow(trader.id);
      assert.equal(idle.status, 'Offline');
      // The admin's own listing counts as the admin's activity.
      assert.equal((await traderRow(adminId)).status, 'Online');

      assert.equal((await trader.client.get(PROFILE)).status, 200);
      const back = await traderRow(trader.id);
      assert.equal(back.status, 'Online');
      assert.equal(back.lastSeen, new Date(t.clock.now()).toISOString());
    });

    test('without a query: every user in id order, with total, active and online counting them all', async () => {
      await signedInTrader(t);
      const r = await admin.get(TRADERS);
      const rows = r.body.data as Row[];
      assert.deepEqual(rows.map((u) => u.id), [...rows.map((u) => u.id)].sort((a, b) => a - b));
      assert.equal(r.body.total, rows.length);
      assert.equal(r.body.active, rows.filter((u) => u.isActive === '1').length);
      assert.equal(r.body.online, rows.filter((u) => u.status === 'Online').length);
    });

    test('search, role, sort and paging select the same users as the whole list does, counted before paging', async () => {
      // Last names sharing a prefix no other test uses: the search selects these five only.
      const tag = `Pagetest${Date.now() % 100_000}`;
      const made = [];
      for (const [i, first] of ['Cleo', 'ada', 'Bea', 'Dora', 'Eve'].entries()) {
        const trader = await signedInTrader(t, { firstName: first, lastName: `${tag}${i}` });
        if (i < 3) await fund(trader.client, admin, gateway, String([40, 300, 7.5][i]));
        made.push(trader);
      }
      const quiet = made[4]!;
      await admin.post(TRADER_STATUS, { id: quiet.id, isActive: '0' });
      const all = (await admin.get(TRADERS)).body.data as Row[];
      const ours = all.filter((u) => String(u.lastName).startsWith(tag));
      assert.equal(ours.length, 5);

      const byBalanceDesc = [...ours].sort((a, b) => Number(b.balance) - Number(a.balance) || a.id - b.id);
      const page = await admin.get(`${TRADERS}?search=${tag.toLowerCase()}&role=trader&sort=balance&direction=desc&limit=2&offset=1`);
      assert.equal(page.status, 200);
      assert.equal(page.body.status, 'success');
      assert.deepEqual(page.body.data.map((u: Row) => u.id), byBalanceDesc.slice(1, 3).map((u) => u.id));
      assert.deepEqual(page.body.data[0], byBalanceDesc[1], 'a page holds the same rows as the whole list');
      assert.equal(page.body.total, 5);
      assert.equal(page.body.active, 4);
      assert.equal(page.body.online, 4, 'the deactivated trader was signed out');

      // Names sort as people read them: case ignored, ties by id.
      const byName = await admin.get(`${TRADERS}?search=${tag}&sort=name&limit=500`);
      assert.deepEqual(byName.body.data.map((u: Row) => u.firstName), ['ada', 'Bea', 'Cleo', 'Dora', 'Eve']);
      const byNameDesc = await admin.get(`${TRADERS}?search=${tag}&sort=name&direction=desc&limit=2`);
      assert.deepEqual(byNameDesc.body.data.map((u: Row) => u.firstName), ['Eve', 'Dora']);
      const activeFirst = await admin.get(`${TRADERS}?search=${tag}&sort=active&direction=desc`);
      assert.equal(activeFirst.body.data[0].id, quiet.id, 'inactive sorts after active, so first when descending');

      // The search matches the start of a field: an email, not the middle of a name.
      assert.deepEqual((await admin.get(`${TRADERS}?search=${encodeURIComponent(made[1]!.email.toUpperCase())}`)).body.data.map((u: Row) => u.id), [made[1]!.id]);
      const middle = await admin.get(`${TRADERS}?search=${tag.slice(3)}`);
      assert.equal(middle.body.total, 0);
      assert.deepEqual(middle.body.data, []);
      // Past the end: no rows, the same counts.
      const past = await admin.get(`${TRADERS}?search=${tag}&offset=5&limit=10`);
      assert.deepEqual([past.body.data, past.body.total], [[], 5]);
      // Administrators only, or traders only.
      const admins = (await admin.get(`${TRADERS}?role=admin`)).body.data as Row[];
      assert.ok(admins.some((u) => u.id === adminId));
      assert.ok(admins.every((u) => u.accountType === '1'));
      assert.equal((await admin.get(`${TRADERS}?search=${tag}&role=admin`)).body.total, 0);
    });

    test('the same page read again shows a deposit and a deactivation made since', async () => {
      const tag = `Samepage${Date.now() % 100_000}`;
      const trader = await signedInTrader(t, { firstName: 'Kit', lastName: tag });
      const page = `${TRADERS}?search=${tag}&limit=10`;
      const first = await admin.get(page);
      assert.deepEqual([first.body.data[0].balance, first.body.active], ['0.00', 1]);
      assert.equal((await admin.get(page)).body.data[0].balance, '0.00');
      await fund(trader.client, admin, gateway, '12.34');
      assert.equal((await admin.get(page)).body.data[0].balance, '12.34');
      await admin.post(TRADER_STATUS, { id: trader.id, isActive: '0' });
      const after = await admin.get(page);
      assert.deepEqual([after.body.data[0].isActive, after.body.active, after.body.online], ['0', 0, 0]);
    });

    test('a user who has never signed in is Offline', async () => {
      const body = { firstName: 'Never', lastName: 'Seen', phoneNo: '4915112345678', email: `never.${Date.now()}@example.com`, password: 'violet-harbour-42', country_id: US };
      const reg = await new Client(t).post('/registration.php', body);
      assert.equal(reg.body.status, 'Success');
      const row = (await admin.get(TRADERS)).body.data.find((u: Row) => u.email === body.email);
      assert.equal(row.status, 'Offline');
      assert.equal(row.lastSeen, null);
    });
  });

  // ------------------------------------------------------------------ activate / deactivate

  describe('editStatusTraders', () => {
    test('deactivation ends the trader’s sessions at once and blocks sign-in; reactivation allows sign-in again', async () => {
      const trader = await signedInTrader(t, { firstName: 'Dana', lastName: 'Deactivated' });
      const second = await signIn(trader.email, trader.password);
      assert.equal((await trader.client.get(PROFILE)).status, 200);

      const off = await admin.postForm(TRADER_STATUS, { id: trader.id, isActive: '0' });
      assert.equal(off.status, 200);
      assert.deepEqual(off.body, { status: 'success', message: 'Dana Deactivated is now inactive.' });
      assert.equal((await traderRow(trader.id)).isActive, '0');

      for (const c of [trader.client, second.client]) {
        const r = await c.get(PROFILE);
        assert.equal(r.status, 401);
        assert.deepEqual(r.body, SIGN_IN_FIRST);
      }
      const blocked = await signIn(trader.email, trader.password);
      assert.equal(blocked.reply.status, 403);
      assert.deepEqual(blocked.reply.body, { status: 'Failure', message: 'Your account is inactive. Please contact the support team.' });
      assert.equal((await blocked.client.get(PROFILE)).status, 401);

      const on = await admin.postForm(TRADER_STATUS, { id: trader.id, isActive: '1' });
      assert.equal(on.status, 200);
      assert.deepEqual(on.body, { status: 'success', message: 'Dana Deactivated is now active.' });
      assert.equal((await traderRow(trader.id)).isActive, '1');
      // Ended sessions stay ended; a new sign-in works.
      assert.equal((await trader.client.get(PROFILE)).status, 401);
      const back = await signIn(trader.email, trader.password);
      assert.equal(back.reply.status, 200);
      assert.equal(back.reply.body.status, 'Success');
      assert.equal((await back.client.get(PROFILE)).body.data[0].id, trader.id);
    });

    test('also accepts a JSON body', async () => {
      const trader = await signedInTrader(t, { firstName: 'Jay', lastName: 'Son' });
      const off = await admin.post(TRADER_STATUS, { id: trader.id, isActive: 0 });
      assert.equal(off.status, 200);
      assert.deepEqual(off.body, { status: 'success', message: 'Jay Son is now inactive.' });
      assert.equal((await trader.client.get(PROFILE)).status, 401);
      const on = await admin.post(TRADER_STATUS, { id: String(trader.id), isActive: '1' });
      assert.equal(on.status, 200);
      assert.equal((await traderRow(trader.id)).isActive, '1');
    });

    test('the reserved administrator cannot be changed (403)', async () => {
      for (const isActive of ['0', '1']) {
        const r = await admin.postForm(TRADER_STATUS, { id: adminId, isActive });
        assert.equal(r.status, 403);
        assert.deepEqual(r.body, { status: 'Failure', message: RESERVED_MESSAGE });
      }
      assert.equal((await traderRow(adminId)).isActive, '1');
      assert.equal((await admin.get(PROFILE)).status, 200);
    });

    test('an administrator cannot deactivate themself', async () => {
      const other = await signedInTrader(t, { firstName: 'Second', lastName: 'Admin' });
      await t.ctx.db.updateTable('users').set({ role: 'admin', staff_roles: 'administrator' }).where('id', '=', other.id).execute();
      // A change made straight in the database reaches a cached session within the cache's time to
      // live; the test does not wait for it.
      t.ctx.sessionCache.dropUser(other.id);
      const self = await other.client.postForm(TRADER_STATUS, { id: other.id, isActive: '0' });
      assert.equal(self.status, 403);
      assert.deepEqual(self.body, { status: 'Failure', message: 'You cannot deactivate your own account.' });
      assert.equal((await traderRow(other.id)).isActive, '1');
      assert.equal((await other.client.get(TRADERS)).status, 200, 'still signed in');
      // Nor may a second administrator change the reserved one.
      const reserved = await other.client.postForm(TRADER_STATUS, { id: adminId, isActive: '0' });
      assert.equal(reserved.status, 403);
      assert.deepEqual(reserved.body, { status: 'Failure', message: RESERVED_MESSAGE });
      await t.ctx.db.updateTable('users').set({ role: 'trader' }).where('id', '=', other.id).execute();
      t.ctx.sessionCache.dropUser(other.id);
    });

    test('an unknown user is 404; an invalid isActive or id is 400; nothing changes', async () => {
      const trader = await signedInTrader(t);
      const missing = await admin.postForm(TRADER_STATUS, { id: 987654, isActive: '0' });
      assert.equal(missing.status, 404);
      assert.deepEqual(missing.body, { status: 'Failure', message: 'User not found.' });
      for (const isActive of ['x', '2', 'true', '']) {
        const bad = await admin.postForm(TRADER_STATUS, { id: trader.id, isActive });
        assert.equal(bad.status, 400, `isActive ${JSON.stringify(isActive)}`);
        assert.deepEqual(bad.body, { status: 'Failure', message: "isActive must be '1' or '0'." });
      }
      const noFlag = await admin.postForm(TRADER_STATUS, { id: trader.id });
      assert.equal(noFlag.status, 400);
      const badId = await admin.postForm(TRADER_STATUS, { id: 'abc', isActive: '0' });
      assert.equal(badId.status, 400);
      assert.deepEqual(badId.body, { status: 'Failure', message: 'Unknown trader.' });
      assert.equal((await traderRow(trader.id)).isActive, '1');
      assert.equal((await trader.client.get(PROFILE)).status, 200);
    });
  });

  // ------------------------------------------------------------------ password reset

  describe('editTraderPassword', () => {
    test('sets a new password: the old one stops working, the new one works, and the trader’s sessions end', async () => {
      const trader = await signedInTrader(t, { firstName: 'Petra', lastName: 'Passwort' });
      const r = await admin.postForm(TRADER_PASSWORD, { trader_id: trader.id, newPassword: 'amber-lantern-977' });
      assert.equal(r.status, 200);
      assert.deepEqual(r.body, { status: 'success', message: 'Petra Passwort password changed successfully' });

      const stale = await trader.client.get(PROFILE);
      assert.equal(stale.status, 401);
      assert.deepEqual(stale.body, SIGN_IN_FIRST);
      const old = await signIn(trader.email, trader.password);
      assert.equal(old.reply.status, 401);
      assert.deepEqual(old.reply.body, { status: 'Failure', message: 'Incorrect email or password. Please try again.' });
      const fresh = await signIn(trader.email, 'amber-lantern-977');
      assert.equal(fresh.reply.status, 200);
      assert.equal(fresh.reply.body.status, 'Success');
      assert.equal((await fresh.client.get(PROFILE)).status, 200);
      // The admin's own session is untouched.
      assert.equal((await admin.get(TRADERS)).status, 200);
    });

    test('a weak or missing password is refused and the old password keeps working', async () => {
      const trader = await signedInTrader(t);
      const cases: [string | undefined, string][] = [
        ['short', 'Password must be at least 8 characters.'],
        ['password', 'This password is too common. Please choose a less predictable one.'],
        ['aaaaaaaaaa', 'This password is too easy to guess. Please choose a less predictable one.'],
        [trader.email, 'Your password must not be the same as your email address.'],
        ['', 'Please enter a new password.'],
        [undefined, 'Please enter a new password.'],
      ];
      for (const [newPassword, message] of cases) {
        const r = await admin.postForm(TRADER_PASSWORD, newPassword === undefined ? { trader_id: trader.id } : { trader_id: trader.id, newPassword });
        assert.equal(r.status, 400, `password ${JSON.stringify(newPassword)}`);
        assert.deepEqual(r.body, { status: 'Failure', message });
      }
      assert.equal((await trader.client.get(PROFILE)).status, 200, 'sessions survive a refused reset');
      const still = await signIn(trader.email, trader.password);
      assert.equal(still.reply.body.status, 'Success');
    });

    test('the reserved administrator’s password cannot be changed here; an unknown user is 404', async () => {
      const reserved = await admin.postForm(TRADER_PASSWORD, { trader_id: adminId, newPassword: 'amber-lantern-977' });
      assert.equal(reserved.status, 403);
      assert.deepEqual(reserved.body, { status: 'Failure', message: RESERVED_MESSAGE });
      const stillAdmin = await signIn(ADMIN_EMAIL, ADMIN_PASSWORD);
      assert.equal(stillAdmin.reply.body.status, 'Success');
      assert.equal((await admin.get(TRADERS)).status, 200);

      const missing = await admin.postForm(TRADER_PASSWORD, { trader_id: 987654, newPassword: 'amber-lantern-977' });
      assert.equal(missing.status, 404);
      assert.deepEqual(missing.body, { status: 'Failure', message: 'User not found.' });
    });
  });

  // ------------------------------------------------------------------ audit log

  describe('getAuditLog', () => {
    test('each admin action appears with the actor, action and before/after, newest first', async () => {
      const trader = await signedInTrader(t, { firstName: 'Audrey', lastName: 'Audited' });
      const startId = Math.max(0, ...(await auditLog()).map((e) => e.id));

      const bank = await paymentAccount(admin, 'Audit Bank');
      await admin.postForm(GATEWAY_STATUS, { id: bank, isActive: '0' });
      const dep = await trader.client.post(ADD_DEPOSIT, { depositAmount: '40', paymentAccount: '1', payment_getways_id: gateway });
      await admin.post(DECIDE_DEPOSIT, { deposites_id: dep.body.id, status: 1 });
      const dep2 = await trader.client.post(ADD_DEPOSIT, { depositAmount: '5', paymentAccount: '1', payment_getways_id: gateway });
      await admin.post(DECIDE_DEPOSIT, { deposites_id: dep2.body.id, status: 2 });
      const wd = await trader.client.post(ADD_WITHDRAWAL, { withdrawalsAmount: '15', paymentAccount: 'IBAN' });
      await admin.post(DECIDE_WITHDRAWAL, { withdrawals_id: wd.body.id, status: 1 });
      await admin.postForm(TRADER_STATUS, { id: trader.id, isActive: '0' });
      await admin.postForm(TRADER_STATUS, { id: trader.id, isActive: '1' });
      const newPassword = 'quiet-meadow-5521';
      await admin.postForm(TRADER_PASSWORD, { trader_id: trader.id, newPassword });
      // Refused actions are not recorded.
      await admin.postForm(TRADER_STATUS, { id: adminId, isActive: '0' });
      await admin.post(DECIDE_DEPOSIT, { deposites_id: dep.body.id, status: 2 });

      const entries = (await auditLog()).filter((e) => e.id > startId);
      const ids = entries.map((e) => e.id);
      assert.deepEqual(ids, [...ids].sort((a, b) => b - a), 'newest first');
      const summary = entries
        .slice()
        .reverse()
        .map((e) => ({ actorEmail: e.actorEmail, actorId: e.actorId, action: e.action, targetType: e.targetType, targetId: e.targetId, before: e.before, after: e.after }));
      const by = { actorEmail: ADMIN_EMAIL, actorId: adminId };
      assert.deepEqual(summary, [
        { ...by, action: 'payment_account.add', targetType: 'payment_account', targetId: String(bank), before: null, after: { name: 'Audit Bank', number: 'GB29NWBK60161331926819', moreInfo: 'Reference: your email', isActive: '1' } },
        { ...by, action: 'payment_account.status', targetType: 'payment_account', targetId: String(bank), before: { isActive: '1' }, after: { isActive: '0' } },
        { ...by, action: 'deposit.approve', targetType: 'money_request', targetId: String(dep.body.id), before: { status: '0' }, after: { status: '1', traderBalance: '40.00' } },
        { ...by, action: 'deposit.reject', targetType: 'money_request', targetId: String(dep2.body.id), before: { status: '0' }, after: { status: '2' } },
        { ...by, action: 'withdrawal.approve', targetType: 'money_request', targetId: String(wd.body.id), before: { status: '0' }, after: { status: '1', traderBalance: '25.00' } },
        { ...by, action: 'user.status', targetType: 'user', targetId: String(trader.id), before: { isActive: '1' }, after: { isActive: '0' } },
        { ...by, action: 'user.status', targetType: 'user', targetId: String(trader.id), before: { isActive: '0' }, after: { isActive: '1' } },
        // The deactivation above already ended the session signedInTrader opened.
        { ...by, action: 'user.password', targetType: 'user', targetId: String(trader.id), before: null, after: { passwordChanged: true, sessionsEnded: 0 } },
      ]);
      for (const e of entries) {
        assert.equal(e.timeStamp, new Date(t.clock.now()).toISOString());
        assert.equal(typeof e.ip, 'string');
      }
    });

    test('the password change audit never contains the password or its hash', async () => {
      const trader = await signedInTrader(t);
      const newPassword = 'secret-orchid-8813';
      const r = await admin.postForm(TRADER_PASSWORD, { trader_id: trader.id, newPassword });
      assert.equal(r.status, 200);
      const entries = await auditLog();
      const entry = entries.find((e) => e.action === 'user.password' && e.targetId === String(trader.id));
      assert.ok(entry);
      assert.deepEqual(entry.after, { passwordChanged: true, sessionsEnded: 1 });
      const served = JSON.stringify(entries);
      assert.ok(!served.includes(newPassword));
      assert.ok(!served.includes('scrypt$'));
      const stored = await t.ctx.db.selectFrom('audit_log').selectAll().execute();
      const storedText = JSON.stringify(stored);
      assert.ok(!storedText.includes(newPassword));
      assert.ok(!storedText.includes('scrypt$'));
    });

    test('limit and before page through the log', async () => {
      const all = await auditLog();
      assert.ok(all.length >= 3);
      const page1 = (await admin.get(`${AUDIT}?limit=2`)).body.data as Row[];
      assert.deepEqual(page1.map((e) => e.id), all.slice(0, 2).map((e) => e.id));
      const page2 = (await admin.get(`${AUDIT}?limit=2&before=${page1[1]!.id}`)).body.data as Row[];
      assert.deepEqual(page2.map((e) => e.id), all.slice(2, 4).map((e) => e.id));
      const bad = await admin.get(`${AUDIT}?limit=0`);
      assert.equal(bad.status, 400);
      assert.equal(bad.body.status, 'Failure');
    });
  });

  // ------------------------------------------------------------------ money request search

  describe('getMoneyRequests', () => {
    const day = (d: string) => Date.parse(`${d}T09:30:00Z`);
    const tag = `Zq${process.pid.toString(36)}x`;
    let a: Awaited<ReturnType<typeof persistentTrader>>;
    let b: Awaited<ReturnType<typeof persistentTrader>>;
    const ids = { a1: 0, b1: 0, a2: 0, a3: 0 };
    const query = async (params: Record<string, string | number>) => {
      const qs = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]));
      return admin.get(`${MONEY_REQUESTS}?${qs}`);
    };
    const idsOf = (r: { body: { data: Row[] } }) => r.body.data.map((x) => x.id);

    before(async () => {
      // Day 1: two deposits. Day 2: A's deposit approved, A withdraws, B's deposit rejected.
      // Day 3: another deposit by A, still pending.
      t.clock.set(day('2026-03-11'));
      a = await persistentTrader({ firstName: 'Filter', lastName: `Alpha${tag}` });
      b = await persistentTrader({ firstName: 'Filter', lastName: `Beta${tag}` });
      ids.a1 = (await a.client.post(ADD_DEPOSIT, { depositAmount: '10', paymentAccount: 'ACC-A1', payment_getways_id: gateway })).body.id;
      ids.b1 = (await b.client.post(ADD_DEPOSIT, { depositAmount: '20', paymentAccount: 'ACC-B1', payment_getways_id: gateway })).body.id;
      t.clock.set(day('2026-03-12'));
      assert.equal((await admin.post(DECIDE_DEPOSIT, { deposites_id: ids.a1, status: 1 })).status, 200);
      ids.a2 = (await a.client.post(ADD_WITHDRAWAL, { withdrawalsAmount: '5', paymentAccount: 'ACC-A2' })).body.id;
      assert.equal((await admin.post(DECIDE_DEPOSIT, { deposites_id: ids.b1, status: 2 })).status, 200);
      t.clock.set(day('2026-03-13'));
      ids.a3 = (await a.client.post(ADD_DEPOSIT, { depositAmount: '30', paymentAccount: 'ACC-A3', payment_getways_id: gateway })).body.id;
      for (const id of Object.values(ids)) assert.ok(Number.isInteger(id) && id > 0);
    });

    test('returns every request, newest first, in the admin row shape with a total', async () => {
      const r = await query({ search: tag });
      assert.equal(r.status, 200);
      assert.equal(r.body.status, 'success');
      assert.equal(r.body.total, 4);
      assert.deepEqual(idsOf(r), [ids.a3, ids.a2, ids.b1, ids.a1]);
      const [a3, a2, b1, a1] = r.body.data;
      const { number: accountNumber } = await liveAccountOf(t.ctx.db, a.id);
      assert.deepEqual(a1, {
        id: ids.a1, type: 'deposit', traders_id: a.id, firstName: 'Filter', lastName: `Alpha${tag}`, email: a.email, accountNumber, amount: '10.00', paymentAccount: 'ACC-A1',
        paymentGatewayName: 'Admin test bank', number: 'GB29NWBK60161331926819', status: '1', timeStamp: '2026-03-11T09:30:00.000Z', decidedAt: '2026-03-12T09:30:00.000Z', decidedBy: ADMIN_EMAIL, rejectReason: null, notes: 0,
      });
      assert.deepEqual(a2, {
        id: ids.a2, type: 'withdrawal', traders_id: a.id, firstName: 'Filter', lastName: `Alpha${tag}`, email: a.email, accountNumber, amount: '5.00', paymentAccount: 'ACC-A2',
        paymentGatewayName: '', number: '', status: '0', timeStamp: '2026-03-12T09:30:00.000Z', decidedAt: null, decidedBy: '', rejectReason: null, notes: 0,
      });
      assert.equal(b1.status, '2');
      assert.equal(b1.decidedBy, ADMIN_EMAIL);
      assert.equal(a3.status, '0');
    });

    test('filters by type', async () => {
      const deposits = await query({ search: tag, type: 'deposit' });
      assert.deepEqual(idsOf(deposits), [ids.a3, ids.b1, ids.a1]);
      assert.equal(deposits.body.total, 3);
      const withdrawals = await query({ search: tag, type: 'withdrawal' });
      assert.deepEqual(idsOf(withdrawals), [ids.a2]);
      assert.equal(withdrawals.body.total, 1);
    });

    test('filters by status', async () => {
      assert.deepEqual(idsOf(await query({ search: tag, status: '0' })), [ids.a3, ids.a2]);
      assert.deepEqual(idsOf(await query({ search: tag, status: '1' })), [ids.a1]);
      assert.deepEqual(idsOf(await query({ search: tag, status: '2' })), [ids.b1]);
      const all = await admin.get(`${MONEY_REQUESTS}?status=0&limit=500`);
      assert.ok((all.body.data as Row[]).every((x) => x.status === '0'));
    });

    test('filters by trader id', async () => {
      const onlyB = await query({ traderId: b.id });
      assert.deepEqual(idsOf(onlyB), [ids.b1]);
      assert.equal(onlyB.body.total, 1);
      const onlyA = await query({ traderId: a.id, type: 'deposit' });
      assert.deepEqual(idsOf(onlyA), [ids.a3, ids.a1]);
      const nobody = await query({ traderId: 987654 });
      assert.deepEqual(nobody.body, { status: 'success', total: 0, data: [] });
    });

    test('search matches first name, last name, full name or email, anywhere and ignoring case', async () => {
      assert.deepEqual(idsOf(await query({ search: `beta${tag.toLowerCase()}` })), [ids.b1]);
      assert.deepEqual(idsOf(await query({ search: `ALPHA${tag.toUpperCase()}` })), [ids.a3, ids.a2, ids.a1]);
      assert.deepEqual(idsOf(await query({ search: `lter Beta${tag}` })), [ids.b1], 'contains, across first and last name');
      const emailPart = b.email.slice(3, 20).toUpperCase();
      assert.deepEqual(idsOf(await query({ search: emailPart, traderId: b.id })), [ids.b1]);
      assert.ok(idsOf(await query({ search: b.email })).includes(ids.b1));
      assert.deepEqual(idsOf(await query({ search: `${tag}-nobody` })), []);
    });

    test('search takes % and _ literally: an email containing them is found by its exact text', async () => {
      const email = `ursula_${process.pid}_${Date.now().toString(36)}@example.com`;
      const u = await signedInTrader(t, { firstName: 'Ursula', lastName: 'Underscore', email });
      const dep = await u.client.post(ADD_DEPOSIT, { depositAmount: '1', paymentAccount: 'ACC-U', payment_getways_id: gateway });
      assert.equal(dep.status, 200);
      try {
        const exact = await query({ search: email });
        assert.deepEqual(idsOf(exact), [dep.body.id], 'the full email, underscore included, finds the request');
        assert.deepEqual(idsOf(await query({ search: 'a_b_c_d_e_f', traderId: u.id })), [], 'an underscore is not a one-character wildcard');
        assert.deepEqual(idsOf(await query({ search: '100%', traderId: u.id })), [], 'a percent sign is not a wildcard');
      } finally {
        await admin.post(DECIDE_DEPOSIT, { deposites_id: dep.body.id, status: 2 });
      }
    });

    test('from and to select whole days, inclusive', async () => {
      assert.deepEqual(idsOf(await query({ search: tag, from: '2026-03-12', to: '2026-03-12' })), [ids.a2]);
      assert.deepEqual(idsOf(await query({ search: tag, from: '2026-03-12' })), [ids.a3, ids.a2]);
      assert.deepEqual(idsOf(await query({ search: tag, to: '2026-03-11' })), [ids.b1, ids.a1]);
      assert.deepEqual(idsOf(await query({ search: tag, from: '2026-03-11', to: '2026-03-13' })), [ids.a3, ids.a2, ids.b1, ids.a1]);
      assert.deepEqual(idsOf(await query({ search: tag, from: '2026-03-14' })), []);
      assert.deepEqual(idsOf(await query({ search: tag, from: '2026-03-13', to: '2026-03-11' })), []);
    });

    test('filters combine', async () => {
      const r = await query({ search: tag, type: 'deposit', status: '0', traderId: a.id, from: '2026-03-13', to: '2026-03-13' });
      assert.deepEqual(idsOf(r), [ids.a3]);
      assert.equal(r.body.total, 1);
    });

    test('limit and offset page through the results; total counts them all', async () => {
      const p1 = await query({ search: tag, limit: 2, offset: 0 });
      const p2 = await query({ search: tag, limit: 2, offset: 2 });
      const p3 = await query({ search: tag, limit: 2, offset: 4 });
      assert.deepEqual(idsOf(p1), [ids.a3, ids.a2]);
      assert.deepEqual(idsOf(p2), [ids.b1, ids.a1]);
      assert.deepEqual(idsOf(p3), []);
      for (const p of [p1, p2, p3]) assert.equal(p.body.total, 4);
    });

    test('invalid filters are refused with 400', async () => {
      const cases: [Record<string, string | number>, string | null][] = [
        [{ type: 'credit' }, "type must be 'deposit' or 'withdrawal'."],
        [{ status: '4' }, null],
        [{ traderId: 'abc' }, 'traderId must be an id.'],
        [{ from: '2026-13-01' }, 'from must be a date (YYYY-MM-DD).'],
        [{ to: 'yesterday' }, 'to must be a date (YYYY-MM-DD).'],
        [{ limit: 0 }, null],
        [{ limit: 501 }, null],
        [{ offset: -1 }, null],
        [{ limit: 'many' }, 'limit must be a number.'],
      ];
      for (const [params, message] of cases) {
        const r = await query(params);
        assert.equal(r.status, 400, JSON.stringify(params));
        assert.equal(r.body.status, 'Failure');
        if (message) assert.equal(r.body.message, message, JSON.stringify(params));
      }
    });
  });

  // ------------------------------------------------------------------ access

  describe('access', () => {
    const adminCalls = Object.values(calls as Record<string, CallDefinition>).filter((c) => c.access === 'staff');

    test('the admin calls are the ones the contract marks admin', () => {
      assert.deepEqual(adminCalls.map((c) => c.path).sort(), [
        '/dashboard/admin/addBalanceOperation.php',
        '/dashboard/admin/addMoneyRequestNote.php',
        '/dashboard/admin/addNewPayments.php',
        '/dashboard/admin/addStaffMember.php',
        '/dashboard/admin/cancelTraderOrder.php',
        '/dashboard/admin/downloadAccountStatement.php',
        '/dashboard/admin/editPayments.php',
        '/dashboard/admin/editStaffMember.php',
        '/dashboard/admin/editStatusDeposite.php',
        '/dashboard/admin/editStatusPayments.php',
        '/dashboard/admin/editStatusTraders.php',
        '/dashboard/admin/editStatusTrades.php',
        '/dashboard/admin/editStatusWithdrawal.php',
        '/dashboard/admin/editTraderPassword.php',
        '/dashboard/admin/exportAuditLog.php',
        '/dashboard/admin/exportBrokerReport.php',
        '/dashboard/admin/exportClosedTrades.php',
        '/dashboard/admin/exportMoneyRequests.php',
        '/dashboard/admin/getAccountTypes.php',
        '/dashboard/admin/getAuditLog.php',
        '/dashboard/admin/getBalanceOperations.php',
        '/dashboard/admin/getBrokerReport.php',
        '/dashboard/admin/getCatalogue.php',
        '/dashboard/admin/getClosedTrades.php',
        '/dashboard/admin/getExposure.php',
        '/dashboard/admin/getMoneyRequestNotes.php',
        '/dashboard/admin/getMoneyRequests.php',
        '/dashboard/admin/getOpenTrades.php',
        '/dashboard/admin/getPaymentGetways.php',
        '/dashboard/admin/getPendingDeposite.php',
        '/dashboard/admin/getPendingWithdrawal.php',
        '/dashboard/admin/getStaff.php',
        '/dashboard/admin/getTraderAccounts.php',
        '/dashboard/admin/getTraderDetails.php',
        '/dashboard/admin/getTraderSignIns.php',
        '/dashboard/admin/getTraders.php',
        '/dashboard/admin/getWithdrawalRisk.php',
        '/dashboard/admin/modifyTraderOrder.php',
        '/dashboard/admin/resetDemoAccount.php',
        '/dashboard/admin/resetStaffTwoFactor.php',
        '/dashboard/admin/resetTraderTwoFactor.php',
        '/dashboard/admin/saveAccountType.php',
        '/dashboard/admin/saveInstrument.php',
        '/dashboard/admin/setAccountState.php',
        '/dashboard/admin/setAccountType.php',
      ]);
    });

    /** A body each call would accept from an admin, so only the caller's role can be the reason for a refusal. */
    const bodyFor = (traderId: number, ticket = 1) => ({ id: traderId, isActive: '0', trader_id: traderId, newPassword: 'amber-lantern-977', deposites_id: 1, withdrawals_id: 1, status: 1, name: 'Sneaky', number: '1', moreInfo: '', traders_id: traderId, ticket });

    test('every admin call refuses an anonymous caller with 401 and changes nothing', async () => {
      const victim = await signedInTrader(t);
      const anon = new Client(t);
      const auditBefore = (await auditLog()).length;
      for (const call of adminCalls) {
        const r = call.method === 'GET' ? await anon.get(call.path) : await anon.post(call.path, bodyFor(victim.id));
        assert.equal(r.status, 401, call.path);
        assert.deepEqual(r.body, SIGN_IN_FIRST, call.path);
        if (call.encoding === 'multipart') {
          const form = await anon.postForm(call.path, bodyFor(victim.id));
          assert.equal(form.status, 401, `${call.path} (multipart)`);
        }
      }
      assert.equal((await auditLog()).length, auditBefore);
      assert.equal((await victim.client.get(PROFILE)).status, 200);
    });

    test('every admin call refuses a trader with 403 and changes nothing', async () => {
      const trader = await signedInTrader(t);
      const victim = await signedInTrader(t);
      // The victim holds an open position, so a trader's editStatusTrades has something to close.
      await fund(victim.client, admin, gateway, '100.00');
      const pushed = await fetch(`${t.url}${calls.feedTicks.path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${FEED_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ticks: [{ symbol: 'EURUSD', bid: 1.1, ask: 1.1002 }] }),
      });
      assert.equal(pushed.status, 200);
      const opened = await victim.client.post(calls.addTrades.path, { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 0.01 });
      assert.equal(opened.status, 200, JSON.stringify(opened.body));
      const ticket = opened.body.ticket as number;
      const auditBefore = (await auditLog()).length;
      for (const call of adminCalls) {
        const r = call.method === 'GET' ? await trader.client.get(call.path) : await trader.client.post(call.path, bodyFor(victim.id, ticket));
        assert.equal(r.status, 403, call.path);
        assert.deepEqual(r.body, { status: 'Failure', message: 'This action is for back-office staff only.' }, call.path);
        if (call.encoding === 'multipart') {
          const form = await trader.client.postForm(call.path, bodyFor(victim.id));
          assert.equal(form.status, 403, `${call.path} (multipart)`);
        }
      }
      assert.equal((await auditLog()).length, auditBefore);
      assert.equal((await victim.client.get(PROFILE)).status, 200, 'the victim was not deactivated nor reset');
      const open = await victim.client.get(calls.getTrades.path);
      assert.deepEqual(open.body.data.map((p: { ticket: number }) => p.ticket), [ticket], "the victim's position is still open");
      assert.equal((await trader.client.get(PROFILE)).status, 200);
    });
  });
});
