import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { calls, type CatalogueInstrument } from '@tradeport/contracts';
import { findLedgerMismatches } from '../src/services/ledger';
import { restartableDatabase, startApp, type StartOptions, type TestApp } from './helpers/app';
import { assertFailure, eventually, history, margins, openPosition, openTrades, pushTicks, roomyLimits, signIn, tradingDesk } from './helpers/trading';

/**
 * The engine keeps working for everyone when one position cannot be handled normally (issue 10):
 * an instrument made close-only while it still has positions, a conversion rate that is
 * missing, a long downtime.
 */

const at = (iso: string) => Date.parse(iso);
const trading = { marginCallLevel: 100, stopOutLevel: 50, marginCheckMs: 3_600_000, rollover: { zone: 'America/New_York', minuteOfDay: 17 * 60 } };

async function restarted(dbUrl: string, extra: StartOptions = {}, clock?: number): Promise<TestApp> {
  const t = await startApp({ ...extra, config: { ...roomyLimits, trading, databaseUrl: dbUrl, ...extra.config } });
  if (clock !== undefined) t.clock.set(clock);
  return t;
}

const storedSwap = async (t: TestApp, id: number) => Number((await t.ctx.db.selectFrom('positions').select('swap_cents').where('id', '=', id).executeTakeFirstOrThrow()).swap_cents);

