import assert from 'node:assert/strict';
import { calls } from '@tradeport/contracts';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from './helpers/app';
import type { Client, SignedInTrader } from './helpers/client';
import { assertFailure, ASK, BID, closePosition, history, openPosition, push, roomyLimits, tradingDesk, type HistoryRow } from './helpers/trading';

const HISTORY = calls.getTradesHistory.path;
const ORDERS = calls.getPendingOrders.path;

type OrderRow = { orderId: number; status: string; timeStamp: string; updatedAt: string; reason: string };

/** Follows `nextCursor` from the first page to the end; returns every row, in the order given. */
async function pageThrough<T>(client: Client, path: string, params: Record<string, string | number>): Promise<{ rows: T[]; pages: number }> {
  const rows: T[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const q = new URLSearchParams(Object.entries({ ...params, ...(cursor === null ? {} : { before: cursor }) }).map(([k, v]): [string, string] => [k, String(v)]));
    const r = await client.get(`${path}${path.includes('?') ? '&' : '?'}${q}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.status, 'success');
    assert.ok('nextCursor' in r.body, 'a paged answer carries nextCursor');
    assert.ok(r.body.data.length <= Number(params.limit ?? 100));
    rows.push(...(r.body.data as T[]));
    cursor = r.body.nextCursor as string | null;
    pages++;
    assert.ok(pages < 1000, 'paging ends');
  } while (cursor !== null);
  return { rows, pages };
}

const newestFirst = (a: { time: number; id: number }, b: { time: number; id: number }) => b.time - a.time || b.id - a.id;

/**
 * The terminal's History: closed positions and finished orders paged by cursor through all of
 * them, newest first, with date ranges; the spec's plain calls answer as before.
 */
describe('terminal history paging', () => {
  let t: TestApp;
  let a: SignedInTrader;
  let b: SignedInTrader;
  /** The tickets `a` closed, with their close times, as the server keeps them. */
  const CLOSED = 230;
  const ORDER_COUNT = 240;
  let firstCloseAt = 0;

  before(async () => {
    t = await startApp({ config: roomyLimits });
    const desk = await tradingDesk(t);
    a = await desk.fundedTrader('100000.00');
    b = await desk.fundedTrader('100000.00');
    await push(t, 'EURUSD', BID, ASK);
    firstCloseAt = t.clock.now();
    // Runs of up to five positions close in the same millisecond: the id alone orders them.
    for (let i = 0; i < CLOSED; i++) {
      if (i % 5 === 0 && i > 0) {
        t.clock.advance(1000);
        await push(t, 'EURUSD', BID, ASK);
      }
      const ticket = await openPosition(a.client, { side: i % 2 ? 'sell' : 'buy', volume: 0.01 });
      await closePosition(a.client, ticket);
    }
    await closePosition(b.client, await openPosition(b.client, { side: 'buy', volume: 0.01 }));
    // Orders placed in runs of the same millisecond; a third cancelled, the rest left pending.
    for (let i = 0; i < ORDER_COUNT; i++) {
      if (i % 4 === 0) {
        t.clock.advance(500);
        await push(t, 'EURUSD', BID, ASK);
      }
      const r = await a.client.post(calls.addPendingOrder.path, { fullSymbol: 'EURUSD', orderType: 'Buy Limit', volume: 0.01, price: 1.05 });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      if (i % 3 === 0) assert.equal((await a.client.post(calls.cancelPendingOrder.path, { orderId: r.body.orderId })).status, 200);
    }
    assert.equal((await b.client.post(calls.addPendingOrder.path, { fullSymbol: 'EURUSD', orderType: 'Buy Limit', volume: 0.01, price: 1.05 })).status, 200);
  });
  after(() => t.close());

  test('a plain request answers as the spec’s call: the newest closed positions, no cursor', async () => {
    const r = await a.client.get(HISTORY);
    assert.equal(r.status, 200);
    assert.equal(r.body.data.length, CLOSED);
    assert.ok(!('nextCursor' in r.body));
    const o = await a.client.get(`${ORDERS}?status=all`);
    assert.equal(o.body.data.length, 200, 'the newest 200, as before');
    assert.ok(!('nextCursor' in o.body));
    assert.ok(!('nextCursor' in (await a.client.get(ORDERS)).body));
  });

  test('paging through every closed position returns each exactly once, newest closed first, ties by ticket', async () => {
    const all = await history(a.client);
    for (const limit of [1, 7, 100, 500]) {
      const { rows, pages } = await pageThrough<HistoryRow>(a.client, HISTORY, { limit });
      assert.equal(pages, Math.max(1, Math.ceil(CLOSED / limit)), `limit ${limit}: pages`);
      assert.deepEqual(rows.map((r) => r.ID), all.map((r) => r.ID), `limit ${limit}: same rows in the same order as the plain list`);
      assert.equal(new Set(rows.map((r) => r.ID)).size, CLOSED);
      const keys = rows.map((r) => ({ time: Date.parse(r.closeTime), id: r.ID }));
      assert.deepEqual([...keys].sort(newestFirst), keys, 'ordered by close time, then ticket, newest first');
    }
  });

  test('each history row has its open and close time and price, profit, swap and close reason', async () => {
    const r = await a.client.get(`${HISTORY}?limit=1`);
    const [row] = r.body.data as HistoryRow[];
    assert.ok(row);
    assert.equal(row.symbol, 'EURUSD');
    assert.equal(row.closeReason, 'manual');
    assert.equal(typeof row.tradePrice, 'number');
    assert.equal(typeof row.lastPrice, 'number');
    assert.match(row.timeStamp, /^\d{4}-\d\d-\d\dT/);
    assert.match(row.closeTime, /^\d{4}-\d\d-\d\dT/);
    assert.match(row.profit, /^-?\d+\.\d\d$/);
    assert.match(row.swap, /^-?\d+\.\d\d$/);
    assert.equal(typeof r.body.nextCursor, 'string');
  });

  test('a date range pages through the positions closed within it, from inclusive and to exclusive', async () => {
    // Close times are firstCloseAt + k seconds, five positions at each.
    const from = firstCloseAt + 10_000;
    const to = firstCloseAt + 20_000;
    const { rows } = await pageThrough<HistoryRow>(a.client, HISTORY, { from, to, limit: 8 });
    assert.equal(rows.length, 50);
    assert.ok(rows.every((r) => Date.parse(r.closeTime) >= from && Date.parse(r.closeTime) < to));
    const all = await history(a.client);
    assert.deepEqual(rows.map((r) => r.ID), all.filter((r) => Date.parse(r.closeTime) >= from && Date.parse(r.closeTime) < to).map((r) => r.ID));
    const empty = await a.client.get(`${HISTORY}?from=${firstCloseAt - 5000}&to=${firstCloseAt}`);
    assert.deepEqual(empty.body, { status: 'success', data: [], nextCursor: null });
  });

  test('paging through every order (status=all) returns each exactly once with its final state, newest placed first', async () => {
    const { rows } = await pageThrough<OrderRow>(a.client, ORDERS, { status: 'all', limit: 37 });
    assert.equal(rows.length, ORDER_COUNT);
    assert.equal(new Set(rows.map((r) => r.orderId)).size, ORDER_COUNT);
    const keys = rows.map((r) => ({ time: Date.parse(r.timeStamp), id: r.orderId }));
    assert.deepEqual([...keys].sort(newestFirst), keys);
    const cancelled = rows.filter((r) => r.status === 'cancelled');
    assert.equal(cancelled.length, ORDER_COUNT / 3);
    assert.ok(cancelled.every((r) => r.reason === 'Cancelled by the trader' && Date.parse(r.updatedAt) >= Date.parse(r.timeStamp)));
    const plain = (await a.client.get(`${ORDERS}?status=all`)).body.data as OrderRow[];
    assert.deepEqual(rows.slice(0, 200).map((r) => r.orderId), plain.map((r) => r.orderId), 'the first 200 are the plain answer');
    const pending = await pageThrough<OrderRow>(a.client, ORDERS, { limit: 50 });
    assert.equal(pending.rows.length, ORDER_COUNT - ORDER_COUNT / 3);
    assert.ok(pending.rows.every((r) => r.status === 'pending'));
    const ranged = await pageThrough<OrderRow>(a.client, ORDERS, { status: 'all', from: firstCloseAt, to: t.clock.now() - 2000, limit: 500 });
    assert.ok(ranged.rows.length > 0 && ranged.rows.length < ORDER_COUNT);
    assert.ok(ranged.rows.every((r) => Date.parse(r.timeStamp) < t.clock.now() - 2000));
  });

  test('a trader never sees another trader’s rows, whatever cursor they send', async () => {
    const own = await pageThrough<HistoryRow>(b.client, HISTORY, { limit: 500 });
    assert.equal(own.rows.length, 1);
    const aIds = new Set((await history(a.client)).map((r) => r.ID));
    const first = await a.client.get(`${HISTORY}?limit=3`);
    const stolen = await b.client.get(`${HISTORY}?limit=500&before=${first.body.nextCursor}`);
    assert.ok((stolen.body.data as HistoryRow[]).every((r) => !aIds.has(r.ID)));
    const orders = await pageThrough<OrderRow>(b.client, ORDERS, { status: 'all', limit: 500 });
    assert.equal(orders.rows.length, 1);
    const far = await b.client.get(`${ORDERS}?status=all&before=${8.64e15}_2147483647`);
    assert.equal(far.body.data.length, 1);
  });

  test('bad paging parameters are refused with a message, never a 500', async () => {
    for (const path of [HISTORY, `${ORDERS}?status=all&`]) {
      const url = (q: string) => (path.endsWith('&') ? `${path}${q}` : `${path}?${q}`);
      assertFailure(await a.client.get(url('limit=0')), 400, 'limit must be between 1 and 500.');
      assertFailure(await a.client.get(url('limit=501')), 400, 'limit must be between 1 and 500.');
      assertFailure(await a.client.get(url('limit=2.5')), 400, 'limit must be a whole number.');
      assertFailure(await a.client.get(url('limit=ten')), 400, 'limit must be a number.');
      assertFailure(await a.client.get(url('limit=')), 400, 'limit must be between 1 and 500.');
      for (const cursor of ['abc', '12', '1.5', '1_0', '-1_5', '1_5_6', '99999999999999999_1', '1_99999999999', '1e3_4', '1_2147483648', '']) {
        assertFailure(await a.client.get(url(`before=${encodeURIComponent(cursor)}`)), 400, 'before must be a cursor from nextCursor.');
      }
      assertFailure(await a.client.get(url('before=1_1&before=2_2')), 400);
      const notATime = (name: string) => `${name} must be a time in epoch milliseconds (the year 2000 or later).`;
      assertFailure(await a.client.get(url('from=yesterday')), 400, notATime('from'));
      assertFailure(await a.client.get(url('from=2026-03-04')), 400, notATime('from'));
      assertFailure(await a.client.get(url('to=-5')), 400, notATime('to'));
      assertFailure(await a.client.get(url('to=1e20')), 400, notATime('to'));
      assertFailure(await a.client.get(url(`from=${Math.floor(firstCloseAt / 1000)}`)), 400, notATime('from'));
      assertFailure(await a.client.get(url(`from=${firstCloseAt + 1}&to=${firstCloseAt}`)), 400, 'from must be before to.');
      assertFailure(await a.client.get(url(`from=${firstCloseAt}&to=${firstCloseAt}`)), 400, 'from must be before to.');
    }
    assertFailure(await a.client.get(`${ORDERS}?status=done&limit=5`), 400, "status must be 'pending', 'all' or 'history'.");
  });

  test('status=history pages through the finished orders only, newest finished first, with a range on the finish time', async () => {
    const cancelledOfA = await pageThrough<OrderRow>(a.client, ORDERS, { status: 'history', limit: 9 });
    assert.equal(cancelledOfA.rows.length, ORDER_COUNT / 3);
    assert.equal(new Set(cancelledOfA.rows.map((r) => r.orderId)).size, ORDER_COUNT / 3);
    assert.ok(cancelledOfA.rows.every((r) => r.status === 'cancelled'));

    // Placed first, second, third; finished third, first, second.
    await push(t, 'EURUSD', BID, ASK);
    const place = async () => (await b.client.post(calls.addPendingOrder.path, { fullSymbol: 'EURUSD', orderType: 'Buy Limit', volume: 0.01, price: 1.05 })).body.orderId as number;
    const first = await place();
    t.clock.advance(1000);
    const second = await place();
    t.clock.advance(1000);
    const third = await place();
    const finishedFrom = t.clock.now() + 1000;
    for (const id of [third, first, second]) {
      t.clock.advance(1000);
      assert.equal((await b.client.post(calls.cancelPendingOrder.path, { orderId: id })).status, 200);
    }
    const { rows } = await pageThrough<OrderRow>(b.client, ORDERS, { status: 'history', limit: 1 });
    assert.deepEqual(rows.map((r) => r.orderId), [second, first, third], 'newest finished first; the pending order is not history');
    const keys = rows.map((r) => ({ time: Date.parse(r.updatedAt), id: r.orderId }));
    assert.deepEqual([...keys].sort(newestFirst), keys);
    const ranged = await pageThrough<OrderRow>(b.client, ORDERS, { status: 'history', from: finishedFrom + 1000, limit: 5 });
    assert.deepEqual(ranged.rows.map((r) => r.orderId), [second, first]);
    // Without paging parameters it still pages (at most 100), and says where the next page starts.
    const plain = await b.client.get(`${ORDERS}?status=history`);
    assert.deepEqual([plain.body.data.length, plain.body.nextCursor], [3, null]);
  });
});
