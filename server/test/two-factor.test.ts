import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { BACKUP_CODE_PATTERN, SIGN_IN_CHALLENGE_ATTEMPTS, TWO_FACTOR_MESSAGES } from '@tradeport/contracts';
import { codeAt } from '../src/services/two-factor';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startApp, type TestApp } from './helpers/app';
import { Client, signedInAdmin, signedInStaff, signedInTrader, type SignedInTrader } from './helpers/client';

/**
 * Two-factor sign-in (docs/architecture.md#two-factor-sign-in): enrolment with a QR code and a
 * confirming code, a second step at sign-in with no session until it passes, codes and backup
 * codes each accepted once, turning it off, and the back office's resets; staff must use it.
 */

const START = '/startTwoFactorSetup.php';
const CONFIRM = '/confirmTwoFactorSetup.php';
const VERIFY = '/verifySignIn.php';
const STATUS = '/dashboard/customer/getTwoFactor.php';
const NEW_CODES = '/dashboard/customer/newBackupCodes.php';
const DISABLE = '/dashboard/customer/disableTwoFactor.php';
const RESET_TRADER = '/dashboard/admin/resetTraderTwoFactor.php';
const RESET_STAFF = '/dashboard/admin/resetStaffTwoFactor.php';
const STEP_MS = 30_000;

const signedIn = async (c: Client) => (await c.get('/testSession.php')).body.status === 'success';
const hasSessionCookie = (c: Client) => /tp_session=/.test(c.cookieHeader);

/** Sets up a second factor for a signed-in client (or one in an enrolment step); returns its secret and backup codes. */
async function enrol(t: TestApp, c: Client): Promise<{ secret: string; backupCodes: string[]; body: Record<string, unknown> }> {
  const setup = await c.post(START);
  assert.equal(setup.status, 200, JSON.stringify(setup.body));
  const secret = (setup.body.secret as string).replace(/ /g, '');
  const done = await c.post(CONFIRM, { code: codeAt(t.ctx, secret, t.clock.now()) });
  assert.equal(done.status, 200, JSON.stringify(done.body));
  return { secret, backupCodes: done.body.backupCodes as string[], body: done.body };
}

