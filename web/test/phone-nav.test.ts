import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_SCREEN, parsePhoneHash, phoneHash, type PhoneScreen } from '../src/terminal/phone/phone-nav';

describe('the phone terminal kept in the URL hash', () => {
  it('reads back every screen it writes', () => {
    const screens: PhoneScreen[] = [
      { view: 'prices', layer: null },
      { view: 'chart', layer: null },
      { view: 'trading', layer: null },
      { view: 'prices', layer: { kind: 'symbol', symbol: 'EURUSD' } },
      { view: 'prices', layer: { kind: 'details', symbol: 'EURUSD.01' } },
      { view: 'trading', layer: { kind: 'position', ticket: 42 } },
      { view: 'chart', layer: { kind: 'order', symbol: 'XAUUSD' } },
      { view: 'trading', layer: { kind: 'order', symbol: 'BTCUSD', side: 'sell' } },
      { view: 'chart', layer: { kind: 'menu' } },
    ];
    for (const s of screens) assert.deepEqual(parsePhoneHash(`#${phoneHash(s)}`), s, phoneHash(s));
  });

  it('opens on the price table without a hash or with one it does not know', () => {
    for (const hash of ['', '#', '#nothing', '#%E0%A4%A', '#PRICES']) assert.deepEqual(parsePhoneHash(hash), DEFAULT_SCREEN, hash);
  });

  it('keeps the tab and drops a layer that is malformed', () => {
    assert.deepEqual(parsePhoneHash('#trading/position/abc'), { view: 'trading', layer: null });
    assert.deepEqual(parsePhoneHash('#trading/position/0'), { view: 'trading', layer: null });
    assert.deepEqual(parsePhoneHash('#prices/symbol/<script>'), { view: 'prices', layer: null });
    assert.deepEqual(parsePhoneHash('#prices/details/'), { view: 'prices', layer: null });
    assert.deepEqual(parsePhoneHash('#prices/details/a%20b'), { view: 'prices', layer: null });
    assert.deepEqual(parsePhoneHash('#prices/sheet'), { view: 'prices', layer: null });
  });

  it('ignores an order side other than buy or sell', () => {
    assert.deepEqual(parsePhoneHash('#prices/order/EURUSD/short'), { view: 'prices', layer: { kind: 'order', symbol: 'EURUSD' } });
  });
});
