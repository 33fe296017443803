import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { findLedgerMismatches } from '../src/services/ledger';
import { liveAccountOf } from './helpers/accounts';
import { startApp, type StartOptions, type TestApp, restartableDatabase } from './helpers/app';
import type { Client } from './helpers/client';
import { closePosition, eventually, history, margins, openPosition, openTrades, push, recordEvents, roomyLimits, signIn, tradingDesk, type TradingDesk } from './helpers/trading';

/**
 * Risk control of the trading engine (docs/design.md#margin-call-and-stop-out, #swap): the margin call (once per fall to
 * ≤ 100%), the stop-out (≤ 50%: largest loss first, re-check, repeat), and the daily swap rollover
 * (configured here at 22:00 UTC, Monday to Friday, Wednesday triple, exactly once, posted to the ledger
 * on close; the default 17:00 New York across daylight-time changes is tested in exchange-sessions.test.ts).
 *
 * Each scenario runs on its own server. The margin scenarios set the margin check interval to an hour
 * and run `marginSweep()` themselves after pushing ticks, so every check happens at a known price;
 * one scenario keeps the default 250 ms interval and waits for the timer.
 */

/** Margin checks only when a test runs `marginSweep()` (the timer would fire in an hour). */
const manualSweeps = { ...roomyLimits, trading: { marginCallLevel: 100, stopOutLevel: 50, marginCheckMs: 3_600_000, rollover: { zone: 'UTC', minuteOfDay: 22 * 60 } } };

const at = (iso: string) => Date.parse(iso);
/** The test clock's start: Wednesday 2026-03-04 10:00 UTC. */
const WED_10 = at('2026-03-04T10:00:00Z');

/** Lets the in-process bus deliver what was published (it delivers on a microtask). */
const flush = () => new Promise((resolve) => setImmediate(resolve));

/** One margin check of every account whose prices moved, and the events it published delivered. */
async function sweep(t: TestApp): Promise<void> {
  await t.app.trading.marginSweep();
  await flush();
}

/** The trader's 'trade' and 'swap' ledger entries, oldest first. */
async function tradingEntries(t: TestApp, userId: number) {
  const rows = await t.ctx.db.selectFrom('ledger_entries').select(['kind', 'amount_cents', 'ref_type', 'ref_id']).where('user_id', '=', userId).where('kind', 'in', ['trade', 'swap']).orderBy('id').execute();
  return rows.map((r) => ({ kind: r.kind, cents: Number(r.amount_cents), ref: `${r.ref_type}:${r.ref_id}` }));
}

async function rollovers(t: TestApp) {
  const rows = await t.ctx.db.selectFrom('swap_rollovers').select(['at', 'positions']).orderBy('at').execute();
  return rows.map((r) => ({ at: new Date(Number(r.at)).toISOString(), positions: Number(r.positions) }));
}

async function storedSwap(t: TestApp, ticket: number): Promise<number> {
  const row = await t.ctx.db.selectFrom('positions').select('swap_cents').where('id', '=', ticket).executeTakeFirstOrThrow();
  return Number(row.swap_cents);
}

/** Swap shown by getTrades for each open ticket. */
async function swaps(client: Client): Promise<Record<number, string>> {
  return Object.fromEntries((await openTrades(client)).map((r) => [r.ticket, r.swap]));
}

/** A scenario's server, its administrator and payment account, and `trader(amount, { remember })` for new funded traders. */
interface Scenario extends Omit<TradingDesk, 'fundedTrader'> {
  t: TestApp;
  trader: TradingDesk['fundedTrader'];
}

/** Runs one scenario on a fresh server (and database), closing it afterwards. */
async function withApp(options: StartOptions, run: (s: Scenario) => Promise<void>, setup?: (t: TestApp) => void): Promise<void> {
  const t = await startApp(options);
  try {
    setup?.(t);
    const { admin, gateway, fundedTrader } = await tradingDesk(t, 'Risk test bank');
    await run({ t, admin, gateway, trader: fundedTrader });
  } finally {
    await t.close();
  }
}

// ---------------------------------------------------------------------- margin call

