import type { CallOutput } from '../api/client';
import { ledgerKindLabel, ORDER_TYPE_LABELS } from '../format/order-types';
import { csvTime, toCsv } from '@tradeport/contracts/csv';
import { CLOSE_REASON_LABELS } from './positions-live';

/** History's CSV exports, pure: what a spreadsheet opens (times it reads as dates, formulas defused by `toCsv`). */

type TradeRow = CallOutput<'getTradesHistory'>['data'][number];
type OrderRow = CallOutput<'getOrderHistory'>['data'][number];
type Operation = CallOutput<'getBalanceOperations'>['data'][number];

export { csvTime };

/** The operations a positions export lists: all but the swaps charged at a position's close (that position's Swap). */
export function exportedOperations<T extends Pick<Operation, 'kind' | 'ticket'>>(operations: readonly T[]): T[] {
  return operations.filter((o) => !(o.kind === 'swap' && o.ticket !== null));
}

const TRADES_HEADER = ['Ticket', 'Symbol', 'Type', 'Volume', 'Open time (UTC)', 'Open price', 'S / L', 'T / P', 'Close time (UTC)', 'Close price', 'Swap', 'Profit', 'Close reason', 'Comment', 'Part of'];

/**
 * Closed positions and the range's balance operations in one sheet, newest first (a position by its
 * close, an operation by its time): an operation's type is its kind (Deposit, Withdrawal, Credit,
 * Adjustment, or an unknown kind by its own word) and its amount stands in the Profit column. A
 * swap charged at a position's close is that position's Swap, so it is not listed twice: every
 * amount appears once, and the Swap and Profit columns add up to the range's net (and credit). A
 * part closed on its own names, under Part of, the ticket it came from.
 */
export function tradesCsv(rows: readonly TradeRow[], operations: readonly Operation[] = []): string {
  type Line = { time: number; cells: (string | number)[] };
  const lines: Line[] = rows.map((r) => ({
    time: Date.parse(r.closeTime),
    cells: [r.ID, r.symbol, r.tradeType, r.volume, csvTime(r.timeStamp), r.tradePrice, r.stopLoss || '', r.takeProfit || '', csvTime(r.closeTime), r.lastPrice, r.swap, r.profit, CLOSE_REASON_LABELS[r.closeReason], r.comment, r.partOf ?? ''],
  }));
  for (const o of exportedOperations(operations)) {
    lines.push({ time: Date.parse(o.timeStamp), cells: [o.ticket ?? '', '', ledgerKindLabel(o.kind), '', '', '', '', '', csvTime(o.timeStamp), '', '', o.amount, '', o.comment, ''] });
  }
  // Stable: positions keep their order among themselves, and come before an operation of the same moment.
  const ordered = lines.map((l, i) => ({ ...l, i })).sort((a, b) => b.time - a.time || a.i - b.i);
  return toCsv(TRADES_HEADER, ordered.map((l) => l.cells));
}

/** Every order of the range: market orders (no order number: the position is theirs) and finished pending orders. */
export function ordersCsv(rows: readonly OrderRow[]): string {
  return toCsv(
    ['Order', 'Symbol', 'Type', 'Volume', 'Price', 'Limit price', 'S / L', 'T / P', 'Placed (UTC)', 'Finished (UTC)', 'Status', 'Reason', 'Position'],
    rows.map((r) => [r.orderId ?? '', r.symbol, ORDER_TYPE_LABELS[r.orderType], r.volume, r.price, r.stopLimitPrice || '', r.stopLoss || '', r.takeProfit || '', csvTime(r.timeStamp), csvTime(r.updatedAt), statusLabel(r.status), r.reason, r.ticket ?? '']),
  );
}

/** 'cancelled' → 'Cancelled'. */
export const statusLabel = (status: string): string => status[0]!.toUpperCase() + status.slice(1);

