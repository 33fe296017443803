import { z } from 'zod';
import { accountEvent, adminEvent } from './events';
import { instrumentGroup } from './common';
import { PERIOD_NAMES } from './periods';

/** `getMainCurrencies.php` rows: the spec's {ID, Symbol, CurrencyType} plus what a terminal needs. */
export const symbolRecord = z.object({
  ID: z.number(),
  Symbol: z.string(),
  CurrencyType: instrumentGroup,
  description: z.string(),
  baseCurrency: z.string(),
  quoteCurrency: z.string(),
  digits: z.number(),
  contractSize: z.number(),
  volumeMin: z.number(),
  volumeStep: z.number(),
  volumeMax: z.number(),
  calcMode: z.enum(['forex', 'cfd']),
  sessions: z.array(z.string()),
  /** Swap of a Buy and of a Sell, in points per lot per day (charged at the daily rollover; Wednesday's counts three days). */
  swapLong: z.number(),
  swapShort: z.number(),
  /** A position's margin is its notional at the account's leverage times this (1: as is). */
  marginRate: z.number(),
});
export type SymbolRecord = z.infer<typeof symbolRecord>;
export const symbolsResponse = z.object({ status: z.literal('success'), data: z.array(symbolRecord) });

/**
 * A quote as clients see it. `bid`/`ask` are null before the first tick. `open` is whether the
 * instrument's market is in session; `stale` whether an open market has had no tick for too long.
 * The server refuses fills on both. Times are epoch milliseconds.
 */
export const quote = z.object({
  symbol: z.string(),
  bid: z.number().nullable(),
  ask: z.number().nullable(),
  time: z.number().nullable(),
  stale: z.boolean(),
  open: z.boolean(),
});
export type Quote = z.infer<typeof quote>;

const symbolList = z
  .string()
  .trim()
  .max(2000, 'symbols is too long.')
  .transform((v) => v.split(',').map((s) => s.trim().toUpperCase()).filter((s) => s.length > 0));

export const quotesQuery = z.object({ symbols: symbolList.optional() });
export const quotesResponse = z.object({ status: z.literal('success'), data: z.array(quote) });

export { PERIOD_NAMES };
export const period = z.enum(PERIOD_NAMES, { error: 'period must be one of M1, M5, M15, M30, H1, H4, D1, W1, MN.' });
export type PeriodName = z.infer<typeof period>;

/** One candle: bucket start (epoch ms), bid OHLC, tick volume. */
export const candle = z.object({
  time: z.number(),
  open: z.number(),
  high: z.number(),
  low: z.number(),
  close: z.number(),
  volume: z.number(),
});
export type CandleRecord = z.infer<typeof candle>;

export const candlesQuery = z.object({
  symbol: z.string({ error: 'symbol is required.' }).trim().min(1, 'symbol is required.').max(20).transform((s) => s.toUpperCase()),
  period,
  limit: z.coerce.number({ error: 'limit must be a number.' }).int('limit must be a whole number.').min(1, 'limit must be between 1 and 5000.').max(5000, 'limit must be between 1 and 5000.').optional().default(500),
  before: z.coerce.number({ error: 'before must be a time in epoch milliseconds.' }).int('before must be a time in epoch milliseconds.').min(1, 'before must be a time in epoch milliseconds.').max(8.64e15, 'before must be a time in epoch milliseconds.').optional(),
});
export const candlesResponse = z.object({ status: z.literal('success'), symbol: z.string(), period, data: z.array(candle) });

/** Price bridge input: `POST /api/feed/ticks` with `Authorization: Bearer <FEED_TOKEN>`. */
export const MAX_TICKS_PER_PUSH = 1000;
export const feedTick = z.object({
  symbol: z.string({ error: 'symbol is required.' }).trim().min(1, 'symbol is required.').max(20),
  bid: z.number({ error: 'bid must be a number.' }),
  ask: z.number({ error: 'ask must be a number.' }),
  time: z.number({ error: 'time must be epoch milliseconds.' }).int('time must be epoch milliseconds.').min(0).max(8.64e15).optional(),
});
export const feedTicksRequest = z.object({
  ticks: z.array(feedTick, { error: 'ticks must be a list.' }).min(1, 'ticks must not be empty.').max(MAX_TICKS_PER_PUSH, `At most ${MAX_TICKS_PER_PUSH} ticks per request.`),
});
/** A tick of a pushed batch that was not applied: its 1-based position, its symbol and why. */
export const refusedTick = z.object({ index: z.number(), symbol: z.string(), message: z.string() });
/**
 * The good ticks of a batch are applied and each refused one is reported; a batch with no good
 * tick at all is refused as a whole (400, `{status: 'Failure', message}` naming the first problem).
 */
