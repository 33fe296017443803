import { HISTORY_PAGE_DEFAULT, orderCursorOf, pageCursorOf } from '@tradeport/contracts';
import { sql } from 'kysely';
import { formatCents, type Cents } from '../domain/money';
import type { Db, Tx } from '../storage/db';
import { preparedShapes, type Param } from '../storage/prepared';
import { isoTime } from './context';

/**
 * The trader's History beyond closed positions: every order that reached its end (market orders
 * and finished pending orders, in one list), the ledger's other entries (deposits, withdrawals,
 * swaps, credit, adjustments, …) and the totals over a range. Newest first, paged by cursor like
 * the other history lists; `from` inclusive, `to` exclusive, epoch ms.
 */

export interface Range {
  from?: number;
  to?: number;
}

interface Page<C> extends Range {
  limit?: number;
  before?: C;
}

type OrderCursor = { time: number; kind: 'market' | 'pending'; id: number };

export type OrderHistoryRow = {
  kind: 'market' | 'pending';
  orderId: number | null;
  ticket: number | null;
  symbol: string;
  orderType: 'buy' | 'sell' | 'buy_limit' | 'sell_limit' | 'buy_stop' | 'sell_stop' | 'buy_stop_limit' | 'sell_stop_limit';
  volume: number;
  price: number;
  stopLimitPrice: number;
  stopLoss: number;
  takeProfit: number;
  comment: string;
  status: 'filled' | 'cancelled' | 'expired' | 'rejected';
  reason: string;
  timeStamp: string;
  updatedAt: string;
};

/** Where a row sorts: its time, then pending orders before market orders of the same millisecond, then id; all descending. */
type Keyed = { time: number; rank: 0 | 1; id: number; row: OrderHistoryRow };
const newestFirst = (a: Keyed, b: Keyed) => b.time - a.time || b.rank - a.rank || b.id - a.id;

/** A page's values (absent filters are 0 and left out of its statement's shape), `limit` one more than is shown. */
type PageValues = { accountId: number; from: number; to: number; cursorTime: number; cursorId: number; limit: number };
/** Which of `from` and `to` a statement has (a page's shape adds its cursor). */
const rangeShape = (q: Range) => `${q.from !== undefined ? 'from;' : ''}${q.to !== undefined ? 'to;' : ''}`;

/** Finished pending orders, newest to finish first. After a pending row: older, or as old with a lower id; after a market row: older only (at one time every pending row comes before every market row). */
const finishedOrders = preparedShapes((db: Db | Tx, param: Param<PageValues>, shape, rows) => {
  let q = db.selectFrom('orders').selectAll().where('account_id', '=', param('accountId')).where('status', '!=', 'pending');
  if (shape.includes('from;')) q = q.where('updated_at', '>=', param('from'));
  if (shape.includes('to;')) q = q.where('updated_at', '<', param('to'));
  if (shape.includes('after:pending;')) q = q.where((eb) => eb(eb.refTuple('updated_at', 'id'), '<', eb.tuple(param('cursorTime'), param('cursorId'))));
  if (shape.includes('after:market;')) q = q.where('updated_at', '<', param('cursorTime'));
  return q.orderBy('updated_at', 'desc').orderBy('id', 'desc').limit(rows);
});

/**
 * Market orders: the positions no filled pending order opened, newest first. A part closed on its
 * own was no order (it is listed with its position); the order's volume is what it opened, the
 * position's volume now with the parts closed from it since.
 */
const marketOrders = preparedShapes((db: Db | Tx, param: Param<PageValues>, shape, rows) => {
  let q = db
    .selectFrom('positions as p')
    .select(['p.id', 'p.symbol', 'p.side', 'p.open_price', 'p.stop_loss', 'p.take_profit', 'p.comment', 'p.opened_at'])
    .select(sql<number>`p.volume + coalesce((select sum(q.volume) from positions q where q.part_of = p.id), 0)`.as('volume'))
    .where('p.account_id', '=', param('accountId'))
    .where('p.part_of', 'is', null)
    // The account's filled orders narrow the look-up (orders_account_status_idx); a position one of them opened was not a market order.
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('orders as o').select('o.id').whereRef('o.account_id', '=', 'p.account_id').where('o.status', '=', 'filled').whereRef('o.position_id', '=', 'p.id'))));
  if (shape.includes('from;')) q = q.where('p.opened_at', '>=', param('from'));
  if (shape.includes('to;')) q = q.where('p.opened_at', '<', param('to'));
  if (shape.includes('after:market;')) q = q.where((eb) => eb(eb.refTuple('p.opened_at', 'p.id'), '<', eb.tuple(param('cursorTime'), param('cursorId'))));
  if (shape.includes('after:pending;')) q = q.where('p.opened_at', '<=', param('cursorTime'));
  return q.orderBy('p.opened_at', 'desc').orderBy('p.id', 'desc').limit(rows);
});

