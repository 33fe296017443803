import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { FEED_TOKEN, startApp, type TestApp } from './helpers/app';
import { fund, paymentAccount, signedInAdmin, signedInTrader, type Client } from './helpers/client';

/** The back office's User Closed Records: every trader's closed positions, with filters. */
describe('admin closed trades', () => {
  let t: TestApp;
  let admin: Client;
  let a: Awaited<ReturnType<typeof signedInTrader>>;
  let b: Awaited<ReturnType<typeof signedInTrader>>;

  const push = (symbol: string, bid: number, ask: number) =>
    fetch(`${t.url}/feed/ticks`, { method: 'POST', headers: { authorization: `Bearer ${FEED_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ ticks: [{ symbol, bid, ask }] }) });

  before(async () => {
    t = await startApp();
    admin = await signedInAdmin(t);
    const gateway = await paymentAccount(admin);
    a = await signedInTrader(t, { firstName: 'Alma' });
    b = await signedInTrader(t, { firstName: 'Bruno' });
    await fund(a.client, admin, gateway, '10000.00');
    await fund(b.client, admin, gateway, '10000.00');
    await push('EURUSD', 1.1, 1.1002);
    await push('BTCUSD', 60000, 60010);
    const open = async (c: Client, fullSymbol: string) => (await c.post('/platform/addTrades.php', { fullSymbol, tradestypes: 'buy', volume: 0.1 })).body.ticket as number;
    const t1 = await open(a.client, 'EURUSD');
    const t2 = await open(b.client, 'BTCUSD');
    await open(a.client, 'EURUSD'); // stays open
    await push('EURUSD', 1.101, 1.1012);
    assert.equal((await a.client.post('/platform/updateTrades.php', { ticket: t1 })).status, 200);
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
