import 'flag-icons/css/flag-icons.min.css';
import { Anchor, Badge, Button, Group, Modal, Paper, SimpleGrid, Skeleton, Stack, Table, Tabs, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconKey } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useEffect, useRef, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { useClosedTrades, useMoneyRequests, useTraderDetails, type TraderDetails } from '../api/admin-queries';
import { ApiError } from '../api/client';
import { useSession } from '../api/queries';
import { formatBalance, formatDate, formatDateTime, formatPercent, formatPrice, formatUsd, formatVolume } from '../format/format';
import { EmptyState, ErrorState, TableSkeleton } from '../ui/page';
import { ActivityRecords } from '../ui/activity-list';
import { RequestStatusBadge } from '../ui/status-badge';
import { AmountAndStatus, badgeStyles, RecordItem, RecordList, RecordTable, SideBadge, SignedUsd, TradeLeadCells, TradeLeadHeads, usePhone, useSymbolInfo } from './admin-parts';
import { profitAt, symbolsFor, useLivePrices } from './live-profit';
import { BalanceOperationButton, BalanceOperations } from './balance-adjustment';
import { TraderPendingOrders } from './trader-pending-orders';
import { ActiveCell, ChangePasswordForm, DateTimeText, DeactivateDialog, TablePager, usePageSize, useRowDialog, type EditableUser } from './users-page';

const CLOSE_REASONS = { manual: 'Trader', admin: 'Admin', sl: 'Stop loss', tp: 'Take profit', 'stop-out': 'Stop-out' } as const;

/** A phone record's title: symbol, side and volume, and the ticket or order number. */
function TradeTitle({ symbol, side, volume, id }: { symbol: string; side: ReactNode; volume: number; id: number }) {
  return (
    <Group gap={6} wrap="nowrap">
      <Text size="sm" fw={600}>
        {symbol}
      </Text>
      {side}
      <Text size="xs" className="tp-figure">
        {formatVolume(volume)}
      </Text>
      <Text size="xs" c="dimmed" className="tp-figure">
        #{id}
      </Text>
    </Group>
  );
}

/** SL / TP as the tables show them, '—' for none. */
const levels = (sl: number | null, tp: number | null, digits: number) => `SL ${sl ? formatPrice(sl, digits) : '—'} · TP ${tp ? formatPrice(tp, digits) : '—'}`;

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

function OpenPositions({ details }: { details: TraderDetails }) {
  const info = useSymbolInfo();
  const price = useLivePrices(symbolsFor(details.openTrades, info));
  const phone = usePhone();
  // What a position shows at the live price: the price it would close at, and its profit.
  const live = (p: TraderDetails['openTrades'][number]) => {
    const side = p.type === 'Buy' ? 'buy' : 'sell';
    const q = price(p.symbol);
    return {
      digits: info.get(p.symbol)?.digits ?? 5,
      now: (side === 'buy' ? (q?.bid ?? p.bid) : (q?.ask ?? p.ask)) ?? null,
      profit: profitAt({ symbol: p.symbol, side, volume: p.volume, openPrice: p.orginalPrice, serverProfit: p.profit }, info.get(p.symbol), price, info),
    };
  };
  if (details.openTrades.length === 0) return <EmptyState message="No open positions." />;
  if (phone) {
    return (
      <RecordList label="Open positions">
        {details.openTrades.map((p) => {
          const { digits, now, profit } = live(p);
          return (
            <RecordItem
              key={p.ticket}
              title={<TradeTitle symbol={p.symbol} side={<SideBadge side={p.type} />} volume={p.volume} id={p.ticket} />}
              subtitle={`Opened ${formatDateTime(p.timeStamp)}`}
              aside={<SignedUsd value={profit} />}
            >
              <Text size="xs" c="dimmed" className="tp-figure" truncate="end">
                {formatPrice(p.orginalPrice, digits)} → {now === null ? '—' : formatPrice(now, digits)} · {levels(p.stopLoss, p.takeProfit, digits)}
              </Text>
            </RecordItem>
          );
        })}
      </RecordList>
    );
  }
  return (
    <RecordTable
      label="Open positions"
      minWidth={880}
      head={
        <>
          <TradeLeadHeads />
          <Table.Th className="tp-num">Open price</Table.Th>
          <Table.Th className="tp-num">SL / TP</Table.Th>
          <Table.Th className="tp-num">Current price</Table.Th>
          <Table.Th className="tp-num">Profit (USD)</Table.Th>
          <Table.Th>Opened</Table.Th>
        </>
      }
    >
      {details.openTrades.map((p) => {
        const { digits, now, profit } = live(p);
        return (
          <Table.Tr key={p.ticket}>
            <TradeLeadCells id={p.ticket} symbol={p.symbol} side={p.type} volume={p.volume} />
            <Table.Td className="tp-num">{formatPrice(p.orginalPrice, digits)}</Table.Td>
            <Table.Td className="tp-num" c="dimmed">
              {p.stopLoss ? formatPrice(p.stopLoss, digits) : '—'} / {p.takeProfit ? formatPrice(p.takeProfit, digits) : '—'}
            </Table.Td>
            <Table.Td className="tp-num">{now === null ? '—' : formatPrice(now, digits)}</Table.Td>
            <Table.Td className="tp-num">
              <SignedUsd value={profit} />
            </Table.Td>
            <Table.Td>
              <DateTimeText value={p.timeStamp} />
            </Table.Td>
          </Table.Tr>
        );
      })}
    </RecordTable>
  );
}

