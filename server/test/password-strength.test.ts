import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from './helpers/app';
import { Client, registrationBody, signedInAdmin, signedInTrader } from './helpers/client';

/**
 * Security review finding 6: the password policy is a strength score (zxcvbn-ts, score 3 or more)
 * on every path that sets a password, with the person's own words counted as guessable; and the
 * meter under password fields asks the server, so it says exactly what the server will decide.
 */

const WEAK = ['87654321', 'abcdefgh', 'tradeport', 'Summer2024', 'Qwerty123!'];

describe('password strength', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp({ config: { signupRateLimitPerMinute: 100_000, signinRateLimitPerMinute: 100_000, passwordResetRateLimitPerMinute: 100_000 } });
  });
  after(() => t.close());

  const strength = (body: Record<string, unknown>, client = new Client(t)) => client.post('/passwordStrength.php', body);

  test("the review's weak passwords are refused at sign-up, by a password change and by an administrator, and nothing changes", async () => {
    const users = async () => Number((await t.ctx.db.selectFrom('users').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const before = await users();
    for (const password of WEAK) {
      const r = await new Client(t).post('/registration.php', registrationBody({ password }));
      assert.equal(r.status, 400, password);
      assert.equal(r.body.status, 'Failure', password);
      assert.match(r.body.message, /^This password is too (easy to guess|common)/, password);
    }
    assert.equal(await users(), before);

    const trader = await signedInTrader(t);
    const admin = await signedInAdmin(t);
    for (const password of WEAK) {
      const change = await trader.client.post('/dashboard/customer/changePassword.php', { currentPassword: trader.password, newPassword: password });
      assert.equal(change.body.status, 'Failure', password);
      const set = await admin.postForm('/dashboard/admin/editTraderPassword.php', { trader_id: trader.id, newPassword: password });
      assert.equal(set.body.status, 'Failure', password);
    }
    assert.equal((await new Client(t).post('/login.php', { email: trader.email, password: trader.password })).body.status, 'Success');
  });

  test("a password built from the person's own name or email is refused at sign-up though it is strong for someone else", async () => {
    const password = 'ravensworth88';
    const other = await new Client(t).post('/registration.php', registrationBody({ password }));
    assert.equal(other.body.status, 'Success', JSON.stringify(other.body));
    const own = await new Client(t).post('/registration.php', registrationBody({ lastName: 'Ravensworth', password }));
    assert.equal(own.body.status, 'Failure');
    assert.match(own.body.message, /too easy to guess/);
  });

  test('the meter gives the score, the refusal the server would give, and advice; a strong password is acceptable', async () => {
    const weak = await strength({ password: 'Summer2024' });
    assert.equal(weak.status, 200);
    assert.equal(weak.body.status, 'success');
    assert.ok(weak.body.score < 3);
    assert.equal(weak.body.acceptable, false);
    assert.match(weak.body.message, /^This password is too easy to guess\./);
    assert.ok(Array.isArray(weak.body.suggestions) && weak.body.suggestions.length > 0);
    // The meter's verdict is the server's: the same password is refused by sign-up with the same message.
    const signup = await new Client(t).post('/registration.php', registrationBody({ password: 'Summer2024' }));
    assert.equal(signup.body.message, weak.body.message);

    const strong = await strength({ password: 'copper-kettle-harbour-58' });
    assert.deepEqual({ ...strong.body, suggestions: [] }, { status: 'success', score: 4, acceptable: true, message: null, warning: null, suggestions: [] });
    const short = await strength({ password: 'abc' });
    assert.equal(short.body.message, 'Password must be at least 8 characters.');
  });

  test("the meter counts the sign-up form's name and email, the signed-in caller's own details, and a reset link's account as guessable", async () => {
    assert.equal((await strength({ password: 'ravensworth88' })).body.acceptable, true);
    assert.equal((await strength({ password: 'ravensworth88', lastName: 'Ravensworth' })).body.acceptable, false);
    assert.equal((await strength({ password: 'ravensworth88', email: 'ravensworth@example.com' })).body.acceptable, false);

    const me = await signedInTrader(t, { lastName: 'Ravensworth' });
    assert.equal((await strength({ password: 'ravensworth88' }, me.client)).body.acceptable, false, "a signed-in caller's own name counts");

    const resetee = await signedInTrader(t, { firstName: 'Kowalczyk' });
    await new Client(t).post('/requestPasswordReset.php', { email: resetee.email });
    const mail = (await t.outbox()).filter((m) => m.to === resetee.email).at(-1)!;
    const token = /token=([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
    assert.equal((await strength({ password: 'kowalczyk-2024' })).body.acceptable, true);
    assert.equal((await strength({ password: 'kowalczyk-2024', token })).body.acceptable, false, "the link's account name counts");
  });

  test('bad input is refused in the spec shape; the password never reaches the log', async () => {
    const lines: string[] = [];
    const logged = await startApp({ logLines: lines });
    try {
      for (const body of [{}, { password: 5 }, { password: 'x'.repeat(129) }, { password: 'ok-password', email: 'x'.repeat(300) }]) {
        const r = await new Client(logged).post('/passwordStrength.php', body);
        assert.equal(r.status, 400, JSON.stringify(body).slice(0, 60));
        assert.equal(r.body.status, 'Failure');
      }
      const secret = 'unmistakable-secret-9917';
      assert.equal((await new Client(logged).post('/passwordStrength.php', { password: secret })).status, 200);
      assert.ok(!lines.some((l) => l.includes(secret)));
    } finally {
      await logged.close();
    }
  });
});
