import { Badge, Button, Center, SegmentedControl, Table, Text, TextInput } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { callApi, errorMessage, type CallOutput } from '../api/client';
import { queryKeys } from '../api/query-keys';
import { formatLocalTime, formatPrice, formatUsd, formatVolume, timeZoneLabel } from '../format/format';
import { EmptyState, ErrorState, TableSkeleton } from '../ui/page';
import { toastError, toastSuccess } from '../ui/toast';
import { useSymbolMap } from './positions-hooks';
import { CLOSE_REASON_LABELS, dateRangeMs, toCsv } from './positions-live';
import { ORDER_TYPE_LABELS } from '../format/order-types';
import classes from './positions-panel.module.css';
import { SideText, SignedMoney } from './positions-table';

/** Rows a page of the History tab; the export reads pages of the server's maximum. */
export const HISTORY_PAGE_ROWS = 100;
const EXPORT_PAGE_ROWS = 500;
/** The export is bounded: a range holding more asks the trader to choose a shorter one. */
export const EXPORT_MAX_ROWS = 20_000;

type TradesPage = CallOutput<'getTradesHistory'>;
type OrdersPage = CallOutput<'getPendingOrders'>;
type HistoryKind = 'positions' | 'orders';
type Range = { from?: number; to?: number };

function fetchPage(kind: HistoryKind, range: Range, before: string | undefined, limit: number, signal?: AbortSignal): Promise<TradesPage | OrdersPage> {
  return kind === 'positions' ? callApi('getTradesHistory', { ...range, before, limit }, { signal }) : callApi('getPendingOrders', { status: 'history', ...range, before, limit }, { signal });
}

