import { Badge, Group, Select, Table, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useClosedTrades, type ClosedTradeRow } from '../api/admin/trades';
import { useSymbols } from '../api/queries';
import { formatDateTime, formatPrice, formatUsd, formatVolume, signOf } from '../format/format';
import type { AccountKind } from '@tradeport/contracts';
import { AccountKindChoice, badgeStyles, BusyMark, RecordItem, RecordList, RecordTable } from './admin-parts';
import { ExportButton } from './export-button';
import { datesProblem, DateRangeFields, useFilters } from './list-page/filters';
import { ListBody } from './list-page/list-body';
import { FilterGrid, ListCount, ListPage, ListSummary } from './list-page/list-page';
import { TablePager } from './list-page/pagers';
import { useListQuery } from './list-page/paging';
import { TraderPicker } from './trader-picker';



type CloseReason = ClosedTradeRow['closeReason'];

/** Who closed a position, in words: its owner, an administrator, or the server on a level. */
const REASONS: Record<CloseReason, { label: string; color: string }> = {
  manual: { label: 'Trader', color: 'gray' },
  admin: { label: 'Admin', color: 'violet' },
  sl: { label: 'Stop loss', color: 'orange' },
  tp: { label: 'Take profit', color: 'teal' },
  'stop-out': { label: 'Stop-out', color: 'red' },
};

/** When a position opened, without the date when it is the day it closed: 'opened 10:15:07 UTC'. */
function openedText(opened: string, closed: string): string {
  const o = formatDateTime(opened);
  const c = formatDateTime(closed);
  const cut = o.indexOf(', ');
  return cut > 0 && o.slice(0, cut) === c.slice(0, cut) ? o.slice(cut + 2) : o;
}

function Profit({ value }: { value: string }) {
  const sign = signOf(value);
  return (
    <Table.Td className={`tp-num ${sign > 0 ? 'tp-positive' : sign < 0 ? 'tp-negative' : ''}`} fw={650}>
      {sign > 0 ? '+' : ''}
      {formatUsd(value)}
    </Table.Td>
  );
}

function ClosedCards({ rows, digitsOf, dimmed }: { rows: ClosedTradeRow[]; digitsOf: (symbol: string) => number; dimmed: boolean }) {
  return (
    <RecordList label="Closed trades" dimmed={dimmed}>
      {rows.map((r) => {
        const d = digitsOf(r.symbol);
        const reason = REASONS[r.closeReason];
        const sign = signOf(r.profit);
        return (
          <RecordItem
            key={r.ID}
            title={
              <Group gap={6} wrap="nowrap">
                <Text size="sm" fw={600}>
                  {r.symbol}
                </Text>
                <Text size="xs" fw={600} className={r.tradeType === 'Buy' ? 'tp-buy' : 'tp-sell'}>
                  {r.tradeType} {formatVolume(r.volume)}
                </Text>
                <Text size="xs" c="dimmed" className="tp-figure">
                  #{r.ID}
                  {r.partOf !== null && ` · part of #${r.partOf}`}
                </Text>
              </Group>
            }
            subtitle={`${r.traderFirstName} ${r.traderLastName} · Acc. ${r.accountNumber}`}
            aside={
              <Text size="sm" fw={700} className={`tp-figure ${sign > 0 ? 'tp-positive' : sign < 0 ? 'tp-negative' : ''}`}>
                {sign > 0 ? '+' : ''}
                {formatUsd(r.profit)}
              </Text>
            }
          >
            <Text size="xs" c="dimmed" className="tp-figure" truncate="end">
              {formatPrice(r.tradePrice, d)} → {formatPrice(r.lastPrice, d)} · swap {formatUsd(r.swap)}{r.commission !== '0.00' && ` · commission ${formatUsd(r.commission)}`}
            </Text>
            <Group justify="space-between" gap="xs" wrap="nowrap">
              <Badge color={reason.color} variant="dot" styles={badgeStyles}>
                {reason.label}
              </Badge>
              <Text size="xs" c="dimmed" className="tp-figure">
                {formatDateTime(r.closeTime)}
              </Text>
            </Group>
          </RecordItem>
        );
      })}
    </RecordList>
  );
}

