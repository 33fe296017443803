import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { calls } from '@tradeport/contracts';
import { sql } from 'kysely';
import { findLedgerMismatches } from '../src/services/ledger';
import { restartableDatabase, startApp, type TestApp } from './helpers/app';
import type { Client } from './helpers/client';
import { ASK, BID, assertFailure, eventually, history, openTrades, push, pushTicks, recordEvents, roomyLimits, signIn, tradingDesk, type TradingDesk } from './helpers/trading';
import { startLeaderAndFollower } from './helpers/two-instances';

/**
 * Trailing stops on the server (docs/design.md#trailing-stops): the stop loss follows the price at
 * a distance in points, after an optional activation, in steps, only toward profit; each move is
 * the position's stop loss (written, announced, shown), so the stop-loss trigger closes it at the
 * trailed stop — with every browser closed, across a restart and a change of engine leader.
 * EURUSD has 5 digits: 200 points are 0.002.
 */
const open = (client: Client, order: Record<string, unknown>) => client.post(calls.addTrades.path, { fullSymbol: 'EURUSD', volume: 1, stopLoss: 0, takeProfit: 0, comment: '', ...order });
const modify = (client: Client, body: Record<string, unknown>) => client.post(calls.modifyTrades.path, body);
const stored = (t: TestApp, ticket: number) => t.ctx.db.selectFrom('positions').select(['stop_loss', 'trail_distance', 'trail_activation', 'trail_step', 'status']).where('id', '=', ticket).executeTakeFirstOrThrow();
const rowOf = async (client: Client, ticket: number) => (await openTrades(client)).find((r) => r.ticket === ticket);

