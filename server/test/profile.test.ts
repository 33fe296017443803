import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from './helpers/app';
import { ADMIN_EMAIL, Client, fund, paymentAccount, signedInAdmin, signedInTrader, US } from './helpers/client';

/** Profile, password change and the activity log (docs/spec-differences.md: real data instead of samples). */

/** What the test client answers (its body is loosely typed on purpose). */
type AnyReply = Awaited<ReturnType<Client['get']>>;

const PROFILE = '/dashboard/customer/getProfileDetails.php';
const EDIT = '/dashboard/customer/editProfileDetails.php';
const CHANGE = '/dashboard/customer/changePassword.php';
const ACTIVITY = '/dashboard/customer/getActivity.php';

interface ActivityRow {
  id: number;
  timeStamp: string;
  activity: string;
  details: string;
  ip: string;
  status: string;
}

function assertRefused(r: AnyReply, status: number, message?: string | RegExp): void {
  assert.equal(r.status, status, JSON.stringify(r.body));
  assert.equal(r.body.status, 'Failure');
  assert.ok(typeof r.body.message === 'string' && r.body.message.length > 0);
  if (typeof message === 'string') assert.equal(r.body.message, message);
  else if (message) assert.match(r.body.message, message);
}

const profileOf = async (c: Client) => {
  const r = await c.get(PROFILE);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.equal(r.body.status, 'success');
  assert.equal(r.body.data.length, 1);
  return r.body.data[0];
};
const activityOf = async (c: Client, query = ''): Promise<ActivityRow[]> => {
  const r = await c.get(`${ACTIVITY}${query}`);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.equal(r.body.status, 'success');
  return r.body.data as ActivityRow[];
};
const signIn = (t: TestApp, email: string, password: string, rememberMe = false) => {
  const c = new Client(t);
  return c.post('/login.php', { email, password, rememberMe }).then((r) => ({ client: c, reply: r }));
};

describe('profile details', () => {
  let t: TestApp;
  let admin: Client;
  let gateway: number;
  before(async () => {
    t = await startApp({ config: { signinRateLimitPerMinute: 100_000, signupRateLimitPerMinute: 100_000 } });
    admin = await signedInAdmin(t);
    gateway = await paymentAccount(admin, 'Profile bank');
  });
  after(() => t.close());

  test('a new trader sees their own stored details with zero totals', async () => {
    const { client, email, id } = await signedInTrader(t, { firstName: 'Ada', lastName: 'Lovelace' });
    const p = await profileOf(client);
    assert.deepEqual(p, {
      id,
      firstName: 'Ada',
      lastName: 'Lovelace',
      email,
      phoneNo: '4915112345678',
      countryId: US,
      countryName: 'United States of America',
      countryCode: 'US',
      dateOfBirth: '',
      nationality: '',
      accountType: '0',
      leverage: 100,
      createdAt: '2026-03-04T10:00:00.000Z',
      totalBalance: '0.00',
      totalCredit: '0.00',
      totalDeposite: '0.00',
      totalWithdrawals: '0.00',
    });
  });

  test('the administrator sees their own profile, marked as an admin account', async () => {
    const p = await profileOf(admin);
    assert.equal(p.email, ADMIN_EMAIL);
    assert.equal(p.firstName, 'Administrator');
    assert.equal(p.accountType, '1');
    assert.equal(p.countryName, '');
    assert.equal(p.countryCode, '');
    assert.equal(p.countryId, null);
    for (const k of ['totalBalance', 'totalCredit', 'totalDeposite', 'totalWithdrawals']) assert.equal(p[k], '0.00', k);
    for (const k of ['firstName', 'lastName', 'email', 'phoneNo', 'countryName', 'countryCode', 'dateOfBirth', 'nationality', 'createdAt']) assert.equal(typeof p[k], 'string', k);
  });

  test('the totals follow approved deposits and withdrawals, not pending or rejected ones', async () => {
    const { client } = await signedInTrader(t);
    await fund(client, admin, gateway, '250.50');
    await client.post('/platform/addDeposite.php', { depositAmount: '999.00', paymentAccount: '1', payment_getways_id: gateway }); // stays pending
    const rejected = await client.post('/platform/addDeposite.php', { depositAmount: '5.00', paymentAccount: '1', payment_getways_id: gateway });
    assert.equal((await admin.post('/dashboard/admin/editStatusDeposite.php', { deposites_id: rejected.body.id, status: 2 })).status, 200);
    const wd = await client.post('/platform/addWithdrawal.php', { withdrawalsAmount: '100.25', paymentAccount: 'IBAN' });
    assert.equal((await admin.post('/dashboard/admin/editStatusWithdrawal.php', { withdrawals_id: wd.body.id, status: 1 })).status, 200);
    await client.post('/platform/addWithdrawal.php', { withdrawalsAmount: '10.00', paymentAccount: 'IBAN' }); // pending
    const p = await profileOf(client);
    assert.deepEqual([p.totalBalance, p.totalDeposite, p.totalWithdrawals, p.totalCredit], ['150.25', '250.50', '100.25', '0.00']);
  });

  test('no profile without a session', async () => {
    assertRefused(await new Client(t).get(PROFILE), 401);
  });
});

