import { Anchor, Button, Group, Paper, SimpleGrid, Skeleton, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconArrowRight, IconCash, IconChartCandle, IconUsers, IconWallet, type Icon } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useOpenTrades } from '../api/admin/trades';
import { useTraders } from '../api/admin/users';
import { errorMessage } from '../api/client';
import { useCan, useSession } from '../api/queries';
import { awaitingMe } from '../admin/second-approval';
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

function DepositsCard() {
  const deposits = useLivePendingDeposits();
  const rows = deposits.data?.data ?? [];
  return (
    <OverviewCard
      label="Pending Deposits"
      icon={IconWallet}
      query={deposits}
      value={String(rows.length)}
      detail={`${formatUsd(sumMoney(rows.map((r) => r.depositAmount)))} USD awaiting approval`}
      link={{ to: '/dashboard/requests/user_deposit_requests', text: 'Review deposit requests' }}
    />
  );
}

function WithdrawalsCard() {
  const withdrawals = useLivePendingWithdrawals();
  const rows = withdrawals.data?.data ?? [];
  // What awaits this person's second approval, first: four-eyes work waits on a colleague.
  const mine = awaitingMe(rows, useSession().data?.user?.id, useCan()('money.second-approval'));
  return (
    <OverviewCard
      label="Pending Withdrawals"
      icon={IconCash}
      query={withdrawals}
      value={String(rows.length)}
      detail={mine.length > 0 ? `${mine.length} awaiting your second approval` : `${formatUsd(sumMoney(rows.map((r) => r.withdrawalsAmount)))} USD awaiting approval`}
      link={mine.length > 0 ? { to: '/dashboard/requests/user_withdraw_requests?awaiting=me', text: 'Review what awaits you' } : { to: '/dashboard/requests/user_withdraw_requests', text: 'Review withdrawal requests' }}
    />
  );
}

function TradersCard() {
  // Only the counts are wanted: one row, with counts of every match (computed on the server).
  const traders = useTraders({ role: 'trader', limit: 1 });
  const counts = traders.data ?? { total: 0, active: 0, online: 0 };
  return (
    <OverviewCard
      label="Traders"
      icon={IconUsers}
      query={traders}
      value={String(counts.total)}
      detail={`${counts.active} active · ${counts.online} online`}
      link={{ to: '/dashboard/users', text: 'Manage users' }}
    />
  );
}

function OpenTradesCard() {
  const openTrades = useOpenTrades({ limit: 1 });
  const open = openTrades.data ?? { total: 0, trades: 0, floatingProfit: '0.00' };
  const floating = open.floatingProfit;
  const floatingSign = signOf(floating);
  return (
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
  );
}

/**
 * The back office's dashboard home: the queues that need a decision, who trades, and what is open,
 * each card only for those whose roles may see it (a support desk sees the traders, a dealer the
 * trades). The pending queues refresh on their own (admin/live-queue.ts), so the counts stay current.
 */
export function AdminOverview() {
  const can = useCan();
  const cards = [can('money.view') && <DepositsCard key="d" />, can('money.view') && <WithdrawalsCard key="w" />, can('traders.view') && <TradersCard key="t" />, can('trades.view') && <OpenTradesCard key="o" />].filter(Boolean);
  if (cards.length === 0) return null;
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, lg: Math.max(3, cards.length) }} spacing="md">
      {cards}
    </SimpleGrid>
  );
}
