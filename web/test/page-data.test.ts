import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parsePageData } from '../src/page-data';

const good = { symbols: { status: 'success', data: [{ Symbol: 'EURUSD' }] }, quotes: [{ symbol: 'EURUSD', bid: 1.1, ask: 1.2, time: 1, open: true, stale: false }] };

test("the page's data is read as the server writes it, a < escape included", () => {
  assert.deepEqual(parsePageData(JSON.stringify(good)), good);
  const withEscape = JSON.stringify({ ...good, symbols: { ...good.symbols, data: [{ Symbol: 'EURUSD', description: '</script>' }] } }).replace(/</g, '\\u003c');
  assert.equal(parsePageData(withEscape)?.symbols.data[0]?.description, '</script>');
});

test('a page without data, or with data that is not what it should be, starts like a page without: nothing is seeded', () => {
  for (const text of [null, undefined, '', 'not json', '{"symbols":', 'null', '[]', '{}', JSON.stringify({ ...good, symbols: { status: 'Failure', data: [] } }), JSON.stringify({ ...good, quotes: 'EURUSD' }), JSON.stringify({ ...good, quotes: [null] }), JSON.stringify({ ...good, quotes: [{ bid: 1 }] }), JSON.stringify({ symbols: good.symbols })]) {
    assert.equal(parsePageData(text), null, String(text));
  }
});
