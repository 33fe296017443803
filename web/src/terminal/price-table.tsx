import { Badge, Center, Group, Loader, NativeSelect, Pagination, Select, Table, Text, TextInput, Tooltip } from '@mantine/core';
import { IconAlertCircle, IconCaretDownFilled, IconCaretUpFilled, IconClockPause, IconLock, IconSearch } from '@tabler/icons-react';
import type { InstrumentGroup, SymbolRecord } from '@tradeport/contracts';
import { memo, useCallback, useEffect, useMemo, useState } from 'react';
import { useSymbols } from '../api/queries';
import { formatPrice } from '../format/format';
import { useAppStore } from '../state/app-store';
import { listedSymbols, PAGE_SIZE, PAGE_SIZE_MOBILE, pageOf } from './price-pages';
import { useDelayed, useQuote } from '../stream/hooks';
import { ErrorState } from '../ui/page';
import classes from './price-table.module.css';

export const SYMBOL_TYPES: InstrumentGroup[] = ['Forex', 'Crypto', 'Stocks', 'Metals'];

/** Prefix match on the symbol or its description's words, case-insensitive. */
function Price({ value, digits, direction }: { value: number; digits: number; direction: 'up' | 'down' | 'none' }) {
  return <span className={direction === 'up' ? 'tp-up' : direction === 'down' ? 'tp-down' : undefined}>{formatPrice(value, digits)}</span>;
}

/** One row; it alone re-renders when its symbol ticks. */
const PriceRow = memo(function PriceRow({ record, selected, onSelect, onOpen }: { record: SymbolRecord; selected: boolean; onSelect: (symbol: string) => void; onOpen?: (symbol: string) => void }) {
  const entry = useQuote(record.Symbol);
  const q = entry?.quote;
  const unavailable = !q || q.bid === null || q.ask === null || q.stale;
  const direction = entry?.bidDirection ?? 'none';
  return (
    <Table.Tr
      className={classes.row}
      data-selected={selected || undefined}
      aria-selected={selected}
      tabIndex={0}
      onClick={() => onSelect(record.Symbol)}
      onDoubleClick={onOpen && (() => onOpen(record.Symbol))}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          onSelect(record.Symbol);
          // Enter is the keyboard's double-click: it opens the new-order dialog.
          if (e.key === 'Enter') onOpen?.(record.Symbol);
        }
      }}
      data-testid={`price-row-${record.Symbol}`}
      data-state={!entry ? 'loading' : unavailable ? 'error' : q.open ? 'open' : 'closed'}
    >
      <Table.Td className={classes.arrow} aria-hidden>
        {!unavailable && direction === 'up' && <IconCaretUpFilled size={14} color="var(--tp-positive)" />}
        {!unavailable && direction === 'down' && <IconCaretDownFilled size={14} color="var(--tp-negative)" />}
      </Table.Td>
      <Table.Td>
        <Text fw={600} size="sm" lh={1.2}>
          {record.Symbol}
        </Text>
      </Table.Td>
      {!entry ? (
        <Table.Td colSpan={2} className="tp-num">
          <span role="status" aria-label={`Loading ${record.Symbol}`}>
            <Loader size={12} />
          </span>
        </Table.Td>
      ) : unavailable ? (
        <>
          <Table.Td className="tp-num tp-muted" data-testid="bid">
            <Group gap={4} justify="flex-end" wrap="nowrap">
              <IconAlertCircle size={14} color="var(--tp-muted)" aria-hidden /> Error
            </Group>
          </Table.Td>
          <Table.Td className="tp-num tp-muted" data-testid="ask">
            <Group gap={4} justify="flex-end" wrap="nowrap">
              <IconAlertCircle size={14} color="var(--tp-muted)" aria-hidden /> Error
            </Group>
          </Table.Td>
        </>
      ) : (
        <>
          <Table.Td className="tp-num" data-testid="bid" data-direction={entry.bidDirection}>
            <Price value={q.bid as number} digits={record.digits} direction={entry.bidDirection} />
          </Table.Td>
          <Table.Td className="tp-num" data-testid="ask" data-direction={entry.askDirection}>
            {!q.open && (
              <Tooltip label="Market closed">
                <IconLock size={12} color="var(--tp-muted)" style={{ marginRight: 4, verticalAlign: -1 }} aria-label="Market closed" />
              </Tooltip>
            )}
            <Price value={q.ask as number} digits={record.digits} direction={entry.askDirection} />
          </Table.Td>
        </>
      )}
    </Table.Tr>
  );
});

/**
 * The terminal's price table (spec: Symbol List): search, the group dropdown, pages of 10 (15 on
 * the phone), live bid/ask coloured by direction, 'Error' for a stale or missing quote. On the
 * desktop a double-click (or Enter) opens the new-order dialog; on the phone a tap selects the row
 * and calls `onPick` (the phone opens the row's sheet).
 */