/**
 * One of the trader's paged lists: its query for the page shown, the pager under it, and what to show
 * instead of rows while it loads, when it failed or when it is empty (`instead`, null once there are rows).
 */
function useTraderPages<T extends { total: number }>(useList: (paging: { traderId: number; limit: number; offset: number }) => UseQueryResult<T>, traderId: number, text: { label: string; error: string; empty: string }) {
  const pageSize = usePageSize();
  const [page, setPage] = useState(1);
  const query = useList({ traderId, limit: pageSize, offset: (page - 1) * pageSize });
  let instead: ReactNode = null;
  if (query.isPending) instead = <TableSkeleton rows={5} />;
  else if (query.isError) instead = <ErrorState error={query.error} onRetry={() => void query.refetch()} title={text.error} />;
  else if (query.data.total === 0) instead = <EmptyState message={text.empty} />;
  const pager = query.data ? <TablePager page={page} pageSize={pageSize} total={query.data.total} onChange={setPage} label={text.label} /> : null;
  return { query, pager, instead };
}

function ClosedTrades({ traderId }: { traderId: number }) {
  const info = useSymbolInfo();
  const phone = usePhone();
  const { query: closed, pager, instead } = useTraderPages(useClosedTrades, traderId, { label: 'Closed trades', error: 'Could not load the closed trades', empty: 'No closed trades yet.' });
  if (instead || !closed.data) return instead;
  if (phone) {
    return (
      <>
        <RecordList label="Closed trades" dimmed={closed.isPlaceholderData}>
          {closed.data.data.map((r) => {
            const digits = info.get(r.symbol)?.digits ?? 5;
            return (
              <RecordItem key={r.ID} title={<TradeTitle symbol={r.symbol} side={<SideBadge side={r.tradeType} />} volume={r.volume} id={r.ID} />} subtitle={`Closed ${formatDateTime(r.closeTime)}`} aside={<SignedUsd value={r.profit} />}>
                <Text size="xs" c="dimmed" className="tp-figure" truncate="end">
                  {formatPrice(r.tradePrice, digits)} → {formatPrice(r.lastPrice, digits)} · closed by {CLOSE_REASONS[r.closeReason].toLowerCase()}
                </Text>
              </RecordItem>
            );
          })}
        </RecordList>
        {pager}
      </>
    );
  }
  return (
    <>
      <RecordTable
        label="Closed trades"
        minWidth={860}
        dimmed={closed.isPlaceholderData}
        head={
          <>
            <TradeLeadHeads />
            <Table.Th className="tp-num">Open / close price</Table.Th>
            <Table.Th className="tp-num">Profit (USD)</Table.Th>
            <Table.Th>Closed by</Table.Th>
            <Table.Th>Closed</Table.Th>
          </>
        }
      >
        {closed.data.data.map((r) => {
          const digits = info.get(r.symbol)?.digits ?? 5;
          return (
            <Table.Tr key={r.ID}>
              <TradeLeadCells id={r.ID} symbol={r.symbol} side={r.tradeType} volume={r.volume} />
              <Table.Td className="tp-num">
                {formatPrice(r.tradePrice, digits)} → {formatPrice(r.lastPrice, digits)}
              </Table.Td>
              <Table.Td className="tp-num">
                <SignedUsd value={r.profit} />
              </Table.Td>
              <Table.Td>{CLOSE_REASONS[r.closeReason]}</Table.Td>
              <Table.Td>
                <DateTimeText value={r.closeTime} />
              </Table.Td>
            </Table.Tr>
          );
        })}
      </RecordTable>
      {pager}
    </>
  );
}

