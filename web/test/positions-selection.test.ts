import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { closeSelectedPosition, usePositionSelection } from '../src/terminal/positions-hooks';

describe("the selected position (the 'close the selected position' hotkey)", () => {
  it('closes the clicked position through the panel, and does nothing without a selection or a panel on screen', () => {
    const closed: number[] = [];
    const store = usePositionSelection.getState();
    store.setCloser(null);
    store.selectTicket(42);
    assert.equal(closeSelectedPosition(), false, 'no panel on screen');
    store.setCloser((ticket) => closed.push(ticket));
    assert.equal(closeSelectedPosition(), true);
    assert.deepEqual(closed, [42]);
    store.selectTicket(null);
    assert.equal(closeSelectedPosition(), false, 'nothing selected');
    assert.deepEqual(closed, [42]);
  });
});
