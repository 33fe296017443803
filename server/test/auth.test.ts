import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startApp, type TestApp } from './helpers/app';
import { Client, registrationBody, signedInAdmin, signedInTrader, uniqueEmail, US, type Reply } from './helpers/client';

/**
 * Sign-up, sign-in, sessions and their cookie, sign-in throttling, per-IP rate limits and the
 * CSRF guard, all over real HTTP. Suites that are not about the per-IP limits raise them, since
 * every request here comes from 127.0.0.1.
 */

const MINUTE = 60_000;
const DAY = 24 * 3600_000;

const NOT_SIGNED_IN = { status: 'Failure', message: 'Not signed in.' };
const SIGNED_UP = { status: 'Success', message: 'Your account has been created successfully. You can sign in now.' };
const DUPLICATE = { status: 'Failure', message: 'An account with this email already exists. Please sign in instead.' };
const WRONG_PASSWORD = { status: 'Failure', message: 'Incorrect email or password. Please try again.' };
const LOCKED_15 = { status: 'Failure', message: 'Too many failed sign-in attempts for this email. Please try again in 15 minutes.' };
const CROSS_SITE = { status: 'Failure', message: 'Cross-site request refused: this call must come from the Tradeport web app.' };

/** An app whose per-IP limits never get in the way of the behaviour a suite is about. */
const unthrottledApp = () => startApp({ config: { signinRateLimitPerMinute: 1000, signupRateLimitPerMinute: 1000 } });

interface SetCookie {
  value: string;
  /** Attributes after the name=value pair, as sent. */
  attributes: string[];
}

function sessionSetCookie(reply: Reply): SetCookie {
  const line = reply.headers.getSetCookie().find((l) => l.startsWith('tp_session='));
  assert.ok(line, `expected a tp_session Set-Cookie, got ${JSON.stringify(reply.headers.getSetCookie())}`);
  const [pair, ...attributes] = line.split(';').map((s) => s.trim());
  return { value: pair!.slice('tp_session='.length), attributes };
}

const hasAttribute = (c: SetCookie, name: string) => c.attributes.some((a) => a.toLowerCase().startsWith(name.toLowerCase()));

/** A fresh client presenting only the given session cookie. */
function clientWithCookie(t: TestApp, token: string): Client {
  const c = new Client(t);
  c.setCookie('tp_session', token);
  return c;
}

async function registerTrader(t: TestApp, password = 'violet-harbour-42'): Promise<{ email: string; password: string }> {
  const body = registrationBody({ password });
  const r = await new Client(t).post('/registration.php', body);
  assert.deepEqual(r.body, SIGNED_UP);
  return { email: body.email, password };
}

