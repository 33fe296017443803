import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { LABEL_X, lineSegments, stackLevelLabels, type LabelToPlace } from '../src/chart/level-figure';
import { legendBottom, type LegendTextStyle } from '../src/chart/level-labels';

const H = 15;
const label = (key: string, y: number, width = 120): LabelToPlace => ({ key, y, width, height: H });
const overlap = (a: { x: number; y: number; width: number; height: number }, b: typeof a) => a.x < b.x + b.width && b.x < a.x + a.width && Math.abs(a.y - b.y) < (a.height + b.height) / 2;

describe('trade level labels placed clear of each other and of the legends', () => {
  it('leaves a label on its line when nothing is in the way', () => {
    const placed = stackLevelLabels([label('sl', 300), label('entry', 200), label('tp', 100)], { top: 40, bottom: 500 });
    assert.deepEqual(placed.get('tp'), { x: LABEL_X, y: 100, width: 120, height: H, lineY: 100, moved: false });
    assert.equal(placed.get('entry')!.y, 200);
    assert.equal(placed.get('sl')!.moved, false);
  });

  it('stacks labels that would overlap in the order of their prices, centred on their lines', () => {
    const placed = stackLevelLabels([label('entry', 204), label('sl', 208), label('tp', 200)], { top: 40, bottom: 500 });
    const ys = ['tp', 'entry', 'sl'].map((k) => placed.get(k)!.y);
    assert.deepEqual(ys.map((y) => y - ys[0]!), [0, H + 2, 2 * (H + 2)], 'one under the other, 2 px apart');
    // Centred: the mean of the moves is nothing, the middle label on the lines' middle.
    assert.equal(ys[1], (200 + 204 + 208) / 3);
    assert.equal(placed.get('sl')!.moved, true);
    assert.equal(placed.get('sl')!.lineY, 208);
    assert.ok([...placed.values()].every((p) => p.x === LABEL_X), 'one column');
  });

  it('lists the higher price first when two lines fall on the same pixel (far zoomed out)', () => {
    const placed = stackLevelLabels([{ ...label('sl-1', 200), price: 1.0846 }, { ...label('sl-2', 200), price: 1.0847 }], { top: 0, bottom: 500 });
    assert.ok(placed.get('sl-2')!.y < placed.get('sl-1')!.y);
  });

  it('puts a label under the legends when its line runs through them', () => {
    const placed = stackLevelLabels([label('tp', 12)], { top: 46, bottom: 500 });
    assert.equal(placed.get('tp')!.y, 46 + H / 2);
    assert.equal(placed.get('tp')!.moved, true);
  });

  it('keeps a stack at the bottom edge inside the pane', () => {
    const near = stackLevelLabels([label('a', 495), label('b', 497)], { top: 0, bottom: 500 });
    assert.equal(near.get('b')!.y + H / 2, 500);
    assert.equal(near.get('a')!.y, near.get('b')!.y - H - 2);
  });

  it('cuts a stack taller than the room into columns side by side, each in price order', () => {
    const ys = [300, 301, 302, 303, 304, 305];
    // Room for three labels of 15 px (and their gaps) between the legends and the bottom.
    const placed = stackLevelLabels(ys.map((y, i) => label(`l${i}`, y, 100 + i)), { top: 250, bottom: 310 });
    const columns = [...new Set([...placed.values()].map((p) => p.x))].sort((a, b) => a - b);
    assert.deepEqual(columns, [LABEL_X, LABEL_X + 102 + 8], 'the second column starts past the first one’s widest label');
    assert.deepEqual(['l0', 'l1', 'l2'].map((k) => placed.get(k)!.x), [LABEL_X, LABEL_X, LABEL_X]);
    assert.ok(placed.get('l0')!.y < placed.get('l1')!.y && placed.get('l1')!.y < placed.get('l2')!.y);
  });

  it('leaves lines off the pane where they are (not seen)', () => {
    const placed = stackLevelLabels([label('far', -80), label('below', 900)], { top: 30, bottom: 500 });
    assert.equal(placed.get('far')!.y, -80);
    assert.equal(placed.get('below')!.y, 900);
  });

  it('never overlaps two labels, and keeps every label of a line on the pane under the legends and inside it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ y: fc.double({ min: 0, max: 400, noNaN: true }), width: fc.integer({ min: 40, max: 200 }), height: fc.constantFrom(15, 17, 22) }), { minLength: 1, maxLength: 14 }),
        fc.integer({ min: 0, max: 80 }),
        (rows, top) => {
          const labels = rows.map((r, i) => ({ key: `k${i}`, ...r }));
          const placed = stackLevelLabels(labels, { top, bottom: 400 });
          const boxes = labels.map((l) => ({ ...placed.get(l.key)!, key: l.key }));
          assert.equal(boxes.length, labels.length);
          for (const b of boxes) {
            assert.ok(b.y - b.height / 2 >= top - 1e-9, `${b.key} under the legends (${b.y})`);
            assert.ok(b.y + b.height / 2 <= 400 + 1e-9, `${b.key} inside the pane`);
          }
          for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) assert.ok(!overlap(boxes[i]!, boxes[j]!), `${boxes[i]!.key} and ${boxes[j]!.key} overlap`);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('a level’s line among the stacked labels', () => {
  it('is drawn across the pane but behind the other levels’ labels on its height, and under its own', () => {
    const place = (x: number, y: number, width: number) => ({ x, y, width, height: H, lineY: y, moved: false });
    const labels = [
      ['own', place(6, 100, 80)],
      ['above', place(6, 95, 120)],
      ['beside', place(140, 102, 60)],
      ['far', place(6, 300, 200)],
    ] as const;
    assert.deepEqual(lineSegments(100, 800, labels, 'own'), [[0, 5], [127, 139], [201, 800]]);
    assert.deepEqual(lineSegments(200, 800, labels, 'own'), [[0, 800]], 'no label on its height: the whole width');
  });
});

describe('where KLineChart’s indicator legends end', () => {
  const style: LegendTextStyle = { size: 12, family: 'Inter', weight: 'normal', marginLeft: 8, marginTop: 4, marginRight: 8, marginBottom: 4 };
  // Each character 6 px wide.
  const measure = (text: string) => text.length * 6;

  it('is one 20 px row per indicator that fits the width, under the offset at the top', () => {
    const entries = [{ name: 'MA(20)', values: [{ title: 'MA20: ', value: '1.08512' }] }, { name: 'EMA(50)', values: [{ title: 'EMA50: ', value: '1.08400' }] }];
    assert.equal(legendBottom(entries, { top: 6, left: 4, maxWidth: 1000, title: style, legend: style }, measure), 6 + 20 + 20);
  });

  it('wraps an indicator’s values onto more rows when the pane is narrow (a phone)', () => {
    const boll = { name: 'BOLL(20,2)', values: ['UP: ', 'MID: ', 'DN: '].map((title) => ({ title, value: '1.08512' })) };
    // 4 + (8 + 60 + 8) = 80, then each value 8 + 66..72 + 8 wide: in 200 px, two per row.
    assert.equal(legendBottom([boll], { top: 6, left: 4, maxWidth: 200, title: style, legend: style }, measure), 6 + 40);
    assert.equal(legendBottom([boll], { top: 6, left: 4, maxWidth: 120, title: style, legend: style }, measure), 6 + 80);
    assert.equal(legendBottom([], { top: 6, left: 4, maxWidth: 120, title: style, legend: style }, measure), 6, 'no indicator, no legend');
  });
});
