import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { calls, type BusEvent } from '@tradeport/contracts';
import { Redis } from 'ioredis';
import pg from 'pg';
import { LEADER_LOCK } from '../src/cluster/leader-lease';
import { restartableDatabase, startApp, type TestApp } from './helpers/app';
import { startOwnRedis } from './helpers/own-redis';
import { eventually, openTrades, push, roomyLimits, tradingDesk } from './helpers/trading';
import { startLeaderAndFollower } from './helpers/two-instances';

/**
 * Several instances trust only each other (the security review's finding 3): not whoever holds the
 * engine's advisory lock — any database login can take it and name its session as it likes — and
 * not whoever can publish on Redis. Each case here worked against the instances before.
 */
const PG = process.env.DATABASE_URL ?? '';
const onPostgres = PG.startsWith('postgres') ? false : 'needs PostgreSQL (DATABASE_URL=postgres://…)';

/** An HTTP server standing in for an attacker's: it records every request it gets. */
async function trap(): Promise<{ address: string; reached: string[]; close(): Promise<void> }> {
  const reached: string[] = [];
  const server = http.createServer((req, res) => {
    reached.push(`${req.method} ${req.url} cookie=${req.headers.cookie ?? ''}`);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ status: 'success', message: 'stolen' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    address: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    reached,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A plain Redis client, as anyone who can reach Redis has: the channels Tradeport uses on it. */
async function tradeportChannels(redisUrl: string): Promise<string[]> {
  const probe = new Redis(redisUrl);
  try {
    return (await probe.pubsub('CHANNELS', 'tradeport:*')) as string[];
  } finally {
    probe.disconnect();
  }
}

describe('who the instances trust', { skip: onPostgres, timeout: 180_000 }, () => {
  test('a database session that only holds the engine lock, named like a Tradeport instance, receives no forwarded call', async () => {
    const db = await restartableDatabase();
    const redis = await startOwnRedis();
    const attacker = await trap();
    // A read-only reporting login, say: it takes the engine's advisory lock before the instances
    // start and names its session as a leader would have.
    const foreign = new pg.Client({ connectionString: db.url, application_name: `tradeport ${attacker.address}` });
    await foreign.connect();
    const apps: TestApp[] = [];
    try {
      await foreign.query('select pg_advisory_lock($1, $2)', [...LEADER_LOCK]);
      const config = { ...roomyLimits, databaseUrl: db.url, eventBus: 'redis' as const, redisUrl: redis.url };
      const first = await startApp({ realClock: true, config });
      apps.push(first);
      assert.equal(first.app.cluster.role, 'follower', 'the lock is held by the foreign session');
      // A trader's read, with the session cookie: forwarded (reads are, even without live prices).
      const res = await fetch(`${first.origin}/api/platform/getTrades.php`, { headers: { cookie: 'tp_session=a-traders-session' } });
      assert.equal(res.status, 503, 'nobody to forward to: retryable');
      assert.equal(res.headers.get('retry-after'), '2');
      assert.deepEqual(attacker.reached, [], 'the foreign session got nothing');

      // The foreign session lets go: the instance leads, publishes its address, and a second
      // instance forwards to it — never to the address the foreign session gave.
      await foreign.query('select pg_advisory_unlock_all()');
      await eventually('the first instance leads', async () => first.app.cluster.role === 'leader', 15_000);
      const second = await startApp({ realClock: true, config });
      apps.push(second);
      assert.equal(second.app.cluster.role, 'follower');
      const forwarded = await eventually(
        'the leader answers a forwarded read',
        async () => {
          const r = await fetch(`${second.origin}/api/platform/getTrades.php`, { headers: { cookie: 'tp_session=a-traders-session' } });
          return r.status === 401 ? r : null;
        },
        15_000,
      );
      assert.equal(((await forwarded.json()) as { status: string }).status, 'Failure', "the leader's own refusal (no such session), passed on");
      assert.deepEqual(attacker.reached, []);
    } finally {
      for (const a of apps.reverse()) await a.close().catch(() => undefined);
      await foreign.end().catch(() => undefined);
      await attacker.close();
      await redis.stop();
      await db.drop();
    }
  });

});

describe('what reaches the instances over Redis and HTTP', { skip: onPostgres, timeout: 180_000 }, () => {
  let two: Awaited<ReturnType<typeof startLeaderAndFollower>>;
  let attacker: Redis;
  const seen: BusEvent[] = [];
  /** The channels as anyone who reaches Redis can list them. */
  let eventChannels: string[];
  let quoteChannels: string[];

  before(async () => {
    two = await startLeaderAndFollower();
    attacker = new Redis(two.redis.url);
    two.follower.ctx.bus.subscribe((e) => seen.push(e));
    await push(two.leader, 'EURUSD', 1.1, 1.1002);
    await eventually('the follower has the relayed price', async () => two.follower.app.market.book.get('EURUSD')?.bid === 1.1, 15_000);
    const channels = await tradeportChannels(two.redis.url);
    eventChannels = channels.filter((c) => c.endsWith('account-events'));
    quoteChannels = channels.filter((c) => c.endsWith(':quotes'));
    assert.ok(eventChannels.length > 0 && quoteChannels.length > 0, `channels: ${channels.join(', ')}`);
  });
  after(async () => {
    attacker.disconnect();
    await two.close();
  });

  test('a forged account event (a stop-out) published on the channels reaches no follower', async () => {
    const stopOut: BusEvent = { type: 'position.closed', userId: 1, accountId: 1, ticket: 1, symbol: 'EURUSD', reason: 'stop-out', price: 0.5, profit: '-1000.00' };
    for (const channel of eventChannels) {
      await attacker.publish(channel, JSON.stringify(stopOut));
      // In the envelope's shape, with a made-up signature.
      await attacker.publish(channel, `AAAA.${JSON.stringify({ s: 'forger', q: 1, t: Date.now(), p: stopOut })}`);
    }
    await sleep(500);
    assert.deepEqual(seen, []);
  });

  test("a forged quote stamped a year ahead does not freeze the follower's price", async () => {
    const future = Date.now() + 365 * 24 * 3600_000;
    const batch = { from: 'forger', epoch: 1_000_000, quotes: [['EURUSD', 2.5, 2.5002, future]], full: true };
    for (const channel of quoteChannels) {
      await attacker.publish(channel, JSON.stringify(batch));
      await attacker.publish(channel, `AAAA.${JSON.stringify({ s: 'forger', q: 1, t: Date.now(), p: batch })}`);
    }
    await sleep(500);
    assert.equal(two.follower.app.market.book.get('EURUSD')?.bid, 1.1, 'the forged quote was not taken');
    await push(two.leader, 'EURUSD', 1.12, 1.1202);
    await eventually("the follower follows the leader's next price", async () => two.follower.app.market.book.get('EURUSD')?.bid === 1.12, 15_000);
  });

  test('a genuine account event captured on its way and published again is dropped', async () => {
    const spy = new Redis(two.redis.url);
    try {
      const captured: [string, string][] = [];
      spy.on('pmessage', (_pattern: string, channel: string, message: string) => {
        if (channel.endsWith('account-events')) captured.push([channel, message]);
      });
      await spy.psubscribe('tradeport:*');
      const before = seen.length;
      const genuine: BusEvent = { type: 'balance.changed', userId: 7, accountId: 7, balance: '10.00', credit: '0.00', reason: 'test' };
      two.leader.ctx.bus.publish(genuine);
      await eventually('the follower has the genuine event, and the spy a copy', async () => seen.length === before + 1 && captured.length === 1, 15_000);
      assert.deepEqual(seen.at(-1), genuine);
      const [channel, message] = captured[0]!;
      await attacker.publish(channel, message);
      await attacker.publish(channel, message);
      await sleep(500);
      assert.equal(seen.length, before + 1, 'the replayed copies were dropped');
    } finally {
      spy.disconnect();
    }
  });

  test('a call to the leader that only says it was forwarded, with a trader\'s session, is refused and not carried out', async () => {
    const desk = await tradingDesk(two.leader);
    const trader = await desk.fundedTrader('1000.00');
    await push(two.leader, 'EURUSD', 1.13, 1.1302);
    const headers = { cookie: trader.client.cookieHeader, origin: two.leader.origin, 'content-type': 'application/json', 'x-tradeport-forwarded': '1', 'x-tradeport-client-ip': '203.0.113.9' };
    const order = await fetch(`${two.leader.url}${calls.addTrades.path}`, { method: 'POST', headers, body: JSON.stringify({ fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 0.01, stopLoss: 0, takeProfit: 0, comment: '' }) });
    assert.equal(order.status, 403, await order.text());
    const read = await fetch(`${two.leader.url}${calls.getTrades.path}`, { headers });
    assert.equal(read.status, 403);
    assert.deepEqual(await openTrades(trader.client), [], 'no position was opened');
  });
});
