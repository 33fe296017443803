import { ActionIcon, Alert, Anchor, Badge, Button, Group, Modal, SimpleGrid, Stack, Table, Text, TextInput, Tooltip } from '@mantine/core';
import { IconCheck, IconRefresh, IconX } from '@tabler/icons-react';
import { Fragment, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { MoneyRequestKind } from '../api/admin/keys';
import type { Decision, DecisionInput } from '../api/admin/money-requests';
import { useCan, useSession } from '../api/queries';
import { formatDateTime, formatUsd } from '../format/format';
import { sumMoney } from '../format/money-sum';
import { LiveMark, negativeButton, positiveButton, RecordItem, RecordList, RecordTable } from './admin-parts';
import { DateTimeText } from './list-page/cells';
import { ListBody, type ListQueryState } from './list-page/list-body';
import { ListCount } from './list-page/list-page';
import { TablePager } from './list-page/pagers';
import { usePaging, useStayOnAPage } from './list-page/paging';
import { toastOutcome, useRowDialog } from './list-page/row-action';
import { notesTarget, RequestCell, StackedCell, TEXT, TraderCell } from './request-parts';
import { NotesButton, useNotesDialog } from './request-notes';
import { awaitingMe } from './second-approval';
import { useRiskByAccount, WithdrawalRiskFacts, WithdrawalRiskLine, WithdrawalRiskSummary } from './withdrawal-risk';

/** A queue's Pending tab: the requests waiting for a decision, Approve / Reject on each, live. */

/** A pending request as both queues show it. */
export interface PendingRow {
  id: number;
  traderId: number;
  traderName: string;
  traderEmail: string;
  /** The number of the live trading account the money goes to or comes from. */
  tradingAccount: number;
  /** The trader's own account: paid from (deposit) or to be paid to (withdrawal). */
  account: string;
  /** The broker's payment account a deposit was paid to; withdrawals have none. */
  paidTo: { name: string; number: string } | null;
  amount: string;
  time: string;
  /** How many internal notes it has. */
  notes: number;
  /** A withdrawal above the second-approval amount needs two approvals (docs/design.md#four-eyes-approval). */
  needsSecondApproval: boolean;
  /** The first of them, once given. */
  firstApproval: { by: number; byEmail: string; at: string } | null;
}

/** A pending queue, normalised for the shared table, with the call that decides one of its rows. */
export interface Queue extends ListQueryState {
  rows: PendingRow[];
  isFetching: boolean;
  decide: (input: DecisionInput) => Promise<unknown>;
}

type Risk = ReturnType<typeof useRiskByAccount>;

interface RowsProps {
  kind: MoneyRequestKind;
  rows: PendingRow[];
  risk: Risk;
  /** A row's notes and decision buttons. */
  actions: (row: PendingRow) => ReactNode;
  /** Where a withdrawal needing two approvals stands (nothing for the others). */
  mark: (row: PendingRow) => ReactNode;
}

/** A phone shows each request as an item with its decision in reach, not a wide table. */
function PendingCards({ kind, rows, risk, actions, mark }: RowsProps) {
  const text = TEXT[kind];
  const isWithdrawal = kind === 'withdrawal';
  return (
    <RecordList label={`Pending ${text.noun} requests`}>
      {rows.map((r) => (
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
            #{r.id} · Live {r.tradingAccount} · {r.account}
            {r.paidTo ? ` → ${r.paidTo.name}` : ''}
          </Text>
          {isWithdrawal && <WithdrawalRiskSummary risk={risk.byAccount.get(r.tradingAccount)} amount={r.amount} loading={risk.isPending} failed={risk.isError} />}
          {mark(r) && <div>{mark(r)}</div>}
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <div>
              <DateTimeText value={r.time} />
            </div>
            {actions(r)}
          </Group>
        </RecordItem>
      ))}
    </RecordList>
  );
}

function PendingTable({ kind, rows, risk, actions, mark }: RowsProps) {
  const text = TEXT[kind];
  const isWithdrawal = kind === 'withdrawal';
  return (
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
      {rows.map((r) => (
        <Fragment key={r.id}>
          {/* A withdrawal's row goes on in a line of its own under it: its trader's account now. */}
          <Table.Tr style={isWithdrawal ? { borderBottom: 0 } : undefined}>
            <RequestCell id={r.id} account={r.tradingAccount} />
            <TraderCell name={r.traderName} email={r.traderEmail} id={r.traderId} />
            {/* A deposit's account, and under it the broker's account it was paid to. */}
            <StackedCell main={r.account} detail={r.paidTo ? `to ${r.paidTo.name} · ${r.paidTo.number}` : undefined} maw={300} />
            <Table.Td className="tp-num" fw={650}>
              {formatUsd(r.amount)}
            </Table.Td>
            <Table.Td>
              <DateTimeText value={r.time} />
            </Table.Td>
            <Table.Td>
              <Group gap={6} justify="flex-end" wrap="nowrap">
                {mark(r)}
                {actions(r)}
              </Group>
            </Table.Td>
          </Table.Tr>
          {isWithdrawal && (
            <Table.Tr>
              <Table.Td pt={0} />
              <Table.Td colSpan={5} pt={0}>
                <WithdrawalRiskLine risk={risk.byAccount.get(r.tradingAccount)} amount={r.amount} loading={risk.isPending} failed={risk.isError} />
              </Table.Td>
            </Table.Tr>
          )}
        </Fragment>
      ))}
    </RecordTable>
  );
}

/** Where a withdrawal needing two approvals stands: the first still to give, or given by whom. */
function SecondApprovalMark({ row, selfId }: { row: PendingRow; selfId: number | undefined }) {
  if (!row.needsSecondApproval) return null;
  const first = row.firstApproval;
  const label = first ? (first.by === selfId ? 'Approved by you · 1 of 2' : 'Awaiting second approval') : 'Needs 2 approvals';
  return (
    <Tooltip label={first ? `First approval by ${first.byEmail}` : 'Above the second-approval amount: two Finance members must approve it.'} withArrow multiline w={240}>
      <Badge size="sm" variant={first ? 'filled' : 'light'} color={first ? 'grape' : 'gray'} data-testid={`second-approval-${row.id}`} tabIndex={0} style={{ flex: 'none', textTransform: 'none' }}>
        {label}
      </Badge>
    </Tooltip>
  );
}

interface DecisionTarget {
  row: PendingRow;
  decision: Decision;
}

/**
 * Approve or Reject, asked first with the request's facts (and, approving a withdrawal, its
 * trader's account now). A rejection says why: the trader reads it. `goneElsewhere`: the feed took
 * the row out while the dialog was open, so someone else decided it.
 */
function DecisionForm({ kind, target, onClose, goneElsewhere, risk, onDecide }: { kind: MoneyRequestKind; target: DecisionTarget; onClose: () => void; goneElsewhere: boolean; risk: Risk; onDecide: (target: DecisionTarget, reason: string) => void }) {
  const text = TEXT[kind];
  const isWithdrawal = kind === 'withdrawal';
  const approving = target.decision === 'approve';
  const firstOfTwo = approving && target.row.needsSecondApproval && target.row.firstApproval === null;
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const onConfirm = () => {
    const why = reason.trim();
    if (target.decision === 'reject' && why === '') {
      setReasonError('Please give the reason; the trader sees it.');
      return;
    }
    onDecide(target, why);
  };
  return (
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
      {!goneElsewhere && approving && isWithdrawal && <WithdrawalRiskFacts risk={risk.byAccount.get(target.row.tradingAccount)} amount={target.row.amount} />}
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
      {!goneElsewhere && target.row.firstApproval && (
        <Text size="sm" c="dimmed">
          First approval by {target.row.firstApproval.byEmail} on {formatDateTime(target.row.firstApproval.at)}. Yours completes the decision.
        </Text>
      )}
      {!goneElsewhere && firstOfTwo && (
        <Text size="sm">This amount needs two approvals. Yours is the first: no money moves, and the trader still sees the request pending, until another Finance member completes or rejects it.</Text>
      )}
      {!goneElsewhere && !firstOfTwo && (
        <Text size="sm">{approving ? text.approveEffect(formatUsd(target.row.amount), target.row.traderName) : `The request is marked as rejected and ${target.row.traderName}'s balance is unchanged.`} The trader is notified, and the decision cannot be undone.</Text>
      )}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button color={approving ? 'teal.9' : 'red.9'} onClick={onConfirm} disabled={goneElsewhere} data-autofocus={approving || undefined}>
          {firstOfTwo ? 'Give first approval' : approving ? 'Approve' : 'Reject'}
        </Button>
      </Group>
    </Stack>
  );
}

export function PendingTab({ kind, queue }: { kind: MoneyRequestKind; queue: Queue }) {
  const text = TEXT[kind];
  const [params, setParams] = useSearchParams();
  const mineOnly = params.get('awaiting') === 'me';
  const selfId = useSession().data?.user?.id;
  const can = useCan();
  const mine = awaitingMe(queue.rows, selfId, can('money.second-approval'));
  const rows = mineOnly ? mine : queue.rows;
  // Paged here: decided rows leave the queue, and when the last row of the last page goes, the page before shows.
  const paging = usePaging('');
  useStayOnAPage(paging, rows.length);
  const shown = rows.slice(paging.offset, paging.offset + paging.pageSize);
  const confirm = useRowDialog<DecisionTarget>();
  const [asked, setAsked] = useState(0);
  const notes = useNotesDialog();
  // Beside each pending withdrawal: its trader's live figures, so the approver sees the risk.
  const risk = useRiskByAccount(
    rows.map((r) => r.id),
    kind === 'withdrawal' && rows.length > 0,
  );
  const openDecision = (row: PendingRow, decision: Decision) => {
    setAsked((n) => n + 1);
    confirm.open({ row, decision });
  };
  // Seeing the queue is finance's; deciding too, but a role may come with the first and not the second.
  const decides = can('money.decide');
  // The second of two approvals is another Finance member's (the server refuses anyone else).
  const blockedFor = (r: PendingRow): string | null => {
    if (!r.firstApproval) return null;
    if (r.firstApproval.by === selfId) return 'You gave the first approval; another Finance member completes or rejects it.';
    if (!can('money.second-approval')) return 'The second approval needs the Finance role.';
    return null;
  };
  const decide = ({ row, decision }: DecisionTarget, reason: string) => {
    confirm.close();
    const firstOfTwo = decision === 'approve' && row.needsSecondApproval && row.firstApproval === null;
    const approval = decision === 'approve' && row.needsSecondApproval ? (row.firstApproval ? 'final' : 'first') : undefined;
    void toastOutcome(queue.decide({ id: row.id, decision, ...(decision === 'reject' ? { reason } : {}), ...(approval ? { approval } : {}) }), () => (firstOfTwo ? `First approval of withdrawal request #${row.id} given: it now awaits another Finance member.` : decision === 'approve' ? text.approved(row.id) : text.rejected(row.id)));
  };
  const actions = (r: PendingRow) => {
    const blocked = blockedFor(r);
    return (
      <Group gap={6} justify="flex-end" wrap="nowrap">
        <NotesButton target={notesTarget(kind, r)} count={r.notes} onOpen={notes.open} />
        {decides && blocked !== null && (
          <Tooltip label={blocked} multiline w={260} withArrow>
            <span tabIndex={0}>
              <Button size="compact-sm" variant="default" disabled leftSection={<IconCheck size={14} aria-hidden />}>
                Approve
              </Button>
            </span>
          </Tooltip>
        )}
        {decides && blocked === null && (
          <>
            <Button size="compact-sm" color="teal" variant="default" styles={positiveButton} leftSection={<IconCheck size={14} aria-hidden />} onClick={() => openDecision(r, 'approve')} aria-label={`Approve ${text.noun} request ${r.id}`}>
              Approve
            </Button>
            <Button size="compact-sm" color="red" variant="subtle" styles={negativeButton} leftSection={<IconX size={14} aria-hidden />} onClick={() => openDecision(r, 'reject')} aria-label={`Reject ${text.noun} request ${r.id}`}>
              Reject
            </Button>
          </>
        )}
      </Group>
    );
  };
  const target = confirm.row;
  const goneElsewhere = confirm.opened && target !== null && !queue.isPending && !rows.some((r) => r.id === target.row.id);
  const mark = (r: PendingRow) => (r.needsSecondApproval ? <SecondApprovalMark row={r} selfId={selfId} /> : null);
  const list = { kind, rows: shown, risk, actions, mark };

  return (
    <>
      <Group justify="space-between" mb="md" gap="sm">
        <Group gap="sm">
          <ListCount>{!queue.isPending && !queue.isError ? `${rows.length} pending · ${formatUsd(sumMoney(rows.map((r) => r.amount)))} USD` : '\u00a0'}</ListCount>
          {(mine.length > 0 || mineOnly) && (
            <Button size="compact-xs" radius="xl" variant={mineOnly ? 'filled' : 'light'} color="grape" aria-pressed={mineOnly} onClick={() => setParams(mineOnly ? {} : { awaiting: 'me' }, { replace: true })} data-testid="awaiting-me">
              Awaiting my second approval ({mine.length})
            </Button>
          )}
        </Group>
        <Group gap="xs">
          <LiveMark />
          <Tooltip label="Refresh now">
            <ActionIcon variant="subtle" color="gray" onClick={() => void queue.refetch()} aria-label={`Refresh pending ${text.noun} requests`} loading={queue.isFetching && !queue.isPending}>
              <IconRefresh size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>
      <ListBody
        query={queue}
        count={rows.length}
        skeleton={{ rows: 6 }}
        errorTitle={`Could not load the pending ${text.noun} requests`}
        empty={`No pending ${text.noun} requests. New requests appear here on their own.`}
        cards={() => <PendingCards {...list} />}
        table={() => <PendingTable {...list} />}
        pager={<TablePager page={paging.page} pageSize={paging.pageSize} total={rows.length} onChange={paging.setPage} label={`Pending ${text.noun} requests`} />}
      />
      <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened={confirm.opened} onClose={confirm.close} title={target ? `${target.decision === 'approve' ? 'Approve' : 'Reject'} ${text.noun} request #${target.row.id}?` : ''} centered>
        {/* A fresh form (reason and all) for each decision asked. */}
        {target && <DecisionForm key={asked} kind={kind} target={target} onClose={confirm.close} goneElsewhere={goneElsewhere} risk={risk} onDecide={decide} />}
      </Modal>
      {notes.dialog}
    </>
  );
}
