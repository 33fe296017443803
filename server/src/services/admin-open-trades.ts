import type { AdminOpenTradesQuery } from '@tradeport/contracts';
import { formatCents, type Cents } from '../domain/money';

/** One open position as the back office lists it. */
export interface OpenTradeRow {
  tradeId: number;
  fullSymbol: string;
  timeStamp: string;
  volume: number;
  orginalPrice: number;
  tradesTypesName: 'buy' | 'sell';
  profit: string | null;
}

/** One trader's open positions as the back office lists them (getOpenTrades' rows). */
export interface OpenTradesGroup<T extends OpenTradeRow = OpenTradeRow> {
  traderId: number;
  traderFirstName: string;
  traderLastName: string;
  traderEmail: string;
  trades: T[];
}

/** A row with its profit in cents (what `profit` shows), for the page's total. */
export type HeldTrade = OpenTradeRow & { profitCents: Cents | null };

/**
 * The spec's open-trades search: "contains", ignoring case. A trader whose name or email contains the
 * text keeps all of their trades; otherwise only the trades whose symbol or ticket (a leading # left
 * out) contains it are kept, and a trader with none is left out.
 */
function searched(groups: readonly OpenTradesGroup<HeldTrade>[], search: string | undefined): readonly OpenTradesGroup<HeldTrade>[] {
  const text = search?.toLowerCase() ?? '';
  if (text === '') return groups;
  const ticket = text.replace(/^#/, '');
  const out: OpenTradesGroup<HeldTrade>[] = [];
  for (const g of groups) {
    if (`${g.traderFirstName} ${g.traderLastName}`.trim().toLowerCase().includes(text) || g.traderEmail.toLowerCase().includes(text)) {
      out.push(g);
      continue;
    }
    const trades = g.trades.filter((t) => t.fullSymbol.toLowerCase().includes(text) || String(t.tradeId).includes(ticket));
    if (trades.length > 0) out.push({ ...g, trades });
  }
  return out;
}

/** Where a page of `count` traders starts and ends (`limit` absent: to the end). */
export function pageRange(count: number, query: Pick<AdminOpenTradesQuery, 'limit' | 'offset'>): [start: number, end: number] {
  const start = Math.min(count, query.offset ?? 0);
  return [start, query.limit === undefined ? count : Math.min(count, start + query.limit)];
}

/**
 * One page of the open trades (`groups`: every holder, in id order): the traders `query`'s search
 * keeps, from `offset`, at most `limit` (all when no limit is given), with how many traders and
 * trades it kept and the sum of those trades' profits (the ones with a price), to the cent.
 * Without a search only the page's traders need their names.
 */
export function openTradesPage(groups: readonly OpenTradesGroup<HeldTrade>[], query: AdminOpenTradesQuery): { total: number; trades: number; floatingProfit: string; data: OpenTradesGroup[] } {
  const kept = searched(groups, query.search);
  let trades = 0;
  let floatingCents = 0;
  for (const g of kept) {
    trades += g.trades.length;
    for (const t of g.trades) if (t.profitCents !== null) floatingCents += t.profitCents;
  }
  const [start, end] = pageRange(kept.length, query);
  const data = kept.slice(start, end).map((g) => ({ ...g, trades: g.trades.map(({ profitCents: _cents, ...row }) => row) }));
  return { total: kept.length, trades, floatingProfit: formatCents(floatingCents), data };
}
