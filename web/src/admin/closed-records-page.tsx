import { Badge, Button, Group, Paper, Select, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { useMemo, useState, type ReactNode } from 'react';
import { useClosedTrades, type ClosedTradeFilters, type ClosedTradeRow } from '../api/admin-queries';
import { useSymbols } from '../api/queries';
import { formatDateTime, formatPrice, formatUsd, formatVolume, signOf } from '../format/format';
import { EmptyState, ErrorState, PageHeader, TableSkeleton } from '../ui/page';
import { badgeStyles, BusyMark, RecordItem, RecordList, RecordTable, usePhone } from './admin-parts';
import { ExportButton } from './export-button';
import { TraderPicker } from './trader-picker';
import { TablePager, usePageSize } from './users-page';

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

/** User Closed Records: every trader's closed positions, newest first, with who closed each and why. */
export function ClosedRecordsPage() {
  const pageSize = usePageSize();
  const phone = usePhone();
  const symbols = useSymbols();
  const [traderId, setTraderId] = useState<string | null>(null);
  const [symbol, setSymbol] = useState<string | null>(null);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const datesWrong = from !== '' && to !== '' && from > to;
  // A change of filter starts again on page 1; the page is kept with the filters it belongs to.
  const filterKey = JSON.stringify([traderId, symbol, from, to, pageSize]);
  const [paging, setPaging] = useState({ filterKey, page: 1 });
  const page = paging.filterKey === filterKey ? paging.page : 1;

  const filters: ClosedTradeFilters = {
    traderId: traderId ? Number(traderId) : undefined,
    symbol: symbol ?? undefined,
    from: from || undefined,
    to: to || undefined,
    limit: pageSize,
    offset: (page - 1) * pageSize,
  };
  const closed = useClosedTrades(filters, !datesWrong);

  const symbolOptions = useMemo(() => {
    const groups = new Map<string, string[]>();
    for (const s of symbols.data?.data ?? []) groups.set(s.CurrencyType, [...(groups.get(s.CurrencyType) ?? []), s.Symbol]);
    return [...groups].map(([group, items]) => ({ group, items }));
  }, [symbols.data]);
  const digitsOf = useMemo(() => {
    const digits = new Map((symbols.data?.data ?? []).map((s) => [s.Symbol, s.digits]));
    return (s: string) => digits.get(s) ?? 5;
  }, [symbols.data]);

  const filtered = traderId !== null || symbol !== null || from !== '' || to !== '';
  const clear = () => {
    setTraderId(null);
    setSymbol(null);
    setFrom('');
    setTo('');
  };

  const rows = closed.data?.data ?? [];
  let body: ReactNode;
  if (datesWrong) body = <EmptyState message="Choose a 'Closed from' date on or before the 'Closed to' date." />;
  else if (closed.isPending) body = <TableSkeleton rows={pageSize} />;
  else if (closed.isError) body = <ErrorState error={closed.error} onRetry={() => void closed.refetch()} title="Could not load the closed trades" />;
  else if (rows.length === 0) {
    body = (
      <EmptyState
        message={filtered ? 'No closed trades match these filters.' : 'No trades found'}
        action={
          filtered ? (
            <Button variant="light" size="xs" onClick={clear}>
              Clear filters
            </Button>
          ) : undefined
        }
      />
    );
  } else if (phone) {
    body = (
      <>
        <RecordList label="Closed trades" dimmed={closed.isPlaceholderData}>
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
                    </Text>
                  </Group>
                }
                subtitle={`${r.traderFirstName} ${r.traderLastName} · ${r.traderEmail}`}
                aside={
                  <Text size="sm" fw={700} className={`tp-figure ${sign > 0 ? 'tp-positive' : sign < 0 ? 'tp-negative' : ''}`}>
                    {sign > 0 ? '+' : ''}
                    {formatUsd(r.profit)}
                  </Text>
                }
              >
                <Text size="xs" c="dimmed" className="tp-figure" truncate="end">
                  {formatPrice(r.tradePrice, d)} → {formatPrice(r.lastPrice, d)} · swap {formatUsd(r.swap)}
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
        <TablePager page={page} pageSize={pageSize} total={closed.data?.total ?? 0} onChange={(next) => setPaging({ filterKey, page: next })} label="Closed trades" />
      </>
    );
  } else {
    body = (
      <>
        <RecordTable
          label="Closed trades"
          minWidth={1060}
          spacing={8}
          horizontalSpacing={8}
          dimmed={closed.isPlaceholderData}
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
                <Table.Td className="tp-figure" c="dimmed">
                  #{r.ID}
                </Table.Td>
                <Table.Td maw={180}>
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
                <Table.Td className="tp-num">{formatUsd(r.swap)}</Table.Td>
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
        <TablePager page={page} pageSize={pageSize} total={closed.data?.total ?? 0} onChange={(next) => setPaging({ filterKey, page: next })} label="Closed trades" />
      </>
    );
  }

  return (
    <Stack gap="lg">
      <PageHeader title="User Closed Records" description="Every trader's closed positions, newest first: at what price, for what profit, and who or what closed them." />
      <Paper p="lg">
        <SimpleGrid cols={{ base: 2, md: 4 }} spacing="sm" mb="md">
          <TraderPicker value={traderId} onChange={setTraderId} />
          <Select
            label="Symbol"
            placeholder={symbols.isError ? 'Symbols could not be loaded' : 'All symbols'}
            data={symbolOptions}
            value={symbol}
            onChange={setSymbol}
            searchable
            clearable
            nothingFoundMessage="No symbol matches"
            disabled={symbols.isError}
          />
          <TextInput label="Closed from" type="date" value={from} onChange={(e) => setFrom(e.currentTarget.value)} max={to || undefined} />
          <TextInput label="Closed to" type="date" value={to} onChange={(e) => setTo(e.currentTarget.value)} min={from || undefined} error={datesWrong ? "Must be on or after 'Closed from'" : undefined} />
        </SimpleGrid>
        <Group justify="space-between" gap="xs" mb="sm" mih={30}>
          <Group gap="xs">
            {closed.data && !datesWrong && (
              <Text size="sm" c="dimmed" className="tp-figure" aria-live="polite">
                {closed.data.total} closed {closed.data.total === 1 ? 'trade' : 'trades'}
              </Text>
            )}
            {closed.isFetching && !closed.isPending && <BusyMark label="Loading" />}
          </Group>
          <ExportButton call="exportClosedTrades" input={{ traderId: filters.traderId, symbol: filters.symbol, from: filters.from, to: filters.to }} disabled={datesWrong || closed.data?.total === 0} what="closed trade" />
        </Group>
        {body}
      </Paper>
    </Stack>
  );
}