describe('margin call', () => {
  test('a fall to ≤ 100% publishes account.marginCall once; further low ticks repeat nothing; after recovery above 100% a new fall publishes again', () =>
    withApp({ config: manualSweeps }, async ({ t, trader }) => {
      const { client, id } = await trader('1200.00');
      const accountId = (await liveAccountOf(t.ctx.db, id)).id;
      const rec = recordEvents(t, id);
      try {
        await push(t, 'EURUSD', 1.1, 1.1002);
        const ticket = await openPosition(client, { side: 'buy', volume: 1 }); // at 1.10020
        // Equity 1200 − 20 = 1180, margin 1 × 100000 / 100 × 1.1000 = 1100: 107.27%.
        assert.equal((await margins(client)).marginLevel, '107.27');
        await push(t, 'EURUSD', 1.1, 1.1002);
        await sweep(t);
        assert.deepEqual(rec.events.filter((e) => e.type === 'account.marginCall'), [], 'no call above 100%');

        // Bid 1.0990: equity 1200 − 120 = 1080, margin 1099: 98.27%.
        await push(t, 'EURUSD', 1.099, 1.0992);
        await sweep(t);
        const call = { type: 'account.marginCall', userId: id, accountId, marginLevel: '98.27', equity: '1080.00', margin: '1099.00' };
        assert.deepEqual(rec.events.filter((e) => e.type === 'account.marginCall'), [call]);

        // Still low (93.76%, then 89.25%): not repeated, and nothing is closed above 50%.
        await push(t, 'EURUSD', 1.0985, 1.0987);
        await sweep(t);
        await push(t, 'EURUSD', 1.098, 1.0982);
        await sweep(t);
        assert.equal((await margins(client)).marginLevel, '89.25');
        assert.deepEqual(rec.events.filter((e) => e.type === 'account.marginCall'), [call], 'one call while the level stays low');
        assert.deepEqual((await openTrades(client)).map((r) => r.ticket), [ticket]);

        // Recovery: bid 1.1010, equity 1280, margin 1101: 116.26%.
        await push(t, 'EURUSD', 1.101, 1.1012);
        await sweep(t);
        assert.equal((await margins(client)).marginLevel, '116.26');
        assert.equal(rec.events.filter((e) => e.type === 'account.marginCall').length, 1);

        // A new fall is a new call.
        await push(t, 'EURUSD', 1.099, 1.0992);
        await sweep(t);
        assert.deepEqual(rec.events.filter((e) => e.type === 'account.marginCall'), [call, call]);
        assert.ok(!rec.events.some((e) => e.type === 'position.closed'), 'a margin call closes nothing');
      } finally {
        rec.stop();
      }
    }));

  test('a margin level of exactly 100% is a margin call', () =>
    withApp({ config: manualSweeps }, async ({ t, trader }) => {
      // 1120 − 20 of spread = 1100 equity against 1100 margin: exactly 100%, and free margin exactly 0.
      const { client, id } = await trader('1120.00');
      const accountId = (await liveAccountOf(t.ctx.db, id)).id;
      const rec = recordEvents(t, id);
      try {
        await push(t, 'EURUSD', 1.1, 1.1002);
        await openPosition(client, { side: 'buy', volume: 1 });
        assert.deepEqual([(await margins(client)).marginLevel, (await margins(client)).freeMargin], ['100.00', '0.00']);
        await push(t, 'EURUSD', 1.1, 1.1002);
        await sweep(t);
        assert.deepEqual(rec.events.filter((e) => e.type === 'account.marginCall'), [{ type: 'account.marginCall', userId: id, accountId, marginLevel: '100.00', equity: '1100.00', margin: '1100.00' }]);
      } finally {
        rec.stop();
      }
    }));
});

// ---------------------------------------------------------------------- stop-out

