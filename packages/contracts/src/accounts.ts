import { z } from 'zod';
import { idField, instrumentGroup, money, moneyAmountField, oneLine, timestamp } from './common';

/**
 * Trading accounts (docs/api.md#trading-accounts): a trader holds one or more, live or demo, each
 * with its own number, money, positions and history. A call acts on the account its
 * `X-Trading-Account` header names (one of the caller's), or on their first live account.
 */
export const ACCOUNT_KINDS = ['live', 'demo'] as const;
export const ACCOUNT_STATES = ['active', 'close-only', 'disabled'] as const;
export type AccountKind = (typeof ACCOUNT_KINDS)[number];
export type AccountState = (typeof ACCOUNT_STATES)[number];

/**
 * The back office's trade lists (open trades, closed records) show one kind of account at a time:
 * live, the default (so their totals are real money), or demo.
 */
export const accountKindFilter = z.enum(ACCOUNT_KINDS, { error: "accountKind must be 'live' or 'demo'." }).optional().default('live');

/** The header a call names its trading account with (the account's id). */
export const TRADING_ACCOUNT_HEADER = 'X-Trading-Account';

export const COMMISSION_BASES = ['lot', 'million'] as const;
/** The most a type may charge per lot or per million USD traded, in USD. */
export const COMMISSION_MAX = 1000;

/** USD per lot or per million USD traded, on each deal (the open and the close). */
export const commissionSchedule = z.object({
  basis: z.enum(COMMISSION_BASES, { error: 'The commission is per lot or per million USD traded.' }),
  amount: z
    .number({ error: `The commission must be an amount in USD from 0.01 to ${COMMISSION_MAX} with at most 2 decimals.` })
    .refine((v) => Number.isFinite(v) && v >= 0.01 && v <= COMMISSION_MAX && Math.abs(Math.round(v * 100) - v * 100) < 1e-9, { message: `The commission must be an amount in USD from 0.01 to ${COMMISSION_MAX} with at most 2 decimals.` }),
});

/**
 * The most leverage a type allows by instrument group and by instrument (docs/api.md#account-types):
 * each a whole number from 1 to MAX_LEVERAGE; it lowers an account's leverage there, never raises it.
 */
const leverageLimit = (what: string) => z.number({ error: `The leverage limit of ${what} must be a whole number from 1 to 1000.` }).refine((v) => Number.isInteger(v) && v >= 1 && v <= 1000, { message: `The leverage limit of ${what} must be a whole number from 1 to 1000.` });
export const LEVERAGE_LIMITS_MAX = 500;
export const leverageLimits = z.object({
  groups: z.partialRecord(instrumentGroup, leverageLimit('a group'), { error: 'groups must map instrument groups to leverage limits.' }),
  symbols: z
    .record(z.string().regex(/^[A-Z0-9._-]{1,20}$/, 'Unknown symbol.'), leverageLimit('an instrument'), { error: 'symbols must map symbols to leverage limits.' })
    .refine((r) => Object.keys(r).length <= LEVERAGE_LIMITS_MAX, { message: `At most ${LEVERAGE_LIMITS_MAX} instruments may have a leverage limit.` }),
});
export type LeverageLimits = z.infer<typeof leverageLimits>;

/** The most instruments a type may give swaps of their own. */
export const SYMBOL_SWAPS_MAX = 200;
const swapPoints = (side: string) => z.number({ error: `The ${side} swap must be a number of points from -100000 to 100000.` }).refine((v) => Number.isFinite(v) && v >= -100_000 && v <= 100_000 && Math.abs(Math.round(v * 100) - v * 100) < 1e-9, { message: `The ${side} swap must be a number of points from -100000 to 100000, with at most 2 decimals.` });
/** Swaps on one instrument, in points per lot a day (as the catalogue's), in place of the catalogue's. */
export const symbolSwap = z.object({
  symbol: z.string({ error: 'Please choose an instrument.' }).trim().toUpperCase().min(1, 'Please choose an instrument.').max(20, 'Unknown symbol.'),
  swapLong: swapPoints('long'),
  swapShort: swapPoints('short'),
});