export function PriceTable({ phone = false, onPick }: { phone?: boolean; onPick?: (symbol: string) => void } = {}) {
  const symbols = useSymbols();
  const symbolType = useAppStore((s) => s.symbolType);
  const setSymbolType = useAppStore((s) => s.setSymbolType);
  const selected = useAppStore((s) => s.selectedSymbol);
  const select = useAppStore((s) => s.selectSymbol);
  const openOrderTicket = useAppStore((s) => s.openOrderTicket);
  const delayed = useDelayed();
  const pageSize = phone ? PAGE_SIZE_MOBILE : PAGE_SIZE;
  const control = phone ? 'lg' : 'xs';
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);

  const filtered = useMemo(() => listedSymbols(symbols.data?.data ?? [], symbolType, keyword), [symbols.data, symbolType, keyword]);
  const pages = Math.max(1, Math.ceil(filtered.length / pageSize));
  const current = Math.min(page, pages);
  const rows = pageOf(filtered, current, pageSize);

  // On a desktop, double-clicking a row opens the new-order dialog (spec: Symbol list).
  const openTicket = useCallback((symbol: string) => openOrderTicket({ symbol }), [openOrderTicket]);
  const pick = useCallback(
    (symbol: string) => {
      select(symbol);
      onPick?.(symbol);
    },
    [select, onPick],
  );

  // The first row becomes selected when none is (spec section 4).
  useEffect(() => {
    if (!selected && filtered[0]) select(filtered[0].Symbol);
  }, [selected, filtered, select]);

  return (
    <div className={classes.panel} data-variant={phone ? 'phone' : undefined}>
      <Group gap="xs" wrap="nowrap" p="xs" className={classes.toolbar}>
        <TextInput
          aria-label="Keyword Search"
          placeholder="Keyword Search"
          leftSection={<IconSearch size={14} />}
          value={keyword}
          onChange={(e) => {
            setKeyword(e.currentTarget.value);
            setPage(1);
          }}
          size={control}
          style={{ flex: 1, minWidth: 0 }}
        />
        {phone ? (
          // A phone gets the system's own picker: easier to use with a thumb, and no floating
          // dropdown mounted and positioned as the terminal first renders (measured: most of the
          // phone terminal's longest task under a 4x CPU slowdown).
          <NativeSelect
            aria-label="Symbol type"
            data={SYMBOL_TYPES}
            value={symbolType}
            onChange={(e) => {
              setSymbolType(e.currentTarget.value as InstrumentGroup);
              setPage(1);
            }}
            size={control}
            w={124}
          />
        ) : (
          <Select
            aria-label="Symbol type"
            data={SYMBOL_TYPES}
            value={symbolType}
            onChange={(v) => {
              if (!v) return;
              setSymbolType(v as InstrumentGroup);
              setPage(1);
            }}
            allowDeselect={false}
            size={control}
            w={112}
          />
        )}
        {delayed && (
          <Tooltip label="The live connection is down: prices are polled every second until it is back.">
            <Badge color="orange" c="var(--tp-warning)" variant="light" size="sm" leftSection={<IconClockPause size={12} />} styles={{ root: { textTransform: 'none', flex: 'none' } }} data-testid="prices-delayed" tabIndex={0}>
              Delayed
            </Badge>
          </Tooltip>
        )}
      </Group>
      <div className={classes.body} data-delayed={delayed || undefined}>
        {symbols.isPending ? (
          <Center h={200}>
            <span role="status" aria-label="Loading symbols">
              <Loader size="sm" />
            </span>
          </Center>
        ) : symbols.isError ? (
          <ErrorState error={symbols.error} onRetry={() => void symbols.refetch()} title="Could not load the symbols" />
        ) : rows.length === 0 ? (
          <Center h={120}>
            <Text c="dimmed" size="sm">
              No data found.
            </Text>
          </Center>
        ) : (
          <Table className={classes.table} aria-label="Prices" verticalSpacing={6} horizontalSpacing="xs" highlightOnHover={false}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={22} aria-label="Direction" />
                <Table.Th>Symbol</Table.Th>
                <Table.Th className="tp-num">Bid</Table.Th>
                <Table.Th className="tp-num">Ask</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r) => (
                <PriceRow key={r.Symbol} record={r} selected={r.Symbol === selected} onSelect={phone ? pick : select} onOpen={phone ? undefined : openTicket} />
              ))}
            </Table.Tbody>
          </Table>
        )}
      </div>
      {pages > 1 && (
        <Group justify="center" p="xs" className={classes.footer}>
          <Pagination total={pages} value={current} onChange={setPage} size={phone ? 'xl' : 'sm'} withEdges={false} getControlProps={(control) => ({ 'aria-label': control === 'previous' ? 'Previous page' : 'Next page' })} getItemProps={(p) => ({ 'aria-label': `Page ${p}` })} />
        </Group>
      )}
    </div>
  );
}
