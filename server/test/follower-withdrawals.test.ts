import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { calls } from '@tradeport/contracts';
import { liveAccountOf } from './helpers/accounts';
import { Client } from './helpers/client';
import { eventually, openPosition, push, tradingDesk } from './helpers/trading';
import { startLeaderAndFollower } from './helpers/two-instances';

/**
 * A withdrawal may not take what open positions need, valued at the current prices. A follower's
 * prices are the leader's as relayed over Redis: a moment late at best (and while Redis is away it
 * refuses withdrawals outright, follower-redis-down.test.ts). So a withdrawal, and its approval,
 * are carried out by the engine leader, at its own prices, wherever they are sent: a follower that
 * still shows the price before a loss must not let the trader take the money that loss needs.
 */
const PG = process.env.DATABASE_URL ?? '';


describe('withdrawals sent to a follower', { skip: PG.startsWith('postgres') ? false : 'needs PostgreSQL (DATABASE_URL=postgres://…)', timeout: 120_000 }, () => {
  test("are checked at the leader's prices, not at the follower's older relayed ones: a request and an approval the leader's prices refuse are refused", async () => {
    const { leader, follower, close } = await startLeaderAndFollower();
    try {

      await push(leader, 'EURUSD', 1.2, 1.2002);
      await eventually('the follower has the relayed price', async () => follower.app.market.book.get('EURUSD')?.bid === 1.2);
      const desk = await tradingDesk(leader);
      const trader = await desk.fundedTrader('1000.00');
      // 0.1 lot bought at 1.2002: about 120 USD of margin; 1.15 later is a loss of about 502 USD.
      await openPosition(trader.client, { side: 'buy', volume: 0.1 });
      // Fine at 1.2 (1000 − 500 ≥ the ~122 the position needs), not at 1.15 (~622).
      const pending = await trader.client.post(calls.addWithdrawal.path, { withdrawalsAmount: '500.00', paymentAccount: 'IBAN 1' });
      assert.equal(pending.body.status, 'success', JSON.stringify(pending.body));

      // The leader's price moves on; the follower's still shows the one before (a relay that lags:
      // the follower's book is set back to the older price, later than the relayed one).
      await push(leader, 'EURUSD', 1.15, 1.1502);
      await eventually('the follower has the relayed price', async () => follower.app.market.book.get('EURUSD')?.bid === 1.15);
      follower.app.market.book.applyRelayed({ symbol: 'EURUSD', bid: 1.2, ask: 1.2002, time: Date.now() + 1000 });
      assert.equal(follower.app.market.book.get('EURUSD')?.bid, 1.2);

      const onFollower = new Client(follower);
      onFollower.setCookie('tp_session', trader.client.cookieHeader.split('tp_session=')[1]!.split(';')[0]!);
      const more = await onFollower.post(calls.addWithdrawal.path, { withdrawalsAmount: '100.00', paymentAccount: 'IBAN 1' });
      assert.ok(more.status >= 400 && more.status < 500, `refused, not retryable: ${more.status} ${JSON.stringify(more.body)}`);
      assert.equal(more.body.status, 'Failure', JSON.stringify(more.body));

      const admin = new Client(follower);
      admin.setCookie('tp_session', desk.admin.cookieHeader.split('tp_session=')[1]!.split(';')[0]!);
      const approval = await admin.post(calls.editStatusWithdrawal.path, { withdrawals_id: pending.body.id, status: 1 });
      assert.ok(approval.status >= 400 && approval.status < 500, `refused, not retryable: ${approval.status} ${JSON.stringify(approval.body)}`);
      assert.equal(approval.body.status, 'Failure', JSON.stringify(approval.body));
      const { balanceCents } = await liveAccountOf(leader.ctx.db, trader.id);
      assert.equal(balanceCents, 100_000, 'no money left the account');
    } finally {
      await close();
    }
  });
});