/** The most instruments a type may give a spread markup of its own, and the largest markup. */
export const SYMBOL_MARKUPS_MAX = 200;
export const SPREAD_MARKUP_MAX = 100_000;
/** A spread markup on one instrument, in whole points added to the raw spread, in place of the catalogue's. */
export const symbolMarkup = z.object({
  symbol: z.string({ error: 'Please choose an instrument.' }).trim().toUpperCase().min(1, 'Please choose an instrument.').max(20, 'Unknown symbol.'),
  points: z.number({ error: `The markup must be a whole number of points from 0 to ${SPREAD_MARKUP_MAX}.` }).int(`The markup must be a whole number of points from 0 to ${SPREAD_MARKUP_MAX}.`).min(0, `The markup must be a whole number of points from 0 to ${SPREAD_MARKUP_MAX}.`).max(SPREAD_MARKUP_MAX, `The markup must be a whole number of points from 0 to ${SPREAD_MARKUP_MAX}.`),
});

/** The most instruments a type may list as the ones it offers. */
export const TYPE_INSTRUMENTS_MAX = 500;

/** The most instruments a type may give a commission of their own. */
export const SYMBOL_COMMISSIONS_MAX = 200;

const symbolField = z.string({ error: 'Please choose an instrument.' }).trim().toUpperCase().min(1, 'Please choose an instrument.').max(20, 'Unknown symbol.');

/** A commission on one instrument, in place of the type's own there. */
export const symbolCommission = z.object({
  symbol: symbolField,
  commission: commissionSchedule,
});

/** One trading account with its figures now (at the engine's prices). */
export const tradingAccount = z.object({
  id: z.number(),
  /** The number people see and quote; never the id. */
  number: z.number(),
  kind: z.enum(ACCOUNT_KINDS),
  currency: z.string(),
  leverage: z.number(),
  state: z.enum(ACCOUNT_STATES),
  balance: money,
  credit: money,
  profit: money,
  equity: money,
  margin: money,
  freeMargin: money,
  marginLevel: z.string(),
  openPositions: z.number(),
  pendingOrders: z.number(),
  /** A demo account's virtual balance at opening (what a reset restores); null for live. */
  initialBalance: money.nullable(),
  /** The account calls act on when they name none (the first live account). */
  primary: z.boolean(),
  /** Its account type (docs/api.md#account-types): id and name. */
  typeId: z.number(),
  type: z.string(),
  /** The type's commission on each deal (what the order ticket previews); null: none. */
  commission: commissionSchedule.nullable(),
  /** The instruments whose commission is not the type's, with theirs. */
  symbolCommissions: z.array(symbolCommission),
  /** The instruments its type offers, by symbol; null: every instrument of the catalogue. */
  instruments: z.array(z.string()).nullable(),
  /** Its type's leverage limits: a position there is margined at the lower of `leverage` and the limit. */
  leverageLimits,
  /** Its type's swaps on instruments, in place of the catalogue's (`getMainCurrencies.php`). */
  symbolSwaps: z.array(symbolSwap),
  /** Its type's spread markups on instruments, in place of the catalogue's: the prices it trades at carry them. */
  symbolMarkups: z.array(symbolMarkup),
  createdAt: timestamp,
});
export type TradingAccount = z.infer<typeof tradingAccount>;

export const accountsResponse = z.object({
  status: z.literal('success'),
  data: z.array(tradingAccount),
  /** How many accounts of each kind a trader may hold, and a new demo account's balance. */
  maxLive: z.number(),
  maxDemo: z.number(),
  demoInitialBalance: money,
});
export type AccountsResponse = z.infer<typeof accountsResponse>;

export const openAccountRequest = z.object({
  kind: z.enum(ACCOUNT_KINDS, { message: 'Please choose a live or a demo account.' }),
});
export type OpenAccountRequest = z.infer<typeof openAccountRequest>;

