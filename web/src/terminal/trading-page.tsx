import { ActionIcon, Button, Group, Menu, Paper, SegmentedControl, SimpleGrid, Stack, Text, Title, Tooltip } from '@mantine/core';
import { PERIOD_NAMES, type PeriodName } from '@tradeport/contracts/periods';
import { useState } from 'react';
import { useFullscreenDocument } from '@mantine/hooks';
import { IconLayoutDashboard, IconLogout, IconMaximize, IconMinimize, IconUserCircle } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { errorMessage } from '../api/client';
import { signOut, useSession, useSymbols } from '../api/queries';
import { formatPrice } from '../format/format';
import { CandleChart } from '../market/candle-chart';
import { useAppStore } from '../state/app-store';
import { useQuote } from '../stream/hooks';
import { stream } from '../stream/stream';
import { ColorSchemeToggle } from '../ui/color-scheme-toggle';
import { ConnectionBadge } from '../ui/connection-badge';
import { Logo } from '../ui/logo';
import { toastError } from '../ui/toast';
import { PositionsPanel } from './positions-panel';
import { PriceTable } from './price-table';
import classes from './trading-page.module.css';

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={600} className="tp-figure">
        {value}
      </Text>
    </div>
  );
}

/** The selected symbol: its live quote, spread and contract terms. */
function SymbolPanel() {
  const symbol = useAppStore((s) => s.selectedSymbol);
  const record = useSymbols().data?.data.find((s) => s.Symbol === symbol);
  const q = useQuote(symbol)?.quote;
  if (!record) return null;
  const point = 10 ** -record.digits;
  const spread = q && q.bid !== null && q.ask !== null ? Math.round((q.ask - q.bid) / point) : null;
  return (
    <Paper p="md" data-testid="symbol-panel">
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={2} size="h3">
            {record.Symbol}
          </Title>
          <Text size="sm" c="dimmed">
            {record.description} · {record.CurrencyType}
          </Text>
        </div>
        <Text size="xs" fw={700} c={q?.open ? (q.stale ? 'var(--tp-negative)' : 'var(--tp-positive)') : 'dimmed'}>
          {!q ? '' : q.open ? (q.stale ? 'NO RECENT PRICE' : 'MARKET OPEN') : 'MARKET CLOSED'}
        </Text>
      </Group>
      <SimpleGrid cols={2} mt="md" spacing="sm">
        <Paper p="sm" withBorder>
          <Text size="xs" c="dimmed">
            Bid (sell)
          </Text>
          <Text fz={26} fw={700} className="tp-figure tp-sell">
            {formatPrice(q?.bid, record.digits)}
          </Text>
        </Paper>
        <Paper p="sm" withBorder>
          <Text size="xs" c="dimmed">
            Ask (buy)
          </Text>
          <Text fz={26} fw={700} className="tp-figure tp-buy">
            {formatPrice(q?.ask, record.digits)}
          </Text>
        </Paper>
      </SimpleGrid>
      <SimpleGrid cols={{ base: 2, sm: 3 }} mt="md" spacing="sm">
        <Fact label="Spread (points)" value={spread === null ? '—' : String(spread)} />
        <Fact label="Digits" value={String(record.digits)} />
        <Fact label="Contract size" value={record.contractSize.toLocaleString('en-US')} />
        <Fact label="Volume min / step" value={`${record.volumeMin} / ${record.volumeStep}`} />
        <Fact label="Volume max" value={String(record.volumeMax)} />
        <Fact label="Margin mode" value={record.calcMode === 'forex' ? 'Forex' : 'CFD'} />
      </SimpleGrid>
      {record.sessions.length > 0 && (
        <Text size="xs" c="dimmed" mt="md">
          Sessions: {record.sessions.join(', ')}
        </Text>
      )}
    </Paper>
  );
}

/** The selected symbol's candles; the spec's terminal default is one hour. */
function ChartPanel() {
  const symbol = useAppStore((s) => s.selectedSymbol);
  const record = useSymbols().data?.data.find((s) => s.Symbol === symbol);
  const [period, setPeriod] = useState<PeriodName>('H1');
  if (!record) return null;
  return (
    <Paper p="md">
      <Group justify="space-between" mb="sm" gap="xs">
        <Text fw={600} size="sm">
          {record.Symbol} · {period}
        </Text>
        <SegmentedControl aria-label="Chart period" size="xs" value={period} onChange={(v) => setPeriod(v as PeriodName)} data={[...PERIOD_NAMES]} />
      </Group>
      <CandleChart symbol={record.Symbol} period={period} digits={record.digits} height={420} label={`${record.Symbol} candlestick chart, ${period}`} />
    </Paper>
  );
}

/**
 * `/trading`, first slice: the live price table and the selected symbol. The chart, order entry
 * and positions are the terminal's next part; until then the page shows only what works.
 */
export function TradingPage() {
  const session = useSession().data;
  const client = useQueryClient();
  const navigate = useNavigate();
  const { toggle, fullscreen } = useFullscreenDocument();
  const name = session?.user ? `${session.user.firstName} ${session.user.lastName}` : '';
  const logout = async () => {
    // The stream stops only once the server has ended the session (a failed sign-out keeps the page live).
    try {
      await signOut(client);
    } catch (err) {
      toastError(errorMessage(err), 'Could not sign out');
      return;
    }
    stream.stop();
    void navigate('/', { replace: true });
  };
  return (
    <div className={classes.page}>
      <header className={classes.topbar}>
        <Group gap="sm" wrap="nowrap">
          <Logo size="sm" nameFrom="xs" />
          <Button component={Link} to="/dashboard/home" size="xs" variant="default" leftSection={<IconLayoutDashboard size={16} />}>
            Dashboard
          </Button>
        </Group>
        <Group gap="xs" wrap="nowrap">
          <ConnectionBadge />
          <Tooltip label={fullscreen ? 'Leave full screen' : 'Full screen'}>
            <ActionIcon variant="default" size="lg" onClick={() => void toggle()} aria-label={fullscreen ? 'Leave full screen' : 'Full screen'} visibleFrom="sm">
              {fullscreen ? <IconMinimize size={18} /> : <IconMaximize size={18} />}
            </ActionIcon>
          </Tooltip>
          <ColorSchemeToggle />
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon variant="default" size="lg" aria-label={`Account menu of ${name}`}>
                <IconUserCircle size={18} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Label>{name}</Menu.Label>
              <Menu.Item component={Link} to="/dashboard/home" leftSection={<IconLayoutDashboard size={16} />}>
                Dashboard
              </Menu.Item>
              <Menu.Item color="red" leftSection={<IconLogout size={16} />} onClick={() => void logout()}>
                LogOut
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        </Group>
      </header>
      <main className={classes.main}>
        <section className={classes.prices} aria-label="Price table">
          <PriceTable />
        </section>
        <Stack className={classes.side} gap="md">
          <SymbolPanel />
          <ChartPanel />
          <PositionsPanel />
        </Stack>
      </main>
    </div>
  );
}
