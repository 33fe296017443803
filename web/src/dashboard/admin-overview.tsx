import { Anchor, Button, Group, Paper, SimpleGrid, Skeleton, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconArrowRight, IconCash, IconChartCandle, IconUsers, IconWallet, type Icon } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useOpenTrades } from '../api/admin/trades';
import { useTraders } from '../api/admin/users';
import { errorMessage } from '../api/client';
import { useLivePendingDeposits, useLivePendingWithdrawals } from '../admin/live-queue';
import { formatUsd, signOf } from '../format/format';
import { sumMoney } from '../format/money-sum';

interface CardQuery {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

/** One figure of the back office, with a line of context and the way to the screen that works on it. */
function OverviewCard({ label, icon: CardIcon, query, value, detail, link }: { label: string; icon: Icon; query: CardQuery; value: string; detail: ReactNode; link?: { to: string; text: string } }) {
  const testId = `admin-card-${label.toLowerCase().replace(/\s+/g, '-')}`;
  return (
    <Paper p="md" data-testid={testId}>
      <Stack gap={6} h="100%" justify="space-between">
        <div>
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Text size="xs" tt="uppercase" fw={600} c="dimmed" style={{ letterSpacing: '0.04em' }}>
              {label}
            </Text>
            <ThemeIcon variant="light" size="md" radius="md" aria-hidden>
              <CardIcon size={16} stroke={1.7} />
            </ThemeIcon>
          </Group>
          {query.isPending ? (
            <Stack gap={8} mt={8} role="status" aria-busy="true" aria-label={`Loading ${label}`}>
              <Skeleton h={30} w="40%" />
              <Skeleton h={14} w="75%" />
            </Stack>
          ) : query.isError ? (
            <Stack gap={6} mt={8} align="flex-start" role="alert">
              <Text size="sm" className="tp-negative">
                {errorMessage(query.error)}
              </Text>
              <Button size="compact-xs" variant="light" color="red" onClick={() => void query.refetch()} aria-label={`Try loading ${label} again`}>
                Try again
              </Button>
            </Stack>
          ) : (
            <>
              <Text fz={28} fw={700} mt={4} className="tp-figure" data-testid={`${testId}-value`}>
                {value}
              </Text>
              <Text size="sm" c="dimmed" className="tp-figure">
                {detail}
              </Text>
            </>
          )}
        </div>
        {link && (
          <Anchor component={Link} to={link.to} size="sm" fw={600} mt="xs">
            <Group gap={4} wrap="nowrap" component="span">
              {link.text}
              <IconArrowRight size={14} aria-hidden />
            </Group>
          </Anchor>
        )}
      </Stack>
    </Paper>
  );
}

/**
 * The administrator's dashboard home: the queues that need a decision, who trades, and what is open.
 * The pending queues refresh on their own (admin/live-queue.ts), so the counts stay current.
 */
export function AdminOverview() {
  const deposits = useLivePendingDeposits();
  const withdrawals = useLivePendingWithdrawals();
  // Only the counts are wanted: one row each, with counts of every match (computed on the server).
  const traders = useTraders({ role: 'trader', limit: 1 });
  const openTrades = useOpenTrades({ limit: 1 });

  const depositRows = deposits.data?.data ?? [];
  const withdrawalRows = withdrawals.data?.data ?? [];
  const traderCounts = traders.data ?? { total: 0, active: 0, online: 0 };
  const open = openTrades.data ?? { total: 0, trades: 0, floatingProfit: '0.00' };
  const floating = open.floatingProfit;
  const floatingSign = signOf(floating);

  return (
    <SimpleGrid cols={{ base: 1, xs: 2, lg: 4 }} spacing="md">
      <OverviewCard
        label="Pending Deposits"
        icon={IconWallet}
        query={deposits}
        value={String(depositRows.length)}
        detail={`${formatUsd(sumMoney(depositRows.map((r) => r.depositAmount)))} USD awaiting approval`}
        link={{ to: '/dashboard/requests/user_deposit_requests', text: 'Review deposit requests' }}
      />
      <OverviewCard
        label="Pending Withdrawals"
        icon={IconCash}
        query={withdrawals}
        value={String(withdrawalRows.length)}
        detail={`${formatUsd(sumMoney(withdrawalRows.map((r) => r.withdrawalsAmount)))} USD awaiting approval`}
        link={{ to: '/dashboard/requests/user_withdraw_requests', text: 'Review withdrawal requests' }}
      />
      <OverviewCard
        label="Traders"
        icon={IconUsers}
        query={traders}
        value={String(traderCounts.total)}
        detail={`${traderCounts.active} active · ${traderCounts.online} online`}
        link={{ to: '/dashboard/users', text: 'Manage users' }}
      />
      <OverviewCard
        label="Open Trades"
        icon={IconChartCandle}
        query={openTrades}
        value={String(open.trades)}
        detail={
          <>
            {open.total} {open.total === 1 ? 'trader' : 'traders'} · floating{' '}
            <Text span inherit fw={600} className={floatingSign > 0 ? 'tp-positive' : floatingSign < 0 ? 'tp-negative' : undefined}>
              {floatingSign > 0 ? '+' : ''}
              {formatUsd(floating)} USD
            </Text>
          </>
        }
        link={{ to: '/dashboard/open_trades', text: 'Review open trades' }}
      />
    </SimpleGrid>
  );
}
