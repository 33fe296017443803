import { keepPreviousData, useMutation, useMutationState, useQuery, useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import type { AdminEvent } from '@tradeport/contracts';
import { useCallback, useMemo } from 'react';
import { useAdminFeed } from '../admin/admin-feed';
import { ApiError, callApi, type CallInput, type CallOutput } from './client';
import { queryKeys } from './queries';

/**
 * The back office's server state: one hook per admin call, built like queries.ts. Every key starts
 * with 'admin', so signing out (which clears the cache) and broad invalidations reach all of them.
 */
export const adminQueryKeys = {
  all: ['admin'] as const,
  traders: ['admin', 'traders'] as const,
  tradersList: (query: TradersQuery) => ['admin', 'traders', query] as const,
  pendingDeposits: ['admin', 'pending-deposits'] as const,
  pendingWithdrawals: ['admin', 'pending-withdrawals'] as const,
  moneyRequests: ['admin', 'money-requests'] as const,
  moneyRequestsList: (filters: MoneyRequestFilters) => ['admin', 'money-requests', filters] as const,
  paymentAccounts: ['admin', 'payment-accounts'] as const,
  openTrades: ['admin', 'open-trades'] as const,
  openTradesList: (query: OpenTradesQuery) => ['admin', 'open-trades', query] as const,
  closedTrades: ['admin', 'closed-trades'] as const,
  closedTradesList: (filters: ClosedTradeFilters) => ['admin', 'closed-trades', filters] as const,
  auditLog: ['admin', 'audit-log'] as const,
  traderDetails: ['admin', 'trader'] as const,
  traderDetailsOf: (id: number) => ['admin', 'trader', id] as const,
  auditLogPage: (page: AuditPage) => ['admin', 'audit-log', page.filters ?? {}, page.before ?? 'latest', page.limit] as const,
};

/**
 * How often the pending queues are re-read. New requests and other administrators' decisions arrive
 * live through the back-office feed (admin/admin-feed.ts); polling is the fallback while it is down.
 */
export const PENDING_REFETCH_MS = 10_000;

export type MoneyRequestKind = 'deposit' | 'withdrawal';
export type Decision = 'approve' | 'reject';
export type MoneyRequestFilters = CallInput<'getMoneyRequests'>;
export type ClosedTradeFilters = CallInput<'getClosedTrades'>;
export type TradersQuery = CallInput<'getTraders'>;
export type OpenTradesQuery = CallInput<'getOpenTrades'>;
/** The audit log's filters (who acted, whom it was about, the action, UTC days), as getAuditLog takes them. */
export type AuditFilters = Pick<CallInput<'getAuditLog'>, 'actorId' | 'subjectId' | 'action' | 'from' | 'to'>;
export interface AuditPage {
  /** The last id of the previous page; undefined for the newest entries. */
  before?: number;
  limit: number;
  filters?: AuditFilters;
}

export type TraderRow = CallOutput<'getTraders'>['data'][number];
export type PendingDepositRow = CallOutput<'getPendingDeposite'>['data'][number];
export type PendingWithdrawalRow = CallOutput<'getPendingWithdrawal'>['data'][number];
export type MoneyRequestRow = CallOutput<'getMoneyRequests'>['data'][number];
export type PaymentAccountRow = CallOutput<'getPaymentGetways'>['data'][number];
export type OpenTradesGroup = CallOutput<'getOpenTrades'>['data'][number];
export type ClosedTradeRow = CallOutput<'getClosedTrades'>['data'][number];
export type TraderDetails = CallOutput<'getTraderDetails'>;
export type AuditEntry = CallOutput<'getAuditLog'>['data'][number];

type Listing<Row> = { status: 'success'; data: Row[] };

// ------------------------------------------------------------------ queries

/**
 * Users searched, ordered and paged on the server (`total`, `active` and `online` count every match).
 * The page shown stays while the next one loads.
 */
export function useTraders(query: TradersQuery, enabled = true) {
  return useQuery({
    queryKey: adminQueryKeys.tradersList(query),
    queryFn: ({ signal }) => callApi('getTraders', query, { signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/**
 * The pending queue of one kind. Rows whose decision is on its way to the server are left out even
 * if a refetch brings them back before the server has answered, so a decided row never flickers.
 */
function usePendingQueue<Row extends { id: number }>(kind: MoneyRequestKind, queryKey: QueryKey, fetch: (signal: AbortSignal) => Promise<Listing<Row>>) {
  useLiveQueue(kind);
  const deciding = useDecidingIds(kind);
  const select = useCallback((answer: Listing<Row>) => (deciding.size === 0 ? answer : { ...answer, data: answer.data.filter((row) => !deciding.has(row.id)) }), [deciding]);
  return useQuery({ queryKey, queryFn: ({ signal }) => fetch(signal), refetchInterval: PENDING_REFETCH_MS, select });
}

export function usePendingDeposits() {
  return usePendingQueue<PendingDepositRow>('deposit', adminQueryKeys.pendingDeposits, (signal) => callApi('getPendingDeposite', undefined, { signal }));
}

export function usePendingWithdrawals() {
  return usePendingQueue<PendingWithdrawalRow>('withdrawal', adminQueryKeys.pendingWithdrawals, (signal) => callApi('getPendingWithdrawal', undefined, { signal }));
}

/** Every request, filtered and paged on the server (`limit`/`offset`, `total` in the answer). */
export function useMoneyRequests(filters: MoneyRequestFilters, enabled = true) {
  return useQuery({
    queryKey: adminQueryKeys.moneyRequestsList(filters),
    queryFn: ({ signal }) => callApi('getMoneyRequests', filters, { signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function usePaymentAccounts() {
  return useQuery({ queryKey: adminQueryKeys.paymentAccounts, queryFn: ({ signal }) => callApi('getPaymentGetways', undefined, { signal }) });
}

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

/** The audit log, filtered, one page at a time; one extra entry is asked for to know whether another page exists. */
export function useAuditLog(page: AuditPage, enabled = true) {
  return useQuery({
    queryKey: adminQueryKeys.auditLogPage(page),
    queryFn: ({ signal }) => callApi('getAuditLog', { ...page.filters, limit: page.limit + 1, before: page.before }, { signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/**
 * Keeps one pending queue current from the back-office feed: a new request refetches the queue; a
 * decision (by anyone, in any tab) takes the row out at once and refetches what it changed.
 */
function useLiveQueue(kind: MoneyRequestKind) {
  const client = useQueryClient();
  const listener = useCallback(
    (event: AdminEvent | { type: 'resync' }) => {
      const key = pendingKey(kind);
      if (event.type === 'resync') {
        void invalidate(client, [key, adminQueryKeys.moneyRequests]);
        return;
      }
      if (event.kind !== kind) return;
      if (event.type === 'moneyRequest.decided' || event.type === 'moneyRequest.cancelled') {
        updateList<{ id: number }>(client, key, (rows) => rows.filter((r) => r.id !== event.requestId));
        void invalidate(client, [key, adminQueryKeys.moneyRequests, adminQueryKeys.traders, adminQueryKeys.traderDetailsOf(event.traderId), adminQueryKeys.auditLog]);
      } else {
        void invalidate(client, [key, adminQueryKeys.moneyRequests]);
      }
    },
    [client, kind],
  );
  useAdminFeed(listener);
}

/** One user's back-office page; refreshed every 10 s (positions and account figures move with prices). */
export function useTraderDetails(traderId: number) {
  return useQuery({
    queryKey: adminQueryKeys.traderDetailsOf(traderId),
    queryFn: ({ signal }) => callApi('getTraderDetails', { traderId }, { signal }),
    refetchInterval: PENDING_REFETCH_MS,
    enabled: Number.isInteger(traderId) && traderId > 0,
    retry: (count, error) => count < 2 && !(error instanceof ApiError && error.httpStatus === 404),
  });
}

// ------------------------------------------------------------------ helpers

/** Sums money strings ("1250.50") exactly, in cents, and answers a money string. */
export function sumMoney(amounts: readonly string[]): string {
  let cents = 0n;
  for (const amount of amounts) {
    const match = /^(-?)(\d+)\.(\d{2})$/.exec(amount);
    if (!match) continue;
    const [, sign, whole = '0', fraction = '00'] = match;
    const value = BigInt(whole + fraction);
    cents += sign ? -value : value;
  }
  const negative = cents < 0n;
  const digits = (negative ? -cents : cents).toString().padStart(3, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

function invalidate(client: QueryClient, keys: readonly QueryKey[]) {
  return Promise.all(keys.map((queryKey) => client.invalidateQueries({ queryKey })));
}

/** Changes one cached list, if it is cached, and answers how to put the changed rows back. */
function updateList<Row>(client: QueryClient, key: QueryKey, change: (rows: Row[]) => Row[]) {
  const before = client.getQueryData<Listing<Row>>(key);
  if (before) client.setQueryData<Listing<Row>>(key, { ...before, data: change(before.data) });
  return before;
}

/** Changes every cached answer under `prefix` (each page, search and order of a list). */
function updateAnswers<Answer>(client: QueryClient, prefix: QueryKey, change: (answer: Answer, key: QueryKey) => Answer) {
  for (const [key, answer] of client.getQueriesData<Answer>({ queryKey: prefix })) if (answer !== undefined) client.setQueryData(key, change(answer, key));
}

/** A money amount with its sign turned ('0.00' stays as it is). */
export const negatedMoney = (amount: string) => (amount.startsWith('-') ? amount.slice(1) : /^0\.00$/.test(amount) ? amount : `-${amount}`);

// ------------------------------------------------------------------ mutations

export function useEditTraderStatus() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: number; isActive: '1' | '0' }) => callApi('editStatusTraders', input),
    onMutate: async ({ id, isActive }) => {
      await client.cancelQueries({ queryKey: adminQueryKeys.traders });
      const previous = client
        .getQueriesData<CallOutput<'getTraders'>>({ queryKey: adminQueryKeys.traders })
        .map(([, answer]) => answer?.data.find((t) => t.id === id))
        .find((row) => row !== undefined);
      // Every cached page showing the user changes at once, with its counts.
      updateAnswers<CallOutput<'getTraders'>>(client, adminQueryKeys.traders, (answer) => replaceTrader(answer, id, (t) => (t.isActive === isActive ? t : { ...t, isActive, status: isActive === '0' ? 'Offline' : t.status })));
      return { previous };
    },
    // Refused: the row as it was, wherever it still shows what was asked (a refetch may already have put it right).
    onError: (_error, { id, isActive }, context) => {
      const previous = context?.previous;
      if (previous) updateAnswers<CallOutput<'getTraders'>>(client, adminQueryKeys.traders, (answer) => replaceTrader(answer, id, (t) => (t.isActive === isActive ? previous : t)));
    },
    onSettled: () => invalidate(client, [adminQueryKeys.traders, adminQueryKeys.traderDetails, adminQueryKeys.auditLog]),
  });
}

/** An answer of getTraders with one user's row changed by `change`, its counts following the row. */
function replaceTrader(answer: CallOutput<'getTraders'>, id: number, change: (row: TraderRow) => TraderRow): CallOutput<'getTraders'> {
  const row = answer.data.find((t) => t.id === id);
  if (!row) return answer;
  const next = change(row);
  if (next === row) return answer;
  const count = (t: TraderRow, field: 'active' | 'online') => (field === 'active' ? (t.isActive === '1' ? 1 : 0) : t.status === 'Online' ? 1 : 0);
  return {
    ...answer,
    active: answer.active - count(row, 'active') + count(next, 'active'),
    online: answer.online - count(row, 'online') + count(next, 'online'),
    data: answer.data.map((t) => (t.id === id ? next : t)),
  };
}

export function useEditTraderPassword() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { trader_id: number; newPassword: string }) => callApi('editTraderPassword', input),
    // The trader's sessions end, so their Online state changes too.
    onSuccess: () => invalidate(client, [adminQueryKeys.traders, adminQueryKeys.traderDetails, adminQueryKeys.auditLog]),
  });
}

const decideKey = (kind: MoneyRequestKind) => ['admin', 'decide', kind] as const;
const pendingKey = (kind: MoneyRequestKind) => (kind === 'deposit' ? adminQueryKeys.pendingDeposits : adminQueryKeys.pendingWithdrawals);

export interface DecisionInput {
  id: number;
  decision: Decision;
  /** A rejection's reason, shown to the trader. */
  reason?: string;
}

/** The ids of requests of one kind whose decision has been sent and not yet answered. */
export function useDecidingIds(kind: MoneyRequestKind): ReadonlySet<number> {
  const ids = useMutationState({ filters: { mutationKey: decideKey(kind), status: 'pending' }, select: (m) => (m.state.variables as DecisionInput | undefined)?.id });
  // A new set only when the ids change, so the queue's `select` is not rerun on every render.
  const signature = ids.filter((id): id is number => id !== undefined).join(',');
  return useMemo(() => new Set(signature ? signature.split(',').map(Number) : []), [signature]);
}

/**
 * Approve or reject a pending request. The row leaves the queue at once; if the server refuses, it
 * is put back where it was (and the caller shows the server's message).
 */
function useDecide<Row extends { id: number }>(kind: MoneyRequestKind) {
  const client = useQueryClient();
  const key = pendingKey(kind);
  return useMutation({
    mutationKey: decideKey(kind),
    mutationFn: ({ id, decision, reason }: DecisionInput) => {
      const status = decision === 'approve' ? 1 : 2;
      const why = decision === 'reject' && reason ? { reason } : {};
      return kind === 'deposit' ? callApi('editStatusDeposite', { deposites_id: id, status, ...why }) : callApi('editStatusWithdrawal', { withdrawals_id: id, status, ...why });
    },
    onMutate: async ({ id }) => {
      await client.cancelQueries({ queryKey: key });
      const row = client.getQueryData<Listing<Row>>(key)?.data.find((r) => r.id === id);
      updateList<Row>(client, key, (rows) => rows.filter((r) => r.id !== id));
      return { row };
    },
    onError: (_error, { id }, context) => {
      const row = context?.row;
      // Put the row back in id order (the queue is oldest first), unless a refetch already did.
      if (row) updateList<Row>(client, key, (rows) => (rows.some((r) => r.id === id) ? rows : [...rows, row].sort((a, b) => a.id - b.id)));
    },
    onSettled: () => {
      // While other decisions are still on their way, a refetch would only bring their rows back.
      const others = client.isMutating({ mutationKey: decideKey(kind) }) > 1;
      // A decision changes the trader's balance and totals, and the request's place in the history.
      const changed = [adminQueryKeys.moneyRequests, adminQueryKeys.traders, adminQueryKeys.traderDetails, adminQueryKeys.auditLog];
      // Not awaited: the caller's toast (success or the server's refusal) shows at once, not after the refetch.
      void invalidate(client, others ? changed : [key, ...changed]);
    },
  });
}

export function useDecideDeposit() {
  return useDecide<PendingDepositRow>('deposit');
}

export function useDecideWithdrawal() {
  return useDecide<PendingWithdrawalRow>('withdrawal');
}

export function useAddPaymentAccount() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { name: string; number: string; moreInfo: string }) => callApi('addNewPayments', { ...input, isActive: '1' }),
    onSuccess: () => invalidate(client, [adminQueryKeys.paymentAccounts, queryKeys.activePaymentAccounts, adminQueryKeys.auditLog]),
  });
}

export function useEditPaymentAccountStatus() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: number; isActive: '1' | '0' }) => callApi('editStatusPayments', input),
    onMutate: async ({ id, isActive }) => {
      await client.cancelQueries({ queryKey: adminQueryKeys.paymentAccounts });
      const previous = client.getQueryData<Listing<PaymentAccountRow>>(adminQueryKeys.paymentAccounts)?.data.find((a) => a.id === id);
      updateList<PaymentAccountRow>(client, adminQueryKeys.paymentAccounts, (rows) => rows.map((a) => (a.id === id ? { ...a, isActive } : a)));
      return { previous };
    },
    onError: (_error, { id }, context) => {
      const previous = context?.previous;
      if (previous) updateList<PaymentAccountRow>(client, adminQueryKeys.paymentAccounts, (rows) => rows.map((a) => (a.id === id ? previous : a)));
    },
    onSettled: () => invalidate(client, [adminQueryKeys.paymentAccounts, queryKeys.activePaymentAccounts, adminQueryKeys.auditLog]),
  });
}

