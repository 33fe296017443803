import { Text } from '@mantine/core';
import { IconBriefcase, IconChartCandle, IconLayoutDashboard, IconListDetails } from '@tabler/icons-react';
import { lazy, Suspense, useCallback, useEffect } from 'react';
import { Link } from 'react-router';
import { useSymbols } from '../../api/queries';
import { useAppStore } from '../../state/app-store';
import { ConnectionBadge } from '../../ui/connection-badge';
import { NotificationBell } from '../../notifications/notification-bell';
import { AccountSwitcher } from '../account-switcher';
import { LoadingScreen } from '../../ui/loading-screen';
import { TableSkeleton } from '../../ui/page';
import { PriceColumnsMenu } from '../price-columns-menu';
import { PriceTable } from '../price-table';
import { BottomSheet } from './bottom-sheet';
import { PhoneChart } from './phone-chart';
import type { PhoneView } from './phone-nav';
import classes from './phone-terminal.module.css';
import { DetailsSheetContent, PriceSheetContent } from './price-sheet';
import { usePhoneNav } from './use-phone-nav';

/*
 * The first screen is the price table: what the other tabs, the position sheet, the order screen
 * and the menu need (the order ticket, the positions' math) loads just after it, on idle, so a phone
 * shows its first quotes sooner and the first tap finds them ready.
 */
const later = {
  trading: () => import('./phone-trading'),
  position: () => import('./position-sheet'),
  order: () => import('./order-screen'),
  menu: () => import('./menu-sheet'),
};
const PhoneTrading = lazy(() => later.trading().then((m) => ({ default: m.PhoneTrading })));
const PositionSheetContent = lazy(() => later.position().then((m) => ({ default: m.PositionSheetContent })));
const OrderScreen = lazy(() => later.order().then((m) => ({ default: m.OrderScreen })));
const MenuSheetContent = lazy(() => later.menu().then((m) => ({ default: m.MenuSheetContent })));

function usePrefetchLater() {
  useEffect(() => {
    const start = () => Object.values(later).forEach((load) => void load());
    if ('requestIdleCallback' in window) {
      const id = window.requestIdleCallback(start, { timeout: 2000 });
      return () => window.cancelIdleCallback(id);
    }
    const id = setTimeout(start, 1000);
    return () => clearTimeout(id);
  }, []);
}

/**
 * While the phone terminal shows, the page reaches under a notched phone's rounded corners and home
 * bar (`viewport-fit=cover`), so its bars keep clear of them by the safe-area insets instead of the
 * browser letterboxing the page. Only here: the other pages do not pad for the insets.
 */
function useViewportFitCover() {
  useEffect(() => {
    const meta = document.querySelector<HTMLMetaElement>('meta[name="viewport"]');
    if (!meta || /viewport-fit/.test(meta.content)) return;
    const before = meta.content;
    meta.content = `${before}, viewport-fit=cover`;
    return () => void (meta.content = before);
  }, []);
}

const TABS: { view: PhoneView; label: string; title: string; icon: typeof IconListDetails }[] = [
  { view: 'prices', label: 'Prices', title: 'Prices', icon: IconListDetails },
  { view: 'chart', label: 'Chart', title: 'Chart', icon: IconChartCandle },
  { view: 'trading', label: 'Trade', title: 'Trading', icon: IconBriefcase },
];

/** The symbol the chart and a new order are for: the selected row, else the first of the chosen group. */
function useCurrentSymbol(): string | null {
  const selected = useAppStore((s) => s.selectedSymbol);
  const group = useAppStore((s) => s.symbolType);
  const first = useSymbols().data?.data.find((r) => r.CurrencyType === group)?.Symbol;
  return selected ?? first ?? null;
}

/**
 * `/trading` on a phone (spec section 2, "Mobile trading screen"): the price table, the chart and
 * the trading table as tabs of a bottom bar with a way back to the dashboard; a price row or a
 * position opens a bottom sheet, New Order a full-screen order screen. Everything live comes from
 * the desktop's stream client, stores, queries, order logic and trading math.
 */
