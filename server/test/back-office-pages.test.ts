import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { traderSortKeys, type TraderRow, type TraderSortKey } from '@tradeport/contracts';
import fc from 'fast-check';
import { openTradesPage, type OpenTradesGroup } from '../src/services/admin-open-trades';
import { onlineUsers, tradersPage, type UserListSources } from '../src/services/admin-users';
import type { ServiceContext } from '../src/services/context';

/**
 * The back office's server-side pages without HTTP: who is online at a time, against the rule
 * written out, and a page of the users table or of the open trades against the whole list filtered,
 * ordered and cut the obvious way.
 */

const WINDOW = 300_000;
const ctx = { config: { onlineWindowMs: WINDOW } } as unknown as ServiceContext;

describe('back-office pages', () => {
  test('onlineUsers names who the rule says is online at that time, its edges included', () => {
    const session = fc.record({ last_seen_at: fc.option(fc.integer({ min: 0, max: 2_000_000 })), expires_at: fc.option(fc.integer({ min: 0, max: 3_000_000 })) });
    fc.assert(
      fc.property(fc.array(session, { maxLength: 30 }), fc.array(fc.integer({ min: 0, max: 3_000_000 }), { minLength: 1, maxLength: 40 }), (rows, times) => {
        const sessions = rows.map((r, i) => ({ user_id: i + 1, ...r }));
        const sources = { users: [], totals: [], sessions } as unknown as UserListSources;
        // Each row's edges (the last moment seen counts, the session's end does not) and either side
        // of them, among random times.
        const edges = sessions.flatMap((s) => [s.last_seen_at === null ? [] : [s.last_seen_at + WINDOW], s.expires_at === null ? [] : [s.expires_at]].flat().flatMap((t) => [t - 1, t, t + 1]));
        for (const now of [...times, ...edges].sort((a, b) => a - b)) {
          const expected = sessions
            .filter((s) => s.expires_at !== null && s.expires_at > now && s.last_seen_at !== null && now - s.last_seen_at <= WINDOW)
            .map((s) => s.user_id);
          assert.deepEqual(onlineUsers(ctx, sources, now), expected, `at ${now}`);
        }
      }),
      { numRuns: 300 },
    );
  });

  const row = (id: number, o: Partial<TraderRow>): TraderRow => ({
    id,
    firstName: 'A',
    lastName: 'B',
    email: `u${id}@example.com`,
    phoneNo: '',
    countryName: '',
    countryCode: '',
    balance: '0.00',
    totalDeposite: '0.00',
    totalCredit: '0.00',
    totalWithdrawals: '0.00',
    isActive: '1',
    status: 'Offline',
    accountType: '0',
    isReserved: false,
    lastSeen: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    ...o,
  });

  test('a users page holds the matching rows in the asked order from offset, and counts every match', () => {
    const name = fc.constantFrom('ann', 'Ann', 'bob', 'Böb', 'zoe', '');
    const cents = fc.integer({ min: -100_000, max: 100_000 }).map((c) => (c / 100).toFixed(2));
    const fields = fc.record({
      firstName: name,
      lastName: name,
      phoneNo: fc.constantFrom('', '4477', '4915', '1212'),
      countryName: fc.constantFrom('', 'Austria', 'Belgium', 'austria', 'Zambia'),
      balance: cents,
      totalDeposite: cents,
      totalCredit: cents,
      totalWithdrawals: cents,
      isActive: fc.constantFrom('1', '0'),
      status: fc.constantFrom('Online', 'Offline'),
      accountType: fc.constantFrom('0', '1'),
    });
    const table = fc.uniqueArray(fc.integer({ min: 1, max: 500 }), { maxLength: 25 }).chain((ids) => fc.tuple(...[...ids].sort((a, b) => a - b).map((id) => fields.map((o) => row(id, o as Partial<TraderRow>)))));
    const query = fc.record(
      {
        search: fc.constantFrom('a', 'an', 'b', 'u1', 'z', 'x', '44', 'aus', 'bel'),
        role: fc.constantFrom('trader' as const, 'admin' as const),
        sort: fc.constantFrom(...traderSortKeys),
        direction: fc.constantFrom('asc' as const, 'desc' as const),
        limit: fc.integer({ min: 1, max: 10 }),
        offset: fc.integer({ min: 0, max: 30 }),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(table, query, (rows, q) => {
        const text = q.search ?? '';
        const full = (t: TraderRow) => `${t.firstName} ${t.lastName}`.trim();
        let expected = rows.filter(
          (t) => (q.role === undefined || t.accountType === (q.role === 'admin' ? '1' : '0')) && (text === '' || [full(t), t.lastName, t.email, t.phoneNo, t.countryName].some((f) => f.toLowerCase().startsWith(text))),
        );
        const matched = expected.length;
        const sign = q.direction === 'desc' ? -1 : 1;
        const collate = new Intl.Collator('en', { sensitivity: 'base' });
        // Written out per column, so a column ordered by another's field fails.
        const value: Record<TraderSortKey, (t: TraderRow) => string | number> = {
          name: full,
          country: (t) => t.countryName,
          balance: (t) => Number(t.balance),
          deposits: (t) => Number(t.totalDeposite),
          credit: (t) => Number(t.totalCredit),
          withdrawals: (t) => Number(t.totalWithdrawals),
          active: (t) => (t.isActive === '1' ? 'a' : 'b'),
          online: (t) => (t.status === 'Online' ? 'a' : 'b'),
        };
        if (q.sort !== undefined) {
          const of = value[q.sort]!;
          expected = [...expected].sort((a, b) => {
            const x = of(a);
            const y = of(b);
            const order = typeof x === 'number' ? x - (y as number) : collate.compare(x, y as string);
            return order === 0 ? a.id - b.id : order * sign;
          });
        } else if (q.direction === 'desc') expected = [...expected].reverse();
        const from = q.offset ?? 0;
        const page = tradersPage(rows, q);
        assert.deepEqual(page.data, q.limit === undefined ? expected.slice(from) : expected.slice(from, from + q.limit));
        assert.equal(page.total, matched);
        assert.equal(page.active, expected.filter((t) => t.isActive === '1').length);
        assert.equal(page.online, expected.filter((t) => t.status === 'Online').length);
      }),
      { numRuns: 300 },
    );
  });

  test('an open-trades page: a trader matched by name keeps every trade, otherwise the matching trades; the floating profit is exact to the cent', () => {
    const groups: OpenTradesGroup[] = [
      { traderId: 1, traderFirstName: 'Ann', traderLastName: 'Lee', traderEmail: 'ann@example.com', trades: [trade(11, 'EURUSD', '0.10'), trade(12, 'GBPUSD', '0.20')] },
      { traderId: 2, traderFirstName: 'Bo', traderLastName: 'Eur', traderEmail: 'bo@example.com', trades: [trade(21, 'XAUUSD', '-0.30'), trade(112, 'BTCUSD', null)] },
      { traderId: 3, traderFirstName: 'Cy', traderLastName: 'Z', traderEmail: 'cy@example.com', trades: [trade(31, 'EURUSD', '1000000.01')] },
    ];
    const all = openTradesPage(groups, {});
    assert.deepEqual([all.total, all.trades, all.floatingProfit, all.data.map((g) => g.traderId)], [3, 5, '1000000.01', [1, 2, 3]]);
    // 0.10 + 0.20 − 0.30 is 0.00 exactly (no binary fractions).
    assert.equal(openTradesPage(groups.slice(0, 2), {}).floatingProfit, '0.00');
    // "eur" is Bo's last name (all his trades) and a symbol of Ann's and Cy's.
    const eur = openTradesPage(groups, { search: 'EUR' });
    assert.deepEqual(eur.data.map((g) => [g.traderId, g.trades.map((t) => t.tradeId)]), [[1, [11]], [2, [21, 112]], [3, [31]]]);
    assert.deepEqual([eur.total, eur.trades, eur.floatingProfit], [3, 4, '999999.81']);
    // A ticket, with or without #: "#12" is in 12 and 112.
    assert.deepEqual(openTradesPage(groups, { search: '#12' }).data.map((g) => g.trades.map((t) => t.tradeId)), [[12], [112]]);
    const paged = openTradesPage(groups, { limit: 1, offset: 1 });
    assert.deepEqual([paged.total, paged.trades, paged.data.map((g) => g.traderId)], [3, 5, [2]]);
    assert.deepEqual(openTradesPage(groups, { offset: 5 }).data, []);
  });
});

function trade(tradeId: number, fullSymbol: string, profit: string | null): OpenTradesGroup['trades'][number] {
  return { tradeId, fullSymbol, timeStamp: '2026-01-01T00:00:00.000Z', volume: 0.1, orginalPrice: 1, tradesTypesName: 'buy', profit };
}
