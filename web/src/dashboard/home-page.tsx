import { Button, Grid, Group, NativeSelect, Paper, ScrollArea, SimpleGrid, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import type { CandleRecord, PeriodName } from '@tradeport/contracts';
import { memo, startTransition, useEffect, useRef, useState, type RefObject } from 'react';
import { Link } from 'react-router';
import { useCandles, useProfile, useSession, useSymbols, useTradesHistory } from '../api/queries';
import { useCurrentAccount } from '../api/trading-accounts';
import { roleOf } from '../auth/session';
import { formatBalance, formatDateTime, formatPrice, formatUsd, formatVolume, signOf } from '../format/format';
import { DeferredCandleChart } from '../market/deferred-candle-chart';
import { DEFAULT_SPEC_SYMBOL, SPEC_SYMBOLS } from '../market/spec-symbols';
import { TechnicalGauges } from '../market/technical-gauge';
import { SUMMARY_CANDLES, type TechnicalSummary } from '../market/technical-summary-types';
import { technicalSummaryOffThread } from '../market/technical-summary-off-thread';
import { AccountKindBadge } from '../terminal/account-switcher';
import { EmptyState, ErrorState, PageHeader, TableSkeleton } from '../ui/page';
import { DepositWithdrawButtons } from '../money/money-buttons';
import { AdminOverview } from './admin-overview';
import { SegmentedChoice } from './segmented-choice';

/**
 * The page mounts in steps, a frame apart: first its heading and description (the largest text,
 * what a phone should paint first), then the figures, the account and the market panel's frame
 * (with skeletons shaped like what follows), then the trade history's table (once near the
 * viewport: below the fold on a phone), then the chart. In one step, on a phone, the first render
 * held the main thread for half a second (the history's date formatter, the chart's start and the
 * page's first layout in one task), and the page's text waited for all of it. The technical
 * summary is computed in a worker.
 */
const FRAMES_BEFORE_HISTORY = 1;
const FRAMES_BEFORE_CHART = 2;

/**
 * False until `frames` frames have been painted since the component mounted, then true; with
 * `transition`, the render that follows is a transition (React renders it in slices).
 */
function useFramesPainted(frames: number, { transition = false }: { transition?: boolean } = {}): boolean {
  const [painted, setPainted] = useState(0);
  useEffect(() => {
    if (painted >= frames) return;
    let timer = 0;
    // After the frame that shows the page as it is now, in a task of its own.
    const frame = requestAnimationFrame(() => {
      timer = window.setTimeout(() => (transition ? startTransition(() => setPainted(painted + 1)) : setPainted(painted + 1)), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      window.clearTimeout(timer);
    };
  }, [painted, frames, transition]);
  return painted >= frames;
}

/**
 * The technical summary of the latest candles, computed off the main thread. Null until the
 * first one for `key` (the symbol and interval) is in; a newer one for the same key replaces it
 * when ready, so the dials do not blink when the candles refresh.
 */
function useTechnicalSummary(key: string, candles: CandleRecord[] | undefined): TechnicalSummary | null {
  const [latest, setLatest] = useState<{ key: string; summary: TechnicalSummary } | null>(null);
  useEffect(() => {
    if (!candles) return;
    let current = true;
    void technicalSummaryOffThread(candles.slice(-SUMMARY_CANDLES)).then((summary) => current && setLatest({ key, summary }));
    return () => {
      current = false;
    };
  }, [key, candles]);
  return latest?.key === key ? latest.summary : null;
}

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

/**
 * The account box: the person's name, then for a trader the trading account the screens show (its
 * number and kind, its balance, equity and leverage; the cards above are the totals of every live
 * account) with what can be done with it: money in or out of a live one, a demo one's reset from
 * the Accounts page. An administrator sees their own balance, as the spec's box does.
 */
function AccountBox({ trader }: { trader: boolean }) {
  const profile = useProfile();
  const p = profile.data?.data[0];
  const current = useCurrentAccount(trader);
  const account = trader ? current.account : undefined;
  const ready = trader ? account !== undefined : p !== undefined;
  return (
    <Paper p="lg" h="100%">
      <Stack gap="md" h="100%" justify="space-between">
        <div>
          <Text size="xs" tt="uppercase" fw={600} c="dimmed">
            Account Name
          </Text>
          {p ? <Text fw={700} fz="lg" data-testid="account-name">{`${p.firstName} ${p.lastName}`}</Text> : <Skeleton h={24} mt={4} w="60%" />}
          {trader && (
            <Group gap={6} mt={6} wrap="nowrap" h={22} data-testid="home-account">
              {account ? (
                <>
                  <AccountKindBadge account={account} size="xs" />
                  <Text size="sm" fw={600} className="tp-figure" data-testid="home-account-number">
                    {account.number}
                  </Text>
                  {account.state !== 'active' && (
                    <Text size="xs" c="dimmed">
                      {account.state === 'close-only' ? 'close-only' : 'disabled'}
                    </Text>
                  )}
                </>
              ) : (
                <Skeleton h={18} w="50%" />
              )}
            </Group>
          )}
          <Text size="xs" tt="uppercase" fw={600} c="dimmed" mt="md">
            Balance
          </Text>
          {ready ? (
            <Text fz={28} fw={750} className="tp-figure" data-testid="account-balance">
              {formatBalance(account ? account.balance : p?.totalBalance)} <Text span fz="sm" c="dimmed">USD</Text>
            </Text>
          ) : (
            <Skeleton h={34} mt={4} w="80%" />
          )}
          {account && (
            <Text size="xs" c="dimmed" mt={4} className="tp-figure">
              Equity {formatBalance(account.equity)} USD · Leverage 1:{account.leverage}
            </Text>
          )}
        </div>
        {profile.isError && <ErrorState error={profile.error} onRetry={() => void profile.refetch()} />}
        {trader && current.isError && (
          <Text size="sm" c="red">
            The trading account could not be loaded.
          </Text>
        )}
        {trader &&
          (account?.kind === 'demo' ? (
            <Stack gap={6}>
              <Text size="xs" c="dimmed">
                A demo account trades virtual money: no deposits or withdrawals.
              </Text>
              <Button component={Link} to="/dashboard/accounts" variant="default">
                Manage accounts
              </Button>
            </Stack>
          ) : (
            <DepositWithdrawButtons />
          ))}
      </Stack>
    </Paper>
  );
}

/** The chart, started once the page around it has been painted. */
function MarketChart(props: Omit<Parameters<typeof DeferredCandleChart>[0], 'hold'>) {
  const ready = useFramesPainted(FRAMES_BEFORE_CHART);
  return <DeferredCandleChart {...props} hold={!ready} />;
}

/** Memoised, with HistoryTrade: the page's body re-renders when the profile arrives, which changes neither. */
const MarketPanel = memo(function MarketPanel() {
  const [symbol, setSymbol] = useState<string>(DEFAULT_SPEC_SYMBOL);
  const [period, setPeriod] = useState<PeriodName>('D1');
  const symbols = useSymbols();
  const digits = symbols.data?.data.find((s) => s.Symbol === symbol)?.digits ?? 5;
  const candles = useCandles(symbol, period);
  const summary = useTechnicalSummary(`${symbol}/${period}`, candles.data?.data);
  const label = SPEC_SYMBOLS.find((s) => s.symbol === symbol)?.label ?? symbol;
  return (
    <Paper p="lg">
      <Group justify="space-between" mb="md" gap="sm">
        <Title order={2} size="h4">
          {label}
        </Title>
        <Group gap="sm">
          <SegmentedChoice visibleFrom="sm" aria-label="Symbol" value={symbol} onChange={setSymbol} data={SPEC_SYMBOLS.map((s) => ({ value: s.symbol, label: s.label }))} size="xs" />
          {/* A native select: Mantine's Select keeps a floating dropdown whose set-up reads the page's layout while it first renders. */}
          <NativeSelect hiddenFrom="sm" aria-label="Symbol" value={symbol} onChange={(e) => setSymbol(e.currentTarget.value)} data={SPEC_SYMBOLS.map((s) => ({ value: s.symbol, label: s.label }))} size="xs" w={120} />
          <SegmentedChoice<PeriodName> aria-label="Interval" value={period} onChange={setPeriod} data={['H1', 'H4', 'D1']} size="xs" />
        </Group>
      </Group>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <MarketChart symbol={symbol} period={period} digits={digits} height={340} label={`${label} candlestick chart, ${period}`} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
        <Stack gap="xs" justify="center" h="100%">
          <Text fw={600} size="sm" ta="center">
            Technical Summary · {period}
          </Text>
          {candles.isError ? <ErrorState error={candles.error} onRetry={() => void candles.refetch()} /> : summary ? <TechnicalGauges summary={summary} compact vertical /> : <Skeleton h={200} />}
        </Stack>
        </Grid.Col>
      </Grid>
    </Paper>
  );
});

/** Whether the element has come within 200 px of the viewport (once true, stays true). */
function useNearViewport(ref: RefObject<HTMLElement | null>): boolean {
  const [near, setNear] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || near) return;
    if (typeof IntersectionObserver === 'undefined') return setNear(true);
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setNear(true), { rootMargin: '0px 0px 200px 0px' });
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref, near]);
  return near;
}

