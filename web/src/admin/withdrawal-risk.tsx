import { Alert, Badge, Group, SimpleGrid, Skeleton, Stack, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { Fragment, useMemo } from 'react';
import { useWithdrawalRisk, type WithdrawalRisk } from '../api/money-tools-queries';
import { formatPercent, formatUsd, formatVolume, signOf } from '../format/format';
import { badgeStyles } from './admin-parts';

/**
 * What the approver of a withdrawal needs to see about its account: the live free margin, what is
 * open (positions, lots, margin held), and whether the trader's own funds cover the amount now.
 * The server decides at approval with the same rule (`approvable`); this only shows it beforehand.
 */

/** The figures of every account in the withdrawal queue, by account number. */
export function useRiskByAccount(requestIds: readonly number[], enabled: boolean) {
  const query = useWithdrawalRisk(requestIds, enabled);
  const byAccount = useMemo(() => new Map((query.data?.data ?? []).map((r) => [r.accountNumber, r])), [query.data]);
  return { byAccount, isPending: query.isPending && enabled, isError: query.isError };
}

/** Whether the amount is more than an approval may take now (null: not known, a position cannot be valued). */
export function exceedsApprovable(risk: WithdrawalRisk, amount: string): boolean | null {
  if (risk.approvable === null) return null;
  return Number(amount) > Number(risk.approvable);
}

const exposure = (r: WithdrawalRisk) =>
  r.openPositions === 0 ? 'No open positions' : `${r.openPositions} ${r.openPositions === 1 ? 'position' : 'positions'} · ${formatVolume(r.openVolume)} lots · margin ${formatUsd(r.margin)}`;

/** The risk of one pending withdrawal, in a table cell or a phone's record: free margin, exposure, and a flag when it is not covered. */
export function WithdrawalRiskSummary({ risk, amount, loading, failed }: { risk: WithdrawalRisk | undefined; amount: string; loading: boolean; failed: boolean }) {
  if (!risk) {
    if (loading) return <Skeleton h={32} w={170} />;
    return (
      <Text size="xs" c="dimmed">
        {failed ? 'Account figures unavailable' : '—'}
      </Text>
    );
  }
  const over = exceedsApprovable(risk, amount);
  const negative = signOf(risk.freeMargin) < 0;
  return (
    <Stack gap={2} miw={0} data-testid={`risk-${risk.traderId}`}>
      <Group gap={6} wrap="nowrap">
        <Text size="sm" className={`tp-figure ${negative ? 'tp-negative' : ''}`} style={{ whiteSpace: 'nowrap' }}>
          Free margin {formatUsd(risk.freeMargin)}
        </Text>
        {over === true && (
          <Tooltip label={`The trader's own funds cover at most ${formatUsd(risk.approvable)} USD now; the server refuses more.`}>
            <Badge color="red" variant="light" size="sm" styles={badgeStyles} leftSection={<IconAlertTriangle size={12} aria-hidden />} tabIndex={0}>
              Not covered
            </Badge>
          </Tooltip>
        )}
        {over === null && (
          <Badge color="yellow" variant="light" size="sm" styles={badgeStyles}>
            Cannot value
          </Badge>
        )}
      </Group>
      <Text size="xs" c="dimmed" className="tp-figure" truncate="end">
        {exposure(risk)}
      </Text>
    </Stack>
  );
}

/** The same in one line across the queue's table, under the withdrawal's row. */
export function WithdrawalRiskLine({ risk, amount, loading, failed }: { risk: WithdrawalRisk | undefined; amount: string; loading: boolean; failed: boolean }) {
  if (!risk) {
    if (loading) return <Skeleton h={16} w={420} />;
    return (
      <Text size="xs" c="dimmed">
        {failed ? "The trader's account figures could not be loaded." : '—'}
      </Text>
    );
  }
  const over = exceedsApprovable(risk, amount);
  const dot = (
    <Text span size="xs" c="dimmed" aria-hidden>
      ·
    </Text>
  );
  return (
    <Group gap={8} wrap="wrap" data-testid={`risk-${risk.traderId}`} role="group" aria-label="Trader's account now">
      <Text span size="xs" c="dimmed" fw={600} tt="uppercase" style={{ letterSpacing: '0.04em' }}>
        Account now
      </Text>
      <Text span size="xs" className={`tp-figure ${signOf(risk.freeMargin) < 0 ? 'tp-negative' : ''}`} fw={600}>
        Free margin {formatUsd(risk.freeMargin)}
      </Text>
      {dot}
      <Text span size="xs" className="tp-figure">
        Equity {formatUsd(risk.equity)}
      </Text>
      {signOf(risk.credit) !== 0 && (
        <>
          {dot}
          <Text span size="xs" className="tp-figure">
            Credit {formatUsd(risk.credit)}
          </Text>
        </>
      )}
      {dot}
      <Text span size="xs" className="tp-figure">
        {exposure(risk)}
        {signOf(risk.margin) !== 0 ? ` (level ${formatPercent(risk.marginLevel)})` : ''}
      </Text>
      {over === true && (
        <Badge color="red" variant="light" size="sm" styles={badgeStyles} leftSection={<IconAlertTriangle size={12} aria-hidden />}>
          Not covered: at most {formatUsd(risk.approvable)} can be paid now
        </Badge>
      )}
      {over === null && (
        <Badge color="yellow" variant="light" size="sm" styles={badgeStyles}>
          A position cannot be valued
        </Badge>
      )}
    </Group>
  );
}

/** The same in full, in the approval's confirmation: the figures in a list, and a warning the approver cannot miss. */
export function WithdrawalRiskFacts({ risk, amount }: { risk: WithdrawalRisk | undefined; amount: string }) {
  if (!risk) return null;
  const over = exceedsApprovable(risk, amount);
  const facts: [string, string, boolean?][] = [
    ['Balance', `${formatUsd(risk.balance)} USD`],
    ...(signOf(risk.credit) !== 0 ? ([['Credit (not withdrawable)', `${formatUsd(risk.credit)} USD`]] as [string, string][]) : []),
    ['Equity', `${formatUsd(risk.equity)} USD`],
    ['Free margin', `${formatUsd(risk.freeMargin)} USD`, signOf(risk.freeMargin) < 0],
    ['Open positions', risk.openPositions === 0 ? 'None' : `${risk.openPositions} (${formatVolume(risk.openVolume)} lots)`],
    ...(signOf(risk.margin) !== 0
      ? ([
          ['Margin', `${formatUsd(risk.margin)} USD`],
          ['Margin level', formatPercent(risk.marginLevel)],
        ] as [string, string][])
      : []),
    ['Pending withdrawals', `${formatUsd(risk.pendingWithdrawals)} USD`],
    ['Can be paid now', risk.approvable === null ? 'Not known' : `${formatUsd(risk.approvable)} USD`],
  ];
  return (
    <Stack gap="xs">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600} style={{ letterSpacing: '0.04em' }}>
        Trader's account now
      </Text>
      <SimpleGrid cols={2} spacing={4} verticalSpacing={4} role="group" aria-label="Trader's account now" data-testid="risk-facts">
        {facts.map(([label, value, warn]) => (
          <Fragment key={label}>
            <Text size="sm" c="dimmed">
              {label}
            </Text>
            <Text size="sm" className={`tp-figure ${warn ? 'tp-negative' : ''}`} style={{ overflowWrap: 'anywhere' }}>
              {value}
            </Text>
          </Fragment>
        ))}
      </SimpleGrid>
      {over === true && (
        <Alert color="red" variant="light" role="alert" icon={<IconAlertTriangle size={16} />} title="Not covered by the trader's own funds" styles={{ title: { color: 'var(--mantine-color-text)' } }}>
          With the open positions, at most {formatUsd(risk.approvable)} USD can be paid now; credit does not count. At these prices the server refuses this approval.
        </Alert>
      )}
      {over === null && (
        <Alert color="yellow" variant="light" role="status" title="Positions cannot be valued" styles={{ title: { color: 'var(--mantine-color-text)' } }}>
          A position has no current price or conversion rate, so the server cannot approve withdrawals for this trader right now.
        </Alert>
      )}
    </Stack>
  );
}