describe('stop-out', () => {
  test('≤ 50% closes the largest loss first, re-checks and keeps closing while ≤ 50%; a position that leaves the level above 50% stays open', () =>
    withApp({ config: manualSweeps }, async ({ t, trader }) => {
      const { client, id } = await trader('3500.00');
      const accountId = (await liveAccountOf(t.ctx.db, id)).id;
      await push(t, 'EURUSD', 1.1, 1.1002);
      await push(t, 'GBPUSD', 1.27, 1.2702);
      await push(t, 'USDJPY', 150, 150.02);
      // Margins 1100 + 1270 + 1000 = 3370; equity 3500 − 20 − 20 − 13.33 = 3446.67: 102.27%.
      const a = await openPosition(client, { symbol: 'EURUSD', side: 'buy', volume: 1 }); // at 1.10020
      const b = await openPosition(client, { symbol: 'GBPUSD', side: 'buy', volume: 1 }); // at 1.27020
      const c = await openPosition(client, { symbol: 'USDJPY', side: 'buy', volume: 1 }); // at 150.020
      const rec = recordEvents(t, id);
      try {
        // A: −500.00 (margin 1095.20); B: −900.00 (margin 1261.20, the largest);
        // C: (148.095 − 150.020) × 100000 ÷ 148.095 = −1299.84 (margin 1000.00, the smallest, the newest ticket).
        t.clock.advance(1000);
        await push(t, 'USDJPY', 148.095, 148.115);
        t.clock.advance(1000);
        await push(t, 'GBPUSD', 1.2612, 1.2614);
        t.clock.advance(1000);
        await push(t, 'EURUSD', 1.0952, 1.0954);
        // Equity 800.16 / margin 3356.40 = 23.84%.
        assert.equal((await margins(client)).marginLevel, '23.84');
        t.clock.advance(7000);
        await sweep(t);

        // C goes first (largest loss); then 800.16 / 2356.40 = 33.96% is still ≤ 50%: B goes;
        // then 800.16 / 1095.20 = 73.06% > 50%: A stays, and the trader is told of the margin call.
        assert.deepEqual(
          rec.events.filter((e) => e.type === 'position.closed' || e.type === 'account.marginCall'),
          [
            { type: 'position.closed', userId: id, accountId, ticket: c, symbol: 'USDJPY', reason: 'stop-out', price: 148.095, profit: '-1299.84' },
            { type: 'position.closed', userId: id, accountId, ticket: b, symbol: 'GBPUSD', reason: 'stop-out', price: 1.2612, profit: '-900.00' },
            { type: 'account.marginCall', userId: id, accountId, marginLevel: '73.06', equity: '800.16', margin: '1095.20' },
          ],
        );
        assert.deepEqual((await openTrades(client)).map((r) => r.ticket), [a]);
        const closed = await history(client);
        assert.deepEqual(
          closed.map((h) => ({ ID: h.ID, closeReason: h.closeReason, lastPrice: h.lastPrice, profit: h.profit })).sort((x, y) => x.ID - y.ID),
          [
            { ID: b, closeReason: 'stop-out', lastPrice: 1.2612, profit: '-900.00' },
            { ID: c, closeReason: 'stop-out', lastPrice: 148.095, profit: '-1299.84' },
          ],
        );
        assert.deepEqual(await margins(client), {
          status: 'success',
          totalMargin: '1095.20',
          balance: '1300.16',
          credit: '0.00',
          profit: '-500.00',
          equity: '800.16',
          freeMargin: '-295.04',
          marginLevel: '73.06',
        });

        // One 'trade' ledger entry per closed position, in closing order; the ledger adds up.
        assert.deepEqual(await tradingEntries(t, id), [
          { kind: 'trade', cents: -129984, ref: `position:${c}` },
          { kind: 'trade', cents: -90000, ref: `position:${b}` },
        ]);
        assert.deepEqual(await findLedgerMismatches(t.ctx.db), []);

        // The tick each stop-out closed at is recorded (its own time, not the time of the check).
        const rows = await t.ctx.db.selectFrom('positions').select(['id', 'status', 'close_reason', 'close_price', 'close_tick_bid', 'close_tick_ask', 'close_tick_time', 'closed_at', 'closed_by']).where('id', 'in', [a, b, c]).orderBy('id').execute();
        assert.deepEqual(
          rows.map((r) => ({ ...r, close_tick_time: r.close_tick_time === null ? null : Number(r.close_tick_time), closed_at: r.closed_at === null ? null : Number(r.closed_at) })),
          [
            { id: a, status: 'open', close_reason: null, close_price: null, close_tick_bid: null, close_tick_ask: null, close_tick_time: null, closed_at: null, closed_by: null },
            { id: b, status: 'closed', close_reason: 'stop-out', close_price: 1.2612, close_tick_bid: 1.2612, close_tick_ask: 1.2614, close_tick_time: WED_10 + 2000, closed_at: WED_10 + 10_000, closed_by: null },
            { id: c, status: 'closed', close_reason: 'stop-out', close_price: 148.095, close_tick_bid: 148.095, close_tick_ask: 148.115, close_tick_time: WED_10 + 1000, closed_at: WED_10 + 10_000, closed_by: null },
          ],
        );

        // Checked again at the same prices: nothing more is closed and the call is not repeated.
        await push(t, 'EURUSD', 1.0952, 1.0954);
        await sweep(t);
        assert.equal(rec.events.filter((e) => e.type === 'position.closed' || e.type === 'account.marginCall').length, 3);
      } finally {
        rec.stop();
      }
    }));

  test('the stop-out keeps closing until nothing is open when every close still leaves the level ≤ 50%', () =>
    withApp({ config: manualSweeps }, async ({ t, trader }) => {
      const { client, id } = await trader('1700.00');
      const accountId = (await liveAccountOf(t.ctx.db, id)).id;
      await push(t, 'EURUSD', 1.1, 1.1002);
      const small = await openPosition(client, { side: 'buy', volume: 0.5 });
      const big = await openPosition(client, { side: 'buy', volume: 1 });
      const rec = recordEvents(t, id);
      try {
        // Bid 1.0900: big −1020.00, small −510.00; equity 170 / margin 1635 = 10.40%; after big 170 / 545 = 31.19%.
        await push(t, 'EURUSD', 1.09, 1.0902);
        await sweep(t);
        assert.deepEqual(
          rec.events.filter((e) => e.type === 'position.closed' || e.type === 'account.marginCall'),
          [
            { type: 'position.closed', userId: id, accountId, ticket: big, symbol: 'EURUSD', reason: 'stop-out', price: 1.09, profit: '-1020.00' },
            { type: 'position.closed', userId: id, accountId, ticket: small, symbol: 'EURUSD', reason: 'stop-out', price: 1.09, profit: '-510.00' },
          ],
        );
        assert.deepEqual(await openTrades(client), []);
        assert.deepEqual(await margins(client), {
          status: 'success',
          totalMargin: '0.00',
          balance: '170.00',
          credit: '0.00',
          profit: '0.00',
          equity: '170.00',
          freeMargin: '170.00',
          marginLevel: '0.00',
        });
        assert.deepEqual(await tradingEntries(t, id), [
          { kind: 'trade', cents: -102000, ref: `position:${big}` },
          { kind: 'trade', cents: -51000, ref: `position:${small}` },
        ]);
        assert.deepEqual(await findLedgerMismatches(t.ctx.db), []);
      } finally {
        rec.stop();
      }
    }));

  test('a margin level of exactly 50% is a stop-out; 50.18% is only a margin call', () =>
    withApp({ config: manualSweeps }, async ({ t, trader }) => {
      const { client, id } = await trader('1127.20');
      const accountId = (await liveAccountOf(t.ctx.db, id)).id;
      await push(t, 'EURUSD', 1.1, 1.1002);
      const ticket = await openPosition(client, { side: 'buy', volume: 1 }); // at 1.10020
      const rec = recordEvents(t, id);
      try {
        // Bid 1.09442: equity 1127.20 − 578.00 = 549.20, margin 1094.42: 50.18%.
        await push(t, 'EURUSD', 1.09442, 1.09462);
        await sweep(t);
        assert.deepEqual(rec.events.filter((e) => e.type === 'account.marginCall' || e.type === 'position.closed'), [{ type: 'account.marginCall', userId: id, accountId, marginLevel: '50.18', equity: '549.20', margin: '1094.42' }]);
        assert.deepEqual((await openTrades(client)).map((r) => r.ticket), [ticket]);

        // Bid 1.09440: equity 547.20, margin 1094.40: exactly 50%.
        await push(t, 'EURUSD', 1.0944, 1.0946);
        await sweep(t);
        assert.deepEqual(await openTrades(client), []);
        const row = (await history(client)).find((h) => h.ID === ticket);
        assert.deepEqual([row?.closeReason, row?.lastPrice, row?.profit], ['stop-out', 1.0944, '-580.00']);
        assert.equal((await margins(client)).balance, '547.20');
        assert.deepEqual(await findLedgerMismatches(t.ctx.db), []);
      } finally {
        rec.stop();
      }
    }));

  test('the stop-out fires by itself on the margin check interval (default 250 ms)', () =>
    withApp({ config: roomyLimits }, async ({ t, trader }) => {
      assert.equal(t.config.trading.marginCheckMs, 250);
      const { client, id } = await trader('1200.00');
      const accountId = (await liveAccountOf(t.ctx.db, id)).id;
      await push(t, 'EURUSD', 1.1, 1.1002);
      const ticket = await openPosition(client, { side: 'buy', volume: 1 });
      const rec = recordEvents(t, id);
      try {
        // Bid 1.0900: equity 1200 − 1020 = 180, margin 1090: 16.51%. No marginSweep() call here.
        await push(t, 'EURUSD', 1.09, 1.0902);
        const row = await eventually('the stop-out on the timer', async () => (await history(client)).find((h) => h.ID === ticket));
        assert.deepEqual([row.closeReason, row.lastPrice, row.profit], ['stop-out', 1.09, '-1020.00']);
        await eventually('position.closed', async () => rec.events.find((e) => e.type === 'position.closed'));
        assert.deepEqual(
          rec.events.filter((e) => e.type === 'position.closed'),
          [{ type: 'position.closed', userId: id, accountId, ticket, symbol: 'EURUSD', reason: 'stop-out', price: 1.09, profit: '-1020.00' }],
        );
        assert.deepEqual(await tradingEntries(t, id), [{ kind: 'trade', cents: -102000, ref: `position:${ticket}` }]);
        assert.equal((await margins(client)).balance, '180.00');
        assert.deepEqual(await findLedgerMismatches(t.ctx.db), []);
      } finally {
        rec.stop();
      }
    }));
});