describe('editing the profile', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp({ config: { signinRateLimitPerMinute: 100_000, signupRateLimitPerMinute: 100_000 } });
  });
  after(() => t.close());

  const valid = { firstName: 'Grace', lastName: 'Hopper', phoneNo: '020-7946 0958', country_id: 826, dateOfBirth: '1990-05-17', nationality: 'British' };

  test('every field is updated and "Profile updated" is logged', async () => {
    const { client, email, id } = await signedInTrader(t);
    const r = await client.post(EDIT, valid);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body, { status: 'success', message: 'Your profile has been updated.' });
    const p = await profileOf(client);
    assert.equal(p.id, id);
    assert.equal(p.email, email, 'the email is not a profile field');
    assert.deepEqual(
      { firstName: p.firstName, lastName: p.lastName, phoneNo: p.phoneNo, countryId: p.countryId, countryName: p.countryName, countryCode: p.countryCode, dateOfBirth: p.dateOfBirth, nationality: p.nationality },
      { firstName: 'Grace', lastName: 'Hopper', phoneNo: '02079460958', countryId: 826, countryName: 'United Kingdom', countryCode: 'GB', dateOfBirth: '1990-05-17', nationality: 'British' },
    );
    const [latest] = await activityOf(client);
    assert.equal(latest!.activity, 'Profile updated');
    assert.equal(latest!.status, 'Success');
  });

  test('country ids may come as strings, dates may be cleared, and today is a valid date of birth', async () => {
    const { client } = await signedInTrader(t);
    const today = new Date(t.clock.now()).toISOString().slice(0, 10);
    assert.equal((await client.post(EDIT, { ...valid, country_id: '276', dateOfBirth: today })).status, 200);
    let p = await profileOf(client);
    assert.deepEqual([p.countryCode, p.dateOfBirth], ['DE', today]);
    assert.equal((await client.post(EDIT, { ...valid, dateOfBirth: '', nationality: '' })).status, 200);
    p = await profileOf(client);
    assert.deepEqual([p.dateOfBirth, p.nationality], ['', '']);
  });

  test('invalid values are refused with 400 and change nothing', async () => {
    const { client } = await signedInTrader(t, { firstName: 'Stay', lastName: 'Same' });
    const before = await profileOf(client);
    const activityBefore = await activityOf(client);
    const tomorrow = new Date(t.clock.now() + 24 * 3600_000).toISOString().slice(0, 10);
    const cases: [Record<string, unknown>, string | RegExp][] = [
      [{ phoneNo: 'abc' }, 'Please enter a valid phone number (digits only, 6 to 15 digits).'],
      [{ phoneNo: '12345' }, 'Please enter a valid phone number (digits only, 6 to 15 digits).'],
      [{ phoneNo: '1234567890123456' }, 'Please enter a valid phone number (digits only, 6 to 15 digits).'],
      [{ phoneNo: '' }, 'Please enter your phone number.'],
      [{ country_id: 999 }, 'Please select a valid country.'],
      [{ country_id: 'US' }, 'Please select a valid country.'],
      [{ country_id: '' }, 'Please select your country.'],
      [{ dateOfBirth: '2020-02-30' }, 'Date of birth must be a real date (YYYY-MM-DD).'],
      [{ dateOfBirth: '2021-02-29' }, 'Date of birth must be a real date (YYYY-MM-DD).'],
      [{ dateOfBirth: '1990-13-01' }, 'Date of birth must be a real date (YYYY-MM-DD).'],
      [{ dateOfBirth: tomorrow }, 'Date of birth cannot be in the future.'],
      [{ dateOfBirth: '2999-01-01' }, 'Date of birth cannot be in the future.'],
      [{ dateOfBirth: '1899-12-31' }, 'Date of birth must be after 1900.'],
      [{ dateOfBirth: '1990/05/17' }, 'Date of birth must be a date (YYYY-MM-DD).'],
      [{ dateOfBirth: '17-05-1990' }, 'Date of birth must be a date (YYYY-MM-DD).'],
      [{ firstName: '' }, 'Please enter your first name.'],
      [{ firstName: '   ' }, 'Please enter your first name.'],
      [{ lastName: 'x'.repeat(51) }, 'Last name must be at most 50 characters.'],
      [{ nationality: 'x'.repeat(61) }, /at most 60 characters/],
      [{ firstName: 42 }, /first name/i],
    ];
    for (const [patch, message] of cases) {
      const r = await client.post(EDIT, { ...valid, ...patch });
      assertRefused(r, 400, message);
    }
    assert.deepEqual(await profileOf(client), before);
    assert.deepEqual(await activityOf(client), activityBefore, 'a refused edit is not logged');
  });

  test('a trader can only change their own profile, and never their email or totals', async () => {
    const me = await signedInTrader(t);
    const other = await signedInTrader(t, { firstName: 'Other', lastName: 'Person' });
    const otherBefore = await profileOf(other.client);
    const r = await me.client.post(EDIT, { ...valid, id: other.id, userId: other.id, email: 'stolen@example.com', totalBalance: '1000000.00', accountType: '1' });
    assert.equal(r.status, 200);
    const mine = await profileOf(me.client);
    assert.deepEqual([mine.id, mine.email, mine.totalBalance, mine.accountType, mine.firstName], [me.id, me.email, '0.00', '0', 'Grace']);
    assert.deepEqual(await profileOf(other.client), otherBefore);
  });
});

