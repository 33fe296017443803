import { Badge, Tabs } from '@mantine/core';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { MoneyRequestKind } from '../api/admin/keys';
import { useDecideDeposit, useDecideWithdrawal } from '../api/admin/money-requests';
import { AllRequestsTab } from './all-requests-tab';
import { ListPage } from './list-page/list-page';
import { useLivePendingDeposits, useLivePendingWithdrawals } from './live-queue';
import { PendingTab, type Queue } from './pending-requests-tab';
import { nameOf, TEXT } from './request-parts';

/** The deposit and withdrawal queues: Pending (kept live) with Approve / Reject, and All requests with filters. */

function useDepositQueue(): Queue {
  const query = useLivePendingDeposits();
  const decide = useDecideDeposit();
  const rows = useMemo(
    () =>
      (query.data?.data ?? []).map((r) => ({
        id: r.id,
        traderId: r.traders_id,
        traderName: nameOf(r),
        traderEmail: r.email,
        tradingAccount: r.accountNumber,
        account: r.paymentAccount,
        paidTo: { name: r.paymentGatewayName || '—', number: r.number },
        amount: r.depositAmount,
        time: r.timeStamp,
        notes: r.notes,
        needsSecondApproval: false,
        firstApproval: null,
      })),
    [query.data],
  );
  return { rows, isPending: query.isPending, isError: query.isError, isFetching: query.isFetching, error: query.error, refetch: query.refetch, decide: decide.mutateAsync };
}

function useWithdrawalQueue(): Queue {
  const query = useLivePendingWithdrawals();
  const decide = useDecideWithdrawal();
  const rows = useMemo(
    () => (query.data?.data ?? []).map((r) => ({ id: r.id, traderId: r.traders_id, traderName: nameOf(r), traderEmail: r.email, tradingAccount: r.accountNumber, account: r.paymentAccount, paidTo: null, amount: r.withdrawalsAmount, time: r.timeStamp, notes: r.notes, needsSecondApproval: r.needsSecondApproval, firstApproval: r.firstApproval })),
    [query.data],
  );
  return { rows, isPending: query.isPending, isError: query.isError, isFetching: query.isFetching, error: query.error, refetch: query.refetch, decide: decide.mutateAsync };
}

type TabName = 'pending' | 'all';

function MoneyRequestsAdminPage({ kind, queue }: { kind: MoneyRequestKind; queue: Queue }) {
  const text = TEXT[kind];
  const [params, setParams] = useSearchParams();
  const tab: TabName = params.get('tab') === 'all' ? 'all' : 'pending';
  const count = queue.rows.length;

  return (
    <ListPage title={text.title} description={text.description}>
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
    </ListPage>
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
