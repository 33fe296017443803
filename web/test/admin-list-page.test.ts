import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MutationObserver, QueryClient, type QueryKey } from '@tanstack/react-query';
import type { Listing } from '../src/api/admin/cache';
import { adminQueryKeys } from '../src/api/admin/keys';
import { decisionChange, type DecisionInput } from '../src/api/admin/money-requests';
import { closeTradeChange, type OpenTradesGroup } from '../src/api/admin/trades';
import { traderStatusChange, type TraderRow, type TraderStatusInput } from '../src/api/admin/users';
import type { CallOutput } from '../src/api/client';
import { datesProblem } from '../src/admin/list-page/filters';
import { pageCount, pageSpan, pageThatExists } from '../src/admin/list-page/paging';

/**
 * The back office's list building block: its paging arithmetic, and the optimistic row actions
 * (`optimisticChange`) run by TanStack Query's own mutation machinery on a real QueryClient — the
 * change shows at once, stays when the server agrees, and is taken back when it refuses.
 */

const refused = () => Promise.reject(new Error('Refused by the server'));
const agreed = () => Promise.resolve({ status: 'success', message: 'Done' });

/** Runs one mutation with `options` (its onMutate / onError) and `answer` as the server's. */
async function run<Vars>(client: QueryClient, options: object, answer: () => Promise<unknown>, vars: Vars): Promise<'done' | 'refused'> {
  const observer = new MutationObserver(client, { ...options, mutationFn: answer } as never);
  return observer.mutate(vars as never).then(
    () => 'done' as const,
    () => 'refused' as const,
  );
}

function trader(id: number, isActive: '1' | '0', status: 'Online' | 'Offline'): TraderRow {
  return { id, firstName: `First${id}`, lastName: `Last${id}`, email: `t${id}@example.com`, phoneNo: '', countryName: '', countryCode: '', balance: '0.00', totalDeposite: '0.00', totalCredit: '0.00', totalWithdrawals: '0.00', isActive, status, accountType: '0', isReserved: false, lastSeen: null, createdAt: '2026-01-01T00:00:00.000Z' };
}

function tradersPage(rows: TraderRow[]): CallOutput<'getTraders'> {
  return { status: 'success', total: rows.length, active: rows.filter((t) => t.isActive === '1').length, online: rows.filter((t) => t.status === 'Online').length, data: rows };
}

describe('paging of the back-office lists', () => {
  it('counts pages, the rows a page shows, and keeps a page that exists when rows disappear under it', () => {
    assert.equal(pageCount(0, 10), 1, 'an empty list is page 1 of 1');
    assert.equal(pageCount(10, 10), 1);
    assert.equal(pageCount(11, 10), 2);
    assert.deepEqual(pageSpan(2, 10, 11), { first: 11, last: 11 }, "'Showing 11–11 of 11'");
    assert.deepEqual(pageSpan(3, 15, 45), { first: 31, last: 45 });
    assert.equal(pageThatExists(3, 21, 10), 3);
    assert.equal(pageThatExists(3, 20, 10), 2, 'the last row of the last page went: the page before');
    assert.equal(pageThatExists(2, 0, 10), 1);
  });

  it('says what is wrong only when From is after To', () => {
    assert.equal(datesProblem('', '2026-01-01'), null);
    assert.equal(datesProblem('2026-01-01', '2026-01-01'), null, 'one day');
    assert.equal(datesProblem('2026-01-02', '2026-01-01'), "Choose a 'From' date on or before the 'To' date.");
    assert.equal(datesProblem('2026-01-02', '2026-01-01', { from: 'Closed from', to: 'Closed to' }), "Choose a 'Closed from' date on or before the 'Closed to' date.");
  });
});