// ---------------------------------------------------------------------- swap

/** EURUSD: swapLong −7.2 and swapShort +2.1 points per lot per day; 1 point = 0.00001; 1 lot = 100,000. */
describe('swap rollovers', () => {
  const TUE_12 = at('2026-03-03T12:00:00Z');

  test('a position open across Tuesday 22:00 accrues one day: Buy EURUSD 1 lot −7.20 (swapLong), Sell +2.10 (swapShort); getTrades and getMargins include it', () =>
    withApp(
      { config: manualSweeps },
      async ({ t, trader }) => {
        const { client, id } = await trader('10000.00');
        await push(t, 'EURUSD', 1.1, 1.1002);
        const buy = await openPosition(client, { side: 'buy', volume: 1 }); // at 1.10020
        const sell = await openPosition(client, { side: 'sell', volume: 1 }); // at 1.10000
        assert.deepEqual(await swaps(client), { [buy]: '0.00', [sell]: '0.00' });

        assert.equal(await t.app.trading.applyRollovers(at('2026-03-03T23:00:00Z')), 1);
        assert.deepEqual(await swaps(client), { [buy]: '-7.20', [sell]: '2.10' });
        assert.deepEqual([await storedSwap(t, buy), await storedSwap(t, sell)], [-720, 210]);
        assert.deepEqual(await rollovers(t), [{ at: '2026-03-03T22:00:00.000Z', positions: 2 }]);
        // Floating −20.00 − 20.00 of spread, plus swap −7.20 + 2.10; the balance is untouched until the close.
        const m = await margins(client);
        assert.deepEqual([m.balance, m.profit, m.equity, m.totalMargin, m.freeMargin], ['10000.00', '-45.10', '9954.90', '2200.00', '7754.90']);
        assert.deepEqual(await tradingEntries(t, id), []);
      },
      (t) => t.clock.set(TUE_12),
    ));

  test('across Wednesday 22:00 a position accrues three days (Buy −21.60, Sell +6.30)', () =>
    withApp({ config: manualSweeps }, async ({ t, trader }) => {
      const { client } = await trader('10000.00');
      await push(t, 'EURUSD', 1.1, 1.1002);
      const buy = await openPosition(client, { side: 'buy', volume: 1 });
      const sell = await openPosition(client, { side: 'sell', volume: 1 });
      assert.equal(await t.app.trading.applyRollovers(at('2026-03-04T23:00:00Z')), 1);
      assert.deepEqual(await swaps(client), { [buy]: '-21.60', [sell]: '6.30' });
      assert.deepEqual(await rollovers(t), [{ at: '2026-03-04T22:00:00.000Z', positions: 2 }]);
      // Thursday is one day again.
      assert.equal(await t.app.trading.applyRollovers(at('2026-03-05T23:00:00Z')), 1);
      assert.deepEqual(await swaps(client), { [buy]: '-28.80', [sell]: '8.40' });
    }));

  test('USDJPY swap is converted from JPY at the USDJPY bid of the rollover (Buy +14.5 points = 1450 JPY = +10.00; Sell −28.3 points = −2830 JPY = −19.52)', () =>
    withApp(
      { config: manualSweeps },
      async ({ t, trader }) => {
        const { client } = await trader('10000.00');
        await push(t, 'USDJPY', 150, 150.02);
        const buy = await openPosition(client, { symbol: 'USDJPY', side: 'buy', volume: 1 });
        const sell = await openPosition(client, { symbol: 'USDJPY', side: 'sell', volume: 1 });
        // At the rollover the bid is 145.000 (the ask 145.100 or the open 150 would give 9.99 / 9.67 and −19.50 / −18.87).
        await push(t, 'USDJPY', 145, 145.1);
        assert.equal(await t.app.trading.applyRollovers(at('2026-03-03T23:00:00Z')), 1);
        assert.deepEqual(await swaps(client), { [buy]: '10.00', [sell]: '-19.52' });
        assert.deepEqual([await storedSwap(t, buy), await storedSwap(t, sell)], [1000, -1952]);
      },
      (t) => t.clock.set(TUE_12),
    ));

  test('a position opened after a rollover instant does not pay it, also when several rollovers are applied together', () =>
    withApp(
      { config: manualSweeps },
      async ({ t, trader }) => {
        const { client } = await trader('20000.00', { remember: true });
        await push(t, 'EURUSD', 1.1, 1.1002);
        const early = await openPosition(client, { side: 'buy', volume: 1 }); // Tue 21:45
        t.clock.set(at('2026-03-03T22:15:00Z'));
        await push(t, 'EURUSD', 1.1, 1.1002);
        const late = await openPosition(client, { side: 'buy', volume: 1 }); // Tue 22:15
        assert.equal(await t.app.trading.applyRollovers(at('2026-03-03T22:30:00Z')), 1);
        assert.deepEqual(await swaps(client), { [early]: '-7.20', [late]: '0.00' });

        // Thursday 12:00, after Wednesday's rollover instant, which has not been applied yet.
        t.clock.set(at('2026-03-05T12:00:00Z'));
        await push(t, 'EURUSD', 1.1, 1.1002);
        const thursday = await openPosition(client, { side: 'buy', volume: 1 });
        // Applied late, together: Wednesday 22:00 (three days; not for `thursday`) and Thursday 22:00 (one day).
        assert.equal(await t.app.trading.applyRollovers(at('2026-03-05T23:00:00Z')), 2);
        assert.deepEqual(await swaps(client), { [early]: '-36.00', [late]: '-28.80', [thursday]: '-7.20' });
        assert.deepEqual(await rollovers(t), [
          { at: '2026-03-03T22:00:00.000Z', positions: 1 },
          { at: '2026-03-04T22:00:00.000Z', positions: 2 },
          { at: '2026-03-05T22:00:00.000Z', positions: 3 },
        ]);
      },
      (t) => t.clock.set(at('2026-03-03T21:45:00Z')),
    ));

  test('each rollover is charged exactly once: repeated and concurrent applyRollovers for the same instant charge nothing more; one swap_rollovers row per instant', () =>
    withApp(
      { config: manualSweeps },
      async ({ t, trader }) => {
        const { client } = await trader('10000.00');
        await push(t, 'EURUSD', 1.1, 1.1002);
        const buy = await openPosition(client, { side: 'buy', volume: 1 });
        const tue = at('2026-03-03T23:00:00Z');
        assert.equal(await t.app.trading.applyRollovers(tue), 1);
        assert.equal(await t.app.trading.applyRollovers(tue), 0);
        assert.equal(await t.app.trading.applyRollovers(tue + 30 * 60_000), 0);
        assert.deepEqual(await swaps(client), { [buy]: '-7.20' });

        const applied = await Promise.all(Array.from({ length: 5 }, () => t.app.trading.applyRollovers(at('2026-03-04T23:00:00Z'))));
        assert.equal(applied.reduce((x, y) => x + y, 0), 1, `applied: ${JSON.stringify(applied)}`);
        assert.deepEqual(await swaps(client), { [buy]: '-28.80' });
        assert.equal(await storedSwap(t, buy), -2880);
        assert.deepEqual(await rollovers(t), [
          { at: '2026-03-03T22:00:00.000Z', positions: 1 },
          { at: '2026-03-04T22:00:00.000Z', positions: 1 },
        ]);
      },
      (t) => t.clock.set(TUE_12),
    ));

  test('Saturday and Sunday have no rollover: Friday 22:00 is one day, then nothing until Monday 22:00', () =>
    withApp(
      { config: manualSweeps },
      async ({ t, trader }) => {
        const { client } = await trader('10000.00');
        await push(t, 'EURUSD', 1.1, 1.1002);
        const buy = await openPosition(client, { side: 'buy', volume: 1 });
        assert.equal(await t.app.trading.applyRollovers(at('2026-03-06T23:00:00Z')), 1); // Friday
        assert.deepEqual(await swaps(client), { [buy]: '-7.20' });
        assert.equal(await t.app.trading.applyRollovers(at('2026-03-07T23:00:00Z')), 0); // Saturday
        assert.equal(await t.app.trading.applyRollovers(at('2026-03-08T23:00:00Z')), 0); // Sunday
        assert.deepEqual(await swaps(client), { [buy]: '-7.20' });
        assert.equal(await t.app.trading.applyRollovers(at('2026-03-09T23:00:00Z')), 1); // Monday
        assert.deepEqual(await swaps(client), { [buy]: '-14.40' });
        assert.deepEqual(await rollovers(t), [
          { at: '2026-03-06T22:00:00.000Z', positions: 1 },
          { at: '2026-03-09T22:00:00.000Z', positions: 1 },
        ]);
      },
      (t) => t.clock.set(at('2026-03-06T12:00:00Z')),
    ));

  test('on close the accrued swap is posted as a swap ledger entry next to the trade entry; getTradesHistory shows it; the ledger adds up', () =>
    withApp(
      { config: manualSweeps },
      async ({ t, trader }) => {
        const { client, id } = await trader('10000.00', { remember: true });
        await push(t, 'EURUSD', 1.1, 1.1002);
        const buy = await openPosition(client, { side: 'buy', volume: 1 }); // at 1.10020
        const sell = await openPosition(client, { side: 'sell', volume: 1 }); // at 1.10000
        t.clock.set(at('2026-03-03T23:00:00Z'));
        assert.equal(await t.app.trading.applyRollovers(t.clock.now()), 1);
        t.clock.set(at('2026-03-04T09:00:00Z'));
        await push(t, 'EURUSD', 1.1012, 1.1014);
        const rec = recordEvents(t, id);
        try {
          const open = new Map((await openTrades(client)).map((r) => [r.ticket, r]));
          assert.deepEqual([open.get(buy)?.swap, open.get(buy)?.profit], ['-7.20', '100.00']);
          assert.deepEqual([open.get(sell)?.swap, open.get(sell)?.profit], ['2.10', '-140.00']);
          // Equity counts the swap: 10000 + 100 − 140 − 7.20 + 2.10.
          assert.equal((await margins(client)).equity, '9954.90');

          await closePosition(client, buy);
          await closePosition(client, sell);
          assert.deepEqual(await tradingEntries(t, id), [
            { kind: 'trade', cents: 10000, ref: `position:${buy}` },
            { kind: 'swap', cents: -720, ref: `position:${buy}` },
            { kind: 'trade', cents: -14000, ref: `position:${sell}` },
            { kind: 'swap', cents: 210, ref: `position:${sell}` },
          ]);
          const rows = new Map((await history(client)).map((h) => [h.ID, h]));
          assert.deepEqual([rows.get(buy)?.profit, rows.get(buy)?.swap], ['100.00', '-7.20']);
          assert.deepEqual([rows.get(sell)?.profit, rows.get(sell)?.swap], ['-140.00', '2.10']);
          const m = await margins(client);
          assert.deepEqual([m.balance, m.equity, m.totalMargin], ['9954.90', '9954.90', '0.00']);
          assert.deepEqual(await findLedgerMismatches(t.ctx.db), []);
          await flush();
          const balances = rec.events.filter((e) => e.type === 'balance.changed').map((e) => (e.type === 'balance.changed' ? e.balance : ''));
          assert.deepEqual(balances, ['10092.80', '9954.90'], 'the announced balance includes the swap');
          // A later rollover charges closed positions nothing.
          assert.equal(await t.app.trading.applyRollovers(at('2026-03-04T23:00:00Z')), 1);
          assert.deepEqual([await storedSwap(t, buy), await storedSwap(t, sell)], [-720, 210]);
        } finally {
          rec.stop();
        }
      },
      (t) => t.clock.set(TUE_12),
    ));

  test('accrued swap survives a restart on the same database, and a rollover applied before the restart is not charged again', async () => {
    const db = await restartableDatabase();
    let email = '';
    let password = '';
    let traderId = 0;
    let ticket = 0;
    try {
      await withApp({ config: { ...manualSweeps, databaseUrl: db.url } }, async ({ t, trader }) => {
        const tr = await trader('10000.00');
        ({ email, password, id: traderId } = tr);
        await push(t, 'EURUSD', 1.1, 1.1002);
        ticket = await openPosition(tr.client, { side: 'buy', volume: 1 }); // Wed 10:00 at 1.10020
        assert.equal(await t.app.trading.applyRollovers(at('2026-03-04T23:00:00Z')), 1);
        assert.deepEqual(await swaps(tr.client), { [ticket]: '-21.60' });
      });

      const second = await startApp({ config: { ...manualSweeps, databaseUrl: db.url } });
      try {
        const client = await signIn(second, { email, password });
        await push(second, 'EURUSD', 1.1, 1.1002);
        assert.equal(second.app.trading.get(ticket)?.swapCents, -2160);
        assert.deepEqual(await swaps(client), { [ticket]: '-21.60' });
        assert.equal((await margins(client)).equity, '9958.40'); // 10000 − 20.00 − 21.60
        assert.equal(await second.app.trading.applyRollovers(at('2026-03-04T23:00:00Z')), 0);
        assert.equal(await second.app.trading.applyRollovers(at('2026-03-05T23:00:00Z')), 1);
        assert.deepEqual(await swaps(client), { [ticket]: '-28.80' });

        await closePosition(client, ticket);
        assert.deepEqual(await tradingEntries(second, traderId), [
          { kind: 'trade', cents: -2000, ref: `position:${ticket}` },
          { kind: 'swap', cents: -2880, ref: `position:${ticket}` },
        ]);
        assert.equal((await history(client)).find((h) => h.ID === ticket)?.swap, '-28.80');
        assert.equal((await margins(client)).balance, '9951.20');
        assert.deepEqual(await findLedgerMismatches(second.ctx.db), []);
      } finally {
        await second.close();
      }
    } finally {
      await db.drop();
    }
  });
});

