/**
 * Every figure the app shows goes through these, so one screen never shows 1,250.5 where another
 * shows 1250.50. Money arrives from the server as exact decimal strings ("1250.50"); they are
 * formatted as strings, never through binary floats, so no cent is ever rounded away.
 */

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * A decimal string or number with exactly `decimals` fraction digits (half away from zero),
 * thousands grouped: formatDecimal('1234.5', 2) → '1,234.50'. Empty or malformed input gives '—'.
 */
export function formatDecimal(value: string | number | null | undefined, decimals: number): string {
  if (value === null || value === undefined || value === '') return '—';
  let text = typeof value === 'number' ? (Number.isFinite(value) ? numberToPlain(value) : '') : value.trim();
  const match = DECIMAL.exec(text);
  if (!match) return '—';
  const [, sign = '', whole = '0', fraction = ''] = match;
  let digits = whole + fraction.padEnd(decimals, '0').slice(0, decimals);
  const roundUp = fraction.length > decimals && Number(fraction[decimals]) >= 5;
  if (roundUp) digits = incrementDigits(digits);
  const wholeLength = digits.length - decimals;
  const wholePart = digits.slice(0, wholeLength).replace(/^0+(?=\d)/, '') || '0';
  const fractionPart = digits.slice(wholeLength);
  text = groupThousands(wholePart) + (decimals > 0 ? `.${fractionPart}` : '');
  const isZero = /^[0,.]*$/.test(text);
  return (sign && !isZero ? '-' : '') + text;
}

function incrementDigits(digits: string): string {
  const chars = digits.split('');
  for (let i = chars.length - 1; i >= 0; i--) {
    if (chars[i] === '9') chars[i] = '0';
    else {
      chars[i] = String(Number(chars[i]) + 1);
      return chars.join('');
    }
  }
  return `1${chars.join('')}`;
}

/** A number as plain decimal text (no exponent), for numbers that came from JSON. */
function numberToPlain(value: number): string {
  const text = String(value);
  if (!/e/i.test(text)) return text;
  return value.toFixed(20).replace(/\.?0+$/, '');
}

/** A USD amount with the spec's 2 decimals: '1,250.00'. Empty shows as 0.00 (spec: cards show 0.00 if empty). */
export function formatUsd(value: string | number | null | undefined): string {
  return formatDecimal(value ?? '0', 2);
}

/** The account balance with the spec's 4 decimals: '1,250.0000'. */
export function formatBalance(value: string | number | null | undefined): string {
  return formatDecimal(value ?? '0', 4);
}

/** A price with the instrument's digits: formatPrice(1.08, 5) → '1.08000'. */
export function formatPrice(value: number | null | undefined, digits: number): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  return formatDecimal(value, digits);
}

/** A percentage with 2 decimals and its sign when asked: '12.50%', '+1.25%'. */
export function formatPercent(value: string | number | null | undefined, options: { sign?: boolean } = {}): string {
  const text = formatDecimal(value, 2);
  if (text === '—') return text;
  const signed = options.sign && !text.startsWith('-') && !/^0\.00$/.test(text) ? `+${text}` : text;
  return `${signed}%`;
}

/** A volume in lots: 0.01 → '0.01'. */
export function formatVolume(value: number | string | null | undefined): string {
  return formatDecimal(value, 2);
}

/** Whether a decimal string or number is above zero, at zero, or below (for green/red colouring). */
export function signOf(value: string | number | null | undefined): -1 | 0 | 1 {
  if (value === null || value === undefined || value === '') return 0;
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n) || n === 0) return 0;
  return n > 0 ? 1 : -1;
}

// Made on first use: building a formatter loads locale data, a cost a page that shows no date
// should not pay while it starts.
let dateTimeFormat: Intl.DateTimeFormat | null = null;
let dateOnlyFormat: Intl.DateTimeFormat | null = null;
const dateTime = () => (dateTimeFormat ??= new Intl.DateTimeFormat('en-GB', { year: 'numeric', month: 'short', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false, timeZone: 'UTC' }));
const dateOnly = () => (dateOnlyFormat ??= new Intl.DateTimeFormat('en-GB', { year: 'numeric', month: 'short', day: '2-digit', timeZone: 'UTC' }));

/** A time (ISO string or epoch ms) as '24 Nov 2026, 09:15:02 UTC'. */
export function formatDateTime(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '—';
  return `${dateTime().format(date)} UTC`;
}

export function formatDate(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '—';
  return dateOnly().format(date);
}
