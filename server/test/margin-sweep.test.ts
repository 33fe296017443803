import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { calls } from '@tradeport/contracts';
import { liveAccountOf, setAccount } from './helpers/accounts';
import type { TestApp } from './helpers/app';
import { margins, openPosition, openTrades, push, recordEvents, roomyLimits, withTradingDesk } from './helpers/trading';

/**
 * The margin sweep's screening (trading/margin-screen.ts): accounts far above the margin-call level
 * are passed over without the exact check; the cached balances it screens with follow every change
 * — a withdrawal approved, a position opened — and are re-read from the database every 5 s in case
 * an event was missed, so a stale cache delays a margin call or stop-out by 5 s at the most.
 */

const ADD_WITHDRAWAL = calls.addWithdrawal.path;
const DECIDE_WITHDRAWAL = calls.editStatusWithdrawal.path;

/** Margin checks only when a test runs `marginSweep()`. Margin call at 150% so a withdrawal can cross it. */
const config = { ...roomyLimits, trading: { marginCallLevel: 150, stopOutLevel: 50, marginCheckMs: 3_600_000, rollover: { zone: 'UTC', minuteOfDay: 22 * 60 } } };

const flush = () => new Promise((resolve) => setImmediate(resolve));

async function sweep(t: TestApp): Promise<{ screened: number; checked: number }> {
  const r = await t.app.trading.marginSweep();
  await flush();
  return r;
}

const withDesk = (run: Parameters<typeof withTradingDesk>[2]) => withTradingDesk({ config }, 'Sweep test bank', run);