export const accountChangeResponse = z.object({ status: z.literal('success'), message: z.string(), account: tradingAccount });

export const resetDemoRequest = z.object({ accountId: idField('Please choose the demo account to reset.') });

export const transferRequest = z.object({
  fromAccountId: idField('Please choose the account to transfer from.'),
  toAccountId: idField('Please choose the account to transfer to.'),
  amount: moneyAmountField('Please enter a valid amount (a positive number with at most 2 decimals).'),
});
export type TransferRequest = z.infer<typeof transferRequest>;

export const transferResponse = z.object({
  status: z.literal('success'),
  message: z.string(),
  id: z.number(),
  /** The two balances right after the transfer. */
  fromBalance: money,
  toBalance: money,
});

/** The back office: one trader's accounts. */
export const traderAccountsQuery = z.object({
  traderId: z.coerce.number({ error: 'traderId must be an id.' }).int('traderId must be an id.').positive('traderId must be an id.').max(2_147_483_647, 'traderId must be an id.'),
});

export const setAccountStateRequest = z.object({
  accountId: idField('Please choose an account.'),
  state: z.enum(ACCOUNT_STATES, { message: 'The state must be active, close-only or disabled.' }),
});

// ------------------------------------------------------------------ account types

/**
 * Account types (docs/api.md#account-types): what a broker sells. A type may set a leverage, the
 * margin-call and stop-out levels (percent) and a trading mode; a value left null is the
 * installation's. One default type per kind: new accounts of the kind get it.
 */
export const ACCOUNT_TRADING_MODES = ['full', 'close-only', 'disabled'] as const;
export const ACCOUNT_TYPE_STATES = ['active', 'disabled'] as const;
export const ACCOUNT_TYPE_NAME_MAX = 60;
export const MAX_LEVERAGE = 1000;

const nullableNumber = (message: string, check: (v: number) => boolean) =>
  z.union([z.number({ error: message }), z.null()], { error: message }).refine((v) => v === null || (Number.isFinite(v) && check(v)), { message });