/** Closed positions and finished orders (filled, cancelled, expired, rejected), newest closed or finished first, one cursor page after another. */
function useHistoryPages(kind: HistoryKind, range: Range) {
  return useInfiniteQuery({
    queryKey: [...(kind === 'positions' ? queryKeys.tradesHistory : queryKeys.pendingOrders), 'paged', range.from ?? null, range.to ?? null],
    queryFn: ({ pageParam, signal }) => fetchPage(kind, range, pageParam, HISTORY_PAGE_ROWS, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

const time = (v: string | null) => (v ? formatLocalTime(v) : '—');
const level = (v: number, digits: number) => (v > 0 ? formatPrice(v, digits) : '—');

/** Reads every row of the range, page by page, up to EXPORT_MAX_ROWS. */
async function readAll(kind: HistoryKind, range: Range): Promise<{ rows: (TradeRow | OrderRow)[]; complete: boolean }> {
  const rows: (TradeRow | OrderRow)[] = [];
  let before: string | undefined;
  for (;;) {
    const page = await fetchPage(kind, range, before, EXPORT_PAGE_ROWS);
    rows.push(...page.data);
    if (!page.nextCursor) return { rows, complete: true };
    if (rows.length >= EXPORT_MAX_ROWS) return { rows: rows.slice(0, EXPORT_MAX_ROWS), complete: false };
    before = page.nextCursor;
  }
}

function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

type TradeRow = TradesPage['data'][number];
type OrderRow = OrdersPage['data'][number];

/**
 * A time as a spreadsheet reads it: '2026-11-29 01:12:11' (UTC, as the column header says). The
 * wire's ISO form with its T, milliseconds and Z opens as text, not as a date.
 */
export function csvTime(value: string | null | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString().slice(0, 19).replace('T', ' ');
}

export function tradesCsv(rows: readonly TradeRow[]): string {
  return toCsv(
    ['Ticket', 'Symbol', 'Type', 'Volume', 'Open time (UTC)', 'Open price', 'S / L', 'T / P', 'Close time (UTC)', 'Close price', 'Swap', 'Profit', 'Close reason', 'Comment'],
    rows.map((r) => [r.ID, r.symbol, r.tradeType, r.volume, csvTime(r.timeStamp), r.tradePrice, r.stopLoss || '', r.takeProfit || '', csvTime(r.closeTime), r.lastPrice, r.swap, r.profit, CLOSE_REASON_LABELS[r.closeReason], r.comment]),
  );
}

export function ordersCsv(rows: readonly OrderRow[]): string {
  return toCsv(
    ['Order', 'Symbol', 'Type', 'Volume', 'Price', 'Limit price', 'S / L', 'T / P', 'Placed (UTC)', 'Finished (UTC)', 'Status', 'Reason', 'Position'],
    rows.map((r) => [r.orderId, r.symbol, ORDER_TYPE_LABELS[r.orderType], r.volume, r.price, r.stopLimitPrice || '', r.stopLoss || '', r.takeProfit || '', csvTime(r.timeStamp), csvTime(r.updatedAt), r.status, r.reason, r.ticket ?? '']),
  );
}

const STATUS_COLORS = { pending: 'blue', filled: 'teal', cancelled: 'gray', expired: 'yellow', rejected: 'red' } as const;

/**
 * The History tab: closed positions (open and close time and price, swap, profit, why it closed)
 * or finished orders, in a date range, paged through all of it with the server's cursor; the range
 * exports as CSV.
 */
export function HistoryTable() {
  const [kind, setKind] = useState<HistoryKind>('positions');
  const [fromDate, setFromDate] = useState('');
  const [toDate, setToDate] = useState('');
  const [exporting, setExporting] = useState(false);
  const range = dateRangeMs(fromDate, toDate);
  const pages = useHistoryPages(kind, range.ok ? range : {});
  const known = useSymbolMap();

  const exportCsv = async () => {
    if (!range.ok) return;
    setExporting(true);
    try {
      const { rows, complete } = await readAll(kind, range);
      const text = kind === 'positions' ? tradesCsv(rows as TradeRow[]) : ordersCsv(rows as OrderRow[]);
      download(`tradeport-${kind}-${fromDate || 'start'}-to-${toDate || 'now'}.csv`, text);
      if (complete) toastSuccess(`${rows.length} row${rows.length === 1 ? '' : 's'} exported.`, 'CSV export');
      else toastError(`Only the newest ${EXPORT_MAX_ROWS.toLocaleString('en-US')} rows were exported. Choose a shorter date range for the rest.`, 'CSV export cut short');
    } catch (err) {
      toastError(errorMessage(err), 'Could not export');
    } finally {
      setExporting(false);
    }
  };

  const rows = pages.data?.pages.flatMap((p): (TradeRow | OrderRow)[] => p.data) ?? [];
  return (
    <>
      <div className={classes.filters}>
        <SegmentedControl
          size="xs"
          aria-label="History of"
          value={kind}
          onChange={(v) => setKind(v as HistoryKind)}
          data={[
            { value: 'positions', label: 'Closed positions' },
            { value: 'orders', label: 'Orders' },
          ]}
        />
        <TextInput size="xs" type="date" label="From" value={fromDate} onChange={(e) => setFromDate(e.currentTarget.value)} w={150} max={toDate || undefined} />
        <TextInput size="xs" type="date" label="To" value={toDate} onChange={(e) => setToDate(e.currentTarget.value)} w={150} min={fromDate || undefined} error={range.ok ? undefined : range.message} />
        <Button size="xs" variant="default" leftSection={<IconDownload size={14} />} loading={exporting} disabled={!range.ok} onClick={() => void exportCsv()}>
          Export CSV
        </Button>
        <Text size="xs" c="dimmed" ml="auto" data-testid="history-count">
          {pages.data ? `${rows.length} shown${pages.hasNextPage ? ', more below' : ''}` : ''}
        </Text>
      </div>
      <div className={classes.historyScroll} tabIndex={0} role="region" aria-label="History list">
        {pages.isPending ? (
          <TableSkeleton rows={4} height={28} />
        ) : pages.isError ? (
          <ErrorState error={pages.error} onRetry={() => void pages.refetch()} title="Could not load your history" />
        ) : rows.length === 0 ? (
          <EmptyState message={kind === 'positions' ? 'No closed positions in this range' : 'No orders in this range'} />
        ) : kind === 'positions' ? (
          <Table className={classes.table} aria-label="Closed positions" verticalSpacing={4} horizontalSpacing="xs" highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Symbol</Table.Th>
                <Table.Th>Ticket</Table.Th>
                <Table.Th>Type</Table.Th>
                <Table.Th className="tp-num">Volume</Table.Th>
                <Table.Th>Open time ({timeZoneLabel()})</Table.Th>
                <Table.Th className="tp-num">Open price</Table.Th>
                <Table.Th className="tp-num">S / L</Table.Th>
                <Table.Th className="tp-num">T / P</Table.Th>
                <Table.Th>Close time ({timeZoneLabel()})</Table.Th>
                <Table.Th className="tp-num">Close price</Table.Th>
                <Table.Th className="tp-num">Swap</Table.Th>
                <Table.Th className="tp-num">Profit</Table.Th>
                <Table.Th>Reason</Table.Th>
                <Table.Th>Comment</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(rows as TradeRow[]).map((r) => {
                const digits = known.get(r.symbol)?.digits ?? 5;
                return (
                  <Table.Tr key={r.ID} data-testid={`history-${r.ID}`}>
                    <Table.Td fw={600}>{r.symbol}</Table.Td>
                    <Table.Td className="tp-figure" c="dimmed">
                      {r.ID}
                    </Table.Td>
                    <Table.Td>
                      <SideText side={r.tradeType} />
                    </Table.Td>
                    <Table.Td className="tp-num">{formatVolume(r.volume)}</Table.Td>
                    <Table.Td className="tp-figure">{time(r.timeStamp)}</Table.Td>
                    <Table.Td className="tp-num">{formatPrice(r.tradePrice, digits)}</Table.Td>
                    <Table.Td className="tp-num">{level(r.stopLoss, digits)}</Table.Td>
                    <Table.Td className="tp-num">{level(r.takeProfit, digits)}</Table.Td>
                    <Table.Td className="tp-figure">{time(r.closeTime)}</Table.Td>
                    <Table.Td className="tp-num">{formatPrice(r.lastPrice, digits)}</Table.Td>
                    <Table.Td className="tp-num">{formatUsd(r.swap)}</Table.Td>
                    <Table.Td className="tp-num" fw={600}>
                      <SignedMoney value={r.profit} />
                    </Table.Td>
                    <Table.Td data-testid="reason">{CLOSE_REASON_LABELS[r.closeReason]}</Table.Td>
                    <Table.Td data-testid="comment" c="dimmed" maw={220} style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} title={r.comment || undefined}>
                      {r.comment}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        ) : (
          <Table className={classes.table} aria-label="Order history" verticalSpacing={4} horizontalSpacing="xs" highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Symbol</Table.Th>
                <Table.Th>Order</Table.Th>
                <Table.Th>Type</Table.Th>
                <Table.Th className="tp-num">Volume</Table.Th>
                <Table.Th className="tp-num">Price</Table.Th>
                <Table.Th className="tp-num">S / L</Table.Th>
                <Table.Th className="tp-num">T / P</Table.Th>
                <Table.Th>Placed</Table.Th>
                <Table.Th>Finished</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Reason</Table.Th>
                <Table.Th className="tp-num">Position</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(rows as OrderRow[]).map((r) => {
                const digits = known.get(r.symbol)?.digits ?? 5;
                return (
                  <Table.Tr key={r.orderId} data-testid={`history-order-${r.orderId}`}>
                    <Table.Td fw={600}>{r.symbol}</Table.Td>
                    <Table.Td className="tp-figure" c="dimmed">
                      {r.orderId}
                    </Table.Td>
                    <Table.Td>
                      <span className={r.orderType.startsWith('buy') ? 'tp-buy' : 'tp-sell'}>{ORDER_TYPE_LABELS[r.orderType]}</span>
                    </Table.Td>
                    <Table.Td className="tp-num">{formatVolume(r.volume)}</Table.Td>
                    <Table.Td className="tp-num">{formatPrice(r.price, digits)}</Table.Td>
                    <Table.Td className="tp-num">{level(r.stopLoss, digits)}</Table.Td>
                    <Table.Td className="tp-num">{level(r.takeProfit, digits)}</Table.Td>
                    <Table.Td className="tp-figure">{time(r.timeStamp)}</Table.Td>
                    <Table.Td className="tp-figure">{time(r.updatedAt)}</Table.Td>
                    <Table.Td>
                      <Badge size="sm" variant="light" color={STATUS_COLORS[r.status]} styles={{ root: { textTransform: 'none' } }}>
                        {r.status[0]?.toUpperCase() + r.status.slice(1)}
                      </Badge>
                    </Table.Td>
                    <Table.Td c="dimmed" className={classes.comment} title={r.reason || undefined}>
                      {r.reason}
                    </Table.Td>
                    <Table.Td className="tp-num">{r.ticket ?? '—'}</Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        )}
        {pages.hasNextPage && (
          <Center py="xs">
            <Button size="xs" variant="default" loading={pages.isFetchingNextPage} onClick={() => void pages.fetchNextPage()}>
              Load more
            </Button>
          </Center>
        )}
      </div>
    </>
  );
}
