import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AlertRow, OpenTradeRow, PendingOrderRow } from '../src/api/terminal-queries';
import { changeFor, isRemovable, levelsOf, removeName } from '../src/chart/trade-levels';

const trade = (over: Partial<OpenTradeRow> = {}): OpenTradeRow => ({
  ticket: 7, symbol: 'EURUSD', fullSymbol: 'EURUSD', currencyType: 'Forex', timeStamp: '2026-01-05T10:00:00Z', type: 'Buy', volume: 0.1, orginalPrice: 1.0852,
  stopLoss: 1.08, takeProfit: 1.09, trailingStop: null, swap: '0.00', commission: '0.00', comment: '', profit: '0.00', bid: 1.085, ask: 1.0852, ...over,
});
const order = (over: Partial<PendingOrderRow> = {}): PendingOrderRow => ({
  orderId: 3, symbol: 'EURUSD', orderType: 'buy_limit', volume: 0.5, price: 1.07, stopLimitPrice: 0, stopTriggered: false, stopLoss: 1.06, takeProfit: 0, comment: '',
  expiration: null, trailingStop: null, status: 'pending', reason: '', ticket: null, timeStamp: '2026-01-05T10:00:00Z', updatedAt: '2026-01-05T10:00:00Z', ...over,
} as PendingOrderRow);

describe('trade levels on the chart', () => {
  it('shows each position’s entry, its SL and TP when set, and each pending order of the symbol only', () => {
    const levels = levelsOf([trade(), trade({ ticket: 8, stopLoss: 0, takeProfit: 0 }), trade({ ticket: 9, symbol: 'GBPUSD', fullSymbol: 'GBPUSD' })], [order(), order({ orderId: 4, status: 'filled' })], 'EURUSD', 5);
    assert.deepEqual(levels.map((l) => [l.key, l.price, l.draggable]), [['entry-7', 1.0852, false], ['sl-7', 1.08, true], ['tp-7', 1.09, true], ['entry-8', 1.0852, false], ['order-3', 1.07, true]]);
    assert.equal(levels[0]!.label, '#7 Buy 0.10 at 1.08520');
    assert.equal(levels[4]!.label, '#3 Buy Limit 0.50 at 1.07000');
  });

  it('moving an SL keeps the TP, in the instrument digits; 0 removes it', () => {
    const [, sl, tp] = levelsOf([trade()], [], 'EURUSD', 5);
    assert.deepEqual(changeFor(sl!, 1.0812345, [trade()], [], 5), { call: 'modifyTrades', input: { ticket: 7, stopLoss: 1.08123, takeProfit: 1.09, trailingStop: null }, what: 'Move the stop loss of #7 to 1.08123?' });
    assert.deepEqual(changeFor(tp!, 0, [trade()], [], 5)?.input, { ticket: 7, stopLoss: 1.08, takeProfit: 0, trailingStop: null });
    assert.equal(changeFor(tp!, 0, [trade()], [], 5)?.what, 'Remove the take profit of #7?');
  });

  it('moving a pending order changes only its price, keeping its trailing stop; a position or order gone changes nothing', () => {
    const [level] = levelsOf([], [order()], 'EURUSD', 5);
    assert.deepEqual(changeFor(level!, 1.0712, [], [order()], 5)?.input, { orderId: 3, price: 1.0712, stopLimitPrice: 0, stopLoss: 1.06, takeProfit: 0, expiration: null, trailingStop: null });
    const trailing = { distance: 120, activation: 0, step: 5 };
    assert.deepEqual((changeFor(level!, 1.0712, [], [order({ trailingStop: trailing })], 5)?.input as { trailingStop?: unknown }).trailingStop, trailing);
    assert.equal(changeFor(level!, 1.0712, [], [order({ orderType: 'sell_stop' })], 5)?.what, 'Move Sell Stop #3 to 1.07120?', 'people see the order type by its name, never the wire name');
    assert.equal(changeFor(level!, 1.0712, [], [], 5), null);
    const [entry] = levelsOf([trade()], [], 'EURUSD', 5);
    assert.equal(changeFor(entry!, 1.1, [trade()], [], 5), null);
  });

  it('a move to the price a level already has is no change: nothing is sent', () => {
    const [, sl, tp] = levelsOf([trade()], [], 'EURUSD', 5);
    assert.equal(changeFor(sl!, 1.08, [trade()], [], 5), null);
    assert.equal(changeFor(tp!, 1.0900004, [trade()], [], 5), null, 'the same price once rounded to the instrument digits');
    const [level] = levelsOf([], [order()], 'EURUSD', 5);
    assert.equal(changeFor(level!, 1.07, [], [order()], 5), null);
    assert.notEqual(changeFor(level!, 1.07001, [], [order()], 5), null);
  });

  it('offers removal from the label for an SL or TP only, named after the level and the ticket', () => {
    const levels = levelsOf([trade()], [order()], 'EURUSD', 5);
    assert.deepEqual(levels.filter(isRemovable).map(removeName), ['Remove the stop loss of #7', 'Remove the take profit of #7']);
  });

  it('dragging an alert moves its level, keeping the rest; above the price it waits for a rise, below it for a fall', () => {
    const alert = { alertId: 9, symbol: 'EURUSD', price: 'ask', direction: 'above', level: 1.1, note: 'breakout', expiration: '2026-02-01T00:00:00.000Z', byMail: true, status: 'active', createdAt: '2026-01-05T10:00:00Z', endedAt: null, firedPrice: null } as AlertRow;
    const [level] = levelsOf([], [], 'EURUSD', 5, [alert]);
    assert.equal(level?.draggable, true);
    const quote = { bid: 1.085, ask: 1.0852 };
    assert.deepEqual(changeFor(level!, 1.0801234, [], [], 5, [alert], quote), {
      call: 'modifyAlert',
      input: { alertId: 9, price: 'ask', direction: 'below', level: 1.08012, note: 'breakout', expiration: '2026-02-01T00:00:00.000Z', byMail: true },
      what: 'Move the alert on the ask to below 1.08012?',
    });
    assert.equal((changeFor(level!, 1.09, [], [], 5, [alert], quote)?.input as { direction: string }).direction, 'above');
    assert.equal(changeFor(level!, 1.1, [], [], 5, [alert], quote), null, 'where it is already');
    assert.equal(changeFor(level!, 1.09, [], [], 5, [], quote), null, 'gone');
  });
});
