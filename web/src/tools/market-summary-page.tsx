import { Group, Paper, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import { IconArrowDownRight, IconArrowUpRight } from '@tabler/icons-react';
import type { InstrumentGroup } from '@tradeport/contracts';
import { useState } from 'react';
import { useMarketSummary } from '../api/queries';
import { formatPercent, formatPrice, signOf } from '../format/format';
import { useQuote } from '../stream/hooks';
import { EmptyState, ErrorState, PageHeader, TableSkeleton } from '../ui/page';

const GROUPS: InstrumentGroup[] = ['Forex', 'Crypto', 'Stocks', 'Metals'];

type Row = NonNullable<ReturnType<typeof useMarketSummary>['data']>['data'][number];

/** One row: the last price follows the live stream; the day's change is against the previous daily close. */
function SummaryRow({ row }: { row: Row }) {
  const live = useQuote(row.symbol)?.quote;
  const last = live?.bid ?? row.bid;
  const change = last !== null && row.prevClose !== null ? last - row.prevClose : row.change;
  const changePct = last !== null && row.prevClose ? ((last - row.prevClose) / row.prevClose) * 100 : row.changePct;
  const sign = signOf(change);
  const open = live?.open ?? row.open;
  const stale = live ? live.stale || live.bid === null : row.stale || row.bid === null;
  return (
    <Table.Tr>
      <Table.Td>
        <Text fw={600} size="sm">
          {row.symbol}
        </Text>
        <Text size="xs" c="dimmed" truncate maw={220}>
          {row.description}
        </Text>
      </Table.Td>
      <Table.Td className="tp-num" fw={600}>
        {formatPrice(last, row.digits)}
      </Table.Td>
      <Table.Td className={`tp-num ${sign > 0 ? 'tp-positive' : sign < 0 ? 'tp-negative' : ''}`}>
        <Group gap={2} justify="flex-end" wrap="nowrap">
          {sign > 0 ? <IconArrowUpRight size={14} aria-hidden /> : sign < 0 ? <IconArrowDownRight size={14} aria-hidden /> : null}
          {change === null ? '—' : formatPrice(change, row.digits)}
        </Group>
      </Table.Td>
      <Table.Td className={`tp-num ${sign > 0 ? 'tp-positive' : sign < 0 ? 'tp-negative' : ''}`} fw={600}>
        {changePct === null ? '—' : formatPercent(changePct, { sign: true })}
      </Table.Td>
      <Table.Td className="tp-num" visibleFrom="sm">
        {formatPrice(row.dayHigh, row.digits)}
      </Table.Td>
      <Table.Td className="tp-num" visibleFrom="sm">
        {formatPrice(row.dayLow, row.digits)}
      </Table.Td>
      <Table.Td visibleFrom="sm">
        <Text size="xs" c={!open ? 'dimmed' : stale ? 'var(--tp-negative)' : 'var(--tp-positive)'} fw={600}>
          {!open ? 'Closed' : stale ? 'No recent price' : 'Open'}
        </Text>
      </Table.Td>
    </Table.Tr>
  );
}

/** Tools: every instrument with its last price and daily change, from the broker's own prices. */
export function MarketSummaryPage() {
  const summary = useMarketSummary();
  const [group, setGroup] = useState<InstrumentGroup>('Forex');
  const rows = (summary.data?.data ?? []).filter((r) => r.group === group);
  return (
    <Stack gap="lg">
      <PageHeader title="Market Summary" description="Last prices and today’s change (against the previous daily close, UTC) of every instrument." />
      <Paper p="lg">
        <SegmentedControl aria-label="Instrument group" data={GROUPS} value={group} onChange={(v) => setGroup(v as InstrumentGroup)} mb="md" size="xs" />
        {summary.isPending ? (
          <TableSkeleton rows={10} />
        ) : summary.isError ? (
          <ErrorState error={summary.error} onRetry={() => void summary.refetch()} />
        ) : rows.length === 0 ? (
          <EmptyState message={`No ${group} instruments are offered.`} />
        ) : (
          <Table.ScrollContainer minWidth={360}>
            <Table fz="sm" aria-label="Market summary">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Symbol</Table.Th>
                  <Table.Th className="tp-num">Last</Table.Th>
                  <Table.Th className="tp-num">Change</Table.Th>
                  <Table.Th className="tp-num">Change %</Table.Th>
                  <Table.Th className="tp-num" visibleFrom="sm">
                    Day high
                  </Table.Th>
                  <Table.Th className="tp-num" visibleFrom="sm">
                    Day low
                  </Table.Th>
                  <Table.Th visibleFrom="sm">Market</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((r) => (
                  <SummaryRow key={r.symbol} row={r} />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Paper>
    </Stack>
  );
}
