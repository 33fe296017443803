import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { negatedMoney, sumMoney } from '../../format/money-sum';
import { callApi, type CallOutput } from '../client';
import { invalidate, optimisticChange } from './cache';
import { adminQueryKeys, PENDING_REFETCH_MS, type ClosedTradeFilters, type OpenTradesQuery } from './keys';

/** Every trader's open trades (closable by an administrator) and closed trades. */

export type OpenTradesGroup = CallOutput<'getOpenTrades'>['data'][number];
export type ClosedTradeRow = CallOutput<'getClosedTrades'>['data'][number];
type OpenTrades = CallOutput<'getOpenTrades'>;
type Trade = OpenTradesGroup['trades'][number];

/** Open trades searched and paged per trader on the server (`total`, `trades` and `floatingProfit` count every match). */
export function useOpenTrades(query: OpenTradesQuery) {
  return useQuery({
    queryKey: adminQueryKeys.openTradesList(query),
    queryFn: ({ signal }) => callApi('getOpenTrades', query, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: PENDING_REFETCH_MS,
  });
}

export function useClosedTrades(filters: ClosedTradeFilters, enabled = true) {
  return useQuery({
    queryKey: adminQueryKeys.closedTradesList(filters),
    queryFn: ({ signal }) => callApi('getClosedTrades', filters, { signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

interface CloseInput {
  traderId: number;
  ticket: number;
}

/** Which cached pages showed the trade, and the trade and its trader as they were. */
interface Shown {
  showing: ReadonlySet<string>;
  group?: OpenTradesGroup;
  trade?: Trade;
}

/**
 * A close as every cached page shows it: the trade leaves at once (its trader too, if it was their
 * last) and its profit leaves the floating total; refused, it comes back on the pages that showed
 * it, unless a refetch already brought it back.
 */
export function closeTradeChange(client: QueryClient) {
  return optimisticChange<CloseInput, OpenTrades, Shown>(client, adminQueryKeys.openTrades, {
    remember: ({ traderId, ticket }, answers) => {
      const showing = new Set<string>();
      let group: OpenTradesGroup | undefined;
      for (const [key, answer] of answers) {
        const g = answer.data.find((x) => x.traderId === traderId && x.trades.some((t) => t.tradeId === ticket));
        if (g) {
          showing.add(JSON.stringify(key));
          group ??= g;
        }
      }
      return { showing, group, trade: group?.trades.find((t) => t.tradeId === ticket) };
    },
    apply: (answer, { traderId, ticket }) => {
      const g = answer.data.find((x) => x.traderId === traderId);
      const t = g?.trades.find((x) => x.tradeId === ticket);
      if (!g || !t) return answer;
      return {
        ...answer,
        total: answer.total - (g.trades.length === 1 ? 1 : 0),
        trades: answer.trades - 1,
        floatingProfit: t.profit === null ? answer.floatingProfit : sumMoney([answer.floatingProfit, negatedMoney(t.profit)]),
        data: answer.data.map((x) => (x.traderId === traderId ? { ...x, trades: x.trades.filter((y) => y.tradeId !== ticket) } : x)).filter((x) => x.trades.length > 0),
      };
    },
    undo: (answer, { traderId, ticket }, { showing, group, trade }, key) => {
      if (!group || !trade || !showing.has(JSON.stringify(key))) return answer;
      const current = answer.data.find((g) => g.traderId === traderId);
      if (current?.trades.some((t) => t.tradeId === ticket)) return answer;
      const restored = current ? { ...current, trades: [...current.trades, trade].sort((a, b) => a.tradeId - b.tradeId) } : { ...group, trades: [trade] };
      return {
        ...answer,
        total: answer.total + (current ? 0 : 1),
        trades: answer.trades + 1,
        floatingProfit: trade.profit === null ? answer.floatingProfit : sumMoney([answer.floatingProfit, trade.profit]),
        data: current ? answer.data.map((g) => (g.traderId === traderId ? restored : g)) : [...answer.data, restored].sort((a, b) => a.traderId - b.traderId),
      };
    },
  });
}

/** Close any trader's position at the server's price. The trade leaves the list at once and comes back if refused. */
export function useAdminCloseTrade() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ traderId, ticket }: CloseInput) => callApi('editStatusTrades', { traders_id: traderId, ticket }),
    ...closeTradeChange(client),
    onSettled: () => void invalidate(client, [adminQueryKeys.openTrades, adminQueryKeys.closedTrades, adminQueryKeys.traders, adminQueryKeys.traderDetails, adminQueryKeys.auditLog]),
  });
}