function ClosedTable({ rows, digitsOf, dimmed }: { rows: ClosedTradeRow[]; digitsOf: (symbol: string) => number; dimmed: boolean }) {
  return (
    <RecordTable
      label="Closed trades"
      minWidth={1060}
      spacing={8}
      horizontalSpacing={8}
      dimmed={dimmed}
      scrollRegion
      head={
        <>
          <Table.Th>Ticket</Table.Th>
          <Table.Th>Trader</Table.Th>
          <Table.Th>Symbol</Table.Th>
          <Table.Th className="tp-num">Volume</Table.Th>
          <Table.Th className="tp-num">Open → close</Table.Th>
          <Table.Th className="tp-num">SL / TP</Table.Th>
          <Table.Th className="tp-num">Profit (USD)</Table.Th>
          <Table.Th className="tp-num">Swap</Table.Th>
          <Table.Th>Closed by</Table.Th>
          <Table.Th>Closed (opened)</Table.Th>
        </>
      }
    >
      {rows.map((r) => {
        const d = digitsOf(r.symbol);
        const reason = REASONS[r.closeReason];
        const who = r.closedBy && r.closedBy !== 'system' ? r.closedBy : null;
        return (
          <Table.Tr key={r.ID}>
            {/* The ticket, and under it the trading account that held it. */}
            <Table.Td>
              <Text size="sm" c="dimmed" className="tp-figure">
                #{r.ID}
              </Text>
              {r.partOf !== null && (
                <Text size="xs" c="dimmed" className="tp-figure" style={{ whiteSpace: 'nowrap' }} data-testid={`closed-part-${r.ID}`}>
                  part of #{r.partOf}
                </Text>
              )}
              <Text size="xs" className="tp-figure" style={{ whiteSpace: 'nowrap' }} data-testid={`closed-account-${r.ID}`}>
                Acc. {r.accountNumber}
              </Text>
            </Table.Td>
            <Table.Td maw={160}>
              <Text size="sm" fw={600} truncate="end" title={`${r.traderFirstName} ${r.traderLastName}`}>
                {`${r.traderFirstName} ${r.traderLastName}`}
              </Text>
              <Text size="xs" c="dimmed" truncate="end" title={r.traderEmail}>
                {r.traderEmail}
              </Text>
            </Table.Td>
            <Table.Td>
              <Text size="sm" fw={600}>
                {r.symbol}
              </Text>
              <Text size="xs" fw={600} className={r.tradeType === 'Buy' ? 'tp-buy' : 'tp-sell'}>
                {r.tradeType}
              </Text>
            </Table.Td>
            <Table.Td className="tp-num">{formatVolume(r.volume)}</Table.Td>
            <Table.Td className="tp-num">
              {formatPrice(r.tradePrice, d)} → {formatPrice(r.lastPrice, d)}
            </Table.Td>
            <Table.Td className="tp-num" c="dimmed">
              {r.stopLoss ? formatPrice(r.stopLoss, d) : '—'} / {r.takeProfit ? formatPrice(r.takeProfit, d) : '—'}
            </Table.Td>
            <Profit value={r.profit} />
            {/* A commission, when charged, under the swap: a column of its own would not fit beside the rest at 1440 px. */}
            <Table.Td className="tp-num">
              {formatUsd(r.swap)}
              {r.commission !== '0.00' && (
                <Text size="xs" c="dimmed" className="tp-figure" style={{ whiteSpace: 'nowrap' }}>
                  comm. {formatUsd(r.commission)}
                </Text>
              )}
            </Table.Td>
            <Table.Td maw={170}>
              <Badge color={reason.color} variant="dot" styles={badgeStyles}>
                {reason.label}
              </Badge>
              {who && r.closeReason === 'admin' && (
                <Text size="xs" c="dimmed" mt={2} truncate="end" title={who}>
                  {who}
                </Text>
              )}
            </Table.Td>
            <Table.Td>
              <Text size="sm" className="tp-figure">
                {formatDateTime(r.closeTime)}
              </Text>
              <Text size="xs" c="dimmed" className="tp-figure">
                opened {openedText(r.timeStamp, r.closeTime)}
              </Text>
            </Table.Td>
          </Table.Tr>
        );
      })}
    </RecordTable>
  );
}

