import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { TradingAccount } from '@tradeport/contracts';
import { useSyncExternalStore } from 'react';
import { callApi, type CallInput } from './client';
import { queryKeys } from './query-keys';

/**
 * The trader's trading accounts (docs/api.md#trading-accounts) and the one the screens show. The
 * choice is this browser's: the `tp_account` cookie, which goes with every call (the page's
 * preloaded reads and the stream included), so the server answers for the chosen account; it
 * passes over a choice that is not the signed-in person's, and then the first live account is
 * shown, as here.
 *
 * Switching never shows one account's rows as another's: the cookie changes first, then every
 * request of the old account still under way is cancelled and what the screens held of it is reset
 * to nothing, so they load the new account's (showing their loading state meanwhile).
 */

/** What belongs to one trading account: reset on a switch. Everything else is the person's. */
export const ACCOUNT_KEYS = [queryKeys.trades, queryKeys.pendingOrders, queryKeys.margins, queryKeys.withdrawable, queryKeys.tradesHistory, queryKeys.ledger] as const;

const COOKIE = 'tp_account';
const YEAR_S = 365 * 24 * 3600;
const listeners = new Set<() => void>();
let last: number | null | undefined;

/** The account the browser chose (its cookie), or null. */
export function chosenAccount(): number | null {
  if (typeof document === 'undefined') return null;
  const match = /(?:^|;\s*)tp_account=(\d{1,10})(?:;|$)/.exec(document.cookie);
  const id = match ? Number(match[1]) : null;
  // The same value each time it is read while the cookie is the same (useSyncExternalStore needs it).
  if (id !== last) last = id;
  return last;
}

/** Switches the screens to `accountId` (see above). */
export async function switchAccount(client: QueryClient, accountId: number): Promise<void> {
  if (chosenAccount() === accountId) return;
  document.cookie = `${COOKIE}=${accountId}; path=/; max-age=${YEAR_S}; SameSite=Lax${location.protocol === 'https:' ? '; Secure' : ''}`;
  // Requests of the old account still under way are dropped, then what the screens hold of it is
  // reset to nothing: the panels on screen load the new account's (their loading state meanwhile).
  await Promise.all(ACCOUNT_KEYS.map((queryKey) => client.cancelQueries({ queryKey })));
  listeners.forEach((l) => l());
  await Promise.all(ACCOUNT_KEYS.map((queryKey) => client.resetQueries({ queryKey })));
  void client.invalidateQueries({ queryKey: queryKeys.accounts });
}

/** The id of the account the browser chose (null: none, the first live one is shown). */
export function useActingAccountId(): number | null {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    chosenAccount,
    chosenAccount,
  );
}

export function useTradingAccounts(enabled = true) {
  return useQuery({ queryKey: queryKeys.accounts, queryFn: ({ signal }) => callApi('getAccounts', undefined, { signal }), enabled });
}

/** The account the screens show, from the list: the chosen one, or the first live one. */
export function currentAccountOf(accounts: readonly TradingAccount[] | undefined, chosen: number | null): TradingAccount | undefined {
  return accounts?.find((a) => a.id === chosen) ?? accounts?.find((a) => a.primary);
}

export function useCurrentAccount(): { account: TradingAccount | undefined; accounts: readonly TradingAccount[] | undefined; isLoading: boolean; isError: boolean } {
  const list = useTradingAccounts();
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
