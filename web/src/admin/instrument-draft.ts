import { CONTRACT_SIZE_MAX, DIGITS_MAX, HOLIDAY_DATES_MAX, MARGIN_RATE_MAX, NOT_ONE_LINE, oneLineMessage, SESSION_WINDOWS_MAX, SPREAD_MARKUP_MAX, SWAP_MAX, VOLUME_MAX, type InstrumentGroup, type InstrumentInput } from '@tradeport/contracts';
import type { CatalogueRow } from '../api/admin/catalogue';

/**
 * An instrument as the Symbols page's editor holds it while it is edited (numbers that may be
 * empty, the sessions and holiday dates as the text of their fields), and the checks it makes
 * before sending: the contract's (packages/contracts/src/catalogue.ts), each message shown under
 * its own field (so most do not name it). What only the server can judge (whether a session window or a time zone is valid,
 * what the instrument holds now) it leaves to the server, whose refusal the editor shows.
 */

export const GROUPS: readonly InstrumentGroup[] = ['Forex', 'Crypto', 'Stocks', 'Metals'];

export type Mode = CatalogueRow['tradingMode'];
export const MODES: readonly { value: Mode; label: string }[] = [
  { value: 'full', label: 'Full' },
  { value: 'close-only', label: 'Close-only' },
  { value: 'disabled', label: 'Disabled' },
];
export const modeLabel = (m: Mode) => MODES.find((x) => x.value === m)?.label ?? m;

type Num = number | '';

export interface InstrumentDraft {
  description: string;
  group: InstrumentGroup;
  digits: Num;
  contractSize: Num;
  volumeMin: Num;
  volumeStep: Num;
  volumeMax: Num;
  /** One session window per line. */
  sessions: string;
  /** Whether the instrument has a holiday calendar at all. */
  calendar: boolean;
  zone: string;
  /** One YYYY-MM-DD per line. */
  closed: string;
  /** One "YYYY-MM-DD HH:MM" per line. */
  earlyCloses: string;
  spreadMarkup: Num;
  swapLong: Num;
  swapShort: Num;
  marginRate: Num;
  tradingMode: Mode;
}

export type DraftField = keyof InstrumentDraft;
export type DraftErrors = Partial<Record<DraftField, string>>;

export function draftOf(row: CatalogueRow): InstrumentDraft {
  return {
    description: row.description,
    group: row.group,
    digits: row.digits,
    contractSize: row.contractSize,
    volumeMin: row.volumeMin,
    volumeStep: row.volumeStep,
    volumeMax: row.volumeMax,
    sessions: row.sessions.join('\n'),
    calendar: row.holidays !== null,
    zone: row.holidays?.zone ?? '',
    closed: row.holidays?.closed.join('\n') ?? '',
    earlyCloses: row.holidays?.earlyCloses.map((e) => `${e.date} ${e.close}`).join('\n') ?? '',
    spreadMarkup: row.spreadMarkup,
    swapLong: row.swapLong,
    swapShort: row.swapShort,
    marginRate: row.marginRate,
    tradingMode: row.tradingMode,
  };
}

/** What the instrument holds now, in words: '2 open positions and 1 pending order', or null for nothing. */
export function heldText(row: Pick<CatalogueRow, 'openPositions' | 'pendingOrders'>): string | null {
  const parts = [row.openPositions > 0 && `${row.openPositions} open ${row.openPositions === 1 ? 'position' : 'positions'}`, row.pendingOrders > 0 && `${row.pendingOrders} pending ${row.pendingOrders === 1 ? 'order' : 'orders'}`].filter(Boolean);
  return parts.length === 0 ? null : parts.join(' and ');
}

/** A field's non-empty lines, trimmed. */
const linesOf = (text: string) =>
  text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');

/** Whether a YYYY-MM-DD is a day of the calendar (not 2026-02-30). */
function isDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const [y, m, d] = text.split('-').map(Number) as [number, number, number];
  const day = new Date(Date.UTC(y, m - 1, d));
  return day.getUTCFullYear() === y && day.getUTCMonth() === m - 1 && day.getUTCDate() === d;
}

/** An HH:MM time of day (24:00 the end of the day), as the server reads an early close. */
function isTime(text: string): boolean {
  const m = /^(\d{2}):(\d{2})$/.exec(text);
  return !!m && Number(m[2]) < 60 && Number(m[1]) * 60 + Number(m[2]) <= 24 * 60;
}

const grouped = (n: number) => n.toLocaleString('en-US');
/** A figure above 0 (the messages show under their own field, so they do not name it). */
const positive = (v: Num, max: number) => (v === '' ? 'Required.' : !(v > 0) ? 'Must be more than 0.' : v > max ? `At most ${grouped(max)}.` : undefined);
const swapProblem = (v: Num) => (v === '' ? 'Enter points (0 for none).' : Math.abs(v) > SWAP_MAX ? `From −${grouped(SWAP_MAX)} to ${grouped(SWAP_MAX)} points.` : undefined);
const lineNote = (lines: string[], i: number) => (lines.length > 1 ? `Line ${i + 1}: ` : '');

/**
 * Checks a draft as the contract does. `held`: the instrument has open positions or pending orders,
 * so its group, digits and contract size are sent as they were and it cannot be disabled. Returns
 * the field errors, and the input to send when there are none.
 */