describe('two-factor sign-in (traders; staff optional)', () => {
  let t: TestApp;
  let admin: Client;

  before(async () => {
    t = await startApp({ config: { signinRateLimitPerMinute: 100_000, passwordChangeRateLimitPerHour: 100_000 } });
    admin = await signedInAdmin(t);
  });
  after(() => t.close());

  /** A fresh password sign-in of the trader, stopped at its second step. */
  async function passwordStep(trader: SignedInTrader, rememberMe = false): Promise<Client> {
    const c = new Client(t);
    const r = await c.post('/login.php', { email: trader.email, password: trader.password, rememberMe });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { status: 'TwoFactor', step: 'verify', message: TWO_FACTOR_MESSAGES.verify });
    assert.ok(!hasSessionCookie(c), 'no session before the second step');
    assert.equal(await signedIn(c), false);
    return c;
  }

  test('enrolment from My Settings: QR code, manual key and link; a wrong code confirms nothing; the right one turns it on with ten hashed backup codes, mailed and recorded', async () => {
    const trader = await signedInTrader(t);
    assert.deepEqual((await trader.client.get(STATUS)).body, { status: 'success', enabled: false, enabledAt: null, backupCodesLeft: 0, required: false });
    const setup = await trader.client.post(START);
    assert.equal(setup.status, 200);
    assert.match(setup.body.secret, /^[A-Z2-7]{4}( [A-Z2-7]{4})+$/, 'the key in groups of four');
    const secret = setup.body.secret.replace(/ /g, '');
    assert.equal(secret.length, 32, '160 bits');
    const uri = new URL(setup.body.uri);
    assert.equal(uri.protocol, 'otpauth:');
    assert.equal(uri.searchParams.get('secret'), secret);
    assert.equal(uri.searchParams.get('issuer'), t.config.brokerName);
    assert.equal(setup.body.account, trader.email);
    assert.ok(setup.body.qr.size >= 21 && /^(M\d+ \d+h1v1h-1z)+$/.test(setup.body.qr.path), 'a QR code of dark modules');

    // Not on until confirmed: the secret waits, sign-in still needs only the password.
    assert.equal((await trader.client.get(STATUS)).body.enabled, false);
    const wrong = await trader.client.post(CONFIRM, { code: codeAt(t.ctx, secret, t.clock.now() - 10 * STEP_MS) });
    assert.deepEqual([wrong.status, wrong.body], [400, { status: 'Failure', message: TWO_FACTOR_MESSAGES.wrongCode }]);
    const bad = await trader.client.post(CONFIRM, { code: 'abc' });
    assert.equal(bad.status, 400);
    assert.equal((await trader.client.get(STATUS)).body.enabled, false);

    const done = await trader.client.post(CONFIRM, { code: codeAt(t.ctx, secret, t.clock.now()) });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(done.body.accountType, undefined, 'no sign-in finished here');
    const codes = done.body.backupCodes as string[];
    assert.equal(codes.length, 10);
    assert.equal(new Set(codes).size, 10);
    for (const code of codes) assert.match(code, BACKUP_CODE_PATTERN);
    const status = (await trader.client.get(STATUS)).body;
    assert.deepEqual([status.enabled, status.backupCodesLeft, status.required], [true, 10, false]);
    assert.equal(status.enabledAt, new Date(t.clock.now()).toISOString());

    const stored = await t.ctx.db.selectFrom('backup_codes').select(['code_hash']).where('user_id', '=', trader.id).execute();
    assert.equal(stored.length, 10);
    for (const row of stored) {
      assert.match(row.code_hash, /^scrypt\$\d+\$8\$1\$[\w-]+\$[\w-]+$/, 'kept only as scrypt hashes, as passwords are');
      for (const code of codes) assert.ok(!row.code_hash.includes(code.replace('-', '')));
    }
    const user = await t.ctx.db.selectFrom('users').select(['totp_secret', 'totp_pending_secret']).where('id', '=', trader.id).executeTakeFirstOrThrow();
    assert.deepEqual(user, { totp_secret: secret, totp_pending_secret: null });
    const mail = (await t.outbox()).find((m) => m.to === trader.email && m.subject === 'Two-factor sign-in is on');
    assert.ok(mail, 'the person is told');
    const activity = (await trader.client.get('/dashboard/customer/getActivity.php')).body.data as { activity: string }[];
    assert.equal(activity[0]!.activity, 'Two-factor sign-in turned on');
    // Once on, setting up again is refused.
    assert.equal((await trader.client.post(START)).status, 409);
  });

  test('a sign-in with two-factor: no session after the password; a wrong code gives none; the right code does, once', async () => {
    const trader = await signedInTrader(t);
    const { secret } = await enrol(t, trader.client);
    t.clock.advance(STEP_MS);

    const c = await passwordStep(trader, true);
    // Signed-in calls still refuse the step.
    assert.equal((await c.get('/dashboard/customer/getProfileDetails.php')).status, 401);
    const wrong = await c.post(VERIFY, { code: codeAt(t.ctx, secret, t.clock.now() - 5 * STEP_MS) });
    assert.deepEqual([wrong.status, wrong.body.message], [400, TWO_FACTOR_MESSAGES.wrongCode]);
    assert.ok(!hasSessionCookie(c));
    const code = codeAt(t.ctx, secret, t.clock.now());
    const ok = await c.post(VERIFY, { code: code.slice(0, 3) + ' ' + code.slice(3) });
    assert.deepEqual(ok.body, { status: 'Success', accountType: '0', message: 'SignIn successful!' });
    assert.ok(await signedIn(c));
    assert.match(ok.headers.get('set-cookie') ?? '', /tp_session=[^;]+;.*Max-Age=2592000/i, 'remember me carried through the step');

    // The same code in another sign-in a moment later: used already.
    const again = await passwordStep(trader);
    assert.equal((await again.post(VERIFY, { code })).status, 400);
    // The next step's code works.
    t.clock.advance(STEP_MS);
    assert.equal((await again.post(VERIFY, { code: codeAt(t.ctx, secret, t.clock.now()) })).body.status, 'Success');
    const activity = (await again.get('/dashboard/customer/getActivity.php')).body.data as { activity: string; details: string }[];
    assert.deepEqual(activity.slice(0, 2).map((a) => [a.activity, a.details]), [
      ['Signed in', 'Signed in with an authenticator code'],
      ['Failed sign-in attempt', 'Wrong two-factor code'],
    ]);
  });

  test('the same right code sent twice at once signs in once', async () => {
    const trader = await signedInTrader(t);
    const { secret } = await enrol(t, trader.client);
    t.clock.advance(STEP_MS);
    const c = await passwordStep(trader);
    const twin = new Client(t);
    twin.setCookie('tp_signin', /tp_signin=([^;]+)/.exec(c.cookieHeader)![1]!);
    const code = codeAt(t.ctx, secret, t.clock.now());
    const answers = await Promise.all([c.post(VERIFY, { code }), twin.post(VERIFY, { code })]);
    assert.deepEqual(answers.map((a) => a.body.status).sort(), ['Failure', 'Success']);
    const sessions = await t.ctx.db.selectFrom('sessions').select('id_hash').where('user_id', '=', trader.id).where('revoked_at', 'is', null).execute();
    assert.equal(sessions.length, 2, 'the sign-up session and one new one');
  });

  test('backup codes: each signs in once, typed in capitals or without the dash; the count goes down; new codes replace the old', async () => {
    const trader = await signedInTrader(t);
    const { secret, backupCodes } = await enrol(t, trader.client);
    const first = backupCodes[0]!;
    const c = await passwordStep(trader);
    assert.equal((await c.post(VERIFY, { code: first.toUpperCase().replace('-', ' ') })).body.status, 'Success');
    assert.equal((await c.get(STATUS)).body.backupCodesLeft, 9);
    const d = await passwordStep(trader);
    assert.equal((await d.post(VERIFY, { code: first })).status, 400, 'a used backup code');
    assert.equal((await d.post(VERIFY, { code: backupCodes[1]!.replace('-', '') })).body.status, 'Success');

    // New codes need a code from the app (a backup code does not do), and the old ones stop working.
    assert.equal((await d.post(NEW_CODES, { code: backupCodes[2] })).status, 400);
    t.clock.advance(STEP_MS);
    const renewed = await d.post(NEW_CODES, { code: codeAt(t.ctx, secret, t.clock.now()) });
    assert.equal(renewed.status, 200, JSON.stringify(renewed.body));
    assert.equal(renewed.body.backupCodes.length, 10);
    assert.equal((await d.get(STATUS)).body.backupCodesLeft, 10);
    const e = await passwordStep(trader);
    assert.equal((await e.post(VERIFY, { code: backupCodes[3] })).status, 400, 'an old code no longer works');
    assert.equal((await e.post(VERIFY, { code: renewed.body.backupCodes[0] })).body.status, 'Success');
    assert.ok((await t.outbox()).some((m) => m.to === trader.email && m.subject === 'New backup codes'), 'the person is told');
  });

  test(`a step takes ${SIGN_IN_CHALLENGE_ATTEMPTS} codes and five minutes at most; without its cookie there is no step`, async () => {
    const trader = await signedInTrader(t);
    const { secret } = await enrol(t, trader.client);
    t.clock.advance(STEP_MS);
    const c = await passwordStep(trader);
    for (let i = 0; i < SIGN_IN_CHALLENGE_ATTEMPTS; i++) assert.equal((await c.post(VERIFY, { code: '000000' })).status, 400);
    const late = await c.post(VERIFY, { code: codeAt(t.ctx, secret, t.clock.now()) });
    assert.deepEqual([late.status, late.body.message], [401, TWO_FACTOR_MESSAGES.expired]);

    const d = await passwordStep(trader);
    t.clock.advance(5 * 60_000);
    assert.deepEqual((await d.post(VERIFY, { code: codeAt(t.ctx, secret, t.clock.now()) })).body, { status: 'Failure', message: TWO_FACTOR_MESSAGES.expired });
    assert.equal((await new Client(t).post(VERIFY, { code: '123456' })).status, 401);
    // A password change meanwhile ends the step.
    const e = await passwordStep(trader);
    const changed = await admin.postForm('/dashboard/admin/editTraderPassword.php', { trader_id: trader.id, newPassword: 'amber-lighthouse-97' });
    assert.equal(changed.status, 200);
    t.clock.advance(STEP_MS);
    assert.equal((await e.post(VERIFY, { code: codeAt(t.ctx, secret, t.clock.now()) })).status, 401);
    // A verify step is not an enrolment step.
    const f = new Client(t);
    assert.equal((await f.post('/login.php', { email: trader.email, password: 'amber-lighthouse-97' })).body.step, 'verify');
    assert.equal((await f.post(START)).status, 401);
  });

  test('turning it off takes the password and a code; then the password alone signs in', async () => {
    const trader = await signedInTrader(t);
    const { secret, backupCodes } = await enrol(t, trader.client);
    assert.equal((await trader.client.post(DISABLE, { password: 'wrong-password-1', code: backupCodes[0] })).status, 400);
    assert.equal((await trader.client.post(DISABLE, { password: trader.password, code: '000000' })).status, 400);
    assert.equal((await trader.client.get(STATUS)).body.enabled, true);
    t.clock.advance(STEP_MS);
    const off = await trader.client.post(DISABLE, { password: trader.password, code: codeAt(t.ctx, secret, t.clock.now()) });
    assert.deepEqual(off.body, { status: 'success', message: 'Two-factor sign-in is off.' });
    assert.deepEqual((await trader.client.get(STATUS)).body, { status: 'success', enabled: false, enabledAt: null, backupCodesLeft: 0, required: false });
    assert.equal((await t.ctx.db.selectFrom('backup_codes').select('id').where('user_id', '=', trader.id).execute()).length, 0);
    assert.equal((await new Client(t).post('/login.php', { email: trader.email, password: trader.password })).body.status, 'Success');
    assert.ok((await t.outbox()).some((m) => m.to === trader.email && m.subject === 'Two-factor sign-in is off'));
  });

  test("support resets a trader's second factor: sessions end, the trader is mailed, the audit says who; not a staff member's, and not without the permission", async () => {
    const trader = await signedInTrader(t, { firstName: 'Lost', lastName: 'Phone' });
    await enrol(t, trader.client);
    const support = await signedInStaff(t, admin, ['support']);
    const dealer = await signedInStaff(t, admin, ['dealer']);
    assert.equal((await dealer.client.post(RESET_TRADER, { userId: trader.id })).status, 403);
    assert.equal((await support.client.post(RESET_TRADER, { userId: support.id })).status, 404, 'a staff member is no trader');
    assert.equal((await support.client.post(RESET_STAFF, { userId: dealer.id })).status, 403, 'staff resets are for administrators');
    const details = await support.client.get(`/dashboard/admin/getTraderDetails.php?traderId=${trader.id}`);
    assert.equal(details.body.profile.twoFactor, true);

    const r = await support.client.post(RESET_TRADER, { userId: trader.id });
    assert.deepEqual(r.body, { status: 'success', message: 'Lost Phone: two-factor sign-in reset; their sessions ended.' });
    assert.equal(await signedIn(trader.client), false, 'their sessions ended');
    assert.equal((await new Client(t).post('/login.php', { email: trader.email, password: trader.password })).body.status, 'Success', 'the password alone signs in again');
    assert.equal((await support.client.post(RESET_TRADER, { userId: trader.id })).status, 409, 'nothing to reset');
    const audit = await t.ctx.db.selectFrom('audit_log').select(['actor_id', 'before_json', 'after_json']).where('action', '=', 'user.two-factor-reset').where('target_id', '=', String(trader.id)).execute();
    assert.equal(audit.length, 1);
    assert.equal(audit[0]!.actor_id, support.id);
    assert.ok((await t.outbox()).some((m) => m.to === trader.email && m.subject === 'Your two-factor sign-in was reset'));
  });

  test('with STAFF_TWO_FACTOR=optional a staff member signs in with the password alone, and may turn two-factor on', async () => {
    const member = await signedInStaff(t, admin, ['dealer']);
    assert.deepEqual((await member.client.get(STATUS)).body.required, false);
    const { secret } = await enrol(t, member.client);
    const c = new Client(t);
    assert.equal((await c.post('/login.php', { email: member.email, password: member.password })).body.step, 'verify');
    t.clock.advance(STEP_MS);
    assert.deepEqual((await c.post(VERIFY, { code: codeAt(t.ctx, secret, t.clock.now()) })).body.accountType, '1');
  });
});

