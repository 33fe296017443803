import { ActionIcon, Button, Group, Menu, SegmentedControl, Text, Title, Tooltip } from '@mantine/core';
import { useFullscreenDocument, useMediaQuery } from '@mantine/hooks';
import { IconLayoutDashboard, IconLogout, IconMaximize, IconMinimize, IconUserCircle } from '@tabler/icons-react';
import type { SymbolRecord } from '@tradeport/contracts';
import { PERIOD_NAMES, type PeriodName } from '@tradeport/contracts/periods';
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useAppConfig, useSession, useSymbols } from '../api/queries';
import { formatBalance, formatPercent } from '../format/format';
import { PriceAlertButton, TerminalChart } from '../chart/terminal-chart';
import type { AlertTarget } from './alert-modal';
import { useAppStore } from '../state/app-store';
import { useDelayed, useQuoteValue } from '../stream/hooks';
import type { QuoteEntry } from '../stream/stream-client';
import { ConnectionBadge } from '../ui/connection-badge';
import { NotificationBell } from '../notifications/notification-bell';
import { AccountSwitcher } from './account-switcher';
import { Logo } from '../ui/logo';
import { toastError } from '../ui/toast';
import { hotkeyAction, keyPressOf } from './hotkeys';
import { figureWarnings, hasCredit, useLiveAccount } from './positions-account';
import { closeSelectedPosition } from './positions-hooks';
import { PositionsPanel } from './positions-panel';
import { PriceTable } from './price-table';
import { QuickTrade, useQuickTrade } from './quick-trade';
import { SplitHandle } from './split-handle';
import { loadSplits, saveSplits, type TerminalSplits } from './terminal-layout';
import { useTerminalSettings } from './terminal-settings';
import { HotkeysHelp, TerminalSettingsMenu } from './terminal-settings-menu';
import classes from './trading-page.module.css';
import { useSignOut } from '../auth/use-sign-out';

// The new-order dialog is downloaded when a ticket is first asked for: the first screen does not show it.
const OrderDialog = lazy(() => import('./order-dialog').then((m) => ({ default: m.OrderDialog })));

/** The new-order dialog, mounted from the first ticket on (and kept, for its transitions). */
function LazyOrderDialog() {
  const asked = useAppStore((s) => s.orderTicket !== null);
  const [mounted, setMounted] = useState(false);
  if (asked && !mounted) setMounted(true);
  return mounted ? (
    <Suspense fallback={null}>
      <OrderDialog />
    </Suspense>
  ) : null;
}

function useSelectedRecord(): SymbolRecord | undefined {
  const symbol = useAppStore((s) => s.selectedSymbol);
  return useSymbols().data?.data.find((s) => s.Symbol === symbol);
}

