import type { Quote, SymbolRecord } from '@tradeport/contracts';
import { useCallback, useMemo, useSyncExternalStore } from 'react';
import { stream } from '../stream/stream';

/**
 * Live floating profit for the back office's position tables. The server's figure (in the list it
 * answered) is the reference; between refetches, a row shows the profit at the streamed price with
 * the server's formula (docs/design.md#profit): Buy (bid − open) × contract × volume, Sell (open − ask)
 * × contract × volume, in the quote currency, then in USD at XXXUSD's bid or 1 / USDXXX's bid.
 * Display only, rounded to cents; closing always uses the server's own price.
 */
export interface LivePosition {
  symbol: string;
  side: 'buy' | 'sell';
  volume: number;
  openPrice: number;
  /** The server's profit when the list was read; null when it had no price. */
  serverProfit: string | null;
}

type Prices = Pick<Quote, 'bid' | 'ask'>;

/** The symbol whose price converts `currency` to USD, if the broker lists one. */
function conversionSymbol(currency: string, known: ReadonlyMap<string, SymbolRecord>): string | null {
  if (currency === 'USD') return null;
  if (known.has(`${currency}USD`)) return `${currency}USD`;
  if (known.has(`USD${currency}`)) return `USD${currency}`;
  return null;
}

/** Every symbol a set of positions needs prices for: their own, and their quote currency's USD rate. */
export function symbolsFor(positions: readonly { symbol: string }[], known: ReadonlyMap<string, SymbolRecord>): string[] {
  const set = new Set<string>();
  for (const p of positions) {
    set.add(p.symbol);
    const info = known.get(p.symbol);
    const conversion = info ? conversionSymbol(info.quoteCurrency, known) : null;
    if (conversion) set.add(conversion);
  }
  return [...set].sort();
}

/** Profit at `prices` in USD as a money string, or null without a usable price. */
export function profitAt(p: LivePosition, info: SymbolRecord | undefined, price: (symbol: string) => Prices | undefined, known: ReadonlyMap<string, SymbolRecord>): string | null {
  const q = price(p.symbol);
  if (!info || !q || q.bid === null || q.ask === null) return p.serverProfit;
  const diff = p.side === 'buy' ? q.bid - p.openPrice : p.openPrice - q.ask;
  let usd = diff * info.contractSize * p.volume;
  if (info.quoteCurrency !== 'USD') {
    const conversion = conversionSymbol(info.quoteCurrency, known);
    const c = conversion ? price(conversion) : undefined;
    if (!conversion || !c || !c.bid) return p.serverProfit;
    usd = conversion.startsWith('USD') ? usd / c.bid : usd * c.bid;
  }
  // Round half away from zero on the cent, after taking off the float noise of the products.
  const cents = Math.round(Math.abs(Number((usd * 100).toFixed(6))));
  const negative = usd < 0 && cents > 0;
  return `${negative ? '-' : ''}${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/**
 * The streamed prices of several symbols, re-rendering when any of them moves. The snapshot is a
 * string of the prices, so an unrelated tick or an unchanged quote never re-renders.
 */
export function useLivePrices(symbols: readonly string[]): (symbol: string) => Prices | undefined {
  const key = symbols.join(',');
  const subscribe = useCallback(
    (onChange: () => void) => {
      const offs = (key ? key.split(',') : []).map((s) => stream.subscribeQuote(s, onChange));
      return () => offs.forEach((off) => off());
    },
    [key],
  );
  const snapshot = useCallback(
    () =>
      (key ? key.split(',') : [])
        .map((s) => {
          const q = stream.getQuote(s)?.quote;
          return `${s}:${q?.bid ?? ''}:${q?.ask ?? ''}`;
        })
        .join('|'),
    [key],
  );
  const signature = useSyncExternalStore(subscribe, snapshot);
  return useMemo(() => {
    const map = new Map<string, Prices>();
    for (const part of signature ? signature.split('|') : []) {
      const [symbol = '', bid = '', ask = ''] = part.split(':');
      map.set(symbol, { bid: bid === '' ? null : Number(bid), ask: ask === '' ? null : Number(ask) });
    }
    return (symbol: string) => map.get(symbol);
  }, [signature]);
}
