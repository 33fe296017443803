import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { calls } from '@tradeport/contracts';
import { findLedgerMismatches, postToLedger } from '../src/services/ledger';
import type { LedgerKind } from '../src/storage/schema';
import { liveAccountOf } from './helpers/accounts';
import { startApp, type TestApp } from './helpers/app';
import { signedInAdmin, type Client, type SignedInTrader } from './helpers/client';
import { ASK, assertFailure, BID, closePosition, eventually, openPosition, openTrades, push, roomyLimits, tradingDesk, type TradingDesk } from './helpers/trading';

const ORDERS = calls.getOrderHistory.path;
const OPERATIONS = calls.getBalanceOperations.path;
const TOTALS = calls.getHistoryTotals.path;

type OrderRow = { kind: 'market' | 'pending'; orderId: number | null; ticket: number | null; symbol: string; orderType: string; volume: number; price: number; status: string; reason: string; timeStamp: string; updatedAt: string };
type Operation = { id: number; kind: string; amount: string; balanceAfter: string; ticket: number | null; comment: string; timeStamp: string };

/** Rollovers at 22:00 UTC; margin checks only when asked (the timer would fire in an hour). */
const config = { ...roomyLimits, trading: { marginCallLevel: 100, stopOutLevel: 50, marginCheckMs: 3_600_000, rollover: { zone: 'UTC', minuteOfDay: 22 * 60 } } };
const TUE_12 = Date.parse('2026-03-03T12:00:00Z');