describe('trailing stops', () => {
  let t: TestApp;
  let desk: TradingDesk;

  /** The server's log (a close that fails is logged). */
  const logLines: string[] = [];

  before(async () => {
    t = await startApp({ config: roomyLimits, logLines });
    desk = await tradingDesk(t, 'Trailing bank');
  });
  after(() => t.close());

  test("a Buy's stop follows the bid 200 points behind in steps of 50, never moves back, is written and announced, and closes the position at the trailed stop", async () => {
    const { client, id } = await desk.fundedTrader('10000.00');
    const events = recordEvents(t, id);
    await push(t, 'EURUSD', BID, ASK);
    const r = await open(client, { tradestypes: 'buy', trailingStop: { distance: 200, step: 50 } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const ticket = r.body.ticket as number;
    // Active at once: the first step is taken at the price it opened at (bid 1.1 - 0.002).
    const first = await rowOf(client, ticket);
    assert.deepEqual([first?.stopLoss, first?.trailingStop], [1.098, { distance: 200, activation: 0, step: 50 }]);
    await eventually('the first stop written', async () => (await stored(t, ticket)).stop_loss === 1.098);

    await push(t, 'EURUSD', 1.10049, 1.10069);
    assert.equal((await rowOf(client, ticket))?.stopLoss, 1.098, '49 points is under the step');
    await push(t, 'EURUSD', 1.1012, 1.1014);
    assert.equal((await rowOf(client, ticket))?.stopLoss, 1.0992);
    await push(t, 'EURUSD', 1.1005, 1.1007);
    assert.equal((await rowOf(client, ticket))?.stopLoss, 1.0992, 'never back');
    const row = await eventually('the move written', async () => {
      const s = await stored(t, ticket);
      return s.stop_loss === 1.0992 ? s : null;
    });
    assert.deepEqual([row.trail_distance, row.trail_activation, row.trail_step], [200, 0, 50]);
    await eventually('the moves announced', async () => events.events.filter((e) => e.type === 'position.modified' && e.by === 'trailing').length >= 2);
    const moves = events.events.filter((e) => e.type === 'position.modified').map((e) => (e.type === 'position.modified' ? e.stopLoss : 0));
    assert.deepEqual(moves, [1.098, 1.0992]);

    // The price falls through the trailed stop: closed by it, at the tick's bid (110 points under the open: a loss cut 90 points short of the first stop).
    await push(t, 'EURUSD', 1.0991, 1.0993);
    const closed = await eventually('closed at the trailed stop', async () => (await history(client)).find((h) => h.ID === ticket));
    assert.deepEqual([closed.closeReason, closed.stopLoss, closed.lastPrice, closed.profit], ['sl', 1.0992, 1.0991, '-110.00']);
    assert.deepEqual(await findLedgerMismatches(t.ctx.db), []);
    events.stop();
  });

  test('a stop whose close fails stays where it is while the close is tried, then trails again and closes at the trailed stop', async () => {
    const { client } = await desk.fundedTrader('10000.00');
    await push(t, 'EURUSD', BID, ASK);
    const r = await open(client, { tradestypes: 'buy', trailingStop: { distance: 200, step: 50 } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const ticket = r.body.ticket as number;
    await eventually('the first stop written', async () => (await stored(t, ticket)).stop_loss === 1.098);
    // The database refuses to close it (as a failing disk or a constraint would).
    if (t.ctx.engine === 'sqlite') {
      await sql.raw(`create trigger refuse_trail_close before update of status on positions when new.id = ${ticket} and new.status = 'closed' begin select raise(abort, 'refused by test'); end`).execute(t.ctx.db);
    } else {
      await sql.raw(`create function refuse_trail_close() returns trigger language plpgsql as $$ begin raise exception 'refused by test'; end $$`).execute(t.ctx.db);
      await sql.raw(`create trigger refuse_trail_close before update of status on positions for each row when (new.id = ${ticket} and new.status = 'closed') execute function refuse_trail_close()`).execute(t.ctx.db);
    }
    try {
      const { account_id: accountId } = await t.ctx.db.selectFrom('positions').select('account_id').where('id', '=', ticket).executeTakeFirstOrThrow();
      const held = () => t.app.trading.positionsOf(accountId).find((p) => p.id === ticket);
      // One feed batch: a tick through the stop queues its close; the next, 120 points over the
      // open, finds the stop's close under way and leaves the stop where it is.
      await pushTicks(t, [
        { symbol: 'EURUSD', bid: 1.0979, ask: 1.0981 },
        { symbol: 'EURUSD', bid: 1.1012, ask: 1.1014 },
      ]);
      await eventually('the close tried and given up', async () => logLines.some((l) => l.includes('automatic close failed') && JSON.parse(l).positionId === ticket));
      assert.ok(held() && !held()!.triggered && !held()!.closing, 'released');
      assert.equal((await rowOf(client, ticket))?.stopLoss, 1.098, 'not trailed while its close was under way');
      assert.equal((await stored(t, ticket)).status, 'open');
    } finally {
      await sql.raw(t.ctx.engine === 'sqlite' ? 'drop trigger refuse_trail_close' : 'drop trigger refuse_trail_close on positions').execute(t.ctx.db);
    }
    // Released, it trails again from the stop it had: at 120 points over the open, the stop follows 200 behind.
    await push(t, 'EURUSD', 1.1012, 1.1014);
    assert.equal((await rowOf(client, ticket))?.stopLoss, 1.0992);
    await push(t, 'EURUSD', 1.0991, 1.0993);
    const closed = await eventually('closed at the trailed stop', async () => (await history(client)).find((h) => h.ID === ticket));
    assert.deepEqual([closed.closeReason, closed.stopLoss, closed.lastPrice], ['sl', 1.0992, 1.0991]);
    assert.deepEqual(await findLedgerMismatches(t.ctx.db), []);
  });

  test("a Sell's stop waits for 50 points of profit, then trails the ask 100 points above", async () => {
    const { client } = await desk.fundedTrader('10000.00');
    await push(t, 'EURUSD', BID, ASK);
    const r = await open(client, { tradestypes: 'sell', trailingStop: { distance: 100, activation: 50 } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const ticket = r.body.ticket as number;
    assert.equal((await rowOf(client, ticket))?.stopLoss, 0, 'not yet in profit');
    // Opened at the bid of 1.1; the ask must come to 1.0995 or under.
    await push(t, 'EURUSD', 1.0994, 1.09951);
    assert.equal((await rowOf(client, ticket))?.stopLoss, 0, '49 points in profit');
    await push(t, 'EURUSD', 1.0993, 1.0995);
    assert.equal((await rowOf(client, ticket))?.stopLoss, 1.1005);
    await push(t, 'EURUSD', 1.098, 1.0982);
    assert.equal((await rowOf(client, ticket))?.stopLoss, 1.0992);
    await push(t, 'EURUSD', 1.0984, 1.0986);
    assert.equal((await rowOf(client, ticket))?.stopLoss, 1.0992, 'never back');
  });

  test('set, changed and removed by a modify; a stop set by hand further in profit is kept; refused settings change nothing', async () => {
    const { client } = await desk.fundedTrader('10000.00');
    await push(t, 'EURUSD', BID, ASK);
    const ticket = (await open(client, { tradestypes: 'buy', stopLoss: 1.09, takeProfit: 1.12 })).body.ticket as number;
    assertFailure(await modify(client, { ticket, stopLoss: 1.09, takeProfit: 1.12, trailingStop: { distance: 0 } }), 400, /trailing distance must be a whole number of points from 1/);
    assertFailure(await modify(client, { ticket, stopLoss: 1.09, takeProfit: 1.12, trailingStop: { distance: 1.5 } }), 400, /trailing distance/);
    assertFailure(await modify(client, { ticket, stopLoss: 1.09, takeProfit: 1.12, trailingStop: { distance: 'far' } }), 400, /trailing distance/);
    assertFailure(await modify(client, { ticket, stopLoss: 1.09, takeProfit: 1.12, trailingStop: { distance: 10, activation: -1 } }), 400, /trailing activation/);
    assertFailure(await modify(client, { ticket, stopLoss: 1.09, takeProfit: 1.12, trailingStop: { distance: 10, step: 0 } }), 400, /trailing step/);
    assertFailure(await modify(client, { ticket, stopLoss: 1.09, takeProfit: 1.12, trailingStop: 300 }), 400, /trailingStop must be an object/);
    assertFailure(await open(client, { tradestypes: 'buy', trailingStop: { distance: 2_000_000 } }), 400, /trailing distance/);
    assert.equal((await openTrades(client)).length, 1, 'nothing opened');
    let s = await stored(t, ticket);
    assert.deepEqual([s.stop_loss, s.trail_distance], [1.09, 0]);

    // Set: 300 points behind the bid of 1.1 is 1.097, above the stop of 1.09: it moves at once.
    const set = await modify(client, { ticket, stopLoss: 1.09, takeProfit: 1.12, trailingStop: { distance: 300 } });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.match(set.body.message as string, /trailing stop 300 points/);
    assert.deepEqual([(await rowOf(client, ticket))?.stopLoss, (await rowOf(client, ticket))?.takeProfit], [1.097, 1.12]);
    // Changed, with a stop set by hand closer than the trail would put it: kept (the trail moves it only toward profit).
    assert.equal((await modify(client, { ticket, stopLoss: 1.0995, takeProfit: 1.12, trailingStop: { distance: 300 } })).status, 200);
    await push(t, 'EURUSD', 1.1003, 1.1005);
    assert.equal((await rowOf(client, ticket))?.stopLoss, 1.0995);
    await push(t, 'EURUSD', 1.1030, 1.1032);
    assert.equal((await rowOf(client, ticket))?.stopLoss, 1.1);
    // Removed: the stop stays where the trail left it (as the modify names it) and moves no more.
    assert.equal((await modify(client, { ticket, stopLoss: 1.1, takeProfit: 1.12 })).status, 200);
    await push(t, 'EURUSD', 1.1080, 1.1082);
    const row = await rowOf(client, ticket);
    assert.deepEqual([row?.stopLoss, row?.trailingStop], [1.1, null]);
    s = await stored(t, ticket);
    assert.deepEqual([s.stop_loss, s.trail_distance], [1.1, 0]);
  });

  test('a modify that keeps trailing never moves the trailed stop back (a client a move behind); one that turns it off may', async () => {
    const { client } = await desk.fundedTrader('10000.00');
    await push(t, 'EURUSD', BID, ASK);
    const ticket = (await open(client, { tradestypes: 'buy', trailingStop: { distance: 100 } })).body.ticket as number;
    await push(t, 'EURUSD', 1.103, 1.1032);
    assert.equal((await rowOf(client, ticket))?.stopLoss, 1.102);
    // The take profit changed from a screen that still shows the first stop (1.099).
    assert.equal((await modify(client, { ticket, stopLoss: 1.099, takeProfit: 1.12, trailingStop: { distance: 100 } })).status, 200);
    assert.deepEqual([(await rowOf(client, ticket))?.stopLoss, (await rowOf(client, ticket))?.takeProfit], [1.102, 1.12]);
    await eventually('kept in the database', async () => (await stored(t, ticket)).stop_loss === 1.102);
    // Turning the trailing stop off, the trader may set the stop anywhere valid.
    assert.equal((await modify(client, { ticket, stopLoss: 1.099, takeProfit: 1.12 })).status, 200);
    assert.equal((await rowOf(client, ticket))?.stopLoss, 1.099);
  });

  test('a pending order carries a trailing stop to the position it opens, which trails from its fill; it is shown, changed and removed with the order', async () => {
    const { client } = await desk.fundedTrader('10000.00');
    await push(t, 'EURUSD', BID, ASK);
    const placed = await client.post(calls.addPendingOrder.path, { fullSymbol: 'EURUSD', orderType: 'buy_limit', volume: 1, price: 1.099, stopLoss: 0, takeProfit: 0, trailingStop: { distance: 300 } });
    assert.equal(placed.status, 200, JSON.stringify(placed.body));
    const orderId = placed.body.orderId as number;
    const listed = async () => ((await client.get(`${calls.getPendingOrders.path}?status=all`)).body.data as { orderId: number; trailingStop: unknown; status: string; ticket: number | null }[]).find((o) => o.orderId === orderId)!;
    assert.deepEqual((await listed()).trailingStop, { distance: 300, activation: 0, step: 1 });

    // Changed with the order, refused settings change nothing, and removed by a change without it.
    const change = (trailingStop: unknown) => client.post(calls.modifyPendingOrder.path, { orderId, price: 1.099, stopLimitPrice: 0, stopLoss: 0, takeProfit: 0, trailingStop });
    assert.equal((await change({ distance: 150, activation: 20, step: 10 })).status, 200);
    assertFailure(await change({ distance: 0 }), 400);
    assert.deepEqual((await listed()).trailingStop, { distance: 150, activation: 20, step: 10 });
    assert.equal((await change(undefined)).status, 200);
    assert.equal((await listed()).trailingStop, null);
    assert.equal((await change({ distance: 200 })).status, 200);
    assert.deepEqual(await t.ctx.db.selectFrom('orders').select(['trail_distance', 'trail_activation', 'trail_step']).where('id', '=', orderId).executeTakeFirstOrThrow(), { trail_distance: 200, trail_activation: 0, trail_step: 1 });

    // The ask reaches 1.099: filled there; the stop starts 200 points under the bid of the fill and trails on.
    await push(t, 'EURUSD', 1.0988, 1.099);
    const filled = await eventually('filled', async () => {
      const o = await listed();
      return o.status === 'filled' ? o : null;
    });
    const ticket = filled.ticket!;
    assert.deepEqual([(await rowOf(client, ticket))?.stopLoss, (await rowOf(client, ticket))?.trailingStop], [1.0968, { distance: 200, activation: 0, step: 1 }]);
    await push(t, 'EURUSD', 1.1, 1.1002);
    assert.equal((await rowOf(client, ticket))?.stopLoss, 1.098);
    await eventually('the trailed stop written', async () => (await stored(t, ticket)).stop_loss === 1.098);
  });

  test("the back office's change of a pending order keeps its trailing stop", async () => {
    const trader = await desk.fundedTrader('10000.00');
    await push(t, 'EURUSD', BID, ASK);
    const orderId = (await trader.client.post(calls.addPendingOrder.path, { fullSymbol: 'EURUSD', orderType: 'sell_limit', volume: 1, price: 1.102, stopLoss: 0, takeProfit: 0, trailingStop: { distance: 120, step: 5 } })).body.orderId as number;
    const r = await desk.admin.post(calls.modifyTraderOrder.path, { traders_id: trader.id, orderId, price: 1.1025, stopLimitPrice: 0, stopLoss: 0, takeProfit: 0 });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const row = await t.ctx.db.selectFrom('orders').select(['price', 'trail_distance', 'trail_step']).where('id', '=', orderId).executeTakeFirstOrThrow();
    assert.deepEqual(row, { price: 1.1025, trail_distance: 120, trail_step: 5 });
  });

  test("another trader's ticket cannot be given a trailing stop", async () => {
    const owner = await desk.fundedTrader('10000.00');
    const other = await desk.fundedTrader('10000.00');
    await push(t, 'EURUSD', BID, ASK);
    const ticket = (await open(owner.client, { tradestypes: 'buy' })).body.ticket as number;
    assertFailure(await modify(other.client, { ticket, stopLoss: 0, takeProfit: 0, trailingStop: { distance: 100 } }), 404);
    assert.deepEqual((await stored(t, ticket)).trail_distance, 0);
  });
});

describe('trailing stops across a restart', () => {
  test('a restarted server loads the trailed stop and trails on from it', async () => {
    const db = await restartableDatabase();
    try {
      let t = await startApp({ config: { ...roomyLimits, databaseUrl: db.url } });
      const desk = await tradingDesk(t, 'Restart bank');
      const trader = await desk.fundedTrader('10000.00');
      await push(t, 'EURUSD', BID, ASK);
      const ticket = (await open(trader.client, { tradestypes: 'buy', trailingStop: { distance: 100 } })).body.ticket as number;
      await push(t, 'EURUSD', 1.1020, 1.1022);
      assert.equal((await rowOf(trader.client, ticket))?.stopLoss, 1.1010);
      await t.close();

      t = await startApp({ config: { ...roomyLimits, databaseUrl: db.url } });
      try {
        const client = await signIn(t, trader);
        assert.deepEqual([(await rowOf(client, ticket))?.stopLoss, (await rowOf(client, ticket))?.trailingStop], [1.101, { distance: 100, activation: 0, step: 1 }]);
        await push(t, 'EURUSD', 1.1040, 1.1042);
        assert.equal((await rowOf(client, ticket))?.stopLoss, 1.103);
        await push(t, 'EURUSD', 1.1029, 1.1031);
        const closed = await eventually('closed at the trailed stop', async () => (await history(client)).find((h) => h.ID === ticket));
        assert.deepEqual([closed.closeReason, closed.stopLoss, closed.lastPrice], ['sl', 1.103, 1.1029]);
      } finally {
        await t.close();
      }
    } finally {
      await db.drop();
    }
  });
});

const PG = process.env.DATABASE_URL ?? '';

describe('trailing stops across a change of engine leader', { skip: PG.startsWith('postgres') ? false : 'needs PostgreSQL (DATABASE_URL=postgres://…)', timeout: 120_000 }, () => {
  test('the leader trails, goes away; the follower takes the lead, keeps trailing and closes at the trailed stop', async () => {
    const { leader, follower, close } = await startLeaderAndFollower();
    try {
      await push(leader, 'EURUSD', BID, ASK);
      const desk = await tradingDesk(leader);
      const trader = await desk.fundedTrader('10000.00');
      const ticket = (await open(trader.client, { tradestypes: 'sell', trailingStop: { distance: 100 } })).body.ticket as number;
      await push(leader, 'EURUSD', 1.0980, 1.0982);
      assert.equal((await rowOf(trader.client, ticket))?.stopLoss, 1.0992);
      await eventually('the move written', async () => (await stored(leader, ticket)).stop_loss === 1.0992);

      await leader.close();
      await eventually('the follower leads', async () => follower.app.cluster.role === 'leader' && follower.app.trading.isRunning, 30_000);
      const client = await signIn(follower, trader);
      assert.equal((await rowOf(client, ticket))?.stopLoss, 1.0992);
      // The new leader trails on: the ask falls 40 points, the stop follows.
      await push(follower, 'EURUSD', 1.0940, 1.0942);
      assert.equal((await rowOf(client, ticket))?.stopLoss, 1.0952);
      await eventually('the move written by the new leader', async () => (await stored(follower, ticket)).stop_loss === 1.0952);
      // And its stop loss closes the position at the trailed stop.
      await push(follower, 'EURUSD', 1.0951, 1.0953);
      const closed = await eventually('closed at the trailed stop', async () => (await history(client)).find((h) => h.ID === ticket));
      assert.deepEqual([closed.closeReason, closed.stopLoss, closed.lastPrice], ['sl', 1.0952, 1.0953]);
    } finally {
      await close();
    }
  });
});
