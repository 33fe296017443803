import { ActionIcon, Anchor, Group, Paper, Stack, Table, Text, Tooltip, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconChevronDown, IconChevronRight, IconRefresh } from '@tabler/icons-react';
import type { AccountKind, SymbolRecord } from '@tradeport/contracts';
import { Fragment, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { PENDING_REFETCH_MS } from '../api/admin/keys';
import { useOpenTrades, type OpenTradesGroup } from '../api/admin/trades';
import { useCan } from '../api/queries';
import { negatedMoney, sumMoney } from '../format/money-sum';
import { AccountKindChoice, BusyMark, RecordTable, SearchField, SignedUsd, usePhone, useSymbolInfo } from './admin-parts';
import { ListBody } from './list-page/list-body';
import { ListCount, ListPage } from './list-page/list-page';
import { TablePager } from './list-page/pagers';
import { useListQuery } from './list-page/paging';
import { useRowDialog } from './list-page/row-action';
import { symbolsFor, useLivePrices } from './live-profit';
import { CloseDialog, liveProfit, nameOf, TradesList, TradesTable, type CloseTarget, type Price } from './open-trades-rows';

/** What both views of the traders with open trades need: the page's groups at live prices, which are open, and Close. */
interface GroupsProps {
  shown: OpenTradesGroup[];
  info: ReadonlyMap<string, SymbolRecord>;
  price: Price;
  dimmed: boolean;
  /** While searching, every trader with a match is shown open and cannot be folded. */
  needle: string;
  isOpen: (traderId: number) => boolean;
  toggle: (traderId: number) => void;
  /** Absent for staff whose roles may not close traders' positions. */
  onClose?: (target: CloseTarget) => void;
}

/** The sum of a trader's trades' profits at the live price (trades that cannot be valued left out). */
const groupProfit = (g: OpenTradesGroup, info: ReadonlyMap<string, SymbolRecord>, price: Price) => sumMoney(g.trades.map((t) => liveProfit(t, info, price)).filter((p): p is string => p !== null));

/** A phone lists traders as cards; a card opens onto its trades, each with Close in reach. */
function GroupCards({ shown, info, price, dimmed, needle, isOpen, toggle, onClose }: GroupsProps) {
  return (
    <Stack gap="xs" role="list" aria-label="Open trades by trader" aria-busy={dimmed || undefined} style={{ opacity: dimmed ? 0.6 : 1, transition: 'opacity 120ms' }}>
      {shown.map((g) => {
        const name = nameOf(g);
        const open = isOpen(g.traderId);
        const Chevron = open ? IconChevronDown : IconChevronRight;
        return (
          <Paper key={g.traderId} withBorder p="xs" role="listitem">
            <Group gap="xs" wrap="nowrap" align="center">
              <ActionIcon variant="subtle" color="gray" aria-expanded={open} aria-label={`${open ? 'Hide' : 'Show'} the trades of ${name}`} disabled={needle !== ''} onClick={() => toggle(g.traderId)}>
                <Chevron size={16} />
              </ActionIcon>
              <div style={{ minWidth: 0, flex: 1 }}>
                <Anchor component={Link} to={`/dashboard/users/${g.traderId}`} size="sm" fw={600} display="block" truncate="end">
                  {name}
                </Anchor>
                <Text size="xs" c="dimmed" truncate="end">
                  {g.traderEmail}
                </Text>
              </div>
              <Stack gap={0} align="flex-end">
                <SignedUsd value={groupProfit(g, info, price)} />
                <Text size="xs" c="dimmed">
                  {g.trades.length} {g.trades.length === 1 ? 'trade' : 'trades'}
                </Text>
              </Stack>
            </Group>
            {open && (
              <div style={{ marginTop: 'var(--mantine-spacing-xs)', borderTop: '1px solid var(--mantine-color-default-border)' }}>
                <TradesList group={g} info={info} price={price} onClose={onClose} />
              </div>
            )}
          </Paper>
        );
      })}
    </Stack>
  );
}

function GroupTable({ shown, info, price, dimmed, needle, isOpen, toggle, onClose }: GroupsProps) {
  return (
    <RecordTable
      label="Open trades by trader"
      dimmed={dimmed}
      minWidth={620}
      spacing={10}
      head={
        <>
          <Table.Th w={44}>
            <VisuallyHidden>Expand</VisuallyHidden>
          </Table.Th>
          <Table.Th>Trader</Table.Th>
          <Table.Th className="tp-num">Open trades</Table.Th>
          <Table.Th className="tp-num">Floating profit (USD)</Table.Th>
        </>
      }
    >
      {shown.map((g) => {
        const name = nameOf(g);
        const open = isOpen(g.traderId);
                const Chevron = open ? IconChevronDown : IconChevronRight;
        return (
          <Fragment key={g.traderId}>
            <Table.Tr style={{ cursor: 'pointer' }} onClick={() => needle === '' && toggle(g.traderId)} bg={open ? 'var(--mantine-color-default-hover)' : undefined}>
              <Table.Td>
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  aria-expanded={open}
                  aria-label={`${open ? 'Hide' : 'Show'} the trades of ${name}`}
                  disabled={needle !== ''}
                  onClick={(e) => {
                    e.stopPropagation();
                    toggle(g.traderId);
                  }}
                >
                  <Chevron size={16} />
                </ActionIcon>
              </Table.Td>
              <Table.Td>
                <Anchor component={Link} to={`/dashboard/users/${g.traderId}`} size="sm" fw={600} display="block" truncate="end" title={name} onClick={(e) => e.stopPropagation()}>
                  {name}
                </Anchor>
                <Text size="xs" c="dimmed" truncate="end" title={g.traderEmail}>
                  {g.traderEmail}
                </Text>
              </Table.Td>
              <Table.Td className="tp-num" fw={600}>
                {g.trades.length}
              </Table.Td>
              <Table.Td className="tp-num" data-testid={`group-profit-${g.traderId}`}>
                <SignedUsd value={groupProfit(g, info, price)} />
              </Table.Td>
            </Table.Tr>
            {open && (
              <Table.Tr>
                <Table.Td colSpan={4} p={0} pb="sm" style={{ background: 'var(--mantine-color-body)' }}>
                  <div style={{ paddingLeft: 'var(--mantine-spacing-md)', paddingRight: 'var(--mantine-spacing-xs)' }}>
                    <TradesTable group={g} info={info} price={price} onClose={onClose} />
                  </div>
                </Table.Td>
              </Table.Tr>
            )}
          </Fragment>
        );
      })}
    </RecordTable>
  );
}

/** Open trades: every trader's open positions, one expandable row per trader, each closable by an admin. */
export function OpenTradesPage() {
  const info = useSymbolInfo();
  const phone = usePhone();
  const [search, setSearch] = useState('');
  const [kind, setKind] = useState<AccountKind>('live');
  const [debouncedSearch] = useDebouncedValue(search.trim(), 250);
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set());
  const closeDialog = useRowDialog<CloseTarget>();
  const can = useCan();
  // Searched (the spec's "contains") and paged per trader on the server: only the page shown
  // travels, and a new search (once it is sent) starts on page 1.
  // Live and demo accounts are listed apart: the totals of one are never mixed with the other's.
  const list = useListQuery(useOpenTrades, { search: debouncedSearch || undefined, accountKind: kind });
  const openTrades = list.query;
  const { total, pageSize } = list;

  const shown = useMemo(() => openTrades.data?.data ?? [], [openTrades.data]);
  const needle = debouncedSearch;
  // Live prices for the page's trades; the totals over every page are the server's, re-read with the list.
  const price = useLivePrices(useMemo(() => symbolsFor(shown.flatMap((g) => g.trades.map((t) => ({ symbol: t.fullSymbol }))), info), [shown, info]));
  const tradeCount = openTrades.data?.trades ?? 0;
  // Every page's floating profit as the server last computed it, with this page's trades at the
  // live price instead, so the total agrees with the rows shown as they tick.
  const pageTrades = shown.flatMap((g) => g.trades);
  const known = (p: string | null): p is string => p !== null;
  const floating = sumMoney([
    openTrades.data?.floatingProfit ?? '0.00',
    ...pageTrades.map((t) => t.profit).filter(known).map(negatedMoney),
    ...pageTrades.map((t) => liveProfit(t, info, price)).filter(known),
  ]);
  const isOpen = (id: number) => needle !== '' || expanded.has(id);
  const toggle = (id: number) =>
    setExpanded((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const allOpen = shown.length > 0 && shown.every((g) => isOpen(g.traderId));
  const groups: GroupsProps = { shown, info, price, dimmed: openTrades.isPlaceholderData, needle, isOpen, toggle, onClose: can('trades.manage') ? closeDialog.open : undefined };

  return (
    <ListPage
      title="Open Trades"
      description="Every trader's open positions at live prices, live and demo accounts apart. Closing a position settles it at the server's price."
      dialogs={<CloseDialog target={closeDialog.row} opened={closeDialog.opened} onClose={closeDialog.close} info={info} price={price} />}
    >
      <Group justify="space-between" mb="md" gap="sm" align="flex-end">
        <Group gap="sm" align="flex-end" style={{ flexGrow: phone ? 1 : 0 }}>
          <SearchField label="Search trades" placeholder="Trader, email, symbol, ticket or account" value={search} onChange={setSearch} />
          <AccountKindChoice value={kind} onChange={setKind} />
        </Group>
        <Group gap="sm" justify="flex-end" style={{ flexGrow: phone ? 1 : 0 }}>
          {!openTrades.isPending && !openTrades.isError && (
            <ListCount>
              {tradeCount} {tradeCount === 1 ? 'trade' : 'trades'} · {total} {total === 1 ? 'trader' : 'traders'} · <SignedUsd value={floating} size="sm" fw={600} /> USD{kind === 'demo' ? ' (demo)' : ''}
            </ListCount>
          )}
          {shown.length > 0 && needle === '' && (
            <UnstyledButton onClick={() => setExpanded(allOpen ? new Set() : new Set(shown.map((g) => g.traderId)))} fz="sm" fw={600} c="var(--mantine-color-anchor)" style={{ whiteSpace: 'nowrap' }}>
              {allOpen ? 'Collapse all' : 'Expand all'}
            </UnstyledButton>
          )}
          <Tooltip label={`Refresh now (the list is re-read every ${PENDING_REFETCH_MS / 1000} s)`}>
            <ActionIcon variant="subtle" color="gray" onClick={() => void openTrades.refetch()} aria-label="Refresh open trades">
              {openTrades.isFetching && !openTrades.isPending ? <BusyMark label="Refreshing" /> : <IconRefresh size={16} />}
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>
      <ListBody
        query={openTrades}
        count={total}
        skeleton={{ rows: 6, height: 44 }}
        errorTitle="Could not load the open trades"
        empty="No trades found"
        cards={() => <GroupCards {...groups} />}
        table={() => <GroupTable {...groups} />}
        pager={total > pageSize && <TablePager {...list.pager} label="Traders with open trades" />}
      />
    </ListPage>
  );
}
