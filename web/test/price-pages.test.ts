import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import type { SymbolRecord } from '@tradeport/contracts';
import { symbolRecord } from './helpers/symbols';
import { dailyChangePct, FIRST_ROWS, FIRST_ROWS_PHONE, firstShownSymbols, listedSymbols, movedRow, scrollToShow, spreadPoints, visibleRows } from '../src/terminal/price-pages';

// 20 Forex pairs with 3 crypto symbols among them, in the server's order.
const list: SymbolRecord[] = Array.from({ length: 23 }, (_, i) => (i % 8 === 3 ? symbolRecord(`COIN${i}`, 'Crypto') : symbolRecord(`FX${String(i).padStart(2, '0')}`, 'Forex')));

describe('the price table’s rows', () => {
  test('with nothing typed the table lists the chosen group; a search looks in every group, whichever is chosen', () => {
    assert.deepEqual(listedSymbols(list, 'Crypto', '').map((r) => r.Symbol), ['COIN3', 'COIN11', 'COIN19']);
    assert.deepEqual(listedSymbols(list, 'Forex', 'coin1').map((r) => r.Symbol), ['COIN11', 'COIN19']);
    assert.deepEqual(listedSymbols(list, 'Metals', ' FX2 ').map((r) => r.Symbol), ['FX20', 'FX21', 'FX22']);
    assert.deepEqual(listedSymbols(list, 'Forex', '   ').length, 20, 'spaces alone are no search');
    assert.equal(listedSymbols(list, 'Forex', '').length, 20, 'every symbol of the group, not a page of it');
  });

  test('Favourites lists the favourites in the order they were added, skipping any the catalogue no longer has; a search still looks everywhere', () => {
    assert.deepEqual(listedSymbols(list, 'Favourites', '', ['FX22', 'COIN3', 'GONE', 'FX00']).map((r) => r.Symbol), ['FX22', 'COIN3', 'FX00']);
    assert.deepEqual(listedSymbols(list, 'Favourites', '', []), []);
    assert.deepEqual(listedSymbols(list, 'Favourites', 'coin', ['FX22']).map((r) => r.Symbol), ['COIN3', 'COIN11', 'COIN19']);
  });

  test('the symbols warmed before the terminal renders are the rows it draws first: that category, 20 rows (15 on a phone), in list order', () => {
    const long = Array.from({ length: 40 }, (_, i) => symbolRecord(`FX${String(i).padStart(2, '0')}`, 'Forex'));
    assert.deepEqual(firstShownSymbols(long, 'Forex', false), long.slice(0, FIRST_ROWS).map((r) => r.Symbol));
    assert.deepEqual(firstShownSymbols(long, 'Forex', true), long.slice(0, FIRST_ROWS_PHONE).map((r) => r.Symbol));
    assert.deepEqual(firstShownSymbols(list, 'Crypto', false), ['COIN3', 'COIN11', 'COIN19']);
    assert.deepEqual(firstShownSymbols(list, 'Metals', true), []);
    assert.deepEqual(firstShownSymbols(list, 'Favourites', false, ['COIN11']), ['COIN11']);
  });
});

