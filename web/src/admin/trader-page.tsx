import 'flag-icons/css/flag-icons.min.css';
import { Anchor, Badge, Button, Group, Paper, SimpleGrid, Skeleton, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconKey, IconShieldOff } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useEffect, useRef, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { useTraderDetails, type TraderDetails } from '../api/admin/users';
import { ApiError } from '../api/client';
import { useCan, useSession } from '../api/queries';
import { formatBalance, formatDate, formatDateTime, formatPercent, formatUsd } from '../format/format';
import { EmptyState, ErrorState, TableSkeleton } from '../ui/page';
import { badgeStyles, SignedUsd, usePhone } from './admin-parts';
import { BalanceOperationButton, BalanceOperations } from './balance-adjustment';
import { useRowDialog } from './list-page/row-action';
import { Activity, ClosedTrades, MoneyRequests, OpenPositions, SignIns } from './trader-lists';
import { TraderAccounts } from './trader-accounts';
import { TraderPendingOrders } from './trader-pending-orders';
import { ActiveCell, ChangePasswordDialog, DeactivateDialog, ResetTwoFactorDialog, type EditableUser } from './user-actions';

function Figure({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600} style={{ letterSpacing: '0.04em' }}>
        {label}
      </Text>
      <Text fz="lg" fw={700} className="tp-figure" data-testid={testId}>
        {children}
      </Text>
    </div>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </>
  );
}

type TabName = 'positions' | 'orders' | 'closed' | 'requests' | 'balance' | 'accounts' | 'activity' | 'sign-ins';
const TABS: TabName[] = ['positions', 'orders', 'closed', 'requests', 'balance', 'accounts', 'activity', 'sign-ins'];