describe('an optimistic row action', () => {
  const pageOne: QueryKey = adminQueryKeys.tradersList({ limit: 10, offset: 0 });
  const searched: QueryKey = adminQueryKeys.tradersList({ search: 'First2', limit: 10, offset: 0 });

  function usersCache() {
    const client = new QueryClient();
    client.setQueryData(pageOne, tradersPage([trader(1, '1', 'Online'), trader(2, '1', 'Online'), trader(3, '0', 'Offline')]));
    client.setQueryData(searched, tradersPage([trader(2, '1', 'Online')]));
    return client;
  }
  const row = (client: QueryClient, key: QueryKey, id: number) => client.getQueryData<CallOutput<'getTraders'>>(key)?.data.find((t) => t.id === id);
  const counts = (client: QueryClient, key: QueryKey) => {
    const answer = client.getQueryData<CallOutput<'getTraders'>>(key);
    return { active: answer?.active, online: answer?.online };
  };

  it('deactivating shows on every cached page at once, with the counts, and stays when the server agrees', async () => {
    const client = usersCache();
    const input: TraderStatusInput = { id: 2, isActive: '0' };
    const observer = new MutationObserver(client, { ...traderStatusChange(client), mutationFn: () => new Promise((resolve) => setTimeout(() => resolve({ status: 'success', message: 'Done' }), 20)) });
    const sent = observer.mutate(input);
    await new Promise((resolve) => setTimeout(resolve, 5));
    assert.equal(row(client, pageOne, 2)?.isActive, '0', 'changed before the server answered');
    assert.equal(row(client, searched, 2)?.status, 'Offline', 'on the searched page too: a deactivated user is signed out');
    await sent;
    assert.deepEqual(counts(client, pageOne), { active: 1, online: 1 });
    assert.deepEqual(counts(client, searched), { active: 0, online: 0 });
  });

  it('refused, the row and the counts are back as they were on every page', async () => {
    const client = usersCache();
    assert.equal(await run(client, traderStatusChange(client), refused, { id: 2, isActive: '0' }), 'refused');
    assert.deepEqual(row(client, pageOne, 2), trader(2, '1', 'Online'));
    assert.deepEqual(row(client, searched, 2), trader(2, '1', 'Online'));
    assert.deepEqual(counts(client, pageOne), { active: 2, online: 2 });
  });

  it('refused after a refetch already put the row right, the refetched row is kept', async () => {
    const client = usersCache();
    const observer = new MutationObserver(client, {
      ...traderStatusChange(client),
      mutationFn: async () => {
        // Meanwhile a refetch brings the user back, active, with a new balance.
        client.setQueryData(pageOne, tradersPage([trader(1, '1', 'Online'), { ...trader(2, '1', 'Offline'), balance: '50.00' }, trader(3, '0', 'Offline')]));
        throw new Error('Refused by the server');
      },
    });
    await observer.mutate({ id: 2, isActive: '0' }).catch(() => undefined);
    assert.equal(row(client, pageOne, 2)?.balance, '50.00', 'the refetched row stays');
    assert.equal(row(client, searched, 2)?.isActive, '1', 'the page not refetched is put back');
  });

  it('a refused decision puts the request back in the queue in id order; one the queue already has is not doubled', async () => {
    const client = new QueryClient();
    const key = adminQueryKeys.pendingDeposits;
    client.setQueryData<Listing<{ id: number }>>(key, { status: 'success', data: [{ id: 3 }, { id: 5 }, { id: 8 }] });
    const ids = () => client.getQueryData<Listing<{ id: number }>>(key)?.data.map((r) => r.id);
    const approve = (id: number): DecisionInput => ({ id, decision: 'approve' });

    assert.equal(await run(client, decisionChange(client, 'deposit'), agreed, approve(5)), 'done');
    assert.deepEqual(ids(), [3, 8], 'decided: it left the queue');

    assert.equal(await run(client, decisionChange(client, 'deposit'), refused, approve(3)), 'refused');
    assert.deepEqual(ids(), [3, 8], 'refused: back, oldest first');

    const refetchedFirst = decisionChange(client, 'deposit');
    const observer = new MutationObserver(client, {
      ...refetchedFirst,
      mutationFn: async () => {
        client.setQueryData<Listing<{ id: number }>>(key, { status: 'success', data: [{ id: 3 }, { id: 8 }] });
        throw new Error('Refused');
      },
    });
    await observer.mutate(approve(8)).catch(() => undefined);
    assert.deepEqual(ids(), [3, 8], 'not doubled');
  });

  it('a refused close puts the trade back, with its trader and the floating total, only on the pages that showed it', async () => {
    const client = new QueryClient();
    const group = (traderId: number, trades: { tradeId: number; profit: string | null }[]) => ({ traderId, trades }) as unknown as OpenTradesGroup;
    const answer = (groups: OpenTradesGroup[], floatingProfit: string) => ({ status: 'success', total: groups.length, trades: groups.reduce((n, g) => n + g.trades.length, 0), floatingProfit, data: groups }) as CallOutput<'getOpenTrades'>;
    const first = adminQueryKeys.openTradesList({ limit: 10, offset: 0 });
    const other = adminQueryKeys.openTradesList({ search: 'nobody', limit: 10, offset: 0 });
    const before = answer([group(7, [{ tradeId: 70, profit: '12.50' }]), group(9, [{ tradeId: 90, profit: '-2.00' }, { tradeId: 91, profit: null }])], '10.50');
    client.setQueryData(first, before);
    client.setQueryData(other, answer([], '0.00'));

    const observer = new MutationObserver(client, { ...closeTradeChange(client), mutationFn: () => new Promise((_resolve, reject) => setTimeout(() => reject(new Error('Market Closed')), 20)) });
    const sent = observer.mutate({ traderId: 7, ticket: 70 }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const during = client.getQueryData<CallOutput<'getOpenTrades'>>(first);
    assert.deepEqual(during?.data.map((g) => g.traderId), [9], 'their last trade closed: the trader leaves the page');
    assert.deepEqual([during?.total, during?.trades, during?.floatingProfit], [1, 2, '-2.00']);
    await sent;
    assert.deepEqual(client.getQueryData(first), before, 'refused: the page as it was');
    assert.deepEqual(client.getQueryData<CallOutput<'getOpenTrades'>>(other)?.data, [], 'a page that never showed it stays without it');
  });
});
