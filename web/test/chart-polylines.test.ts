import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { crisp, distanceToSegment, drawPolylines, onPolylines } from '../src/chart/polylines';

describe('a drawing’s lines as one figure', () => {
  it('measures the distance to a segment, its ends included', () => {
    assert.equal(distanceToSegment({ x: 5, y: 3 }, { x: 0, y: 0 }, { x: 10, y: 0 }), 3);
    assert.equal(distanceToSegment({ x: 13, y: 4 }, { x: 0, y: 0 }, { x: 10, y: 0 }), 5, 'beyond the end: to the end point');
    assert.equal(distanceToSegment({ x: 3, y: 4 }, { x: 0, y: 0 }, { x: 0, y: 0 }), 5, 'a point-long segment');
  });

  it('is picked within a few pixels of any of its lines, wider lines a little farther', () => {
    const attrs = { lines: [[{ x: 0, y: 0 }, { x: 100, y: 0 }], [{ x: 0, y: 50 }, { x: 50, y: 100 }, { x: 100, y: 50 }]] };
    assert.equal(onPolylines({ x: 50, y: 3 }, attrs, 1), true);
    assert.equal(onPolylines({ x: 50, y: 5 }, attrs, 1), false);
    assert.equal(onPolylines({ x: 50, y: 5 }, attrs, 4), true);
    assert.equal(onPolylines({ x: 75, y: 75 }, attrs, 1), true, 'on the second leg of the polyline');
    assert.equal(onPolylines({ x: 50, y: 50 }, attrs, 1), false);
  });

  it('puts an odd-width line on the pixel centre across its direction', () => {
    assert.deepEqual(crisp([{ x: 0, y: 10 }, { x: 9, y: 10 }], 1), [{ x: 0, y: 10.5 }, { x: 9, y: 10.5 }]);
    assert.deepEqual(crisp([{ x: 4, y: 0 }, { x: 4, y: 9 }], 3), [{ x: 4.5, y: 0 }, { x: 4.5, y: 9 }]);
    assert.deepEqual(crisp([{ x: 0, y: 0 }, { x: 9, y: 9 }], 2), [{ x: 0, y: 0 }, { x: 9, y: 9 }]);
  });

  it('strokes every line in one path, dashed or in a given pattern when asked', () => {
    const calls: string[] = [];
    const ctx = new Proxy({} as Record<string, unknown>, {
      get: (_t, name: string) => (...args: unknown[]) => calls.push(`${name}(${args.map((a) => JSON.stringify(a)).join(',')})`),
      set: (_t, name: string, value) => (calls.push(`${name}=${JSON.stringify(value)}`), true),
    }) as unknown as CanvasRenderingContext2D;
    drawPolylines(ctx, { lines: [[{ x: 0, y: 0 }, { x: 10, y: 10 }], [{ x: 0, y: 5 }, { x: 10, y: 5 }], [{ x: 1, y: 1 }]] }, { color: '#e03131', size: 2, dashed: true });
    assert.equal(calls.filter((c) => c.startsWith('stroke(')).length, 1);
    assert.equal(calls.filter((c) => c.startsWith('beginPath(')).length, 1);
    assert.deepEqual(calls.filter((c) => c.startsWith('moveTo') || c.startsWith('lineTo')), ['moveTo(0,0)', 'lineTo(10,10)', 'moveTo(0,5)', 'lineTo(10,5)']);
    assert.ok(calls.includes('setLineDash([4,3])'));
    assert.ok(calls.includes('strokeStyle="#e03131"'));
    calls.length = 0;
    drawPolylines(ctx, { lines: [[{ x: 0, y: 0 }, { x: 10, y: 10 }]] }, { color: '#e03131', size: 2, dashed: false, dash: [2, 4] });
    assert.ok(calls.includes('setLineDash([2,4])'), 'a drawing’s own pattern (dotted)');
  });
});
