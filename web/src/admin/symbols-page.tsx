import { Badge, Button, Group, Modal, SegmentedControl, Table, Text, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPencil } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useCatalogue, type CatalogueRow } from '../api/admin/catalogue';
import { formatDecimal } from '../format/format';
import { badgeStyles, RecordItem, RecordList, RecordTable, SearchField, usePhone } from './admin-parts';
import { InstrumentEditor } from './instrument-editor';
import { GROUPS, heldText, modeLabel, type Mode } from './instrument-draft';
import { useFilters } from './list-page/filters';
import { ListBody } from './list-page/list-body';
import { ListCount, ListPage, ListSummary } from './list-page/list-page';
import { useRowDialog } from './list-page/row-action';

/**
 * Symbols (docs/design.md#instruments): the instrument catalogue as the back office edits it. Every
 * instrument, disabled ones too, with its digits, contract size, volumes, markup, swaps and trading
 * mode, and what traders hold in it; found by group and by a search, and edited in a dialog.
 */

/** The trading mode's mark: its word always, the dot's colour only repeating it. */
const MODE_COLORS: Record<Mode, string> = { full: 'teal', 'close-only': 'orange', disabled: 'gray' };
/** Never cut to 'Clo…' when the table is short of room: the description gives way instead. */
const modeBadgeStyles = { ...badgeStyles, label: { overflow: 'visible' } } as const;
function ModeBadge({ mode }: { mode: Mode }) {
  return (
    <Badge variant="dot" color={MODE_COLORS[mode]} size="md" styles={modeBadgeStyles} data-testid="trading-mode">
      {modeLabel(mode)}
    </Badge>
  );
}

/** How many decimals a catalogue figure is written with (0.01 → 2, 100 → 0). */
const decimalsOf = (v: number) => (Number.isInteger(v) ? 0 : (String(v).split('.')[1]?.length ?? 2));
/** A catalogue figure as written, thousands grouped: 100000 → '100,000', 0.01 → '0.01'. */
const figure = (v: number) => formatDecimal(v, decimalsOf(v));
/** Swap points, signed, at least 2 decimals so the column lines up: '-7.20', '+2.10', '0.00'. */
const swap = (v: number) => `${v > 0 ? '+' : ''}${formatDecimal(v, Math.max(2, decimalsOf(v)))}`;
const volumes = (r: CatalogueRow) => `${figure(r.volumeMin)} / ${figure(r.volumeStep)} / ${figure(r.volumeMax)}`;

/** '2 / 1': open positions / pending orders, dimmed when nothing is held. */
function Held({ row }: { row: CatalogueRow }) {
  const none = row.openPositions === 0 && row.pendingOrders === 0;
  return (
    <Text span size="sm" className="tp-figure" c={none ? 'dimmed' : undefined} fw={none ? undefined : 600} title={`${row.openPositions} open positions, ${row.pendingOrders} pending orders`}>
      {row.openPositions} / {row.pendingOrders}
    </Text>
  );
}

/** A row's Edit; the pencil only where there is room for it (a phone's card). */
function EditButton({ row, onEdit, icon = false }: { row: CatalogueRow; onEdit: (row: CatalogueRow) => void; icon?: boolean }) {
  return (
    <Button variant="subtle" size="compact-sm" leftSection={icon ? <IconPencil size={14} aria-hidden /> : undefined} onClick={() => onEdit(row)} aria-label={`Edit ${row.symbol}`}>
      Edit
    </Button>
  );
}

function SymbolCards({ rows, onEdit }: { rows: CatalogueRow[]; onEdit: (row: CatalogueRow) => void }) {
  return (
    <RecordList label="Instruments">
      {rows.map((r) => (
        <RecordItem
          key={r.symbol}
          testId={`symbol-row-${r.symbol}`}
          title={
            <Group gap={8} wrap="nowrap">
              <Text size="sm" fw={700}>
                {r.symbol}
              </Text>
              <ModeBadge mode={r.tradingMode} />
            </Group>
          }
          subtitle={`${r.group} · ${r.description}`}
          aside={<EditButton row={r} onEdit={onEdit} icon />}
        >
          <Text size="xs" c="dimmed" className="tp-figure">
            {r.digits} digits · contract {figure(r.contractSize)} · lots {volumes(r)}
          </Text>
          <Text size="xs" c="dimmed" className="tp-figure">
            Markup {figure(r.spreadMarkup)} points · swaps {swap(r.swapLong)} / {swap(r.swapShort)}
          </Text>
          {heldText(r) && (
            <Text size="xs" fw={600} data-testid="held">
              Held: {heldText(r)}
            </Text>
          )}
        </RecordItem>
      ))}
    </RecordList>
  );
}

/** A column's header, its unit on a second line under it; headers line up at the bottom. */
function Th({ label, unit, numeric }: { label: string; unit?: string; numeric?: boolean }) {
  return (
    <Table.Th className={numeric ? 'tp-num' : undefined} style={{ verticalAlign: 'bottom' }}>
      {label}
      {unit && (
        <Text size="xs" c="dimmed" fw={400}>
          {unit}
        </Text>
      )}
    </Table.Th>
  );
}

