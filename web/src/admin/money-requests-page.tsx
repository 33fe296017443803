import { ActionIcon, Alert, Anchor, Badge, Button, Group, Modal, Paper, Select, SimpleGrid, Stack, Table, Tabs, Text, TextInput, Tooltip } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconCheck, IconRefresh, IconSearch, IconX } from '@tabler/icons-react';
import { Fragment, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import {
  sumMoney,
  useDecideDeposit,
  useDecideWithdrawal,
  useMoneyRequests,
  usePendingDeposits,
  usePendingWithdrawals,
  type Decision,
  type DecisionInput,
  type MoneyRequestFilters,
  type MoneyRequestKind,
} from '../api/admin-queries';
import { errorMessage } from '../api/client';
import { formatDateTime, formatUsd } from '../format/format';
import { EmptyState, ErrorState, PageHeader, TableSkeleton } from '../ui/page';
import { RequestStatusBadge } from '../ui/status-badge';
import { toastError, toastSuccess } from '../ui/toast';
import { AmountAndStatus, BusyMark, LiveMark, negativeButton, positiveButton, RecordItem, RecordList, RecordTable, usePhone } from './admin-parts';
import { NotesButton, useNotesDialog, type NotesTarget } from './request-notes';
import { ExportButton } from './export-button';
import { TraderPicker } from './trader-picker';
import { useRiskByTrader, WithdrawalRiskFacts, WithdrawalRiskLine, WithdrawalRiskSummary } from './withdrawal-risk';
import { DateTimeText, TablePager, usePageSize, useRowDialog } from './users-page';

/** A pending request as both queues show it. */
interface PendingRow {
  id: number;
  traderId: number;
  traderName: string;
  traderEmail: string;
  /** The trader's own account: paid from (deposit) or to be paid to (withdrawal). */
  account: string;
  /** The broker's payment account a deposit was paid to; withdrawals have none. */
  paidTo: { name: string; number: string } | null;
  amount: string;
  time: string;
  /** How many internal notes it has. */
  notes: number;
}

const TEXT = {
  deposit: {
    title: 'User Deposit Requests',
    description: "Deposits traders say they have paid. Approving credits the amount to the trader's balance; rejecting leaves it unchanged.",
    noun: 'deposit',
    accountHeader: "Trader's account",
    approved: (id: number) => `Deposit request# ${id} approved successfully`,
    rejected: (id: number) => `Deposit ${id} request rejected successfully`,
    approveEffect: (amount: string, name: string) => `${amount} USD is credited to ${name}'s balance.`,
  },
  withdrawal: {
    title: 'User Withdraw Requests',
    description: "Withdrawals traders asked for. Approving debits the trader's balance once the funds are sent; the available balance is checked again first.",
    noun: 'withdrawal',
    accountHeader: 'Pay to',
    approved: (id: number) => `Withdrawal request# ${id} approved successfully`,
    rejected: (id: number) => `Withdrawal ${id} request rejected successfully`,
    approveEffect: (amount: string, name: string) => `${amount} USD is debited from ${name}'s balance. If their available funds no longer cover it, the server refuses and the request stays pending.`,
  },
} as const;

const nameOf = (r: { firstName: string; lastName: string }) => `${r.firstName} ${r.lastName}`.trim();

/** Two lines in one cell: the main text, and a dimmed detail under it; long text is cut with its full value as a title. */
function StackedCell({ main, detail, bold, maw = 240, to }: { main: string; detail?: string; bold?: boolean; maw?: number; to?: string }) {
  return (
    <Table.Td maw={maw}>
      {to ? (
        <Anchor component={Link} to={to} size="sm" fw={bold ? 600 : undefined} display="block" truncate="end" title={main}>
          {main}
        </Anchor>
      ) : (
        <Text size="sm" fw={bold ? 600 : undefined} truncate="end" title={main}>
          {main}
        </Text>
      )}
      {detail && (
        <Text size="xs" c="dimmed" truncate="end" title={detail} className="tp-figure">
          {detail}
        </Text>
      )}
    </Table.Td>
  );
}

function TraderCell({ name, email, id }: { name: string; email: string; id?: number }) {
  return <StackedCell main={name} detail={email} bold to={id ? `/dashboard/users/${id}` : undefined} />;
}

/** A pending queue, normalised for the shared table, with the call that decides one of its rows. */
interface Queue {
  rows: PendingRow[];
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  error: unknown;
  refetch: () => unknown;
  decide: (input: DecisionInput) => Promise<unknown>;
}

function useDepositQueue(): Queue {
  const query = usePendingDeposits();
  const decide = useDecideDeposit();
  const rows = useMemo(
    () =>
      (query.data?.data ?? []).map((r) => ({
        id: r.id,
        traderId: r.traders_id,
        traderName: nameOf(r),
        traderEmail: r.email,
        account: r.paymentAccount,
        paidTo: { name: r.paymentGatewayName || '—', number: r.number },
        amount: r.depositAmount,
        time: r.timeStamp,
        notes: r.notes,
      })),
    [query.data],
  );
  return { rows, isPending: query.isPending, isError: query.isError, isFetching: query.isFetching, error: query.error, refetch: query.refetch, decide: decide.mutateAsync };
}

function useWithdrawalQueue(): Queue {
  const query = usePendingWithdrawals();
  const decide = useDecideWithdrawal();
  const rows = useMemo(
    () => (query.data?.data ?? []).map((r) => ({ id: r.id, traderId: r.traders_id, traderName: nameOf(r), traderEmail: r.email, account: r.paymentAccount, paidTo: null, amount: r.withdrawalsAmount, time: r.timeStamp, notes: r.notes })),
    [query.data],
  );
  return { rows, isPending: query.isPending, isError: query.isError, isFetching: query.isFetching, error: query.error, refetch: query.refetch, decide: decide.mutateAsync };
}

function PendingTab({ kind, queue: query }: { kind: MoneyRequestKind; queue: Queue }) {
  const text = TEXT[kind];
  const { rows } = query;
  const pageSize = usePageSize();
  const phone = usePhone();
  const [page, setPage] = useState(1);
  const confirm = useRowDialog<{ row: PendingRow; decision: Decision }>();
  const notes = useNotesDialog();
  // Beside each pending withdrawal: its trader's live figures, so the approver sees the risk.
  const isWithdrawal = kind === 'withdrawal';
  const risk = useRiskByTrader(
    rows.map((r) => r.id),
    isWithdrawal && rows.length > 0,
  );
  // A rejection says why; the trader reads it.
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const openDecision = (row: PendingRow, decision: Decision) => {
    setReason('');
    setReasonError(null);
    confirm.open({ row, decision });
  };
  const pages = Math.max(1, Math.ceil(rows.length / pageSize));
  // Decided rows leave the queue; when the last row of the last page goes, show the page before.
  useEffect(() => {
    if (page > pages) setPage(pages);
  }, [page, pages]);
  const shown = rows.slice((page - 1) * pageSize, page * pageSize);

  const onConfirm = () => {
    const target = confirm.row;
    if (!target) return;
    const { row, decision } = target;
    const why = reason.trim();
    if (decision === 'reject' && why === '') {
      setReasonError('Please give the reason; the trader sees it.');
      return;
    }
    confirm.close();
    // mutateAsync, not mutate's callbacks: with several decisions in flight, each gets its own answer.
    query.decide({ id: row.id, decision, ...(decision === 'reject' ? { reason: why } : {}) }).then(
      () => toastSuccess(decision === 'approve' ? text.approved(row.id) : text.rejected(row.id)),
      (err: unknown) => toastError(errorMessage(err)),
    );
  };

  let body: ReactNode;
  if (query.isPending) body = <TableSkeleton rows={6} />;
  else if (query.isError) body = <ErrorState error={query.error} onRetry={() => void query.refetch()} title={`Could not load the pending ${text.noun} requests`} />;
  else if (rows.length === 0) body = <EmptyState message={`No pending ${text.noun} requests. New requests appear here on their own.`} />;
  else {
    const decisionButtons = (r: PendingRow) => (
      <Group gap={6} justify="flex-end" wrap="nowrap">
        <NotesButton target={notesTarget(kind, r)} count={r.notes} onOpen={notes.open} />
        <Button size="compact-sm" color="teal" variant="default" styles={positiveButton} leftSection={<IconCheck size={14} aria-hidden />} onClick={() => openDecision(r, 'approve')} aria-label={`Approve ${text.noun} request ${r.id}`}>
          Approve
        </Button>
        <Button size="compact-sm" color="red" variant="subtle" styles={negativeButton} leftSection={<IconX size={14} aria-hidden />} onClick={() => openDecision(r, 'reject')} aria-label={`Reject ${text.noun} request ${r.id}`}>
          Reject
        </Button>
      </Group>
    );
    body = (
      <>
        {phone ? (
          // A phone shows each request as an item with its decision in reach, not a wide table.
          <RecordList label={`Pending ${text.noun} requests`}>
            {shown.map((r) => (
              <RecordItem
                key={r.id}
                title={
                  <Anchor component={Link} to={`/dashboard/users/${r.traderId}`} size="sm" fw={600} display="block" truncate="end">
                    {r.traderName}
                  </Anchor>
                }
                subtitle={r.traderEmail}
                aside={
                  <Text size="sm" fw={700} className="tp-figure">
                    {formatUsd(r.amount)} USD
                  </Text>
                }
              >
                <Text size="xs" c="dimmed" className="tp-figure" truncate="end">
                  #{r.id} · {r.account}
                  {r.paidTo ? ` → ${r.paidTo.name}` : ''}
                </Text>
                {isWithdrawal && <WithdrawalRiskSummary risk={risk.byTrader.get(r.traderId)} amount={r.amount} loading={risk.isPending} failed={risk.isError} />}
                <Group justify="space-between" gap="xs" wrap="nowrap">
                  <div>
                    <DateTimeText value={r.time} />
                  </div>
                  {decisionButtons(r)}
                </Group>
              </RecordItem>
            ))}
          </RecordList>
        ) : (
          <RecordTable
            label={`Pending ${text.noun} requests`}
            minWidth={760}
            spacing={8}
            horizontalSpacing={8}
            head={
              <>
                <Table.Th>Request</Table.Th>
                <Table.Th>Trader</Table.Th>
                <Table.Th>{text.accountHeader}</Table.Th>
                <Table.Th className="tp-num">Amount (USD)</Table.Th>
                <Table.Th>Requested</Table.Th>
                <Table.Th className="tp-num">Decision</Table.Th>
              </>
            }
          >
            {shown.map((r) => (
              <Fragment key={r.id}>
                {/* A withdrawal's row goes on in a line of its own under it: its trader's account now. */}
                <Table.Tr style={isWithdrawal ? { borderBottom: 0 } : undefined}>
                  <Table.Td className="tp-figure" c="dimmed">
                    #{r.id}
                  </Table.Td>
                  <TraderCell name={r.traderName} email={r.traderEmail} id={r.traderId} />
                  {/* A deposit's account, and under it the broker's account it was paid to. */}
                  <StackedCell main={r.account} detail={r.paidTo ? `to ${r.paidTo.name} · ${r.paidTo.number}` : undefined} maw={300} />
                  <Table.Td className="tp-num" fw={650}>
                    {formatUsd(r.amount)}
                  </Table.Td>
                  <Table.Td>
                    <DateTimeText value={r.time} />
                  </Table.Td>
                  <Table.Td>{decisionButtons(r)}</Table.Td>
                </Table.Tr>
                {isWithdrawal && (
                  <Table.Tr>
                    <Table.Td pt={0} />
                    <Table.Td colSpan={5} pt={0}>
                      <WithdrawalRiskLine risk={risk.byTrader.get(r.traderId)} amount={r.amount} loading={risk.isPending} failed={risk.isError} />
                    </Table.Td>
                  </Table.Tr>
                )}
              </Fragment>
            ))}
          </RecordTable>
        )}
        <TablePager page={Math.min(page, pages)} pageSize={pageSize} total={rows.length} onChange={setPage} label={`Pending ${text.noun} requests`} />
      </>
    );
  }

  const target = confirm.row;
  const approving = target?.decision === 'approve';
  // The feed took the row out while its dialog was open: someone else decided it.
  const goneElsewhere = confirm.opened && target !== null && !query.isPending && !rows.some((r) => r.id === target.row.id);
  return (
    <>
      <Group justify="space-between" mb="md" gap="sm">
        <Text size="sm" c="dimmed" className="tp-figure" aria-live="polite">
          {!query.isPending && !query.isError ? `${rows.length} pending · ${formatUsd(sumMoney(rows.map((r) => r.amount)))} USD` : '\u00a0'}
        </Text>
        <Group gap="xs">
          <LiveMark />
          <Tooltip label="Refresh now">
            <ActionIcon variant="subtle" color="gray" onClick={() => void query.refetch()} aria-label={`Refresh pending ${text.noun} requests`} loading={query.isFetching && !query.isPending}>
              <IconRefresh size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>
      {body}
      <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened={confirm.opened} onClose={confirm.close} title={target ? `${approving ? 'Approve' : 'Reject'} ${text.noun} request #${target.row.id}?` : ''} centered>
        {target && (
          <Stack gap="md">
            <SimpleGrid cols={2} spacing={4} verticalSpacing={4}>
              <Text size="sm" c="dimmed">
                Trader
              </Text>
              <Text size="sm" fw={600}>
                {target.row.traderName}
              </Text>
              <Text size="sm" c="dimmed">
                Amount
              </Text>
              <Text size="sm" fw={600} className="tp-figure">
                {formatUsd(target.row.amount)} USD
              </Text>
              <Text size="sm" c="dimmed">
                {text.accountHeader}
              </Text>
              <Text size="sm" className="tp-figure" style={{ whiteSpace: 'normal', overflowWrap: 'anywhere' }}>
                {target.row.account}
              </Text>
            </SimpleGrid>
            {goneElsewhere && (
              <Alert color="yellow" variant="light" role="alert" title="No longer pending" styles={{ title: { color: 'var(--mantine-color-text)' } }}>
                Another administrator has just decided this request, or the trader cancelled it, so it has left the queue.
              </Alert>
            )}
            {!goneElsewhere && approving && isWithdrawal && <WithdrawalRiskFacts risk={risk.byTrader.get(target.row.traderId)} amount={target.row.amount} />}
            {!goneElsewhere && !approving && (
              <TextInput
                label="Reason"
                description="Shown to the trader with the rejection."
                placeholder="e.g. The account name does not match yours."
                value={reason}
                onChange={(e) => {
                  setReason(e.currentTarget.value);
                  setReasonError(null);
                }}
                error={reasonError}
                maxLength={200}
                data-autofocus
              />
            )}
            {!goneElsewhere && (
              <Text size="sm">{approving ? text.approveEffect(formatUsd(target.row.amount), target.row.traderName) : `The request is marked as rejected and ${target.row.traderName}'s balance is unchanged.`} The trader is notified, and the decision cannot be undone.</Text>
            )}
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={confirm.close}>
                Cancel
              </Button>
              <Button color={approving ? 'teal.9' : 'red.9'} onClick={onConfirm} disabled={goneElsewhere} data-autofocus={approving || undefined}>
                {approving ? 'Approve' : 'Reject'}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
      {notes.dialog}
    </>
  );
}

const notesTarget = (kind: MoneyRequestKind, r: { id: number; traderName: string }): NotesTarget => ({ id: r.id, kind, traderName: r.traderName });

/** Who decided, or that the trader cancelled it themselves. */
const decidedByText = (r: { status: string; decidedBy: string }) => (r.status === '3' ? 'Cancelled by the trader' : r.decidedBy ? `by ${r.decidedBy}` : '');

const STATUS_OPTIONS = [
  { value: 'all', label: 'All statuses' },
  { value: '0', label: 'Pending' },
  { value: '1', label: 'Approved' },
  { value: '2', label: 'Rejected' },
  { value: '3', label: 'Cancelled' },
];

function AllRequestsTab({ kind }: { kind: MoneyRequestKind }) {
  const text = TEXT[kind];
  const isDeposit = kind === 'deposit';
  const phone = usePhone();
  const pageSize = usePageSize();
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search.trim(), 300);
  const [status, setStatus] = useState<'all' | '0' | '1' | '2' | '3'>('all');
  const [traderId, setTraderId] = useState<string | null>(null);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const datesWrong = from !== '' && to !== '' && from > to;
  // Any change of filter starts again from the first page (kept with the filters it belongs to,
  // so the first fetch after a change already asks for page 1).
  const filterKey = JSON.stringify([debouncedSearch, status, traderId, from, to, pageSize]);
  const [paging, setPaging] = useState({ filterKey, page: 1 });
  const page = paging.filterKey === filterKey ? paging.page : 1;
  const setPage = (next: number) => setPaging({ filterKey, page: next });

  const filters: MoneyRequestFilters = {
    type: kind,
    status: status === 'all' ? undefined : status,
    traderId: traderId ? Number(traderId) : undefined,
    search: debouncedSearch || undefined,
    from: from || undefined,
    to: to || undefined,
    limit: pageSize,
    offset: (page - 1) * pageSize,
  };
  const requests = useMoneyRequests(filters, !datesWrong);
  const notes = useNotesDialog();
  const filtered = status !== 'all' || traderId !== null || search !== '' || from !== '' || to !== '';
  const clear = () => {
    setSearch('');
    setStatus('all');
    setTraderId(null);
    setFrom('');
    setTo('');
  };

  const rows = requests.data?.data ?? [];
  let body: ReactNode;
  if (datesWrong) body = <EmptyState message="Choose a 'From' date on or before the 'To' date." />;
  else if (requests.isPending) body = <TableSkeleton rows={pageSize} />;
  else if (requests.isError) body = <ErrorState error={requests.error} onRetry={() => void requests.refetch()} title={`Could not load the ${text.noun} requests`} />;
  else if (rows.length === 0) {
    body = (
      <EmptyState
        message={filtered ? 'No requests match these filters.' : `No ${text.noun} requests yet.`}
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
        <RecordList label={`All ${text.noun} requests`} dimmed={requests.isPlaceholderData}>
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
                  #{r.id} · {r.paymentAccount}
                  {isDeposit && r.paymentGatewayName ? ` → ${r.paymentGatewayName}` : ''}
                </Text>
                <NotesButton target={{ id: r.id, kind, traderName: nameOf(r) }} count={r.notes} onOpen={notes.open} />
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
        <TablePager page={page} pageSize={pageSize} total={requests.data?.total ?? 0} onChange={setPage} label={`All ${text.noun} requests`} />
      </>
    );
  } else {
    body = (
      <>
        <RecordTable
          label={`All ${text.noun} requests`}
          minWidth={isDeposit ? 1120 : 960}
          spacing={8}
          dimmed={requests.isPlaceholderData}
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
              <Table.Td className="tp-figure" c="dimmed">
                #{r.id}
              </Table.Td>
              <TraderCell name={nameOf(r)} email={r.email} id={r.traders_id} />
              <Table.Td className="tp-figure">{r.paymentAccount}</Table.Td>
              {isDeposit && <StackedCell main={r.paymentGatewayName || '—'} detail={r.number} maw={220} />}
              <Table.Td className="tp-num" fw={650}>
                {formatUsd(r.amount)}
              </Table.Td>
              <Table.Td miw={120} maw={240}>
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
                <NotesButton target={{ id: r.id, kind, traderName: nameOf(r) }} count={r.notes} onOpen={notes.open} />
              </Table.Td>
            </Table.Tr>
          ))}
        </RecordTable>
        <TablePager page={page} pageSize={pageSize} total={requests.data?.total ?? 0} onChange={setPage} label={`All ${text.noun} requests`} />
      </>
    );
  }

  return (
    <>
      {/* Two to a row on a phone too (search alone), so the list starts on the first screen. */}
      <SimpleGrid cols={{ base: 2, md: 5 }} spacing="sm" mb="md">
        <TextInput
          style={phone ? { gridColumn: '1 / -1' } : undefined}
          label="Search"
          placeholder="Trader name, email or account"
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          leftSection={<IconSearch size={16} aria-hidden />}
          rightSection={requests.isFetching && !requests.isPending ? <BusyMark label="Loading" /> : null}
          maxLength={100}
        />
        <Select label="Status" data={STATUS_OPTIONS} value={status} onChange={(v) => setStatus((v as typeof status | null) ?? 'all')} allowDeselect={false} />
        <TraderPicker value={traderId} onChange={setTraderId} />
        <TextInput label="From" type="date" value={from} onChange={(e) => setFrom(e.currentTarget.value)} max={to || undefined} />
        <TextInput label="To" type="date" value={to} onChange={(e) => setTo(e.currentTarget.value)} min={from || undefined} error={datesWrong ? 'Must be on or after From' : undefined} />
      </SimpleGrid>
      <Group justify="space-between" gap="xs" mb="sm" mih={30}>
        <Text size="sm" c="dimmed" className="tp-figure" aria-live="polite">
          {requests.data && !datesWrong ? `${requests.data.total} ${requests.data.total === 1 ? 'request' : 'requests'}` : ''}
        </Text>
        <ExportButton call="exportMoneyRequests" input={{ type: filters.type, status: filters.status, traderId: filters.traderId, search: filters.search, from: filters.from, to: filters.to }} disabled={datesWrong || requests.data?.total === 0} what={`${text.noun} request`} />
      </Group>
      {body}
      {notes.dialog}
    </>
  );
}

