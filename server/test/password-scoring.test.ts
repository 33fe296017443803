import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createPasswordPolicy, repeatsShorter } from '../src/domain/password-policy';
import { Refusal } from '../src/services/errors';
import { SCORING_BUSY_MESSAGE, SCORING_TIMEOUT_MESSAGE, ScoringPool } from '../src/services/password-scoring';
import { startApp, type TestApp } from './helpers/app';
import { Client, registrationBody, signedInTrader } from './helpers/client';

/**
 * Security review finding 1: password scoring runs in a bounded pool of worker threads — a bound
 * on scorings at once and waiting, a time limit on each — and the calls that score are limited
 * (the meter per address, password changes per user), so no request can hold the event loop and
 * none can make the server queue scorings without end.
 */

const HANGING_WORKER = new URL('./fixtures/scoring-worker-that-hangs.mjs', import.meta.url);
const refusedWith = (message: string) => (err: unknown) => err instanceof Refusal && err.kind === 'unavailable' && err.message === message;

describe('the scoring pool', () => {
  test('scorings beyond the waiting room are refused at once; a stuck scoring is refused after the time limit, its thread replaced, and the waiting ones answered', async () => {
    const pool = new ScoringPool({ workers: 1, queueLimit: 2, timeoutMs: 500, startTimeoutMs: 30_000, maxLength: 32, workerUrl: HANGING_WORKER });
    try {
      const stuck = pool.score('hang-on-this-one', []);
      const waiting = [pool.score('first-waiting', []), pool.score('second-waiting', [])];
      const started = Date.now();
      await assert.rejects(pool.score('one-too-many', []), refusedWith(SCORING_BUSY_MESSAGE));
      assert.ok(Date.now() - started < 100, 'the refusal does not wait for a thread');

      await assert.rejects(stuck, refusedWith(SCORING_TIMEOUT_MESSAGE));
      assert.ok(Date.now() - started >= 400, 'the stuck scoring ran until its time limit');
      for (const answer of await Promise.all(waiting)) assert.equal(answer.score, 4);
      assert.deepEqual(pool.load, { running: 0, waiting: 0, threads: 1 }, 'the stuck thread was replaced by one new thread');
    } finally {
      await pool.close();
    }
  });

  test('the real scorer gives the same answers from its thread as zxcvbn-ts scores them, and never sees more than the prefix', async () => {
    const pool = new ScoringPool({ workers: 1, queueLimit: 4, timeoutMs: 30_000, startTimeoutMs: 30_000, maxLength: 32 });
    try {
      const weak = await pool.score('Summer2024', []);
      assert.ok(weak.score < 3);
      assert.ok(weak.suggestions.length > 0);
      assert.equal((await pool.score('copper-kettle-harbour-58', [])).score, 4);
      // The pool cuts what it sends to the thread: a strong 32 characters followed by one character
      // repeated score as the 32 characters alone do.
      const prefix = 'copper-kettle-harbour-58-violet!';
      assert.equal(prefix.length, 32);
      assert.deepEqual(await pool.score(prefix + 'a'.repeat(96), []), await pool.score(prefix, []));
    } finally {
      await pool.close();
    }
  });

  test('the policy scores the first 32 characters; the length rules still see the whole password', async () => {
    const seen: string[] = [];
    const policy = createPasswordPolicy([], async (password) => {
      seen.push(password);
      return { score: 4, warning: null, suggestions: [] };
    });
    const long = `${'x1y2z3'.repeat(10)}-end`;
    assert.equal(await policy.check(long), null);
    assert.deepEqual(seen, [long.slice(0, 32)]);
    assert.equal(await policy.check('k'.repeat(129)), 'Password must be at most 128 characters.');
    assert.equal(seen.length, 1, 'a password over the maximum length is not scored at all');
  });

  test('a password longer than the scored part that only repeats a shorter one is refused, however the part scores', async () => {
    const policy = createPasswordPolicy([], async () => ({ score: 4, warning: null, suggestions: [] }));
    const refusal = 'This password is too easy to guess. It repeats the same few characters; please choose a less predictable one.';
    assert.equal(await policy.check('Password1'.repeat(15).slice(0, 128)), refusal, 'cut short at the end too');
    assert.equal(await policy.check('correct-horse-battery-staple!'.repeat(2)), refusal);
    assert.equal(await policy.check(`${'x1y2z3'.repeat(10)}-end`), null, 'a repetition with something else in it is scored');
    assert.equal(await policy.check('Password1'.repeat(3)), null, 'within the scored part the scorer judges repetitions itself');
    assert.equal(repeatsShorter('abcabcab'), true);
    assert.equal(repeatsShorter('abcabcaX'), false);
    assert.equal(repeatsShorter('a'), false);
  });
});

