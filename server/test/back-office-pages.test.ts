import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { toCents } from '../src/domain/money';
import { openTradesPage, type HeldTrade, type OpenTradesGroup } from '../src/services/admin-open-trades';

/**
 * The back office's open-trades page without HTTP, against the whole list filtered and cut the
 * obvious way (the users table's pages are paged by the database: users-list.test.ts).
 */

describe('back-office pages', () => {
  test('an open-trades page: a trader matched by name keeps every trade, otherwise the matching trades; the floating profit is exact to the cent', () => {
    const groups: OpenTradesGroup<HeldTrade>[] = [
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
    // The rows shown carry the profit as text only.
    assert.deepEqual(Object.keys(all.data[0]!.trades[0]!).sort(), ['fullSymbol', 'orginalPrice', 'profit', 'timeStamp', 'tradeId', 'tradesTypesName', 'volume']);
  });
});

function trade(tradeId: number, fullSymbol: string, profit: string | null): HeldTrade {
  return { tradeId, fullSymbol, timeStamp: '2026-01-01T00:00:00.000Z', volume: 0.1, orginalPrice: 1, tradesTypesName: 'buy', profit, profitCents: profit === null ? null : toCents(profit) };
}
