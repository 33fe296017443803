import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request as httpRequest } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { loadConfig } from '../src/config';
import { outboxFileTime, type OutboxFile } from '../src/mail/mailer';
import { startApp, type TestApp } from './helpers/app';
import { Client, signedInAdmin, signedInTrader, uniqueEmail } from './helpers/client';

/**
 * "Forgot your password?" over real HTTP: the request never tells whether an account exists, the
 * link is one-time, hashed at rest, valid 30 minutes and only while it is the newest; a reset ends
 * every session. Mails land in the app's dev outbox (or a local SMTP server in the last suite).
 */

const MINUTE = 60_000;
const REQUESTED = { status: 'success', message: 'If an account exists for that email, we have sent a link to reset its password.' };
const RESET_DONE = { status: 'success', message: 'Your password has been reset. You can now sign in with your new password.' };
const INVALID_LINK = { status: 'Failure', message: 'This reset link is invalid or has expired.' };
const NOT_SIGNED_IN = { status: 'Failure', message: 'Not signed in.' };
const NEW_PASSWORD = 'amber-lighthouse-77';

const unthrottledApp = (extra: Parameters<typeof startApp>[0] = {}) =>
  startApp({ ...extra, config: { signinRateLimitPerMinute: 1000, signupRateLimitPerMinute: 1000, passwordResetRateLimitPerMinute: 1000, ...extra.config } });

/** Asks for a reset link and waits for the work done after the answer (the link, the mail) to finish. */
async function requestReset(t: TestApp, email: string) {
  const answer = await new Client(t).post('/requestPasswordReset.php', { email });
  await t.ctx.mailer.idle();
  return answer;
}
const reset = (t: TestApp, token: string, newPassword = NEW_PASSWORD) => new Client(t).post('/resetPassword.php', { token, newPassword });

/** The token in a reset mail's link. */
function tokenOf(mail: OutboxFile): string {
  const match = /\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail.text);
  assert.ok(match, `no reset link in:\n${mail.text}`);
  return match[1]!;
}

async function mailsTo(t: TestApp, email: string): Promise<OutboxFile[]> {
  return (await t.outbox()).filter((m) => m.to === email);
}

async function lastTokenFor(t: TestApp, email: string): Promise<string> {
  const mails = await mailsTo(t, email);
  assert.ok(mails.length > 0, `no mail to ${email}`);
  return tokenOf(mails.at(-1)!);
}

