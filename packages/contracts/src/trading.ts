import { z } from 'zod';
import { ACCOUNT_KINDS, accountKindFilter } from './accounts';
import { idField, money, oneLine, timestamp } from './common';
import { fromBeforeTo, fromBeforeToIssue, historyPaging } from './history-paging';

/** A price the client sends: accepted for wire compatibility and ignored (the server uses its own). */
const ignoredNumber = z.unknown().optional();

/**
 * The largest price any instrument may be given at (far above any real one); a price level must
 * also be at least one point of the finest instrument (8 digits). Strings must be plain decimals:
 * `Number()` alone would read "0x10" as 16 and "1e308" as a number no instrument can round.
 */
export const MAX_PRICE = 1e9;
export const MIN_PRICE = 1e-8;
const decimalText = /^\d{1,12}(\.\d{1,20})?$/;
const toNumber = (v: number | string): number => (typeof v === 'number' ? v : decimalText.test(v.trim()) ? Number(v.trim()) : Number.NaN);
const inPriceRange = (v: number) => Number.isFinite(v) && v >= MIN_PRICE && v <= MAX_PRICE;

const level = (what: string) =>
  z
    .union([z.number(), z.string()], { error: `${what} must be a number (0 for none).` })
    .optional()
    .transform((v) => (v === undefined || v === '' ? 0 : toNumber(v)))
    .refine((v) => v === 0 || inPriceRange(v), `${what} must be a price (a decimal number, 0 for none).`);

/** A whole number of points as sent (its range is the trading math's rule: `trailingProblem`). */
const pointsField = (what: string) => z.union([z.number(), z.string()], { error: `${what} must be a whole number of points.` }).transform((v) => (typeof v === 'number' ? v : v.trim() === '' ? Number.NaN : Number(v)));

/**
 * A trailing stop (docs/design.md#trailing-stops): the stop loss follows the price at `distance`
 * points, once the position is `activation` points in profit (0, the default: at once), in steps of
 * at least `step` points (default 1). Null or omitted: none.
 */
export const trailingStopField = z
  .object(
    {
      distance: pointsField('The trailing distance'),
      activation: pointsField('The trailing activation').optional().default(0),
      step: pointsField('The trailing step').optional().default(1),
    },
    { error: 'trailingStop must be an object with a distance in points, or null.' },
  )
  .nullable()
  .optional()
  .transform((v) => v ?? null);

/** A position's trailing stop as the API shows it, in points; null without one. */
export const trailingStop = z.object({ distance: z.number(), activation: z.number(), step: z.number() }).nullable();

/** The spec's new-trade payload. `orginalPrice`, `freeMargin` and `marginLevel` are ignored. */
export const addTradeRequest = z.object({
  fullSymbol: z.string({ error: 'Please choose a symbol.' }).trim().min(1, 'Please choose a symbol.').max(20).transform((s) => s.toUpperCase()),
  currenciesTypeName: z.string().max(20).optional(),
  tradestypes: z.string({ error: "tradestypes must be 'buy' or 'sell'." }).trim().toLowerCase().pipe(z.enum(['buy', 'sell'], { error: "tradestypes must be 'buy' or 'sell'." })),
  volume: z.union([z.number(), z.string()], { error: 'Please enter a volume.' }).transform((v) => (typeof v === 'number' ? v : Number(v))).refine((v) => Number.isFinite(v) && v > 0, 'Volume must be a positive number.'),
  stopLoss: level('Stop loss'),
  takeProfit: level('Take profit'),
  comment: oneLine(z.string().trim().max(100, 'The comment must be at most 100 characters.'), 'The comment').optional().default(''),
  trailingStop: trailingStopField,
  orginalPrice: ignoredNumber,
  freeMargin: ignoredNumber,
  marginLevel: ignoredNumber,
});
export type AddTradeRequest = z.infer<typeof addTradeRequest>;
export const addTradeResponse = z.object({ status: z.literal('success'), message: z.string(), ticket: z.number() });