export function PhoneTerminal() {
  const { screen, showView, openLayer, closeLayer } = usePhoneNav();
  const symbol = useCurrentSymbol();
  const select = useAppStore((s) => s.selectSymbol);
  const { view, layer } = screen;
  usePrefetchLater();
  useViewportFitCover();

  const pickRow = useCallback((s: string) => openLayer({ kind: 'symbol', symbol: s }), [openLayer]);
  const detailsOf = useCallback((s: string) => openLayer({ kind: 'details', symbol: s }), [openLayer]);
  const newOrder = useCallback((s: string | null) => void (s && openLayer({ kind: 'order', symbol: s })), [openLayer]);
  const chartOf = useCallback(
    (s: string) => {
      select(s);
      showView('chart');
    },
    [select, showView],
  );
  const title = view === 'chart' && symbol ? symbol : (TABS.find((t) => t.view === view)?.title ?? '');

  return (
    <div className={classes.root} data-testid="phone-terminal" data-view={view}>
      <header className={classes.header}>
        <div className={classes.headerTitle}>
          <Text component="h1" fw={700} size="lg" truncate data-testid="phone-title">
            {title}
          </Text>
        </div>
        <div className={classes.headerEnd}>
          <AccountSwitcher compact />
          {view === 'prices' && <PriceColumnsMenu phone />}
          <ConnectionBadge compact />
          <NotificationBell touch />
        </div>
      </header>
      <main className={classes.main} data-view={view} aria-label={title}>
        {view === 'prices' && <PriceTable phone onPick={pickRow} onChart={chartOf} onDetails={detailsOf} onNewOrder={newOrder} />}
        {view === 'chart' && symbol && <PhoneChart symbol={symbol} onNewOrder={() => newOrder(symbol)} onOpenMenu={() => openLayer({ kind: 'menu' })} />}
        {view === 'trading' && (
          <Suspense fallback={<TableSkeleton rows={5} height={56} />}>
            <PhoneTrading onOpenPosition={(ticket) => openLayer({ kind: 'position', ticket })} onNewOrder={() => newOrder(symbol)} />
          </Suspense>
        )}
      </main>
      <nav className={classes.tabbar} aria-label="Terminal">
        {TABS.map((t) => (
          <button key={t.view} type="button" className={classes.tab} aria-current={view === t.view ? 'page' : undefined} onClick={() => showView(t.view)} data-testid={`phone-tab-${t.view}`}>
            <t.icon size={24} stroke={1.7} aria-hidden />
            {t.label}
          </button>
        ))}
        <Link to="/dashboard/home" className={classes.tab} data-testid="phone-tab-dashboard">
          <IconLayoutDashboard size={24} stroke={1.7} aria-hidden />
          Dashboard
        </Link>
      </nav>
      <BottomSheet opened={layer?.kind === 'symbol'} onClose={closeLayer} label={layer?.kind === 'symbol' ? `${layer.symbol}` : ''} height={25} testId="price-sheet">
        {layer?.kind === 'symbol' && <PriceSheetContent symbol={layer.symbol} onNewOrder={() => openLayer({ kind: 'order', symbol: layer.symbol })} onChart={() => chartOf(layer.symbol)} onDetails={() => detailsOf(layer.symbol)} />}
      </BottomSheet>
      <BottomSheet opened={layer?.kind === 'details'} onClose={closeLayer} label={layer?.kind === 'details' ? `${layer.symbol} specification` : ''} height={70} testId="details-sheet">
        {layer?.kind === 'details' && <DetailsSheetContent symbol={layer.symbol} />}
      </BottomSheet>
      <BottomSheet opened={layer?.kind === 'position'} onClose={closeLayer} label={layer?.kind === 'position' ? `Position #${layer.ticket}` : ''} height={45} testId="position-sheet">
        {layer?.kind === 'position' && (
          <Suspense fallback={<TableSkeleton rows={4} height={44} />}>
            <PositionSheetContent ticket={layer.ticket} onNewOrder={(s) => openLayer({ kind: 'order', symbol: s })} onChart={chartOf} onDone={closeLayer} />
          </Suspense>
        )}
      </BottomSheet>
      <BottomSheet opened={layer?.kind === 'menu'} onClose={closeLayer} label="Menu" height={25} testId="menu-sheet">
        {layer?.kind === 'menu' && (
          <Suspense fallback={<TableSkeleton rows={4} height={44} />}>
            <MenuSheetContent />
          </Suspense>
        )}
      </BottomSheet>
      {layer?.kind === 'order' && (
        <Suspense fallback={<LoadingScreen />}>
          <OrderScreen key={`${layer.symbol}:${layer.side ?? ''}`} symbol={layer.symbol} side={layer.side} onClose={closeLayer} />
        </Suspense>
      )}
    </div>
  );
}
