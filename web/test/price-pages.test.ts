import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { SymbolRecord } from '@tradeport/contracts';
import { symbolRecord } from './helpers/symbols';
import { firstPageSymbols, listedSymbols, PAGE_SIZE, PAGE_SIZE_MOBILE, pageOf } from '../src/terminal/price-pages';

// 20 Forex pairs with 3 crypto symbols among them, in the server's order.
const list: SymbolRecord[] = Array.from({ length: 23 }, (_, i) => (i % 8 === 3 ? symbolRecord(`COIN${i}`, 'Crypto') : symbolRecord(`FX${String(i).padStart(2, '0')}`, 'Forex')));

describe('price table pages', () => {
  test('a page holds the rows of its place in the list, and the last page only what is left', () => {
    const rows = Array.from({ length: 23 }, (_, i) => i);
    assert.deepEqual(pageOf(rows, 1, 10), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    assert.deepEqual(pageOf(rows, 3, 10), [20, 21, 22]);
    assert.deepEqual(pageOf(rows, 4, 10), []);
  });

  test('the symbols warmed before the terminal renders are the first page the table opens on: that group only, 10 rows (15 on a phone), in list order', () => {
    const forex = list.filter((r) => r.CurrencyType === 'Forex').map((r) => r.Symbol);
    assert.deepEqual(firstPageSymbols(list, 'Forex', false), forex.slice(0, PAGE_SIZE));
    assert.deepEqual(firstPageSymbols(list, 'Forex', true), forex.slice(0, PAGE_SIZE_MOBILE));
    assert.deepEqual(firstPageSymbols(list, 'Crypto', false), ['COIN3', 'COIN11', 'COIN19']);
    assert.deepEqual(firstPageSymbols(list, 'Metals', true), []);
  });

  test('with nothing typed the table lists the chosen group; a search looks in every group, whichever is chosen', () => {
    assert.deepEqual(listedSymbols(list, 'Crypto', '').map((r) => r.Symbol), ['COIN3', 'COIN11', 'COIN19']);
    assert.deepEqual(listedSymbols(list, 'Forex', 'coin1').map((r) => r.Symbol), ['COIN11', 'COIN19']);
    assert.deepEqual(listedSymbols(list, 'Metals', ' FX2 ').map((r) => r.Symbol), ['FX20', 'FX21', 'FX22']);
    assert.deepEqual(listedSymbols(list, 'Forex', '   ').length, 20, 'spaces alone are no search');
  });
});