describe('changing the password', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp({ config: { signinRateLimitPerMinute: 100_000, signupRateLimitPerMinute: 100_000 } });
  });
  after(() => t.close());

  test('wrong current, weak new and unchanged passwords are refused, and nothing changes', async () => {
    const me = await signedInTrader(t);
    const other = await signIn(t, me.email, me.password);
    assert.equal(other.reply.body.status, 'Success');
    const cases: [Record<string, unknown>, string | RegExp][] = [
      [{ currentPassword: 'not-my-password-1', newPassword: 'copper-lantern-77' }, 'Your current password is incorrect.'],
      [{ currentPassword: me.password, newPassword: 'short' }, 'Password must be at least 8 characters.'],
      [{ currentPassword: me.password, newPassword: '12345678' }, 'This password is too common. Please choose a less predictable one.'],
      [{ currentPassword: me.password, newPassword: 'aaaaaaaaaaaa' }, 'This password is too easy to guess. Please choose a less predictable one.'],
      [{ currentPassword: me.password, newPassword: '          ' }, 'Password cannot be only spaces.'],
      [{ currentPassword: me.password, newPassword: me.email }, 'Your password must not be the same as your email address.'],
      [{ currentPassword: me.password, newPassword: 'x'.repeat(129) }, 'Password must be at most 128 characters.'],
      [{ currentPassword: me.password, newPassword: me.password }, 'The new password must be different from the current one.'],
      [{ currentPassword: me.password }, 'Please enter a new password.'],
      [{ newPassword: 'copper-lantern-77' }, 'Please enter your current password.'],
      [{ currentPassword: me.password, newPassword: 12345678 }, 'Please enter a new password.'],
    ];
    for (const [body, message] of cases) assertRefused(await me.client.post(CHANGE, body), 400, message);

    // Both sessions still work, the old password still signs in, and nothing was logged.
    assert.equal((await me.client.get(PROFILE)).status, 200);
    assert.equal((await other.client.get(PROFILE)).status, 200);
    assert.equal((await signIn(t, me.email, me.password)).reply.body.status, 'Success');
    assert.ok(!(await activityOf(me.client)).some((a) => a.activity === 'Password changed'));
  });

  test('success: the old password stops working, the new one works, other sessions end and the caller stays signed in', async () => {
    const me = await signedInTrader(t);
    const second = await signIn(t, me.email, me.password);
    const bystander = await signedInTrader(t);
    const oldCookie = me.client.cookieHeader;
    const newPassword = 'juniper-quartz-58';

    const r = await me.client.post(CHANGE, { currentPassword: me.password, newPassword });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body, { status: 'success', message: 'Your password has been changed. Other devices have been signed out.' });
    const setCookie = r.headers.getSetCookie().find((c) => c.startsWith('tp_session='));
    assert.ok(setCookie, 'the caller receives a fresh session cookie');
    assert.match(setCookie, /HttpOnly/i);
    assert.notEqual(me.client.cookieHeader, oldCookie);

    // The caller keeps working on the fresh cookie…
    assert.equal((await me.client.get(PROFILE)).status, 200);
    assert.equal((await me.client.get('/testSession.php')).body.status, 'success');
    // …the other session has ended…
    assertRefused(await second.client.get(PROFILE), 401);
    assert.equal((await second.client.get('/testSession.php')).body.status, 'Failure');
    // …and so has the caller's previous cookie, should anyone have copied it.
    const stale = new Client(t);
    stale.setCookie('tp_session', oldCookie.replace(/^tp_session=/, ''));
    assertRefused(await stale.get(PROFILE), 401);
    // Someone else's session is untouched.
    assert.equal((await bystander.client.get(PROFILE)).status, 200);

    const old = await signIn(t, me.email, me.password);
    assert.equal(old.reply.status, 401);
    assert.equal(old.reply.body.message, 'Incorrect email or password. Please try again.');
    const fresh = await signIn(t, me.email, newPassword);
    assert.equal(fresh.reply.status, 200);
    assert.equal(fresh.reply.body.status, 'Success');

    const hash = await t.ctx.db.selectFrom('users').select('password_hash').where('id', '=', me.id).executeTakeFirstOrThrow();
    assert.ok(!hash.password_hash.includes(newPassword), 'the password is stored hashed');
  });

  test('a remembered session stays remembered after the change', async () => {
    const me = await signedInTrader(t);
    const remembered = await signIn(t, me.email, me.password, true);
    const r = await remembered.client.post(CHANGE, { currentPassword: me.password, newPassword: 'tundra-violin-204' });
    assert.equal(r.status, 200);
    const setCookie = r.headers.getSetCookie().find((c) => c.startsWith('tp_session='))!;
    assert.match(setCookie, /Max-Age=2592000/i);
    assertRefused(await me.client.get(PROFILE), 401, 'Please sign in to continue.');
  });

  test('signed out, the password cannot be changed', async () => {
    assertRefused(await new Client(t).post(CHANGE, { currentPassword: 'a', newPassword: 'copper-lantern-77' }), 401);
  });
});

