import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { AccountEvent, BusEvent } from '@tradeport/contracts';
import { Redis } from 'ioredis';
import { InProcessEventBus } from '../src/bus/event-bus';
import { RedisEventBus } from '../src/bus/redis-event-bus';
import { clusterKeys } from '../src/cluster-keys';
import { liveAccountOf } from './helpers/accounts';
import { startApp, testClusterSecret, type TestApp } from './helpers/app';
import { paymentAccount, signedInAdmin, signedInTrader } from './helpers/client';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

function collect(bus: { subscribe(h: (e: BusEvent) => void): () => void }): BusEvent[] {
  const seen: BusEvent[] = [];
  bus.subscribe((e) => seen.push(e));
  return seen;
}

const settle = (ms = 50) => new Promise((r) => setTimeout(r, ms));

describe('account events', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp();
  });
  after(() => t.close());

  test('approving a deposit publishes the decision and the new balance to the owner, after commit', async () => {
    const seen = collect(t.ctx.bus);
    const admin = await signedInAdmin(t);
    const gateway = await paymentAccount(admin);
    const { client: trader, id } = await signedInTrader(t);
    const dep = await trader.post('/platform/addDeposite.php', { depositAmount: '75.25', paymentAccount: '42', payment_getways_id: gateway });
    await admin.post('/dashboard/admin/editStatusDeposite.php', { deposites_id: dep.body.id, status: 1 });
    await settle();
    const accountId = (await liveAccountOf(t.ctx.db, id)).id;
    assert.deepEqual(
      seen.filter((e) => 'userId' in e && e.userId === id),
      [
        { type: 'moneyRequest.updated', userId: id, accountId, requestId: dep.body.id, kind: 'deposit', status: '1', amount: '75.25' },
        { type: 'balance.changed', userId: id, accountId, balance: '75.25', credit: '0.00', reason: 'deposit-approved' },
      ],
    );
  });

  test('a new request and its decision are published to the back office, after commit', async () => {
    const seen = collect(t.ctx.bus);
    const admin = await signedInAdmin(t);
    const gateway = await paymentAccount(admin);
    const { client: trader, id } = await signedInTrader(t);
    const dep = await trader.post('/platform/addDeposite.php', { depositAmount: '12.5', paymentAccount: '42', payment_getways_id: gateway });
    await settle();
    assert.deepEqual(seen.filter((e) => e.type === 'moneyRequest.created'), [{ type: 'moneyRequest.created', requestId: dep.body.id, kind: 'deposit', traderId: id, amount: '12.50' }]);
    await admin.post('/dashboard/admin/editStatusDeposite.php', { deposites_id: dep.body.id, status: 1 });
    const wd = await trader.post('/platform/addWithdrawal.php', { withdrawalsAmount: '2', paymentAccount: 'IBAN 9' });
    await settle();
    const adminId = (await admin.get('/dashboard/customer/getProfileDetails.php')).body.data[0].id as number;
    assert.deepEqual(
      seen.filter((e) => e.type === 'moneyRequest.created' || e.type === 'moneyRequest.decided').slice(1),
      [
        { type: 'moneyRequest.decided', requestId: dep.body.id, kind: 'deposit', traderId: id, status: '1', decidedBy: adminId },
        { type: 'moneyRequest.created', requestId: wd.body.id, kind: 'withdrawal', traderId: id, amount: '2.00' },
      ],
    );
  });

  test('a refused decision publishes nothing', async () => {
    const seen = collect(t.ctx.bus);
    const admin = await signedInAdmin(t);
    const r = await admin.post('/dashboard/admin/editStatusDeposite.php', { deposites_id: 999_999, status: 1 });
    assert.equal(r.status, 404);
    await settle();
    assert.deepEqual(seen, []);
  });

  test('a subscriber that throws does not stop the others', async () => {
    const bus = new InProcessEventBus();
    bus.subscribe(() => {
      throw new Error('boom');
    });
    const seen = collect(bus);
    bus.publish({ type: 'account.sessionsRevoked', userId: 1, reason: 'test' });
    await settle(5);
    assert.equal(seen.length, 1);
    await bus.close();
  });
});

describe('Redis event bus', () => {
  let available = false;
  before(async () => {
    const probe = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 1000, maxRetriesPerRequest: 0 });
    try {
      await probe.connect();
      available = (await probe.ping()) === 'PONG';
    } catch {
      available = false;
    } finally {
      probe.disconnect();
    }
  });

  test('an event published by one instance reaches subscribers on another', async (ctx) => {
    if (!available && !process.env.CI) return ctx.skip('no Redis at ' + REDIS_URL);
    const keys = clusterKeys(testClusterSecret(`event-bus ${process.pid}`));
    const a = await RedisEventBus.connect(REDIS_URL, keys);
    const b = await RedisEventBus.connect(REDIS_URL, keys);
    try {
      const seen = collect(b);
      const event: AccountEvent = { type: 'balance.changed', userId: 7, accountId: 7, balance: '10.00', credit: '0.00', reason: 'test' };
      a.publish(event);
      for (let i = 0; i < 50 && seen.length === 0; i++) await settle(20);
      assert.deepEqual(seen, [event]);
    } finally {
      await a.close();
      await b.close();
    }
  });

  test('a deployment with another CLUSTER_SECRET on the same Redis hears nothing of this one (its own channels, and no signature it accepts)', async (ctx) => {
    if (!available && !process.env.CI) return ctx.skip('no Redis at ' + REDIS_URL);
    const ours = clusterKeys(testClusterSecret(`event-bus ours ${process.pid}`));
    const theirs = clusterKeys(testClusterSecret(`event-bus theirs ${process.pid}`));
    assert.notEqual(ours.channelPrefix, theirs.channelPrefix);
    const a = await RedisEventBus.connect(REDIS_URL, ours);
    const b = await RedisEventBus.connect(REDIS_URL, ours);
    const other = await RedisEventBus.connect(REDIS_URL, theirs);
    try {
      const seenByOther = collect(other);
      const seenByB = collect(b);
      const event: AccountEvent = { type: 'balance.changed', userId: 8, accountId: 8, balance: '20.00', credit: '0.00', reason: 'test' };
      a.publish(event);
      for (let i = 0; i < 50 && seenByB.length === 0; i++) await settle(20);
      assert.deepEqual(seenByB, [event]);
      // Even on its channel, a message signed with another deployment's key is dropped.
      const probe = new Redis(REDIS_URL);
      await probe.publish(`${theirs.channelPrefix}account-events`, `AAAA.${JSON.stringify({ s: 'x', q: 1, t: Date.now(), p: event })}`);
      probe.disconnect();
      await settle(200);
      assert.deepEqual(seenByOther, []);
    } finally {
      await a.close();
      await b.close();
      await other.close();
    }
  });
});