export const openTrade = z.object({
  ticket: z.number(),
  symbol: z.string(),
  fullSymbol: z.string(),
  currencyType: z.string(),
  timeStamp: timestamp,
  type: z.enum(['Buy', 'Sell']),
  volume: z.number(),
  orginalPrice: z.number(),
  /** The stop loss; a trailing stop moves it toward profit. */
  stopLoss: z.number(),
  takeProfit: z.number(),
  trailingStop,
  swap: money,
  /** Commission charged so far (the open's), negative as posted; 0.00 without one. */
  commission: money,
  comment: z.string(),
  /** Server-computed floating profit in USD; null when no price is available. */
  profit: money.nullable(),
  bid: z.number().nullable(),
  ask: z.number().nullable(),
});
export type OpenTrade = z.infer<typeof openTrade>;
export const tradesResponse = z.object({ status: z.literal('success'), data: z.array(openTrade) });

export const profitRequest = z.object({ ticketNumber: idField('Unknown ticket.') });
export const profitResponse = z.object({ status: z.literal('success'), lots: z.number(), leverage: z.number() });

export const marginsResponse = z.object({
  status: z.literal('success'),
  totalMargin: money,
  balance: money,
  credit: money,
  profit: money,
  equity: money,
  freeMargin: money,
  /** Percent with two decimals; "0.00" without open positions. */
  marginLevel: z.string(),
});

/** Close a position at the server's price. `lastPrice` and `profit` are ignored. */
export const closeTradeRequest = z.object({ ticket: idField('Unknown ticket.'), lastPrice: ignoredNumber, profit: ignoredNumber });

/** Close part of an own open position: `volume` lots of it, less than all (the rest stays open under the same ticket). */
export const closePartRequest = z.object({
  ticket: idField('Unknown ticket.'),
  volume: z.union([z.number(), z.string()], { error: 'Please enter a volume.' }).transform((v) => (typeof v === 'number' ? v : Number(v))).refine((v) => Number.isFinite(v) && v > 0, 'Volume must be a positive number.'),
});
export const closePartResponse = z.object({
  status: z.literal('success'),
  message: z.string(),
  /** The ticket that stays open, with `remaining` lots. */
  ticket: z.number(),
  /** The closed part's own ticket, as history lists it. */
  closedTicket: z.number(),
  volume: z.number(),
  remaining: z.number(),
  price: z.number(),
  profit: money,
});

/** All three replaced: 0 removes a level, a missing or null `trailingStop` removes the trailing stop. */
export const modifyTradeRequest = z.object({ ticket: idField('Unknown ticket.'), stopLoss: level('Stop loss'), takeProfit: level('Take profit'), trailingStop: trailingStopField });

/**
 * The back office's open trades, searched and paged per trader on the server. Without any field the
 * answer is every trader holding open positions, in id order, as the spec's call gives it.
 */
export const adminOpenTradesQuery = z.object({
  /**
   * "Contains", ignoring case: a trader whose name or email contains it keeps all of their trades;
   * otherwise only the trades whose symbol, ticket (a leading # ignored) or account number contains it are kept.
   */
  search: oneLine(z.string().trim().max(100, 'search must be at most 100 characters.'), 'search').optional(),
  /** Which accounts' positions (ours): live ones (the default, as before accounts) or demo ones. */
  accountKind: accountKindFilter,
  limit: z.coerce.number({ error: 'limit must be a number.' }).int('limit must be a whole number.').min(1, 'limit must be between 1 and 500.').max(500, 'limit must be between 1 and 500.').optional(),
  offset: z.coerce.number({ error: 'offset must be a number.' }).int('offset must be a whole number.').min(0, 'offset must not be negative.').max(1_000_000_000, 'offset is too large.').optional(),
});
export type AdminOpenTradesQuery = z.infer<typeof adminOpenTradesQuery>;

/**
 * `total` counts the traders the search matched, `trades` their trades kept by it, and
 * `floatingProfit` is the sum of those trades' profits (the ones with a price): all of them, not
 * only the page's.
 */
export const adminOpenTradesResponse = z.object({
  status: z.literal('success'),
  total: z.number(),
  trades: z.number(),
  floatingProfit: money,
  data: z.array(
    z.object({
      traderId: z.number(),
      traderFirstName: z.string(),
      traderLastName: z.string(),
      traderEmail: z.string(),
      trades: z.array(
        z.object({
          tradeId: z.number(),
          /** The trading account holding it (ours). */
          accountNumber: z.number(),
          fullSymbol: z.string(),
          timeStamp: timestamp,
          volume: z.number(),
          orginalPrice: z.number(),
          tradesTypesName: z.enum(['buy', 'sell']),
          profit: money.nullable(),
        }),
      ),
    }),
  ),
});

