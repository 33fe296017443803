import { Alert, Badge, Button, Group, Modal, Paper, SegmentedControl, SimpleGrid, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import type { RequestStatus } from '@tradeport/contracts';
import { useState, type ReactNode } from 'react';
import { errorMessage } from '../api/client';
import { useCancelMoneyRequest, useDeposits, useWithdrawals } from '../api/queries';
import { formatDate, formatDateTime, formatUsd } from '../format/format';
import { EmptyState, ErrorState, PageHeader, TableSkeleton } from '../ui/page';
import { AmountAndStatus, RecordItem, RecordList, usePhone } from '../ui/records';
import { RequestStatusBadge } from '../ui/status-badge';
import { toastSuccess } from '../ui/toast';

interface Row {
  kind: 'deposit' | 'withdrawal';
  id: number;
  /** The number of the trading account the money goes to or comes from. */
  tradingAccount: number;
  method: string;
  account: string;
  amount: string;
  time: string;
  status: RequestStatus;
  decidedAt: string | null;
  /** The broker's reason for a rejection, when it gave one. */
  rejectReason: string | null;
}

function useRequests(kinds: Row['kind'][]) {
  const deposits = useDeposits();
  const withdrawals = useWithdrawals();
  const queries = [kinds.includes('deposit') ? deposits : null, kinds.includes('withdrawal') ? withdrawals : null].filter((q) => q !== null);
  const rows: Row[] = [
    ...(kinds.includes('deposit') ? (deposits.data?.data ?? []).map((d): Row => ({ kind: 'deposit', id: d.id, tradingAccount: d.accountNumber, method: d.paymentGatewayName, account: d.paymentAccount, amount: d.depositAmount, time: d.timeStamp, status: d.status, decidedAt: d.decidedAt, rejectReason: d.rejectReason })) : []),
    ...(kinds.includes('withdrawal') ? (withdrawals.data?.data ?? []).map((w): Row => ({ kind: 'withdrawal', id: w.id, tradingAccount: w.accountNumber, method: 'Bank transfer', account: w.paymentAccount, amount: w.withdrawalsAmount, time: w.timeStamp, status: w.status, decidedAt: w.decidedAt, rejectReason: w.rejectReason })) : []),
  ].sort((a, b) => (a.time < b.time ? 1 : a.time > b.time ? -1 : b.id - a.id));
  return {
    rows,
    isPending: queries.some((q) => q.isPending),
    error: queries.find((q) => q.isError)?.error ?? null,
    refetch: () => queries.forEach((q) => void q.refetch()),
  };
}

const KIND_NAMES = { deposit: 'deposit', withdrawal: 'withdrawal' } as const;

/**
 * Cancelling a pending request: a confirmation that names the request, then the server's guarded
 * change from Pending to Cancelled (refused if the broker decided it meanwhile). Nothing is paid in
 * or out; a withdrawal's set-aside amount is free again.
 */
function useCancelDialog(): { open: (row: Row) => void; dialog: ReactNode } {
  const cancel = useCancelMoneyRequest();
  const [row, setRow] = useState<Row | null>(null);
  const [opened, setOpened] = useState(false);
  const close = () => {
    if (cancel.isPending) return;
    setOpened(false);
  };
  const confirm = () => {
    if (!row) return;
    cancel.mutate(
      { id: row.id, kind: row.kind },
      {
        onSuccess: (answer) => {
          toastSuccess(answer.message);
          setOpened(false);
        },
      },
    );
  };
  const noun = row ? KIND_NAMES[row.kind] : '';
  const dialog = (
    <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened={opened} onClose={close} title={row ? `Cancel ${noun} request #${row.id}?` : ''} size="sm" centered>
      {row && (
        <Stack gap="md">
          <SimpleGrid cols={2} spacing={4} verticalSpacing={4}>
            <Text size="sm" c="dimmed">
              Amount
            </Text>
            <Text size="sm" fw={600} className="tp-figure">
              {formatUsd(row.amount)} USD
            </Text>
            <Text size="sm" c="dimmed">
              Trading account
            </Text>
            <Text size="sm" className="tp-figure">
              Live {row.tradingAccount}
            </Text>
            <Text size="sm" c="dimmed">
              Account
            </Text>
            <Text size="sm" className="tp-figure" style={{ whiteSpace: 'normal', overflowWrap: 'anywhere' }}>
              {row.account}
            </Text>
          </SimpleGrid>
          <Text size="sm">
            {row.kind === 'withdrawal' ? 'The broker will not pay it, and the amount set aside for it is free to withdraw again.' : 'The broker will not credit it.'} A cancelled request cannot be reopened.
          </Text>
          {cancel.isError && (
            <Alert color="red" variant="light" role="alert">
              {errorMessage(cancel.error)}
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={cancel.isPending}>
              Keep request
            </Button>
            <Button color="red.9" onClick={confirm} loading={cancel.isPending} data-autofocus>
              Cancel request
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
  return {
    open: (r) => {
      cancel.reset();
      setRow(r);
      setOpened(true);
    },
    dialog,
  };
}

/** A request's status, and under it the broker's reason when it was rejected with one. */
function StatusWithReason({ row }: { row: Row }) {
  return (
    <>
      <RequestStatusBadge status={row.status} />
      {row.rejectReason && (
        <Text size="xs" c="dimmed" mt={2} lineClamp={3} title={row.rejectReason} style={{ overflowWrap: 'anywhere' }} data-testid="reject-reason">
          {row.rejectReason}
        </Text>
      )}
    </>
  );
}

/** The Cancel action of a pending row (others have none). */
function CancelButton({ row, onCancel }: { row: Row; onCancel?: (row: Row) => void }) {
  if (!onCancel || row.status !== '0') return null;
  return (
    <Button size="compact-sm" variant="subtle" color="red" onClick={() => onCancel(row)} aria-label={`Cancel ${KIND_NAMES[row.kind]} request ${row.id}`}>
      Cancel
    </Button>
  );
}

/** The latest few, beside a form: what, when, how much, and where it stands. */
function CompactRequestsTable({ rows, label, onCancel }: { rows: Row[]; label: string; onCancel?: (row: Row) => void }) {
  const phone = usePhone();
  if (phone) return <RequestsTable rows={rows} showKind={false} label={label} onCancel={onCancel} />;
  return (
    <Table fz="sm" aria-label={label}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>ID</Table.Th>
          <Table.Th>Date</Table.Th>
          <Table.Th className="tp-num">Amount (USD)</Table.Th>
          <Table.Th>Status</Table.Th>
          <Table.Th>
            <VisuallyHidden>Actions</VisuallyHidden>
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((r) => (
          <Table.Tr key={`${r.kind}-${r.id}`} data-testid={`request-${r.kind}-${r.id}`}>
            {/* The request, and under it the trading account it is for. */}
            <Table.Td>
              <Text size="sm" className="tp-figure">
                #{r.id}
              </Text>
              <Text size="xs" c="dimmed" className="tp-figure" data-testid="request-trading-account" style={{ whiteSpace: 'nowrap' }}>
                Acc. {r.tradingAccount}
              </Text>
            </Table.Td>
            <Table.Td className="tp-figure">{formatDate(r.time)}</Table.Td>
            <Table.Td className="tp-num" fw={600}>
              {formatUsd(r.amount)}
            </Table.Td>
            <Table.Td data-testid="request-status" maw={220}>
              <StatusWithReason row={r} />
            </Table.Td>
            <Table.Td ta="right">
              <CancelButton row={r} onCancel={onCancel} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function RequestsTable({ rows, showKind, label, onCancel }: { rows: Row[]; showKind: boolean; label: string; onCancel?: (row: Row) => void }) {
  const phone = usePhone();
  if (phone) {
    // A phone lists the requests: what and where on the left, amount and status on the right.
    return (
      <RecordList label={label}>
        {rows.map((r) => (
          <RecordItem
            key={`${r.kind}-${r.id}`}
            testId={`request-${r.kind}-${r.id}`}
            title={
              <Text size="sm" fw={600}>
                {showKind ? (r.kind === 'deposit' ? 'Deposit' : 'Withdrawal') : r.method}{' '}
                <Text span size="xs" c="dimmed" fw={400} className="tp-figure">
                  #{r.id}
                </Text>
              </Text>
            }
            subtitle={showKind ? `${r.method} · ${r.account}` : r.account}
            aside={<AmountAndStatus amount={r.amount} status={r.status} />}
          >
            <Text size="xs" c="dimmed" className="tp-figure" data-testid="request-trading-account">
              Live account {r.tradingAccount}
            </Text>
            <Group justify="space-between" gap="xs" wrap="nowrap">
              <Text size="xs" c="dimmed" className="tp-figure">
                {formatDateTime(r.time)}
              </Text>
              <CancelButton row={r} onCancel={onCancel} />
            </Group>
            {r.rejectReason && (
              <Text size="xs" style={{ overflowWrap: 'anywhere' }} data-testid="reject-reason">
                Reason: {r.rejectReason}
              </Text>
            )}
          </RecordItem>
        ))}
      </RecordList>
    );
  }
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table fz="sm" aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>ID</Table.Th>
            {showKind && <Table.Th>Type</Table.Th>}
            <Table.Th>Time</Table.Th>
            <Table.Th>Trading account</Table.Th>
            <Table.Th>Method</Table.Th>
            <Table.Th>Account</Table.Th>
            <Table.Th className="tp-num">Amount (USD)</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r) => (
            <Table.Tr key={`${r.kind}-${r.id}`} data-testid={`request-${r.kind}-${r.id}`}>
              <Table.Td className="tp-figure">#{r.id}</Table.Td>
              {showKind && (
                <Table.Td>
                  <Badge variant="dot" color={r.kind === 'deposit' ? 'teal' : 'grape'} styles={{ root: { textTransform: 'none' } }}>
                    {r.kind === 'deposit' ? 'Deposit' : 'Withdrawal'}
                  </Badge>
                </Table.Td>
              )}
              <Table.Td className="tp-figure">{formatDateTime(r.time)}</Table.Td>
              <Table.Td className="tp-figure" data-testid="request-trading-account">
                {r.tradingAccount}
              </Table.Td>
              <Table.Td>{r.method}</Table.Td>
              <Table.Td className="tp-figure">{r.account}</Table.Td>
              <Table.Td className="tp-num" fw={600}>
                {formatUsd(r.amount)}
              </Table.Td>
              <Table.Td data-testid="request-status" maw={280}>
                <StatusWithReason row={r} />
              </Table.Td>
              <Table.Td ta="right">
                <CancelButton row={r} onCancel={onCancel} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

const STATUS_FILTERS = [
  { value: 'all', label: 'All' },
  { value: '0', label: 'Pending' },
  { value: '1', label: 'Approved' },
  { value: '2', label: 'Rejected' },
  { value: '3', label: 'Cancelled' },
];

function RequestsPage({ kinds, title, description, empty, label }: { kinds: Row['kind'][]; title: string; description: string; empty: string; label: string }) {
  const { rows, isPending, error, refetch } = useRequests(kinds);
  const cancel = useCancelDialog();
  const [status, setStatus] = useState('all');
  const shown = status === 'all' ? rows : rows.filter((r) => r.status === status);
  return (
    <Stack gap="lg">
      <PageHeader title={title} description={description} />
      <Paper p="lg">
        <Group justify="space-between" mb="md">
          <SegmentedControl aria-label="Status" data={STATUS_FILTERS} value={status} onChange={setStatus} size="xs" />
          <Text size="sm" c="dimmed" className="tp-figure">
            {shown.length} {shown.length === 1 ? 'request' : 'requests'}
          </Text>
        </Group>
        {isPending ? <TableSkeleton rows={6} /> : error ? <ErrorState error={error} onRetry={refetch} /> : shown.length === 0 ? <EmptyState message={status === 'all' ? empty : 'No requests with this status.'} /> : <RequestsTable rows={shown} showKind={kinds.length > 1} label={label} onCancel={cancel.open} />}
      </Paper>
      {cancel.dialog}
    </Stack>
  );
}

export function DepositRequestsPage() {
  return <RequestsPage kinds={['deposit']} title="Deposit Requests" description="Your deposit requests, newest first. The status changes here as soon as the broker decides; a pending one can still be cancelled." empty="You have not requested a deposit yet." label="Deposit requests" />;
}

export function WithdrawRequestsPage() {
  return <RequestsPage kinds={['withdrawal']} title="Withdraw Requests" description="Your withdrawal requests, newest first. The status changes here as soon as the broker decides; a pending one can still be cancelled." empty="You have not requested a withdrawal yet." label="Withdrawal requests" />;
}

export function AllRequestsPage() {
  return <RequestsPage kinds={['deposit', 'withdrawal']} title="Tools Requests" description="All your deposit and withdrawal requests in one list." empty="You have no deposit or withdrawal requests yet." label="All requests" />;
}

/** The latest few requests of one kind, beside its form. */
export function RecentRequests({ kind }: { kind: Row['kind'] }) {
  const { rows, isPending, error, refetch } = useRequests([kind]);
  const cancel = useCancelDialog();
  return (
    <Paper p="lg">
      <Title order={2} size="h5" mb="sm">
        Recent {kind} requests
      </Title>
      {isPending ? <TableSkeleton rows={3} /> : error ? <ErrorState error={error} onRetry={refetch} /> : rows.length === 0 ? <EmptyState message={`No ${kind} requests yet.`} /> : <CompactRequestsTable rows={rows.slice(0, 5)} label={`Recent ${kind} requests`} onCancel={cancel.open} />}
      {cancel.dialog}
    </Paper>
  );
}