function MoneyRequests({ traderId }: { traderId: number }) {
  const phone = usePhone();
  const { query: requests, pager, instead } = useTraderPages(useMoneyRequests, traderId, { label: 'Money requests', error: 'Could not load the money requests', empty: 'No deposit or withdrawal requests yet.' });
  if (instead || !requests.data) return instead;
  if (phone) {
    return (
      <>
        <RecordList label="Money requests" dimmed={requests.isPlaceholderData}>
          {requests.data.data.map((r) => (
            <RecordItem
              key={r.id}
              title={
                <Text size="sm" fw={600}>
                  {r.type === 'deposit' ? 'Deposit' : 'Withdrawal'}{' '}
                  <Text span size="xs" c="dimmed" fw={400} className="tp-figure">
                    #{r.id}
                  </Text>
                </Text>
              }
              subtitle={`${r.paymentAccount}${r.paymentGatewayName ? ` → ${r.paymentGatewayName}` : ''}`}
              aside={<AmountAndStatus amount={r.amount} status={r.status} />}
            >
              <Text size="xs" c="dimmed" className="tp-figure">
                Requested {formatDateTime(r.timeStamp)}
              </Text>
              {r.decidedAt && (
                <Text size="xs" c="dimmed" className="tp-figure">
                  Decided {formatDateTime(r.decidedAt)}
                </Text>
              )}
            </RecordItem>
          ))}
        </RecordList>
        {pager}
      </>
    );
  }
  return (
    <>
      <RecordTable
        label="Money requests"
        minWidth={760}
        dimmed={requests.isPlaceholderData}
        head={
          <>
            <Table.Th>Request</Table.Th>
            <Table.Th>Kind</Table.Th>
            <Table.Th>Account</Table.Th>
            <Table.Th className="tp-num">Amount (USD)</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Requested</Table.Th>
            <Table.Th>Decided</Table.Th>
          </>
        }
      >
        {requests.data.data.map((r) => (
          <Table.Tr key={r.id}>
            <Table.Td className="tp-figure" c="dimmed">
              #{r.id}
            </Table.Td>
            <Table.Td>{r.type === 'deposit' ? 'Deposit' : 'Withdrawal'}</Table.Td>
            <Table.Td maw={220}>
              <Text size="sm" truncate="end" title={r.paymentAccount}>
                {r.paymentAccount}
              </Text>
              {r.paymentGatewayName && (
                <Text size="xs" c="dimmed" truncate="end" title={r.paymentGatewayName}>
                  to {r.paymentGatewayName}
                </Text>
              )}
            </Table.Td>
            <Table.Td className="tp-num" fw={650}>
              {formatUsd(r.amount)}
            </Table.Td>
            <Table.Td>
              <RequestStatusBadge status={r.status} />
            </Table.Td>
            <Table.Td>
              <DateTimeText value={r.timeStamp} />
            </Table.Td>
            <Table.Td>{r.decidedAt ? <DateTimeText value={r.decidedAt} /> : <Text size="sm" c="dimmed">—</Text>}</Table.Td>
          </Table.Tr>
        ))}
      </RecordTable>
      {pager}
    </>
  );
}