export const feedTicksResponse = z.object({ status: z.literal('success'), message: z.string(), accepted: z.number(), refused: z.array(refusedTick) });

// ------------------------------------------------------------------ the WebSocket stream

/** Most symbols one connection may follow at once. */
export const MAX_STREAM_SYMBOLS = 200;

const streamSymbols = z.array(z.string().trim().min(1).max(20).transform((s) => s.toUpperCase())).max(MAX_STREAM_SYMBOLS, `At most ${MAX_STREAM_SYMBOLS} symbols.`);

export const clientMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('subscribe'), symbols: streamSymbols }),
  z.object({ type: z.literal('unsubscribe'), symbols: streamSymbols }),
  z.object({ type: z.literal('subscribeCandles'), symbol: z.string().trim().min(1).max(20).transform((s) => s.toUpperCase()), period }),
  z.object({ type: z.literal('unsubscribeCandles'), symbol: z.string().trim().min(1).max(20).transform((s) => s.toUpperCase()), period }),
  z.object({ type: z.literal('ping') }),
  /** Administrators only: receive the back-office events (`admin` messages) on this connection. */
  z.object({ type: z.literal('subscribeAdmin') }),
  /** A trader's: price this connection's quotes for that trading account of theirs (its type's markups). */
  z.object({ type: z.literal('account'), accountId: z.number().int().positive() }),
]);
export type ClientMessage = z.infer<typeof clientMessage>;

/**
 * Everything the server sends carries `seq`, counting from 1 per connection, so a client can tell
 * it has missed nothing. Quotes are coalesced: a `quotes` message holds the latest quote of every
 * subscribed symbol that changed since the previous one.
 */
export const serverMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('hello'), seq: z.number(), userId: z.number(), serverTime: z.number(), heartbeatMs: z.number() }),
  z.object({ type: z.literal('snapshot'), seq: z.number(), quotes: z.array(quote) }),
  z.object({ type: z.literal('quotes'), seq: z.number(), quotes: z.array(quote) }),
  z.object({ type: z.literal('candle'), seq: z.number(), symbol: z.string(), period, candle }),
  z.object({ type: z.literal('event'), seq: z.number(), event: accountEvent }),
  z.object({ type: z.literal('admin'), seq: z.number(), event: adminEvent }),
  z.object({ type: z.literal('heartbeat'), seq: z.number(), time: z.number() }),
  z.object({ type: z.literal('pong'), seq: z.number(), time: z.number() }),
  z.object({ type: z.literal('error'), seq: z.number(), message: z.string() }),
]);
export type ServerMessage = z.infer<typeof serverMessage>;

/**
 * `getMarketSummary.php`: every enabled instrument with its quote and its day. The day figures
 * come from the daily (D1, UTC) bid candles: `dayOpen`/`dayHigh`/`dayLow` of the latest daily
 * candle, `prevClose` the close of the one before it; `change` = bid − prevClose (at the
 * instrument's digits) and `changePct` its percentage (2 decimals). Null where there is no data.
 */
export const marketSummaryRow = z.object({
  symbol: z.string(),
  group: instrumentGroup,
  description: z.string(),
  digits: z.number(),
  bid: z.number().nullable(),
  ask: z.number().nullable(),
  time: z.number().nullable(),
  open: z.boolean(),
  stale: z.boolean(),
  dayOpen: z.number().nullable(),
  dayHigh: z.number().nullable(),
  dayLow: z.number().nullable(),
  prevClose: z.number().nullable(),
  change: z.number().nullable(),
  changePct: z.number().nullable(),
});
export type MarketSummaryRow = z.infer<typeof marketSummaryRow>;
export const marketSummaryResponse = z.object({ status: z.literal('success'), data: z.array(marketSummaryRow) });
