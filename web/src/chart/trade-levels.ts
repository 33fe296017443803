import type { CallInput } from '../api/client';
import type { AlertRow, OpenTradeRow, PendingOrderRow } from '../api/terminal-queries';
import { ORDER_TYPE_LABELS } from '../format/order-types';

export type LevelKind = 'entry' | 'sl' | 'tp' | 'order' | 'alert';

/** A price line of the trader's own: a position's entry, its SL or TP, a pending order's price, or a waiting price alert. */
export interface TradeLevel {
  key: string;
  kind: LevelKind;
  price: number;
  label: string;
  /** SL, TP, order prices and alerts can be dragged; an entry cannot. */
  draggable: boolean;
  ticket?: number;
  orderId?: number;
  alertId?: number;
}

const volume = (v: number) => v.toFixed(2);

/** Every level of the symbol's open positions, pending orders and waiting alerts, in a stable order. */
export function levelsOf(trades: readonly OpenTradeRow[], orders: readonly PendingOrderRow[], symbol: string, digits: number, alerts: readonly AlertRow[] = []): TradeLevel[] {
  const out: TradeLevel[] = [];
  for (const t of trades) {
    if (t.symbol !== symbol && t.fullSymbol !== symbol) continue;
    out.push({ key: `entry-${t.ticket}`, kind: 'entry', price: t.orginalPrice, label: `#${t.ticket} ${t.type} ${volume(t.volume)} at ${t.orginalPrice.toFixed(digits)}`, draggable: false, ticket: t.ticket });
    if (t.stopLoss > 0) out.push({ key: `sl-${t.ticket}`, kind: 'sl', price: t.stopLoss, label: `#${t.ticket} SL ${t.stopLoss.toFixed(digits)}`, draggable: true, ticket: t.ticket });
    if (t.takeProfit > 0) out.push({ key: `tp-${t.ticket}`, kind: 'tp', price: t.takeProfit, label: `#${t.ticket} TP ${t.takeProfit.toFixed(digits)}`, draggable: true, ticket: t.ticket });
  }
  for (const o of orders) {
    if (o.symbol !== symbol || o.status !== 'pending') continue;
    out.push({ key: `order-${o.orderId}`, kind: 'order', price: o.price, label: `#${o.orderId} ${ORDER_TYPE_LABELS[o.orderType]} ${volume(o.volume)} at ${o.price.toFixed(digits)}`, draggable: true, orderId: o.orderId });
  }
  for (const a of alerts) {
    if (a.symbol !== symbol || a.status !== 'active') continue;
    out.push({ key: `alert-${a.alertId}`, kind: 'alert', price: a.level, label: `Alert ${a.price} ${a.direction === 'above' ? '≥' : '≤'} ${a.level.toFixed(digits)}`, draggable: true, alertId: a.alertId });
  }
  return out;
}

/** Whether a level can be removed from its label (an SL or TP; entries and orders cannot). */
export function isRemovable(level: TradeLevel): boolean {
  return (level.kind === 'sl' || level.kind === 'tp') && level.draggable;
}

/** The name of a level's remove control, e.g. 'Remove the stop loss of #7'. */
export function removeName(level: TradeLevel): string {
  return `Remove the ${level.kind === 'sl' ? 'stop loss' : 'take profit'} of #${level.ticket}`;
}

export type LevelChange =
  | { call: 'modifyTrades'; input: CallInput<'modifyTrades'>; what: string }
  | { call: 'modifyPendingOrder'; input: CallInput<'modifyPendingOrder'>; what: string }
  | { call: 'modifyAlert'; input: CallInput<'modifyAlert'>; what: string };

/**
 * The request that moves a level to a price (0 removes an SL or TP), keeping everything else of the
 * position, order or alert as it is; null when it is gone, or when the price, in the instrument's
 * digits, is the one it has already (a click on a line, or a drag back to where it started, changes
 * nothing and sends nothing). An alert moved above its price (`quote`'s bid or ask) waits for the
 * price to rise to it, one moved below for the price to fall to it.
 */
export function changeFor(level: TradeLevel, price: number, trades: readonly OpenTradeRow[], orders: readonly PendingOrderRow[], digits: number, alerts: readonly AlertRow[] = [], quote?: { bid: number | null; ask: number | null }): LevelChange | null {
  const p = Number(price.toFixed(digits));
  if (level.kind === 'sl' || level.kind === 'tp') {
    const t = trades.find((x) => x.ticket === level.ticket);
    if (!t) return null;
    if (p === (level.kind === 'sl' ? t.stopLoss : t.takeProfit)) return null;
    const name = level.kind === 'sl' ? 'stop loss' : 'take profit';
    return {
      call: 'modifyTrades',
      input: { ticket: t.ticket, stopLoss: level.kind === 'sl' ? p : t.stopLoss, takeProfit: level.kind === 'tp' ? p : t.takeProfit, trailingStop: t.trailingStop },
      what: p === 0 ? `Remove the ${name} of #${t.ticket}?` : `Move the ${name} of #${t.ticket} to ${p.toFixed(digits)}?`,
    };
  }
  if (level.kind === 'order') {
    const o = orders.find((x) => x.orderId === level.orderId);
    if (!o || p === o.price) return null;
    return {
      call: 'modifyPendingOrder',
      input: { orderId: o.orderId, price: p, stopLimitPrice: o.stopLimitPrice, stopLoss: o.stopLoss, takeProfit: o.takeProfit, expiration: o.expiration, trailingStop: o.trailingStop },
      what: `Move ${ORDER_TYPE_LABELS[o.orderType]} #${o.orderId} to ${p.toFixed(digits)}?`,
    };
  }
  if (level.kind === 'alert') {
    const a = alerts.find((x) => x.alertId === level.alertId);
    if (!a || p === a.level) return null;
    const now = (a.price === 'bid' ? quote?.bid : quote?.ask) ?? null;
    const direction = now === null || p === now ? a.direction : p > now ? 'above' : 'below';
    return {
      call: 'modifyAlert',
      input: { alertId: a.alertId, price: a.price, direction, level: p, note: a.note, expiration: a.expiration, byMail: a.byMail },
      what: `Move the alert on the ${a.price} to ${direction} ${p.toFixed(digits)}?`,
    };
  }
  return null;
}
