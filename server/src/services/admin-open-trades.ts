import type { AdminOpenTradesQuery } from '@tradeport/contracts';
import type { Cents } from '../domain/money';

/** One open position as the back office lists it. */
export interface OpenTradeRow {
  tradeId: number;
  accountNumber: number;
  fullSymbol: string;
  timeStamp: string;
  volume: number;
  orginalPrice: number;
  tradesTypesName: 'buy' | 'sell';
  profit: string | null;
}

/** One trader's open positions as the back office lists them (getOpenTrades' rows). */
export interface OpenTradesGroup {
  traderId: number;
  traderFirstName: string;
  traderLastName: string;
  traderEmail: string;
  trades: OpenTradeRow[];
}

/** What the search reads of a trader. */
export interface TraderNames {
  first_name: string;
  last_name: string;
  email: string;
}

/** What the search reads of a position: its ticket and symbol. */
export interface Ticketed {
  id: number;
  symbol: string;
}

/** One trader's open positions, before any row is shaped. */
export interface Holding<P extends Ticketed> {
  traderId: number;
  positions: readonly P[];
}

/**
 * The spec's open-trades search: "contains", ignoring case. A trader whose name or email contains the
 * text keeps all of their trades; otherwise only the trades whose symbol, ticket (a leading # left
 * out) or account number (`numberOf`) contains it are kept, and a trader with none is left out.
 */
function searched<P extends Ticketed>(holdings: readonly Holding<P>[], search: string | undefined, names: ReadonlyMap<number, TraderNames>, numberOf: (p: P) => number): readonly Holding<P>[] {
  const text = search?.toLowerCase() ?? '';
  if (text === '') return holdings;
  const ticket = text.replace(/^#/, '');
  const out: Holding<P>[] = [];
  for (const h of holdings) {
    const n = names.get(h.traderId);
    if (n && (`${n.first_name} ${n.last_name}`.trim().toLowerCase().includes(text) || n.email.toLowerCase().includes(text))) {
      out.push(h);
      continue;
    }
    const positions = h.positions.filter((p) => p.symbol.toLowerCase().includes(text) || String(p.id).includes(ticket) || String(numberOf(p)).includes(text));
    if (positions.length > 0) out.push({ traderId: h.traderId, positions });
  }
  return out;
}

/** Where a page of `count` traders starts and ends (`limit` absent: to the end). */
function pageRange(count: number, query: Pick<AdminOpenTradesQuery, 'limit' | 'offset'>): [start: number, end: number] {
  const start = Math.min(count, query.offset ?? 0);
  return [start, query.limit === undefined ? count : Math.min(count, start + query.limit)];
}

/**
 * One page of the open trades (`holdings`: every holder, in id order): the traders `query`'s search
 * keeps (it reads `names`, which must hold every holder when there is a search), from `offset`, at
 * most `limit` (all when no limit is given), with how many traders and positions it kept and the
 * sum of the kept positions' profits in cents as the list shows them (`profitCents`; null: no price,
 * left out). `numberOf` gives a position's account number, for the search. Only the page's
 * positions are shaped into rows, by the caller.
 */
export function openTradesPage<P extends Ticketed>(
  holdings: readonly Holding<P>[],
  query: Pick<AdminOpenTradesQuery, 'search' | 'limit' | 'offset'>,
  names: ReadonlyMap<number, TraderNames>,
  profitCents: (p: P) => Cents | null,
  numberOf: (p: P) => number,
): { total: number; trades: number; floatingCents: Cents; page: readonly Holding<P>[] } {
  const kept = searched(holdings, query.search, names, numberOf);
  let trades = 0;
  let floatingCents = 0;
  for (const h of kept) {
    trades += h.positions.length;
    for (const p of h.positions) floatingCents += profitCents(p) ?? 0;
  }
  const [start, end] = pageRange(kept.length, query);
  return { total: kept.length, trades, floatingCents: floatingCents as Cents, page: kept.slice(start, end) };
}
