import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { findLedgerMismatches } from '../src/services/ledger';
import type { TestApp } from './helpers/app';
import { eventually, history, openPosition, openTrades, push, pushTicks, roomyLimits, withTradingDesk } from './helpers/trading';

/**
 * Group commits of triggered closes: the stops one tick (or one feed batch) reaches are closed in
 * one transaction, each at its own trigger tick with its own ledger posting; if that transaction
 * fails, each position is closed on its own, and one that still cannot be closed fires again on a
 * later tick.
 */

const config = { ...roomyLimits, trading: { marginCallLevel: 100, stopOutLevel: 50, marginCheckMs: 3_600_000, rollover: { zone: 'UTC', minuteOfDay: 22 * 60 } } };

// Market data (quotes, candles) is written every 2 s in a transaction of its own: out of the way
// here, so the transactions counted are the engine's.
const withDesk = (run: Parameters<typeof withTradingDesk>[2]) => withTradingDesk({ config, market: { flushIntervalMs: 3_600_000 } }, 'Batch test bank', run);

/** Counts the transactions the app starts from now on. */
function countTransactions(t: TestApp): { readonly count: number; stop(): void } {
  const db = t.ctx.db;
  const original = db.transaction;
  let count = 0;
  db.transaction = function (this: typeof db) {
    count += 1;
    return original.call(this);
  } as typeof db.transaction;
  return {
    get count() {
      return count;
    },
    stop: () => {
      db.transaction = original;
    },
  };
}