const countUsers = async (t: TestApp) => Number((await t.ctx.db.selectFrom('users').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

// ------------------------------------------------------------------------------------ countries

describe('GET /api/getCountries.php', () => {
  let t: TestApp;
  before(async () => {
    t = await unthrottledApp();
  });
  after(() => t.close());

  test('lists every ISO 3166 country as {id, countryName, countryCode}, with US as 840', async () => {
    const r = await new Client(t).get('/getCountries.php');
    assert.equal(r.status, 200);
    assert.equal(r.body.status, 'success');
    const data = r.body.data as { id: number; countryName: string; countryCode: string }[];
    assert.ok(data.length >= 249, `expected at least 249 countries, got ${data.length}`);
    for (const c of data) {
      assert.deepEqual(Object.keys(c).sort(), ['countryCode', 'countryName', 'id']);
      assert.ok(Number.isInteger(c.id) && c.id > 0, `bad id ${c.id}`);
      assert.match(c.countryCode, /^[A-Z]{2}$/);
      assert.ok(c.countryName.length > 0);
    }
    assert.equal(new Set(data.map((c) => c.id)).size, data.length, 'ids are unique');
    assert.equal(new Set(data.map((c) => c.countryCode)).size, data.length, 'codes are unique');
    assert.deepEqual(data.find((c) => c.countryCode === 'US'), { id: US, countryName: 'United States of America', countryCode: 'US' });
  });

  test('is sorted alphabetically by country name (accented names among their letter, Åland Islands among the As)', async () => {
    const r = await new Client(t).get('/getCountries.php');
    const names = (r.body.data as { countryName: string }[]).map((c) => c.countryName);
    const collator = new Intl.Collator('en');
    const outOfOrder = names.flatMap((name, i) => (i > 0 && collator.compare(names[i - 1]!, name) > 0 ? [`${name} listed after ${names[i - 1]}`] : []));
    assert.deepEqual(outOfOrder, []);
  });
});

// ------------------------------------------------------------------------------------ sign-up

describe('POST /api/registration.php', () => {
  let t: TestApp;
  before(async () => {
    t = await unthrottledApp();
  });
  after(() => t.close());

  const signUp = (body: unknown) => new Client(t).post('/registration.php', body);

  test('creates a trader account and answers Success with a message', async () => {
    const body = registrationBody();
    const r = await signUp(body);
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, SIGNED_UP);
    const row = await t.ctx.db.selectFrom('users').select(['email', 'first_name', 'last_name', 'phone_no', 'country_id', 'role', 'is_active']).where('email', '=', body.email).executeTakeFirstOrThrow();
    assert.deepEqual(row, { email: body.email, first_name: 'Tess', last_name: 'Trader', phone_no: '4915112345678', country_id: US, role: 'trader', is_active: 1 });
  });

  test('accepts country_id as a string, as the sign-up form sends it', async () => {
    const r = await signUp({ ...registrationBody(), country_id: String(US) });
    assert.deepEqual(r.body, SIGNED_UP);
  });

  const fieldOrder = ['firstName', 'lastName', 'phoneNo', 'email', 'password', 'country_id'] as const;
  const missingMessages: Record<(typeof fieldOrder)[number], string> = {
    firstName: 'Please enter your first name.',
    lastName: 'Please enter your last name.',
    phoneNo: 'Please enter your phone number.',
    email: 'Please enter your email address.',
    password: 'Please enter your password.',
    country_id: 'Please select your country.',
  };

  for (const field of fieldOrder) {
    test(`a missing ${field} gives '${missingMessages[field]}'`, async () => {
      const body: Record<string, unknown> = { ...registrationBody() };
      delete body[field];
      const r = await signUp(body);
      assert.equal(r.status, 400);
      assert.deepEqual(r.body, { status: 'Failure', message: missingMessages[field] });
    });

    test(`an empty ${field} gives '${missingMessages[field]}'`, async () => {
      const r = await signUp({ ...registrationBody(), [field]: '' });
      assert.equal(r.status, 400);
      assert.deepEqual(r.body, { status: 'Failure', message: missingMessages[field] });
    });
  }

  test('when several fields are missing, the first in form order is reported', async () => {
    for (let i = 0; i < fieldOrder.length; i++) {
      // Blank this field and every later one: this field must win.
      const body: Record<string, unknown> = { ...registrationBody() };
      for (const f of fieldOrder.slice(i)) body[f] = '';
      const r = await signUp(body);
      assert.deepEqual(r.body, { status: 'Failure', message: missingMessages[fieldOrder[i]!] }, `blanking from ${fieldOrder[i]}`);
    }
    // Last name and country missing: last name is reported, not country.
    const r = await signUp({ ...registrationBody(), lastName: '', country_id: '' });
    assert.deepEqual(r.body, { status: 'Failure', message: missingMessages.lastName });
    // A missing field wins over a format problem in a later one.
    const r2 = await signUp({ ...registrationBody(), firstName: '', email: 'not-an-email', password: 'short' });
    assert.deepEqual(r2.body, { status: 'Failure', message: missingMessages.firstName });
  });

  test('a first name of only spaces counts as missing', async () => {
    const r = await signUp({ ...registrationBody(), firstName: '   ' });
    assert.equal(r.status, 400);
    assert.deepEqual(r.body, { status: 'Failure', message: 'Please enter your first name.' });
  });

  test('an invalid email address is refused', async () => {
    for (const email of ['not-an-email', 'a@b', 'two@@example.com', 'sp ace@example.com']) {
      const r = await signUp({ ...registrationBody(), email });
      assert.equal(r.status, 400, email);
      assert.deepEqual(r.body, { status: 'Failure', message: 'Please enter a valid email address.' }, email);
    }
  });

  test('a phone number with letters is refused', async () => {
    const r = await signUp({ ...registrationBody(), phoneNo: '49151abc5678' });
    assert.equal(r.status, 400);
    assert.deepEqual(r.body, { status: 'Failure', message: 'Please enter a valid phone number (digits only, 6 to 15 digits).' });
  });

  test('a password shorter than 8 characters is refused', async () => {
    const r = await signUp({ ...registrationBody(), password: 'Ab3$xyz' });
    assert.equal(r.status, 400);
    assert.deepEqual(r.body, { status: 'Failure', message: 'Password must be at least 8 characters.' });
  });

  test('a common password is refused', async () => {
    for (const password of ['password123', 'qwertyuiop']) {
      const r = await signUp({ ...registrationBody(), password });
      assert.equal(r.status, 400, password);
      assert.deepEqual(r.body, { status: 'Failure', message: 'This password is too common. Please choose a less predictable one.' }, password);
    }
  });

  test('an unknown country is refused', async () => {
    for (const country_id of [999, 0, '12345', 'US']) {
      const r = await signUp({ ...registrationBody(), country_id });
      assert.equal(r.status, 400, String(country_id));
      assert.deepEqual(r.body, { status: 'Failure', message: 'Please select a valid country.' }, String(country_id));
    }
  });

  test("country_id '' (no country chosen) gives 'Please select your country.'", async () => {
    const r = await signUp({ ...registrationBody(), country_id: '' });
    assert.equal(r.status, 400);
    assert.deepEqual(r.body, { status: 'Failure', message: 'Please select your country.' });
  });

  test('an email already registered, in any letter case, is refused with 409 and creates nothing', async () => {
    const body = registrationBody();
    assert.deepEqual((await signUp(body)).body, SIGNED_UP);
    const before = await countUsers(t);
    for (const email of [body.email, body.email.toUpperCase(), `  ${body.email.replace(/^t/, 'T')}  `, ADMIN_EMAIL.toUpperCase()]) {
      const r = await signUp({ ...registrationBody(), email });
      assert.equal(r.status, 409, email);
      assert.deepEqual(r.body, DUPLICATE, email);
    }
    assert.equal(await countUsers(t), before);
  });

  test('stores the email in lower case, so sign-in matches it in any case', async () => {
    const email = uniqueEmail('Mixed.Case').replace('@example.com', '@Example.COM');
    assert.deepEqual((await signUp({ ...registrationBody(), email })).body, SIGNED_UP);
    const row = await t.ctx.db.selectFrom('users').select('email').where('email', '=', email.toLowerCase()).executeTakeFirst();
    assert.equal(row?.email, email.toLowerCase());
  });

  test('wrong JSON types give 400 with a Failure message, never 500', async () => {
    const cases: [unknown, string][] = [
      [{ ...registrationBody(), firstName: { first: 'Tess' } }, 'Please enter your first name.'],
      [{ ...registrationBody(), lastName: ['Trader'] }, 'Please enter your last name.'],
      [{ ...registrationBody(), phoneNo: true }, 'Please enter your phone number.'],
      [{ ...registrationBody(), email: { $ne: '' } }, 'Please enter your email address.'],
      [{ ...registrationBody(), password: 12345678 }, 'Please enter your password.'],
      [{ ...registrationBody(), country_id: { id: US } }, 'Please select your country.'],
      [[registrationBody()], 'The request body must be a JSON object.'],
      ['"just a string"', 'The request body must be a JSON object.'],
      ['{"firstName": "Tess",', 'The request body is not valid JSON.'],
    ];
    const before = await countUsers(t);
    for (const [body, message] of cases) {
      const r = await signUp(body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.deepEqual(r.body, { status: 'Failure', message }, JSON.stringify(body));
    }
    assert.equal(await countUsers(t), before);
  });
});

// ------------------------------------------------------------------------------------ sign-in

describe('POST /api/login.php', () => {
  let t: TestApp;
  before(async () => {
    t = await unthrottledApp();
  });
  after(() => t.close());

  const signIn = (body: unknown, client = new Client(t)) => client.post('/login.php', body);

  test("a trader signs in: 'Success', accountType '0', 'SignIn successful!'", async () => {
    const { email, password } = await registerTrader(t);
    const r = await signIn({ email, password });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { status: 'Success', accountType: '0', message: 'SignIn successful!' });
  });

  test("the admin signs in with accountType '1'", async () => {
    const r = await signIn({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { status: 'Success', accountType: '1', message: 'SignIn successful!' });
  });

  test("an empty or missing email gives 'Please enter your email.'", async () => {
    for (const body of [{ email: '', password: 'whatever-123' }, { email: '   ', password: 'whatever-123' }, { password: 'whatever-123' }, { email: '', password: '' }]) {
      const r = await signIn(body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.deepEqual(r.body, { status: 'Failure', message: 'Please enter your email.' }, JSON.stringify(body));
    }
  });

  test("an empty or missing password gives 'Please enter your password.'", async () => {
    for (const body of [{ email: 'someone@example.com', password: '' }, { email: 'someone@example.com' }]) {
      const r = await signIn(body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.deepEqual(r.body, { status: 'Failure', message: 'Please enter your password.' }, JSON.stringify(body));
    }
  });

  test("an unknown email answers status 'This account does not exist'", async () => {
    const r = await signIn({ email: uniqueEmail('nobody'), password: 'violet-harbour-42' });
    assert.equal(r.status, 401);
    assert.deepEqual(r.body, { status: 'This account does not exist', message: 'This account does not exist, please contact with support team' });
    assert.equal(sessionCookieLines(r).length, 0);
  });

  test("a wrong password answers 'Failure' with 401 and sets no session", async () => {
    const { email } = await registerTrader(t);
    const r = await signIn({ email, password: 'violet-harbour-43' });
    assert.equal(r.status, 401);
    assert.deepEqual(r.body, WRONG_PASSWORD);
    assert.equal(sessionCookieLines(r).length, 0);
  });

  test('the email is matched case-insensitively and trimmed', async () => {
    const { email, password } = await registerTrader(t);
    const r = await signIn({ email: `  ${email.toUpperCase()} `, password });
    assert.deepEqual(r.body, { status: 'Success', accountType: '0', message: 'SignIn successful!' });
  });

  test('the password is matched exactly (case matters)', async () => {
    const { email, password } = await registerTrader(t);
    const r = await signIn({ email, password: password.toUpperCase() });
    assert.equal(r.status, 401);
    assert.deepEqual(r.body, WRONG_PASSWORD);
  });

  test('wrong JSON types give 400, never 500', async () => {
    const cases: [unknown, string][] = [
      [{ email: { $gt: '' }, password: 'x' }, 'Please enter your email.'],
      [{ email: 'a@example.com', password: { $gt: '' } }, 'Please enter your password.'],
      [{ email: 'a@example.com', password: 'violet-harbour-42', rememberMe: 'yes' }, 'Invalid value for rememberMe.'],
      [[], 'The request body must be a JSON object.'],
    ];
    for (const [body, message] of cases) {
      const r = await signIn(body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.deepEqual(r.body, { status: 'Failure', message }, JSON.stringify(body));
    }
  });

  test('a deactivated trader cannot sign in (403) and their open session ends', async () => {
    const { client: trader, email, password, id } = await signedInTrader(t);
    const admin = await signedInAdmin(t);
    const off = await admin.postForm('/dashboard/admin/editStatusTraders.php', { id, isActive: '0' });
    assert.equal(off.status, 200);
    assert.deepEqual(off.body, { status: 'success', message: 'Tess Trader is now inactive.' });

    assert.deepEqual((await trader.get('/testSession.php')).body, NOT_SIGNED_IN);
    const r = await signIn({ email, password });
    assert.equal(r.status, 403);
    assert.deepEqual(r.body, { status: 'Failure', message: 'Your account is inactive. Please contact the support team.' });
    assert.equal(sessionCookieLines(r).length, 0);

    // Reactivated, the same credentials work again.
    const on = await admin.postForm('/dashboard/admin/editStatusTraders.php', { id, isActive: '1' });
    assert.deepEqual(on.body, { status: 'success', message: 'Tess Trader is now active.' });
    assert.deepEqual((await signIn({ email, password })).body, { status: 'Success', accountType: '0', message: 'SignIn successful!' });
  });
});

function sessionCookieLines(reply: Reply): string[] {
  return reply.headers.getSetCookie().filter((l) => l.startsWith('tp_session='));
}

// ------------------------------------------------------------------------------------ sessions

describe('session cookie and session lifecycle', () => {
  let t: TestApp;
  before(async () => {
    t = await unthrottledApp();
  });
  after(() => t.close());

  test('the session cookie is HttpOnly, SameSite=Lax, Path=/ and a browser-session cookie without Remember me', async () => {
    const { email, password } = await registerTrader(t);
    const r = await new Client(t).post('/login.php', { email, password });
    const cookie = sessionSetCookie(r);
    assert.match(cookie.value, /^[A-Za-z0-9_-]{43}$/, '256 random bits, base64url');
    assert.ok(cookie.attributes.includes('HttpOnly'), cookie.attributes.join('; '));
    assert.ok(cookie.attributes.includes('SameSite=Lax'), cookie.attributes.join('; '));
    assert.ok(cookie.attributes.includes('Path=/'), cookie.attributes.join('; '));
    assert.ok(!hasAttribute(cookie, 'Max-Age'), cookie.attributes.join('; '));
    assert.ok(!hasAttribute(cookie, 'Expires'), cookie.attributes.join('; '));
    // Served over plain HTTP here, so not Secure (the browser would drop it).
    assert.ok(!hasAttribute(cookie, 'Secure'), cookie.attributes.join('; '));
  });

  test('Remember me makes the cookie last 30 days (Max-Age=2592000)', async () => {
    const { email, password } = await registerTrader(t);
    const r = await new Client(t).post('/login.php', { email, password, rememberMe: true });
    assert.equal(r.body.status, 'Success');
    const cookie = sessionSetCookie(r);
    assert.ok(cookie.attributes.includes('Max-Age=2592000'), cookie.attributes.join('; '));
    assert.ok(cookie.attributes.includes('HttpOnly'));
    assert.ok(cookie.attributes.includes('SameSite=Lax'));
    assert.ok(cookie.attributes.includes('Path=/'));
  });

  test('rememberMe: false gives a browser-session cookie', async () => {
    const { email, password } = await registerTrader(t);
    const cookie = sessionSetCookie(await new Client(t).post('/login.php', { email, password, rememberMe: false }));
    assert.ok(!hasAttribute(cookie, 'Max-Age'));
    assert.ok(!hasAttribute(cookie, 'Expires'));
  });

  test('the sessions table stores the SHA-256 of the cookie, never the cookie value', async () => {
    const { email, password } = await registerTrader(t);
    const client = new Client(t);
    const r = await client.post('/login.php', { email, password, rememberMe: true });
    const token = sessionSetCookie(r).value;
    const user = await t.ctx.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    const rows = await t.ctx.db.selectFrom('sessions').selectAll().where('user_id', '=', user.id).execute();
    assert.equal(rows.length, 1);
    const row = rows[0]!;
    assert.equal(row.id_hash, createHash('sha256').update(token).digest('hex'));
    assert.equal(row.persistent, 1);
    const everything = JSON.stringify(await t.ctx.db.selectFrom('sessions').selectAll().execute());
    assert.ok(!everything.includes(token), 'the raw cookie value appears nowhere in the sessions table');
  });

  test("testSession.php: 'success' with accountType when signed in, 'Failure' when not", async () => {
    const anonymous = await new Client(t).get('/testSession.php');
    assert.equal(anonymous.status, 200);
    assert.deepEqual(anonymous.body, NOT_SIGNED_IN);

    const { client: trader, email, id } = await signedInTrader(t);
    const mine = await trader.get('/testSession.php');
    assert.equal(mine.status, 200);
    assert.deepEqual(mine.body, { status: 'success', accountType: '0', user: { id, firstName: 'Tess', lastName: 'Trader', email } });

    const admin = await signedInAdmin(t);
    const theirs = await admin.get('/testSession.php');
    assert.equal(theirs.body.status, 'success');
    assert.equal(theirs.body.accountType, '1');
  });

  test('a made-up or malformed cookie is not a session', async () => {
    for (const token of ['A'.repeat(43), 'not-a-token', '', 'x'.repeat(500)]) {
      const r = await clientWithCookie(t, token).get('/testSession.php');
      assert.deepEqual(r.body, NOT_SIGNED_IN, token);
    }
  });

  test('signing in again from the same browser rotates the session: new cookie, old one dead', async () => {
    const { email, password } = await registerTrader(t);
    const client = new Client(t);
    const first = sessionSetCookie(await client.post('/login.php', { email, password })).value;
    const second = sessionSetCookie(await client.post('/login.php', { email, password })).value;
    assert.notEqual(second, first);

    assert.deepEqual((await clientWithCookie(t, first).get('/testSession.php')).body, NOT_SIGNED_IN);
    assert.equal((await clientWithCookie(t, second).get('/testSession.php')).body.status, 'success');
    assert.equal((await client.get('/testSession.php')).body.status, 'success');
    const old = await t.ctx.db.selectFrom('sessions').select('revoked_at').where('id_hash', '=', createHash('sha256').update(first).digest('hex')).executeTakeFirstOrThrow();
    assert.notEqual(old.revoked_at, null);
  });

  test('signing in as someone else from a signed-in browser ends the previous session', async () => {
    const a = await registerTrader(t);
    const b = await registerTrader(t);
    const client = new Client(t);
    const first = sessionSetCookie(await client.post('/login.php', a)).value;
    await client.post('/login.php', b);
    assert.deepEqual((await clientWithCookie(t, first).get('/testSession.php')).body, NOT_SIGNED_IN);
    assert.equal((await client.get('/testSession.php')).body.user.email, b.email);
  });

  test('a failed sign-in does not disturb the session the browser already has', async () => {
    const { client, email } = await signedInTrader(t);
    const r = await client.post('/login.php', { email, password: 'definitely-wrong-1' });
    assert.equal(r.status, 401);
    assert.equal((await client.get('/testSession.php')).body.status, 'success');
  });

  test('logout.php revokes the session and clears the cookie', async () => {
    const { email, password } = await registerTrader(t);
    const client = new Client(t);
    const token = sessionSetCookie(await client.post('/login.php', { email, password, rememberMe: true })).value;
    const r = await client.post('/logout.php');
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { status: 'success', message: 'Signed out.' });
    const cleared = r.headers.getSetCookie().find((l) => l.startsWith('tp_session='));
    assert.ok(cleared, 'the cookie is cleared');
    assert.match(cleared, /^tp_session=;/);
    assert.match(cleared, /Expires=Thu, 01 Jan 1970/i);

    assert.deepEqual((await client.get('/testSession.php')).body, NOT_SIGNED_IN);
    // The server forgot the session, not just the browser: replaying the old cookie fails.
    const replay = clientWithCookie(t, token);
    assert.deepEqual((await replay.get('/testSession.php')).body, NOT_SIGNED_IN);
    assert.equal((await replay.get('/dashboard/customer/getProfileDetails.php')).status, 401);
  });

  test('logout.php without a session still answers success', async () => {
    const r = await new Client(t).post('/logout.php');
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { status: 'success', message: 'Signed out.' });
  });
});

describe('session lifetime (injected clock)', () => {
  let t: TestApp;
  before(async () => {
    t = await unthrottledApp();
  });
  after(() => t.close());

  const signInAs = async (rememberMe: boolean): Promise<string> => {
    const { email, password } = await registerTrader(t);
    return sessionSetCookie(await new Client(t).post('/login.php', { email, password, rememberMe })).value;
  };
  const sessionStatus = async (token: string) => (await clientWithCookie(t, token).get('/testSession.php')).body.status as string;

  test('a browser session stays alive while used and ends after sessionIdleMs of inactivity', async () => {
    const idle = t.config.sessionIdleMs;
    assert.equal(idle, 60 * MINUTE, 'default idle timeout is 60 minutes');
    const token = await signInAs(false);
    t.clock.advance(idle - 1000);
    assert.equal(await sessionStatus(token), 'success', 'used just before the idle limit');
    t.clock.advance(idle - 1000);
    assert.equal(await sessionStatus(token), 'success', 'activity restarted the idle timer');
    t.clock.advance(idle);
    assert.equal(await sessionStatus(token), 'Failure', 'idle for sessionIdleMs');
    // And it stays dead: going back to using it does not revive it.
    assert.equal(await sessionStatus(token), 'Failure');
  });

  test('a browser session ends after 24 hours even when kept busy', async () => {
    const token = await signInAs(false);
    const step = t.config.sessionIdleMs / 2;
    let elapsed = 0;
    while (elapsed + step < t.config.sessionMaxMs) {
      t.clock.advance(step);
      elapsed += step;
      assert.equal(await sessionStatus(token), 'success', `after ${elapsed / MINUTE} minutes`);
    }
    t.clock.advance(t.config.sessionMaxMs - elapsed);
    assert.equal(await sessionStatus(token), 'Failure');
  });

  test('a remembered session survives the idle period', async () => {
    const token = await signInAs(true);
    t.clock.advance(t.config.sessionIdleMs + MINUTE);
    assert.equal(await sessionStatus(token), 'success');
    t.clock.advance(3 * DAY);
    assert.equal(await sessionStatus(token), 'success', 'three untouched days later');
  });

  test('a remembered session ends 30 days after sign-in', async () => {
    const token = await signInAs(true);
    t.clock.advance(30 * DAY - MINUTE);
    assert.equal(await sessionStatus(token), 'success', 'one minute before 30 days');
    t.clock.advance(MINUTE);
    assert.equal(await sessionStatus(token), 'Failure', 'at 30 days');
  });
});

// ------------------------------------------------------------------------------------ lockout

describe('per-email sign-in lockout', () => {
  let t: TestApp;
  before(async () => {
    t = await unthrottledApp();
  });
  after(() => t.close());

  const signIn = (body: unknown) => new Client(t).post('/login.php', body);

  test('10 consecutive wrong passwords lock the email for 15 minutes, even for the right password', async () => {
    const { email, password } = await registerTrader(t);
    for (let i = 1; i <= 9; i++) {
      const r = await signIn({ email, password: `wrong-password-${i}` });
      assert.equal(r.status, 401, `attempt ${i}`);
      assert.deepEqual(r.body, WRONG_PASSWORD, `attempt ${i}`);
    }
    const tenth = await signIn({ email, password: 'wrong-password-10' });
    assert.equal(tenth.status, 429);
    assert.deepEqual(tenth.body, LOCKED_15);

    for (const attempt of [{ email, password }, { email: email.toUpperCase(), password }, { email, password: 'wrong-password-11' }]) {
      const r = await signIn(attempt);
      assert.equal(r.status, 429, JSON.stringify(attempt));
      assert.equal(r.body.status, 'Failure');
      assert.ok(String(r.body.message).includes('Too many failed sign-in attempts'), r.body.message);
      assert.equal(sessionCookieLines(r).length, 0);
    }

    t.clock.advance(14 * MINUTE);
    const later = await signIn({ email, password });
    assert.equal(later.status, 429);
    assert.deepEqual(later.body, { status: 'Failure', message: 'Too many failed sign-in attempts for this email. Please try again in 1 minute.' });

    t.clock.advance(MINUTE + 1000);
    const ok = await signIn({ email, password });
    assert.equal(ok.status, 200);
    assert.deepEqual(ok.body, { status: 'Success', accountType: '0', message: 'SignIn successful!' });
  });

  test('the lockout is per email: another account signs in normally', async () => {
    const victim = await registerTrader(t);
    const bystander = await registerTrader(t);
    for (let i = 0; i < 10; i++) await signIn({ email: victim.email, password: 'nope-nope-nope' });
    assert.equal((await signIn({ email: victim.email, password: victim.password })).status, 429);
    assert.equal((await signIn(bystander)).body.status, 'Success');
    t.clock.advance(15 * MINUTE + 1000);
  });

  test('a successful sign-in resets the failure count', async () => {
    const { email, password } = await registerTrader(t);
    for (let i = 0; i < 3; i++) assert.equal((await signIn({ email, password: 'wrong-password' })).status, 401);
    assert.equal((await signIn({ email, password })).body.status, 'Success');
    for (let i = 1; i <= 9; i++) {
      const r = await signIn({ email, password: 'wrong-password' });
      assert.equal(r.status, 401, `wrong attempt ${i} after the reset`);
      assert.deepEqual(r.body, WRONG_PASSWORD);
    }
    assert.equal((await signIn({ email, password })).body.status, 'Success', '12 failures in all, but never 10 in a row');
  });

  test('10 failed sign-ins on an unknown email lock it too', async () => {
    const email = uniqueEmail('ghost');
    for (let i = 1; i <= 9; i++) {
      const r = await signIn({ email, password: 'guess-guess-1' });
      assert.equal(r.status, 401, `attempt ${i}`);
      assert.equal(r.body.status, 'This account does not exist', `attempt ${i}`);
    }
    // The 10th failure sets the lock (today it is still answered 'This account does not exist').
    await signIn({ email, password: 'guess-guess-1' });
    const r = await signIn({ email, password: 'guess-guess-1' });
    assert.equal(r.status, 429);
    assert.deepEqual(r.body, LOCKED_15);
    t.clock.advance(15 * MINUTE + 1000);
  });

  test('25 simultaneous wrong passwords lock the email; at most 9 of them are checked', async () => {
    const { email, password } = await registerTrader(t);
    const replies = await Promise.all(Array.from({ length: 25 }, (_, i) => signIn({ email, password: `parallel-guess-${i}` })));
    for (const r of replies) assert.ok(r.status === 401 || r.status === 429, `unexpected ${r.status}`);
    const throttle = await t.ctx.db.selectFrom('login_throttle').select(['failures', 'locked_until']).where('email', '=', email).executeTakeFirst();
    const checked = replies.filter((r) => r.status === 401).length;
    assert.ok(checked <= 9, `${checked} of 25 wrong passwords were checked (401) instead of refused as locked (429); throttle row afterwards: ${JSON.stringify(throttle)}`);
    const right = await signIn({ email, password });
    assert.equal(right.status, 429, `the right password must be refused while locked; throttle row was ${JSON.stringify(throttle)}`);
    t.clock.advance(15 * MINUTE + 1000);
  });

  test('a wrong password that finishes after the lock was set does not lift the lock', async () => {
    const { email, password } = await registerTrader(t);
    for (let i = 1; i <= 8; i++) assert.equal((await signIn({ email, password: 'wrong-password' })).status, 401);
    // Attempts 9, 10 and 11 arrive together: all pass the lock check before any failure is recorded.
    const replies = await Promise.all([9, 10, 11].map((i) => signIn({ email, password: `wrong-password-${i}` })));
    const statuses = replies.map((r) => r.status).sort();
    const throttle = await t.ctx.db.selectFrom('login_throttle').select(['failures', 'locked_until']).where('email', '=', email).executeTakeFirst();
    const right = await signIn({ email, password });
    assert.equal(right.status, 429, `11 wrong passwords (answers ${statuses.join(', ')}) must leave the email locked; throttle row was ${JSON.stringify(throttle)}`);
    t.clock.advance(15 * MINUTE + 1000);
  });
});

// ------------------------------------------------------------------------------------ per-IP limits

describe('per-IP rate limits (defaults)', () => {
  describe('sign-up', () => {
    let t: TestApp;
    before(async () => {
      t = await startApp();
    });
    after(() => t.close());

    test('the 21st sign-up attempt within a minute from one IP is 429', async () => {
      assert.equal(t.config.signupRateLimitPerMinute, 20);
      const client = new Client(t);
      for (let i = 1; i <= 20; i++) {
        const r = await client.post('/registration.php', {});
        assert.equal(r.status, 400, `attempt ${i}`);
        assert.deepEqual(r.body, { status: 'Failure', message: 'Please enter your first name.' });
      }
      const r = await client.post('/registration.php', registrationBody());
      assert.equal(r.status, 429);
      assert.equal(r.body.status, 'Failure');
      assert.match(r.body.message, /^Too many attempts from your network\. Please wait \d+ seconds and try again\.$/);
      assert.equal(await countUsers(t), 1, 'only the bootstrap admin exists');
    });
  });

  describe('sign-in', () => {
    let t: TestApp;
    before(async () => {
      t = await startApp();
    });
    after(() => t.close());

    test('the 61st sign-in attempt within a minute from one IP is 429', async () => {
      assert.equal(t.config.signinRateLimitPerMinute, 60);
      const client = new Client(t);
      for (let i = 1; i <= 60; i++) {
        const r = await client.post('/login.php', { email: '', password: '' });
        assert.equal(r.status, 400, `attempt ${i}`);
      }
      const r = await client.post('/login.php', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
      assert.equal(r.status, 429);
      assert.equal(r.body.status, 'Failure');
      assert.match(r.body.message, /^Too many attempts from your network\. Please wait \d+ seconds and try again\.$/);
      assert.equal(sessionCookieLines(r).length, 0);
    });
  });
});

// ------------------------------------------------------------------------------------ CSRF

describe('CSRF guard on state-changing calls', () => {
  let t: TestApp;
  before(async () => {
    t = await unthrottledApp();
  });
  after(() => t.close());

  test('a POST with another site as Origin is 403 and changes nothing', async () => {
    const before = await countUsers(t);
    const evil = new Client(t, { origin: 'https://evil.example' });
    const body = registrationBody();
    const r = await evil.post('/registration.php', body);
    assert.equal(r.status, 403);
    assert.deepEqual(r.body, CROSS_SITE);
    assert.equal(await countUsers(t), before);

    const login = await evil.post('/login.php', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    assert.equal(login.status, 403);
    assert.deepEqual(login.body, CROSS_SITE);
    assert.equal(sessionCookieLines(login).length, 0);
  });

  test('a cross-site POST cannot sign a victim out', async () => {
    const { client: victim } = await signedInTrader(t);
    victim.origin = 'https://evil.example';
    const r = await victim.post('/logout.php');
    assert.equal(r.status, 403);
    assert.deepEqual(r.body, CROSS_SITE);
    assert.equal((await victim.get('/testSession.php')).body.status, 'success');
  });

  test('a cross-site POST from a signed-in admin changes nothing', async () => {
    const { client: trader, id } = await signedInTrader(t);
    const admin = await signedInAdmin(t);
    admin.origin = 'http://evil.example';
    const r = await admin.postForm('/dashboard/admin/editStatusTraders.php', { id, isActive: '0' });
    assert.equal(r.status, 403);
    assert.deepEqual(r.body, CROSS_SITE);
    const row = await t.ctx.db.selectFrom('users').select('is_active').where('id', '=', id).executeTakeFirstOrThrow();
    assert.equal(row.is_active, 1);
    assert.equal((await trader.get('/testSession.php')).body.status, 'success');
  });

  test('a POST with neither Origin nor Referer is 403', async () => {
    const before = await countUsers(t);
    const r = await new Client(t, { origin: null }).post('/registration.php', registrationBody());
    assert.equal(r.status, 403);
    assert.deepEqual(r.body, CROSS_SITE);
    assert.equal(await countUsers(t), before);
  });

  test("Origin 'null' or garbage is refused", async () => {
    for (const origin of ['null', 'not a url']) {
      const r = await new Client(t, { origin }).post('/login.php', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
      assert.equal(r.status, 403, origin);
      assert.deepEqual(r.body, CROSS_SITE, origin);
    }
  });

  test('a cross-site Origin wins over a same-site Referer', async () => {
    const r = await new Client(t, { origin: 'https://evil.example' }).post('/login.php', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD }, { referer: `${t.origin}/` });
    assert.equal(r.status, 403);
    assert.deepEqual(r.body, CROSS_SITE);
  });

  test('a POST with only a same-site Referer is accepted', async () => {
    const client = new Client(t, { origin: null });
    const body = registrationBody();
    const r = await client.post('/registration.php', body, { referer: `${t.origin}/signup` });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, SIGNED_UP);
    const login = await client.post('/login.php', { email: body.email, password: body.password }, { referer: `${t.origin}/` });
    assert.equal(login.body.status, 'Success');
  });

  test('a POST whose Referer is another site is 403', async () => {
    const r = await new Client(t, { origin: null }).post('/login.php', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD }, { referer: 'https://evil.example/page' });
    assert.equal(r.status, 403);
    assert.deepEqual(r.body, CROSS_SITE);
  });

  test('GET calls need no Origin', async () => {
    const r = await new Client(t, { origin: null }).get('/getCountries.php');
    assert.equal(r.status, 200);
  });
});

// ------------------------------------------------------------------------------------ roles

describe('access by role', () => {
  let t: TestApp;
  before(async () => {
    t = await unthrottledApp();
  });
  after(() => t.close());

  test('an anonymous caller gets 401 Failure from a signed-in call', async () => {
    const r = await new Client(t).get('/dashboard/customer/getProfileDetails.php');
    assert.equal(r.status, 401);
    assert.deepEqual(r.body, { status: 'Failure', message: 'Please sign in to continue.' });
  });

  test('a trader gets 403 from an admin call', async () => {
    const { client } = await signedInTrader(t);
    const r = await client.get('/dashboard/admin/getTraders.php');
    assert.equal(r.status, 403);
    assert.deepEqual(r.body, { status: 'Failure', message: 'This action is for back-office staff only.' });
  });

  test('a trader reads their own profile once signed in', async () => {
    const { client, email, id } = await signedInTrader(t);
    const r = await client.get('/dashboard/customer/getProfileDetails.php');
    assert.equal(r.status, 200);
    assert.equal(r.body.data[0].id, id);
    assert.equal(r.body.data[0].email, email);
  });
});
