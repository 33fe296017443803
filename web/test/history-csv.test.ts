import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { CallOutput } from '../src/api/client';
import { ledgerKindLabel } from '../src/format/order-types';
import { ordersCsv, tradesCsv } from '../src/terminal/history-csv';

type TradeRow = CallOutput<'getTradesHistory'>['data'][number];
type Operation = CallOutput<'getBalanceOperations'>['data'][number];
type OrderRow = CallOutput<'getOrderHistory'>['data'][number];

const trade = (over: Partial<TradeRow> = {}): TradeRow => ({
  ID: 7,
  symbol: 'EURUSD',
  timeStamp: '2026-03-03T12:00:00.000Z',
  tradeType: 'Buy',
  volume: 1,
  tradePrice: 1.1002,
  stopLoss: 0,
  takeProfit: 0,
  lastPrice: 1.1012,
  profit: '100.00',
  swap: '-7.20',
  commission: '0.00',
  closeTime: '2026-03-03T23:00:01.000Z',
  closeReason: 'manual',
  partOf: null,
  comment: '',
  ...over,
});
const op = (over: Partial<Operation> = {}): Operation => ({ id: 1, kind: 'deposit', amount: '10000.00', balanceAfter: '10000.00', ticket: null, comment: 'Deposit request #1', timeStamp: '2026-03-03T11:00:00.000Z', ...over });

