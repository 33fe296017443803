import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { levelLabelLayout, onRemove } from '../src/chart/level-figure';

describe('a trade level’s label and its ×', () => {
  it('puts the × of an SL or TP just right of the label, centred on the line', () => {
    const place = levelLabelLayout({ textWidth: 100, y: 240, removable: true, touch: false });
    assert.deepEqual(place.label, { x: 6, y: 240 });
    // The label's box ends at 6 + 4 + 100 + 4 = 114; the × starts 3 px later.
    assert.ok(place.remove);
    assert.equal(place.remove.x - place.remove.size / 2, 117);
    assert.equal(place.remove.y, 240);
  });

  it('gives an entry or an order no ×', () => {
    assert.equal(levelLabelLayout({ textWidth: 100, y: 240, removable: false, touch: false }).remove, null);
  });

  it('answers a finger within 22 px of the × on a phone, a mouse only on the × itself', () => {
    const mouse = levelLabelLayout({ textWidth: 80, y: 100, removable: true, touch: false }).remove!;
    const finger = levelLabelLayout({ textWidth: 80, y: 100, removable: true, touch: true }).remove!;
    assert.equal(onRemove({ x: mouse.x, y: mouse.y }, mouse), true);
    assert.equal(onRemove({ x: mouse.x + mouse.size / 2, y: mouse.y + mouse.size / 2 }, mouse), true, 'a corner of the square');
    assert.equal(onRemove({ x: mouse.x, y: mouse.y + 14 }, mouse), false, '14 px below is the line, not the ×');
    assert.equal(onRemove({ x: finger.x, y: finger.y + 20 }, finger), true);
    assert.equal(onRemove({ x: finger.x + 16, y: finger.y - 15 }, finger), true);
    assert.equal(onRemove({ x: finger.x, y: finger.y + 23 }, finger), false);
    assert.ok(finger.hitRadius * 2 >= 44, 'a 44 px target');
  });
});
