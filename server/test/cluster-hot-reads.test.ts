import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { calls } from '@tradeport/contracts';
import { Client } from './helpers/client';
import { eventually, margins, openPosition, openTrades, push, tradingDesk } from './helpers/trading';
import { startLeaderAndFollower } from './helpers/two-instances';

/**
 * A follower answers a trader's hot reads — open positions with their floating profit, and the
 * account's figures — by forwarding them to the engine leader, which answers from the state its
 * engine holds (docs/architecture.md, "How a follower answers hot reads"). So the answer a follower
 * relays is the leader's at the moment it is asked: a tick the leader has just taken is in it, even
 * where the follower's own quote book shows another price.
 */
const PG = process.env.DATABASE_URL ?? '';

describe("a trader's hot reads asked of a follower", { skip: PG.startsWith('postgres') ? false : 'needs PostgreSQL (DATABASE_URL=postgres://…)', timeout: 120_000 }, () => {
  test("getTrades, getMargins and the working orders answer the leader's live state: positions opened through the leader, profit at the leader's newest price", async () => {
    const { leader, follower, close } = await startLeaderAndFollower();
    try {
      await push(leader, 'EURUSD', 1.2, 1.2002);
      await eventually('the follower has the relayed price', async () => follower.app.market.book.get('EURUSD')?.bid === 1.2);
      const desk = await tradingDesk(leader);
      const trader = await desk.fundedTrader('1000.00');
      // Opened through the leader: 0.1 lot bought at 1.2002.
      const ticket = await openPosition(trader.client, { side: 'buy', volume: 0.1 });

      // The leader takes a new price; the follower's book is held at the older one (as if the relay
      // lagged), so an answer made from the follower's own prices would show 1.2, not 1.215.
      await push(leader, 'EURUSD', 1.215, 1.2152);
      await eventually('the follower has the relayed price', async () => follower.app.market.book.get('EURUSD')?.bid === 1.215);
      follower.app.market.book.applyRelayed({ symbol: 'EURUSD', bid: 1.2, ask: 1.2002, time: Date.now() + 1000 });
      assert.equal(follower.app.market.book.get('EURUSD')?.bid, 1.2);
      assert.equal(follower.app.cluster.role, 'follower');

      const onFollower = new Client(follower);
      onFollower.setCookie('tp_session', trader.client.cookieHeader.split('tp_session=')[1]!.split(';')[0]!);
      const rows = await openTrades(onFollower);
      assert.deepEqual(
        rows.map((r) => [r.ticket, r.type, r.volume, r.orginalPrice, r.bid, r.profit]),
        [[ticket, 'Buy', 0.1, 1.2002, 1.215, '148.00']],
        "the position opened through the leader, valued at the leader's bid: (1.215 − 1.2002) × 10,000 USD",
      );
      const figures = await margins(onFollower);
      assert.equal(figures.status, 'success');
      assert.equal(figures.balance, '1000.00');
      assert.equal(figures.profit, '148.00');
      assert.equal(figures.equity, '1148.00');

      // The same as the leader answers itself, field for field.
      assert.deepEqual(rows, await openTrades(trader.client));
      assert.deepEqual(figures, await margins(trader.client));

      // Live, not relayed: a tick the leader has just taken is in the follower's very next answer
      // (no wait for the relay, which would bring it up to 25 ms later).
      await push(leader, 'EURUSD', 1.19, 1.1902);
      const [after] = await openTrades(onFollower);
      assert.equal(after?.profit, '-102.00', "valued at the leader's newest bid, 1.19");
      assert.equal((await margins(onFollower)).equity, '898.00');

      // The working orders are the leader engine's too: one placed through the leader is listed at once.
      const placed = await trader.client.post(calls.addPendingOrder.path, { fullSymbol: 'EURUSD', orderType: 'buy_limit', volume: 0.1, price: 1.15 });
      assert.equal(placed.status, 200, JSON.stringify(placed.body));
      const working = await onFollower.get(`${calls.getPendingOrders.path}?status=pending`);
      assert.equal(working.status, 200, JSON.stringify(working.body));
      assert.deepEqual((working.body.data as { orderId: number }[]).map((o) => o.orderId), [placed.body.orderId]);

      // A trader's read sent to the follower without a session is refused by the leader as it would
      // be there (the whole call runs on the leader: session and access included).
      const anonymous = await new Client(follower).get(calls.getTrades.path);
      assert.equal(anonymous.status, 401, JSON.stringify(anonymous.body));
    } finally {
      await close();
    }
  });
});
