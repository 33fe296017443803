import Decimal from 'decimal.js';

/**
 * The one place that turns money between its wire form (decimal strings such as "1250.5") and
 * its stored form (integer cents). Every balance, request amount and ledger entry goes through
 * here; nothing else does arithmetic on money as binary floats.
 */
export type Cents = number;

const CENTS_PER_UNIT = 100;
/** Largest cent amount that stays exact both as a JS number and in a 64-bit column. */
export const MAX_SAFE_CENTS = Number.MAX_SAFE_INTEGER;

/** Parse a canonical decimal string with at most 2 fraction digits into cents. Throws on anything else. */
export function toCents(amount: string): Cents {
  if (!/^-?\d+(\.\d{1,2})?$/.test(amount)) throw new RangeError(`not a money amount: ${amount}`);
  const cents = new Decimal(amount).mul(CENTS_PER_UNIT);
  if (!cents.isInteger() || cents.abs().greaterThan(MAX_SAFE_CENTS)) throw new RangeError(`money amount out of range: ${amount}`);
  return cents.toNumber();
}

/** Cents to the wire form: a decimal string with exactly two fraction digits. */
export function formatCents(cents: Cents | bigint | string): string {
  // Whole cents (every stored amount) are written from their digits: no arithmetic, so exact for
  // any size. Anything else (a fraction of a cent) goes through decimal.js, rounded half up.
  const whole = typeof cents === 'number' ? (Number.isSafeInteger(cents) ? String(cents) : null) : WHOLE_CENTS.test(String(cents)) ? String(cents) : null;
  if (whole === null) return new Decimal(cents.toString()).div(CENTS_PER_UNIT).toFixed(2);
  const negative = whole.startsWith('-');
  const digits = (negative ? whole.slice(1) : whole).replace(/^0+/, '').padStart(3, '0');
  const text = `${digits.slice(0, -2)}.${digits.slice(-2)}`;
  return negative && text !== '0.00' ? `-${text}` : text;
}
const WHOLE_CENTS = /^-?\d+$/;

/**
 * Round an exact decimal amount (e.g. a realized profit computed at price precision) to cents,
 * half away from zero as brokers post it.
 */
export function roundToCents(amount: Decimal.Value): Cents {
  return new Decimal(amount).mul(CENTS_PER_UNIT).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();
}

/** Cents with thousands separators, as people read them: "1,250.00". */
export function formatGrouped(cents: Cents): string {
  return formatCents(cents).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Cents as people read them in messages: "1,250.00 USD". */
export function formatUsd(cents: Cents): string {
  return `${formatGrouped(cents)} USD`;
}