export function checkDraft(row: CatalogueRow, d: InstrumentDraft, held: boolean): { errors: DraftErrors; input: InstrumentInput | null } {
  const errors: DraftErrors = {};
  const description = d.description.trim();
  if (description === '') errors.description = 'Please describe the instrument.';
  else if (description.length > 100) errors.description = 'The description must be at most 100 characters.';
  else if (NOT_ONE_LINE.test(description)) errors.description = oneLineMessage('The description');

  if (d.digits === '' || !Number.isInteger(d.digits) || d.digits < 0 || d.digits > DIGITS_MAX) errors.digits = `A whole number from 0 to ${DIGITS_MAX}.`;
  errors.contractSize = positive(d.contractSize, CONTRACT_SIZE_MAX);
  errors.volumeMin = positive(d.volumeMin, VOLUME_MAX);
  errors.volumeStep = positive(d.volumeStep, VOLUME_MAX);
  errors.volumeMax = positive(d.volumeMax, VOLUME_MAX);
  if (!errors.volumeMin && !errors.volumeMax && d.volumeMin !== '' && d.volumeMax !== '' && d.volumeMin > d.volumeMax) errors.volumeMin = 'Must not exceed the maximum.';
  if (!errors.volumeStep && !errors.volumeMax && d.volumeStep !== '' && d.volumeMax !== '' && d.volumeStep > d.volumeMax) errors.volumeStep = 'Must not exceed the maximum.';

  const sessions = linesOf(d.sessions);
  const longSession = sessions.findIndex((s) => s.length > 100);
  if (sessions.length === 0) errors.sessions = 'Please give at least one session window ("always" for a market that never closes).';
  else if (sessions.length > SESSION_WINDOWS_MAX) errors.sessions = `At most ${SESSION_WINDOWS_MAX} session windows.`;
  else if (longSession >= 0) errors.sessions = `${lineNote(sessions, longSession)}a session window must be at most 100 characters.`;

  const closed = linesOf(d.closed);
  const early = linesOf(d.earlyCloses);
  const earlyParts = early.map((l) => l.split(/\s+/));
  if (d.calendar) {
    const zone = d.zone.trim();
    if (zone === '') errors.zone = 'Please give the time zone of the holiday dates.';
    else if (zone.length > 64 || /\s/.test(zone)) errors.zone = 'The time zone is an IANA name such as America/New_York.';
    const badDay = closed.findIndex((l) => !isDate(l));
    if (badDay >= 0) errors.closed = `${lineNote(closed, badDay)}"${closed[badDay]}" is not a date: dates are written YYYY-MM-DD.`;
    else if (closed.length > HOLIDAY_DATES_MAX) errors.closed = `At most ${grouped(HOLIDAY_DATES_MAX)} holidays.`;
    const badEarly = earlyParts.findIndex((p) => p.length !== 2 || !isDate(p[0]!) || !isTime(p[1]!));
    if (badEarly >= 0) errors.earlyCloses = `${lineNote(early, badEarly)}"${early[badEarly]}" is not a date and a time: write YYYY-MM-DD HH:MM.`;
    else if (early.length > HOLIDAY_DATES_MAX) errors.earlyCloses = `At most ${grouped(HOLIDAY_DATES_MAX)} early closes.`;
  }

  if (d.spreadMarkup === '' || !Number.isInteger(d.spreadMarkup) || d.spreadMarkup < 0 || d.spreadMarkup > SPREAD_MARKUP_MAX) errors.spreadMarkup = `A whole number of points from 0 to ${grouped(SPREAD_MARKUP_MAX)}.`;
  errors.swapLong = swapProblem(d.swapLong);
  errors.swapShort = swapProblem(d.swapShort);
  if (d.marginRate === '' || !(d.marginRate >= 0.01 && d.marginRate <= MARGIN_RATE_MAX) || Math.abs(Math.round(d.marginRate * 10_000) - d.marginRate * 10_000) > 1e-6) errors.marginRate = `From 0.01 to ${MARGIN_RATE_MAX}, at most 4 decimals.`;
  if (held && d.tradingMode === 'disabled' && row.tradingMode !== 'disabled') errors.tradingMode = 'Not while it holds positions or orders: close-only lets them be closed.';

  const found = Object.fromEntries(Object.entries(errors).filter(([, v]) => v !== undefined)) as DraftErrors;
  if (Object.keys(found).length > 0) return { errors: found, input: null };
  const n = (v: Num) => v as number;
  return {
    errors: {},
    input: {
      symbol: row.symbol,
      description,
      group: held ? row.group : d.group,
      digits: held ? row.digits : n(d.digits),
      contractSize: held ? row.contractSize : n(d.contractSize),
      volumeMin: n(d.volumeMin),
      volumeStep: n(d.volumeStep),
      volumeMax: n(d.volumeMax),
      sessions,
      holidays: d.calendar ? { zone: d.zone.trim(), closed, earlyCloses: earlyParts.map(([date, close]) => ({ date: date!, close: close! })) } : null,
      spreadMarkup: n(d.spreadMarkup),
      swapLong: n(d.swapLong),
      swapShort: n(d.swapShort),
      marginRate: n(d.marginRate),
      tradingMode: d.tradingMode,
    },
  };
}