describe('POST /api/requestPasswordReset.php', () => {
  let t: TestApp;
  before(async () => {
    t = await unthrottledApp();
  });
  after(() => t.close());

  test('an active account gets one mail with a one-time link to /reset-password; the answer reveals nothing', async () => {
    const trader = await signedInTrader(t, { firstName: 'Ada' });
    const r = await requestReset(t, trader.email);
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, REQUESTED);
    const mails = await mailsTo(t, trader.email);
    assert.equal(mails.length, 1);
    const mail = mails[0]!;
    assert.deepEqual(Object.keys(mail).sort(), ['html', 'sentAt', 'subject', 'text', 'to']);
    assert.equal(mail.subject, 'Reset your password');
    assert.equal(mail.sentAt, new Date(t.clock.now()).toISOString());
    // No user-typed text in the broker's mail (security review finding 4): not even the name.
    assert.match(mail.text, /^Hello,\n/);
    assert.ok(!mail.text.includes('Ada') && !mail.html?.includes('Ada'));
    assert.match(mail.text, /within 30 minutes/);
    const token = tokenOf(mail);
    assert.match(token, /^[A-Za-z0-9_-]{43}$/, '256 random bits, base64url');
    assert.ok(mail.text.includes(`http://localhost:8080/reset-password?token=${token}`), 'the link uses http://localhost:<PORT> without PUBLIC_ORIGIN');
    assert.ok(mail.html?.includes(`href="http://localhost:8080/reset-password?token=${token}"`));
    // Stored hashed: the database alone cannot be used to reset a password.
    const rows = await t.ctx.db.selectFrom('password_resets').select(['token_hash', 'expires_at', 'created_at', 'used_at']).where('user_id', '=', trader.id).execute();
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.token_hash, createHash('sha256').update(token).digest('hex'));
    assert.equal(rows[0]!.expires_at - rows[0]!.created_at, 30 * MINUTE);
    assert.equal(rows[0]!.used_at, null);
    const activity = await trader.client.get('/dashboard/customer/getActivity.php');
    assert.equal(activity.body.data[0].activity, 'Password reset requested');
  });

  test('an unknown email gets the same answer and no mail; the email is matched case-insensitively', async () => {
    const before = (await t.outbox()).length;
    const unknown = await requestReset(t, uniqueEmail('nobody'));
    assert.equal(unknown.status, 200);
    assert.deepEqual(unknown.body, REQUESTED);
    assert.equal((await t.outbox()).length, before);

    const trader = await signedInTrader(t);
    assert.deepEqual((await requestReset(t, `  ${trader.email.toUpperCase()} `)).body, REQUESTED);
    assert.equal((await mailsTo(t, trader.email)).length, 1);
  });

  test('a deactivated account gets the same answer and no mail', async () => {
    const trader = await signedInTrader(t);
    const admin = await signedInAdmin(t);
    assert.equal((await admin.postForm('/dashboard/admin/editStatusTraders.php', { id: trader.id, isActive: 0 })).body.status, 'success');
    assert.deepEqual((await requestReset(t, trader.email)).body, REQUESTED);
    assert.deepEqual(await mailsTo(t, trader.email), []);
  });

  test('a missing or malformed email is refused with the sign-up form messages', async () => {
    for (const [body, message] of [
      [{}, 'Please enter your email address.'],
      [{ email: '   ' }, 'Please enter your email address.'],
      [{ email: 'not-an-email' }, 'Please enter a valid email address.'],
      [{ email: 42 }, 'Please enter a valid email address.'],
    ] as const) {
      const r = await new Client(t).post('/requestPasswordReset.php', body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.deepEqual(r.body, { status: 'Failure', message }, JSON.stringify(body));
    }
  });

  test('at most 3 mails per account per hour; further requests get the same answer and no mail', async () => {
    const trader = await signedInTrader(t);
    for (let i = 0; i < 5; i++) assert.deepEqual((await requestReset(t, trader.email)).body, REQUESTED);
    assert.equal((await mailsTo(t, trader.email)).length, 3);
    t.clock.advance(61 * MINUTE);
    assert.deepEqual((await requestReset(t, trader.email)).body, REQUESTED);
    assert.equal((await mailsTo(t, trader.email)).length, 4);
  });

  test('the answer does not wait for the account\'s work, so its timing does not tell whether the account exists (PostgreSQL)', async (ctx) => {
    // Made observable by slowing the account's work down on purpose: a trigger sleeps 300 ms in
    // every new link's insert. Only PostgreSQL can sleep without blocking this process (the test
    // client shares it with the server); on SQLite the test is skipped.
    if (t.ctx.engine !== 'postgres') return ctx.skip('needs PostgreSQL (pg_sleep in a trigger)');
    await sql`create function tp_slow_insert() returns trigger language plpgsql as $$ begin perform pg_sleep(0.3); return new; end $$`.execute(t.ctx.db);
    await sql`create trigger tp_slow_reset before insert on password_resets for each row execute function tp_slow_insert()`.execute(t.ctx.db);
    try {
      const trader = await signedInTrader(t);
      const timed = async (email: string) => {
        const started = performance.now();
        const r = await new Client(t).post('/requestPasswordReset.php', { email });
        assert.deepEqual(r.body, REQUESTED);
        return performance.now() - started;
      };
      const known = await timed(trader.email);
      const unknown = await timed(uniqueEmail('nobody'));
      assert.ok(known < 150, `an existing account's answer waited for its work: ${known.toFixed(0)} ms (unknown: ${unknown.toFixed(0)} ms)`);
      // The work was still done, after the answer.
      assert.equal((await mailsTo(t, trader.email)).length, 1);
    } finally {
      await sql`drop trigger tp_slow_reset on password_resets`.execute(t.ctx.db);
      await sql`drop function tp_slow_insert()`.execute(t.ctx.db);
    }
  });

  test('needs the Origin of this site, like every POST', async () => {
    const r = await new Client(t, { origin: 'https://evil.example' }).post('/requestPasswordReset.php', { email: 'a@example.com' });
    assert.equal(r.status, 403);
  });
});

