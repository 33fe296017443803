import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { calls, MAX_ACTIVE_ALERTS, type PriceAlert } from '@tradeport/contracts';
import { restartableDatabase, startApp, type TestApp } from './helpers/app';
import type { Client } from './helpers/client';
import { ASK, BID, assertFailure, eventually, push, recordEvents, roomyLimits, signIn, tradingDesk, type TradingDesk } from './helpers/trading';
import { startLeaderAndFollower } from './helpers/two-instances';

/**
 * Price alerts (docs/design.md#price-alerts): a trader's alert on a symbol's bid or ask reaching a
 * level fires once, on the server, at the first tick that reaches it — an event to every terminal
 * of theirs and, when they chose so, a mail — unless it was changed, deleted or expired first. It
 * survives a restart and a change of engine leader.
 */
const add = (client: Client, body: Record<string, unknown>) => client.post(calls.addAlert.path, { symbol: 'EURUSD', price: 'bid', direction: 'above', note: '', ...body });
const list = async (client: Client) => (await client.get(calls.getAlerts.path)).body.data as PriceAlert[];
const one = async (client: Client, alertId: number) => (await list(client)).find((a) => a.alertId === alertId);

describe('price alerts', () => {
  let t: TestApp;
  let desk: TradingDesk;

  before(async () => {
    t = await startApp({ config: roomyLimits });
    desk = await tradingDesk(t, 'Alerts bank');
  });
  after(() => t.close());

  test('a bid-above alert fires once, at the first tick that reaches it: an event with the price, a mail when chosen, listed as fired', async () => {
    const { client, id, email } = await desk.fundedTrader('1000.00');
    const events = recordEvents(t, id);
    await push(t, 'EURUSD', BID, ASK);
    const r = await add(client, { level: 1.101, note: 'breakout', byMail: true });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.match(r.body.message as string, /^Alert #\d+ set: EURUSD bid above 1\.101\.$/);
    const alertId = r.body.alertId as number;
    assert.deepEqual({ ...(await one(client, alertId)), createdAt: undefined }, { alertId, symbol: 'EURUSD', price: 'bid', direction: 'above', level: 1.101, note: 'breakout', expiration: null, byMail: true, status: 'active', createdAt: undefined, endedAt: null, firedPrice: null });

    await push(t, 'EURUSD', 1.10099, 1.10119);
    await push(t, 'EURUSD', 1.1012, 1.1014);
    const fired = await eventually('the alert fired', async () => events.events.find((e) => e.type === 'alert.fired'));
    assert.deepEqual(fired, { type: 'alert.fired', userId: id, alertId, symbol: 'EURUSD', price: 'bid', direction: 'above', level: 1.101, reached: 1.1012, note: 'breakout' });
    await push(t, 'EURUSD', 1.1015, 1.1017);
    await push(t, 'EURUSD', 1.1012, 1.1014);
    const shown = await eventually('listed as fired', async () => {
      const a = await one(client, alertId);
      return a?.status === 'fired' ? a : null;
    });
    assert.equal(shown.firedPrice, 1.1012);
    assert.ok(shown.endedAt);
    assert.equal(events.events.filter((e) => e.type === 'alert.fired').length, 1, 'once');
    const mails = (await t.outbox()).filter((m) => m.to === email && m.subject.startsWith('Price alert'));
    assert.equal(mails.length, 1);
    assert.equal(mails[0]!.subject, 'Price alert: EURUSD bid above 1.10100');
    assert.match(mails[0]!.text, /the bid reached 1\.10120\.\nYour note: breakout/);
    events.stop();
  });

  test('an ask-below alert without mail fires in the app only; one changed before the tick waits for its new level; one deleted never fires', async () => {
    const { client, id, email } = await desk.fundedTrader('1000.00');
    const events = recordEvents(t, id);
    await push(t, 'EURUSD', BID, ASK);
    const below = (await add(client, { price: 'ask', direction: 'below', level: 1.0995 })).body.alertId as number;
    const moved = (await add(client, { level: 1.1005 })).body.alertId as number;
    const deleted = (await add(client, { level: 1.1006 })).body.alertId as number;
    const change = await client.post(calls.modifyAlert.path, { alertId: moved, price: 'bid', direction: 'above', level: 1.103, note: 'later', byMail: false });
    assert.equal(change.status, 200, JSON.stringify(change.body));
    assert.equal((await client.post(calls.deleteAlert.path, { alertId: deleted })).status, 200);

    await push(t, 'EURUSD', 1.1008, 1.101);
    await push(t, 'EURUSD', 1.0992, 1.0994);
    await eventually('the ask-below alert fired', async () => (await one(client, below))?.status === 'fired');
    assert.equal((await one(client, below))?.firedPrice, 1.0994);
    assert.equal((await one(client, moved))?.status, 'active', 'its old level was passed: it waits for the new one');
    assert.equal(await one(client, deleted), undefined);
    await push(t, 'EURUSD', 1.1031, 1.1033);
    await eventually('the changed alert fired at its new level', async () => (await one(client, moved))?.status === 'fired');
    assert.deepEqual(events.events.filter((e) => e.type === 'alert.fired').map((e) => (e.type === 'alert.fired' ? e.alertId : 0)), [below, moved]);
    assert.deepEqual(events.events.filter((e) => e.type === 'alert.changed').map((e) => (e.type === 'alert.changed' ? e.change : '')), ['added', 'added', 'added', 'modified', 'deleted']);
    assert.equal((await t.outbox()).filter((m) => m.to === email && m.subject.startsWith('Price alert')).length, 0, 'no mail chosen');
    events.stop();
  });

  test('an alert expires at its time, unfired, and says so', async () => {
    const { client, id } = await desk.fundedTrader('1000.00');
    const events = recordEvents(t, id);
    await push(t, 'EURUSD', BID, ASK);
    const alertId = (await add(client, { level: 1.2, expiration: t.clock.now() + 60_000 })).body.alertId as number;
    assert.equal(await t.app.trading.expireAlerts(t.clock.now() + 59_000), 0);
    assert.equal(await t.app.trading.expireAlerts(t.clock.now() + 60_000), 1);
    assert.equal((await one(client, alertId))?.status, 'expired');
    await eventually('told', async () => events.events.find((e) => e.type === 'alert.changed' && e.change === 'expired'));
    assertFailure(await client.post(calls.modifyAlert.path, { alertId, price: 'bid', direction: 'above', level: 1.3 }), 409, `Alert #${alertId} has expired already.`);
    events.stop();
  });

  test('refused, changing nothing: a level the price is at already, an unknown symbol, bad fields, a past expiry, another trader\'s alert, more than the cap', async () => {
    const { client } = await desk.fundedTrader('1000.00');
    const other = await desk.fundedTrader('1000.00');
    await push(t, 'EURUSD', BID, ASK);
    assertFailure(await add(client, { level: 1.1 }), 400, 'The bid is 1.1 already: an alert above must be set above it.');
    assertFailure(await add(client, { price: 'ask', direction: 'below', level: 1.1003 }), 400, 'The ask is 1.1002 already: an alert below must be set below it.');
    assertFailure(await add(client, { symbol: 'NOPE', level: 1.2 }), 400, 'Unknown symbol NOPE.');
    assertFailure(await add(client, { direction: 'sideways', level: 1.2 }), 400, "direction must be 'above' or 'below'.");
    assertFailure(await add(client, { price: 'mid', level: 1.2 }), 400, "price must be 'bid' or 'ask'.");
    assertFailure(await add(client, { level: 'high' }), 400, 'The alert level must be a positive number.');
    assertFailure(await add(client, { level: 1.2, note: 'x'.repeat(101) }), 400, 'The note must be at most 100 characters.');
    assertFailure(await add(client, { level: 1.2, expiration: t.clock.now() - 1 }), 400, 'The expiry must be in the future.');
    assertFailure(await add(client, { level: 1.2, byMail: 'yes' }), 400, 'byMail must be true or false.');
    assert.deepEqual(await list(client), []);

    const alertId = (await add(client, { level: 1.2 })).body.alertId as number;
    assertFailure(await other.client.post(calls.modifyAlert.path, { alertId, price: 'bid', direction: 'above', level: 1.3 }), 404, `Alert #${alertId} was not found.`);
    assertFailure(await other.client.post(calls.deleteAlert.path, { alertId }), 404, `Alert #${alertId} was not found.`);
    assert.equal((await one(client, alertId))?.level, 1.2);

    for (let k = 1; k < MAX_ACTIVE_ALERTS; k++) assert.equal((await add(client, { level: 1.2 + k / 1000 })).status, 200);
    assertFailure(await add(client, { level: 1.5 }), 400, `You have ${MAX_ACTIVE_ALERTS} alerts waiting, the most there may be; delete one first.`);
    assert.equal((await list(client)).length, MAX_ACTIVE_ALERTS);
  });
});

describe('price alerts across a restart', () => {
  test('a restarted server loads the waiting alerts and fires them', async () => {
    const db = await restartableDatabase();
    try {
      let t = await startApp({ config: { ...roomyLimits, databaseUrl: db.url } });
      const trader = await (await tradingDesk(t, 'Restart bank')).fundedTrader('1000.00');
      await push(t, 'EURUSD', BID, ASK);
      const alertId = (await add(trader.client, { price: 'ask', direction: 'above', level: 1.1005 })).body.alertId as number;
      await t.close();
      t = await startApp({ config: { ...roomyLimits, databaseUrl: db.url } });
      try {
        const client = await signIn(t, trader);
        await push(t, 'EURUSD', 1.1004, 1.1006);
        await eventually('fired after the restart', async () => (await one(client, alertId))?.status === 'fired');
      } finally {
        await t.close();
      }
    } finally {
      await db.drop();
    }
  });
});

const PG = process.env.DATABASE_URL ?? '';

describe('price alerts across a change of engine leader', { skip: PG.startsWith('postgres') ? false : 'needs PostgreSQL (DATABASE_URL=postgres://…)', timeout: 120_000 }, () => {
  test('set through the leader, the leader goes away; the follower takes the lead and fires it once', async () => {
    const { leader, follower, close } = await startLeaderAndFollower();
    try {
      await push(leader, 'EURUSD', BID, ASK);
      const trader = await (await tradingDesk(leader)).fundedTrader('1000.00');
      const alertId = (await add(trader.client, { direction: 'below', level: 1.099 })).body.alertId as number;
      await leader.close();
      await eventually('the follower leads', async () => follower.app.cluster.role === 'leader' && follower.app.trading.isRunning, 30_000);
      const events = recordEvents(follower);
      const client = await signIn(follower, trader);
      await push(follower, 'EURUSD', 1.0989, 1.0991);
      await eventually('fired by the new leader', async () => (await one(client, alertId))?.status === 'fired');
      assert.equal(events.events.filter((e) => e.type === 'alert.fired' && e.alertId === alertId).length, 1);
      events.stop();
    } finally {
      await close();
    }
  });
});