/** Follows `nextCursor` from the first page to the end; returns every row, in the order given. */
async function pageThrough<T>(client: Client, path: string, params: Record<string, string | number>): Promise<T[]> {
  const rows: T[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 1000; pages++) {
    const q = new URLSearchParams(Object.entries({ ...params, ...(cursor === null ? {} : { before: cursor }) }).map(([k, v]): [string, string] => [k, String(v)]));
    const r = await client.get(`${path}?${q}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.ok(r.body.data.length <= Number(params.limit ?? 100));
    rows.push(...(r.body.data as T[]));
    cursor = r.body.nextCursor as string | null;
    if (cursor === null) return rows;
  }
  assert.fail('paging never ends');
}

/**
 * History's other lists over real HTTP: every order the trader placed (market orders with the
 * pending ones), the balance operations the ledger holds besides closed positions, and the totals
 * of a range, on a clock the test moves.
 */
describe('trader history: orders, balance operations and totals', () => {
  let t: TestApp;
  let desk: TradingDesk;
  let admin: Client;
  let a: SignedInTrader;
  let other: SignedInTrader;
  const marks = { start: 0, ordersDone: 0, closes: 0, end: 0 };
  const tickets = { held: 0, fromOrder: 0, sameMs: 0 };
  const orders = { filled: 0, cancelled: 0, expired: 0, sameMs: 0 };

  const step = () => t.clock.advance(1000);
  const place = async (client: Client, body: Record<string, unknown>) => {
    const r = await client.post(calls.addPendingOrder.path, { fullSymbol: 'EURUSD', volume: 0.1, ...body });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.orderId as number;
  };
  /** Each trader's live account id, looked up once. */
  const accountIds = new Map<number, number>();
  const post = async (userId: number, kind: LedgerKind, amountCents: number, memo: string) => {
    if (!accountIds.has(userId)) accountIds.set(userId, (await liveAccountOf(t.ctx.db, userId)).id);
    const accountId = accountIds.get(userId)!;
    return t.ctx.db.transaction().execute((trx) => postToLedger(trx, { accountId, userId, kind, amountCents, refType: 'test', refId: `${kind}-${t.clock.now()}`, memo, at: t.clock.now() }));
  };

  before(async () => {
    t = await startApp({ config });
    t.clock.set(TUE_12);
    desk = await tradingDesk(t, 'History bank');
    a = await desk.fundedTrader('10000.00', { remember: true });
    other = await desk.fundedTrader('10000.00', { remember: true });
    step();
    marks.start = t.clock.now();
    await push(t, 'EURUSD', BID, ASK);
    // A market Buy, held across the rollover, closed after it: its swap is charged at the close.
    tickets.held = await openPosition(a.client, { side: 'buy', volume: 1 });
    step();
    // A Buy Limit that fills: its position is the order's, not a market order of its own.
    orders.filled = await place(a.client, { orderType: 'buy_limit', price: 1.099 });
    step();
    await push(t, 'EURUSD', 1.0988, 1.099);
    tickets.fromOrder = (await eventually('the fill', async () => (await openTrades(a.client)).find((p) => p.ticket !== tickets.held)))!.ticket;
    step();
    await push(t, 'EURUSD', BID, ASK);
    orders.cancelled = await place(a.client, { orderType: 'sell_limit', price: 1.105 });
    step();
    assert.equal((await a.client.post(calls.cancelPendingOrder.path, { orderId: orders.cancelled })).status, 200);
    step();
    orders.expired = await place(a.client, { orderType: 'sell_stop', price: 1.09, expiration: t.clock.now() + 500 });
    step();
    assert.ok((await t.app.trading.expireOrders(t.clock.now())) >= 1);
    step();
    // A market Sell in the same millisecond as a pending order's end: both listed, the pending one first.
    orders.sameMs = await place(a.client, { orderType: 'buy_stop', price: 1.2 });
    assert.equal((await a.client.post(calls.cancelPendingOrder.path, { orderId: orders.sameMs })).status, 200);
    tickets.sameMs = await openPosition(a.client, { side: 'sell', volume: 0.5 });
    marks.ordersDone = t.clock.now();
    // Another trader's market order never shows.
    await openPosition(other.client, { side: 'buy', volume: 0.1 });

    // The rollover charges the open positions (the Buy of 1 lot −7.20); closing posts profit and swap.
    t.clock.set(Date.parse('2026-03-03T23:00:00Z'));
    assert.equal(await t.app.trading.applyRollovers(t.clock.now()), 1);
    step();
    await push(t, 'EURUSD', 1.1012, 1.1014);
    marks.closes = t.clock.now();
    await closePosition(a.client, tickets.held);
    await closePosition(a.client, tickets.sameMs);
    step();
    // A withdrawal paid, an adjustment, credit, and a kind this server does not know (a commission).
    const w = await a.client.post(calls.addWithdrawal.path, { withdrawalsAmount: '250.00', paymentAccount: 'IBAN 1' });
    assert.equal(w.status, 200, JSON.stringify(w.body));
    // The clock jumped hours: the back office signs in again.
    admin = await signedInAdmin(t);
    assert.equal((await admin.post(calls.editStatusWithdrawal.path, { withdrawals_id: w.body.id, status: 1 })).status, 200);
    step();
    await post(a.id, 'adjustment', 1234, 'Goodwill');
    await post(a.id, 'credit', 5000, 'Bonus');
    await post(a.id, 'commission' as LedgerKind, -350, 'Commission');
    marks.end = t.clock.now() + 1;
  });
  after(() => t.close());

  test('Orders lists market orders with the pending ones: type, volume, price, state and time, newest finished first', async () => {
    const rows = await pageThrough<OrderRow>(a.client, ORDERS, { limit: 100 });
    const view = rows.map((r) => [r.kind, r.orderType, r.status, r.orderId, r.ticket]);
    assert.deepEqual(view, [
      ['pending', 'buy_stop', 'cancelled', orders.sameMs, null],
      ['market', 'sell', 'filled', null, tickets.sameMs],
      ['pending', 'sell_stop', 'expired', orders.expired, null],
      ['pending', 'sell_limit', 'cancelled', orders.cancelled, null],
      ['pending', 'buy_limit', 'filled', orders.filled, tickets.fromOrder],
      ['market', 'buy', 'filled', null, tickets.held],
    ]);
    const held = rows.at(-1)!;
    assert.deepEqual([held.symbol, held.volume, held.price, held.reason, held.timeStamp, held.updatedAt], ['EURUSD', 1, ASK, 'Filled at market', new Date(marks.start).toISOString(), new Date(marks.start).toISOString()]);
    const sell = rows[1]!;
    assert.deepEqual([sell.volume, sell.price], [0.5, BID]);
    assert.equal(rows.filter((r) => r.ticket === tickets.fromOrder).length, 1, "a pending order's fill is not listed again as a market order");
  });

  test('paging with any page size returns each order once, in the same order; a range cuts on the finish time', async () => {
    const all = await pageThrough<OrderRow>(a.client, ORDERS, { limit: 500 });
    const key = (r: OrderRow) => `${r.kind}:${r.orderId ?? r.ticket}`;
    for (const limit of [1, 2, 3, 5]) assert.deepEqual((await pageThrough<OrderRow>(a.client, ORDERS, { limit })).map(key), all.map(key), `limit ${limit}`);
    const ranged = await pageThrough<OrderRow>(a.client, ORDERS, { from: marks.start + 1, to: marks.ordersDone, limit: 2 });
    assert.deepEqual(ranged.map(key), all.filter((r) => Date.parse(r.updatedAt) >= marks.start + 1 && Date.parse(r.updatedAt) < marks.ordersDone).map(key));
    assert.ok(ranged.length === 3, JSON.stringify(ranged));
    const mine = await pageThrough<OrderRow>(other.client, ORDERS, { limit: 10 });
    assert.deepEqual(mine.map((r) => r.kind), ['market'], "another trader's list has only their own order");
  });

  test('bad order-history parameters are refused with a message, never a 500', async () => {
    for (const cursor of ['123_4', 'abc', '1_x5', '1_m0', '1_p2147483648', '99999999999999999_m1', '']) assertFailure(await a.client.get(`${ORDERS}?before=${encodeURIComponent(cursor)}`), 400, 'before must be a cursor from nextCursor.');
    assertFailure(await a.client.get(`${ORDERS}?limit=0`), 400, 'limit must be between 1 and 500.');
    assertFailure(await a.client.get(`${ORDERS}?from=5&to=6`), 400, 'from must be a time in epoch milliseconds (the year 2000 or later).');
    assertFailure(await a.client.get(`${ORDERS}?from=${marks.end}&to=${marks.start}`), 400, 'from must be before to.');
    assert.equal((await admin.get(ORDERS)).status, 403, 'traders only');
  });

  test('balance operations list every ledger entry but closed positions’ profits, unknown kinds as they are, newest first', async () => {
    const ops = await pageThrough<Operation>(a.client, OPERATIONS, { limit: 2 });
    assert.deepEqual(
      ops.map((o) => [o.kind, o.amount, o.ticket, o.comment]),
      [
        ['commission', '-3.50', null, 'Commission'],
        ['credit', '50.00', null, 'Bonus'],
        ['adjustment', '12.34', null, 'Goodwill'],
        ['withdrawal', '-250.00', null, ops[3]!.comment],
        // Both market positions were open across the rollover: the Sell of 0.5 lot earns +2.10 × 0.5.
        ['swap', '1.05', tickets.sameMs, `Swap of position #${tickets.sameMs}`],
        ['swap', '-7.20', tickets.held, `Swap of position #${tickets.held}`],
        ['deposit', '10000.00', null, ops[6]!.comment],
      ],
    );
    // The balance after each: the credit bucket for credit, the balance for the rest.
    const profile = await a.client.get(calls.getMargins.path);
    assert.equal(ops[0]!.balanceAfter, profile.body.balance);
    assert.equal(ops[1]!.balanceAfter, '50.00');
    const ranged = await pageThrough<Operation>(a.client, OPERATIONS, { from: marks.closes, to: marks.closes + 1 });
    assert.deepEqual(ranged.map((o) => o.kind), ['swap', 'swap']);
    assertFailure(await a.client.get(`${OPERATIONS}?before=1_m2`), 400, 'before must be a cursor from nextCursor.');
    assert.deepEqual((await pageThrough<Operation>(other.client, OPERATIONS, {})).map((o) => o.kind), ['deposit']);
  });

  test('totals of a range: profit, swaps, deposits, withdrawals, other kinds and the net change of the balance', async () => {
    const whole = await a.client.get(`${TOTALS}?from=${marks.start - 10_000}&to=${marks.end}`);
    assert.equal(whole.status, 200, JSON.stringify(whole.body));
    const closed = (await a.client.get(calls.getTradesHistory.path)).body.data as { profit: string }[];
    const profit = closed.reduce((s, r) => s + Math.round(Number(r.profit) * 100), 0);
    assert.deepEqual(whole.body.data, {
      profit: (profit / 100).toFixed(2),
      swaps: '-6.15',
      deposits: '10000.00',
      withdrawals: '250.00',
      other: [
        { kind: 'adjustment', amount: '12.34' },
        { kind: 'commission', amount: '-3.50' },
      ],
      net: ((profit - 615 + 1_000_000 - 25_000 + 1234 - 350) / 100).toFixed(2),
      credit: '50.00',
      closedPositions: 2,
    });
    // The net is what the balance moved by: the whole history's net is the balance.
    const all = await a.client.get(TOTALS);
    assert.equal(all.body.data.net, (await a.client.get(calls.getMargins.path)).body.balance);
    // Only the closes' moment: the profit and swap of the two closed positions.
    const closes = await a.client.get(`${TOTALS}?from=${marks.closes}&to=${marks.closes + 1}`);
    assert.deepEqual([closes.body.data.deposits, closes.body.data.swaps, closes.body.data.closedPositions, closes.body.data.net], ['0.00', '-6.15', 2, ((profit - 615) / 100).toFixed(2)]);
    const none = await a.client.get(`${TOTALS}?from=${Date.parse('2020-01-01T00:00:00Z')}&to=${Date.parse('2020-02-01T00:00:00Z')}`);
    assert.deepEqual(none.body.data, { profit: '0.00', swaps: '0.00', deposits: '0.00', withdrawals: '0.00', other: [], net: '0.00', credit: '0.00', closedPositions: 0 });
    assertFailure(await a.client.get(`${TOTALS}?from=${marks.end}&to=${marks.start}`), 400, 'from must be before to.');
    assertFailure(await a.client.get(`${TOTALS}?to=yesterday`), 400, 'to must be a time in epoch milliseconds (the year 2000 or later).');
    assert.deepEqual(await findLedgerMismatches(t.ctx.db), [], 'reading changed no money');
  });
});
