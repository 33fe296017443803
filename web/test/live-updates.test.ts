import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { queryKeys } from '../src/api/query-keys';
import { keysForEvent, toastForEvent } from '../src/stream/live-updates';

const order = { type: 'order.updated', userId: 7, accountId: 3, orderId: 12, reason: '', ticket: null, symbol: 'EURUSD', orderType: 'buy_limit', volume: 0.1 } as const;

describe('account events in the terminal', () => {
  it('toasts a pending order filling, expiring or being rejected, naming the order, and stays quiet on a cancel', () => {
    assert.deepEqual(toastForEvent({ ...order, status: 'filled', reason: 'Filled', ticket: 40 }), { title: 'Order #12 filled', message: 'Buy Limit 0.10 EURUSD opened position #40.', color: 'green' });
    assert.deepEqual(toastForEvent({ ...order, status: 'expired', reason: 'Expired', orderType: 'sell_stop_limit' }), { title: 'Order #12 expired', message: 'Sell Stop Limit 0.10 EURUSD reached its expiry and was removed.', color: 'yellow' });
    assert.deepEqual(toastForEvent({ ...order, status: 'rejected', reason: 'Not enough free margin.' }), { title: 'Order #12 rejected', message: 'Buy Limit 0.10 EURUSD: Not enough free margin.', color: 'red' });
    assert.equal(toastForEvent({ ...order, status: 'cancelled', reason: 'Cancelled by the trader' }), null);
    assert.equal(toastForEvent({ ...order, status: 'pending', reason: 'Modified' }), null);
  });

  it('toasts a pending order the back office changed or cancelled, which the trader did not do', () => {
    assert.deepEqual(toastForEvent({ ...order, status: 'cancelled', reason: 'Cancelled by the back office' }), { title: 'Order #12 cancelled by the broker', message: 'Buy Limit 0.10 EURUSD was cancelled and will not fill.', color: 'yellow' });
    assert.deepEqual(toastForEvent({ ...order, status: 'pending', reason: 'Modified by the back office' }), { title: 'Order #12 changed by the broker', message: 'Buy Limit 0.10 EURUSD: see its new levels under Pending Orders.', color: 'blue' });
    assert.equal(toastForEvent({ ...order, status: 'pending', reason: 'Placed' }), null);
  });

  it('toasts closes the trader did not make (stop loss, take profit, stop-out, back office), not their own', () => {
    const closed = { type: 'position.closed', userId: 7, accountId: 3, ticket: 5, symbol: 'EURUSD', price: 1.0985, profit: '-3.50' } as const;
    assert.equal(toastForEvent({ ...closed, reason: 'sl' })?.title, 'Position #5 closed by stop loss');
    assert.equal(toastForEvent({ ...closed, reason: 'tp' })?.title, 'Position #5 closed by take profit');
    assert.equal(toastForEvent({ ...closed, reason: 'stop-out' })?.title, 'Position #5 closed by stop-out');
    assert.equal(toastForEvent({ ...closed, reason: 'admin' })?.title, 'Position #5 closed by the broker');
    assert.equal(toastForEvent({ ...closed, reason: 'manual' }), null);
  });

  it('refetches the open positions and pending orders on every trading event', () => {
    for (const event of [{ ...order, status: 'filled' as const }, { type: 'position.closed' as const, userId: 7, accountId: 3, ticket: 5, symbol: 'EURUSD', price: 1.1, profit: '0.00', reason: 'sl' as const }]) {
      const keys = keysForEvent(event);
      assert.ok(keys.includes(queryKeys.trades) && keys.includes(queryKeys.pendingOrders) && keys.includes(queryKeys.margins), event.type);
    }
  });

  it('refetches the withdrawable figures and the list on a money event; a cancel is quiet, a decision is toasted', () => {
    const request = { type: 'moneyRequest.updated', userId: 7, accountId: 3, requestId: 9, kind: 'withdrawal', amount: '500.00' } as const;
    for (const status of ['0', '1', '2', '3'] as const) {
      const keys = keysForEvent({ ...request, status });
      assert.ok(keys.includes(queryKeys.withdrawals) && keys.includes(queryKeys.withdrawable), status);
    }
    assert.ok(keysForEvent({ type: 'balance.changed', userId: 7, accountId: 3, balance: '1.00', credit: '0.00', reason: 'deposit-approved' }).includes(queryKeys.withdrawable));
    // History's balance operations and totals follow every money event.
    for (const status of ['0', '1', '2', '3'] as const) assert.ok(keysForEvent({ ...request, status }).includes(queryKeys.ledger), status);
    assert.ok(keysForEvent({ type: 'balance.changed', userId: 7, accountId: 3, balance: '1.00', credit: '0.00', reason: 'position-closed' }).includes(queryKeys.ledger));
    assert.equal(toastForEvent({ ...request, status: '3' }), null);
    assert.equal(toastForEvent({ ...request, status: '0' }), null);
    assert.equal(toastForEvent({ ...request, status: '2' })?.title, 'Withdrawal rejected');
  });

  it("names the broker's reason when it rejects a request", () => {
    const request = { type: 'moneyRequest.updated', userId: 7, accountId: 3, requestId: 9, kind: 'withdrawal', amount: '500.00', status: '2' } as const;
    assert.deepEqual(toastForEvent({ ...request, reason: 'The account name does not match.' }), {
      title: 'Withdrawal rejected',
      message: 'Your withdrawal request #9 of 500.00 USD was rejected. Reason: The account name does not match.',
      color: 'red',
    });
    assert.equal(toastForEvent({ ...request, reason: null })?.message, 'Your withdrawal request #9 of 500.00 USD was rejected.');
  });

  it("toasts the broker's balance adjustments and credit with amount and reason, and refetches the activity; other balance changes stay quiet", () => {
    const base = { type: 'balance.changed', userId: 7, accountId: 3, balance: '1025.50', credit: '0.00' } as const;
    assert.deepEqual(toastForEvent({ ...base, reason: 'adjustment', amount: '25.50', memo: 'Refund of a wire fee' }), { title: 'Balance adjusted by the broker', message: '+25.50 USD: Refund of a wire fee', color: 'green' });
    assert.deepEqual(toastForEvent({ ...base, reason: 'adjustment', amount: '-1250.00', memo: 'Chargeback' }), { title: 'Balance adjusted by the broker', message: '-1,250.00 USD: Chargeback', color: 'yellow' });
    assert.deepEqual(toastForEvent({ ...base, reason: 'credit', amount: '1000.00', memo: 'Welcome bonus' }), { title: 'Credit granted', message: '+1,000.00 USD: Welcome bonus', color: 'green' });
    assert.equal(toastForEvent({ ...base, reason: 'credit', amount: '-100.00', memo: 'Bonus withdrawn' })?.title, 'Credit removed');
    assert.equal(toastForEvent({ ...base, reason: 'deposit-approved' }), null);
    assert.equal(toastForEvent({ ...base, reason: 'position-closed' }), null);
    assert.ok(keysForEvent({ ...base, reason: 'credit', amount: '5.00', memo: 'x' }).includes(queryKeys.activity));
    assert.ok(!keysForEvent({ ...base, reason: 'position-closed' }).includes(queryKeys.activity));
  });
});