type TabName = 'pending' | 'all';

function MoneyRequestsAdminPage({ kind, queue }: { kind: MoneyRequestKind; queue: Queue }) {
  const text = TEXT[kind];
  const [params, setParams] = useSearchParams();
  const tab: TabName = params.get('tab') === 'all' ? 'all' : 'pending';
  const count = queue.rows.length;

  return (
    <Stack gap="lg">
      <PageHeader title={text.title} description={text.description} />
      <Paper p="lg">
        <Tabs value={tab} onChange={(v) => setParams(v === 'all' ? { tab: 'all' } : {}, { replace: true })} keepMounted={false}>
          <Tabs.List mb="md">
            <Tabs.Tab value="pending" rightSection={count ? <Badge size="sm" variant="filled" circle={count < 10}>{count}</Badge> : null}>
              Pending
            </Tabs.Tab>
            <Tabs.Tab value="all">All requests</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="pending">
            <PendingTab kind={kind} queue={queue} />
          </Tabs.Panel>
          <Tabs.Panel value="all">
            <AllRequestsTab kind={kind} />
          </Tabs.Panel>
        </Tabs>
      </Paper>
    </Stack>
  );
}

/** User Deposit Requests: the pending deposits with Approve / Reject, and every deposit request with filters. */
export function DepositRequestsAdminPage() {
  return <MoneyRequestsAdminPage kind="deposit" queue={useDepositQueue()} />;
}

/** User Withdraw Requests: the pending withdrawals with Approve / Reject, and every withdrawal request with filters. */
export function WithdrawRequestsAdminPage() {
  return <MoneyRequestsAdminPage kind="withdrawal" queue={useWithdrawalQueue()} />;
}