/** The table is rendered once it is near the viewport (below the fold on a phone), after the page's first frame. */
const HistoryTrade = memo(function HistoryTrade() {
  const panel = useRef<HTMLDivElement>(null);
  const painted = useFramesPainted(FRAMES_BEFORE_HISTORY);
  const showTable = useNearViewport(panel) && painted;
  const history = useTradesHistory();
  const symbols = useSymbols();
  const digitsOf = (symbol: string) => symbols.data?.data.find((s) => s.Symbol === symbol)?.digits ?? 5;
  const rows = history.data?.data ?? [];
  return (
    <Paper p="lg" ref={panel}>
      <Title order={2} size="h4" mb="md">
        History Trade
      </Title>
      {history.isPending || (!showTable && !history.isError) ? (
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
});


export function HomePage() {
  const session = useSession().data;
  const trader = session ? roleOf(session) === 'trader' : true;
  // The heading and its description (the page's largest text) in a commit of their own, with the
  // menu and header around them; the figures, the market panel and the history render after that
  // frame, in a transition that yields to the browser as it goes.
  const body = useFramesPainted(1, { transition: true });
  return (
    <Stack gap="lg">
      <PageHeader title="Dashboard" description={trader ? 'Your account at a glance, the markets you follow and your closed trades.' : 'The back office at a glance.'} />
      {body && <HomeBody trader={trader} />}
    </Stack>
  );
}

function HomeBody({ trader }: { trader: boolean }) {
  const profile = useProfile();
  const p = profile.data?.data[0];
  const loading = profile.isPending;
  return (
    <>
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
    </>
  );
}
