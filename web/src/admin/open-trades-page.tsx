import { ActionIcon, Anchor, Button, Group, Modal, Paper, SimpleGrid, Stack, Table, Text, Tooltip, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconChevronDown, IconChevronRight, IconRefresh } from '@tabler/icons-react';
import type { SymbolRecord } from '@tradeport/contracts';
import { Fragment, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { negatedMoney, PENDING_REFETCH_MS, sumMoney, useAdminCloseTrade, useOpenTrades, type OpenTradesGroup } from '../api/admin-queries';
import { errorMessage } from '../api/client';
import { formatPrice, formatVolume } from '../format/format';
import { EmptyState, ErrorState, PageHeader, TableSkeleton } from '../ui/page';
import { toastError, toastSuccess } from '../ui/toast';
import { BusyMark, negativeButton, RecordTable, SearchField, SideBadge, SignedUsd, TradeLeadCells, TradeLeadHeads, usePhone, useSymbolInfo } from './admin-parts';
import { profitAt, symbolsFor, useLivePrices } from './live-profit';
import { DateTimeText, TablePager, usePageSize, useRowDialog } from './users-page';

type Trade = OpenTradesGroup['trades'][number];
type Price = ReturnType<typeof useLivePrices>;
interface CloseTarget {
  group: OpenTradesGroup;
  trade: Trade;
}

const nameOf = (g: OpenTradesGroup) => `${g.traderFirstName} ${g.traderLastName}`.trim();

function liveProfit(t: Trade, info: ReadonlyMap<string, SymbolRecord>, price: Price): string | null {
  return profitAt({ symbol: t.fullSymbol, side: t.tradesTypesName, volume: t.volume, openPrice: t.orginalPrice, serverProfit: t.profit }, info.get(t.fullSymbol), price, info);
}

/** The price a position would close at now: Buy at the bid, Sell at the ask. */
function closingPrice(t: Trade, price: Price): number | null {
  const q = price(t.fullSymbol);
  return (t.tradesTypesName === 'buy' ? q?.bid : q?.ask) ?? null;
}

/** A phone shows each trade as two lines with its Close button in reach, instead of a wide table. */
function TradesList({ group, info, price, onClose }: { group: OpenTradesGroup; info: ReadonlyMap<string, SymbolRecord>; price: Price; onClose: (target: CloseTarget) => void }) {
  return (
    <Stack gap={0} role="list" aria-label={`Open trades of ${nameOf(group)}`}>
      {group.trades.map((t, i) => {
        const digits = info.get(t.fullSymbol)?.digits ?? 5;
        const now = closingPrice(t, price);
        return (
          <Stack key={t.tradeId} role="listitem" gap={4} py="xs" style={{ borderTop: i === 0 ? undefined : '1px solid var(--mantine-color-default-border)' }}>
            <Group justify="space-between" gap="xs" wrap="nowrap">
              <Group gap={6} wrap="nowrap">
                <Text size="sm" c="dimmed" className="tp-figure">
                  #{t.tradeId}
                </Text>
                <Text size="sm" fw={600}>
                  {t.fullSymbol}
                </Text>
                <SideBadge side={t.tradesTypesName} />
                <Text size="sm" className="tp-figure">
                  {formatVolume(t.volume)}
                </Text>
              </Group>
              <span data-testid={`profit-${t.tradeId}`}>
                <SignedUsd value={liveProfit(t, info, price)} />
              </span>
            </Group>
            <Group justify="space-between" gap="xs" wrap="nowrap">
              <Text size="xs" c="dimmed" className="tp-figure">
                {formatPrice(t.orginalPrice, digits)} → {now === null ? '—' : formatPrice(now, digits)}
              </Text>
              <Button size="compact-sm" variant="light" color="red" styles={negativeButton} onClick={() => onClose({ group, trade: t })} aria-label={`Close ticket ${t.tradeId}`}>
                Close
              </Button>
            </Group>
          </Stack>
        );
      })}
    </Stack>
  );
}

function TradesTable({ group, info, price, onClose }: { group: OpenTradesGroup; info: ReadonlyMap<string, SymbolRecord>; price: Price; onClose: (target: CloseTarget) => void }) {
  const name = nameOf(group);
  return (
    <RecordTable
      label={`Open trades of ${name}`}
      minWidth={820}
      head={
        <>
          <TradeLeadHeads />
          <Table.Th className="tp-num">Open price</Table.Th>
          <Table.Th className="tp-num">Current price</Table.Th>
          <Table.Th className="tp-num">Profit (USD)</Table.Th>
          <Table.Th>Opened</Table.Th>
          <Table.Th style={{ position: 'relative' }}>
            <VisuallyHidden>Actions</VisuallyHidden>
          </Table.Th>
        </>
      }
    >
      {group.trades.map((t) => {
        const digits = info.get(t.fullSymbol)?.digits ?? 5;
        const now = closingPrice(t, price);
        return (
          <Table.Tr key={t.tradeId}>
            <TradeLeadCells id={t.tradeId} symbol={t.fullSymbol} side={t.tradesTypesName} volume={t.volume} />
            <Table.Td className="tp-num">{formatPrice(t.orginalPrice, digits)}</Table.Td>
            <Table.Td className="tp-num" data-testid={`price-${t.tradeId}`}>
              {now === null ? '—' : formatPrice(now, digits)}
            </Table.Td>
            <Table.Td className="tp-num" data-testid={`profit-${t.tradeId}`}>
              <SignedUsd value={liveProfit(t, info, price)} />
            </Table.Td>
            <Table.Td>
              <DateTimeText value={t.timeStamp} />
            </Table.Td>
            <Table.Td ta="right">
              <Button size="compact-sm" variant="light" color="red" styles={negativeButton} onClick={() => onClose({ group, trade: t })} aria-label={`Close ticket ${t.tradeId}`}>
                Close
              </Button>
            </Table.Td>
          </Table.Tr>
        );
      })}
    </RecordTable>
  );
}

function CloseDialog({ target, opened, onClose, info, price }: { target: CloseTarget | null; opened: boolean; onClose: () => void; info: ReadonlyMap<string, SymbolRecord>; price: Price }) {
  const close = useAdminCloseTrade();
  const t = target?.trade;
  const confirm = () => {
    if (!target || !t) return;
    onClose();
    close.mutateAsync({ traderId: target.group.traderId, ticket: t.tradeId }).then(
      () => toastSuccess(`ticket# ${t.tradeId} closed successfully`),
      (err: unknown) => toastError(errorMessage(err)),
    );
  };
  const digits = t ? (info.get(t.fullSymbol)?.digits ?? 5) : 5;
  const now = t ? closingPrice(t, price) : null;
  return (
    <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened={opened} onClose={onClose} title={t ? `Close ticket #${t.tradeId}?` : ''} centered>
      {target && t && (
        <Stack gap="md">
          {/* Labels as wide as they need, values in the rest (wrapping on a phone rather than cut). */}
          <SimpleGrid cols={2} spacing="md" verticalSpacing={4} style={{ gridTemplateColumns: 'auto minmax(0, 1fr)' }}>
            <Text size="sm" c="dimmed">
              Trader
            </Text>
            <Text size="sm" fw={600}>
              {nameOf(target.group)}
            </Text>
            <Text size="sm" c="dimmed">
              Position
            </Text>
            <Text size="sm" className="tp-figure" style={{ whiteSpace: 'normal' }}>
              {t.tradesTypesName === 'buy' ? 'Buy' : 'Sell'} {formatVolume(t.volume)} {t.fullSymbol} at {formatPrice(t.orginalPrice, digits)}
            </Text>
            <Text size="sm" c="dimmed">
              Current price
            </Text>
            <Text size="sm" className="tp-figure">
              {now === null ? '—' : formatPrice(now, digits)}
            </Text>
            <Text size="sm" c="dimmed">
              Profit now
            </Text>
            <Text size="sm">
              <SignedUsd value={liveProfit(t, info, price)} /> USD
            </Text>
          </SimpleGrid>
          <Text size="sm">The position is closed at the server&apos;s price when you confirm, and the profit or loss is settled to the trader&apos;s balance. The trader is notified; this cannot be undone.</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button color="red.9" onClick={confirm} data-autofocus>
              Close position
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

/** Open trades: every trader's open positions, one expandable row per trader, each closable by an admin. */
export function OpenTradesPage() {
  const info = useSymbolInfo();
  const pageSize = usePageSize();
  const phone = usePhone();
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search.trim(), 250);
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set());
  // The page belongs to a search: a new search (once it is sent) starts on page 1.
  const [paging, setPaging] = useState({ search: '', page: 1 });
  const page = paging.search === debouncedSearch ? paging.page : 1;
  const setPage = (next: number) => setPaging({ search: debouncedSearch, page: next });
  const closeDialog = useRowDialog<CloseTarget>();
  // Searched (the spec's "contains") and paged per trader on the server: only the page shown travels.
  const openTrades = useOpenTrades({ search: debouncedSearch || undefined, limit: pageSize, offset: (page - 1) * pageSize });

  const shown = useMemo(() => openTrades.data?.data ?? [], [openTrades.data]);
  const total = openTrades.data?.total ?? 0;
  const needle = debouncedSearch;
  // Live prices for the page's trades; the totals over every page are the server's, re-read with the list.
  const price = useLivePrices(useMemo(() => symbolsFor(shown.flatMap((g) => g.trades.map((t) => ({ symbol: t.fullSymbol }))), info), [shown, info]));
  const pages = Math.max(1, Math.ceil(total / pageSize));
  useEffect(() => {
    if (openTrades.data && !openTrades.isPlaceholderData && page > pages) setPage(pages);
  }, [page, pages, openTrades.data, openTrades.isPlaceholderData]);
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
  // While searching, every trader with a match is shown open.
  const isOpen = (id: number) => needle !== '' || expanded.has(id);
  const toggle = (id: number) =>
    setExpanded((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const allOpen = shown.length > 0 && shown.every((g) => isOpen(g.traderId));

  let body: ReactNode;
  if (openTrades.isPending) body = <TableSkeleton rows={6} height={44} />;
  else if (openTrades.isError) body = <ErrorState error={openTrades.error} onRetry={() => void openTrades.refetch()} title="Could not load the open trades" />;
  else if (total === 0) body = <EmptyState message="No trades found" />;
  else if (phone) {
    // A phone lists traders as cards; a card opens onto its trades, each with Close in reach.
    body = (
      <>
        <Stack gap="xs" role="list" aria-label="Open trades by trader" aria-busy={openTrades.isPlaceholderData || undefined} style={{ opacity: openTrades.isPlaceholderData ? 0.6 : 1, transition: 'opacity 120ms' }}>
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
                    <SignedUsd value={sumMoney(g.trades.map((t) => liveProfit(t, info, price)).filter((p): p is string => p !== null))} />
                    <Text size="xs" c="dimmed">
                      {g.trades.length} {g.trades.length === 1 ? 'trade' : 'trades'}
                    </Text>
                  </Stack>
                </Group>
                {open && (
                  <div style={{ marginTop: 'var(--mantine-spacing-xs)', borderTop: '1px solid var(--mantine-color-default-border)' }}>
                    <TradesList group={g} info={info} price={price} onClose={closeDialog.open} />
                  </div>
                )}
              </Paper>
            );
          })}
        </Stack>
        {total > pageSize && <TablePager page={Math.min(page, pages)} pageSize={pageSize} total={total} onChange={setPage} label="Traders with open trades" />}
      </>
    );
  }
  else {
    body = (
      <>
        <RecordTable
          label="Open trades by trader"
          dimmed={openTrades.isPlaceholderData}
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
            const groupProfit = sumMoney(g.trades.map((t) => liveProfit(t, info, price)).filter((p): p is string => p !== null));
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
                    <SignedUsd value={groupProfit} />
                  </Table.Td>
                </Table.Tr>
                {open && (
                  <Table.Tr>
                    <Table.Td colSpan={4} p={0} pb="sm" style={{ background: 'var(--mantine-color-body)' }}>
                      <div style={{ paddingLeft: 'var(--mantine-spacing-md)', paddingRight: 'var(--mantine-spacing-xs)' }}>
                        <TradesTable group={g} info={info} price={price} onClose={closeDialog.open} />
                      </div>
                    </Table.Td>
                  </Table.Tr>
                )}
              </Fragment>
            );
          })}
        </RecordTable>
        {total > pageSize && <TablePager page={Math.min(page, pages)} pageSize={pageSize} total={total} onChange={setPage} label="Traders with open trades" />}
      </>
    );
  }

  return (
    <Stack gap="lg">
      <PageHeader title="Open Trades" description="Every trader's open positions at live prices. Closing a position settles it at the server's price." />
      <Paper p="lg">
        <Group justify="space-between" mb="md" gap="sm" align="flex-end">
          <SearchField
            label="Search trades"
            placeholder="Trader, email, symbol or ticket"
            value={search}
            onChange={setSearch}
          />
          <Group gap="sm" justify="flex-end" style={{ flexGrow: phone ? 1 : 0 }}>
            {!openTrades.isPending && !openTrades.isError && (
              <Text size="sm" c="dimmed" className="tp-figure" aria-live="polite">
                {tradeCount} {tradeCount === 1 ? 'trade' : 'trades'} · {total} {total === 1 ? 'trader' : 'traders'} · <SignedUsd value={floating} size="sm" fw={600} /> USD
              </Text>
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
        {body}
      </Paper>
      <CloseDialog target={closeDialog.row} opened={closeDialog.opened} onClose={closeDialog.close} info={info} price={price} />
    </Stack>
  );
}