const DATE_LABELS = { from: 'Closed from', to: 'Closed to' };

/** User Closed Records: every trader's closed positions, newest first, with who closed each and why. */
export function ClosedRecordsPage() {
  const symbols = useSymbols();
  const filters = useFilters({ accountKind: 'live' as AccountKind, traderId: null as string | null, symbol: null as string | null, from: '', to: '' });
  const { accountKind, traderId, symbol, from, to } = filters.values;
  const problem = datesProblem(from, to, DATE_LABELS);
  const query = { accountKind, traderId: traderId ? Number(traderId) : undefined, symbol: symbol ?? undefined, from: from || undefined, to: to || undefined };
  const list = useListQuery(useClosedTrades, query, problem === null);
  const closed = list.query;

  const symbolOptions = useMemo(() => {
    const groups = new Map<string, string[]>();
    for (const s of symbols.data?.data ?? []) groups.set(s.CurrencyType, [...(groups.get(s.CurrencyType) ?? []), s.Symbol]);
    return [...groups].map(([group, items]) => ({ group, items }));
  }, [symbols.data]);
  const digitsOf = useMemo(() => {
    const digits = new Map((symbols.data?.data ?? []).map((s) => [s.Symbol, s.digits]));
    return (s: string) => digits.get(s) ?? 5;
  }, [symbols.data]);
  const rows = { rows: closed.data?.data ?? [], digitsOf, dimmed: closed.isPlaceholderData };

  return (
    <ListPage title="User Closed Records" description="Every trader's closed positions, newest first (live and demo accounts apart): at what price, for what profit, and who or what closed them.">
      <FilterGrid columns={4}>
        <TraderPicker value={traderId} onChange={filters.set('traderId')} />
        <Select
          label="Symbol"
          placeholder={symbols.isError ? 'Symbols could not be loaded' : 'All symbols'}
          data={symbolOptions}
          value={symbol}
          onChange={filters.set('symbol')}
          searchable
          clearable
          nothingFoundMessage="No symbol matches"
          disabled={symbols.isError}
        />
        <DateRangeFields from={from} to={to} onFrom={filters.set('from')} onTo={filters.set('to')} labels={DATE_LABELS} toError="Must be on or after 'Closed from'" />
      </FilterGrid>
      <ListSummary
        actions={<ExportButton call="exportClosedTrades" input={query} disabled={problem !== null || closed.data?.total === 0} what="closed trade" />}
      >
        <Group gap="sm">
          <AccountKindChoice value={accountKind} onChange={filters.set('accountKind')} />
          {closed.data && problem === null && (
            <ListCount>
              {list.total} closed {list.total === 1 ? 'trade' : 'trades'}
            </ListCount>
          )}
          {closed.isFetching && !closed.isPending && <BusyMark label="Loading" />}
        </Group>
      </ListSummary>
      <ListBody
        query={closed}
        count={rows.rows.length}
        problem={problem}
        skeleton={{ rows: list.pageSize }}
        errorTitle="Could not load the closed trades"
        empty="No trades found"
        filters={filters}
        emptyFiltered="No closed trades match these filters."
        cards={() => <ClosedCards {...rows} />}
        table={() => <ClosedTable {...rows} />}
        pager={<TablePager {...list.pager} label="Closed trades" />}
      />
    </ListPage>
  );
}