/**
 * One page of the trader's finished orders. A market order is the position it opened (no pending
 * order points at it), dated when it filled; a pending order is dated when it finished. Each source
 * gives at most a page and one row more after the cursor, and the page is the newest of both: the
 * rows are ordered by (time, pending before market, id), so following the cursors returns every
 * row exactly once.
 */
export async function orderHistoryPage(db: Db, accountId: number, q: Page<OrderCursor>): Promise<{ data: OrderHistoryRow[]; nextCursor: string | null }> {
  const limit = q.limit ?? HISTORY_PAGE_DEFAULT;
  const c = q.before;
  const shape = `${rangeShape(q)}${c ? `after:${c.kind};` : ''}`;
  const values: PageValues = { accountId, from: q.from ?? 0, to: q.to ?? 0, cursorTime: c?.time ?? 0, cursorId: c?.id ?? 0, limit: limit + 1 };
  const [orders, positions] = await Promise.all([finishedOrders.all(db, shape, values), marketOrders.all(db, shape, values)]);
  const keyed: Keyed[] = [
    ...orders.map(
      (o): Keyed => ({
        time: Number(o.updated_at),
        rank: 1,
        id: o.id,
        row: {
          kind: 'pending',
          orderId: o.id,
          ticket: o.position_id,
          symbol: o.symbol,
          orderType: o.type,
          volume: o.volume,
          price: o.price,
          stopLimitPrice: o.stop_limit_price,
          stopLoss: o.stop_loss,
          takeProfit: o.take_profit,
          comment: o.comment,
          status: o.status as OrderHistoryRow['status'],
          reason: o.reason,
          timeStamp: isoTime(Number(o.created_at)),
          updatedAt: isoTime(Number(o.updated_at)),
        },
      }),
    ),
    ...positions.map(
      (p): Keyed => ({
        time: Number(p.opened_at),
        rank: 0,
        id: p.id,
        row: {
          kind: 'market',
          orderId: null,
          ticket: p.id,
          symbol: p.symbol,
          orderType: p.side,
          // A sum of lots in floating point (0.1 + 0.2): back to the lot's decimals.
          volume: Math.round(Number(p.volume) * 1e8) / 1e8,
          price: p.open_price,
          stopLimitPrice: 0,
          stopLoss: p.stop_loss,
          takeProfit: p.take_profit,
          comment: p.comment,
          status: 'filled',
          reason: 'Filled at market',
          timeStamp: isoTime(Number(p.opened_at)),
          updatedAt: isoTime(Number(p.opened_at)),
        },
      }),
    ),
  ].sort(newestFirst);
  const page = keyed.slice(0, limit);
  const last = page.at(-1);
  return { data: page.map((k) => k.row), nextCursor: keyed.length > limit && last ? orderCursorOf(last.time, last.row.kind, last.id) : null };
}

const balanceEntries = preparedShapes((db: Db | Tx, param: Param<PageValues>, shape, rows) => {
  let q = db.selectFrom('ledger_entries').select(['id', 'kind', 'amount_cents', 'balance_after_cents', 'ref_type', 'ref_id', 'memo', 'created_at']).where('account_id', '=', param('accountId')).where('kind', '!=', 'trade');
  if (shape.includes('from;')) q = q.where('created_at', '>=', param('from'));
  if (shape.includes('to;')) q = q.where('created_at', '<', param('to'));
  if (shape.includes('after;')) q = q.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(param('cursorTime'), param('cursorId'))));
  return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(rows);
});

