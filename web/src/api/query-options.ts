import { queryOptions } from '@tanstack/react-query';
import type { PeriodName } from '@tradeport/contracts/periods';
import { callApi } from './client';
import { queryKeys } from './query-keys';

/**
 * The options of the queries a route prefetches in its loader (so their requests start with the
 * session check, not after the page has rendered) as well as reads through its hooks. Kept apart
 * from the hooks, which bring in more of TanStack Query: the router imports only this.
 */
export const profileQuery = queryOptions({ queryKey: queryKeys.profile, queryFn: ({ signal }) => callApi('getProfileDetails', undefined, { signal }) });

export const tradesHistoryQuery = queryOptions({ queryKey: queryKeys.tradesHistory, queryFn: ({ signal }) => callApi('getTradesHistory', undefined, { signal }) });

/** The terminal's open positions, pending orders and account figures (their hooks add the refresh interval). */
export const tradesQuery = queryOptions({ queryKey: queryKeys.trades, queryFn: ({ signal }) => callApi('getTrades', undefined, { signal }) });
export const alertsQuery = queryOptions({ queryKey: queryKeys.alerts, queryFn: ({ signal }) => callApi('getAlerts', undefined, { signal }) });
export const pendingOrdersQuery = queryOptions({ queryKey: [...queryKeys.pendingOrders, 'pending'], queryFn: ({ signal }) => callApi('getPendingOrders', { status: 'pending' }, { signal }) });
export const marginsQuery = queryOptions({ queryKey: queryKeys.margins, queryFn: ({ signal }) => callApi('getMargins', undefined, { signal }) });

export const symbolsQuery = queryOptions({ queryKey: queryKeys.symbols, queryFn: ({ signal }) => callApi('getMainCurrencies', undefined, { signal }), staleTime: 10 * 60_000 });

/**
 * Candles per request: the charts' first page (and each page back in time), and what the dashboard's
 * technical summary reads, so the page's summary and its chart share one request.
 */
export const CANDLE_PAGE = 500;

export const candlesQuery = (symbol: string, period: PeriodName, limit = CANDLE_PAGE) =>
  queryOptions({
    queryKey: [...queryKeys.candles(symbol, period), limit],
    queryFn: ({ signal }) => callApi('getCandles', { symbol, period, limit }, { signal }),
    staleTime: 60_000,
  });

export const appConfigQuery = queryOptions({ queryKey: queryKeys.appConfig, queryFn: ({ signal }) => callApi('getAppConfig', undefined, { signal }), staleTime: Infinity, retry: 1 });
