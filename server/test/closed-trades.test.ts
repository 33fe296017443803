import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from './helpers/app';
import type { Client, SignedInTrader } from './helpers/client';
import { closePosition, openPosition, push, tradingDesk } from './helpers/trading';

/** The back office's User Closed Records: every trader's closed positions, with filters. */
describe('admin closed trades', () => {
  let t: TestApp;
  let admin: Client;
  let a: SignedInTrader;
  let b: SignedInTrader;

  before(async () => {
    t = await startApp();
    const desk = await tradingDesk(t);
    admin = desk.admin;
    a = await desk.fundedTrader('10000.00', { firstName: 'Alma' });
    b = await desk.fundedTrader('10000.00', { firstName: 'Bruno' });
    await push(t, 'EURUSD', 1.1, 1.1002);
    await push(t, 'BTCUSD', 60000, 60010);
    const open = (c: Client, symbol: string) => openPosition(c, { symbol, side: 'buy', volume: 0.1 });
    const t1 = await open(a.client, 'EURUSD');
    const t2 = await open(b.client, 'BTCUSD');
    await open(a.client, 'EURUSD'); // stays open
    await push(t, 'EURUSD', 1.101, 1.1012);
    await closePosition(a.client, t1);
    assert.equal((await admin.post('/dashboard/admin/editStatusTrades.php', { traders_id: b.id, ticket: t2 })).status, 200);
  });
  after(() => t.close());

  test('lists every trader’s closed positions, newest first, with who closed them and why', async () => {
    const r = await admin.get('/dashboard/admin/getClosedTrades.php');
    assert.equal(r.status, 200);
    assert.equal(r.body.total, 2);
    const [btc, eur] = r.body.data;
    assert.equal(btc.symbol, 'BTCUSD');
    assert.equal(btc.traderFirstName, 'Bruno');
    assert.equal(btc.closeReason, 'admin');
    assert.equal(btc.closedBy, 'admin@tradeport.test');
    assert.equal(eur.symbol, 'EURUSD');
    assert.equal(eur.traderId, a.id);
    assert.equal(eur.closeReason, 'manual');
    assert.equal(eur.lastPrice, 1.101);
    assert.equal(eur.profit, '8.00'); // (1.1010 − 1.1002) × 100,000 × 0.1
  });

  test('filters by trader and symbol, pages, and refuses unknown symbols', async () => {
    assert.deepEqual((await admin.get(`/dashboard/admin/getClosedTrades.php?traderId=${b.id}`)).body.data.map((d: { symbol: string }) => d.symbol), ['BTCUSD']);
    assert.deepEqual((await admin.get('/dashboard/admin/getClosedTrades.php?symbol=eurusd')).body.data.map((d: { traderId: number }) => d.traderId), [a.id]);
    const page = await admin.get('/dashboard/admin/getClosedTrades.php?limit=1&offset=1');
    assert.equal(page.body.total, 2);
    assert.equal(page.body.data.length, 1);
    assert.equal(page.body.data[0].symbol, 'EURUSD');
    assert.equal((await admin.get('/dashboard/admin/getClosedTrades.php?symbol=NOPE')).status, 400);
  });

  test('traders may not read it', async () => {
    assert.equal((await a.client.get('/dashboard/admin/getClosedTrades.php')).status, 403);
  });
});