function Activity({ details }: { details: TraderDetails }) {
  const phone = usePhone();
  if (details.activity.length === 0) return <EmptyState message="No activity yet." />;
  if (phone) return <ActivityRecords entries={details.activity} />;
  return (
    <RecordTable
      label="Recent activity"
      minWidth={680}
      head={
        <>
          <Table.Th>When</Table.Th>
          <Table.Th>Activity</Table.Th>
          <Table.Th>Details</Table.Th>
          <Table.Th>Status</Table.Th>
          <Table.Th>IP</Table.Th>
        </>
      }
    >
      {details.activity.map((a) => (
        <Table.Tr key={a.id}>
          <Table.Td>
            <DateTimeText value={a.timeStamp} />
          </Table.Td>
          <Table.Td fw={600} style={{ whiteSpace: 'nowrap' }}>
            {a.activity}
          </Table.Td>
          <Table.Td maw={360}>
            <Text size="sm" lineClamp={2} title={a.details}>
              {a.details}
            </Text>
          </Table.Td>
          <Table.Td>{a.status}</Table.Td>
          <Table.Td className="tp-figure" c="dimmed">
            {a.ip}
          </Table.Td>
        </Table.Tr>
      ))}
    </RecordTable>
  );
}

type TabName = 'positions' | 'orders' | 'closed' | 'requests' | 'balance' | 'activity';
const TABS: TabName[] = ['positions', 'orders', 'closed', 'requests', 'balance', 'activity'];

function TraderView({ details }: { details: TraderDetails }) {
  const [params, setParams] = useSearchParams();
  const tab = (TABS as string[]).includes(params.get('tab') ?? '') ? (params.get('tab') as TabName) : 'positions';
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
              {p.accountType === '0' && <BalanceOperationButton account={{ id: p.id, name, balance: a.balance, credit: a.credit, freeMargin: a.freeMargin, holdsMargin: hasMargin }} />}
              <Button variant="default" size="xs" leftSection={<IconKey size={14} aria-hidden />} onClick={() => password.open(p)}>
                Change password
              </Button>
            </Group>
          )}
        </Group>
      </div>
      <DeactivateDialog trader={deactivate.row} opened={deactivate.opened} onClose={deactivate.close} />
      <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened={password.opened} onClose={password.close} title={`Change password of ${name}`} centered>
        {password.row && <ChangePasswordForm key={password.row.id} trader={password.row} onDone={password.close} />}
      </Modal>

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
          </SimpleGrid>
        </SimpleGrid>
      </Paper>

      <Paper p="lg">
        <Tabs value={tab} onChange={(v) => setParams(v && v !== 'positions' ? { tab: v } : {}, { replace: true })} keepMounted={false}>
          {/* On a phone the tabs wrap onto a second line rather than hide behind a sideways scroll. */}
          <Tabs.List ref={tabList} mb="md" style={phone ? undefined : { flexWrap: 'nowrap', overflowX: 'auto' }}>
            <Tabs.Tab value="positions">Open positions ({a.openPositions})</Tabs.Tab>
            <Tabs.Tab value="orders">Pending orders ({a.pendingOrders})</Tabs.Tab>
            <Tabs.Tab value="closed">Closed trades</Tabs.Tab>
            <Tabs.Tab value="requests">Money requests</Tabs.Tab>
            {p.accountType === '0' && <Tabs.Tab value="balance">Balance operations</Tabs.Tab>}
            <Tabs.Tab value="activity">Activity</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="positions">
            <OpenPositions details={details} />
          </Tabs.Panel>
          <Tabs.Panel value="orders">
            <TraderPendingOrders details={details} />
          </Tabs.Panel>
          <Tabs.Panel value="closed">
            <ClosedTrades traderId={p.id} />
          </Tabs.Panel>
          <Tabs.Panel value="requests">
            <MoneyRequests traderId={p.id} />
          </Tabs.Panel>
          <Tabs.Panel value="balance">
            <BalanceOperations traderId={p.id} />
          </Tabs.Panel>
          <Tabs.Panel value="activity">
            <Activity details={details} />
          </Tabs.Panel>
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