describe('the activity log', () => {
  let t: TestApp;
  let admin: Client;
  let gateway: number;
  before(async () => {
    t = await startApp({ config: { signinRateLimitPerMinute: 100_000, signupRateLimitPerMinute: 100_000 } });
    admin = await signedInAdmin(t);
    gateway = await paymentAccount(admin, 'Activity bank');
  });
  after(() => t.close());

  const minute = 60_000;
  const iso = (ms: number) => new Date(ms).toISOString();

  test('lists the account\'s events newest first, with time, IP and status', async () => {
    const start = t.clock.now();
    const me = await signedInTrader(t, { email: `activity.${Date.now()}@example.com` });

    t.clock.advance(minute);
    const wrong = await signIn(t, me.email, 'definitely-wrong-9');
    assert.equal(wrong.reply.status, 401);

    t.clock.advance(minute);
    const dep = await me.client.post('/platform/addDeposite.php', { depositAmount: '1234.50', paymentAccount: '7', payment_getways_id: gateway });
    assert.equal(dep.status, 200);

    t.clock.advance(minute);
    assert.equal((await admin.post('/dashboard/admin/editStatusDeposite.php', { deposites_id: dep.body.id, status: 1 })).status, 200);

    t.clock.advance(minute);
    assert.equal((await me.client.post(CHANGE, { currentPassword: me.password, newPassword: 'lilac-orbit-319' })).status, 200);

    t.clock.advance(minute);
    assert.equal((await me.client.post(EDIT, { firstName: 'Tess', lastName: 'Trader', phoneNo: '4915112345678', country_id: US, dateOfBirth: '', nationality: '' })).status, 200);

    const list = await activityOf(me.client);
    assert.deepEqual(
      list.map((a) => [a.activity, a.status, a.timeStamp]),
      [
        ['Profile updated', 'Success', iso(start + 5 * minute)],
        ['Password changed', 'Success', iso(start + 4 * minute)],
        ['Deposit approved', 'Approved', iso(start + 3 * minute)],
        ['Deposit requested', 'Pending', iso(start + 2 * minute)],
        ['Failed sign-in attempt', 'Failed', iso(start + minute)],
        ['Signed in', 'Success', iso(start)],
        ['Account created', 'Success', iso(start)],
      ],
    );
    for (const a of list) {
      assert.equal(a.ip, '127.0.0.1', a.activity);
      assert.equal(typeof a.details, 'string');
      assert.ok(Number.isInteger(a.id));
    }
    const ids = list.map((a) => a.id);
    assert.deepEqual(ids, [...ids].sort((x, y) => y - x), 'newest (highest id) first');
    assert.equal(list.find((a) => a.activity === 'Deposit requested')!.details, `Deposit request #${dep.body.id} of 1,234.50 USD via Activity bank`);
    assert.equal(list.find((a) => a.activity === 'Deposit approved')!.details, `Deposit request #${dep.body.id} of 1,234.50 USD approved`);
    for (const a of list) assert.doesNotMatch(a.details, /definitely-wrong|lilac-orbit/, 'passwords never appear in the log');
  });

  test('a trader never sees another user\'s activity', async () => {
    const a = await signedInTrader(t);
    const b = await signedInTrader(t);
    // Events caused by others land on the right account: B's failed attempt on A's email is A's.
    await signIn(t, a.email, 'wrong-password-for-a');
    await a.client.post('/platform/addDeposite.php', { depositAmount: '10', paymentAccount: '1', payment_getways_id: gateway });

    const mine = await activityOf(a.client);
    const theirs = await activityOf(b.client);
    assert.deepEqual(theirs.map((x) => x.activity), ['Signed in', 'Account created']);
    assert.deepEqual(mine.map((x) => x.activity), ['Deposit requested', 'Failed sign-in attempt', 'Signed in', 'Account created']);
    const mineIds = new Set(mine.map((x) => x.id));
    assert.ok(theirs.every((x) => !mineIds.has(x.id)));

    // Paging with someone else's ids shows nothing of theirs either.
    const paged = await activityOf(b.client, `?before=${Math.max(...mineIds) + 1}&limit=200`);
    assert.ok(paged.every((x) => !mineIds.has(x.id)));
    const rows = await t.ctx.db.selectFrom('activity_log').select(['id', 'user_id']).where('id', 'in', paged.map((x) => x.id)).execute();
    assert.ok(rows.every((r) => r.user_id === b.id));

    const adminList = await activityOf(admin);
    assert.ok(adminList.every((x) => !mineIds.has(x.id)), 'the admin\'s own log holds only the admin\'s events');
    assert.ok(adminList.length > 0);
    assert.ok(adminList.every((x) => x.activity === 'Signed in'), JSON.stringify(adminList.map((x) => x.activity)));
  });

  test('limit and before page through the log without gaps or repeats', async () => {
    const me = await signedInTrader(t);
    for (let i = 0; i < 4; i++) {
      await me.client.post('/platform/addDeposite.php', { depositAmount: `${i + 1}.00`, paymentAccount: '1', payment_getways_id: gateway });
      await signIn(t, me.email, `wrong-password-${i}`);
    }
    const all = await activityOf(me.client, '?limit=200');
    assert.equal(all.length, 10);

    const pages: ActivityRow[][] = [];
    let cursor = '';
    for (;;) {
      const page = await activityOf(me.client, `?limit=3${cursor}`);
      if (page.length === 0) break;
      assert.ok(page.length <= 3);
      pages.push(page);
      cursor = `&before=${page[page.length - 1]!.id}`;
    }
    assert.deepEqual(pages.map((p) => p.length), [3, 3, 3, 1]);
    assert.deepEqual(pages.flat(), all);

    assert.deepEqual(await activityOf(me.client, `?before=${all[0]!.id}&limit=2`), all.slice(1, 3));
    assert.deepEqual(await activityOf(me.client, `?before=${all[all.length - 1]!.id}`), []);
    assert.deepEqual(await activityOf(me.client, '?limit=1'), all.slice(0, 1));
    assert.deepEqual(await activityOf(me.client), all, 'the default page holds up to 50 entries');

    for (const q of ['?limit=0', '?limit=-1', '?limit=201', '?limit=abc', '?limit=1.5', '?before=x', '?before=0', '?before=-3']) {
      assertRefused(await me.client.get(`${ACTIVITY}${q}`), 400);
    }
    assertRefused(await new Client(t).get(ACTIVITY), 401);
  });
});
