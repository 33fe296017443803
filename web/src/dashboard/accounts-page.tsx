import { Alert, Button, Card, Group, Modal, SegmentedControl, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { IconPlus, IconRefresh } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import type { TradingAccount } from '@tradeport/contracts';
import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '../api/client';
import { switchAccount, useActingAccountId, useOpenAccount, useResetDemo, useTradingAccounts } from '../api/trading-accounts';
import { formatBalance, formatPercent } from '../format/format';
import { newIdempotencyKey } from '../money/money-form';
import { AccountKindBadge } from '../terminal/account-switcher';
import { EmptyState, ErrorState, PageHeader } from '../ui/page';
import { toastError, toastSuccess } from '../ui/toast';

const FILTERS = ['All', 'Live', 'Demo'] as const;
type Filter = (typeof FILTERS)[number];

const STATE = { active: { text: 'Active', color: 'var(--tp-positive)' }, 'close-only': { text: 'Close-only', color: 'var(--tp-warning)' }, disabled: { text: 'Disabled', color: 'var(--tp-negative)' } } as const;

function Figure({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600} className="tp-figure" data-testid={testId}>
        {value}
      </Text>
    </div>
  );
}

/** One trading account: its number, kind and state, its figures now, and what can be done with it. */
function AccountCard({ account, shown, onTrade, onDeposit, onReset }: { account: TradingAccount; shown: boolean; onTrade(): void; onDeposit(): void; onReset(): void }) {
  const state = STATE[account.state];
  return (
    <Card padding="lg" data-testid="account-card" data-account={account.number} aria-label={`${account.kind === 'demo' ? 'Demo' : 'Live'} account ${account.number}`} component="section">
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <div>
          <Group gap={6}>
            <AccountKindBadge account={account} />
            {account.primary && (
              <Text size="xs" c="dimmed">
                Main account
              </Text>
            )}
          </Group>
          <Text fw={700} fz="lg" className="tp-figure" mt={4}>
            {account.number}
          </Text>
          <Text size="xs" c="dimmed">
            {account.type} · {account.currency} · 1:{account.leverage}
          </Text>
        </div>
        <Stack gap={4} align="flex-end">
          <Text size="xs" fw={600} c={state.color} data-testid="account-state">
            {state.text}
          </Text>
          {shown && (
            <Text size="xs" c="dimmed">
              Shown in the terminal
            </Text>
          )}
        </Stack>
      </Group>
      <SimpleGrid cols={{ base: 2, xs: 4 }} mt="md" spacing="sm">
        <Figure label="Balance" value={formatBalance(account.balance)} testId="account-balance" />
        <Figure label="Equity" value={formatBalance(account.equity)} />
        <Figure label="Free margin" value={formatBalance(account.freeMargin)} />
        <Figure label="Margin level" value={Number(account.margin) > 0 ? formatPercent(account.marginLevel) : '—'} />
      </SimpleGrid>
      <Text size="xs" c="dimmed" mt="xs">
        {account.openPositions} open position{account.openPositions === 1 ? '' : 's'} · {account.pendingOrders} pending order{account.pendingOrders === 1 ? '' : 's'}
      </Text>
      <Group mt="md" grow>
        <Button onClick={onTrade} disabled={account.state === 'disabled'}>
          Trade
        </Button>
        {account.kind === 'live' ? (
          <Button variant="light" onClick={onDeposit} disabled={account.state === 'disabled'}>
            Deposit
          </Button>
        ) : (
          <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={onReset}>
            Reset
          </Button>
        )}
      </Group>
    </Card>
  );
}

/**
 * Trading Accounts (docs/api.md#trading-accounts): every account of the trader, live and demo, with
 * its figures; open a demo or another live account, reset a demo one, and pick the account the
 * terminal shows ("Trade").
 */