describe('POST /api/resetPassword.php', () => {
  let t: TestApp;
  before(async () => {
    t = await unthrottledApp();
  });
  after(() => t.close());

  test('sets the new password, ends every session, writes the activity log; the link then stops working', async () => {
    const trader = await signedInTrader(t);
    const otherDevice = new Client(t);
    assert.equal((await otherDevice.post('/login.php', { email: trader.email, password: trader.password, rememberMe: true })).body.status, 'Success');
    await requestReset(t, trader.email);
    const token = await lastTokenFor(t, trader.email);

    const r = await reset(t, token);
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, RESET_DONE);

    assert.deepEqual((await trader.client.get('/testSession.php')).body, NOT_SIGNED_IN);
    assert.deepEqual((await otherDevice.get('/testSession.php')).body, NOT_SIGNED_IN);
    const old = await new Client(t).post('/login.php', { email: trader.email, password: trader.password });
    assert.equal(old.status, 401);
    const fresh = new Client(t);
    assert.equal((await fresh.post('/login.php', { email: trader.email, password: NEW_PASSWORD })).body.status, 'Success');
    const activity = (await fresh.get('/dashboard/customer/getActivity.php')).body.data as { activity: string; details: string }[];
    assert.deepEqual(activity.slice(0, 3).map((a) => a.activity), ['Signed in', 'Failed sign-in attempt', 'Password reset']);
    assert.equal(activity[2]!.details, 'Password reset with an emailed link; all sessions ended');

    const again = await reset(t, token, 'another-harbour-31');
    assert.equal(again.status, 400);
    assert.deepEqual(again.body, INVALID_LINK);
    const row = await t.ctx.db.selectFrom('password_resets').select('used_at').where('user_id', '=', trader.id).executeTakeFirstOrThrow();
    assert.equal(row.used_at, t.clock.now());
  });

  test('applies the password policy with the sign-up messages, and the link stays usable after a refusal', async () => {
    const trader = await signedInTrader(t);
    await requestReset(t, trader.email);
    const token = await lastTokenFor(t, trader.email);
    for (const [password, message] of [
      ['short', 'Password must be at least 8 characters.'],
      ['password1', 'This password is too common. Please choose a less predictable one.'],
      [trader.email, 'Your password must not be the same as your email address.'],
      ['x'.repeat(129), 'Password must be at most 128 characters.'],
      ['', 'Please enter a new password.'],
    ]) {
      const r = await reset(t, token, password);
      assert.equal(r.status, 400, password);
      assert.deepEqual(r.body, { status: 'Failure', message }, password);
    }
    assert.deepEqual((await new Client(t).post('/resetPassword.php', { token })).body, { status: 'Failure', message: 'Please enter a new password.' });
    assert.deepEqual((await reset(t, token)).body, RESET_DONE);
  });

  test('a link expires after 30 minutes', async () => {
    const trader = await signedInTrader(t);
    await requestReset(t, trader.email);
    const token = await lastTokenFor(t, trader.email);
    t.clock.advance(30 * MINUTE);
    assert.deepEqual((await reset(t, token)).body, INVALID_LINK);
    // One that is still inside its 30 minutes works.
    await requestReset(t, trader.email);
    t.clock.advance(30 * MINUTE - 1000);
    assert.deepEqual((await reset(t, await lastTokenFor(t, trader.email))).body, RESET_DONE);
  });

  test('a newer link retires the earlier ones', async () => {
    const trader = await signedInTrader(t);
    await requestReset(t, trader.email);
    const first = await lastTokenFor(t, trader.email);
    await requestReset(t, trader.email);
    const second = await lastTokenFor(t, trader.email);
    assert.notEqual(first, second);
    assert.deepEqual((await reset(t, first)).body, INVALID_LINK);
    assert.deepEqual((await reset(t, second)).body, RESET_DONE);
  });

  test('unknown, malformed or missing tokens get the same refusal', async () => {
    for (const token of ['', 'abc', 'A'.repeat(43), 'A'.repeat(44), '../../etc/passwd', 'a'.repeat(5000)]) {
      const r = await reset(t, token);
      assert.equal(r.status, 400, token.slice(0, 20));
      assert.deepEqual(r.body, INVALID_LINK, token.slice(0, 20));
    }
    assert.deepEqual((await new Client(t).post('/resetPassword.php', { newPassword: NEW_PASSWORD })).body, INVALID_LINK);
    assert.deepEqual((await new Client(t).post('/resetPassword.php', { token: 12, newPassword: NEW_PASSWORD })).body, INVALID_LINK);
  });

  test('a link of an account deactivated after it was sent does not work', async () => {
    const trader = await signedInTrader(t);
    await requestReset(t, trader.email);
    const token = await lastTokenFor(t, trader.email);
    const admin = await signedInAdmin(t);
    await admin.postForm('/dashboard/admin/editStatusTraders.php', { id: trader.id, isActive: 0 });
    assert.deepEqual((await reset(t, token)).body, INVALID_LINK);
  });

  test('changing the password another way retires every outstanding link: the trader\'s own change and an administrator\'s', async () => {
    const own = await signedInTrader(t);
    await requestReset(t, own.email);
    const ownToken = await lastTokenFor(t, own.email);
    const changed = await own.client.post('/dashboard/customer/changePassword.php', { currentPassword: own.password, newPassword: 'copper-kettle-harbour-58' });
    assert.equal(changed.body.status, 'success', JSON.stringify(changed.body));
    assert.deepEqual((await reset(t, ownToken)).body, INVALID_LINK);
    assert.equal((await new Client(t).post('/login.php', { email: own.email, password: 'copper-kettle-harbour-58' })).body.status, 'Success');

    const byAdmin = await signedInTrader(t);
    await requestReset(t, byAdmin.email);
    const adminToken = await lastTokenFor(t, byAdmin.email);
    const admin = await signedInAdmin(t);
    const set = await admin.postForm('/dashboard/admin/editTraderPassword.php', { trader_id: byAdmin.id, newPassword: 'violet-orchard-lantern-42' });
    assert.equal(set.body.status, 'success', JSON.stringify(set.body));
    assert.deepEqual((await reset(t, adminToken)).body, INVALID_LINK);
    assert.equal((await new Client(t).post('/login.php', { email: byAdmin.email, password: 'violet-orchard-lantern-42' })).body.status, 'Success');
  });

  test('a link sent before a deactivation stays dead after the account is reactivated', async () => {
    const trader = await signedInTrader(t);
    await requestReset(t, trader.email);
    const token = await lastTokenFor(t, trader.email);
    const admin = await signedInAdmin(t);
    await admin.postForm('/dashboard/admin/editStatusTraders.php', { id: trader.id, isActive: 0 });
    await admin.postForm('/dashboard/admin/editStatusTraders.php', { id: trader.id, isActive: 1 });
    assert.deepEqual((await reset(t, token)).body, INVALID_LINK);
    assert.equal((await new Client(t).post('/login.php', { email: trader.email, password: trader.password })).body.status, 'Success');
    const live = await t.ctx.db.selectFrom('password_resets').select('id').where('user_id', '=', trader.id).where('revoked_at', 'is', null).where('used_at', 'is', null).execute();
    assert.equal(live.length, 0);
  });

  test('a reset retires the account\'s other outstanding links too', async () => {
    const trader = await signedInTrader(t);
    await requestReset(t, trader.email);
    const token = await lastTokenFor(t, trader.email);
    // A second live link written directly (as an older build could have left): the reset must retire it.
    await t.ctx.db.insertInto('password_resets').values({ token_hash: 'f'.repeat(64), user_id: trader.id, created_at: t.clock.now(), expires_at: t.clock.now() + 30 * MINUTE, used_at: null, revoked_at: null, ip: '127.0.0.1' }).execute();
    assert.deepEqual((await reset(t, token)).body, RESET_DONE);
    const live = await t.ctx.db.selectFrom('password_resets').select('id').where('user_id', '=', trader.id).where('revoked_at', 'is', null).where('used_at', 'is', null).execute();
    assert.equal(live.length, 0);
  });

  test('two resets racing with one link: exactly one wins', async () => {
    const trader = await signedInTrader(t);
    await requestReset(t, trader.email);
    const token = await lastTokenFor(t, trader.email);
    const results = await Promise.all([reset(t, token, 'first-racer-pass-1'), reset(t, token, 'second-racer-pass-2')]);
    assert.deepEqual(results.map((r) => r.body.status).sort(), ['Failure', 'success']);
    const winner = results.findIndex((r) => r.body.status === 'success') === 0 ? 'first-racer-pass-1' : 'second-racer-pass-2';
    assert.equal((await new Client(t).post('/login.php', { email: trader.email, password: winner })).body.status, 'Success');
  });

  test('a reset lifts a sign-in lock from earlier wrong guesses', async () => {
    const trader = await signedInTrader(t);
    for (let i = 0; i < 10; i++) await new Client(t).post('/login.php', { email: trader.email, password: 'wrong-password-x' });
    assert.equal((await new Client(t).post('/login.php', { email: trader.email, password: trader.password })).status, 429);
    await requestReset(t, trader.email);
    assert.deepEqual((await reset(t, await lastTokenFor(t, trader.email))).body, RESET_DONE);
    assert.equal((await new Client(t).post('/login.php', { email: trader.email, password: NEW_PASSWORD })).body.status, 'Success');
  });
});

