import { ActionIcon, Badge, Button, Card, Group, Menu, SegmentedControl, Skeleton, Stack, Text } from '@mantine/core';
import { IconDotsVertical, IconLock } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { useMargins, useProfile } from '../api/queries';
import { formatBalance } from '../format/format';
import { EmptyState, ErrorState, PageHeader } from '../ui/page';

const FILTERS = ['All', 'Active', 'Rejected', 'Processing', 'Pending', 'Inactive'] as const;

/**
 * The account-card screen (spec: a status filter and a card with Deposit, Trade, settings and Start
 * Trading), showing the trader's real trading account. A trader has one account today; it is Active
 * while they can sign in.
 */
export function AccountsPage() {
  const [filter, setFilter] = useState<(typeof FILTERS)[number]>('All');
  const profile = useProfile();
  const margins = useMargins();
  const p = profile.data?.data[0];
  const m = margins.data;
  const status = 'Active';
  const shown = filter === 'All' || filter === status;
  return (
    <Stack gap="lg">
      <PageHeader title="Trading Accounts" description="Your live trading account with the broker." />
      <SegmentedControl aria-label="Account status" data={[...FILTERS]} value={filter} onChange={(v) => setFilter(v as (typeof FILTERS)[number])} size="xs" style={{ alignSelf: 'flex-start', maxWidth: '100%', overflowX: 'auto' }} />
      {profile.isError ? (
        <ErrorState error={profile.error} onRetry={() => void profile.refetch()} />
      ) : !shown ? (
        <EmptyState message={`No ${filter.toLowerCase()} accounts.`} />
      ) : (
        <Card padding="lg" maw={460} data-testid="account-card">
          <Group justify="space-between" wrap="nowrap">
            <div>
              <Text size="xs" c="dimmed" fw={600} tt="uppercase">
                Live account · USD
              </Text>
              <Text fw={700} fz="lg" className="tp-figure">
                {p ? `#${p.id}` : <Skeleton h={20} w={80} />}
              </Text>
            </div>
            <Group gap="xs" wrap="nowrap">
              <Badge color="teal" variant="dot">
                {status}
              </Badge>
              <Menu position="bottom-end" withinPortal>
                <Menu.Target>
                  <ActionIcon variant="subtle" color="gray" aria-label="Account settings">
                    <IconDotsVertical size={18} />
                  </ActionIcon>
                </Menu.Target>
                <Menu.Dropdown>
                  <Menu.Item component={Link} to="/dashboard/change-password" leftSection={<IconLock size={16} />}>
                    Change Password
                  </Menu.Item>
                </Menu.Dropdown>
              </Menu>
            </Group>
          </Group>
          <Group mt="lg" gap="xl">
            <div>
              <Text size="xs" c="dimmed">
                Balance
              </Text>
              {p ? <Text fw={700} fz="xl" className="tp-figure">{formatBalance(p.totalBalance)}</Text> : <Skeleton h={26} w={120} />}
            </div>
            <div>
              <Text size="xs" c="dimmed">
                Equity
              </Text>
              {m ? <Text fw={600} className="tp-figure">{formatBalance(m.equity)}</Text> : <Skeleton h={20} w={90} />}
            </div>
            <div>
              <Text size="xs" c="dimmed">
                Leverage
              </Text>
              <Text fw={600} className="tp-figure">{p ? `1:${p.leverage}` : '—'}</Text>
            </div>
          </Group>
          <Group mt="lg" grow>
            <Button component={Link} to="/dashboard/deposit_options" variant="light">
              Deposit
            </Button>
            <Button component={Link} to="/trading" variant="default">
              Trade
            </Button>
          </Group>
          <Button component={Link} to="/trading" mt="sm" fullWidth>
            Start Trading
          </Button>
        </Card>
      )}
    </Stack>
  );
}