/** Admin close: `lastPrice` and `profit` are ignored; the server's price is used. */
export const adminCloseTradeRequest = z.object({ traders_id: idField('Unknown trader.'), ticket: idField('Unknown ticket.'), lastPrice: ignoredNumber, profit: ignoredNumber });

export const PENDING_ORDER_TYPES = ['buy_limit', 'sell_limit', 'buy_stop', 'sell_stop', 'buy_stop_limit', 'sell_stop_limit'] as const;
/** The order types as the terminal names them ("Buy Limit") or in snake case ("buy_limit"). */
const orderType = z
  .string({ error: 'orderType must be one of Buy Limit, Sell Limit, Buy Stop, Sell Stop, Buy Stop Limit, Sell Stop Limit.' })
  .transform((v) => v.trim().toLowerCase().replace(/\s+/g, '_'))
  .pipe(z.enum(PENDING_ORDER_TYPES, { error: 'orderType must be one of Buy Limit, Sell Limit, Buy Stop, Sell Stop, Buy Stop Limit, Sell Stop Limit.' }));

export const positivePrice = (what: string) =>
  z.union([z.number(), z.string()], { error: `${what} must be a number.` }).transform(toNumber).refine(inPriceRange, `${what} must be a positive number.`);

/** The latest expiry accepted: the end of year 9999, the last instant an ISO 8601 date can name plainly. */
export const MAX_EXPIRATION_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** Expiry: omitted/null/0 = good till cancelled; otherwise epoch ms or an ISO 8601 time (year 9999 at the latest). */
export const expiration = z
  .union([z.number(), z.string(), z.null()], { error: 'expiration must be a time (epoch ms or ISO 8601) or empty.' })
  .optional()
  .transform((v) => (v === undefined || v === null || v === '' || v === 0 ? null : typeof v === 'number' ? v : Date.parse(v)))
  .refine((v) => v === null || (Number.isSafeInteger(v) && v > 0), 'expiration must be a time (epoch ms or ISO 8601) or empty.')
  .refine((v) => v === null || v <= MAX_EXPIRATION_MS, 'expiration must be before the year 10000.');

export const addPendingOrderRequest = z.object({
  fullSymbol: z.string({ error: 'Please choose a symbol.' }).trim().min(1, 'Please choose a symbol.').max(20).transform((s) => s.toUpperCase()),
  orderType,
  volume: z.union([z.number(), z.string()], { error: 'Please enter a volume.' }).transform((v) => (typeof v === 'number' ? v : Number(v))).refine((v) => Number.isFinite(v) && v > 0, 'Volume must be a positive number.'),
  price: positivePrice('price'),
  stopLimitPrice: level('stopLimitPrice'),
  stopLoss: level('Stop loss'),
  takeProfit: level('Take profit'),
  comment: oneLine(z.string().trim().max(100, 'The comment must be at most 100 characters.'), 'The comment').optional().default(''),
  expiration,
  /** Given to the position the order opens. */
  trailingStop: trailingStopField,
});
export const addPendingOrderResponse = z.object({ status: z.literal('success'), message: z.string(), orderId: z.number() });

export const modifyPendingOrderRequest = z.object({
  orderId: idField('Unknown order.'),
  price: positivePrice('price'),
  stopLimitPrice: level('stopLimitPrice'),
  stopLoss: level('Stop loss'),
  takeProfit: level('Take profit'),
  expiration,
  /** Replaced like the levels: missing or null removes it. */
  trailingStop: trailingStopField,
});
export const cancelPendingOrderRequest = z.object({ orderId: idField('Unknown order.') });

export const pendingOrder = z.object({
  orderId: z.number(),
  symbol: z.string(),
  orderType: z.enum(PENDING_ORDER_TYPES),
  volume: z.number(),
  price: z.number(),
  stopLimitPrice: z.number(),
  stopTriggered: z.boolean(),
  stopLoss: z.number(),
  takeProfit: z.number(),
  comment: z.string(),
  expiration: timestamp.nullable(),
  /** The trailing stop the position it opens gets; null without one. */
  trailingStop,
  status: z.enum(['pending', 'filled', 'cancelled', 'expired', 'rejected']),
  reason: z.string(),
  ticket: z.number().nullable(),
  timeStamp: timestamp,
  updatedAt: timestamp,
});
export const pendingOrdersQuery = z
  .object({ status: z.enum(['pending', 'all', 'history'], { error: "status must be 'pending', 'all' or 'history'." }).optional().default('pending'), ...historyPaging })
  .refine(fromBeforeTo, fromBeforeToIssue);
