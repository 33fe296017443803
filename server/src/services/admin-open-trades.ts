import type { AdminOpenTradesQuery } from '@tradeport/contracts';
import { formatCents, toCents } from '../domain/money';

/** One trader's open positions as the back office lists them (getOpenTrades' rows). */
export interface OpenTradesGroup {
  traderId: number;
  traderFirstName: string;
  traderLastName: string;
  traderEmail: string;
  trades: { tradeId: number; fullSymbol: string; timeStamp: string; volume: number; orginalPrice: number; tradesTypesName: 'buy' | 'sell'; profit: string | null }[];
}

/**
 * The spec's open-trades search: "contains", ignoring case. A trader whose name or email contains the
 * text keeps all of their trades; otherwise only the trades whose symbol or ticket (a leading # left
 * out) contains it are kept, and a trader with none is left out.
 */
function searched(groups: readonly OpenTradesGroup[], search: string | undefined): readonly OpenTradesGroup[] {
  const text = search?.toLowerCase() ?? '';
  if (text === '') return groups;
  const ticket = text.replace(/^#/, '');
  const out: OpenTradesGroup[] = [];
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

/**
 * One page of the open trades (`groups`: every holder, in id order): the traders `query`'s search
 * keeps, from `offset`, at most `limit` (all when no limit is given), with how many traders and
 * trades it kept and the sum of those trades' profits (the ones with a price), to the cent.
 */
export function openTradesPage(groups: readonly OpenTradesGroup[], query: AdminOpenTradesQuery): { total: number; trades: number; floatingProfit: string; data: OpenTradesGroup[] } {
  const kept = searched(groups, query.search);
  let trades = 0;
  let floatingCents = 0;
  for (const g of kept) {
    trades += g.trades.length;
    for (const t of g.trades) if (t.profit !== null) floatingCents += toCents(t.profit);
  }
  const offset = query.offset ?? 0;
  const data = query.limit === undefined ? kept.slice(offset) : kept.slice(offset, offset + query.limit);
  return { total: kept.length, trades, floatingProfit: formatCents(floatingCents), data };
}