describe('password reset: what is logged', () => {
  test('each outbox mail is logged at info with recipient and subject, never the token', async () => {
    const lines: string[] = [];
    const t = await unthrottledApp({ logLines: lines });
    try {
      const trader = await signedInTrader(t);
      await requestReset(t, trader.email);
      const token = await lastTokenFor(t, trader.email);
      assert.deepEqual((await reset(t, token)).body, RESET_DONE);
      const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
      const mailLines = entries.filter((e) => String(e.msg).startsWith('mail not sent (SMTP_URL is not set)'));
      assert.equal(mailLines.length, 1);
      assert.equal(mailLines[0]!.level, 30);
      assert.equal(mailLines[0]!.to, trader.email);
      assert.equal(mailLines[0]!.subject, 'Reset your password');
      // Start-up warns that mail is not being sent (finding 5), at warn level.
      const warning = entries.find((e) => String(e.msg).startsWith('SMTP_URL is not set: no mail is sent.'));
      assert.ok(warning, 'start-up says mail is not sent and where it goes');
      assert.equal(warning.level, 40);
      assert.match(String(warning.msg), /deleted after 30 minutes; set SMTP_URL to send them/);
      assert.ok(!lines.some((l) => l.includes(token)), 'the token appears in no log line');
      assert.ok(!lines.some((l) => l.includes(NEW_PASSWORD)), 'nor the new password');
    } finally {
      await t.close();
    }
  });
});

