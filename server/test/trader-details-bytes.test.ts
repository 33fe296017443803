import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { calls } from '@tradeport/contracts';
import { formatCents } from '../src/domain/money';
import { traderIsOnline, traderProfile, traderSources } from '../src/services/admin-users';
import { listActivity } from '../src/services/profile-service';
import { figureTexts } from '../src/trading/account-figures';
import { startApp, type TestApp } from './helpers/app';
import type { Client, SignedInTrader } from './helpers/client';
import { openPosition, push, tradingDesk, type TradingDesk } from './helpers/trading';

/**
 * The trader page's answer is assembled from parts kept as UTF-8 (profile, pending orders,
 * activity) around the live part encoded per answer. Its bytes must be those of the answer written
 * whole with JSON.stringify from the same rows and figures, as it was before, and every part must
 * follow what it shows: a new pending order, a profile edit and a tick each change the bytes.
 */
describe('trader page assembled from kept bytes', () => {
  let t: TestApp;
  let admin: Client;
  let trader: SignedInTrader;
  let desk: TradingDesk;

  /** The answer's bytes as sent. */
  const sent = async (): Promise<Buffer> => {
    const res = await fetch(`${t.url}${calls.getTraderDetails.path}?traderId=${trader.id}`, { headers: { cookie: admin.cookieHeader } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json; charset=utf-8$/);
    const bytes = Buffer.from(await res.arrayBuffer());
    assert.equal(Number(res.headers.get('content-length')), bytes.length);
    return bytes;
  };

  /** The answer written whole by JSON.stringify, from the rows, figures and rows of the trader's own calls. */
  const whole = async (): Promise<Buffer> => {
    const ctx = t.app.services;
    const sources = await traderSources(ctx, trader.id);
    const { profile, totals } = traderProfile(sources, traderIsOnline(ctx, sources, ctx.now()));
    const figures = figureTexts(await t.app.trading.account(trader.id));
    const openTrades = (await trader.client.get(calls.getTrades.path)).body.data as unknown[];
    const pendingOrders = (await trader.client.get(`${calls.getPendingOrders.path}?status=pending`)).body.data as unknown[];
    const answer = {
      status: 'success',
      profile,
      account: {
        ...figures,
        totalDeposite: formatCents(totals.depositsCents),
        totalWithdrawals: formatCents(totals.withdrawalsCents),
        totalCredit: formatCents(totals.creditCents),
        openPositions: openTrades.length,
        pendingOrders: pendingOrders.length,
      },
      openTrades,
      pendingOrders,
      activity: await listActivity(ctx, trader.id, 50),
    };
    return Buffer.from(JSON.stringify(answer), 'utf8');
  };

  const assertWhole = async (what: string): Promise<Buffer> => {
    const bytes = await sent();
    assert.equal(bytes.toString('utf8'), (await whole()).toString('utf8'), what);
    assert.deepEqual(await sent(), bytes, `${what}: the same bytes again while nothing changed`);
    return bytes;
  };

  before(async () => {
    t = await startApp();
    desk = await tradingDesk(t);
    admin = desk.admin;
    trader = await desk.fundedTrader('10000.00', { firstName: 'Zoë' });
    await push(t, 'EURUSD', 1.1, 1.1002);
    await openPosition(trader.client, { side: 'buy', volume: 0.1 });
    await openPosition(trader.client, { side: 'sell', volume: 0.2 });
    const order = await trader.client.post(calls.addPendingOrder.path, { fullSymbol: 'EURUSD', orderType: 'Buy Limit', volume: 0.1, price: 1.05, comment: 'näive "quoted" €' });
    assert.equal(order.body.status, 'success', JSON.stringify(order.body));
    await push(t, 'EURUSD', 1.101, 1.1012);
  });
  after(() => t.close());

  test('equals the answer written whole, and changes with a pending order, a profile edit and a tick', async () => {
    const first = await assertWhole('with positions, a pending order and activity');
    const parsed = JSON.parse(first.toString('utf8')) as { openTrades: unknown[]; pendingOrders: unknown[]; activity: unknown[]; profile: { firstName: string } };
    assert.equal(parsed.openTrades.length, 2);
    assert.equal(parsed.pendingOrders.length, 1);
    assert.ok(parsed.activity.length > 0);
    assert.equal(parsed.profile.firstName, 'Zoë');

    const order = await trader.client.post(calls.addPendingOrder.path, { fullSymbol: 'EURUSD', orderType: 'Sell Limit', volume: 0.3, price: 1.2 });
    assert.equal(order.body.status, 'success', JSON.stringify(order.body));
    const second = await assertWhole('after a new pending order');
    assert.notDeepEqual(second, first);
    assert.equal((JSON.parse(second.toString('utf8')) as { pendingOrders: unknown[] }).pendingOrders.length, 2);

    const edit = await trader.client.post(calls.editProfileDetails.path, { firstName: 'Zoé', lastName: 'Ünal', phoneNo: '4915112345678', country_id: '840', dateOfBirth: '1990-01-02', nationality: 'German' });
    assert.equal(edit.body.status, 'success', JSON.stringify(edit.body));
    const third = await assertWhole('after a profile edit');
    assert.notDeepEqual(third, second);
    assert.equal((JSON.parse(third.toString('utf8')) as { profile: { firstName: string } }).profile.firstName, 'Zoé');

    await push(t, 'EURUSD', 1.1023, 1.1025);
    const fourth = await assertWhole('after a tick');
    assert.notDeepEqual(fourth, third);
    // Only the live part moved: the same profile and pending orders around it.
    const [a, b] = [third, fourth].map((x) => JSON.parse(x.toString('utf8')) as { profile: unknown; pendingOrders: unknown; account: { profit: string } });
    assert.deepEqual(b?.profile, a?.profile);
    assert.deepEqual(b?.pendingOrders, a?.pendingOrders);
    assert.notEqual(b?.account.profit, a?.account.profit);
  });

  // The open trades go into the answer row by row (each row's kept JSON a piece of its own, the
  // commas between them and the list's closing bracket as bytes): the list must come out as
  // JSON.stringify writes it with no row, one, and several, and with text that is not ASCII in a row.
  test('equals the answer written whole with no open trade, one, and three (one commented in non-ASCII text)', async () => {
    trader = await desk.fundedTrader('10000.00');
    const count = async () => (JSON.parse((await sent()).toString('utf8')) as { openTrades: unknown[] }).openTrades.length;
    await assertWhole('with no open trade');
    assert.equal(await count(), 0);
    await openPosition(trader.client, { side: 'buy', volume: 0.1 });
    await assertWhole('with one open trade');
    assert.equal(await count(), 1);
    await openPosition(trader.client, { side: 'sell', volume: 0.1, comment: 'Grüße — 取引 "x"' });
    await openPosition(trader.client, { side: 'buy', volume: 0.3 });
    await push(t, 'EURUSD', 1.1031, 1.1033);
    await assertWhole('with three open trades, after a tick');
    assert.equal(await count(), 3);
  });
});
