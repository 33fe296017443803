import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatCents, toCents, type Cents } from '../src/domain/money';
import { openTradesPage, type Holding, type TraderNames } from '../src/services/admin-open-trades';

/**
 * The back office's open-trades page without HTTP, against the whole list filtered and cut the
 * obvious way (the users table's pages are paged by the database: users-list.test.ts).
 */

interface Held {
  id: number;
  symbol: string;
  profit: Cents | null;
  account: number;
}

describe('back-office pages', () => {
  test('an open-trades page: a trader matched by name keeps every trade, otherwise the trades matching by symbol, ticket or account; the floating profit is exact to the cent', () => {
    const holdings: Holding<Held>[] = [
      { traderId: 1, positions: [held(11, 'EURUSD', '0.10'), held(12, 'GBPUSD', '0.20')] },
      { traderId: 2, positions: [held(21, 'XAUUSD', '-0.30'), held(112, 'BTCUSD', null, 55500020)] },
      { traderId: 3, positions: [held(31, 'EURUSD', '1000000.01')] },
    ];
    const names = new Map<number, TraderNames>([
      [1, { first_name: 'Ann', last_name: 'Lee', email: 'ann@example.com' }],
      [2, { first_name: 'Bo', last_name: 'Eur', email: 'bo@example.com' }],
      [3, { first_name: 'Cy', last_name: 'Z', email: 'cy@example.com' }],
    ]);
    const page = (h: readonly Holding<Held>[], query: Parameters<typeof openTradesPage>[1]) => {
      const r = openTradesPage(h, query, names, (p) => p.profit, (p) => p.account);
      return { ...r, floatingProfit: formatCents(r.floatingCents), ids: r.page.map((g) => g.traderId), tickets: r.page.map((g) => g.positions.map((p) => p.id)) };
    };
    const all = page(holdings, {});
    assert.deepEqual([all.total, all.trades, all.floatingProfit, all.ids], [3, 5, '1000000.01', [1, 2, 3]]);
    // 0.10 + 0.20 − 0.30 is 0.00 exactly (no binary fractions).
    assert.equal(page(holdings.slice(0, 2), {}).floatingProfit, '0.00');
    // "eur" is Bo's last name (all his trades) and a symbol of Ann's and Cy's.
    const eur = page(holdings, { search: 'EUR' });
    assert.deepEqual(eur.page.map((g) => [g.traderId, g.positions.map((p) => p.id)]), [[1, [11]], [2, [21, 112]], [3, [31]]]);
    assert.deepEqual([eur.total, eur.trades, eur.floatingProfit], [3, 4, '999999.81']);
    // An email matches too.
    assert.deepEqual(page(holdings, { search: 'cy@' }).ids, [3]);
    // A ticket, with or without #: "#12" is in 12 and 112.
    assert.deepEqual(page(holdings, { search: '#12' }).tickets, [[12], [112]]);
    // An account number: Bo's second account holds 112.
    assert.deepEqual(page(holdings, { search: '5550002' }).tickets, [[112]]);
    const paged = page(holdings, { limit: 1, offset: 1 });
    assert.deepEqual([paged.total, paged.trades, paged.ids], [3, 5, [2]]);
    assert.deepEqual(page(holdings, { offset: 5 }).page, []);
  });
});

function held(id: number, symbol: string, profit: string | null, account = 10000000 + id): Held {
  return { id, symbol, profit: profit === null ? null : toCents(profit), account };
}