/** Parses the CSV these exports write (RFC 4180: CRLF lines, quoted fields with doubled quotes). */
function parse(csv: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const endField = () => {
    row.push(field);
    field = '';
  };
  for (let i = 0; i < csv.length; i++) {
    const c = csv[i]!;
    if (quoted) {
      if (c === '"' && csv[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') endField();
    else if (c === '\r' && csv[i + 1] === '\n') {
      endField();
      rows.push(row);
      row = [];
      i++;
    } else field += c;
  }
  return rows;
}
const cents = (v: string | undefined) => (v ? Math.round(Number(v) * 100) : 0);

describe('History CSV', () => {
  it('lists the closed positions and the balance operations in one sheet, newest first, each kind by its name', () => {
    const csv = tradesCsv(
      [trade()],
      [
        op(),
        op({ id: 2, kind: 'withdrawal', amount: '-250.00', comment: 'Withdrawal request #4', timeStamp: '2026-03-04T09:00:00.000Z' }),
        op({ id: 3, kind: 'swap', amount: '-7.20', ticket: 7, comment: 'Swap of position #7', timeStamp: '2026-03-03T23:00:01.000Z' }),
        op({ id: 4, kind: 'commission', amount: '-3.50', comment: 'Commission', timeStamp: '2026-03-04T10:00:00.000Z' }),
      ],
    );
    const rows = parse(csv);
    assert.deepEqual(rows[0], ['Ticket', 'Symbol', 'Type', 'Volume', 'Open time (UTC)', 'Open price', 'S / L', 'T / P', 'Close time (UTC)', 'Close price', 'Swap', 'Profit', 'Close reason', 'Comment', 'Part of']);
    assert.deepEqual(
      rows.slice(1).map((r) => [r[0], r[2], r[8], r[10], r[11], r[13]]),
      [
        ['', 'Commission', '2026-03-04 10:00:00', '', '-3.50', 'Commission'],
        ['', 'Withdrawal', '2026-03-04 09:00:00', '', '-250.00', 'Withdrawal request #4'],
        // The swap charged at the close is the position's Swap, not a row of its own.
        ['7', 'Buy', '2026-03-03 23:00:01', '-7.20', '100.00', ''],
        ['', 'Deposit', '2026-03-03 11:00:00', '', '10000.00', 'Deposit request #1'],
      ],
    );
  });

  it('names under Part of the ticket a partly closed position stayed open as, and leaves it blank on every other row', () => {
    const rows = parse(tradesCsv([trade({ ID: 9, partOf: 7, volume: 0.4 }), trade({ ID: 7 })], [op()]));
    assert.deepEqual(
      rows.slice(1).map((r) => [r[0], r[3], r[14]]),
      [
        ['9', '0.4', '7'],
        ['7', '1', ''],
        ['', '', ''],
      ],
    );
  });

  it('lists a swap of its own (not charged at a position’s close) as a row', () => {
    const rows = parse(tradesCsv([], [op({ kind: 'swap', amount: '-1.00', ticket: null, comment: 'Swap' })]));
    assert.deepEqual(rows[1]?.slice(2, 3), ['Swap']);
  });

  it('adds up: the Swap and Profit columns total what the ledger moved (every amount once), for any history', () => {
    const amount = fc.integer({ min: -1_000_000, max: 1_000_000 }).map((c) => (c / 100).toFixed(2));
    const time = fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2026, 11, 31) }).map((t) => new Date(t).toISOString());
    fc.assert(
      fc.property(
        fc.array(fc.record({ profit: amount, swap: amount, closeTime: time }), { maxLength: 20 }),
        fc.array(fc.record({ kind: fc.constantFrom('deposit', 'withdrawal', 'credit', 'adjustment', 'bonus_fee'), amount, timeStamp: time }), { maxLength: 20 }),
        (positions, others) => {
          const trades = positions.map((p, i) => trade({ ID: i + 1, ...p }));
          // The ledger as the server keeps it: each position's profit and its swap at its close, and the other entries.
          const swaps = trades.filter((t) => t.swap !== '0.00').map((t, i) => op({ id: 1000 + i, kind: 'swap', amount: t.swap, ticket: t.ID, timeStamp: t.closeTime }));
          const operations = [...others.map((o, i) => op({ id: i + 1, ticket: null, ...o })), ...swaps];
          const ledger = [...trades.map((t) => cents(t.profit)), ...operations.map((o) => cents(o.amount))].reduce((a, b) => a + b, 0);
          const rows = parse(tradesCsv(trades, operations)).slice(1);
          assert.equal(rows.length, trades.length + others.length);
          assert.equal(rows.reduce((s, r) => s + cents(r[10]) + cents(r[11]), 0), ledger);
          const times = rows.map((r) => Date.parse(`${r[8]!.replace(' ', 'T')}Z`));
          assert.deepEqual([...times].sort((a, b) => b - a), times, 'newest first');
        },
      ),
      { numRuns: 200 },
    );
  });

  it('names every order by its type, market orders as Buy or Sell without an order number', () => {
    const market: OrderRow = { kind: 'market', orderId: null, ticket: 12, symbol: 'EURUSD', orderType: 'sell', volume: 0.5, price: 1.1, stopLimitPrice: 0, stopLoss: 0, takeProfit: 0, comment: '', status: 'filled', reason: 'Filled at market', timeStamp: '2026-03-03T12:00:05.000Z', updatedAt: '2026-03-03T12:00:05.000Z' };
    const pending: OrderRow = { ...market, kind: 'pending', orderId: 4, ticket: null, orderType: 'buy_stop_limit', price: 1.2, stopLimitPrice: 1.19, status: 'expired', reason: 'Expired', updatedAt: '2026-03-04T00:00:00.000Z' };
    const rows = parse(ordersCsv([pending, market]));
    assert.deepEqual(rows.slice(1), [
      ['4', 'EURUSD', 'Buy Stop Limit', '0.5', '1.2', '1.19', '', '', '2026-03-03 12:00:05', '2026-03-04 00:00:00', 'Expired', 'Expired', ''],
      ['', 'EURUSD', 'Sell', '0.5', '1.1', '', '', '', '2026-03-03 12:00:05', '2026-03-03 12:00:05', 'Filled', 'Filled at market', '12'],
    ]);
  });

  it('labels ledger kinds it knows, and any other by its own word', () => {
    assert.deepEqual(['deposit', 'withdrawal', 'swap', 'credit', 'adjustment', 'bonus_reversal', 'commission', '__'].map(ledgerKindLabel), ['Deposit', 'Withdrawal', 'Swap', 'Credit', 'Adjustment', 'Bonus reversal', 'Commission', 'Other']);
    assert.equal(ledgerKindLabel('constructor'), 'Constructor', 'no inherited property is a label');
  });
});
