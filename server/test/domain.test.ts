import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatCents, roundToCents, toCents } from '../src/domain/money';
import { isValidEmail, isValidPhone } from '../src/domain/contact-rules';
import { createPasswordPolicy } from '../src/domain/password-policy';

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

  test('rounding to cents is half away from zero', () => {
    assert.equal(roundToCents('1.005'), 101);
    assert.equal(roundToCents('-1.005'), -101);
    assert.equal(roundToCents('2.344999'), 234);
  });
});

describe('password policy', () => {
  const policy = createPasswordPolicy(['password', 'password1', 'qwertyuiop', '123456']);

  test('refuses passwords shorter than 8 characters', () => {
    assert.equal(policy.check('Ab1!xyz'), 'Password must be at least 8 characters.');
  });

  test('refuses common passwords whatever their case', () => {
    assert.match(policy.check('Password1') ?? '', /too common/);
    assert.match(policy.check('QWERTYUIOP') ?? '', /too common/);
  });

  test('refuses one repeated character and the email itself', () => {
    assert.match(policy.check('aaaaaaaaaa') ?? '', /too easy/);
    assert.match(policy.check('jane.doe@example.com', { email: 'jane.doe@example.com' }) ?? '', /email/);
  });

  test('accepts a reasonable passphrase', () => {
    assert.equal(policy.check('violet-harbour-42'), null);
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
