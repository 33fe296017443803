import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { calls, type NotificationRow } from '@tradeport/contracts';
import { startApp, type TestApp } from './helpers/app';
import type { Client } from './helpers/client';
import { ASK, BID, assertFailure, eventually, openPosition, push, roomyLimits, tradingDesk, type TradingDesk } from './helpers/trading';

/**
 * Notifications (docs/design.md#notifications): what the bell lists is written in the transaction of
 * the change it tells of — a stop loss, a decided deposit, a fired alert — once; read or unread is
 * kept on the server; per kind a trader may have them mailed too.
 */
const bell = async (client: Client) => (await client.get(calls.getNotifications.path)).body as { unread: number; data: NotificationRow[] };

describe('notifications', () => {
  let t: TestApp;
  let desk: TradingDesk;

  before(async () => {
    t = await startApp({ config: roomyLimits });
    desk = await tradingDesk(t, 'Notifications bank');
  });
  after(() => t.close());

  test('a decided deposit, a stop loss and a fired alert each notify once; the trader\'s own close does not; read is kept per notification', async () => {
    // The deposit that funds the trader is approved by the back office: the first notification.
    const { client } = await desk.fundedTrader('10000.00');
    let b = await bell(client);
    assert.deepEqual(b.data.map((n) => [n.kind, n.title, n.read]), [['money', 'Deposit approved', false]]);
    assert.match(b.data[0]!.body, /^Your deposit request #\d+ of 10000\.00 USD was approved\.$/);
    assert.equal(b.unread, 1);

    await push(t, 'EURUSD', BID, ASK);
    const own = await openPosition(client, { side: 'buy', volume: 0.1 });
    assert.equal((await client.post(calls.updateTrades.path, { ticket: own })).status, 200);
    const stopped = await openPosition(client, { side: 'buy', volume: 0.1, stopLoss: 1.099 });
    assert.equal((await client.post(calls.addAlert.path, { symbol: 'EURUSD', price: 'bid', direction: 'below', level: 1.0995, note: 'check' })).status, 200);
    await push(t, 'EURUSD', 1.0989, 1.0991);
    b = await eventually('two more', async () => {
      const now = await bell(client);
      return now.data.length === 3 ? now : null;
    });
    assert.deepEqual(b.data.map((n) => n.kind).sort(), ['alert', 'close', 'money']);
    const close = b.data.find((n) => n.kind === 'close')!;
    assert.equal(close.title, `Position #${stopped} closed by its stop loss`);
    assert.equal(close.body, 'EURUSD at 1.0989, profit -13.00 USD.');
    assert.equal(b.data.find((n) => n.kind === 'alert')!.title, 'Price alert: EURUSD bid below 1.0995');
    assert.equal(b.unread, 3);

    const marked = await client.post(calls.markNotificationsRead.path, { ids: [close.id] });
    assert.deepEqual(marked.body, { status: 'success', unread: 2 });
    assert.equal((await bell(client)).data.find((n) => n.id === close.id)?.read, true);
    assert.deepEqual((await client.post(calls.markNotificationsRead.path, { all: true })).body, { status: 'success', unread: 0 });
    assert.equal((await bell(client)).data.every((n) => n.read), true);
  });

  test('a kind chosen to be mailed is mailed too; the others stay in the app; alerts are chosen per alert', async () => {
    const { client, email } = await desk.fundedTrader('10000.00');
    const settings = await client.get(calls.getNotificationSettings.path);
    assert.deepEqual(
      (settings.body.data as { kind: string; byMail: boolean }[]).map((s) => [s.kind, s.byMail]),
      [['fill', false], ['order', false], ['close', false], ['margin', false], ['money', false], ['balance', false], ['alert', false]],
    );
    const chose = await client.post(calls.editNotificationSettings.path, { kind: 'close', byMail: true });
    assert.equal(chose.status, 200, JSON.stringify(chose.body));
    assert.equal((chose.body.data as { kind: string; byMail: boolean }[]).find((s) => s.kind === 'close')?.byMail, true);
    assertFailure(await client.post(calls.editNotificationSettings.path, { kind: 'alert', byMail: true }), 400, "A price alert's mail is chosen on each alert, when it is set or changed.");
    assertFailure(await client.post(calls.editNotificationSettings.path, { kind: 'news', byMail: true }), 400, /^kind must be one of fill, order/);

    await push(t, 'EURUSD', BID, ASK);
    const ticket = await openPosition(client, { side: 'sell', volume: 0.1, takeProfit: 1.0995 });
    await push(t, 'EURUSD', 1.099, 1.0992);
    await eventually('the take profit notified', async () => (await bell(client)).data.find((n) => n.kind === 'close'));
    const mails = (await t.outbox()).filter((m) => m.to === email && m.subject.startsWith('Position'));
    assert.deepEqual(mails.map((m) => m.subject), [`Position #${ticket} closed by its take profit`]);
    assert.match(mails[0]!.text, /You chose to have "Positions closed by stop loss, take profit or the broker" mailed to you/);
    // The deposit (money) was not chosen: no mail for it.
    assert.equal((await t.outbox()).filter((m) => m.to === email && m.subject === 'Deposit approved').length, 0);
  });

  test('refused: marking nothing, another trader\'s notification stays unread', async () => {
    const a = await desk.fundedTrader('100.00');
    const b = await desk.fundedTrader('100.00');
    assertFailure(await a.client.post(calls.markNotificationsRead.path, { all: false }), 400, 'Name the notifications to mark read (ids), or all of them (all: true).');
    assertFailure(await a.client.post(calls.markNotificationsRead.path, { ids: [] }), 400, 'Name the notifications to mark read (ids), or all of them (all: true).');
    const theirs = (await bell(b.client)).data[0]!;
    await a.client.post(calls.markNotificationsRead.path, { ids: [theirs.id] });
    assert.equal((await bell(b.client)).data[0]!.read, false);
  });
});
