import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { TestApp } from './helpers/app';
import { liveAccountOf, setAccount } from './helpers/accounts';
import { openPosition, push, recordEvents, roomyLimits, withTradingDesk } from './helpers/trading';

/**
 * Account events from several instances do not arrive in the order their transactions committed:
 * the engine leader hears its own `balance.changed` at once and another instance's a Redis round
 * trip later, so the last one it hears may carry an older balance than the database holds. The
 * margin monitor must not screen with that balance (it would pass over a margin call, or a
 * stop-out, until the next 5 s re-read): an event makes it read the balance again.
 */

/** Margin checks only when a test runs `marginSweep()`. Margin call at 150%. */
const config = { ...roomyLimits, trading: { marginCallLevel: 150, stopOutLevel: 50, marginCheckMs: 3_600_000, rollover: { zone: 'UTC', minuteOfDay: 22 * 60 } } };
const flush = () => new Promise((resolve) => setImmediate(resolve));

async function sweep(t: TestApp): Promise<{ screened: number; checked: number }> {
  const r = await t.app.trading.marginSweep();
  await flush();
  return r;
}

describe('balance events out of order', () => {
  test('a late balance.changed carrying an older balance does not hide the margin call the newest balance calls for', () =>
    withTradingDesk({ config }, 'Balance order bank', async (t, { fundedTrader }) => {
      await push(t, 'EURUSD', 1.1, 1.1002);
      const trader = await fundedTrader('2000.00');
      const rec = recordEvents(t, trader.id);
      try {
        await openPosition(trader.client, { side: 'buy', volume: 1 });
        // Equity 1980, margin 1100: 180%. The sweep caches the balance.
        await push(t, 'EURUSD', 1.1, 1.1002);
        await sweep(t);
        assert.equal(rec.events.filter((e) => e.type === 'account.marginCall').length, 0);

        // Another instance committed a withdrawal (2000 → 1500) and its event arrives; then, late,
        // the event of an older change (balance 2000) that was committed before it.
        const account = await liveAccountOf(t.ctx.db, trader.id);
        await setAccount(t.ctx.db, trader.id, { balance_cents: 150_000 });
        t.ctx.bus.publish({ type: 'balance.changed', userId: trader.id, accountId: account.id, balance: '1500.00', credit: '0.00', reason: 'withdrawal-approved' });
        await flush();
        t.ctx.bus.publish({ type: 'balance.changed', userId: trader.id, accountId: account.id, balance: '2000.00', credit: '0.00', reason: 'deposit-approved' });
        await flush();

        // Equity 1480, margin 1100: 134.55%, under the call level, with no tick.
        await sweep(t);
        assert.deepEqual(
          rec.events.filter((e) => e.type === 'account.marginCall').map((e) => (e.type === 'account.marginCall' ? e.marginLevel : '')),
          ['134.55'],
        );
      } finally {
        rec.stop();
      }
    }));
});
