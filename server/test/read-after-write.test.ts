import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { calls } from '@tradeport/contracts';
import { startApp, type TestApp } from './helpers/app';
import type { Client, SignedInTrader } from './helpers/client';
import { liveAccountOf } from './helpers/accounts';
import { closePosition, openPosition, push, tradingDesk } from './helpers/trading';

/**
 * The back office's and the market's reads. Each test reads once, changes one thing the answer
 * shows, and reads again: the change must show at once, never an answer from before it (the
 * positions' valuations are kept between ticks, see trading/valuations.ts; nothing else is).
 */
describe('answers change as soon as what they show changes', () => {
  let t: TestApp;
  let admin: Client;
  let trader: SignedInTrader;
  let gateway: number;

  before(async () => {
    t = await startApp();
    const desk = await tradingDesk(t);
    admin = desk.admin;
    gateway = desk.gateway;
    trader = await desk.fundedTrader('10000.00', { firstName: 'Kept', remember: true });
    await push(t, 'EURUSD', 1.1, 1.1002);
  });
  after(() => t.close());

  const get = async (client: Client, path: string) => {
    const r = await client.get(path);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body as Record<string, unknown> & { data: Record<string, unknown>[] };
  };
  const traderRow = async () => (await get(admin, calls.getTraders.path)).data.find((u) => u.id === trader.id);
  const details = async () => (await get(admin, `${calls.getTraderDetails.path}?traderId=${trader.id}`)) as unknown as {
    profile: { status: string };
    account: { profit: string; balance: string; openPositions: number; pendingOrders: number };
    openTrades: { ticket: number; stopLoss: number; profit: string | null }[];
  };

  test('getTraders: a balance change, the online window passing and signing out each show on the next read', async () => {
    const first = await traderRow();
    assert.deepEqual([first?.balance, first?.status], ['10000.00', 'Online']);
    assert.deepEqual(await traderRow(), first, 'the same answer while nothing changed');

    const d = await trader.client.post(calls.addDeposite.path, { depositAmount: '50.00', paymentAccount: '1234', payment_getways_id: gateway });
    await admin.post(calls.editStatusDeposite.path, { deposites_id: d.body.id, status: 1 });
    assert.equal((await traderRow())?.balance, '10050.00');

    // No request from the trader for longer than the online window: Offline with nothing written
    // (the administrator's own requests 11 s apart are too close together to record them again).
    t.clock.advance(t.config.onlineWindowMs - 10_000);
    assert.equal((await traderRow())?.status, 'Online');
    t.clock.advance(11_000);
    assert.equal((await traderRow())?.status, 'Offline');
    // Back again (the request records when they were seen): Online.
    await get(trader.client, calls.getProfileDetails.path);
    assert.equal((await traderRow())?.status, 'Online');

    const other = await tradingDesk(t, 'Second bank').then((desk) => desk.fundedTrader('10.00'));
    const row = async () => (await get(admin, calls.getTraders.path)).data.find((u) => u.id === other.id);
    assert.equal((await row())?.status, 'Online');
    await other.client.post(calls.logout.path, {});
    assert.equal((await row())?.status, 'Offline');
  });

  test('getTraderDetails and getOpenTrades: a tick, a new stop loss, an opened and a closed position each show on the next read', async () => {
    await push(t, 'EURUSD', 1.1, 1.1002);
    const ticket = await openPosition(trader.client, { side: 'buy', volume: 0.1 });
    await push(t, 'EURUSD', 1.101, 1.1012);
    const a = await details();
    assert.deepEqual(a.openTrades.map((p) => [p.ticket, p.profit]), [[ticket, '8.00']]);
    assert.equal(a.account.profit, '8.00');
    assert.deepEqual(await details(), a, 'the same answer while nothing changed');

    await push(t, 'EURUSD', 1.102, 1.1022);
    const b = await details();
    assert.deepEqual([b.openTrades[0]?.profit, b.account.profit], ['18.00', '18.00']);

    // Written to the database only (no position, no price moves): a pending order and a deposit.
    const order = await trader.client.post(calls.addPendingOrder.path, { fullSymbol: 'EURUSD', orderType: 'Buy Limit', volume: 0.1, price: 1.05 });
    assert.equal(order.body.status, 'success', JSON.stringify(order.body));
    const c = await details();
    assert.equal(c.account.pendingOrders, b.account.pendingOrders + 1);
    const d = await trader.client.post(calls.addDeposite.path, { depositAmount: '20.00', paymentAccount: '1234', payment_getways_id: gateway });
    await admin.post(calls.editStatusDeposite.path, { deposites_id: d.body.id, status: 1 });
    assert.equal((await details()).account.balance, '10070.00');

    const modified = await trader.client.post(calls.modifyTrades.path, { ticket, stopLoss: 1.09, takeProfit: 0 });
    assert.equal(modified.body.status, 'success', JSON.stringify(modified.body));
    assert.equal((await details()).openTrades[0]?.stopLoss, 1.09);

    const openTrades = async () => ((await get(admin, calls.getOpenTrades.path)).data as { traderId: number; trades: { tradeId: number; profit: string | null }[] }[]).find((g) => g.traderId === trader.id)?.trades ?? [];
    assert.deepEqual((await openTrades()).map((p) => [p.tradeId, p.profit]), [[ticket, '18.00']]);
    await push(t, 'EURUSD', 1.1015, 1.1017);
    assert.deepEqual((await openTrades()).map((p) => p.profit), ['13.00']);
    const second = await openPosition(trader.client, { side: 'sell', volume: 0.1 });
    assert.deepEqual((await openTrades()).map((p) => p.tradeId), [ticket, second]);
    assert.equal((await details()).account.openPositions, 2);
    await closePosition(trader.client, ticket);
    await closePosition(trader.client, second);
    assert.deepEqual(await openTrades(), []);
    assert.deepEqual((await details()).openTrades, []);

    t.clock.advance(t.config.onlineWindowMs - 10_000);
    assert.equal((await details()).profile.status, 'Online');
    t.clock.advance(11_000);
    assert.equal((await details()).profile.status, 'Offline');
  });

  test('getTraderDetails: an answer whose reads a tick overtook is at that tick; a write during its reads, or a later tick, shows on the next read', async () => {
    const engine = t.app.trading;
    const account = engine.account.bind(engine);
    const traderAccount = (await liveAccountOf(t.ctx.db, trader.id)).id;
    /** The trader's page, with `during` run while its account row is read (as ticks and writes come while requests queue on a busy server). */
    const overtakenBy = async (during: () => Promise<unknown>) => {
      let ran = false;
      engine.account = async (accountId, trx) => {
        if (accountId === traderAccount && !ran) {
          ran = true;
          await during();
        }
        return account(accountId, trx);
      };
      try {
        const answer = await details();
        assert.ok(ran, 'it came during the reads');
        return answer;
      } finally {
        engine.account = account;
      }
    };
    await push(t, 'EURUSD', 1.1, 1.1002);
    const ticket = await openPosition(trader.client, { side: 'buy', volume: 0.1 });
    try {
      await push(t, 'EURUSD', 1.101, 1.1012);
      const overtaken = await overtakenBy(() => push(t, 'EURUSD', 1.103, 1.1032));
      assert.deepEqual([overtaken.openTrades[0]?.profit, overtaken.account.profit], ['28.00', '28.00'], 'the answer is at the tick that overtook its reads');
      assert.deepEqual(await details(), overtaken, 'the same answer while nothing moved');

      // A write during the reads: the next read shows it.
      const balance = Number((await details()).account.balance);
      const d = await trader.client.post(calls.addDeposite.path, { depositAmount: '30.00', paymentAccount: '1234', payment_getways_id: gateway });
      await overtakenBy(() => admin.post(calls.editStatusDeposite.path, { deposites_id: d.body.id, status: 1 }));
      assert.equal((await details()).account.balance, (balance + 30).toFixed(2), 'a deposit approved during the reads');

      await push(t, 'EURUSD', 1.104, 1.1042);
      const after = await details();
      assert.deepEqual([after.openTrades[0]?.profit, after.account.profit], ['38.00', '38.00'], 'the next tick shows');
    } finally {
      await closePosition(trader.client, ticket);
    }
  });

  test('a position\'s profit is valued again when its own quote or its conversion rate moves, and kept on any other tick', async () => {
    const engine = t.app.trading;
    await push(t, 'USDJPY', 150, 150.02);
    await push(t, 'EURJPY', 162, 162.03);
    const ticket = await openPosition(trader.client, { side: 'buy', volume: 0.1, symbol: 'EURJPY' });
    try {
      const position = engine.get(ticket);
      assert.ok(position);
      const profit = engine.floatingProfit(position);
      assert.ok(profit);
      await push(t, 'GBPUSD', 1.27, 1.2702);
      assert.equal(engine.floatingProfit(position), profit, 'the same valuation after a tick on a symbol it neither holds nor converts through');
      await push(t, 'USDJPY', 149, 149.02);
      const converted = engine.floatingProfit(position);
      assert.notEqual(converted, profit, 'valued again after its conversion rate moved');
      // (162 − 162.03) × 100,000 × 0.1 JPY at 149 JPY a dollar
      assert.equal(converted?.toFixed(6), (-300 / 149).toFixed(6));
      await push(t, 'EURJPY', 162.5, 162.53);
      const trades = (await get(trader.client, calls.getTrades.path)).data;
      assert.equal(trades.find((r) => r.ticket === ticket)?.profit, ((0.47 * 10_000) / 149).toFixed(2), 'getTrades at the new quote');
      assert.equal((await details()).openTrades.find((r) => r.ticket === ticket)?.profit, ((0.47 * 10_000) / 149).toFixed(2), 'the trader page at the new quote');
    } finally {
      await closePosition(trader.client, ticket);
    }
  });

  test('getClosedTrades and getMoneyRequests: a new row shows on the next read of the same page', async () => {
    const closed = async () => (await get(admin, `${calls.getClosedTrades.path}?traderId=${trader.id}`)) as unknown as { total: number; data: { ID: number }[] };
    const before = await closed();
    await push(t, 'EURUSD', 1.1, 1.1002);
    const ticket = await openPosition(trader.client, { side: 'buy', volume: 0.1 });
    await closePosition(trader.client, ticket);
    const after = await closed();
    assert.equal(after.total, before.total + 1);
    assert.equal(after.data[0]?.ID, ticket);

    const requests = async () => (await get(admin, `${calls.getMoneyRequests.path}?traderId=${trader.id}`)) as unknown as { total: number; data: { id: number; status: string }[] };
    const r0 = await requests();
    const d = await trader.client.post(calls.addDeposite.path, { depositAmount: '5.00', paymentAccount: '1234', payment_getways_id: gateway });
    const r1 = await requests();
    assert.equal(r1.total, r0.total + 1);
    assert.deepEqual([r1.data[0]?.id, r1.data[0]?.status], [d.body.id, '0']);
    await admin.post(calls.editStatusDeposite.path, { deposites_id: d.body.id, status: 2 });
    assert.equal((await requests()).data[0]?.status, '2');
  });

  test('getCandles and getMarketSummary: a tick and a quote going stale show on the next read', async () => {
    const candlesPath = `${calls.getCandles.path}?symbol=EURUSD&period=M1&limit=10`;
    await push(t, 'EURUSD', 1.103, 1.1032);
    const c1 = (await get(trader.client, candlesPath)).data;
    assert.equal(c1.at(-1)?.close, 1.103);
    await push(t, 'EURUSD', 1.1041, 1.1043);
    const c2 = (await get(trader.client, candlesPath)).data;
    assert.equal(c2.at(-1)?.close, 1.1041);
    assert.equal(c2.at(-1)?.high, 1.1041);

    const eurusd = async () => (await get(trader.client, calls.getMarketSummary.path)).data.find((r) => r.symbol === 'EURUSD');
    const s1 = await eurusd();
    assert.deepEqual([s1?.bid, s1?.stale], [1.1041, false]);
    await push(t, 'EURUSD', 1.1045, 1.1047);
    assert.equal((await eurusd())?.bid, 1.1045);
    // No tick for longer than the stale limit: the same prices, now flagged stale.
    t.clock.advance(t.config.market.staleAfterMs + 1000);
    assert.deepEqual([(await eurusd())?.bid, (await eurusd())?.stale], [1.1045, true]);
  });
});