describe('password reset: the dev outbox does not keep links', () => {
  test('outbox mails are deleted once their link has expired; newer mails and files the server did not write stay', async () => {
    const t = await unthrottledApp();
    try {
      const trader = await signedInTrader(t);
      await requestReset(t, trader.email);
      assert.equal((await mailsTo(t, trader.email)).length, 1);
      const dir = t.config.mail.outboxDir;
      writeFileSync(join(dir, 'notes.txt'), 'kept');
      t.clock.advance(20 * MINUTE);
      await requestReset(t, trader.email);
      assert.equal(await t.ctx.mailer.pruneOutbox(), 0, 'nothing is 30 minutes old yet');
      t.clock.advance(10 * MINUTE);
      assert.equal(await t.ctx.mailer.pruneOutbox(), 1, 'the first link expired: its mail is deleted');
      const left = await mailsTo(t, trader.email);
      assert.equal(left.length, 1);
      assert.equal(left[0]!.sentAt, new Date(t.clock.now() - 10 * MINUTE).toISOString());
      t.clock.advance(20 * MINUTE);
      assert.equal(await t.ctx.mailer.pruneOutbox(), 1);
      assert.deepEqual(readdirSync(dir), ['notes.txt']);
    } finally {
      await t.close();
    }
  });

  test('outbox file names carry their sending time; other names are not ours', () => {
    assert.equal(outboxFileTime('2026-03-04T10-00-00-000Z-000001-ab12cd34.json'), Date.parse('2026-03-04T10:00:00.000Z'));
    for (const name of ['notes.txt', '.2026-03-04T10-00-00-000Z-000001-ab12cd34.json.tmp', '2026-03-04T10-00-00-000Z.json', '../2026-03-04T10-00-00-000Z-000001-ab12cd34.json']) assert.equal(outboxFileTime(name), null, name);
  });
});

