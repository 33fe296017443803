import { z } from 'zod';
import { money, timestamp } from './common';
import { fromBeforeTo, fromBeforeToIssue, historyPaging } from './history-paging';
import { accountKindFilter } from './accounts';
import { PENDING_ORDER_TYPES } from './trading';

/**
 * A trader's history on the wire: closed positions, the orders that reached their end, the
 * balance operations and the totals over a range, each listed newest first and paged with the
 * cursors of `history-paging.ts`; and the back office's closed records of every trader.
 */

export const historyRow = z.object({
  ID: z.number(),
  symbol: z.string(),
  timeStamp: timestamp,
  tradeType: z.enum(['Buy', 'Sell']),
  volume: z.number(),
  tradePrice: z.number(),
  stopLoss: z.number(),
  takeProfit: z.number(),
  lastPrice: z.number(),
  profit: money,
  swap: money,
  /** Commission charged on the open and the close, negative as posted; 0.00 without one. */
  commission: money,
  closeTime: timestamp,
  closeReason: z.enum(['manual', 'sl', 'tp', 'stop-out', 'admin']),
  /** The position's comment, as given when it was opened. */
  comment: z.string(),
  /** A part closed on its own (a partial close): the ticket it was taken from, which stayed open with the rest; else null. */
  partOf: z.number().nullable(),
});
export const historyResponse = z.object({
  status: z.literal('success'),
  data: z.array(historyRow),
  /** Only when the request paged (any of limit, before, from, to): the `before` of the next page, null at the end. */
  nextCursor: z.string().nullable().optional(),
});
export const historyQuery = z.object(historyPaging).refine(fromBeforeTo, fromBeforeToIssue);

/**
 * A trader's order as History lists it: a market order, which fills at once and has no order
 * number of its own (its position's ticket names it), or a pending order that reached its end.
 */
export const orderHistoryRow = z.object({
  kind: z.enum(['market', 'pending']),
  /** The pending order's number; null for a market order. */
  orderId: z.number().nullable(),
  /** The position the order opened (null if it opened none). */
  ticket: z.number().nullable(),
  symbol: z.string(),
  /** `buy` / `sell` for a market order, the pending type otherwise. */
  orderType: z.enum(['buy', 'sell', ...PENDING_ORDER_TYPES]),
  volume: z.number(),
  /** A market order's fill price; a pending order's price (a stop limit's stop price). */
  price: z.number(),
  stopLimitPrice: z.number(),
  stopLoss: z.number(),
  takeProfit: z.number(),
  comment: z.string(),
  status: z.enum(['filled', 'cancelled', 'expired', 'rejected']),
  reason: z.string(),
  /** When placed. */
  timeStamp: timestamp,
  /** When it reached its final state (a market order: when placed, the moment it filled). */
  updatedAt: timestamp,
});
/** An order-history cursor: `<time>_<m|p><id>` (m: a market order's ticket, p: a pending order's id). */
const orderCursorPattern = /^(\d{1,16})_([mp])(\d{1,10})$/;
const orderCursor = z
  .string({ error: 'before must be a cursor from nextCursor.' })
  .regex(orderCursorPattern, 'before must be a cursor from nextCursor.')
  .transform((v) => {
    const [, time, kind, id] = orderCursorPattern.exec(v) ?? [];
    return { time: Number(time), kind: kind === 'm' ? ('market' as const) : ('pending' as const), id: Number(id) };
  })
  .refine((c) => c.time <= 8.64e15 && c.id > 0 && c.id <= 2_147_483_647, 'before must be a cursor from nextCursor.')
  .optional();
export const orderCursorOf = (time: number, kind: 'market' | 'pending', id: number): string => `${time}_${kind === 'market' ? 'm' : 'p'}${id}`;
export const orderHistoryQuery = z.object({ ...historyPaging, before: orderCursor }).refine(fromBeforeTo, fromBeforeToIssue);
export const orderHistoryResponse = z.object({ status: z.literal('success'), data: z.array(orderHistoryRow), nextCursor: z.string().nullable() });

/**
 * A ledger entry other than a closed position's profit (which History lists as the position):
 * deposits, withdrawals, swaps, and whatever else moves the balance or the credit. `kind` is the
 * ledger's own word (`deposit`, `withdrawal`, `swap`, `credit`, `adjustment`, …): new kinds pass
 * through as they are.
 */
export const balanceOperation = z.object({
  id: z.number(),
  kind: z.string(),
  /** Signed, USD: what it added to (or took from) the balance, or the credit for `credit`. */
  amount: money,
  /** The balance (the credit for `credit`) right after it. */
  balanceAfter: money,
  /** The position it belongs to (a swap charged at its close), else null. */
  ticket: z.number().nullable(),
  comment: z.string(),
  timeStamp: timestamp,
});
export const balanceOperationsResponse = z.object({ status: z.literal('success'), data: z.array(balanceOperation), nextCursor: z.string().nullable() });

/** History's totals over a range (epoch ms, `from` inclusive, `to` exclusive; either may be left out). */
export const historyTotalsQuery = z.object({ from: historyPaging.from, to: historyPaging.to }).refine(fromBeforeTo, fromBeforeToIssue);
export const historyTotalsResponse = z.object({
  status: z.literal('success'),
  data: z.object({
    /** Profit of the positions closed in the range. */
    profit: money,
    /** Swap charged in the range (at the close of each position). */
    swaps: money,
    deposits: money,
    /** Paid out, as a positive amount. */
    withdrawals: money,
    /** Every other kind that moves the balance (adjustments, commissions, …), by kind. */
    other: z.array(z.object({ kind: z.string(), amount: money })),
    /** What the balance changed by: profit + swaps + deposits − withdrawals + other. */
    net: money,
    /** Credit given (or taken) in the range: not balance, so not in `net`. */
    credit: money,
    closedPositions: z.number(),
  }),
});

export const closedTradesQuery = z.object({
  traderId: z.coerce.number({ error: 'traderId must be an id.' }).int('traderId must be an id.').positive('traderId must be an id.').max(2_147_483_647, 'traderId must be an id.').optional(),
  symbol: z.string().trim().min(1, 'symbol must not be empty.').max(20, 'symbol is too long.').transform((v) => v.toUpperCase()).optional(),
  /** Which accounts' positions (ours): live ones (the default) or demo ones. */
  accountKind: accountKindFilter,
  from: z.iso.date({ error: 'from must be a date (YYYY-MM-DD).' }).optional(),
  to: z.iso.date({ error: 'to must be a date (YYYY-MM-DD).' }).optional(),
  limit: z.coerce.number({ error: 'limit must be a number.' }).int('limit must be a whole number.').min(1, 'limit must be between 1 and 500.').max(500, 'limit must be between 1 and 500.').optional().default(100),
  offset: z.coerce.number({ error: 'offset must be a number.' }).int('offset must be a whole number.').min(0, 'offset must not be negative.').max(1_000_000_000, 'offset is too large.').optional().default(0),
});
export const closedTradesResponse = z.object({
  status: z.literal('success'),
  total: z.number(),
  data: z.array(
    historyRow.extend({
      traderId: z.number(),
      traderFirstName: z.string(),
      traderLastName: z.string(),
      traderEmail: z.string(),
      /** The trading account that held it (ours). */
      accountNumber: z.number(),
      closedBy: z.string(),
    }),
  ),
});