describe('engine resilience', () => {
  test('an instrument made close-only in the back office stays so across a restart; rollovers, closes and TP/SL keep working for everyone', async () => {
    const db = await restartableDatabase();
    let a = { email: '', password: '' };
    let b = { email: '', password: '' };
    let tsla = 0;
    let withTp = 0;
    let manual = 0;
    try {
      const first = await restarted(db.url);
      try {
        const desk = await tradingDesk(first);
        const ta = await desk.fundedTrader('50000.00');
        const tb = await desk.fundedTrader('50000.00');
        a = ta;
        b = tb;
        await pushTicks(first, [
          { symbol: 'EURUSD', bid: 1.1, ask: 1.1002 },
          { symbol: 'TSLA', bid: 250, ask: 250.1 },
        ]);
        tsla = await openPosition(ta.client, { symbol: 'TSLA', side: 'buy', volume: 1 });
        const order = await ta.client.post(calls.addPendingOrder.path, { fullSymbol: 'TSLA', orderType: 'buy_limit', volume: 1, price: 200, stopLoss: 0, takeProfit: 0 });
        assert.equal(order.status, 200, JSON.stringify(order.body));
        withTp = await openPosition(tb.client, { side: 'buy', volume: 1, takeProfit: 1.11 });
        manual = await openPosition(tb.client, { side: 'buy', volume: 0.1 });
        // The back office makes TSLA close-only (it cannot be disabled while it is held).
        const row = ((await desk.admin.get(calls.getCatalogue.path)).body.data as CatalogueInstrument[]).find((i) => i.symbol === 'TSLA')!;
        assert.deepEqual([row.openPositions, row.pendingOrders], [1, 1]);
        const { openPositions: _p, pendingOrders: _o, updatedAt: _u, base: _b, quote: _q, calcMode: _c, ...input } = row;
        assertFailure(await desk.admin.post(calls.saveInstrument.path, { ...input, tradingMode: 'disabled' }), 400, 'TSLA has 1 open position and 1 pending order: it cannot be disabled until they are closed. Make it close-only meanwhile.');
        const saved = await desk.admin.post(calls.saveInstrument.path, { ...input, tradingMode: 'close-only' });
        assert.equal(saved.status, 200, JSON.stringify(saved.body));
      } finally {
        await first.close();
      }

      // Two New York rollovers (Wed and Thu 17:00) pass while the server is down; the file still lists TSLA as it was.
      const second = await restarted(db.url, {}, at('2026-03-06T10:00:00Z'));
      try {
        const ca = await signIn(second, a);
        const cb = await signIn(second, b);
        const listed = (await ca.get(calls.getMainCurrencies.path)).body.data.map((r: { Symbol: string }) => r.Symbol);
        assert.ok(listed.includes('TSLA'), 'a close-only instrument is still listed (its positions close from the terminal)');
        assert.ok(listed.includes('EURUSD'));
        assert.deepEqual((await openTrades(ca)).map((r) => r.ticket), [tsla]);

        // An unrelated manual close works (it applies the due rollovers first, TSLA's included).
        await pushTicks(second, [
          { symbol: 'EURUSD', bid: 1.1, ask: 1.1002 },
          { symbol: 'TSLA', bid: 240, ask: 240.1 },
        ]);
        const closed = await cb.post(calls.updateTrades.path, { ticket: manual });
        assert.equal(closed.status, 200, JSON.stringify(closed.body));
        const rollovers = await second.ctx.db.selectFrom('swap_rollovers').select('at').orderBy('at').execute();
        assert.deepEqual(rollovers.map((r) => new Date(Number(r.at)).toISOString()), ['2026-03-04T22:00:00.000Z', '2026-03-05T22:00:00.000Z']);
        // TSLA: swapLong −3 points × 0.01 × 1 = −0.03 a day; Wednesday counts three.
        assert.equal(await storedSwap(second, tsla), -12);

        // Take-profit still fires for the other trader.
        await pushTicks(second, [{ symbol: 'EURUSD', bid: 1.1101, ask: 1.1103 }]);
        const tp = await eventually('the take-profit', async () => (await history(cb)).find((h) => h.ID === withTp));
        assert.equal(tp.closeReason, 'tp');

        // Close-only: no new order in TSLA; the pending one is rejected when reached; the position closes.
        assertFailure(await ca.post(calls.addTrades.path, { fullSymbol: 'TSLA', tradestypes: 'buy', volume: 1, stopLoss: 0, takeProfit: 0 }), 400, /close-only/);
        assertFailure(await ca.post(calls.addPendingOrder.path, { fullSymbol: 'TSLA', orderType: 'buy_limit', volume: 1, price: 200, stopLoss: 0, takeProfit: 0 }), 400, /close-only/);
        await pushTicks(second, [{ symbol: 'TSLA', bid: 199, ask: 199.1 }]);
        const rejected = await eventually('the order rejected', async () => {
          const rows = (await ca.get(`${calls.getPendingOrders.path}?status=all`)).body.data as { status: string; reason: string }[];
          return rows.find((o) => o.status === 'rejected');
        });
        assert.match(rejected.reason, /close-only/);
        const closeTsla = await ca.post(calls.updateTrades.path, { ticket: tsla });
        assert.equal(closeTsla.status, 200, JSON.stringify(closeTsla.body));
        assert.deepEqual(await openTrades(ca), []);
        assert.deepEqual(await findLedgerMismatches(second.ctx.db), []);
      } finally {
        await second.close();
      }
    } finally {
      await db.drop();
    }
  });

  test('a missing conversion rate fails closed (no new orders, no withdrawals), its swap is kept and charged once a rate exists, and every missed rollover is charged', async () => {
    const db = await restartableDatabase();
    let who = { email: '', password: '' };
    let eurgbp = 0;
    let eurusd = 0;
    let gateway = 0;
    try {
      const first = await restarted(db.url);
      try {
        const desk = await tradingDesk(first);
        gateway = desk.gateway;
        const tr = await desk.fundedTrader('50000.00');
        who = tr;
        await pushTicks(first, [
          { symbol: 'EURUSD', bid: 1.1, ask: 1.1002 },
          { symbol: 'GBPUSD', bid: 1.25, ask: 1.2502 },
          { symbol: 'EURGBP', bid: 0.88, ask: 0.8802 },
        ]);
        eurusd = await openPosition(tr.client, { side: 'buy', volume: 1 });
        eurgbp = await openPosition(tr.client, { symbol: 'EURGBP', side: 'buy', volume: 1 });
        // Every fill can be traced to the tick it was made at.
        const row = await first.ctx.db.selectFrom('positions').select(['open_price', 'open_tick_bid', 'open_tick_ask', 'open_tick_time']).where('id', '=', eurusd).executeTakeFirstOrThrow();
        assert.deepEqual(row, { open_price: 1.1002, open_tick_bid: 1.1, open_tick_ask: 1.1002, open_tick_time: first.clock.now() });
        // Wednesday 17:00 New York: three days. EURUSD −7.20 × 3; EURGBP −5.6 GBP × 1.25 × 3.
        assert.equal(await first.app.trading.applyRollovers(at('2026-03-04T23:00:00Z')), 1);
        assert.deepEqual([await storedSwap(first, eurusd), await storedSwap(first, eurgbp)], [-2160, -2100]);
      } finally {
        await first.close();
      }
      // Three weeks down, and GBPUSD's last quote is lost: EURGBP cannot be valued in USD.
      await (async () => {
        const t = await restarted(db.url);
        await t.ctx.db.deleteFrom('last_quotes').where('symbol', '=', 'GBPUSD').execute();
        await t.close();
      })();
      const second = await restarted(db.url, {}, at('2026-03-25T10:00:00Z'));
      try {
        const client = await signIn(second, who);
        await pushTicks(second, [{ symbol: 'EURUSD', bid: 1.1, ask: 1.1002 }]);
        assertFailure(await client.post(calls.addTrades.path, { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 0.01, stopLoss: 0, takeProfit: 0 }), 400, /conversion rate/);
        assertFailure(await client.post(calls.addWithdrawal.path, { withdrawalsAmount: '10.00', paymentAccount: '1234' }), 400, /conversion rate/);
        void gateway;

        // Fourteen weekday rollovers were missed (Thu 5 March … Tue 24 March), two of them Wednesdays.
        assert.equal(await second.app.trading.applyRollovers(second.clock.now()), 14);
        // 17:00 New York: 22:00 UTC before the change to daylight time on Sunday 8 March, 21:00 UTC after.
        const instants = (await second.ctx.db.selectFrom('swap_rollovers').select('at').orderBy('at').execute()).map((r) => new Date(Number(r.at)).toISOString());
        assert.deepEqual(instants.slice(0, 4), ['2026-03-04T22:00:00.000Z', '2026-03-05T22:00:00.000Z', '2026-03-06T22:00:00.000Z', '2026-03-09T21:00:00.000Z']);
        assert.equal(await storedSwap(second, eurusd), -2160 - 720 * 18);
        assert.equal(await storedSwap(second, eurgbp), -2100, 'EURGBP cannot be priced: its swap is kept, not charged as zero');
        const kept = await second.ctx.db.selectFrom('swap_deferred').select(['rollover_at', 'days']).where('position_id', '=', eurgbp).execute();
        assert.equal(kept.length, 14);

        // GBPUSD is back: the kept swap is charged (at today's rate), new orders and withdrawals work again.
        await pushTicks(second, [{ symbol: 'GBPUSD', bid: 1.25, ask: 1.2502 }, { symbol: 'EURGBP', bid: 0.88, ask: 0.8802 }]);
        assert.equal(await second.app.trading.applyRollovers(second.clock.now()), 0);
        assert.equal(await storedSwap(second, eurgbp), -2100 - 700 * 18);
        assert.equal((await second.ctx.db.selectFrom('swap_deferred').selectAll().execute()).length, 0);
        assert.equal(second.app.trading.get(eurgbp)?.swapCents, -2100 - 700 * 18);
        await openPosition(client, { side: 'buy', volume: 0.01 });
        const w = await client.post(calls.addWithdrawal.path, { withdrawalsAmount: '10.00', paymentAccount: '1234' });
        assert.equal(w.status, 200, JSON.stringify(w.body));
        assert.ok((await margins(client)).totalMargin !== '0.00');
      } finally {
        await second.close();
      }
    } finally {
      await db.drop();
    }
  });
});