/** Close any trader's position at the server's price. The trade leaves the list at once and comes back if refused. */
export function useAdminCloseTrade() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ traderId, ticket }: { traderId: number; ticket: number }) => callApi('editStatusTrades', { traders_id: traderId, ticket }),
    onMutate: async ({ traderId, ticket }) => {
      await client.cancelQueries({ queryKey: adminQueryKeys.openTrades });
      // Which cached pages showed the trade, and the trade and its trader as they were.
      const showing = new Set<string>();
      let group: OpenTradesGroup | undefined;
      for (const [key, answer] of client.getQueriesData<CallOutput<'getOpenTrades'>>({ queryKey: adminQueryKeys.openTrades })) {
        const g = answer?.data.find((x) => x.traderId === traderId && x.trades.some((t) => t.tradeId === ticket));
        if (g) {
          showing.add(JSON.stringify(key));
          group ??= g;
        }
      }
      const trade = group?.trades.find((t) => t.tradeId === ticket);
      // The trade leaves every cached page at once (its trader too, if it was their last), and its
      // profit leaves the floating total.
      updateAnswers<CallOutput<'getOpenTrades'>>(client, adminQueryKeys.openTrades, (answer) => {
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
      });
      return { showing, group, trade };
    },
    // Refused: the trade back on the pages that showed it, unless a refetch already brought it back.
    onError: (_error, { traderId, ticket }, context) => {
      const { showing, group, trade } = context ?? {};
      if (!showing || !group || !trade) return;
      updateAnswers<CallOutput<'getOpenTrades'>>(client, adminQueryKeys.openTrades, (answer, key) => {
        if (!showing.has(JSON.stringify(key))) return answer;
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
      });
    },
    onSettled: () => void invalidate(client, [adminQueryKeys.openTrades, adminQueryKeys.closedTrades, adminQueryKeys.traders, adminQueryKeys.traderDetails, adminQueryKeys.auditLog]),
  });
}
