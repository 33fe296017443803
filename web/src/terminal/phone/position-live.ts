import type { SymbolRecord } from '@tradeport/contracts';
import { useMemo } from 'react';
import type { OpenTradeRow } from '../../api/terminal-queries';
import { useConnectionState } from '../../stream/hooks';
import { stream } from '../../stream/stream';
import { useQuotesFrame } from '../positions-hooks';
import { priceLookup, profitText, symbolsNeeded } from '../positions-live';

export interface LivePosition {
  /** The price it closes at now: the bid for a Buy, the ask for a Sell. */
  current: number | null;
  /** Floating profit, USD (the server's last figure until a quote streams in). */
  profit: string | null;
  /** Why the figures are not live, if they are not: the socket is down, no quote yet, or it is stale. */
  old: boolean;
}

/**
 * A position's current price and profit at streamed prices, with the desktop positions panel's
 * math; the component re-renders at most once a frame, and only for its own symbol and rate.
 */
export function useLivePosition(trade: OpenTradeRow, record: SymbolRecord | undefined, known: ReadonlyMap<string, SymbolRecord>): LivePosition {
  const symbols = useMemo(() => symbolsNeeded(record, known), [record, known]);
  useQuotesFrame(symbols);
  const delayed = useConnectionState() !== 'open';
  const entry = stream.getQuote(trade.symbol)?.quote;
  const buy = trade.type === 'Buy';
  const current = entry ? (buy ? entry.bid : entry.ask) : buy ? trade.bid : trade.ask;
  const profit = entry ? profitText(trade, record, priceLookup((s) => stream.getQuote(s)?.quote)) : trade.profit;
  return { current, profit, old: delayed || !entry || entry.stale };
}
