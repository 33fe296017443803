import { Badge, Button, Group, Menu, Modal, Stack, Tabs, Text, Tooltip } from '@mantine/core';
import { IconChevronDown, IconClockPause } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { errorMessage } from '../api/client';
import { useCloseTrade, usePendingOrders, useTrades } from '../api/terminal-queries';
import { formatUsd, signOf } from '../format/format';
import { useDelayed } from '../stream/hooks';
import { stream } from '../stream/stream';
import { TableSkeleton } from '../ui/page';
import { toastError, toastSuccess } from '../ui/toast';
import { AccountFooter, MarginCallBanner } from './positions-account';
import { useSymbolMap } from './positions-hooks';
import { closeGroup, priceLookup, profitText, type CloseGroup } from './positions-live';
import classes from './positions-panel.module.css';
import { PositionsTable } from './positions-table';

const GROUP_TITLES: Record<CloseGroup, string> = { all: 'Close all', profitable: 'Close profitable', losing: 'Close losing' };
const GROUP_NONE: Record<CloseGroup, string> = { all: 'There are no positions to close.', profitable: 'No position is in profit.', losing: 'No position is at a loss.' };

/**
 * 'Close all / profitable / losing': one confirmation that says how many positions and their
 * approximate total at the prices on screen; then each is closed at the server's price.
 */
function BulkClose() {
  const trades = useTrades().data?.data ?? [];
  const known = useSymbolMap();
  const close = useCloseTrade();
  const [group, setGroup] = useState<CloseGroup | null>(null);
  const [busy, setBusy] = useState(false);
  // Read when the menu is chosen, so the total is the one the trader confirms.
  const [chosen, setChosen] = useState<{ tickets: number[]; total: string }>({ tickets: [], total: '0.00' });

  const choose = (g: CloseGroup) => {
    const prices = priceLookup((s) => stream.getQuote(s)?.quote);
    setChosen(closeGroup(trades, g, (t) => profitText(t, known.get(t.symbol), prices)));
    setGroup(g);
  };
  const confirm = async () => {
    setBusy(true);
    const refused: string[] = [];
    // One after another: each close is its own exactly-once request, answered before the next.
    for (const ticket of chosen.tickets) {
      try {
        await close.mutateAsync(ticket);
      } catch (err) {
        refused.push(`#${ticket}: ${errorMessage(err)}`);
      }
    }
    setBusy(false);
    setGroup(null);
    const closed = chosen.tickets.length - refused.length;
    if (refused.length === 0) toastSuccess(`${closed} position${closed === 1 ? '' : 's'} closed.`, GROUP_TITLES[group ?? 'all']);
    else toastError(`${closed} closed; not closed: ${refused.join('; ')}`, 'Some positions were not closed');
  };
  const n = chosen.tickets.length;
  const sign = signOf(chosen.total);
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
      <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened={group !== null} onClose={() => !busy && setGroup(null)} title={group ? GROUP_TITLES[group] : ''} size="sm" centered>
        {n === 0 ? (
          <Stack gap="md">
            <Text size="sm">{GROUP_NONE[group ?? 'all']}</Text>
            <Group justify="flex-end">
              <Button size="xs" variant="default" onClick={() => setGroup(null)}>
                OK
              </Button>
            </Group>
          </Stack>
        ) : (
          <Stack gap="md">
            <div data-testid="bulk-close-summary">
              <Text size="sm">
                Close {n} position{n === 1 ? '' : 's'} at the market price?{' '}
              </Text>
              <Text size="sm" mt={4}>
                Approximate total:{' '}
                <Text span fw={700} className={`tp-figure ${sign > 0 ? 'tp-positive' : sign < 0 ? 'tp-negative' : ''}`}>
                  {sign > 0 ? '+' : ''}
                  {formatUsd(chosen.total)} USD
                </Text>
              </Text>
            </div>
            <Text size="xs" c="dimmed">
              Profit and swap at the prices shown now; each position closes at the server&apos;s price when it is sent.
            </Text>
            <Group justify="flex-end" gap="xs">
              <Button size="xs" variant="default" onClick={() => setGroup(null)} disabled={busy}>
                Cancel
              </Button>
              <Button size="xs" color="red.9" loading={busy} onClick={() => void confirm()}>
                Close {n} position{n === 1 ? '' : 's'}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </>
  );
}

/** The Pending Orders and History tabs load when first opened: most visits never open them. */
const PendingOrdersTable = lazy(() => import('./positions-pending').then((m) => ({ default: m.PendingOrdersTable })));
const HistoryTable = lazy(() => import('./positions-history').then((m) => ({ default: m.HistoryTable })));
const tabLoading = <TableSkeleton rows={3} height={28} />;

/** The terminal's bottom panel: Positions, Pending Orders and History tabs over the account figures. */
export function PositionsPanel() {
  const [tab, setTab] = useState<string | null>('positions');
  const positions = useTrades().data?.data.length;
  const orders = usePendingOrders().data?.data.length;
  const delayed = useDelayed();
  return (
    <section className={classes.panel} aria-label="Positions panel" data-testid="positions-panel" data-delayed={delayed || undefined}>
      <MarginCallBanner />
      <Tabs value={tab} onChange={setTab} keepMounted={false} className={classes.tabs}>
        <div className={classes.tabsBar}>
          <Tabs.List className={classes.tabList}>
            <Tabs.Tab value="positions">Positions{positions ? ` (${positions})` : ''}</Tabs.Tab>
            <Tabs.Tab value="orders">Pending Orders{orders ? ` (${orders})` : ''}</Tabs.Tab>
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
        <Tabs.Panel value="history" className={classes.tabPanel}>
          <Suspense fallback={tabLoading}>
            <HistoryTable />
          </Suspense>
        </Tabs.Panel>
      </Tabs>
      <AccountFooter />
    </section>
  );
}
