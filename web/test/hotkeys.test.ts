import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HOTKEYS, hotkeyAction, type KeyPress } from '../src/terminal/hotkeys';

const press = (key: string, over: Partial<KeyPress> = {}): KeyPress => ({ key, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, inField: false, inDialog: false, ...over });

describe('terminal hotkeys', () => {
  it('maps B, S, N/F9, Shift+C and ? to buy, sell, the order dialog, closing the selected position and the help', () => {
    assert.equal(hotkeyAction(press('b')), 'buy');
    assert.equal(hotkeyAction(press('B', { shiftKey: false })), 'buy');
    assert.equal(hotkeyAction(press('s')), 'sell');
    assert.equal(hotkeyAction(press('n')), 'new-order');
    assert.equal(hotkeyAction(press('F9')), 'new-order');
    assert.equal(hotkeyAction(press('C', { shiftKey: true })), 'close-selected');
    assert.equal(hotkeyAction(press('?', { shiftKey: true })), 'help');
  });

  it('never trades from a key typed into a field, inside a dialog, held down or with a modifier', () => {
    assert.equal(hotkeyAction(press('b', { inField: true })), null);
    assert.equal(hotkeyAction(press('b', { inDialog: true })), null);
    assert.equal(hotkeyAction(press('b', { repeat: true })), null);
    assert.equal(hotkeyAction(press('s', { ctrlKey: true })), null);
    assert.equal(hotkeyAction(press('s', { metaKey: true })), null);
    assert.equal(hotkeyAction(press('b', { altKey: true })), null);
    assert.equal(hotkeyAction(press('c')), null, 'C alone does not close a position');
    assert.equal(hotkeyAction(press('B', { shiftKey: true })), null);
  });

  it('lists every action in the help', () => {
    assert.deepEqual(new Set(HOTKEYS.map((h) => h.action)), new Set(['buy', 'sell', 'new-order', 'close-selected', 'help']));
  });
});
