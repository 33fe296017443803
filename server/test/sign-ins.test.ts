import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { codeAt } from '../src/services/two-factor';
import { deviceOf } from '../src/services/sign-ins';
import { startApp, type TestApp } from './helpers/app';
import { Client, signedInAdmin, signedInStaff, signedInTrader, uniqueEmail } from './helpers/client';

/**
 * Sign-in history and devices (docs/architecture.md#sign-in-history-and-devices): every attempt of
 * a known account is recorded with address, device and outcome; a sign-in from a new browser is
 * mailed; the person sees and ends their sessions; support sees a trader's sign-ins.
 */

const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const SIGN_INS = '/dashboard/customer/getSignIns.php';
const SESSIONS = '/dashboard/customer/getSessions.php';

type Row = { id: number; time: string; ip: string; device: string; outcome: string; detail: string; newDevice: boolean };
type SessionRow = { id: string; current: boolean; device: string; ip: string; remembered: boolean; lastSeen: string; createdAt: string };

describe('sign-in history and devices', () => {
  let t: TestApp;
  let admin: Client;

  before(async () => {
    t = await startApp({ config: { signinRateLimitPerMinute: 100_000, trustProxy: '127.0.0.1' } });
    admin = await signedInAdmin(t);
  });
  after(() => t.close());

  const browser = (ua: string, forwardedFor?: string) => new Client(t, { headers: { 'user-agent': ua, ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) } });
  const signIn = (c: Client, email: string, password: string, rememberMe = false) => c.post('/login.php', { email, password, rememberMe });

  test('the device and browser in words', () => {
    assert.equal(deviceOf(CHROME_WINDOWS), 'Chrome 131 on Windows 10');
    assert.equal(deviceOf(SAFARI_IPHONE), 'Safari 18.1 on iPhone (iOS 18.1)');
    assert.equal(deviceOf('Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0'), 'Firefox 133 on Linux');
    assert.equal(deviceOf('curl/8.5.0'), 'curl/8.5.0');
    assert.equal(deviceOf(''), 'Unknown device');
  });

  test('each attempt is recorded with time, the address the trusted proxy gives, the device and the outcome; an unknown email leaves nothing', async () => {
    const trader = await signedInTrader(t);
    const c = browser(CHROME_WINDOWS, '203.0.113.7');
    assert.equal((await signIn(c, trader.email, 'not-the-password')).status, 401);
    assert.equal((await signIn(c, trader.email, trader.password)).body.status, 'Success');
    const before = await t.ctx.db.selectFrom('sign_ins').select('id').execute();
    await signIn(browser(CHROME_WINDOWS), uniqueEmail('nobody'), 'whatever-it-is');
    assert.equal((await t.ctx.db.selectFrom('sign_ins').select('id').execute()).length, before.length, 'nothing for an email without an account');

    const rows = (await c.get(SIGN_INS)).body.data as Row[];
    assert.deepEqual(
      rows.slice(0, 2).map((r) => [r.outcome, r.ip, r.device, r.detail]),
      [
        ['success', '203.0.113.7', 'Chrome 131 on Windows 10', ''],
        ['wrong-password', '203.0.113.7', 'Chrome 131 on Windows 10', ''],
      ],
    );
    assert.equal(rows[0]!.time, new Date(t.clock.now()).toISOString());
    assert.equal(rows.at(-1)!.outcome, 'success', 'the sign-up helper’s own sign-in is the oldest');
  });

  test('a deactivated account, a locked email and a wrong two-factor code are recorded with their outcome', async () => {
    const trader = await signedInTrader(t);
    // A second factor, then a wrong code.
    const setup = await trader.client.post('/startTwoFactorSetup.php');
    const secret = (setup.body.secret as string).replace(/ /g, '');
    assert.equal((await trader.client.post('/confirmTwoFactorSetup.php', { code: codeAt(t.ctx, secret, t.clock.now()) })).status, 200);
    const c = browser(SAFARI_IPHONE);
    assert.equal((await signIn(c, trader.email, trader.password)).body.status, 'TwoFactor');
    assert.equal((await c.post('/verifySignIn.php', { code: '000000' })).status, 400);
    t.clock.advance(30_000);
    assert.equal((await c.post('/verifySignIn.php', { code: codeAt(t.ctx, secret, t.clock.now()) })).body.status, 'Success');
    let rows = (await c.get(SIGN_INS)).body.data as Row[];
    assert.deepEqual(rows.slice(0, 2).map((r) => [r.outcome, r.detail, r.device]), [
      ['success', 'Authenticator code', 'Safari 18.1 on iPhone (iOS 18.1)'],
      ['wrong-code', '', 'Safari 18.1 on iPhone (iOS 18.1)'],
    ]);

    // Deactivated: refused and recorded.
    const other = await signedInTrader(t);
    assert.equal((await admin.postForm('/dashboard/admin/editStatusTraders.php', { id: other.id, isActive: '0' })).status, 200);
    assert.equal((await signIn(browser(CHROME_WINDOWS), other.email, other.password)).status, 403);
    // Locked: ten wrong passwords, then the right one is refused.
    const locked = await signedInTrader(t);
    const d = browser(CHROME_WINDOWS);
    for (let i = 0; i < t.config.lockoutThreshold; i++) await signIn(d, locked.email, `wrong-${i}-password`);
    assert.equal((await signIn(d, locked.email, locked.password)).status, 429);
    assert.equal((await signIn(d, locked.email, locked.password)).status, 429);
    const outcomes = async (userId: number) => (await admin.get(`/dashboard/admin/getTraderSignIns.php?traderId=${userId}`)).body.data.map((r: Row) => r.outcome);
    assert.equal((await outcomes(other.id))[0], 'inactive');
    rows = (await admin.get(`/dashboard/admin/getTraderSignIns.php?traderId=${locked.id}`)).body.data as Row[];
    assert.equal(rows[0]!.outcome, 'locked');
    assert.equal(rows.filter((r) => r.outcome === 'locked').length, 1, 'once per lockout period, however often a locked account is knocked on');
    assert.equal(rows.filter((r) => r.outcome === 'wrong-password').length, t.config.lockoutThreshold);
  });

  test('a sign-in from a browser the account has not used before is mailed; the same browser again is not', async () => {
    const trader = await signedInTrader(t);
    const mails = async () => (await t.outbox()).filter((m) => m.to === trader.email && m.subject === 'New sign-in to your account');
    const first = await mails();
    const c = browser(CHROME_WINDOWS, '198.51.100.23');
    assert.equal((await signIn(c, trader.email, trader.password)).body.status, 'Success');
    assert.equal((await mails()).length, first.length + 1);
    const mail = (await mails()).at(-1)!;
    assert.match(mail.text, /Device: Chrome 131 on Windows 10/);
    assert.match(mail.text, /Address: 198\.51\.100\.23/);
    // The same browser (its device cookie) again: known.
    assert.equal((await signIn(c, trader.email, trader.password)).body.status, 'Success');
    assert.equal((await mails()).length, first.length + 1);
    const rows = (await c.get(SIGN_INS)).body.data as Row[];
    assert.deepEqual(rows.slice(0, 2).map((r) => r.newDevice), [false, true]);
  });

  test('own sessions: listed with the current one first; another device, or all others, signed out at once', async () => {
    const trader = await signedInTrader(t);
    const phone = browser(SAFARI_IPHONE, '192.0.2.44');
    const laptop = browser(CHROME_WINDOWS);
    assert.equal((await signIn(phone, trader.email, trader.password, true)).body.status, 'Success');
    assert.equal((await signIn(laptop, trader.email, trader.password)).body.status, 'Success');
    const list = (await laptop.get(SESSIONS)).body.data as SessionRow[];
    assert.equal(list.length, 3, 'the sign-up helper’s, the phone’s and the laptop’s');
    assert.deepEqual([list[0]!.current, list[0]!.device], [true, 'Chrome 131 on Windows 10']);
    const phoneRow = list.find((s) => s.device.startsWith('Safari'))!;
    assert.deepEqual([phoneRow.current, phoneRow.ip, phoneRow.remembered], [false, '192.0.2.44', true]);

    // Another person's session, or a made-up one, is not found; nothing ends.
    const stranger = await signedInTrader(t);
    assert.equal((await stranger.client.post('/dashboard/customer/endSession.php', { id: phoneRow.id })).status, 404);
    assert.equal((await laptop.post('/dashboard/customer/endSession.php', { id: 'f'.repeat(64) })).status, 404);
    assert.equal((await laptop.post('/dashboard/customer/endSession.php', { id: 'not-a-session' })).status, 400);
    assert.equal((await phone.get('/testSession.php')).body.status, 'success');

    const ended = await laptop.post('/dashboard/customer/endSession.php', { id: phoneRow.id });
    assert.deepEqual(ended.body, { status: 'success', message: 'That device is signed out.', ended: 1 });
    assert.equal((await phone.get('/testSession.php')).body.status, 'Failure', 'the phone is signed out at once');
    assert.equal(((await laptop.get(SESSIONS)).body.data as SessionRow[]).length, 2);

    const others = await laptop.post('/dashboard/customer/endOtherSessions.php');
    assert.deepEqual(others.body, { status: 'success', message: 'Signed out 1 other device.', ended: 1 });
    assert.equal((await trader.client.get('/testSession.php')).body.status, 'Failure');
    const left = (await laptop.get(SESSIONS)).body.data as SessionRow[];
    assert.deepEqual(left.map((s) => s.current), [true]);
    assert.deepEqual((await laptop.post('/dashboard/customer/endOtherSessions.php')).body.message, 'No other device was signed in.');
    const activity = (await laptop.get('/dashboard/customer/getActivity.php')).body.data as { activity: string; details: string }[];
    assert.deepEqual(activity.slice(0, 2).map((a) => a.details), ['Signed out 1 other device', 'Signed out Safari 18.1 on iPhone (iOS 18.1)']);

    // Its own session: signed out here, the cookie cleared.
    const self = await laptop.post('/dashboard/customer/endSession.php', { id: left[0]!.id });
    assert.equal(self.body.message, 'Signed out.');
    assert.equal((await laptop.get('/testSession.php')).body.status, 'Failure');
  });

  test("support sees a trader's sign-ins, not a staff member's; an unknown trader is 404", async () => {
    const trader = await signedInTrader(t);
    const support = await signedInStaff(t, admin, ['support']);
    const r = await support.client.get(`/dashboard/admin/getTraderSignIns.php?traderId=${trader.id}`);
    assert.equal(r.status, 200);
    assert.equal((r.body.data as Row[])[0]!.outcome, 'success');
    assert.equal((await support.client.get('/dashboard/admin/getTraderSignIns.php?traderId=99999999')).status, 404);
    assert.equal((await trader.client.get(`/dashboard/admin/getTraderSignIns.php?traderId=${trader.id}`)).status, 403);
    // A staff member's sign-ins are for administrators.
    const dealer = await signedInStaff(t, admin, ['dealer']);
    assert.equal((await support.client.get(`/dashboard/admin/getTraderSignIns.php?traderId=${dealer.id}`)).status, 403);
    assert.equal((await admin.get(`/dashboard/admin/getTraderSignIns.php?traderId=${dealer.id}`)).status, 200);
  });
});
