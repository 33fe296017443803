import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { TradingAccount } from '@tradeport/contracts';
import { useSyncExternalStore } from 'react';
import { callApi, callsActOn, type CallInput } from './client';
import { queryKeys } from './query-keys';

/**
 * The trader's trading accounts (docs/api.md#trading-accounts) and the one the screens show.
 *
 * The browser's choice is the `tp_account` cookie: it goes with every request, the page's preloaded
 * reads included, so a page opens on it (the server passes over a choice that is not the signed-in
 * person's and answers for their first live account). Once the list of accounts is in, the tab
 * pins the account it shows and names it in every trader call (`X-Trading-Account`): another tab
 * that switches later changes the browser's choice, never what this tab trades on.
 *
 * Switching never shows one account's rows as another's: the pin and the cookie change first, then
 * every request of the old account still under way is cancelled and what the screens held of it is
 * reset to nothing, so they load the new account's (showing their loading state meanwhile).
 */

/** What belongs to one trading account: reset on a switch. Everything else is the person's. */
export const ACCOUNT_KEYS = [queryKeys.trades, queryKeys.pendingOrders, queryKeys.margins, queryKeys.withdrawable, queryKeys.tradesHistory, queryKeys.ledger] as const;

const COOKIE = 'tp_account';
const YEAR_S = 365 * 24 * 3600;
const listeners = new Set<() => void>();
/** The account this tab shows and trades on, once the list of accounts has told it (null before). */
let pinned: number | null = null;
callsActOn(() => pinned);

function writeCookie(accountId: number): void {
  document.cookie = `${COOKIE}=${accountId}; path=/; max-age=${YEAR_S}; SameSite=Lax${location.protocol === 'https:' ? '; Secure' : ''}`;
}

/** The account the screens show: the tab's, or (not known yet) the browser's choice. */
export function shownAccountId(): number | null {
  return pinned ?? chosenAccount();
}

/**
 * With the list of accounts in: the tab keeps the account it shows while it is still the person's;
 * otherwise (first load, or it is gone) it takes the browser's choice, or the first live account,
 * and the cookie says so (a choice another person left in the browser is replaced).
 */
function settle(accounts: readonly TradingAccount[]): void {
  if (pinned !== null && accounts.some((a) => a.id === pinned)) return;
  const shown = currentAccountOf(accounts, chosenAccount());
  pinned = shown?.id ?? null;
  if (shown && chosenAccount() !== shown.id) writeCookie(shown.id);
  listeners.forEach((l) => l());
}

/** The account the browser chose (its cookie), or null. */
export function chosenAccount(): number | null {
  if (typeof document === 'undefined') return null;
  const match = /(?:^|;\s*)tp_account=(\d{1,10})(?:;|$)/.exec(document.cookie);
  return match ? Number(match[1]) : null;
}

/** Switches the screens to `accountId` (see above). */
export async function switchAccount(client: QueryClient, accountId: number): Promise<void> {
  if (shownAccountId() === accountId) return;
  pinned = accountId;
  writeCookie(accountId);
  // Requests of the old account still under way are dropped, then what the screens hold of it is
  // reset to nothing: the panels on screen load the new account's (their loading state meanwhile).
  await Promise.all(ACCOUNT_KEYS.map((queryKey) => client.cancelQueries({ queryKey })));
  listeners.forEach((l) => l());
  await Promise.all(ACCOUNT_KEYS.map((queryKey) => client.resetQueries({ queryKey })));
  void client.invalidateQueries({ queryKey: queryKeys.accounts });
}

/** Calls `listener` with the account the screens show now and whenever it changes; returns the way to stop. */
export function followShownAccount(listener: (accountId: number | null) => void): () => void {
  let last: number | null | undefined;
  const tell = () => {
    const now = shownAccountId();
    if (now !== last) listener((last = now));
  };
  listeners.add(tell);
  tell();
  return () => listeners.delete(tell);
}

/** The id of the account the screens show (null: not known yet; the first live one is shown). */
export function useActingAccountId(): number | null {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    shownAccountId,
    shownAccountId,
  );
}

export function useTradingAccounts(enabled = true) {
  return useQuery({
    queryKey: queryKeys.accounts,
    queryFn: async ({ signal }) => {
      const answer = await callApi('getAccounts', undefined, { signal });
      settle(answer.data);
      return answer;
    },
    enabled,
  });
}

/** The account the screens show, from the list: the chosen one, or the first live one. */
export function currentAccountOf(accounts: readonly TradingAccount[] | undefined, chosen: number | null): TradingAccount | undefined {
  return accounts?.find((a) => a.id === chosen) ?? accounts?.find((a) => a.primary);
}

/** `enabled` false (not a trader: no trading accounts): nothing is read, and no account is shown. */
export function useCurrentAccount(enabled = true): { account: TradingAccount | undefined; accounts: readonly TradingAccount[] | undefined; isLoading: boolean; isError: boolean } {
  const list = useTradingAccounts(enabled);
  const chosen = useActingAccountId();
  return { account: currentAccountOf(list.data?.data, chosen), accounts: list.data?.data, isLoading: list.isLoading, isError: list.isError };
}

/** "Demo 12345678" / "Live 12345678": an account as the switcher and notices name it. */
export const accountLabel = (a: Pick<TradingAccount, 'kind' | 'number'>): string => `${a.kind === 'demo' ? 'Demo' : 'Live'} ${a.number}`;

export function useOpenAccount() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ input, key }: { input: CallInput<'openAccount'>; key: string }) => callApi('openAccount', input, { idempotencyKey: key }),
    onSettled: () => void client.invalidateQueries({ queryKey: queryKeys.accounts }),
  });
}

export function useResetDemo() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CallInput<'resetDemoAccount'>) => callApi('resetDemoAccount', input),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: queryKeys.accounts });
      for (const queryKey of ACCOUNT_KEYS) void client.invalidateQueries({ queryKey });
    },
  });
}

export function useTransferFunds() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ input, key }: { input: CallInput<'transferFunds'>; key: string }) => callApi('transferFunds', input, { idempotencyKey: key }),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: queryKeys.accounts });
      for (const queryKey of [queryKeys.margins, queryKeys.withdrawable, queryKeys.ledger]) void client.invalidateQueries({ queryKey });
    },
  });
}
