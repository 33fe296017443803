import { Group, Paper, Select, SimpleGrid, Skeleton, Stack, Table, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { accountLabel, switchAccount, useCurrentAccount } from '../api/trading-accounts';
import { useStatement, type Statement } from '../api/statements';
import { formatDateTime, formatUsd, signOf } from '../format/format';
import { usePhone } from '../ui/records';
import { EmptyState, ErrorState, PageHeader } from '../ui/page';
import { StatementDownloads } from '../statements/statement-downloads';
import { useStatementPeriod } from '../statements/statement-period-field';

/** A summary line: its label and amount, the totals in bold, a change signed and coloured. */
function Line({ label, value, total = false, signed = false }: { label: string; value: string | null; total?: boolean; signed?: boolean }) {
  const sign = signed && value !== null ? signOf(value) : 0;
  return (
    <Table.Tr style={total ? { background: 'var(--mantine-color-default-hover)' } : undefined}>
      <Table.Td fw={total ? 650 : 400}>{label}</Table.Td>
      <Table.Td className={`tp-num ${sign > 0 ? 'tp-positive' : sign < 0 ? 'tp-negative' : ''}`} fw={total ? 650 : 400} data-testid={`statement-${label}`}>
        {value === null ? '—' : `${sign > 0 ? '+' : ''}${formatUsd(value)}`}
      </Table.Td>
    </Table.Tr>
  );
}

/** The statement's summary as its PDF opens: from the opening balance, what moved, to the closing balance and the equity. */
function Summary({ s }: { s: Statement }) {
  const m = s.summary;
  return (
    <Table aria-label="Statement summary" verticalSpacing={6} withRowBorders>
      <Table.Tbody>
        <Line label="Opening balance" value={m.openingBalance} total />
        <Line label="Deposits" value={m.deposits} signed />
        <Line label="Withdrawals" value={m.withdrawals} signed />
        <Line label="Closed trades profit" value={m.tradesProfit} signed />
        <Line label="Swaps" value={m.swaps} signed />
        <Line label="Commissions" value={m.commissions} signed />
        <Line label="Adjustments" value={m.adjustments} signed />
        <Line label="Transfers" value={m.transfers} signed />
        {s.account.kind === 'demo' && <Line label="Demo funds and resets" value={m.demoResets} signed />}
        <Line label="Closing balance" value={m.closingBalance} total />
        <Line label="Credit at the start" value={m.openingCredit} />
        <Line label="Credit at the end" value={m.closingCredit} />
        <Line label="Floating profit and swap at the end" value={m.floating} signed />
        <Line label="Equity at the end" value={m.equity} total />
      </Table.Tbody>
    </Table>
  );
}

function Count({ label, value }: { label: string; value: number }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={650} fz="lg" className="tp-figure">
        {value.toLocaleString('en-US')}
      </Text>
    </div>
  );
}

/**
 * Account statements (docs/api.md#statements): a month, or any range of UTC days, of the account
 * the screens show — its summary here, the whole statement as PDF or CSV. Choosing another account
 * switches the screens to it, as the deposit form does.
 */
export function StatementsPage() {
  const client = useQueryClient();
  const phone = usePhone();
  const { account, accounts, isLoading } = useCurrentAccount();
  const { period, field } = useStatementPeriod(phone ? 'md' : 'sm');
  const statement = useStatement(account?.id ?? null, period);
  const s = statement.data;

  return (
    <Stack gap="lg" maw={880}>
      <PageHeader title="Account Statements" description="Balances from the ledger, deposits and withdrawals, closed trades with their swaps and commissions, and the positions open at the end — for a month or any range of days." />
      <Paper p={{ base: 'md', sm: 'lg' }}>
        <Group align="flex-end" gap="md" wrap="wrap">
          <Select
            label="Trading account"
            placeholder={isLoading ? 'Loading…' : 'Choose an account'}
            data={(accounts ?? []).map((a) => ({ value: String(a.id), label: `${accountLabel(a)} · ${a.type}` }))}
            value={account ? String(account.id) : null}
            onChange={(id) => id && void switchAccount(client, Number(id))}
            allowDeselect={false}
            size={phone ? 'md' : 'sm'}
            w={{ base: '100%', xs: 260 }}
            classNames={{ input: 'tp-figure' }}
            data-testid="statement-account"
          />
          {field}
        </Group>
        <Group mt="md" justify="space-between" align="center" wrap="wrap" gap="sm">
          <Text size="xs" c="dimmed">
            {period ? `${period.from} to ${period.to}, UTC` : 'Choose a period.'}
          </Text>
          <StatementDownloads call="downloadStatement" input={period} disabled={!account} size={phone ? 'lg' : 'sm'} />
        </Group>
      </Paper>

      {!isLoading && !account ? (
        <EmptyState message="You have no trading account yet: a statement is made for one." />
      ) : !period ? (
        <EmptyState message="Choose a period the statement can cover." />
      ) : statement.isError ? (
        <ErrorState error={statement.error} onRetry={() => void statement.refetch()} title="Could not make the statement" />
      ) : !s ? (
        <Paper p="lg" role="status" aria-busy="true" aria-label="Loading the statement">
          <Stack gap="sm">
            {Array.from({ length: 8 }, (_, i) => (
              <Skeleton key={i} h={20} />
            ))}
          </Stack>
        </Paper>
      ) : (
        <Paper p={{ base: 'md', sm: 'lg' }} data-testid="statement-summary">
          <Group justify="space-between" align="flex-start" mb="sm" wrap="wrap" gap="xs">
            <div>
              <Text fw={650}>
                {s.account.kind === 'demo' ? 'Demo' : 'Live'} {s.account.number} · {s.account.type}
              </Text>
              <Text size="xs" c="dimmed">
                {s.account.holder} · {s.account.currency} · 1:{s.account.leverage}
              </Text>
            </div>
            <Text size="xs" c="dimmed" ta="right">
              Made {formatDateTime(s.generatedAt)}
            </Text>
          </Group>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xl">
            <Summary s={s} />
            <Stack gap="md">
              <SimpleGrid cols={3} spacing="sm">
                <Count label="Closed trades" value={s.trades.length} />
                <Count label="Balance operations" value={s.operations.length} />
                <Count label="Open at the end" value={s.openPositions.length} />
              </SimpleGrid>
              <Text size="xs" c="dimmed">
                {s.valuedAt === 'quotes'
                  ? 'The period reaches today: open positions are valued at the live prices, with the swap they have accrued.'
                  : 'Open positions are valued at the closing price of the period (the last bid of its final minute); their accrued swap is booked when they close.'}{' '}
                The balances are the sums of the account’s ledger entries at the period’s start and end. The PDF and CSV list every trade and operation.
              </Text>
            </Stack>
          </SimpleGrid>
        </Paper>
      )}
    </Stack>
  );
}
