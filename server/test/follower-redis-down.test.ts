import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { calls } from '@tradeport/contracts';
import { sql } from 'kysely';
import { BUS_DOWN, RETRY_AFTER_SECONDS } from '../src/cluster/engine-calls';
import { FEED_TOKEN, type TestApp } from './helpers/app';
import { Client } from './helpers/client';
import { startLeaderAndFollower } from './helpers/two-instances';
import { eventually, openPosition, push, recordEvents, sleep, tradingDesk } from './helpers/trading';

/**
 * Issue 19: with Redis unavailable, instances keep serving reads and say so in health, and a
 * follower refuses every order-changing call with the spec's retryable 503 until Redis is back —
 * its prices have stopped and it would not hear of the outcome. Nothing is written; the leader,
 * which needs no Redis to execute, goes on, and its account events still reach its own
 * subscribers, once. When Redis is back the follower forwards again, without a restart.
 */
const PG = process.env.DATABASE_URL ?? '';

/** The session cookie of `client`, for a client of the same user on another instance. */
const on = (t: TestApp, client: Client) => {
  const other = new Client(t);
  other.setCookie('tp_session', client.cookieHeader.split('tp_session=')[1]!.split(';')[0]!);
  return other;
};

const health = async (t: TestApp) => (await (await fetch(`${t.url}/health`)).json()) as { redis?: string };

/** Everything an order-changing call could write, as one text. */
async function written(t: TestApp): Promise<string> {
  const rows: unknown[] = [];
  for (const table of ['positions', 'orders', 'money_requests', 'ledger_entries', 'idempotency_keys', 'audit_log']) {
    const { rows: r } = await sql<{ j: unknown }>`select json_agg(t order by t::text) as j from ${sql.table(table)} t`.execute(t.ctx.db);
    rows.push([table, r[0]?.j]);
  }
  const accounts = await t.ctx.db.selectFrom('trading_accounts').select(['id', 'balance_cents']).orderBy('id').execute();
  return JSON.stringify([rows, accounts]);
}

