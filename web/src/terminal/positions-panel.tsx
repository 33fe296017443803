import { Badge, Button, Menu, Tabs, Tooltip } from '@mantine/core';
import { IconBellPlus, IconChevronDown, IconClockPause } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { useAlerts, usePendingOrders, useTrades } from '../api/terminal-queries';
import { useAppStore } from '../state/app-store';
import type { AlertTarget } from './alert-modal';
import { useDelayed } from '../stream/hooks';
import { stream } from '../stream/stream';
import { TableSkeleton } from '../ui/page';
import type { BulkChoice } from './bulk-close-dialog';
import { AccountFooter, MarginCallBanner } from './positions-account';
import { useSymbolMap } from './positions-hooks';
import { closeGroup, priceLookup, profitText, type CloseGroup } from './positions-live';
import classes from './positions-panel.module.css';
import { PositionsTable } from './positions-table';

// The confirmation is downloaded when a group is first chosen.
const BulkCloseDialog = lazy(() => import('./bulk-close-dialog').then((m) => ({ default: m.BulkCloseDialog })));

/**
 * 'Close all / profitable / losing': one confirmation that says how many positions and their
 * approximate total at the prices on screen; then each is closed at the server's price.
 */
function BulkClose() {
  const trades = useTrades().data?.data ?? [];
  const known = useSymbolMap();
  const [choice, setChoice] = useState<BulkChoice | null>(null);
  const [used, setUsed] = useState(false);
  // Read when the menu is chosen, so the total is the one the trader confirms.
  const choose = (group: CloseGroup) => {
    const prices = priceLookup((s) => stream.getQuote(s)?.quote);
    setChoice({ group, ...closeGroup(trades, group, (t) => profitText(t, known.get(t.symbol), prices)) });
    setUsed(true);
  };
  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button size="compact-xs" variant="default" rightSection={<IconChevronDown size={12} />} disabled={trades.length === 0}>
            Close positions
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item onClick={() => choose('all')}>Close all</Menu.Item>
          <Menu.Item onClick={() => choose('profitable')}>Close profitable</Menu.Item>
          <Menu.Item onClick={() => choose('losing')}>Close losing</Menu.Item>
        </Menu.Dropdown>
      </Menu>
      {used && (
        <Suspense fallback={null}>
          <BulkCloseDialog choice={choice} onDone={() => setChoice(null)} />
        </Suspense>
      )}
    </>
  );
}

/** The Pending Orders and History tabs load when first opened: most visits never open them. */
const PendingOrdersTable = lazy(() => import('./positions-pending').then((m) => ({ default: m.PendingOrdersTable })));
const HistoryTable = lazy(() => import('./positions-history').then((m) => ({ default: m.HistoryTable })));
const AlertsTable = lazy(() => import('./positions-alerts').then((m) => ({ default: m.AlertsTable })));
const AlertModal = lazy(() => import('./alert-modal').then((m) => ({ default: m.AlertModal })));
const tabLoading = <TableSkeleton rows={3} height={28} />;

/** The terminal's bottom panel: Positions, Pending Orders, Alerts and History tabs over the account figures. */
export function PositionsPanel() {
  const [tab, setTab] = useState<string | null>('positions');
  const positions = useTrades().data?.data.length;
  const orders = usePendingOrders().data?.data.length;
  const waitingAlerts = useAlerts().data?.data.filter((a) => a.status === 'active').length;
  const selected = useAppStore((s) => s.selectedSymbol);
  const [alertTarget, setAlertTarget] = useState<AlertTarget | null>(null);
  const [alertUsed, setAlertUsed] = useState(false);
  const openAlert = (target: AlertTarget) => {
    setAlertTarget(target);
    setAlertUsed(true);
  };
  const delayed = useDelayed();
  return (
    <section className={classes.panel} aria-label="Positions panel" data-testid="positions-panel" data-delayed={delayed || undefined}>
      <MarginCallBanner />
      <Tabs value={tab} onChange={setTab} keepMounted={false} className={classes.tabs}>
        <div className={classes.tabsBar}>
          <Tabs.List className={classes.tabList}>
            <Tabs.Tab value="positions">Positions{positions ? ` (${positions})` : ''}</Tabs.Tab>
            <Tabs.Tab value="orders">Pending Orders{orders ? ` (${orders})` : ''}</Tabs.Tab>
            <Tabs.Tab value="alerts">Alerts{waitingAlerts ? ` (${waitingAlerts})` : ''}</Tabs.Tab>
            <Tabs.Tab value="history">History</Tabs.Tab>
          </Tabs.List>
          <div className={classes.toolbar}>
            {delayed && (
              <Tooltip label="The live connection is down: prices refresh every second and positions every 1.5 seconds until it is back.">
                <Badge color="orange" c="var(--tp-warning)" variant="light" size="sm" leftSection={<IconClockPause size={12} />} styles={{ root: { textTransform: 'none' } }} data-testid="positions-delayed" tabIndex={0}>
                  Delayed
                </Badge>
              </Tooltip>
            )}
            {tab === 'positions' && <BulkClose />}
            {tab === 'alerts' && (
              <Button size="compact-xs" variant="default" leftSection={<IconBellPlus size={13} />} onClick={() => openAlert({ kind: 'new', symbol: selected ?? 'EURUSD' })}>
                New alert
              </Button>
            )}
          </div>
        </div>
        <Tabs.Panel value="positions" className={classes.tabPanel}>
          <div className={classes.scroll} tabIndex={0} role="region" aria-label="Open positions list">
            <PositionsTable delayed={delayed} />
          </div>
        </Tabs.Panel>
        <Tabs.Panel value="orders" className={classes.tabPanel}>
          <div className={classes.scroll} tabIndex={0} role="region" aria-label="Pending orders list">
            <Suspense fallback={tabLoading}>
              <PendingOrdersTable delayed={delayed} />
            </Suspense>
          </div>
        </Tabs.Panel>
        <Tabs.Panel value="alerts" className={classes.tabPanel}>
          <div className={classes.scroll} tabIndex={0} role="region" aria-label="Price alerts list">
            <Suspense fallback={tabLoading}>
              <AlertsTable onEdit={(alert) => openAlert({ kind: 'edit', alert })} />
            </Suspense>
          </div>
        </Tabs.Panel>
        <Tabs.Panel value="history" className={classes.tabPanel}>
          <Suspense fallback={tabLoading}>
            <HistoryTable />
          </Suspense>
        </Tabs.Panel>
      </Tabs>
      <AccountFooter />
      {alertUsed && (
        <Suspense fallback={null}>
          <AlertModal target={alertTarget} onClose={() => setAlertTarget(null)} />
        </Suspense>
      )}
    </section>
  );
}