export const pendingOrdersResponse = z.object({
  status: z.literal('success'),
  data: z.array(pendingOrder),
  /** Only when the request paged (any of limit, before, from, to): the `before` of the next page, null at the end. */
  nextCursor: z.string().nullable().optional(),
});

/** Which trading account holds a position or an order on the back office's trader page. */
const heldBy = { accountNumber: z.number(), accountKind: z.enum(ACCOUNT_KINDS) };

/** One trader's page in the back office (`getTraderDetails.php`). */
export const traderDetailsQuery = z.object({
  traderId: z.coerce.number({ error: 'traderId must be an id.' }).int('traderId must be an id.').positive('traderId must be an id.').max(2_147_483_647, 'traderId must be an id.'),
});
export const traderDetailsResponse = z.object({
  status: z.literal('success'),
  profile: z.object({
    id: z.number(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    phoneNo: z.string(),
    countryName: z.string(),
    countryCode: z.string(),
    dateOfBirth: z.string(),
    nationality: z.string(),
    accountType: z.enum(['0', '1']),
    isReserved: z.boolean(),
    isActive: z.enum(['1', '0']),
    status: z.enum(['Online', 'Offline']),
    leverage: z.number(),
    createdAt: timestamp,
    lastSeen: timestamp.nullable(),
    /** Whether they sign in with a second factor (support may reset it). */
    twoFactor: z.boolean(),
  }),
  /** Ledger totals and the first live account's figures at the server's prices (its positions and orders counted). */
  account: marginsResponse.omit({ status: true }).extend({ totalDeposite: money, totalWithdrawals: money, totalCredit: money, openPositions: z.number(), pendingOrders: z.number() }),
  /** Every account's open positions and working orders (ours: each names its account), newest orders first. */
  openTrades: z.array(openTrade.extend(heldBy)),
  pendingOrders: z.array(pendingOrder.extend(heldBy)),
  /** The newest 50 entries of the trader's activity log. */
  activity: z.array(z.object({ id: z.number(), timeStamp: timestamp, activity: z.string(), details: z.string(), ip: z.string(), status: z.string() })),
});

/**
 * The trading terminal's per-user settings, kept on the server; all are off until the user turns
 * them on: one-click trading, hotkeys, and the price table's optional columns (the day's change in
 * percent, the spread in points).
 */
export const terminalSettings = z.object({ oneClickTrading: z.boolean(), hotkeys: z.boolean(), changeColumn: z.boolean(), spreadColumn: z.boolean() });
export type TerminalSettings = z.infer<typeof terminalSettings>;
export const terminalSettingsResponse = z.object({ status: z.literal('success'), data: terminalSettings });
const settingFlag = (name: string) => z.boolean({ error: `${name} must be true or false.` }).optional();
/** The settings' names, as sent and answered. */
export const TERMINAL_SETTING_NAMES = ['oneClickTrading', 'hotkeys', 'changeColumn', 'spreadColumn'] as const;
const settingList = TERMINAL_SETTING_NAMES.join(', ');
/** Change one or more settings; the others stay as they are. Unknown settings are refused. */
export const editTerminalSettingsRequest = z
  .looseObject({ oneClickTrading: settingFlag('oneClickTrading'), hotkeys: settingFlag('hotkeys'), changeColumn: settingFlag('changeColumn'), spreadColumn: settingFlag('spreadColumn') })
  .superRefine((v, ctx) => {
    for (const key of Object.keys(v)) {
      if (!(TERMINAL_SETTING_NAMES as readonly string[]).includes(key)) ctx.addIssue({ code: 'custom', path: [key], message: `Unknown setting: ${key.slice(0, 40)}. The settings are ${settingList}.` });
    }
    if (TERMINAL_SETTING_NAMES.every((name) => v[name] === undefined)) ctx.addIssue({ code: 'custom', path: ['oneClickTrading'], message: `Send at least one setting: ${settingList}.` });
  });
export type EditTerminalSettingsRequest = z.infer<typeof editTerminalSettingsRequest>;