function TraderView({ details }: { details: TraderDetails }) {
  const [params, setParams] = useSearchParams();
  // Each part of the page for those whose roles may use it (docs/design.md#staff-roles).
  const can = useCan();
  const tabs = TABS.filter((t) => (t === 'closed' ? can('trades.view') : t === 'requests' || t === 'balance' ? can('money.view') : t === 'sign-ins' ? details.profile.accountType === '0' || can('staff.manage') : true));
  const tab = (tabs as string[]).includes(params.get('tab') ?? '') ? (params.get('tab') as TabName) : 'positions';
  const phone = usePhone();
  // On a narrow screen the tabs scroll sideways: keep the chosen one in view (the page itself stays put).
  const tabList = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const list = tabList.current;
    const active = list?.querySelector<HTMLElement>('[aria-selected="true"]');
    if (!list || !active) return;
    const l = list.getBoundingClientRect();
    const a = active.getBoundingClientRect();
    list.scrollLeft += a.left - l.left - (l.width - a.width) / 2;
  }, [tab]);
  const { profile: p, account: a } = details;
  const selfId = useSession().data?.user?.id;
  const deactivate = useRowDialog<EditableUser>();
  const password = useRowDialog<EditableUser>();
  const [resetting, setResetting] = useState(false);
  const name = `${p.firstName} ${p.lastName}`.trim();
  const hasMargin = Number(a.totalMargin) > 0;
  return (
    <Stack gap="lg">
      <div>
        <Anchor component={Link} to="/dashboard/users" size="sm">
          <Group gap={4} component="span" wrap="nowrap">
            <IconArrowLeft size={14} aria-hidden />
            Users
          </Group>
        </Anchor>
        <Group gap="sm" mt={6} align="center">
          <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
            {name}
          </Title>
          {p.isReserved && (
            <Badge variant="dot" color={p.isActive === '1' ? 'teal' : 'gray'} styles={badgeStyles}>
              {p.isActive === '1' ? 'Active' : 'Inactive'}
            </Badge>
          )}
          <Badge variant="dot" color={p.status === 'Online' ? 'teal' : 'gray'} styles={badgeStyles}>
            {p.status}
          </Badge>
          {p.accountType === '1' && (
            <Badge variant="outline" color="gray" styles={badgeStyles}>
              {p.isReserved ? 'Built-in admin' : 'Admin'}
            </Badge>
          )}
        </Group>
        <Group justify="space-between" align="center" gap="sm" mt={2}>
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {p.email} · {p.accountType === '1' ? 'user' : 'trader'} #{p.id}
          </Text>
          {!p.isReserved && (
            <Group gap="md">
              <ActiveCell trader={p} self={p.id === selfId} onDeactivate={deactivate.open} />
              {p.accountType === '0' && can('money.adjust') && <BalanceOperationButton account={{ id: p.id, name, balance: a.balance, credit: a.credit, freeMargin: a.freeMargin, holdsMargin: hasMargin }} />}
              {can('traders.password') && (p.accountType === '0' || can('staff.manage')) && (
                <Button variant="default" size="xs" leftSection={<IconKey size={14} aria-hidden />} onClick={() => password.open(p)}>
                  Change password
                </Button>
              )}
              {p.twoFactor && p.accountType === '0' && can('traders.password') && (
                <Button variant="default" size="xs" leftSection={<IconShieldOff size={14} aria-hidden />} onClick={() => setResetting(true)}>
                  Reset two-factor
                </Button>
              )}
            </Group>
          )}
        </Group>
      </div>
      <DeactivateDialog trader={deactivate.row} opened={deactivate.opened} onClose={deactivate.close} />
      <ChangePasswordDialog trader={password.row} opened={password.opened} onClose={password.close} />
      <ResetTwoFactorDialog person={{ id: p.id, name }} kind="trader" opened={resetting} onClose={() => setResetting(false)} />

      <Paper p="lg">
        <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="lg" verticalSpacing="md">
          <Figure label="Balance" testId="trader-balance">
            {formatBalance(a.balance)}
          </Figure>
          <Figure label="Equity">{formatBalance(a.equity)}</Figure>
          <Figure label="Floating profit">
            <SignedUsd value={a.profit} size="lg" fw={700} />
          </Figure>
          <Figure label="Margin">{formatBalance(a.totalMargin)}</Figure>
          <Figure label="Free margin">{formatBalance(a.freeMargin)}</Figure>
          <Figure label="Margin level">{hasMargin ? formatPercent(a.marginLevel) : '—'}</Figure>
          <Figure label="Deposits">{formatUsd(a.totalDeposite)}</Figure>
          <Figure label="Withdrawals">{formatUsd(a.totalWithdrawals)}</Figure>
          <Figure label="Credit">{formatUsd(a.totalCredit)}</Figure>
          <Figure label="Open positions">{a.openPositions}</Figure>
          <Figure label="Pending orders">{a.pendingOrders}</Figure>
          <Figure label="Leverage">1:{p.leverage}</Figure>
        </SimpleGrid>
      </Paper>

      <Paper p="lg">
        <Title order={2} size="h4" mb="sm">
          Profile
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xl">
          <SimpleGrid cols={2} spacing={6} verticalSpacing={6} style={{ gridTemplateColumns: 'minmax(110px, auto) 1fr', alignContent: 'start' }}>
            <Fact label="Phone">{p.phoneNo || '—'}</Fact>
            <Fact label="Country">
              {p.countryName ? (
                <Group gap={6} wrap="nowrap" component="span">
                  {p.countryCode && <span className={`fi fi-${p.countryCode.toLowerCase()}`} aria-hidden />}
                  {p.countryName}
                </Group>
              ) : (
                '—'
              )}
            </Fact>
            <Fact label="Nationality">{p.nationality || '—'}</Fact>
            <Fact label="Date of birth">{p.dateOfBirth ? formatDate(p.dateOfBirth) : '—'}</Fact>
          </SimpleGrid>
          <SimpleGrid cols={2} spacing={6} verticalSpacing={6} style={{ gridTemplateColumns: 'minmax(110px, auto) 1fr', alignContent: 'start' }}>
            <Fact label="Signed up">{formatDateTime(p.createdAt)}</Fact>
            <Fact label="Last seen">{p.lastSeen ? formatDateTime(p.lastSeen) : 'Never'}</Fact>
            <Fact label="Account type">{p.accountType === '1' ? 'Administrator' : 'Trader'}</Fact>
            <Fact label="Two-factor">{p.twoFactor ? 'On' : 'Off'}</Fact>
          </SimpleGrid>
        </SimpleGrid>
      </Paper>

      <Paper p="lg">
        <Tabs value={tab} onChange={(v) => setParams(v && v !== 'positions' ? { tab: v } : {}, { replace: true })} keepMounted={false}>
          {/* On a phone the tabs wrap onto a second line rather than hide behind a sideways scroll. */}
          <Tabs.List ref={tabList} mb="md" style={phone ? undefined : { flexWrap: 'nowrap', overflowX: 'auto' }}>
            {/* Every account's, as the tabs list them (the figures above are the first live account's). */}
            <Tabs.Tab value="positions">Open positions ({details.openTrades.length})</Tabs.Tab>
            <Tabs.Tab value="orders">Pending orders ({details.pendingOrders.length})</Tabs.Tab>
            {can('trades.view') && <Tabs.Tab value="closed">Closed trades</Tabs.Tab>}
            {can('money.view') && <Tabs.Tab value="requests">Money requests</Tabs.Tab>}
            {p.accountType === '0' && can('money.view') && <Tabs.Tab value="balance">Balance operations</Tabs.Tab>}
            {p.accountType === '0' && <Tabs.Tab value="accounts">Trading accounts</Tabs.Tab>}
            <Tabs.Tab value="activity">Activity</Tabs.Tab>
            {(p.accountType === '0' || can('staff.manage')) && <Tabs.Tab value="sign-ins">Sign-ins</Tabs.Tab>}
          </Tabs.List>
          <Tabs.Panel value="positions">
            <OpenPositions details={details} />
          </Tabs.Panel>
          <Tabs.Panel value="orders">
            <TraderPendingOrders details={details} />
          </Tabs.Panel>
          {can('trades.view') && (
            <Tabs.Panel value="closed">
              <ClosedTrades traderId={p.id} />
            </Tabs.Panel>
          )}
          {can('money.view') && (
            <Tabs.Panel value="requests">
              <MoneyRequests traderId={p.id} />
            </Tabs.Panel>
          )}
          {can('money.view') && (
            <Tabs.Panel value="balance">
              <BalanceOperations traderId={p.id} />
            </Tabs.Panel>
          )}
          <Tabs.Panel value="accounts">
            <TraderAccounts traderId={p.id} />
          </Tabs.Panel>
          <Tabs.Panel value="activity">
            <Activity details={details} />
          </Tabs.Panel>
          {(p.accountType === '0' || can('staff.manage')) && (
            <Tabs.Panel value="sign-ins">
              <SignIns traderId={p.id} />
            </Tabs.Panel>
          )}
        </Tabs>
      </Paper>
    </Stack>
  );
}

/** A trader's page in the back office: everything support needs about one account, on one page. */
export function TraderPage() {
  const traderId = Number(useParams().traderId);
  const details = useTraderDetails(traderId);
  if (!Number.isInteger(traderId) || traderId <= 0 || (details.isError && details.error instanceof ApiError && details.error.httpStatus === 404)) {
    return (
      <Stack gap="md">
        <Anchor component={Link} to="/dashboard/users" size="sm">
          Back to Users
        </Anchor>
        <EmptyState message="No such user. They may have been removed, or the link is wrong." />
      </Stack>
    );
  }
  if (details.isPending) {
    return (
      <Stack gap="lg" role="status" aria-busy="true" aria-label="Loading the trader">
        <Skeleton h={56} w={360} />
        <Skeleton h={150} />
        <Skeleton h={120} />
        <TableSkeleton rows={4} />
      </Stack>
    );
  }
  if (details.isError) return <ErrorState error={details.error} onRetry={() => void details.refetch()} title="Could not load this trader" />;
  return <TraderView details={details.data} />;
}