/** Balance, equity, free margin and level in brief, live: the positions panel's own figures, in the same decimals as its footer (4, and 2 for the level). */
function AccountBrief() {
  const f = useLiveAccount();
  const delayed = useDelayed();
  const warn = figureWarnings(f, useAppConfig().data?.marginCallLevel);
  const items = [
    { label: 'Balance', value: f ? formatBalance(f.balance) : '—', id: 'balance', warning: false },
    ...(f && hasCredit(f) ? [{ label: 'Credit', value: formatBalance(f.credit), id: 'credit', warning: false }] : []),
    { label: 'Equity', value: f ? formatBalance(f.equity) : '—', id: 'equity', warning: false },
    { label: 'Free margin', value: f ? formatBalance(f.freeMargin) : '—', id: 'free-margin', warning: warn.freeMargin },
    { label: 'Level', value: f && Number(f.margin) > 0 ? formatPercent(f.marginLevel) : '—', id: 'level', warning: warn.level },
  ];
  return (
    <dl className={classes.brief} aria-label="Account in brief" data-testid="account-brief" data-delayed={delayed || undefined}>
      {items.map((i) => (
        <div key={i.id} className={classes.briefItem}>
          <dt>{i.label}</dt>
          <dd className={`tp-figure ${i.warning ? 'tp-negative' : ''}`} data-testid={`brief-${i.id}`} data-warning={i.warning || undefined}>
            {i.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** The selected symbol: name, state, spread and terms, and the quick-trade widget. */
/** The market's state, as a primitive: its text re-renders the header's name row only when it changes. */
const marketStateOf = (entry: QuoteEntry | undefined): 'open' | 'closed' | 'stale' | null => (!entry?.quote ? null : !entry.quote.open ? 'closed' : entry.quote.stale ? 'stale' : 'open');
const MARKET_STATE = {
  open: { text: 'Market open', color: 'var(--tp-positive)' },
  closed: { text: 'Market closed', color: 'var(--tp-muted)' },
  stale: { text: 'No recent price', color: 'var(--tp-negative)' },
} as const;

/** The spread in points, following the ticks on its own (the rest of the header does not re-render with them). */
function LiveSpread({ symbol, digits }: { symbol: string; digits: number }) {
  const spread = useQuoteValue(symbol, (entry) => {
    const q = entry?.quote;
    return q && !q.stale && q.bid !== null && q.ask !== null ? Math.round((q.ask - q.bid) * 10 ** digits) : null;
  });
  return <span className="tp-figure">{spread ?? '—'}</span>;
}

function InstrumentHeader({ record }: { record: SymbolRecord }) {
  const marketState = useQuoteValue(record.Symbol, marketStateOf);
  const state = marketState && MARKET_STATE[marketState];
  return (
    <div className={classes.instrument} data-testid="symbol-panel">
      <div className={classes.instrumentName}>
        <Group gap="xs" wrap="nowrap">
          <Title order={2} size="h4">
            {record.Symbol}
          </Title>
          {state && (
            <Text size="xs" fw={600} c={state.color} className={classes.marketState} data-testid="market-state">
              {state.text}
            </Text>
          )}
        </Group>
        <Text size="xs" c="dimmed" truncate>
          {record.description} · Spread <LiveSpread symbol={record.Symbol} digits={record.digits} /> · Contract {record.contractSize.toLocaleString('en-US')} · {record.calcMode === 'forex' ? 'Forex' : 'CFD'}
        </Text>
      </div>
      <QuickTrade record={record} />
    </div>
  );
}

/** The selected symbol's candles; the spec's terminal default is one hour. */
function ChartPanel({ record }: { record: SymbolRecord }) {
  const [period, setPeriod] = useState<PeriodName>('H1');
  const [pickingAlert, setPickingAlert] = useState(false);
  const [picked, setPicked] = useState<AlertTarget | null>(null);
  const onAlertPick = useCallback(
    (level: number | null) => {
      setPickingAlert(false);
      if (level !== null) setPicked({ kind: 'new', symbol: record.Symbol, level });
    },
    [record.Symbol],
  );
  return (
    <div className={classes.chart}>
      <Group justify="space-between" gap="xs" px="xs" py={6} className={classes.chartBar}>
        <Group gap={4}>
          <Text fw={600} size="sm">
            {record.Symbol} · {period}
          </Text>
          <PriceAlertButton
            symbol={record.Symbol}
            picking={pickingAlert}
            picked={picked}
            onPick={(on) => {
              setPicked(null);
              setPickingAlert(on);
            }}
          />
        </Group>
        <SegmentedControl aria-label="Chart period" size="xs" transitionDuration={0} value={period} onChange={(v) => setPeriod(v as PeriodName)} data={[...PERIOD_NAMES]} />
      </Group>
      <div className={classes.chartBody}>
        <TerminalChart symbol={record.Symbol} period={period} digits={record.digits} label={`${record.Symbol} chart, ${period}`} onPeriod={setPeriod} pickingAlert={pickingAlert} onAlertPick={onAlertPick} />
      </div>
    </div>
  );
}

/** The optional hotkeys (off until turned on in the settings). */
function Hotkeys({ onHelp }: { onHelp(): void }) {
  const { hotkeys } = useTerminalSettings();
  const record = useSelectedRecord();
  const { trade } = useQuickTrade(record);
  const openOrderTicket = useAppStore((s) => s.openOrderTicket);
  useEffect(() => {
    if (!hotkeys) return;
    const onKey = (event: KeyboardEvent) => {
      if (useAppStore.getState().orderTicket) return;
      const action = hotkeyAction(keyPressOf(event));
      if (!action) return;
      event.preventDefault();
      if (action === 'help') onHelp();
      else if (action === 'buy' || action === 'sell') trade(action);
      else if (action === 'new-order') {
        if (record) openOrderTicket({ symbol: record.Symbol });
      } else if (!closeSelectedPosition()) toastError('Click a position in the Positions tab first, then press Shift+C to close it.', 'No position selected');
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [hotkeys, trade, record, openOrderTicket, onHelp]);
  return null;
}

function TopBar({ onShowHotkeys }: { onShowHotkeys(): void }) {
  const session = useSession().data;
  const { toggle, fullscreen } = useFullscreenDocument();
  const name = session?.user ? `${session.user.firstName} ${session.user.lastName}` : '';
  const logout = useSignOut();
  return (
    <header className={classes.topbar}>
      <Group gap="sm" wrap="nowrap">
        <Logo size="sm" nameFrom="xs" />
        <Button component={Link} to="/dashboard/home" size="xs" variant="default" leftSection={<IconLayoutDashboard size={16} />} visibleFrom="xs">
          Dashboard
        </Button>
        {/* On a phone, an icon: the connection state beside it keeps its whole word. */}
        <ActionIcon component={Link} to="/dashboard/home" variant="default" size="lg" aria-label="Dashboard" hiddenFrom="xs">
          <IconLayoutDashboard size={18} />
        </ActionIcon>
        <AccountSwitcher />
      </Group>
      <AccountBrief />
      <Group gap="xs" wrap="nowrap">
        <ConnectionBadge />
        <Tooltip label={fullscreen ? 'Leave full screen' : 'Full screen'}>
          <ActionIcon variant="default" size="lg" onClick={() => void toggle()} aria-label={fullscreen ? 'Leave full screen' : 'Full screen'} visibleFrom="sm">
            {fullscreen ? <IconMinimize size={18} /> : <IconMaximize size={18} />}
          </ActionIcon>
        </Tooltip>
        <NotificationBell />
        <TerminalSettingsMenu onShowHotkeys={onShowHotkeys} />
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
  );
}

/**
 * `/trading`: the top bar, the chart area with the instrument header and quick trade, the price
 * table on the right (~30%), the positions panel below; both splits resizable and remembered.
 */
export function TradingPage() {
  const record = useSelectedRecord();
  const mobile = useMediaQuery('(max-width: 768px)');
  const [splits, setSplits] = useState<TerminalSplits>(() => loadSplits(typeof localStorage === 'undefined' ? undefined : localStorage));
  const workspace = useRef<HTMLElement>(null);
  const upper = useRef<HTMLDivElement>(null);
  const [helpOpen, setHelpOpen] = useState(false);
  const showHelp = useCallback(() => setHelpOpen(true), []);
  const set = (which: keyof TerminalSplits) => (v: number) => setSplits((s) => ({ ...s, [which]: v }));
  const commit = (which: keyof TerminalSplits) => (v: number) => saveSplits(localStorage, { ...splits, [which]: v });
  const style = mobile ? undefined : ({ '--prices-width': `${splits.pricesPercent}%`, '--bottom-height': `${splits.bottomPercent}%` } as React.CSSProperties);
  return (
    <div className={classes.page}>
      <TopBar onShowHotkeys={showHelp} />
      <main className={classes.workspace} ref={workspace} style={style}>
        <div className={classes.upper} ref={upper}>
          <section className={classes.chartArea} aria-label="Chart">
            {record && <InstrumentHeader record={record} />}
            {record && <ChartPanel record={record} />}
          </section>
          {!mobile && <SplitHandle which="pricesPercent" value={splits.pricesPercent} label="Resize the price table" onChange={set('pricesPercent')} onCommit={commit('pricesPercent')} container={upper} />}
          <section className={classes.prices} aria-label="Price table">
            <PriceTable />
          </section>
        </div>
        {!mobile && <SplitHandle which="bottomPercent" value={splits.bottomPercent} label="Resize the positions panel" onChange={set('bottomPercent')} onCommit={commit('bottomPercent')} container={workspace} />}
        <div className={classes.bottom}>
          <PositionsPanel />
        </div>
      </main>
      <LazyOrderDialog />
      <Hotkeys onHelp={showHelp} />
      <HotkeysHelp opened={helpOpen} onClose={() => setHelpOpen(false)} />
    </div>
  );
}
