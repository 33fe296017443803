import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from './helpers/app';
import { Client, registrationBody, signedInTrader, type SignedInTrader } from './helpers/client';

/**
 * Security review finding 1: scoring a password (zxcvbn-ts) took time growing with its length, on
 * the main thread, so a few long passwords sent at once to the meter, to sign-up or to a password
 * change held every other request (ticks, stop losses, orders, streams) for seconds. Scoring now
 * runs in a worker thread on a bounded prefix, so the server keeps answering meanwhile.
 */

/**
 * The longest wait for /api/health allowed while the ten scorings run. The old code held it for
 * 2.5 to 4 s (one 128-character scoring alone took 1 to 2.5 s); now it answers within tens of
 * milliseconds, up to ~170 ms on PostgreSQL with other suites running on the same two cores.
 */
const HEALTH_BOUND_MS = 500;

let seq = 0;
/**
 * A 128-character password of letters, digits and signs, different on every call (so nothing can
 * be answered from a cache). The mix of digits and letters is what zxcvbn-ts scores slowest.
 */
function strongLong(): string {
  const chars = 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789!#%&*+-=?@^_~';
  let out = `${++seq}-${process.pid}-`;
  let x = (Date.now() + seq * 7919) >>> 0;
  while (out.length < 128) {
    // A small linear congruential generator: varied text without Math.random's unrepeatable runs.
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out += chars[(x >>> 16) % chars.length];
  }
  return out;
}

/**
 * A 128-character repetition of a short pattern: guessable (zxcvbn-ts scores each 1, whole or cut
 * short), and among the slowest to score. They take turns, so no two requests in a row send the same.
 */
const WEAK_PATTERNS = ['abc123', '123abc', 'abcd1234'];
const weakLong = (): string => WEAK_PATTERNS[++seq % WEAK_PATTERNS.length]!.repeat(22).slice(0, 128);

describe('scoring long passwords does not hold the event loop', () => {
  let t: TestApp;
  let traders: SignedInTrader[];
  before(async () => {
    t = await startApp({ config: { signupRateLimitPerMinute: 100_000, signinRateLimitPerMinute: 100_000 } });
    traders = [];
    for (let i = 0; i < 3; i++) traders.push(await signedInTrader(t));
    // The first scoring starts the scorer (a worker thread); the measurement is of scoring itself.
    assert.equal((await new Client(t).post('/passwordStrength.php', { password: 'warm-up-scoring-27' })).status, 200);
  });
  after(() => t.close());

  test('ten long passwords scored at once (meter, password change, sign-up) leave /api/health answering promptly, and the answers are right', async () => {
    const meter = (password: string) => new Client(t).post('/passwordStrength.php', { password });
    const signUp = (password: string) => new Client(t).post('/registration.php', registrationBody({ password }));
    const change = (trader: SignedInTrader, currentPassword: string, newPassword: string) =>
      trader.client.post('/dashboard/customer/changePassword.php', { currentPassword, newPassword });

    let scoring = true;
    const healthWaits: number[] = [];
    const probing = (async () => {
      while (scoring) {
        const started = performance.now();
        const r = await fetch(`${t.url}/health`);
        await r.arrayBuffer();
        healthWaits.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();

    const [t0, t1, t2] = traders as [SignedInTrader, SignedInTrader, SignedInTrader];
    const started = performance.now();
    const answers = await Promise.all([
      meter(strongLong()),
      meter(strongLong()),
      meter(weakLong()),
      meter(weakLong()),
      signUp(strongLong()),
      signUp(weakLong()),
      signUp(strongLong()),
      change(t0, t0.password, strongLong()),
      change(t1, t1.password, weakLong()),
      change(t2, 'not-my-password-at-all', strongLong()),
    ]);
    const scoredInMs = performance.now() - started;
    scoring = false;
    await probing;
    const [strongMeter, strongMeter2, weakMeter, weakMeter2, strongSignUp, weakSignUp, strongSignUp2, goodChange, weakChange, wrongCurrent] = answers;

    const maxWait = Math.max(...healthWaits);
    console.log(`ten scorings took ${Math.round(scoredInMs)} ms; /api/health answered ${healthWaits.length} times, slowest ${Math.round(maxWait)} ms`);

    for (const strong of [strongMeter!, strongMeter2!]) {
      assert.equal(strong.status, 200, JSON.stringify(strong.body));
      assert.equal(strong.body.acceptable, true, JSON.stringify(strong.body));
      assert.equal(strong.body.score, 4);
    }
    for (const weak of [weakMeter!, weakMeter2!]) {
      assert.equal(weak.status, 200, JSON.stringify(weak.body));
      assert.equal(weak.body.acceptable, false, JSON.stringify(weak.body));
      assert.match(weak.body.message, /^This password is too easy to guess\./);
    }
    assert.equal(strongSignUp!.body.status, 'Success', JSON.stringify(strongSignUp!.body));
    assert.equal(strongSignUp2!.body.status, 'Success', JSON.stringify(strongSignUp2!.body));
    assert.equal(weakSignUp!.status, 400);
    assert.match(weakSignUp!.body.message, /^This password is too easy to guess\./);
    assert.equal(goodChange!.body.status, 'success', JSON.stringify(goodChange!.body));
    assert.equal(weakChange!.status, 400);
    assert.match(weakChange!.body.message, /^This password is too easy to guess\./);
    assert.equal(wrongCurrent!.status, 400);
    assert.equal(wrongCurrent!.body.message, 'Your current password is incorrect.');

    assert.ok(healthWaits.length >= 3, `the health check was asked only ${healthWaits.length} times while the scorings ran`);
    assert.ok(maxWait < HEALTH_BOUND_MS, `/api/health waited up to ${Math.round(maxWait)} ms while passwords were scored (bound ${HEALTH_BOUND_MS} ms)`);
  });
});