export function AccountsPage() {
  const [filter, setFilter] = useState<Filter>('All');
  const list = useTradingAccounts();
  const client = useQueryClient();
  const navigate = useNavigate();
  const chosen = useActingAccountId();
  const open = useOpenAccount();
  const reset = useResetDemo();
  const [resetting, setResetting] = useState<TradingAccount | null>(null);
  const openKey = useRef<{ kind: string; key: string } | null>(null);
  const accounts = list.data?.data ?? [];
  const shownId = accounts.find((a) => a.id === chosen)?.id ?? accounts.find((a) => a.primary)?.id;
  const visible = accounts.filter((a) => filter === 'All' || a.kind === filter.toLowerCase());
  const live = accounts.filter((a) => a.kind === 'live').length;
  const demo = accounts.length - live;

  const openOne = (kind: 'live' | 'demo') => {
    // One key per intent: a double click or a retry opens one account.
    if (openKey.current?.kind !== kind) openKey.current = { kind, key: newIdempotencyKey() };
    open.mutate(
      { input: { kind }, key: openKey.current.key },
      {
        onSuccess: (answer) => {
          openKey.current = null;
          toastSuccess(answer.message);
        },
        onError: (error) => {
          openKey.current = null;
          toastError(errorMessage(error), 'Could not open the account');
        },
      },
    );
  };
  // Trading and depositing act on the account chosen: the card's account is chosen first.
  const goWith = (a: TradingAccount, to: string) => void switchAccount(client, a.id).then(() => navigate(to));

  return (
    <Stack gap="lg">
      <PageHeader
        title="Trading Accounts"
        description="Your live and demo accounts. Each has its own balance, positions and history."
        actions={
          <Group gap="xs">
            <Button variant="default" leftSection={<IconPlus size={16} />} onClick={() => openOne('demo')} loading={open.isPending && open.variables?.input.kind === 'demo'} disabled={!list.data || demo >= list.data.maxDemo}>
              Open demo account
            </Button>
            <Button variant="default" leftSection={<IconPlus size={16} />} onClick={() => openOne('live')} loading={open.isPending && open.variables?.input.kind === 'live'} disabled={!list.data || live >= list.data.maxLive}>
              Open live account
            </Button>
          </Group>
        }
      />
      {list.data && (
        <Text size="sm" c="dimmed">
          A demo account starts with {formatBalance(list.data.demoInitialBalance)} USD of virtual money. You may hold up to {list.data.maxLive} live and {list.data.maxDemo} demo accounts.
        </Text>
      )}
      <SegmentedControl aria-label="Account kind" data={[...FILTERS]} value={filter} onChange={(v) => setFilter(v as Filter)} size="xs" style={{ alignSelf: 'flex-start' }} />
      {list.isError ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : list.isLoading ? (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <Skeleton h={230} radius="md" />
          <Skeleton h={230} radius="md" />
        </SimpleGrid>
      ) : visible.length === 0 ? (
        <EmptyState message={`No ${filter.toLowerCase()} accounts.`} />
      ) : (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          {visible.map((a) => (
            <AccountCard key={a.id} account={a} shown={a.id === shownId} onTrade={() => goWith(a, '/trading')} onDeposit={() => goWith(a, '/dashboard/deposit_options')} onReset={() => {
                reset.reset();
                setResetting(a);
              }} />
          ))}
        </SimpleGrid>
      )}
      <Modal opened={resetting !== null} onClose={() => setResetting(null)} title="Reset the demo account?" centered>
        {resetting && (
          <Stack gap="md">
            <Text size="sm">
              Demo account <b className="tp-figure">{resetting.number}</b> goes back to {formatBalance(resetting.initialBalance ?? '0')} USD. Its {resetting.openPositions} open position{resetting.openPositions === 1 ? '' : 's'} will be closed at current prices and its {resetting.pendingOrders} pending order{resetting.pendingOrders === 1 ? '' : 's'} cancelled. Its history is kept.
            </Text>
            {reset.isError && (
              <Alert color="red" variant="light" role="alert">
                {errorMessage(reset.error)}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setResetting(null)}>
                Keep it
              </Button>
              <Button
                color="orange"
                loading={reset.isPending}
                onClick={() =>
                  reset.mutate(
                    { accountId: resetting.id },
                    {
                      onSuccess: (answer) => {
                        toastSuccess(answer.message);
                        setResetting(null);
                      },
                    },
                  )
                }
              >
                Reset account
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}