describe('limits on the calls that score', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp({ config: { signupRateLimitPerMinute: 100_000, signinRateLimitPerMinute: 100_000, passwordChangeRateLimitPerHour: 3 } });
  });
  after(() => t.close());

  test('the meter answers 30 calls a minute from one address, then refuses with 429 in the spec shape', async () => {
    assert.equal(t.config.passwordStrengthRateLimitPerMinute, 30);
    const client = new Client(t);
    for (let i = 0; i < 30; i++) assert.equal((await client.post('/passwordStrength.php', { password: `meter-${i}` })).status, 200, `call ${i + 1}`);
    const refused = await client.post('/passwordStrength.php', { password: 'one-more' });
    assert.equal(refused.status, 429);
    assert.equal(refused.body.status, 'Failure');
    assert.match(refused.body.message, /^Too many attempts from your network\./);
  });

  test('password changes are counted per user: past the limit one user is refused, another from the same address is not', async () => {
    const a = await signedInTrader(t);
    const b = await signedInTrader(t);
    const change = (who: typeof a) => who.client.post('/dashboard/customer/changePassword.php', { currentPassword: 'not-the-password', newPassword: 'granite-lantern-orchard-71' });
    for (let i = 0; i < 3; i++) assert.equal((await change(a)).body.message, 'Your current password is incorrect.');
    const refused = await change(a);
    assert.equal(refused.status, 429);
    assert.equal(refused.body.status, 'Failure');
    assert.match(refused.body.message, /^Too many password changes\. Please wait \d+ minutes? and try again\.$/);
    assert.equal((await change(b)).body.message, 'Your current password is incorrect.', 'another user behind the same address is not limited');
    // Signed out, the call is still refused as signed out (counted by address, not by a user).
    assert.equal((await new Client(t).post('/dashboard/customer/changePassword.php', { currentPassword: 'x', newPassword: 'y' })).status, 401);
  });

  test('a scoring refused by the pool (busy, or stuck past its time limit) is a retryable 503 in the spec shape, never a 500', async () => {
    const trader = await signedInTrader(t);
    const pool = new ScoringPool({ workers: 1, queueLimit: 0, timeoutMs: 500, startTimeoutMs: 30_000, maxLength: 32, workerUrl: HANGING_WORKER });
    const production = t.ctx.passwordPolicy;
    t.ctx.passwordPolicy = createPasswordPolicy([], pool.scorer());
    try {
      const stuck = new Client(t).post('/registration.php', registrationBody({ password: 'hang-on-this-one' }));
      // The thread is stuck once it has started; until then the sign-up waits for it.
      while (pool.load.running === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      const busy = await trader.client.post('/dashboard/customer/changePassword.php', { currentPassword: trader.password, newPassword: 'granite-lantern-orchard-71' });
      assert.equal(busy.status, 503);
      assert.deepEqual(busy.body, { status: 'Failure', message: SCORING_BUSY_MESSAGE });
      assert.ok(Number(busy.headers.get('retry-after')) > 0);
      const timedOut = await stuck;
      assert.equal(timedOut.status, 503);
      assert.deepEqual(timedOut.body, { status: 'Failure', message: SCORING_TIMEOUT_MESSAGE });
      // The refused change changed nothing: the old password still signs in.
      assert.equal((await new Client(t).post('/login.php', { email: trader.email, password: trader.password })).body.status, 'Success');
    } finally {
      t.ctx.passwordPolicy = production;
      await pool.close();
    }
  });
});

describe('change password checks the current password before scoring the new one', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp({ config: { signupRateLimitPerMinute: 100_000, signinRateLimitPerMinute: 100_000 } });
  });
  after(() => t.close());

  test('a wrong current password is refused without scoring; a right one with a weak new password is refused by the policy and counts as no wrong guess', async () => {
    const trader = await signedInTrader(t);
    const scored: string[] = [];
    const production = t.ctx.passwordPolicy;
    t.ctx.passwordPolicy = createPasswordPolicy([], async (password) => {
      scored.push(password);
      return password.startsWith('weak') ? { score: 1, warning: null, suggestions: [] } : { score: 4, warning: null, suggestions: [] };
    });
    try {
      const change = (currentPassword: string, newPassword: string) => trader.client.post('/dashboard/customer/changePassword.php', { currentPassword, newPassword });
      const wrong = await change('not-the-password', 'granite-lantern-orchard-71');
      assert.equal(wrong.body.message, 'Your current password is incorrect.');
      assert.deepEqual(scored, [], 'nothing was scored for a wrong current password');

      const weak = await change(trader.password, 'weak-but-long-enough');
      assert.equal(weak.status, 400);
      assert.match(weak.body.message, /^This password is too easy to guess\./);
      assert.deepEqual(scored, ['weak-but-long-enough']);
      const throttle = await t.ctx.db.selectFrom('login_throttle').select('failures').where('email', '=', trader.email).executeTakeFirst();
      assert.equal(throttle?.failures, 1, 'only the wrong guess counts towards the lockout');

      assert.equal((await change(trader.password, 'granite-lantern-orchard-71')).body.status, 'success');
    } finally {
      t.ctx.passwordPolicy = production;
    }
  });
});