describe('margin sweep screening', () => {
  test('accounts far above the margin-call level are screened without an exact check; an account near it is checked exactly', () =>
    withDesk(async (t, { fundedTrader }) => {
      await push(t, 'EURUSD', 1.1, 1.1002);
      const rich = await Promise.all([fundedTrader('100000.00'), fundedTrader('100000.00'), fundedTrader('100000.00')]);
      for (const r of rich) await openPosition(r.client, { side: 'buy', volume: 0.1 });
      const thin = await fundedTrader('1700.00');
      await openPosition(thin.client, { side: 'buy', volume: 1 });
      // Thin: equity 1700 − 20 = 1680, margin 1100: 152.73% — within 2% above the 150% call level.
      assert.equal((await margins(thin.client)).marginLevel, '152.73');

      await push(t, 'EURUSD', 1.1, 1.1002);
      assert.deepEqual(await sweep(t), { screened: 4, checked: 1 }, 'only the account near the level is checked exactly');

      // Up 100 points: thin is at 161.71%, clear of the band; nobody needs the exact check.
      await push(t, 'EURUSD', 1.101, 1.1012);
      assert.deepEqual(await sweep(t), { screened: 4, checked: 0 });

      // Nothing moved since: nothing to sweep.
      assert.deepEqual(await sweep(t), { screened: 0, checked: 0 });
    }));

  test('an approved withdrawal that takes the level under the margin-call level brings the margin call without any price move', () =>
    withDesk(async (t, { admin, fundedTrader }) => {
      await push(t, 'EURUSD', 1.1, 1.1002);
      const trader = await fundedTrader('2000.00');
      const rec = recordEvents(t, trader.id);
      try {
        await openPosition(trader.client, { side: 'buy', volume: 1 });
        // Equity 1980, margin 1100: 180%. The sweep caches the balance.
        await push(t, 'EURUSD', 1.1, 1.1002);
        await sweep(t);
        assert.equal(rec.events.filter((e) => e.type === 'account.marginCall').length, 0);

        // Withdraw 500 (free margin stays positive, so it is approved): equity 1480, margin 1100: 134.55%.
        const request = await trader.client.post(ADD_WITHDRAWAL, { withdrawalsAmount: '500.00', paymentAccount: 'IBAN DE89 1' });
        assert.equal(request.status, 200, JSON.stringify(request.body));
        assert.equal((await admin.post(DECIDE_WITHDRAWAL, { withdrawals_id: request.body.id, status: 1 })).status, 200);
        await flush();

        // No tick, and no other read of the account: the balance event alone makes the account
        // due and updates the cached balance the screen uses.
        const r = await sweep(t);
        assert.equal(r.checked, 1);
        assert.equal((await margins(trader.client)).marginLevel, '134.55');
        assert.deepEqual(
          rec.events.filter((e) => e.type === 'account.marginCall'),
          [{ type: 'account.marginCall', userId: trader.id, accountId: (await liveAccountOf(t.ctx.db, trader.id)).id, marginLevel: '134.55', equity: '1480.00', margin: '1100.00' }],
        );
      } finally {
        rec.stop();
      }
    }));

  test('a margin call ends only clearly above the line: a level wavering around it is one margin call, not one per crossing', () =>
    withDesk(async (t, { fundedTrader }) => {
      await push(t, 'EURUSD', 1.1, 1.1002);
      const trader = await fundedTrader('1700.00');
      const rec = recordEvents(t, trader.id);
      const calls = () => rec.events.filter((e) => e.type === 'account.marginCall').length;
      const at = async (bid: number) => {
        await push(t, 'EURUSD', bid, Math.round((bid + 0.0002) * 1e5) / 1e5);
        await sweep(t);
        return Number((await margins(trader.client)).marginLevel);
      };
      try {
        // Buy 1 lot at 1.10020 with 1,700 USD: the margin call is at 150%, its release above 165%.
        await openPosition(trader.client, { side: 'buy', volume: 1 });
        assert.ok((await at(1.0992)) <= 150);
        assert.equal(calls(), 1, 'under the line: a margin call');
        const back = await at(1.1005);
        assert.ok(back > 150 && back < 165, `back above the line (${back}%) but not clearly`);
        assert.ok((await at(1.0992)) <= 150);
        assert.equal(calls(), 1, 'under the line again: the same margin call, no second event');
        assert.ok((await at(1.103)) > 165 * 1.02, 'clearly above the release level');
        assert.ok((await at(1.0992)) <= 150);
        assert.equal(calls(), 2, 'a new margin call once the last one had ended');
      } finally {
        rec.stop();
      }
    }));

  test('a balance changed behind the engine’s back (no event) is re-read within 5 s, and the stop-out it calls for happens', () =>
    withDesk(async (t, { fundedTrader }) => {
      await push(t, 'EURUSD', 1.1, 1.1002);
      const trader = await fundedTrader('5000.00');
      const ticket = await openPosition(trader.client, { side: 'buy', volume: 1 });
      await push(t, 'EURUSD', 1.1, 1.1002);
      await sweep(t);

      // As if written by another process whose event never arrived: 5000 → 600 USD. Equity 580,
      // margin 1100: 52.73%; then a tick to bid 1.0990 takes it to 43.67%, below the 50% stop-out.
      await setAccount(t.ctx.db, trader.id, { balance_cents: 60_000 });
      await push(t, 'EURUSD', 1.099, 1.0992);
      t.clock.advance(5_000);
      const r = await sweep(t);
      assert.equal(r.checked, 1, 'the re-read balance puts the account in the exact check');
      assert.deepEqual(await openTrades(trader.client), [], `position #${ticket} was stopped out`);
    }));

  test('a newly opened position makes its account due at the next sweep even when no price moved', () =>
    withDesk(async (t, { fundedTrader }) => {
      await push(t, 'EURUSD', 1.1, 1.1002);
      const trader = await fundedTrader('1700.00');
      const rec = recordEvents(t, trader.id);
      try {
        await openPosition(trader.client, { side: 'buy', volume: 0.5 });
        // 0.5 lot: equity 1690, margin 550: 307.27%, clear of the band.
        assert.deepEqual(await sweep(t), { screened: 1, checked: 0 });
        await openPosition(trader.client, { side: 'buy', volume: 0.5 });
        // 1 lot in all: equity 1680, margin 1100: 152.73% — near enough to check, above the call.
        assert.deepEqual(await sweep(t), { screened: 1, checked: 1 });
        assert.equal(rec.events.filter((e) => e.type === 'account.marginCall').length, 0);
        await openPosition(trader.client, { side: 'buy', volume: 0.2 });
        // 1.2 lots: equity 1676, margin 1320: 126.97%: the margin call, with no tick.
        assert.deepEqual(await sweep(t), { screened: 1, checked: 1 });
        assert.deepEqual(
          rec.events.filter((e) => e.type === 'account.marginCall').map((e) => (e.type === 'account.marginCall' ? e.marginLevel : '')),
          ['126.97'],
        );
      } finally {
        rec.stop();
      }
    }));
});
