import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Decimal from 'decimal.js';
import fc from 'fast-check';
import { formatCents, roundToCents, toCents } from '../src/domain/money';
import { isValidEmail, isValidPhone } from '../src/domain/contact-rules';
import { createPasswordPolicy, MIN_SCORE, type PasswordScorer } from '../src/domain/password-policy';
import { productionPasswordPolicy } from '../src/services/password-strength';

describe('money conversions', () => {
  test('decimal strings convert to exact cents', () => {
    assert.equal(toCents('0.01'), 1);
    assert.equal(toCents('100.5'), 10050);
    assert.equal(toCents('1000000'), 100_000_000);
    assert.equal(toCents('-12.34'), -1234);
    // 0.1 + 0.2 is not 0.3 in binary floats; in cents it is.
    assert.equal(toCents('0.1') + toCents('0.2'), toCents('0.3'));
  });

  test('more than two decimals or non-numbers are refused, never rounded', () => {
    for (const bad of ['1.005', '1e3', 'abc', '', '1.', '.5', ' 1']) assert.throws(() => toCents(bad), RangeError, bad);
  });

  test('cents format with exactly two decimals', () => {
    assert.equal(formatCents(0), '0.00');
    assert.equal(formatCents(5), '0.05');
    assert.equal(formatCents(-1234), '-12.34');
    assert.equal(formatCents(123456789), '1234567.89');
  });

  test('cents format as decimal.js divides them by 100 to two places, for whole amounts as number, bigint or digits (to 18 digits, its precision)', () => {
    const viaDecimal = (c: number | bigint | string) => new Decimal(c.toString()).div(100).toFixed(2);
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), fc.bigInt({ min: -(10n ** 17n), max: 10n ** 17n }), fc.bigInt({ min: -(10n ** 17n), max: 10n ** 17n }).map(String)), (c) => {
        assert.equal(formatCents(c), viaDecimal(c));
      }),
    );
    for (const c of [0, -0, 1, -1, 99, -99, 100, -100, '007', '-007', 12.5, -12.5, 0.4]) assert.equal(formatCents(c), viaDecimal(c), String(c));
  });

  test('rounding to cents is half away from zero', () => {
    assert.equal(roundToCents('1.005'), 101);
    assert.equal(roundToCents('-1.005'), -101);
    assert.equal(roundToCents('2.344999'), 234);
  });
});

describe('password policy', () => {
  // A stand-in scorer that says what the rules need: long passphrases are strong, the rest weak,
  // and it records the words it was told relate to the person.
  const seen: string[][] = [];
  const scorer: PasswordScorer = async (password, userInputs) => {
    seen.push(userInputs);
    return password.length >= 16 ? { score: 4, warning: null, suggestions: [] } : { score: 1, warning: 'This is similar to a commonly used password.', suggestions: ['Add more words that are less common.'] };
  };
  const policy = createPasswordPolicy(['password', 'password1', 'qwertyuiop', '123456'], scorer);

  test('refuses passwords shorter than 8 characters', async () => {
    assert.equal(await policy.check('Ab1!xyz'), 'Password must be at least 8 characters.');
  });

  test('refuses common passwords whatever their case', async () => {
    assert.match(await policy.check('Password1') ?? '', /too common/);
    assert.match(await policy.check('QWERTYUIOP') ?? '', /too common/);
  });

  test('refuses one repeated character and the email itself', async () => {
    assert.match(await policy.check('aaaaaaaaaaaaaaaaaa') ?? '', /too easy/);
    assert.match(await policy.check('jane.doe@example.com', { email: 'jane.doe@example.com' }) ?? '', /email/);
  });

  test(`refuses a score under ${MIN_SCORE} with the scorer's warning and first suggestion, and accepts a strong one`, async () => {
    assert.equal(await policy.check('Summer2024'), 'This password is too easy to guess. This is similar to a commonly used password. Add more words that are less common.');
    assert.equal(await policy.check('violet-harbour-lantern-42'), null);
    const a = await policy.assess('Summer2024');
    assert.equal(a.score, 1);
    assert.deepEqual(a.suggestions, ['Add more words that are less common.']);
  });

  test("the person's email, name and the site's name are handed to the scorer as guessable words", async () => {
    seen.length = 0;
    await policy.check('violet-harbour-lantern-42', { email: 'Jane.Doe+fx@Example.com', firstName: 'Jane', lastName: 'van der Berg' });
    const words = seen[0]!;
    for (const w of ['tradeport', 'jane.doe+fx@example.com', 'jane.doe+fx', 'jane', 'doe', 'example', 'van der berg', 'berg']) assert.ok(words.includes(w), w);
  });
});

describe('password policy with zxcvbn-ts (the production scorer)', () => {
  const policy = productionPasswordPolicy();

  test('the review\'s weak passwords are refused with feedback', async () => {
    for (const weak of ['87654321', 'abcdefgh', 'tradeport', 'Summer2024', 'Qwerty123!', 'whatever-123']) {
      const problem = await policy.check(weak);
      assert.ok(problem, `${weak} was accepted`);
      assert.match(problem, /^This password is (too easy to guess|too common)/, weak);
    }
  });

  test("the person's own name or email inside a short password lowers its score", async () => {
    assert.equal(await policy.check('ravensworth88'), null);
    assert.match(await policy.check('ravensworth88', { lastName: 'Ravensworth' }) ?? '', /too easy to guess/);
    assert.match(await policy.check('kowalczyk-2024', { email: 'kowalczyk@example.com' }) ?? '', /too easy to guess/);
  });

  test('passphrases are accepted', async () => {
    for (const ok of ['violet-harbour-42', 'copper-kettle-harbour-58', 'Admin-Pass-4-Tests', 'correct horse battery staple']) assert.equal(await policy.check(ok), null, ok);
  });
});

describe('contact details', () => {
  test('email syntax', () => {
    for (const ok of ['a@b.co', 'first.last+tag@sub.example.org']) assert.ok(isValidEmail(ok), ok);
    for (const bad of ['plain', 'a@b', 'a@@b.com', 'a b@c.com', 'a@b..com', '@b.com']) assert.ok(!isValidEmail(bad), bad);
  });

  test('phone numbers are 6 to 15 digits', () => {
    assert.ok(isValidPhone('4915112345678'));
    assert.ok(!isValidPhone('12345'));
    assert.ok(!isValidPhone('+4915112345678'));
    assert.ok(!isValidPhone('1234567890123456'));
  });
});
