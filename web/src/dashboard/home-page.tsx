import { Button, Grid, Group, Paper, ScrollArea, SegmentedControl, Select, SimpleGrid, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import type { PeriodName } from '@tradeport/contracts';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useCandles, useProfile, useSession, useSymbols, useTradesHistory } from '../api/queries';
import { roleOf } from '../auth/session';
import { formatBalance, formatDateTime, formatPrice, formatUsd, formatVolume, signOf } from '../format/format';
import { DeferredCandleChart } from '../market/deferred-candle-chart';
import { DEFAULT_SPEC_SYMBOL, SPEC_SYMBOLS } from '../market/spec-symbols';
import { TechnicalGauges } from '../market/technical-gauge';
import { SUMMARY_CANDLES, technicalSummary } from '../market/technical-summary';
import { EmptyState, ErrorState, PageHeader, TableSkeleton } from '../ui/page';
import { AdminOverview } from './admin-overview';

function StatCard({ label, value, loading }: { label: string; value: string; loading: boolean }) {
  return (
    <Paper p={{ base: 'sm', sm: 'md' }}>
      <Text size="xs" tt="uppercase" fw={600} c="dimmed" style={{ letterSpacing: '0.04em' }}>
        {label}
      </Text>
      {loading ? (
        <Skeleton h={30} mt={8} w="70%" />
      ) : (
        <Text fz={{ base: 18, sm: 24 }} fw={700} mt={4} className="tp-figure" data-testid={`card-${label.toLowerCase().replace(/\s+/g, '-')}`}>
          {value} <Text span fz="sm" c="dimmed" fw={500}>USD</Text>
        </Text>
      )}
    </Paper>
  );
}

