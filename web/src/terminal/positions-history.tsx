import { Badge, Button, Center, SegmentedControl, Select, Skeleton, Table, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { callApi, errorMessage, type CallOutput } from '../api/client';
import { queryKeys } from '../api/query-keys';
import { formatLocalTime, formatPrice, formatUsd, formatVolume, timeZoneLabel } from '../format/format';
import { EmptyState, ErrorState, TableSkeleton } from '../ui/page';
import { saveFile } from '../ui/save-file';
import { toastError, toastSuccess } from '../ui/toast';
import { useSymbolMap } from './positions-hooks';
import { CLOSE_REASON_LABELS, dateRangeMs } from './positions-live';
import { ORDER_TYPE_LABELS } from '../format/order-types';
import { exportedOperations, ordersCsv, statusLabel, tradesCsv } from './history-csv';
import { DEFAULT_HISTORY_PRESET, HISTORY_PRESETS, presetDates, rangeLabel, type HistoryPreset } from './history-range';
import { HistoryTotals, type HistoryRange } from './history-totals';
import classes from './positions-panel.module.css';
import { SideText, SignedMoney } from './position-figures';

// The date fields are a chunk of their own, fetched when Custom is first chosen.
const DayField = lazy(() => import('../ui/date-fields').then((m) => ({ default: m.DayField })));

/** Rows a page of the History tab; the export reads pages of the server's maximum. */
export const HISTORY_PAGE_ROWS = 100;
const EXPORT_PAGE_ROWS = 500;
/** The export is bounded: a range holding more asks the trader to choose a shorter one. */
export const EXPORT_MAX_ROWS = 20_000;

type TradesPage = CallOutput<'getTradesHistory'>;
type OrdersPage = CallOutput<'getOrderHistory'>;
type HistoryKind = 'positions' | 'orders';
type Range = HistoryRange;

function fetchPage(kind: HistoryKind, range: Range, before: string | undefined, limit: number, signal?: AbortSignal): Promise<TradesPage | OrdersPage> {
  return kind === 'positions' ? callApi('getTradesHistory', { ...range, before, limit }, { signal }) : callApi('getOrderHistory', { ...range, before, limit }, { signal });
}

/** Closed positions, or every order placed (market and pending) that reached its end, newest first, one cursor page after another. */
function useHistoryPages(kind: HistoryKind, range: Range) {
  return useInfiniteQuery({
    // Orders follow the order and position events (`pendingOrders`), as a market order is its position.
    queryKey: [...(kind === 'positions' ? queryKeys.tradesHistory : queryKeys.pendingOrders), 'paged', kind, range.from ?? null, range.to ?? null],
    queryFn: ({ pageParam, signal }) => fetchPage(kind, range, pageParam, HISTORY_PAGE_ROWS, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

const time = (v: string | null) => (v ? formatLocalTime(v) : '—');
const level = (v: number, digits: number) => (v > 0 ? formatPrice(v, digits) : '—');

/** Reads every row of a cursor-paged list over the range, page by page, up to EXPORT_MAX_ROWS. */
async function readAll<T>(page: (before: string | undefined) => Promise<{ data: T[]; nextCursor?: string | null }>): Promise<{ rows: T[]; complete: boolean }> {
  const rows: T[] = [];
  let before: string | undefined;
  for (;;) {
    const p = await page(before);
    rows.push(...p.data);
    if (!p.nextCursor) return { rows, complete: true };
    if (rows.length >= EXPORT_MAX_ROWS) return { rows: rows.slice(0, EXPORT_MAX_ROWS), complete: false };
    before = p.nextCursor;
  }
}

type TradeRow = TradesPage['data'][number];
type OrderRow = OrdersPage['data'][number];

const STATUS_COLORS = { filled: 'teal', cancelled: 'gray', expired: 'yellow', rejected: 'red' } as const;

/**
 * The History tab: closed positions (open and close time and price, swap, commission, profit, why it closed)
 * or every order placed (market and pending, with how each ended), over a preset span of the
 * trader's days or a custom one, paged through all of it with the server's cursor; under the table
 * the range's totals, and the range exports as CSV (positions with the balance operations).
 */
export function HistoryTable() {
  const [kind, setKind] = useState<HistoryKind>('positions');
  const [preset, setPreset] = useState<HistoryPreset>(DEFAULT_HISTORY_PRESET);
  const [custom, setCustom] = useState({ from: '', to: '' });
  const [exporting, setExporting] = useState(false);
  // A preset's days are worked out from today at each render: a panel left open overnight moves on.
  const days = preset === 'custom' ? custom : presetDates(preset, new Date());
  const range = dateRangeMs(days.from, days.to);
  const shown = range.ok ? { from: range.from, to: range.to } : {};
  const pages = useHistoryPages(kind, shown);
  const known = useSymbolMap();

  const exportCsv = async () => {
    if (!range.ok) return;
    setExporting(true);
    try {
      let text: string;
      let count: number;
      let complete: boolean;
      if (kind === 'positions') {
        const trades = await readAll((before) => callApi('getTradesHistory', { ...shown, before, limit: EXPORT_PAGE_ROWS }));
        const operations = await readAll((before) => callApi('getBalanceOperations', { ...shown, before, limit: EXPORT_PAGE_ROWS }));
        text = tradesCsv(trades.rows, operations.rows);
        count = trades.rows.length + exportedOperations(operations.rows).length;
        complete = trades.complete && operations.complete;
      } else {
        const orders = await readAll((before) => callApi('getOrderHistory', { ...shown, before, limit: EXPORT_PAGE_ROWS }));
        text = ordersCsv(orders.rows);
        count = orders.rows.length;
        complete = orders.complete;
      }
      saveFile(`tradeport-${kind}-${days.from || 'start'}-to-${days.to || 'now'}.csv`, new Blob([text], { type: 'text/csv;charset=utf-8' }));
      if (complete) toastSuccess(`${count} row${count === 1 ? '' : 's'} exported.`, 'CSV export');
      else toastError(`Only the newest ${EXPORT_MAX_ROWS.toLocaleString('en-US')} rows of a list were exported. Choose a shorter date range for the rest.`, 'CSV export cut short');
    } catch (err) {
      toastError(errorMessage(err), 'Could not export');
    } finally {
      setExporting(false);
    }
  };

  const rows = pages.data?.pages.flatMap((p): (TradeRow | OrderRow)[] => p.data) ?? [];
  const choosePreset = (value: HistoryPreset) => {
    // Custom starts from the days the last preset showed, to be adjusted.
    if (value === 'custom' && preset !== 'custom') setCustom(days);
    setPreset(value);
  };
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
        <Select
          size="xs"
          label="Period"
          data={HISTORY_PRESETS.map((p) => ({ value: p.value, label: p.label }))}
          value={preset}
          onChange={(v) => v && choosePreset(v as HistoryPreset)}
          allowDeselect={false}
          w={150}
          comboboxProps={{ withinPortal: true }}
          data-testid="period"
        />
        {preset === 'custom' && (
          <Suspense fallback={<Skeleton height={30} width={308} aria-label="Loading the date fields" role="status" />}>
            {/* The trader's own days, in their zone (named), as the table's times. */}
            <DayField label={`From (${timeZoneLabel()})`} value={custom.from} onChange={(from) => setCustom((c) => ({ ...c, from }))} w={150} />
            <DayField label={`To (${timeZoneLabel()})`} value={custom.to} onChange={(to) => setCustom((c) => ({ ...c, to }))} w={150} error={range.ok ? undefined : range.message} />
          </Suspense>
        )}
        <Button size="xs" variant="default" leftSection={<IconDownload size={14} />} loading={exporting} disabled={!range.ok} onClick={() => void exportCsv()}>
          Export CSV
        </Button>
        <Text size="xs" c="dimmed" ml="auto" data-testid="history-count">
          {pages.data ? `${rows.length} shown${pages.hasNextPage ? ', more below' : ''}` : ''}
        </Text>
      </div>
      <div className={classes.historyScroll} tabIndex={0} role="region" aria-label="History list">
        <div className={classes.historyBody}>
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
                  <Table.Th className="tp-num">Commission</Table.Th>
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
                      <Table.Td className="tp-figure" c="dimmed" title={r.partOf !== null ? `Closed in part: the rest of #${r.partOf} stayed open` : undefined}>
                        {r.ID}
                        {r.partOf !== null && <span data-testid="history-part-of"> · part of #{r.partOf}</span>}
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
                      <Table.Td className="tp-num" data-testid="commission">
                        {formatUsd(r.commission)}
                      </Table.Td>
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
                  <Table.Th>Placed ({timeZoneLabel()})</Table.Th>
                  <Table.Th>Finished ({timeZoneLabel()})</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Reason</Table.Th>
                  <Table.Th className="tp-num">Position</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {(rows as OrderRow[]).map((r) => {
                  const digits = known.get(r.symbol)?.digits ?? 5;
                  return (
                    <Table.Tr key={`${r.kind}-${r.orderId ?? r.ticket}`} data-testid={r.kind === 'market' ? `history-market-${r.ticket}` : `history-order-${r.orderId}`} data-kind={r.kind}>
                      <Table.Td fw={600}>{r.symbol}</Table.Td>
                      <Table.Td className="tp-figure" c="dimmed" title={r.kind === 'market' ? 'A market order: its position carries its number' : undefined}>
                        {r.orderId ?? '—'}
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
                        <Badge size="sm" variant="dot" color={STATUS_COLORS[r.status]} styles={{ root: { textTransform: 'none' } }}>
                          {statusLabel(r.status)}
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
        {/* The table's footer row: kept in sight at the foot of the list however far it scrolls. */}
        {range.ok && <HistoryTotals range={shown} label={rangeLabel(preset, days.from, days.to)} />}
      </div>
    </>
  );
}