function SymbolTable({ rows, onEdit }: { rows: CatalogueRow[]; onEdit: (row: CatalogueRow) => void }) {
  return (
    <RecordTable
      label="Instruments"
      minWidth={1040}
      spacing={8}
      // Twelve columns in the 1,080 px a 1440 px screen leaves the card: 6 px a side, so none scrolls away.
      horizontalSpacing={6}
      scrollRegion
      head={
        <>
          <Th label="Symbol" />
          <Th label="Description" />
          <Th label="Group" />
          <Th label="Digits" numeric />
          <Th label="Contract size" unit="units per lot" numeric />
          <Th label="Volume" unit="lots: min / step / max" numeric />
          <Th label="Markup" unit="points" numeric />
          <Th label="Swap long" unit="points" numeric />
          <Th label="Swap short" unit="points" numeric />
          <Th label="Trading" />
          <Th label="Held" unit="pos. / orders" numeric />
          <Table.Th style={{ verticalAlign: 'bottom' }}>
            <VisuallyHidden>Actions</VisuallyHidden>
          </Table.Th>
        </>
      }
    >
      {rows.map((r) => (
        <Table.Tr key={r.symbol} data-testid={`symbol-row-${r.symbol}`}>
          <Table.Td fw={700} className="tp-figure">
            {r.symbol}
          </Table.Td>
          <Table.Td maw={180}>
            <Text size="sm" truncate="end" title={r.description}>
              {r.description}
            </Text>
          </Table.Td>
          <Table.Td>{r.group}</Table.Td>
          <Table.Td className="tp-num">{r.digits}</Table.Td>
          <Table.Td className="tp-num">{figure(r.contractSize)}</Table.Td>
          <Table.Td className="tp-num" data-testid="volumes">
            {volumes(r)}
          </Table.Td>
          <Table.Td className="tp-num" data-testid="markup" c={r.spreadMarkup === 0 ? 'dimmed' : undefined}>
            {figure(r.spreadMarkup)}
          </Table.Td>
          <Table.Td className="tp-num" data-testid="swap-long">
            {swap(r.swapLong)}
          </Table.Td>
          <Table.Td className="tp-num" data-testid="swap-short">
            {swap(r.swapShort)}
          </Table.Td>
          <Table.Td>
            <ModeBadge mode={r.tradingMode} />
          </Table.Td>
          <Table.Td className="tp-num" data-testid="held">
            <Held row={r} />
          </Table.Td>
          <Table.Td ta="right">
            <EditButton row={r} onEdit={onEdit} />
          </Table.Td>
        </Table.Tr>
      ))}
    </RecordTable>
  );
}

type GroupChoice = (typeof GROUPS)[number] | 'All';

/** Whether an instrument matches a search: its symbol, description or currencies contain it. */
const matches = (r: CatalogueRow, search: string) => !search || [r.symbol, r.description, r.base, r.quote].some((s) => s.toLowerCase().includes(search));

/** Symbols: every instrument of the catalogue, by group and searchable, each edited in a dialog. */
export function SymbolsPage() {
  const catalogue = useCatalogue();
  const phone = usePhone();
  const editing = useRowDialog<CatalogueRow>();
  const filters = useFilters({ search: '', group: 'All' as GroupChoice });
  const { search, group } = filters.values;
  const [needle] = useDebouncedValue(search.trim().toLowerCase(), 150);
  const all = useMemo(() => catalogue.data?.data ?? [], [catalogue.data]);
  const rows = useMemo(() => all.filter((r) => (group === 'All' || r.group === group) && matches(r, needle)), [all, group, needle]);
  const counts = useMemo(() => new Map(GROUPS.map((g) => [g, all.filter((r) => r.group === g).length])), [all]);
  // The row the dialog edits, as the catalogue has it now (a save elsewhere shows in an open editor's counts).
  const edited = editing.row ? (all.find((r) => r.symbol === editing.row!.symbol) ?? editing.row) : null;
  const noun = (n: number) => `${n} ${n === 1 ? 'instrument' : 'instruments'}`;

  return (
    <ListPage
      title="Symbols"
      description="Every instrument of the catalogue: its digits, contract size, volumes, sessions and holidays, markup, swaps and trading mode. A change reaches every trader within a second."
      dialogs={
        <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened={editing.opened} onClose={editing.close} title={edited ? `Edit ${edited.symbol}` : ''} centered size="lg">
          {edited && <InstrumentEditor key={edited.symbol} row={edited} onDone={editing.close} />}
        </Modal>
      }
    >
      <Group justify="space-between" align="flex-end" gap="sm" mb="md">
        <SearchField label="Search instruments" placeholder="Symbol, description or currency" value={search} onChange={filters.set('search')} />
        <SegmentedControl
          aria-label="Group"
          value={group}
          onChange={(v) => filters.set('group')(v as GroupChoice)}
          // A phone's row has room for the names only; a wider screen adds how many each group has.
          data={[{ value: 'All', label: 'All' }, ...GROUPS.map((g) => ({ value: g, label: catalogue.data && !phone ? `${g} ${counts.get(g) ?? 0}` : g }))]}
          size={phone ? 'xs' : 'sm'}
          fullWidth={phone}
          w={phone ? '100%' : undefined}
          data-testid="group-filter"
        />
      </Group>
      <ListSummary>
        {catalogue.data && <ListCount>{rows.length === all.length ? noun(all.length) : `${rows.length} of ${noun(all.length)}`}</ListCount>}
      </ListSummary>
      <ListBody
        query={catalogue}
        count={rows.length}
        skeleton={{ rows: 10, height: 36 }}
        errorTitle="Could not load the instruments"
        empty="The catalogue has no instruments yet: they are added from the catalogue file when the server starts."
        filters={filters}
        emptyFiltered={needle ? `No instrument matches “${search.trim()}”${group === 'All' ? '' : ` in ${group}`}.` : `No ${group} instruments.`}
        cards={() => <SymbolCards rows={rows} onEdit={editing.open} />}
        table={() => <SymbolTable rows={rows} onEdit={editing.open} />}
      />
    </ListPage>
  );
}
