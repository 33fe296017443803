import { Button, Group, Select, Stack, Table, Text } from '@mantine/core';
import { AccountStatementButton } from './account-statement';
import { useCan } from '../api/queries';
import { IconRefresh } from '@tabler/icons-react';
import type { AccountState, TradingAccount } from '@tradeport/contracts';
import { errorMessage } from '../api/client';
import { useAccountTypes, useSetAccountType, type AccountTypeRow } from '../api/admin/account-types';
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

/** The account's type, and the move to another active type of its kind (refused, with the reason, when it would stop the account out). */
function TypeSelect({ account, types }: { account: TradingAccount; types: readonly AccountTypeRow[] | undefined }) {
  const move = useSetAccountType();
  const options = (types ?? []).filter((t) => t.kind === account.kind && (t.state === 'active' || t.id === account.typeId)).map((t) => ({ value: String(t.id), label: t.name, disabled: t.state !== 'active' }));
  if (!options.some((o) => o.value === String(account.typeId))) options.unshift({ value: String(account.typeId), label: account.type, disabled: true });
  return (
    <Select
      aria-label={`Type of account ${account.number}`}
      data={options}
      value={move.isPending ? String(move.variables?.typeId ?? account.typeId) : String(account.typeId)}
      allowDeselect={false}
      size="xs"
      w={140}
      disabled={move.isPending || types === undefined}
      onChange={(v) =>
        v &&
        Number(v) !== account.typeId &&
        move.mutate({ accountId: account.id, typeId: Number(v) }, { onSuccess: (answer) => toastSuccess(answer.message), onError: (error) => toastError(errorMessage(error), 'The account was not moved') })
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
 * A trader's trading accounts in the back office: each with its figures now, its type and its
 * state (active, close-only, disabled), both changed here and audited, its statement, and, for a demo account, a reset. Demo accounts are
 * marked; their money counts in none of the page's totals.
 */
export function TraderAccounts({ traderId }: { traderId: number }) {
  const list = useTraderAccounts(traderId);
  // Moving, locking and resetting accounts is dealing work; statements are finance's and support's.
  const can = useCan();
  const manages = can('accounts.manage');
  const types = useAccountTypes(manages);
  if (list.isError) return <ErrorState error={list.error} onRetry={() => void list.refetch()} />;
  if (!list.data) return <TableSkeleton rows={2} />;
  const accounts = list.data.data;
  if (accounts.length === 0) return <EmptyState message="This user holds no trading account." />;
  return (
    <Stack gap="xs">
      <Table.ScrollContainer minWidth={1000}>
        <Table verticalSpacing="xs" aria-label="Trading accounts" striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Account</Table.Th>
              <Table.Th ta="right">Balance</Table.Th>
              <Table.Th ta="right">Equity</Table.Th>
              <Table.Th ta="right">Free margin</Table.Th>
              <Table.Th ta="right">Level</Table.Th>
              <Table.Th ta="right">Positions</Table.Th>
              <Table.Th>Type</Table.Th>
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
                <Table.Td>{manages ? <TypeSelect account={a} types={types.data?.data} /> : <Text size="sm">{a.type}</Text>}</Table.Td>
                <Table.Td>{manages ? <StateSelect account={a} /> : <Text size="sm">{STATES.find((s) => s.value === a.state)?.label ?? a.state}</Text>}</Table.Td>
                <Table.Td>
                  <Group gap={6} wrap="nowrap" justify="flex-end">
                    {can('statements.view') && <AccountStatementButton account={a} />}
                    {a.kind === 'demo' && manages && <ResetButton account={a} />}
                  </Group>
                </Table.Td>
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
