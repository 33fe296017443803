import { Select } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import type { TradingAccount } from '@tradeport/contracts';
import { accountLabel, switchAccount, useCurrentAccount } from '../api/trading-accounts';
import { formatUsd } from '../format/format';

/**
 * Which live trading account a deposit or withdrawal request is for: the account the screens show
 * when it is live (a request acts on it, as every call does), else none until one is picked.
 * Picking one switches the screens to it, so the figures beside the form are that account's.
 * Demo accounts are not offered: they hold virtual money only.
 */
export function useLiveAccountChoice(): { account: TradingAccount | null; onDemo: boolean; field: (error?: string) => React.ReactNode } {
  const client = useQueryClient();
  const { account, accounts, isLoading } = useCurrentAccount();
  const live = (accounts ?? []).filter((a) => a.kind === 'live');
  const chosen = account?.kind === 'live' ? account : null;
  const field = (error?: string) => (
    <Select
      label="Trading account"
      description={account?.kind === 'demo' ? `${accountLabel(account)} holds virtual money only: choose a live account.` : undefined}
      placeholder={isLoading ? 'Loading…' : 'Choose a live account'}
      data={live.map((a) => ({ value: String(a.id), label: `${accountLabel(a)} · ${formatUsd(a.balance)} USD` }))}
      value={chosen ? String(chosen.id) : null}
      onChange={(id) => {
        if (id) void switchAccount(client, Number(id));
      }}
      error={error}
      size="md"
      allowDeselect={false}
      classNames={{ input: 'tp-figure' }}
      data-testid="request-account"
    />
  );
  return { account: chosen, onDemo: account?.kind === 'demo', field };
}