describe('drawing only the rows in view', () => {
  test('before the table is measured it draws the first rows; then the rows in view and a few either side', () => {
    assert.deepEqual(visibleRows({ offset: 0, height: null, rowHeight: 30, count: 500, first: 20 }), { start: 0, end: 20 });
    assert.deepEqual(visibleRows({ offset: 0, height: null, rowHeight: 30, count: 7, first: 20 }), { start: 0, end: 7 });
    // 300 px of rows at 30 px: rows 0–9 in view, 6 more below.
    assert.deepEqual(visibleRows({ offset: 0, height: 300, rowHeight: 30, count: 500, first: 20, overscan: 6 }), { start: 0, end: 16 });
    // Scrolled to row 100: rows 100–109 in view, 94–115 drawn.
    assert.deepEqual(visibleRows({ offset: 3000, height: 300, rowHeight: 30, count: 500, first: 20, overscan: 6 }), { start: 94, end: 116 });
    // At the foot: nothing past the last row.
    assert.deepEqual(visibleRows({ offset: 14_700, height: 300, rowHeight: 30, count: 500, first: 20, overscan: 6 }), { start: 484, end: 500 });
    assert.deepEqual(visibleRows({ offset: 0, height: 300, rowHeight: 30, count: 0, first: 20 }), { start: 0, end: 0 });
  });

  test('every row in view is drawn, and never more than a screenful and the margins, wherever the table is scrolled (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5000 }), fc.integer({ min: 0, max: 2000 }), fc.integer({ min: 20, max: 60 }), fc.integer({ min: 0, max: 200_000 }), fc.integer({ min: 0, max: 10 }), (count, height, rowHeight, offset, overscan) => {
        const { start, end } = visibleRows({ offset, height, rowHeight, count, first: 20, overscan });
        assert.ok(start >= 0 && start <= end && end <= count);
        const firstInView = Math.floor(offset / rowHeight);
        const lastInView = Math.ceil((offset + height) / rowHeight) - 1;
        for (const row of [firstInView, lastInView]) if (row >= 0 && row < count) assert.ok(row >= start && row < end, `row ${row} in view is drawn (${start}–${end})`);
        assert.ok(end - start <= Math.ceil(height / rowHeight) + 1 + 2 * overscan, `${end - start} rows drawn for ${height} px`);
      }),
    );
  });

  test('the keys move among the rows, and stop at the ends', () => {
    assert.equal(movedRow('ArrowDown', 3, 10, 5), 4);
    assert.equal(movedRow('ArrowUp', 3, 10, 5), 2);
    assert.equal(movedRow('ArrowUp', 0, 10, 5), 0);
    assert.equal(movedRow('ArrowDown', 9, 10, 5), 9);
    assert.equal(movedRow('PageDown', 0, 100, 10), 9, 'a page keeps one row of the last in view');
    assert.equal(movedRow('PageUp', 50, 100, 10), 41);
    assert.equal(movedRow('PageDown', 95, 100, 10), 99);
    assert.equal(movedRow('Home', 50, 100, 10), 0);
    assert.equal(movedRow('End', 5, 100, 10), 99);
    assert.equal(movedRow('a', 5, 100, 10), null);
    assert.equal(movedRow('ArrowDown', 0, 0, 10), null, 'no rows, no move');
  });

  test('moving to a row scrolls just enough to show it whole under the sticky header', () => {
    const view = { view: 330, header: 30, rowHeight: 30 };
    assert.equal(scrollToShow(5, { ...view, scrollTop: 0 }), 0, 'already in view');
    assert.equal(scrollToShow(10, { ...view, scrollTop: 0 }), 30, 'one row down: its foot at the view’s foot');
    assert.equal(scrollToShow(2, { ...view, scrollTop: 300 }), 60, 'above the view: its top under the header');
    assert.equal(scrollToShow(499, { ...view, scrollTop: 0 }), 30 + 500 * 30 - 330);
  });
});

describe('the optional columns', () => {
  test('the spread is in whole points of the instrument', () => {
    assert.equal(spreadPoints(1.08, 1.0802, 5), 20);
    assert.equal(spreadPoints(151.2, 151.22, 3), 20);
    assert.equal(spreadPoints(2650.1, 2650.45, 2), 35);
    assert.equal(spreadPoints(0.1, 0.3, 1), 2, 'binary fractions round to the point');
    assert.equal(spreadPoints(null, 1.1, 5), null);
  });

  test('the day’s change is the bid against the previous day’s close, in percent', () => {
    assert.equal(dailyChangePct(1.1, 1.1), 0);
    assert.ok(Math.abs(dailyChangePct(1.1, 1.0)! - 10) < 1e-9);
    assert.ok(Math.abs(dailyChangePct(99, 100)! + 1) < 1e-9);
    assert.equal(dailyChangePct(1.1, null), null, 'no history, no change');
    assert.equal(dailyChangePct(null, 1.1), null);
    assert.equal(dailyChangePct(1.1, 0), null);
  });
});