describe('password reset: per-IP limit and the link origin', () => {
  let limited: TestApp;
  let proxied: TestApp;
  before(async () => {
    limited = await startApp({ config: { passwordResetRateLimitPerMinute: 3 } });
    const { publicOrigins, publicUrl } = loadConfig({ PUBLIC_ORIGIN: 'https://trade.example.com,https://alt.example.com' });
    proxied = await unthrottledApp({ config: { publicOrigins, publicUrl } });
  });
  after(async () => {
    await limited.close();
    await proxied.close();
  });

  test('requests per IP per minute are limited with 429 and a wait', async () => {
    for (let i = 0; i < 3; i++) assert.equal((await requestReset(limited, uniqueEmail())).status, 200);
    const r = await requestReset(limited, uniqueEmail());
    assert.equal(r.status, 429);
    assert.equal(r.body.status, 'Failure');
    assert.match(r.body.message, /^Too many attempts from your network\. Please wait \d+ seconds and try again\.$/);
  });

  test("the link uses the first PUBLIC_ORIGIN, never the request's Host header", async () => {
    const trader = await signedInTrader(proxied);
    // A forged Host with a matching Origin passes the same-site check; it must not reach the link.
    const status = await new Promise<number>((resolve, reject) => {
      const body = JSON.stringify({ email: trader.email });
      const req = httpRequest(`${proxied.url}/requestPasswordReset.php`, { method: 'POST', headers: { host: 'evil.example', origin: 'http://evil.example', 'x-forwarded-host': 'evil.example', 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end(body);
    });
    assert.equal(status, 200);
    const [mail] = await mailsTo(proxied, trader.email);
    assert.ok(mail, 'a mail was sent');
    assert.ok(mail.text.includes(`https://trade.example.com/reset-password?token=${tokenOf(mail)}`));
    assert.doesNotMatch(JSON.stringify(mail), /evil\.example/);
  });
});

/** Just enough of SMTP (RFC 5321) to receive what nodemailer sends, without TLS or auth. */
async function fakeSmtpServer(): Promise<{ url: string; received: { from: string; to: string[]; data: string }[]; close(): Promise<void> }> {
  const received: { from: string; to: string[]; data: string }[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let buffer = '';
    let inData = false;
    let mail = { from: '', to: [] as string[], data: '' };
    socket.write('220 localhost ESMTP test\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end === -1) return;
          mail.data = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          inData = false;
          received.push(mail);
          mail = { from: '', to: [], data: '' };
          socket.write('250 OK queued\r\n');
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol === -1) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'MAIL') mail.from = line;
        if (verb === 'RCPT') mail.to.push(line);
        if (verb === 'DATA') inData = true;
        if (verb === 'QUIT') socket.end('221 Bye\r\n');
        else socket.write(verb === 'DATA' ? '354 End data with <CR><LF>.<CR><LF>\r\n' : verb === 'EHLO' || verb === 'HELO' ? '250 localhost\r\n' : '250 OK\r\n');
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

describe('password reset mail over SMTP (SMTP_URL)', () => {
  let smtp: Awaited<ReturnType<typeof fakeSmtpServer>>;
  let t: TestApp;
  before(async () => {
    smtp = await fakeSmtpServer();
    const mail = loadConfig({ SMTP_URL: smtp.url, MAIL_FROM: 'Broker Support <support@broker.example>' }).mail;
    t = await unthrottledApp({ config: { mail } });
  });
  after(async () => {
    await t.close();
    await smtp.close();
  });

  test('the mail goes to the SMTP server from MAIL_FROM, and nothing is written to the outbox', async () => {
    const trader = await signedInTrader(t);
    assert.deepEqual((await requestReset(t, trader.email)).body, REQUESTED);
    await t.ctx.mailer.idle();
    assert.equal(smtp.received.length, 1);
    const [mail] = smtp.received;
    assert.match(mail!.from, /<support@broker\.example>/);
    assert.deepEqual(mail!.to.map((l) => /<([^>]+)>/.exec(l)?.[1]), [trader.email]);
    assert.match(mail!.data, /^Subject: Reset your password$/m);
    assert.match(mail!.data, /^From: Broker Support <support@broker\.example>$/m);
    assert.deepEqual(await t.outbox(), []);
    // The link arrives intact (quoted-printable may wrap it; undo the soft line breaks).
    const body = mail!.data.replace(/=\r\n/g, '').replace(/=3D/g, '=');
    const token = /reset-password\?token=([A-Za-z0-9_-]{43})/.exec(body)?.[1];
    assert.ok(token, 'the mail carries the link');
    assert.deepEqual((await reset(t, token)).body, RESET_DONE);
  });
});

describe('mail settings', () => {
  test('SMTP_URL, MAIL_FROM and MAIL_OUTBOX_DIR are validated with clear messages; defaults apply', () => {
    const defaults = loadConfig({}).mail;
    assert.deepEqual(defaults, { smtpUrl: null, from: 'Tradeport <no-reply@localhost>', outboxDir: './data/outbox' });
    assert.equal(loadConfig({ SMTP_URL: 'smtps://user:p%40ss@mail.example.com:465' }).mail.smtpUrl, 'smtps://user:p%40ss@mail.example.com:465');
    assert.equal(loadConfig({ MAIL_FROM: 'support@broker.example' }).mail.from, 'support@broker.example');
    for (const bad of ['http://mail.example.com', 'mail.example.com:25', 'smtp://', 'smtp://host/path']) {
      assert.throws(() => loadConfig({ SMTP_URL: bad }), /SMTP_URL must be smtp:\/\/\[user:password@\]host\[:port\] or smtps:\/\//, bad);
    }
    for (const bad of ['Broker', 'Broker <support>', 'a b@example.com', 'Broker <support@example.com']) {
      assert.throws(() => loadConfig({ MAIL_FROM: bad }), /MAIL_FROM must be an address, with an optional name/, bad);
    }
    assert.throws(() => loadConfig({ PASSWORD_RESET_RATE_LIMIT_PER_MINUTE: '0' }), /PASSWORD_RESET_RATE_LIMIT_PER_MINUTE must be at least 1/);
  });

  test('links point at the first PUBLIC_ORIGIN, else http://localhost:<PORT>', () => {
    assert.equal(loadConfig({}).publicUrl, 'http://localhost:8080');
    assert.equal(loadConfig({ PORT: '3000' }).publicUrl, 'http://localhost:3000');
    assert.equal(loadConfig({ PUBLIC_ORIGIN: 'https://trade.example.com, https://other.example.com' }).publicUrl, 'https://trade.example.com');
  });
});