describe('triggered closes in batches', () => {
  test('one tick reaching the stop losses of 30 positions of 3 traders closes all of them in one transaction, each at that tick with its own ledger posting', () =>
    withDesk(async (t, { fundedTrader }) => {
      await push(t, 'EURUSD', 1.1, 1.1002);
      const traders = await Promise.all([fundedTrader('50000.00'), fundedTrader('50000.00'), fundedTrader('50000.00')]);
      const tickets: { ticket: number; trader: number }[] = [];
      for (const [k, trader] of traders.entries()) {
        for (let i = 0; i < 10; i++) tickets.push({ ticket: await openPosition(trader.client, { side: 'buy', volume: 0.1, stopLoss: 1.095 + i * 0.0001 }), trader: k });
      }
      // Yesterday's rollover (due since the app started) out of the way: it is a transaction of its own.
      await t.app.trading.applyRollovers(t.clock.now());
      const transactions = countTransactions(t);
      try {
        // One tick below every stop (gapped through all ten levels).
        await push(t, 'EURUSD', 1.09, 1.0902);
        await eventually('every position to close', async () => (await Promise.all(traders.map((tr) => openTrades(tr.client)))).every((rows) => rows.length === 0));
        assert.equal(transactions.count, 1, 'thirty closes, one transaction');
      } finally {
        transactions.stop();
      }
      for (const [k, trader] of traders.entries()) {
        const rows = await history(trader.client);
        const mine = tickets.filter((x) => x.trader === k).map((x) => x.ticket);
        assert.deepEqual(rows.map((r) => r.ID).sort((a, b) => a - b), mine);
        // Buy 0.1 lot at 1.10020 closed at the gapped bid 1.09000: −102.00 USD each.
        for (const r of rows) assert.deepEqual({ price: r.lastPrice, profit: r.profit }, { price: 1.09, profit: '-102.00' });
        const entries = await t.ctx.db.selectFrom('ledger_entries').select(['ref_id', 'amount_cents']).where('user_id', '=', trader.id).where('kind', '=', 'trade').execute();
        assert.deepEqual(entries.map((e) => Number(e.ref_id)).sort((a, b) => a - b), mine, 'one posting per position');
        assert.ok(entries.every((e) => Number(e.amount_cents) === -10_200));
      }
      assert.deepEqual(await findLedgerMismatches(t.ctx.db), []);
    }));

  test('ticks of one feed batch reaching different levels close each position at the tick that reached it', () =>
    withDesk(async (t, { fundedTrader }) => {
      await push(t, 'EURUSD', 1.1, 1.1002);
      const { client } = await fundedTrader('50000.00');
      const high = await openPosition(client, { side: 'buy', volume: 0.1, stopLoss: 1.098 });
      const low = await openPosition(client, { side: 'buy', volume: 0.1, stopLoss: 1.096 });
      await pushTicks(t, [
        { symbol: 'EURUSD', bid: 1.0979, ask: 1.0981 },
        { symbol: 'EURUSD', bid: 1.0959, ask: 1.0961 },
      ]);
      await eventually('both to close', async () => (await history(client)).length === 2);
      const rows = await history(client);
      assert.equal(rows.find((r) => r.ID === high)?.lastPrice, 1.0979);
      assert.equal(rows.find((r) => r.ID === low)?.lastPrice, 1.0959);
    }));

  test('a batch whose transaction fails is closed position by position: the others close, the one that cannot fires again on a later tick', () =>
    withDesk(async (t, { fundedTrader }) => {
      await push(t, 'EURUSD', 1.1, 1.1002);
      const { client, id } = await fundedTrader('50000.00');
      const tickets: number[] = [];
      for (let i = 0; i < 5; i++) tickets.push(await openPosition(client, { side: 'buy', volume: 0.1, stopLoss: 1.095 }));
      const blocked = tickets[2] as number;
      // The database refuses to close one of them (as a failing disk or a constraint would).
      if (t.ctx.engine === 'sqlite') {
        await sql.raw(`create trigger refuse_close before update of status on positions when new.id = ${blocked} and new.status = 'closed' begin select raise(abort, 'refused by test'); end`).execute(t.ctx.db);
      } else {
        await sql.raw(`create function refuse_close() returns trigger language plpgsql as $$ begin raise exception 'refused by test'; end $$`).execute(t.ctx.db);
        await sql.raw(`create trigger refuse_close before update of status on positions for each row when (new.id = ${blocked} and new.status = 'closed') execute function refuse_close()`).execute(t.ctx.db);
      }
      await push(t, 'EURUSD', 1.09, 1.0902);
      await eventually('the four others to close', async () => (await history(client)).length === 4);
      assert.deepEqual((await openTrades(client)).map((r) => r.ticket), [blocked]);

      await sql.raw(t.ctx.engine === 'sqlite' ? 'drop trigger refuse_close' : 'drop trigger refuse_close on positions').execute(t.ctx.db);
      // Its stop loss is back in the index: the next tick at or below it closes it, at that tick.
      await push(t, 'EURUSD', 1.0905, 1.0907);
      await eventually('the blocked one to close', async () => (await openTrades(client)).length === 0);
      const row = (await history(client)).find((r) => r.ID === blocked);
      assert.equal(row?.lastPrice, 1.0905);
      const entries = await t.ctx.db.selectFrom('ledger_entries').select('ref_id').where('user_id', '=', id).where('kind', '=', 'trade').execute();
      assert.deepEqual(entries.map((e) => Number(e.ref_id)).sort((a, b) => a - b), tickets, 'each position posted once');
      assert.deepEqual(await findLedgerMismatches(t.ctx.db), []);
    }));

  test('a stop-out that finds a reached stop loss still queued closes that position at its stop, and not the trader’s other positions', () =>
    withDesk(async (t, { fundedTrader }) => {
      await push(t, 'EURUSD', 1.1, 1.1002);
      const { client } = await fundedTrader('1500.00');
      await t.app.trading.applyRollovers(t.clock.now());
      const losing = await openPosition(client, { side: 'buy', volume: 1, stopLoss: 1.095 });
      const hedge = await openPosition(client, { side: 'sell', volume: 0.1 });
      // One gapped tick straight into the engine, and the margin sweep in the same turn, before the
      // queued close of the stop loss is written: equity 1500 − 1020 + 98 = 578, margin 1199: 48.21%.
      const r = t.app.market.book.ingest({ symbol: 'EURUSD', bid: 1.09, ask: 1.0902, time: t.clock.now() }, 'test');
      assert.ok(r.ok, JSON.stringify(r));
      await t.app.trading.marginSweep();
      await eventually('the losing position to close', async () => (await history(client)).some((h) => h.ID === losing));
      const rows = await t.ctx.db.selectFrom('positions').select(['id', 'status', 'close_reason', 'close_price']).orderBy('id').execute();
      assert.deepEqual(
        rows.map((x) => ({ id: x.id, status: x.status, reason: x.close_reason, price: x.close_price })),
        [
          { id: losing, status: 'closed', reason: 'sl', price: 1.09 },
          { id: hedge, status: 'open', reason: null, price: null },
        ],
        'the stop loss closed the loser; the hedge (level 530% after it) stays open',
      );
      assert.deepEqual(await findLedgerMismatches(t.ctx.db), []);
    }));
});
