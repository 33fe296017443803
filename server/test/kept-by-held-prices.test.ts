import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { calls } from '@tradeport/contracts';
import { startApp, type TestApp } from './helpers/app';
import type { Client, SignedInTrader } from './helpers/client';
import { openPosition, pushTicks, tradingDesk } from './helpers/trading';

/**
 * Answers that show live figures (getMargins, getTraderDetails, getOpenTrades, getTrades) are kept
 * while the quotes those figures were computed from are the same: a position's own symbol and the
 * conversion rates of its profit and margin, not the whole quote book. A EURGBP position converts
 * its profit through GBPUSD and its margin through EURUSD: a tick on either must show at once, and a
 * tick on a symbol it does not read (USDJPY) must leave the answer as it was, given again.
 */
describe('live figures are kept per the quotes they read', () => {
  let t: TestApp;
  let admin: Client;
  let trader: SignedInTrader;
  let ticket: number;

  const START = [
    { symbol: 'EURUSD', bid: 1.1, ask: 1.1002 },
    { symbol: 'GBPUSD', bid: 1.25, ask: 1.2502 },
    { symbol: 'EURGBP', bid: 0.88, ask: 0.8802 },
    { symbol: 'USDJPY', bid: 150, ask: 150.02 },
  ];

  before(async () => {
    t = await startApp();
    const desk = await tradingDesk(t, 'Held prices bank');
    admin = desk.admin;
    trader = await desk.fundedTrader('10000.00', { firstName: 'Held' });
    await pushTicks(t, START);
    ticket = await openPosition(trader.client, { symbol: 'EURGBP', side: 'buy', volume: 0.1 });
    // Profit (0.8810 − 0.8802) × 100,000 × 0.1 = 8 GBP = 10.00 USD at GBPUSD 1.25.
    await pushTicks(t, [{ symbol: 'EURGBP', bid: 0.881, ask: 0.8812 }]);
  });
  after(() => t.close());

  const get = async (client: Client, path: string) => {
    const r = await client.get(path);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body as Record<string, unknown>;
  };
  const margins = async () => (await get(trader.client, calls.getMargins.path)) as Record<string, string>;
  const details = async () => (await get(admin, `${calls.getTraderDetails.path}?traderId=${trader.id}`)) as { account: Record<string, unknown>; openTrades: { ticket: number; profit: string | null; bid: number | null }[] };
  const openTrades = async () => ((await get(admin, calls.getOpenTrades.path)).data as { traderId: number; trades: { tradeId: number; profit: string | null }[] }[]).find((g) => g.traderId === trader.id)?.trades;
  const trades = async () => (await get(trader.client, calls.getTrades.path)).data as { ticket: number; profit: string | null; bid: number | null }[];

  /** Reads every answer twice around `tick`: the second read is what shows after it. */
  const everything = async () => ({ margins: await margins(), details: await details(), openTrades: await openTrades(), trades: await trades() });

  test('a tick on a symbol the position does not read gives every answer again unchanged', async () => {
    const first = await everything();
    assert.equal(first.margins.profit, '10.00');
    assert.deepEqual(first.openTrades?.map((p) => [p.tradeId, p.profit]), [[ticket, '10.00']]);
    await pushTicks(t, [{ symbol: 'USDJPY', bid: 150.5, ask: 150.52 }]);
    assert.deepEqual(await everything(), first);
  });

  test('a tick on the profit’s conversion rate (GBPUSD) shows at once in every answer', async () => {
    await everything();
    await pushTicks(t, [{ symbol: 'GBPUSD', bid: 1.3, ask: 1.3002 }]);
    const after = await everything();
    // 8 GBP at 1.30 = 10.40 USD.
    assert.equal(after.margins.profit, '10.40');
    assert.equal(after.margins.equity, '10010.40');
    assert.equal(after.details.account.profit, '10.40');
    assert.deepEqual(after.details.openTrades.map((p) => p.profit), ['10.40']);
    assert.deepEqual(after.openTrades?.map((p) => p.profit), ['10.40']);
    assert.deepEqual(after.trades.map((p) => p.profit), ['10.40']);
  });

  test('a tick on the margin’s conversion rate (EURUSD) shows at once; the profit stays', async () => {
    const before = await everything();
    // Margin: 0.1 × 100,000 EUR / 100 = 100 EUR, at EURUSD's bid.
    assert.equal(before.margins.totalMargin, '110.00');
    await pushTicks(t, [{ symbol: 'EURUSD', bid: 1.2, ask: 1.2002 }]);
    const after = await everything();
    assert.equal(after.margins.totalMargin, '120.00');
    assert.equal(after.details.account.totalMargin, '120.00');
    assert.equal(after.margins.freeMargin, (Number(after.margins.equity) - 120).toFixed(2));
    assert.equal(after.margins.profit, before.margins.profit);
  });

  test('a tick on the position’s own symbol shows at once, its bid in the rows too', async () => {
    await everything();
    await pushTicks(t, [{ symbol: 'EURGBP', bid: 0.882, ask: 0.8822 }]);
    const after = await everything();
    // (0.8820 − 0.8802) × 10,000 = 18 GBP at GBPUSD 1.30 = 23.40 USD.
    assert.equal(after.margins.profit, '23.40');
    assert.deepEqual(after.details.openTrades.map((p) => [p.profit, p.bid]), [['23.40', 0.882]]);
    assert.deepEqual(after.trades.map((p) => [p.profit, p.bid]), [['23.40', 0.882]]);
    assert.deepEqual(after.openTrades?.map((p) => p.profit), ['23.40']);
  });

  test('the trader page, assembled from parts, answers its fields in the order of the whole answer', async () => {
    const body = (await admin.get(`${calls.getTraderDetails.path}?traderId=${trader.id}`)).body as Record<string, Record<string, unknown>>;
    calls.getTraderDetails.response.parse(body);
    assert.deepEqual(Object.keys(body), ['status', 'profile', 'account', 'openTrades', 'pendingOrders', 'activity']);
    assert.deepEqual(Object.keys(body.account ?? {}), ['totalMargin', 'balance', 'credit', 'profit', 'equity', 'freeMargin', 'marginLevel', 'totalDeposite', 'totalWithdrawals', 'totalCredit', 'openPositions', 'pendingOrders']);
    assert.deepEqual([body.account?.totalDeposite, body.account?.openPositions, body.account?.pendingOrders], ['10000.00', 1, 0]);
  });

  test('a position opened in another symbol adds its prices: a tick there shows at once', async () => {
    await pushTicks(t, [{ symbol: 'USDJPY', bid: 150, ask: 150.02 }]);
    const jpy = await openPosition(trader.client, { symbol: 'USDJPY', side: 'buy', volume: 0.1 });
    const before = await everything();
    assert.deepEqual(before.openTrades?.map((p) => p.tradeId), [ticket, jpy]);
    // (151 − 150.02) × 10,000 = 9,800 JPY, at USDJPY 151 = 64.90 USD (64.9006…).
    await pushTicks(t, [{ symbol: 'USDJPY', bid: 151, ask: 151.02 }]);
    const after = await everything();
    assert.deepEqual(after.openTrades?.map((p) => p.profit), ['23.40', '64.90']);
    assert.deepEqual(after.details.openTrades.map((p) => p.profit), ['23.40', '64.90']);
    assert.equal(after.margins.profit, '88.30');
  });
});