describe('two-factor sign-in required of staff (STAFF_TWO_FACTOR=required)', () => {
  let t: TestApp;
  /** The administrator signed in with a second factor by the second test. */
  let staffClient: Client | undefined;

  before(async () => {
    t = await startApp({ config: { staffTwoFactor: 'required', signinRateLimitPerMinute: 100_000 } });
  });
  after(() => t.close());

  /** Signs the bootstrap administrator in, setting up a second factor on the way the first time. */
  test('a staff member without a second factor is led through setting one up and can do nothing else until it is done', async () => {
    const c = new Client(t);
    const login = await c.post('/login.php', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    assert.deepEqual(login.body, { status: 'TwoFactor', step: 'enrol', message: TWO_FACTOR_MESSAGES.enrol });
    assert.equal(await signedIn(c), false);
    assert.equal((await c.get('/dashboard/admin/getTraders.php')).status, 401);
    assert.equal((await c.get(STATUS)).status, 401);
    assert.equal((await c.post(VERIFY, { code: '123456' })).status, 401, 'an enrolment step takes no code to sign in');
    // Setting up: a wrong first code is refused and counts against the step.
    const setup = await c.post(START);
    assert.equal(setup.status, 200);
    assert.equal((await c.post(CONFIRM, { code: '000000' })).status, 400);
    assert.equal(await signedIn(c), false);
    const secret = (setup.body.secret as string).replace(/ /g, '');
    const done = await c.post(CONFIRM, { code: codeAt(t.ctx, secret, t.clock.now()) });
    assert.equal(done.body.accountType, '1');
    assert.ok(await signedIn(c));
    assert.equal((await c.get('/dashboard/admin/getTraders.php')).status, 200);
    assert.deepEqual((await c.get(STATUS)).body.required, true);
    // Staff keep it.
    t.clock.advance(STEP_MS);
    const off = await c.post(DISABLE, { password: ADMIN_PASSWORD, code: codeAt(t.ctx, secret, t.clock.now()) });
    assert.equal(off.status, 403);
    // The next sign-in asks for a code.
    const next = new Client(t);
    assert.equal((await next.post('/login.php', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })).body.step, 'verify');
  });

  test("an administrator resets a staff member's second factor (never their own): their sessions end and the next sign-in sets one up again; a trader is not asked", async () => {
    t.clock.advance(STEP_MS);
    const c = new Client(t);
    assert.equal((await c.post('/login.php', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })).body.step, 'verify');
    const adminSecret = (await t.ctx.db.selectFrom('users').select('totp_secret').where('email', '=', ADMIN_EMAIL).executeTakeFirstOrThrow()).totp_secret!;
    assert.equal((await c.post(VERIFY, { code: codeAt(t.ctx, adminSecret, t.clock.now()) })).body.status, 'Success');
    const admin = c;
    staffClient = c;

    // A new staff member: added with a password, set up at first sign-in.
    const email = `finance.${process.pid}@example.com`;
    const added = await admin.post('/dashboard/admin/addStaffMember.php', { firstName: 'Fin', lastName: 'Ance', email, password: 'Staff-Pass-4-Tests', roles: ['finance'] });
    assert.equal(added.status, 200);
    const member = new Client(t);
    assert.equal((await member.post('/login.php', { email, password: 'Staff-Pass-4-Tests' })).body.step, 'enrol');
    await enrol(t, member);
    assert.ok(await signedIn(member));
    const staffList = (await admin.get('/dashboard/admin/getStaff.php')).body.data as { id: number; twoFactor: boolean }[];
    assert.equal(staffList.find((m) => m.id === added.body.member.id)?.twoFactor, true);

    const adminId = (await t.ctx.db.selectFrom('users').select('id').where('email', '=', ADMIN_EMAIL).executeTakeFirstOrThrow()).id;
    assert.equal((await admin.post(RESET_STAFF, { userId: adminId })).status, 403, 'not one’s own');
    const r = await admin.post(RESET_STAFF, { userId: added.body.member.id });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(await signedIn(member), false);
    const again = new Client(t);
    assert.equal((await again.post('/login.php', { email, password: 'Staff-Pass-4-Tests' })).body.step, 'enrol');
    assert.match((await t.outbox()).find((m) => m.to === email && m.subject === 'Your two-factor sign-in was reset')!.text, /set it up again when you next sign in/);

    // Traders are not asked for a second factor they never set up.
    const trader = await signedInTrader(t);
    assert.ok(await signedIn(trader.client));
  });

  test("a staff member's set-up in a browser that still holds a trader's session sets up the staff member, and replaces the session", async () => {
    const trader = await signedInTrader(t);
    const email = `support.${process.pid}@example.com`;
    assert.ok(staffClient);
    assert.equal((await staffClient.post('/dashboard/admin/addStaffMember.php', { firstName: 'Sup', lastName: 'Port', email, password: 'Staff-Pass-4-Tests', roles: ['support'] })).status, 200);
    const shared = trader.client;
    assert.equal((await shared.post('/login.php', { email, password: 'Staff-Pass-4-Tests' })).body.step, 'enrol');
    const { body } = await enrol(t, shared);
    assert.equal(body.accountType, '1');
    const who = (await shared.get('/testSession.php')).body;
    assert.equal(who.user.email, email, 'signed in as the staff member');
    const traderRow = await t.ctx.db.selectFrom('users').select(['totp_enabled_at', 'totp_pending_secret']).where('id', '=', trader.id).executeTakeFirstOrThrow();
    assert.deepEqual(traderRow, { totp_enabled_at: null, totp_pending_secret: null }, "the trader's account is untouched");
  });

  test('a staff session without a second factor (one from before it was required) answers as signed out', async () => {
    assert.ok(staffClient && (await signedIn(staffClient)));
    const userId = (await t.ctx.db.selectFrom('users').select('id').where('email', '=', ADMIN_EMAIL).executeTakeFirstOrThrow()).id;
    await t.ctx.db.updateTable('users').set({ totp_enabled_at: null, totp_secret: null }).where('id', '=', userId).execute();
    t.ctx.sessionCache.dropUser(userId);
    assert.equal(await signedIn(staffClient), false);
    assert.equal((await staffClient.get('/dashboard/admin/getTraders.php')).status, 401);
  });
});
