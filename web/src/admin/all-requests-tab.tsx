import { Anchor, Group, Select, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { MoneyRequestKind } from '../api/admin/keys';
import { useMoneyRequests, type MoneyRequestRow } from '../api/admin/money-requests';
import { formatDateTime, formatUsd } from '../format/format';
import { RequestStatusBadge } from '../ui/status-badge';
import { AmountAndStatus, BusyMark, RecordItem, RecordList, RecordTable, usePhone } from './admin-parts';
import { ExportButton } from './export-button';
import { DateTimeText } from './list-page/cells';
import { datesProblem, DateRangeFields, useFilters } from './list-page/filters';
import { ListBody } from './list-page/list-body';
import { FilterGrid, ListCount, ListSummary } from './list-page/list-page';
import { TablePager } from './list-page/pagers';
import { useListQuery } from './list-page/paging';
import { nameOf, RequestCell, StackedCell, TEXT, TraderCell } from './request-parts';
import { NotesButton, useNotesDialog, type NotesTarget } from './request-notes';
import { TraderPicker } from './trader-picker';

/** A queue's All requests tab: every request of its kind, filtered and paged on the server, with Export CSV. */

/** Who decided, or that the trader cancelled it themselves. */
const decidedByText = (r: { status: string; decidedBy: string }) => (r.status === '3' ? 'Cancelled by the trader' : r.decidedBy ? `by ${r.decidedBy}` : '');

const STATUS_OPTIONS = [
  { value: 'all', label: 'All statuses' },
  { value: '0', label: 'Pending' },
  { value: '1', label: 'Approved' },
  { value: '2', label: 'Rejected' },
  { value: '3', label: 'Cancelled' },
];

type Status = 'all' | '0' | '1' | '2' | '3';

interface RowsProps {
  kind: MoneyRequestKind;
  rows: MoneyRequestRow[];
  dimmed: boolean;
  onNotes: (target: NotesTarget) => void;
}

function RequestCards({ kind, rows, dimmed, onNotes }: RowsProps) {
  const text = TEXT[kind];
  const isDeposit = kind === 'deposit';
  return (
    <RecordList label={`All ${text.noun} requests`} dimmed={dimmed}>
      {rows.map((r) => (
        <RecordItem
          key={r.id}
          title={
            <Anchor component={Link} to={`/dashboard/users/${r.traders_id}`} size="sm" fw={600} display="block" truncate="end">
              {nameOf(r)}
            </Anchor>
          }
          subtitle={r.email}
          aside={<AmountAndStatus amount={r.amount} status={r.status} />}
        >
          <Group gap={4} wrap="nowrap">
            <Text size="xs" c="dimmed" className="tp-figure" truncate="end">
              #{r.id} · Live {r.accountNumber} · {r.paymentAccount}
              {isDeposit && r.paymentGatewayName ? ` → ${r.paymentGatewayName}` : ''}
            </Text>
            <NotesButton target={{ id: r.id, kind, traderName: nameOf(r) }} count={r.notes} onOpen={onNotes} />
          </Group>
          <Text size="xs" c="dimmed" className="tp-figure">
            Requested {formatDateTime(r.timeStamp)}
          </Text>
          {r.decidedAt && (
            <Text size="xs" c="dimmed" truncate="end">
              {r.status === '3' ? 'Cancelled' : 'Decided'} <span className="tp-figure">{formatDateTime(r.decidedAt)}</span>
              {r.status === '3' ? ' by the trader' : r.decidedBy ? ` by ${r.decidedBy}` : ''}
            </Text>
          )}
          {r.rejectReason && (
            <Text size="xs" style={{ overflowWrap: 'anywhere' }}>
              Reason: {r.rejectReason}
            </Text>
          )}
        </RecordItem>
      ))}
    </RecordList>
  );
}

function RequestTable({ kind, rows, dimmed, onNotes }: RowsProps) {
  const text = TEXT[kind];
  const isDeposit = kind === 'deposit';
  return (
    <RecordTable
      label={`All ${text.noun} requests`}
      minWidth={isDeposit ? 1120 : 960}
      spacing={8}
      dimmed={dimmed}
      scrollRegion
      head={
        <>
          <Table.Th>Request</Table.Th>
          <Table.Th>Trader</Table.Th>
          <Table.Th>{text.accountHeader}</Table.Th>
          {isDeposit && <Table.Th>Paid to</Table.Th>}
          <Table.Th className="tp-num">Amount (USD)</Table.Th>
          <Table.Th>Status</Table.Th>
          <Table.Th>Requested</Table.Th>
          <Table.Th>Decided</Table.Th>
          <Table.Th>Notes</Table.Th>
        </>
      }
    >
      {rows.map((r) => (
        <Table.Tr key={r.id}>
          <RequestCell id={r.id} account={r.accountNumber} />
          <TraderCell name={nameOf(r)} email={r.email} id={r.traders_id} />
          {/* An IBAN or a wallet address wraps (at its spaces first), so Notes stays on screen at 1440 px. */}
          <Table.Td>
            <Text className="tp-figure" size="sm" maw={180} style={{ whiteSpace: 'normal', overflowWrap: 'anywhere' }}>
              {r.paymentAccount}
            </Text>
          </Table.Td>
          {isDeposit && <StackedCell main={r.paymentGatewayName || '—'} detail={r.number} maw={220} />}
          <Table.Td className="tp-num" fw={650}>
            {formatUsd(r.amount)}
          </Table.Td>
          <Table.Td miw={150} maw={240}>
            <RequestStatusBadge status={r.status} />
            {r.rejectReason && (
              <Text size="xs" c="dimmed" lineClamp={2} title={r.rejectReason} mt={2} style={{ overflowWrap: 'anywhere' }}>
                {r.rejectReason}
              </Text>
            )}
          </Table.Td>
          <Table.Td>
            <DateTimeText value={r.timeStamp} />
          </Table.Td>
          <Table.Td maw={220}>
            {r.decidedAt ? (
              <>
                <DateTimeText value={r.decidedAt} />
                {decidedByText(r) && (
                  <Text size="xs" c="dimmed" truncate="end" title={decidedByText(r)}>
                    {decidedByText(r)}
                  </Text>
                )}
              </>
            ) : (
              <Text size="sm" c="dimmed">
                —
              </Text>
            )}
          </Table.Td>
          <Table.Td>
            <NotesButton target={{ id: r.id, kind, traderName: nameOf(r) }} count={r.notes} onOpen={onNotes} />
          </Table.Td>
        </Table.Tr>
      ))}
    </RecordTable>
  );
}

export function AllRequestsTab({ kind }: { kind: MoneyRequestKind }) {
  const text = TEXT[kind];
  const phone = usePhone();
  const filters = useFilters({ search: '', status: 'all' as Status, traderId: null as string | null, from: '', to: '' });
  const { search, status, traderId, from, to } = filters.values;
  const [debouncedSearch] = useDebouncedValue(search.trim(), 300);
  const problem = datesProblem(from, to);
  // What the server is asked for (and exports): any change starts again from the first page.
  const asked = { type: kind, status: status === 'all' ? undefined : status, traderId: traderId ? Number(traderId) : undefined, search: debouncedSearch || undefined, from: from || undefined, to: to || undefined };
  const list = useListQuery(useMoneyRequests, asked, problem === null);
  const requests = list.query;
  const notes = useNotesDialog();
  const rows = { kind, rows: requests.data?.data ?? [], dimmed: requests.isPlaceholderData, onNotes: notes.open };

  return (
    <>
      {/* Two to a row on a phone too (search alone), so the list starts on the first screen. */}
      <FilterGrid columns={5}>
        <TextInput
          style={phone ? { gridColumn: '1 / -1' } : undefined}
          label="Search"
          placeholder="Trader name, email or account"
          value={search}
          onChange={(e) => filters.set('search')(e.currentTarget.value)}
          leftSection={<IconSearch size={16} aria-hidden />}
          rightSection={requests.isFetching && !requests.isPending ? <BusyMark label="Loading" /> : null}
          maxLength={100}
        />
        <Select label="Status" data={STATUS_OPTIONS} value={status} onChange={(v) => filters.set('status')((v as Status | null) ?? 'all')} allowDeselect={false} />
        <TraderPicker value={traderId} onChange={filters.set('traderId')} />
        <DateRangeFields from={from} to={to} onFrom={filters.set('from')} onTo={filters.set('to')} />
      </FilterGrid>
      <ListSummary actions={<ExportButton call="exportMoneyRequests" input={asked} disabled={problem !== null || requests.data?.total === 0} what={`${text.noun} request`} />}>
        <ListCount>{requests.data && problem === null ? `${list.total} ${list.total === 1 ? 'request' : 'requests'}` : ''}</ListCount>
      </ListSummary>
      <ListBody
        query={requests}
        count={rows.rows.length}
        problem={problem}
        skeleton={{ rows: list.pageSize }}
        errorTitle={`Could not load the ${text.noun} requests`}
        empty={`No ${text.noun} requests yet.`}
        filters={filters}
        emptyFiltered="No requests match these filters."
        cards={() => <RequestCards {...rows} />}
        table={() => <RequestTable {...rows} />}
        pager={<TablePager {...list.pager} label={`All ${text.noun} requests`} />}
      />
      {notes.dialog}
    </>
  );
}
