import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { drawShapes, onShapes, placeText, type ShapesAttrs } from '../src/chart/shapes-figure';

/** A canvas context that writes down what is done to it. */
function recorder() {
  const calls: string[] = [];
  const ctx = new Proxy({} as Record<string, unknown>, {
    get: (_t, name: string) => (...args: unknown[]) => calls.push(`${name}(${args.map((a) => JSON.stringify(a)).join(',')})`),
    set: (_t, name: string, value) => (calls.push(`${name}=${JSON.stringify(value)}`), true),
  }) as unknown as CanvasRenderingContext2D;
  return { ctx, calls };
}

const channel: ShapesAttrs = {
  areas: [{ kind: 'polygon', points: [{ x: 0, y: 0 }, { x: 100, y: 0 }, { x: 100, y: 50 }, { x: 0, y: 50 }], fill: true }],
  solid: [[{ x: 0, y: 0 }, { x: 100, y: 0 }], [{ x: 0, y: 50 }, { x: 100, y: 50 }]],
  dashed: [[{ x: 0, y: 25 }, { x: 100, y: 25 }]],
  texts: [{ x: 120, y: 10, text: '+0.00120', width: 48 }],
};
const styles = { color: '#1c7ed6', shade: 'rgba(28, 126, 214, 0.1)', size: 1, font: "600 11px 'Inter Variable'" };

describe('a drawing as one figure', () => {
  it('places a label’s text as KLineChart lays out a text box: padding 2 px across, 1 px down, aligned on its anchor', () => {
    assert.deepEqual(placeText({ x: 100, y: 50 }, 'a', 40), { x: 102, y: 38, text: 'a', width: 40 }, 'left and bottom by default');
    assert.deepEqual(placeText({ x: 100, y: 50 }, 'a', 40, 'right', 'top'), { x: 58, y: 51, text: 'a', width: 40 });
    assert.deepEqual(placeText({ x: 100, y: 50 }, 'a', 40, 'center', 'middle'), { x: 80, y: 44.5, text: 'a', width: 40 });
  });

  it('is picked inside its areas and near its lines, solid or dashed, but not on its labels or elsewhere', () => {
    assert.equal(onShapes({ x: 50, y: 40 }, channel, 1), true, 'inside the shaded channel');
    assert.equal(onShapes({ x: 50, y: 52 }, channel, 1), true, 'just below the lower line');
    const lines = { ...channel, areas: [] };
    assert.equal(onShapes({ x: 50, y: 26 }, lines, 1), true, 'on the dashed middle line');
    assert.equal(onShapes({ x: 50, y: 40 }, lines, 1), false, 'between the lines of an unshaded drawing');
    assert.equal(onShapes({ x: 130, y: 15 }, channel, 1), false, 'on the label');
    const circle: ShapesAttrs = { areas: [{ kind: 'circle', center: { x: 10, y: 10 }, r: 5 }], solid: [], dashed: [], texts: [] };
    assert.equal(onShapes({ x: 13, y: 13 }, circle, 1), true);
    assert.equal(onShapes({ x: 14, y: 14 }, circle, 1), false);
  });

  it('draws the shading, then the outline, then the lines (one stroke per dash style), then the labels', () => {
    const { ctx, calls } = recorder();
    drawShapes(ctx, channel, styles);
    const order = calls.filter((c) => /^(fill|stroke|fillText)\(/.test(c)).map((c) => c.slice(0, c.indexOf('(')));
    assert.deepEqual(order, ['fill', 'stroke', 'stroke', 'stroke', 'fillText']);
    assert.ok(calls.indexOf(`fillStyle=${JSON.stringify(styles.shade)}`) < calls.indexOf('fill()'), 'shaded in the translucent colour');
    assert.ok(calls.includes('setLineDash([4,3])'), 'the middle line dashed');
    assert.ok(calls.includes('fillText("+0.00120",120,10,48)'));
    assert.ok(calls.includes(`font=${JSON.stringify(styles.font)}`));
  });

  it('fills a solid area (an arrow head) in the line colour without an outline, and leaves a tiny circle unstroked', () => {
    const { ctx, calls } = recorder();
    drawShapes(ctx, { areas: [{ kind: 'polygon', points: [{ x: 0, y: 0 }, { x: 6, y: 3 }, { x: 0, y: 6 }], fill: true, solid: true }, { kind: 'circle', center: { x: 0, y: 0 }, r: 1 }], solid: [], dashed: [], texts: [] }, { ...styles, size: 2 });
    assert.deepEqual(calls.filter((c) => /^(fill|stroke)\(/.test(c) || c.startsWith('fillStyle=')), ['fillStyle="#1c7ed6"', 'fill()', `fillStyle=${JSON.stringify(styles.shade)}`, 'fill()']);
  });

  it('strokes the drawing’s own lines and outlines in its line style, its helper lines in the short dashes, and each note line in its font', () => {
    const { ctx, calls } = recorder();
    const note = { x: 10, y: 10, text: 'Note', width: 30, font: "500 20px 'Inter Variable'" };
    drawShapes(ctx, { ...channel, texts: [...channel.texts, note] }, { ...styles, dash: [1, 3] });
    const dashes = calls.filter((c) => c.startsWith('setLineDash('));
    assert.deepEqual(dashes, ['setLineDash([1,3])', 'setLineDash([1,3])', 'setLineDash([4,3])'], 'outline, lines, then helper lines');
    const fonts = calls.filter((c) => c.startsWith('font='));
    assert.deepEqual(fonts, [`font=${JSON.stringify(styles.font)}`, `font=${JSON.stringify(note.font)}`]);
    assert.ok(calls.indexOf(`font=${JSON.stringify(note.font)}`) < calls.indexOf('fillText("Note",10,10,30)'));
  });
});
