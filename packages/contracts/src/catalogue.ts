import { z } from 'zod';
import { ACCOUNT_TRADING_MODES, SPREAD_MARKUP_MAX } from './accounts';
import { instrumentGroup, oneLine } from './common';

/**
 * The instrument catalogue as the back office edits it (docs/api.md#instrument-catalogue). The
 * database holds it; the catalogue file only adds instruments the database lacks, at start. The
 * symbol, currencies, calculation mode and feed names are the file's; everything else is edited here.
 */
export const INSTRUMENT_TRADING_MODES = ACCOUNT_TRADING_MODES;
export const SESSION_WINDOWS_MAX = 20;
export const HOLIDAY_DATES_MAX = 1000;
export const DIGITS_MAX = 8;
export const CONTRACT_SIZE_MAX = 1_000_000_000;
export const VOLUME_MAX = 1_000_000;
export const SWAP_MAX = 1_000_000;
export const MARGIN_RATE_MAX = 100;

const date = z.iso.date({ error: 'Dates are written YYYY-MM-DD.' });

/** Local dates (in `zone`) on which the market stays closed, and days it closes early. */
export const holidayCalendar = z.object({
  zone: z.string({ error: 'Please give the time zone of the holiday dates.' }).trim().min(1, 'Please give the time zone of the holiday dates.').max(64, 'The time zone is an IANA name such as America/New_York.'),
  closed: z.array(date, { error: 'closed must be a list of dates.' }).max(HOLIDAY_DATES_MAX, `At most ${HOLIDAY_DATES_MAX} holidays.`),
  earlyCloses: z
    .array(z.object({ date, close: z.string({ error: 'An early close needs a time (HH:MM).' }).regex(/^\d{2}:\d{2}$/, 'An early close time is written HH:MM.') }), { error: 'earlyCloses must be a list.' })
    .max(HOLIDAY_DATES_MAX, `At most ${HOLIDAY_DATES_MAX} early closes.`),
});
export type HolidayCalendar = z.infer<typeof holidayCalendar>;

/** One instrument of the catalogue, as stored, with what it holds now. */
export const catalogueInstrument = z.object({
  symbol: z.string(),
  description: z.string(),
  group: instrumentGroup,
  base: z.string(),
  quote: z.string(),
  calcMode: z.enum(['forex', 'cfd']),
  digits: z.number(),
  contractSize: z.number(),
  volumeMin: z.number(),
  volumeStep: z.number(),
  volumeMax: z.number(),
  /** Session windows as the catalogue file writes them ("America/New_York Mon-Fri 09:30-16:00", "always"). */
  sessions: z.array(z.string()),
  holidays: holidayCalendar.nullable(),
  /** Points added to the feed's spread, half below the bid and half above the ask. */
  spreadMarkup: z.number(),
  /** A position's margin is its notional at the account's leverage times this (1: as is). */
  marginRate: z.number(),
  /** Points per lot per day. */
  swapLong: z.number(),
  swapShort: z.number(),
  tradingMode: z.enum(INSTRUMENT_TRADING_MODES),
  /** Open positions and pending orders in it now (digits, contract size and group stay while any exist). */
  openPositions: z.number(),
  pendingOrders: z.number(),
  updatedAt: z.number(),
});
export type CatalogueInstrument = z.infer<typeof catalogueInstrument>;

export const catalogueResponse = z.object({ status: z.literal('success'), data: z.array(catalogueInstrument) });
export type CatalogueResponse = z.infer<typeof catalogueResponse>;

const positive = (label: string, max: number) =>
  z
    .number({ error: `${label} must be a number.` })
    .refine((v) => Number.isFinite(v) && v > 0, `${label} must be more than 0.`)
    .refine((v) => v <= max, `${label} must be at most ${max.toLocaleString('en-US')}.`);
const swap = (label: string) => z.number({ error: `${label} must be a number of points.` }).refine((v) => Number.isFinite(v) && Math.abs(v) <= SWAP_MAX, `${label} must be between −${SWAP_MAX.toLocaleString('en-US')} and ${SWAP_MAX.toLocaleString('en-US')} points.`);

/** A change to one instrument: every editable value, as it should be. */
export const instrumentInput = z
  .object({
    symbol: z.string({ error: 'Please choose an instrument.' }).trim().toUpperCase().min(1, 'Please choose an instrument.').max(20, 'Unknown symbol.'),
    description: oneLine(z.string({ error: 'Please describe the instrument.' }).trim().min(1, 'Please describe the instrument.').max(100, 'The description must be at most 100 characters.'), 'The description'),
    group: z.enum(instrumentGroup.options, { error: 'The group must be Forex, Crypto, Stocks or Metals.' }),
    digits: z.number({ error: `Digits must be a whole number from 0 to ${DIGITS_MAX}.` }).int(`Digits must be a whole number from 0 to ${DIGITS_MAX}.`).min(0, `Digits must be a whole number from 0 to ${DIGITS_MAX}.`).max(DIGITS_MAX, `Digits must be a whole number from 0 to ${DIGITS_MAX}.`),
    contractSize: positive('The contract size', CONTRACT_SIZE_MAX),
    volumeMin: positive('The minimum volume', VOLUME_MAX),
    volumeStep: positive('The volume step', VOLUME_MAX),
    volumeMax: positive('The maximum volume', VOLUME_MAX),
    sessions: z
      .array(z.string({ error: 'Each session window is a line of text.' }).trim().min(1, 'A session window is empty.').max(100, 'A session window must be at most 100 characters.'), { error: 'sessions must be a list of session windows.' })
      .min(1, 'Please give at least one session window ("always" for a market that never closes).')
      .max(SESSION_WINDOWS_MAX, `At most ${SESSION_WINDOWS_MAX} session windows.`),
    holidays: holidayCalendar.nullable(),
    spreadMarkup: z.number({ error: `The markup must be a whole number of points from 0 to ${SPREAD_MARKUP_MAX}.` }).int(`The markup must be a whole number of points from 0 to ${SPREAD_MARKUP_MAX}.`).min(0, `The markup must be a whole number of points from 0 to ${SPREAD_MARKUP_MAX}.`).max(SPREAD_MARKUP_MAX, `The markup must be a whole number of points from 0 to ${SPREAD_MARKUP_MAX}.`),
    marginRate: z
      .number({ error: `The margin rate must be a number from 0.01 to ${MARGIN_RATE_MAX} with at most 4 decimals.` })
      .refine((v) => Number.isFinite(v) && v >= 0.01 && v <= MARGIN_RATE_MAX && Math.abs(Math.round(v * 10_000) - v * 10_000) < 1e-6, `The margin rate must be a number from 0.01 to ${MARGIN_RATE_MAX} with at most 4 decimals.`),
    swapLong: swap('The long swap'),
    swapShort: swap('The short swap'),
    tradingMode: z.enum(INSTRUMENT_TRADING_MODES, { error: 'The trading mode must be full, close-only or disabled.' }),
  })
  .refine((v) => v.volumeMin <= v.volumeMax, { message: 'The minimum volume must not exceed the maximum.', path: ['volumeMin'] })
  .refine((v) => v.volumeStep <= v.volumeMax, { message: 'The volume step must not exceed the maximum volume.', path: ['volumeStep'] });
export type InstrumentInput = z.infer<typeof instrumentInput>;

export const saveInstrumentResponse = z.object({ status: z.literal('success'), message: z.string(), data: catalogueInstrument });