describe('a follower while Redis is down', { skip: PG.startsWith('postgres') ? false : 'needs PostgreSQL (DATABASE_URL=postgres://…)', timeout: 120_000 }, () => {
  test('refuses every order-changing call as retryable and writes nothing; serves reads; the leader goes on; after Redis is back it forwards again', async () => {
    const { leader, follower, redis, close } = await startLeaderAndFollower();
    try {

      await push(leader, 'EURUSD', 1.1, 1.1002);
      await eventually('the follower has the relayed price', async () => follower.app.market.book.get('EURUSD')?.bid === 1.1);
      const desk = await tradingDesk(leader);
      const trader = await desk.fundedTrader('10000.00');
      const ticket = await openPosition(trader.client, { side: 'buy', volume: 0.1 });
      const placed = await trader.client.post(calls.addPendingOrder.path, { fullSymbol: 'EURUSD', orderType: 'buy_limit', volume: 0.1, price: 1.05, stopLimitPrice: 0, stopLoss: 0, takeProfit: 0 });
      assert.equal(placed.body.status, 'success', JSON.stringify(placed.body));
      const withdrawal = await trader.client.post(calls.addWithdrawal.path, { withdrawalsAmount: '100.00', paymentAccount: 'IBAN 1' });
      assert.equal(withdrawal.body.status, 'success', JSON.stringify(withdrawal.body));

      const traderThere = on(follower, trader.client);
      const adminThere = on(follower, desk.admin);
      // Through the follower while Redis is up: forwarded and carried out by the leader.
      const before = await traderThere.post(calls.modifyTrades.path, { ticket, stopLoss: 0, takeProfit: 1.2 });
      assert.equal(before.status, 200, JSON.stringify(before.body));

      await redis.stop();
      await eventually('the follower sees Redis down', async () => !follower.ctx.bus.connected(), 10_000);
      await eventually('health says so', async () => (await health(follower)).redis === 'down');
      const unchanged = await written(leader);

      const changes: [string, Client | null, string, Record<string, unknown>][] = [
        ['an order', traderThere, calls.addTrades.path, { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 0.1, stopLoss: 0, takeProfit: 0, comment: '' }],
        ['a close', traderThere, calls.updateTrades.path, { ticket }],
        ['an SL/TP change', traderThere, calls.modifyTrades.path, { ticket, stopLoss: 0, takeProfit: 1.3 }],
        ['a pending order', traderThere, calls.addPendingOrder.path, { fullSymbol: 'EURUSD', orderType: 'buy_limit', volume: 0.1, price: 1.04, stopLimitPrice: 0, stopLoss: 0, takeProfit: 0 }],
        ["a pending order's change", traderThere, calls.modifyPendingOrder.path, { orderId: placed.body.orderId, price: 1.03, stopLimitPrice: 0, stopLoss: 0, takeProfit: 0 }],
        ["a pending order's cancellation", traderThere, calls.cancelPendingOrder.path, { orderId: placed.body.orderId }],
        ["an administrator's close", adminThere, calls.editStatusTrades.path, { traders_id: trader.id, ticket }],
        ['a withdrawal request', traderThere, calls.addWithdrawal.path, { withdrawalsAmount: '50.00', paymentAccount: 'IBAN 1' }],
        ["a withdrawal's approval", adminThere, calls.editStatusWithdrawal.path, { withdrawals_id: withdrawal.body.id, status: 1 }],
        ['ticks from the price bridge', null, calls.feedTicks.path, { ticks: [{ symbol: 'EURUSD', bid: 1.2, ask: 1.2002 }] }],
      ];
      for (const [what, client, path, body] of changes) {
        const res = client
          ? await client.post(path, body, { 'idempotency-key': randomUUID() })
          : await fetch(`${follower.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${FEED_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: await r.json(), headers: r.headers }));
        assert.equal(res.status, 503, `${what}: ${res.status} ${JSON.stringify(res.body)}`);
        assert.equal(res.headers.get('retry-after'), String(RETRY_AFTER_SECONDS), what);
        assert.deepEqual(res.body, { status: 'Failure', message: BUS_DOWN }, what);
      }
      assert.equal(await written(leader), unchanged, 'nothing was written');
      assert.equal(leader.app.market.book.get('EURUSD')?.bid, 1.1, 'no refused tick reached the book');

      // Reads are served: the follower's own, and those the leader answers.
      const trades = await traderThere.get(calls.getTrades.path);
      assert.equal(trades.status, 200, JSON.stringify(trades.body));
      assert.deepEqual(
        trades.body.data.map((r: { ticket: number }) => r.ticket),
        [ticket],
      );
      assert.equal((await traderThere.get(`${calls.getQuotes.path}?symbols=EURUSD`)).status, 200);

      // The leader needs no Redis to execute, and its own subscribers (its browsers' streams) get
      // the events of what it did, once.
      const seen = recordEvents(leader, trader.id);
      await push(leader, 'EURUSD', 1.1001, 1.1003);
      const second = await openPosition(trader.client, { side: 'sell', volume: 0.1 });
      await eventually('the fill reaches the leader’s own subscribers', async () => seen.events.some((e) => e.type === 'position.opened' && e.ticket === second));

      // Redis back: the follower forwards again, no restart.
      await redis.start();
      await eventually('the follower sees Redis again', async () => follower.ctx.bus.connected(), 20_000);
      await eventually('health says so', async () => (await health(follower)).redis === 'up');
      // It forwards again once the leader's whole book has come (prices missed meanwhile): it asks for it.
      await eventually('the follower has caught up', async () => follower.app.cluster.busUp(), 3_000);
      const third = await openPosition(traderThere, { side: 'buy', volume: 0.1 });
      assert.ok(third > second);
      const closed = await traderThere.post(calls.updateTrades.path, { ticket });
      assert.equal(closed.status, 200, JSON.stringify(closed.body));
      await sleep(300);
      seen.stop();
      const opened = seen.events.filter((e) => e.type === 'position.opened').map((e) => (e as { ticket: number }).ticket);
      assert.deepEqual(opened, [second, third], 'each fill reached the leader’s subscribers once, none was sent again when Redis came back');
    } finally {
      await close();
    }
  });
});