export type BalanceOperationRow = { id: number; kind: string; amount: string; balanceAfter: string; ticket: number | null; comment: string; timeStamp: string };

/** One page of the ledger's entries other than closed positions' profits, newest first (by time, then id). */
export async function balanceOperationsPage(db: Db, accountId: number, q: Page<{ time: number; id: number }>): Promise<{ data: BalanceOperationRow[]; nextCursor: string | null }> {
  const limit = q.limit ?? HISTORY_PAGE_DEFAULT;
  const c = q.before;
  const found = await balanceEntries.all(db, `${rangeShape(q)}${c ? 'after;' : ''}`, { accountId, from: q.from ?? 0, to: q.to ?? 0, cursorTime: c?.time ?? 0, cursorId: c?.id ?? 0, limit: limit + 1 });
  const page = found.slice(0, limit);
  const last = page.at(-1);
  return {
    data: page.map((r) => ({
      id: r.id,
      kind: r.kind,
      amount: formatCents(r.amount_cents),
      balanceAfter: formatCents(r.balance_after_cents),
      // A position's profit and swap name it as 'position'; its commissions as 'position.open' / 'position.close' (one entry of a kind per reference).
      ticket: /^position(\.open|\.close)?$/.test(r.ref_type) && /^\d+$/.test(r.ref_id) ? Number(r.ref_id) : null,
      comment: r.memo,
      timeStamp: isoTime(Number(r.created_at)),
    })),
    nextCursor: found.length > limit && last ? pageCursorOf(Number(last.created_at), last.id) : null,
  };
}

export interface HistoryTotals {
  profit: string;
  swaps: string;
  deposits: string;
  withdrawals: string;
  other: { kind: string; amount: string }[];
  net: string;
  credit: string;
  closedPositions: number;
}

type RangeValues = { accountId: number; from: number; to: number };
const ledgerSums = preparedShapes((db: Db | Tx, param: Param<RangeValues>, shape) => {
  let q = db.selectFrom('ledger_entries').select(['kind', sql<number>`cast(sum(amount_cents) as bigint)`.as('total')]).where('account_id', '=', param('accountId'));
  if (shape.includes('from;')) q = q.where('created_at', '>=', param('from'));
  if (shape.includes('to;')) q = q.where('created_at', '<', param('to'));
  return q.groupBy('kind').orderBy('kind');
});
const closedCount = preparedShapes((db: Db | Tx, param: Param<RangeValues>, shape) => {
  let q = db.selectFrom('positions').select((eb) => eb.fn.countAll<number>().as('n')).where('account_id', '=', param('accountId')).where('status', '=', 'closed');
  if (shape.includes('from;')) q = q.where('closed_at', '>=', param('from'));
  if (shape.includes('to;')) q = q.where('closed_at', '<', param('to'));
  return q;
});

/**
 * The range's totals, from the ledger (a position's profit and swap are posted when it closes, so
 * they fall in the range its close does) and the count of positions closed in it.
 */
export async function historyTotals(db: Db, accountId: number, range: Range): Promise<HistoryTotals> {
  const shape = rangeShape(range);
  const values: RangeValues = { accountId, from: range.from ?? 0, to: range.to ?? 0 };
  const [rows, count] = await Promise.all([ledgerSums.all(db, shape, values), closedCount.first(db, shape, values)]);
  const byKind = new Map<string, Cents>(rows.map((r) => [r.kind, Number(r.total)]));
  const of = (kind: string) => byKind.get(kind) ?? 0;
  const named = new Set(['trade', 'swap', 'deposit', 'withdrawal', 'credit']);
  const other = rows.filter((r) => !named.has(r.kind) && Number(r.total) !== 0).map((r) => ({ kind: r.kind, amount: formatCents(Number(r.total)) }));
  // Every kind but credit moves the balance.
  const net = rows.reduce((sum, r) => (r.kind === 'credit' ? sum : sum + Number(r.total)), 0);
  return {
    profit: formatCents(of('trade')),
    swaps: formatCents(of('swap')),
    deposits: formatCents(of('deposit')),
    withdrawals: formatCents(-of('withdrawal')),
    other,
    net: formatCents(net),
    credit: formatCents(of('credit')),
    closedPositions: Number(count?.n ?? 0),
  };
}
