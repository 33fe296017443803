import type { Selectable } from 'kysely';
import { formatCents } from '../../domain/money';
import type { BookQuote } from '../../market/types';
import { isoTime } from '../../services/context';
import type { OrdersTable, PositionsTable } from '../../storage/schema-trading';
import type { OpenPosition, PendingOrder } from '../../trading/engine';
import { trailingOf } from '../../trading/positions';

/**
 * The rows of the trading answers as the spec writes them (field names, order and formats): open
 * positions, pending orders and closed positions. Shared by the trader's calls and the back office's.
 */

export const sideName = (p: { side: 'buy' | 'sell' }) => (p.side === 'buy' ? ('Buy' as const) : ('Sell' as const));

/** A getTrades row: the position, its profit now (null without a price) and its symbol's quote. */
export const openTradeOf = (p: OpenPosition, group: string, profit: string | null, q: BookQuote | undefined) => ({
  ticket: p.id,
  symbol: p.symbol,
  fullSymbol: p.symbol,
  currencyType: group,
  timeStamp: isoTime(p.openedAt),
  type: sideName(p),
  volume: p.volume,
  orginalPrice: p.openPrice,
  stopLoss: p.stopLoss,
  takeProfit: p.takeProfit,
  trailingStop: p.trailing,
  swap: formatCents(p.swapCents),
  commission: formatCents(p.commissionCents),
  comment: p.comment,
  profit,
  bid: q?.bid ?? null,
  ask: q?.ask ?? null,
});

export const pendingOrderOf = (r: Selectable<OrdersTable>) => ({
  orderId: r.id,
  symbol: r.symbol,
  orderType: r.type,
  volume: r.volume,
  price: r.price,
  stopLimitPrice: r.stop_limit_price,
  stopTriggered: r.stop_triggered === 1,
  stopLoss: r.stop_loss,
  takeProfit: r.take_profit,
  comment: r.comment,
  expiration: r.expires_at === null ? null : isoTime(Number(r.expires_at)),
  trailingStop: trailingOf(r),
  status: r.status,
  reason: r.reason,
  ticket: r.position_id,
  timeStamp: isoTime(r.created_at),
  updatedAt: isoTime(r.updated_at),
});

/** A pending order the engine holds, as `pendingOrderOf` writes its row (a pending order has no reason yet and no ticket). */
export const heldOrderOf = (o: PendingOrder): ReturnType<typeof pendingOrderOf> => ({
  orderId: o.id,
  symbol: o.symbol,
  orderType: o.type,
  volume: o.volume,
  price: o.price,
  stopLimitPrice: o.stopLimitPrice,
  stopTriggered: o.stopTriggered,
  stopLoss: o.stopLoss,
  takeProfit: o.takeProfit,
  comment: o.comment,
  expiration: o.expiresAt === null ? null : isoTime(o.expiresAt),
  trailingStop: o.trailing,
  status: 'pending',
  reason: '',
  ticket: null,
  timeStamp: isoTime(o.createdAt),
  updatedAt: isoTime(o.updatedAt),
});

export type ClosedRow = Pick<
  Selectable<PositionsTable>,
  'id' | 'symbol' | 'side' | 'volume' | 'open_price' | 'stop_loss' | 'take_profit' | 'opened_at' | 'close_price' | 'closed_at' | 'close_reason' | 'profit_cents' | 'swap_cents' | 'commission_cents' | 'comment' | 'part_of'
>;

/** The columns of a closed position that `historyOf` shows. */
export const CLOSED_COLUMNS = ['p.id', 'p.symbol', 'p.side', 'p.volume', 'p.open_price', 'p.stop_loss', 'p.take_profit', 'p.opened_at', 'p.close_price', 'p.closed_at', 'p.close_reason', 'p.profit_cents', 'p.swap_cents', 'p.commission_cents', 'p.comment', 'p.part_of'] as const;

export const historyOf = (r: ClosedRow) => ({
  ID: r.id,
  symbol: r.symbol,
  timeStamp: isoTime(r.opened_at),
  tradeType: sideName(r),
  volume: r.volume,
  tradePrice: r.open_price,
  stopLoss: r.stop_loss,
  takeProfit: r.take_profit,
  lastPrice: r.close_price ?? 0,
  profit: formatCents(r.profit_cents ?? 0),
  swap: formatCents(r.swap_cents),
  commission: formatCents(r.commission_cents),
  closeTime: isoTime(r.closed_at ?? r.opened_at),
  closeReason: r.close_reason ?? ('manual' as const),
  comment: r.comment,
  partOf: r.part_of === null ? null : Number(r.part_of),
});