describe('risk checks that follow other prices and the clock', () => {
  test('closing just after 22:00, before the rollover timer ran, still charges that night’s swap', async () => {
    await withApp({ config: manualSweeps }, async ({ t, trader }) => {
      t.clock.set(at('2026-03-03T21:00:00Z')); // Tuesday
      await push(t, 'EURUSD', 1.1, 1.1002);
      const tr = await trader('10000.00', { remember: true });
      const ticket = await openPosition(tr.client, { side: 'buy' });
      t.clock.set(at('2026-03-03T22:00:30Z'));
      await push(t, 'EURUSD', 1.1, 1.1002);
      await closePosition(tr.client, ticket);
      const entries = await tradingEntries(t, tr.id);
      assert.deepEqual(entries.filter((e) => e.kind === 'swap'), [{ kind: 'swap', cents: -720, ref: `position:${ticket}` }]);
      assert.deepEqual(await findLedgerMismatches(t.ctx.db), []);
    });
  });

  test('a move of a conversion rate alone (USDJPY) re-checks an EURJPY holder', async () => {
    await withApp({ config: manualSweeps }, async ({ t, trader }) => {
      await push(t, 'EURUSD', 1.08, 1.0802);
      await push(t, 'USDJPY', 150, 150.02);
      await push(t, 'EURJPY', 162, 162.03);
      const tr = await trader('1250.00');
      const accountId = (await liveAccountOf(t.ctx.db, tr.id)).id;
      await openPosition(tr.client, { symbol: 'EURJPY', side: 'sell', volume: 1 });
      const rec = recordEvents(t, tr.id);
      try {
        // EURJPY rises: −23,000 JPY ÷ 150 = −153.33 USD; equity 1,096.67 on 1,080.00 margin (101.5%).
        await push(t, 'EURJPY', 162.2, 162.23);
        await sweep(t);
        assert.deepEqual(rec.events.filter((e) => e.type === 'account.marginCall'), []);
        // Only USDJPY moves: the same yen loss is now −191.67 USD, equity 1,058.33 (98.0%).
        await push(t, 'USDJPY', 120, 120.02);
        await sweep(t);
        assert.deepEqual(
          rec.events.filter((e) => e.type === 'account.marginCall'),
          [{ type: 'account.marginCall', userId: tr.id, accountId, marginLevel: '97.99', equity: '1058.33', margin: '1080.00' }],
        );
      } finally {
        rec.stop();
      }
    });
  });
});