function AccountBox({ trader }: { trader: boolean }) {
  const profile = useProfile();
  const p = profile.data?.data[0];
  return (
    <Paper p="lg" h="100%">
      <Stack gap="md" h="100%" justify="space-between">
        <div>
          <Text size="xs" tt="uppercase" fw={600} c="dimmed">
            Account Name
          </Text>
          {p ? <Text fw={700} fz="lg" data-testid="account-name">{`${p.firstName} ${p.lastName}`}</Text> : <Skeleton h={24} mt={4} w="60%" />}
          <Text size="xs" tt="uppercase" fw={600} c="dimmed" mt="md">
            Balance
          </Text>
          {p ? (
            <Text fz={28} fw={750} className="tp-figure" data-testid="account-balance">
              {formatBalance(p.totalBalance)} <Text span fz="sm" c="dimmed">USD</Text>
            </Text>
          ) : (
            <Skeleton h={34} mt={4} w="80%" />
          )}
          {p && trader && (
            <Text size="xs" c="dimmed" mt={4}>
              Leverage 1:{p.leverage}
            </Text>
          )}
        </div>
        {profile.isError && <ErrorState error={profile.error} onRetry={() => void profile.refetch()} />}
        {trader && (
          <Group grow>
            <Button component={Link} to="/dashboard/deposit_options">
              Deposit
            </Button>
            <Button component={Link} to="/dashboard/withdraw_options" variant="default">
              Withdraw
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

function MarketPanel() {
  const [symbol, setSymbol] = useState<string>(DEFAULT_SPEC_SYMBOL);
  const [period, setPeriod] = useState<PeriodName>('D1');
  const symbols = useSymbols();
  const digits = symbols.data?.data.find((s) => s.Symbol === symbol)?.digits ?? 5;
  const candles = useCandles(symbol, period);
  const summary = useMemo(() => technicalSummary((candles.data?.data ?? []).slice(-SUMMARY_CANDLES)), [candles.data]);
  const label = SPEC_SYMBOLS.find((s) => s.symbol === symbol)?.label ?? symbol;
  return (
    <Paper p="lg">
      <Group justify="space-between" mb="md" gap="sm">
        <Title order={2} size="h4">
          {label}
        </Title>
        <Group gap="sm">
          <SegmentedControl
            visibleFrom="sm"
            aria-label="Symbol"
            value={symbol}
            onChange={setSymbol}
            data={SPEC_SYMBOLS.map((s) => ({ value: s.symbol, label: s.label }))}
            size="xs"
          />
          <Select hiddenFrom="sm" aria-label="Symbol" value={symbol} onChange={(v) => v && setSymbol(v)} data={SPEC_SYMBOLS.map((s) => ({ value: s.symbol, label: s.label }))} size="xs" w={120} allowDeselect={false} />
          <SegmentedControl aria-label="Interval" value={period} onChange={(v) => setPeriod(v as PeriodName)} data={['H1', 'H4', 'D1']} size="xs" />
        </Group>
      </Group>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <DeferredCandleChart symbol={symbol} period={period} digits={digits} height={340} label={`${label} candlestick chart, ${period}`} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
        <Stack gap="xs" justify="center" h="100%">
          <Text fw={600} size="sm" ta="center">
            Technical Summary · {period}
          </Text>
          {candles.isPending ? <Skeleton h={200} /> : candles.isError ? <ErrorState error={candles.error} onRetry={() => void candles.refetch()} /> : <TechnicalGauges summary={summary} compact vertical />}
        </Stack>
        </Grid.Col>
      </Grid>
    </Paper>
  );
}

function HistoryTrade() {
  const history = useTradesHistory();
  const symbols = useSymbols();
  const digitsOf = (symbol: string) => symbols.data?.data.find((s) => s.Symbol === symbol)?.digits ?? 5;
  const rows = history.data?.data ?? [];
  return (
    <Paper p="lg">
      <Title order={2} size="h4" mb="md">
        History Trade
      </Title>
      {history.isPending ? (
        <TableSkeleton rows={5} />
      ) : history.isError ? (
        <ErrorState error={history.error} onRetry={() => void history.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState message="No closed trades yet. Your closed positions appear here." action={<Button component={Link} to="/trading" variant="light" size="xs">Open the Web Terminal</Button>} />
      ) : (
        <ScrollArea h="17rem" type="auto" offsetScrollbars>
          <Table fz="sm" stickyHeader miw={900} aria-label="History Trade">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>ID</Table.Th>
                <Table.Th>Symbol</Table.Th>
                <Table.Th>Time</Table.Th>
                <Table.Th>Trade Type</Table.Th>
                <Table.Th className="tp-num">Volume</Table.Th>
                <Table.Th className="tp-num">Trade Price</Table.Th>
                <Table.Th className="tp-num">S/L</Table.Th>
                <Table.Th className="tp-num">T/P</Table.Th>
                <Table.Th className="tp-num">Last Price</Table.Th>
                <Table.Th className="tp-num">Profit</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r) => {
                const d = digitsOf(r.symbol);
                const sign = signOf(r.profit);
                return (
                  <Table.Tr key={r.ID}>
                    <Table.Td className="tp-figure">{r.ID}</Table.Td>
                    <Table.Td fw={600}>{r.symbol}</Table.Td>
                    <Table.Td className="tp-figure">{formatDateTime(r.closeTime)}</Table.Td>
                    <Table.Td className={r.tradeType === 'Buy' ? 'tp-buy' : 'tp-sell'} fw={600}>
                      {r.tradeType}
                    </Table.Td>
                    <Table.Td className="tp-num">{formatVolume(r.volume)}</Table.Td>
                    <Table.Td className="tp-num">{formatPrice(r.tradePrice, d)}</Table.Td>
                    <Table.Td className="tp-num">{r.stopLoss ? formatPrice(r.stopLoss, d) : '—'}</Table.Td>
                    <Table.Td className="tp-num">{r.takeProfit ? formatPrice(r.takeProfit, d) : '—'}</Table.Td>
                    <Table.Td className="tp-num">{formatPrice(r.lastPrice, d)}</Table.Td>
                    <Table.Td className={`tp-num ${sign > 0 ? 'tp-positive' : 'tp-negative'}`} fw={600}>
                      {formatUsd(r.profit)}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      )}
    </Paper>
  );
}

export function HomePage() {
  const session = useSession().data;
  const trader = session ? roleOf(session) === 'trader' : true;
  const profile = useProfile();
  const p = profile.data?.data[0];
  const loading = profile.isPending;
  return (
    <Stack gap="lg">
      <PageHeader title="Dashboard" description={trader ? 'Your account at a glance, the markets you follow and your closed trades.' : 'The back office at a glance.'} />
      {trader ? (
        <SimpleGrid cols={{ base: 2, lg: 4 }} spacing={{ base: 'sm', sm: 'md' }}>
          <StatCard label="Total Balance" value={formatUsd(p?.totalBalance)} loading={loading} />
          <StatCard label="Total Credit" value={formatUsd(p?.totalCredit)} loading={loading} />
          <StatCard label="Total Deposits" value={formatUsd(p?.totalDeposite)} loading={loading} />
          <StatCard label="Total Withdrawals" value={formatUsd(p?.totalWithdrawals)} loading={loading} />
        </SimpleGrid>
      ) : (
        <AdminOverview />
      )}
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 9 }}>
          <MarketPanel />
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 3 }}>
          <AccountBox trader={trader} />
        </Grid.Col>
      </Grid>
      {trader && <HistoryTrade />}
    </Stack>
  );
}
