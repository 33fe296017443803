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
// should not pay while it starts. Times are the trader's own: the browser's time zone, named.
let dateTimeFormat: Intl.DateTimeFormat | null = null;
let timeFormat: Intl.DateTimeFormat | null = null;
let dateOnlyFormat: Intl.DateTimeFormat | null = null;
const FIELDS = { year: 'numeric', month: 'short', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false } as const;
const dateTime = () => (dateTimeFormat ??= new Intl.DateTimeFormat('en-GB', { ...FIELDS, timeZoneName: 'short' }));
const timeOnly = () => (timeFormat ??= new Intl.DateTimeFormat('en-GB', FIELDS));
const dateOnly = () => (dateOnlyFormat ??= new Intl.DateTimeFormat('en-GB', { year: 'numeric', month: 'short', day: '2-digit' }));

const asDate = (value: string | number | null | undefined): Date | null => {
  if (value === null || value === undefined || value === '') return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
};

/** A time (ISO string or epoch ms) in the trader's time zone, named: '24 Nov 2026, 18:15:02 GMT+9'. */
export function formatDateTime(value: string | number | null | undefined): string {
  const date = asDate(value);
  return date ? dateTime().format(date) : '—';
}

/** The same without the zone's name, for a table whose column header names it (`timeZoneLabel`). */
export function formatLocalTime(value: string | number | null | undefined): string {
  const date = asDate(value);
  return date ? timeOnly().format(date) : '—';
}

/** The trader's time zone as times are labelled with it: 'UTC', 'GMT+9', 'GMT-5'. */
export function timeZoneLabel(at: number = Date.now()): string {
  return dateTime().formatToParts(at).find((p) => p.type === 'timeZoneName')?.value ?? 'local time';
}

/** A 'YYYY-MM-DDTHH:mm' value for a datetime-local field: the time in the trader's zone. */
export function toLocalInput(value: string | number | null | undefined): string {
  const date = asDate(value);
  if (!date) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A datetime-local field's value, read in the trader's zone, as epoch ms; null when empty or malformed. */
export function fromLocalInput(value: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) return null;
  const t = new Date(value).getTime();
  return Number.isFinite(t) ? t : null;
}

export function formatDate(value: string | number | null | undefined): string {
  const date = asDate(value);
  return date ? dateOnly().format(date) : '—';
}

/** A datetime-local field's value said back in the app's format ('2 Jan 2030, 10:30:00 GMT+9'); null when empty or malformed. */
export function localInputText(value: string): string | null {
  const at = fromLocalInput(value);
  return at === null ? null : formatDateTime(at);
}
