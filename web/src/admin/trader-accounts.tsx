import { Button, Group, Select, Stack, Table, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import type { AccountState, TradingAccount } from '@tradeport/contracts';
import { errorMessage } from '../api/client';
import { useAdminResetDemo, useSetAccountState, useTraderAccounts } from '../api/admin/users';
import { formatBalance, formatPercent } from '../format/format';
import { AccountKindBadge } from '../terminal/account-switcher';
import { EmptyState, ErrorState, TableSkeleton } from '../ui/page';
import { toastError, toastSuccess } from '../ui/toast';

const STATES: { value: AccountState; label: string }[] = [
  { value: 'active', label: 'Active' },
  { value: 'close-only', label: 'Close-only' },
  { value: 'disabled', label: 'Disabled' },
];

function StateSelect({ account }: { account: TradingAccount }) {
  const change = useSetAccountState();
  return (
    <Select
      aria-label={`State of account ${account.number}`}
      data={STATES}
      value={change.isPending ? (change.variables?.state ?? account.state) : account.state}
      allowDeselect={false}
      size="xs"
      w={130}
      disabled={change.isPending}
      onChange={(v) =>
        v &&
        v !== account.state &&
        change.mutate(
          { accountId: account.id, state: v as AccountState },
          { onSuccess: (answer) => toastSuccess(answer.message), onError: (error) => toastError(errorMessage(error), 'The state was not changed') },
        )
      }
    />
  );
}

function ResetButton({ account }: { account: TradingAccount }) {
  const reset = useAdminResetDemo();
  return (
    <Button
      size="xs"
      variant="default"
      leftSection={<IconRefresh size={14} aria-hidden />}
      loading={reset.isPending}
      onClick={() => reset.mutate({ accountId: account.id }, { onSuccess: (answer) => toastSuccess(answer.message), onError: (error) => toastError(errorMessage(error), 'The demo account was not reset') })}
    >
      Reset
    </Button>
  );
}

/**
 * A trader's trading accounts in the back office: each with its figures now, its state (active,
 * close-only, disabled: changed here, audited) and, for a demo account, a reset. Demo accounts are
 * marked; their money counts in none of the page's totals.
 */
export function TraderAccounts({ traderId }: { traderId: number }) {
  const list = useTraderAccounts(traderId);
  if (list.isError) return <ErrorState error={list.error} onRetry={() => void list.refetch()} />;
  if (!list.data) return <TableSkeleton rows={2} />;
  const accounts = list.data.data;
  if (accounts.length === 0) return <EmptyState message="This user holds no trading account." />;
  return (
    <Stack gap="xs">
      <Table.ScrollContainer minWidth={860}>
        <Table verticalSpacing="xs" aria-label="Trading accounts" striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Account</Table.Th>
              <Table.Th ta="right">Balance</Table.Th>
              <Table.Th ta="right">Equity</Table.Th>
              <Table.Th ta="right">Free margin</Table.Th>
              <Table.Th ta="right">Level</Table.Th>
              <Table.Th ta="right">Positions</Table.Th>
              <Table.Th>State</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {accounts.map((a) => (
              <Table.Tr key={a.id} data-testid={`trader-account-${a.number}`}>
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    <AccountKindBadge account={a} size="xs" />
                    <Text size="sm" fw={600} className="tp-figure">
                      {a.number}
                    </Text>
                    <Text size="xs" c="dimmed">
                      1:{a.leverage}
                    </Text>
                  </Group>
                </Table.Td>
                <Table.Td ta="right" className="tp-figure">
                  {formatBalance(a.balance)}
                </Table.Td>
                <Table.Td ta="right" className="tp-figure">
                  {formatBalance(a.equity)}
                </Table.Td>
                <Table.Td ta="right" className="tp-figure">
                  {formatBalance(a.freeMargin)}
                </Table.Td>
                <Table.Td ta="right" className="tp-figure">
                  {Number(a.margin) > 0 ? formatPercent(a.marginLevel) : '—'}
                </Table.Td>
                <Table.Td ta="right" className="tp-figure">
                  {a.openPositions}
                </Table.Td>
                <Table.Td>
                  <StateSelect account={a} />
                </Table.Td>
                <Table.Td>{a.kind === 'demo' && <ResetButton account={a} />}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Text size="xs" c="dimmed">
        The figures above the tabs are the first live account&apos;s. Demo money counts in no total.
      </Text>
    </Stack>
  );
}