export const accountTypeInput = z.object({
  /** Absent: a new type. */
  id: idField('That account type was not found.').optional(),
  name: oneLine(z.string({ error: 'Please name the account type.' }).trim().min(2, 'The name must be 2 to 60 characters.').max(ACCOUNT_TYPE_NAME_MAX, 'The name must be 2 to 60 characters.'), 'The name'),
  kind: z.enum(ACCOUNT_KINDS, { error: 'Please choose live or demo.' }),
  leverage: nullableNumber(`The leverage must be a whole number from 1 to ${MAX_LEVERAGE}, or none (the installation's).`, (v) => Number.isInteger(v) && v >= 1 && v <= MAX_LEVERAGE),
  marginCallLevel: nullableNumber('The margin-call level must be a percentage from 1 to 1000 with at most 2 decimals, or none.', (v) => v >= 1 && v <= 1000 && Math.round(v * 100) === v * 100),
  stopOutLevel: nullableNumber('The stop-out level must be a percentage from 0 to 999 with at most 2 decimals, or none.', (v) => v >= 0 && v <= 999 && Math.round(v * 100) === v * 100),
  tradingMode: z.enum(ACCOUNT_TRADING_MODES, { error: 'The trading mode must be full, close-only or disabled.' }),
  /** Null or absent: no commission. */
  commission: commissionSchedule.nullable().optional(),
  /** Instruments with a commission of their own (absent: none); each instrument once. */
  symbolCommissions: z
    .array(symbolCommission, { error: 'symbolCommissions must be a list.' })
    .max(SYMBOL_COMMISSIONS_MAX, `At most ${SYMBOL_COMMISSIONS_MAX} instruments may have a commission of their own.`)
    .refine((list) => new Set(list.map((x) => x.symbol)).size === list.length, { message: 'An instrument is listed twice: give each one commission.' })
    .optional(),
  /** Leverage limits by group and instrument; absent: none. Replaced as a whole. */
  leverageLimits: leverageLimits.optional(),
  /** Instruments with swaps of their own (absent: none); each instrument once. Replaced as a whole. */
  symbolSwaps: z
    .array(symbolSwap, { error: 'symbolSwaps must be a list.' })
    .max(SYMBOL_SWAPS_MAX, `At most ${SYMBOL_SWAPS_MAX} instruments may have swaps of their own.`)
    .refine((list) => new Set(list.map((x) => x.symbol)).size === list.length, { message: 'An instrument is listed twice: give each one its swaps.' })
    .optional(),
  /** Instruments with a spread markup of their own (absent: none); each instrument once. Replaced as a whole. */
  symbolMarkups: z
    .array(symbolMarkup, { error: 'symbolMarkups must be a list.' })
    .max(SYMBOL_MARKUPS_MAX, `At most ${SYMBOL_MARKUPS_MAX} instruments may have a markup of their own.`)
    .refine((list) => new Set(list.map((x) => x.symbol)).size === list.length, { message: 'An instrument is listed twice: give each one its markup.' })
    .optional(),
  /** The instruments it may trade, by symbol; null or absent: every instrument of the catalogue. */
  instruments: z
    .array(symbolField, { error: 'instruments must be a list of symbols, or null for all.' })
    .min(1, 'Choose at least one instrument, or offer them all.')
    .max(TYPE_INSTRUMENTS_MAX, `At most ${TYPE_INSTRUMENTS_MAX} instruments may be listed.`)
    .refine((list) => new Set(list).size === list.length, { message: 'An instrument is listed twice.' })
    .nullable()
    .optional(),
  isDefault: z.boolean({ error: 'isDefault must be true or false.' }),
  state: z.enum(ACCOUNT_TYPE_STATES, { error: 'The state must be active or disabled.' }),
});
export type AccountTypeInput = z.infer<typeof accountTypeInput>;

const terms = z.object({ leverage: z.number(), marginCallLevel: z.number(), stopOutLevel: z.number() });

export const accountTypeRow = z.object({
  id: z.number(),
  name: z.string(),
  kind: z.enum(ACCOUNT_KINDS),
  /** As set on the type; null: the installation's (`installation` below). */
  leverage: z.number().nullable(),
  marginCallLevel: z.number().nullable(),
  stopOutLevel: z.number().nullable(),
  tradingMode: z.enum(ACCOUNT_TRADING_MODES),
  /** Charged on each deal; null: none. */
  commission: commissionSchedule.nullable(),
  /** Instruments whose commission is their own, by symbol. */
  symbolCommissions: z.array(symbolCommission),
  /** The instruments it offers, by symbol; null: every instrument of the catalogue. */
  instruments: z.array(z.string()).nullable(),
  /** The most leverage it allows by group and by instrument (the instrument's first). */
  leverageLimits,
  /** Instruments whose swaps are its own, not the catalogue's. */
  symbolSwaps: z.array(symbolSwap),
  /** Instruments whose spread markup (points) is its own, not the catalogue's. */
  symbolMarkups: z.array(symbolMarkup),
  isDefault: z.boolean(),
  state: z.enum(ACCOUNT_TYPE_STATES),
  /** What its accounts trade with: its own values, else the installation's. */
  effective: terms,
  /** How many accounts hold it. */
  accounts: z.number(),
  updatedAt: timestamp,
});
export type AccountTypeRow = z.infer<typeof accountTypeRow>;

export const accountTypesResponse = z.object({ status: z.literal('success'), data: z.array(accountTypeRow), installation: terms });
export const saveAccountTypeResponse = z.object({ status: z.literal('success'), message: z.string(), data: accountTypeRow });

export const setAccountTypeRequest = z.object({
  accountId: idField('Please choose an account.'),
  typeId: idField('Please choose an account type.'),
});
