import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { CHART_TOOLS, chartLayout, MAX_CHART_NOTES, MAX_NOTE_LENGTH } from '@tradeport/contracts';
import { TOOL_BY_NAME, TOOLS, TOOL_MENUS, overlayName, toolOfOverlay } from '../src/chart/tools';
import { arrowHead } from '../src/chart/tools/arrowed-line';
import { ellipsePoints } from '../src/chart/tools/ellipse';
import { GANN_RATIOS } from '../src/chart/tools/gann-fan';
import { GANN_GRID_MAX_LINES as GRID_MAX } from '../src/chart/tools/gann-grid';
import { EXTENSION_LEVELS, levelText, RETRACEMENT_LEVELS } from '../src/chart/tools/fibonacci';
import { infoText } from '../src/chart/tools/info-line';
import { extend, indexOfTime, linearRegression, residuals, span, type Pt, type Shape, type ToolInput } from '../src/chart/tools/shape';
import { screenAngle } from '../src/chart/tools/trend-angle';

const W = 800;
const H = 400;
const input = (coords: Pt[], extra: Partial<ToolInput> = {}): ToolInput => ({
  coords,
  anchors: coords.map((c, i) => ({ value: 1.1 + i * 0.01, timestamp: Date.UTC(2026, 0, 5) + i * 3_600_000, dataIndex: 10 + i })),
  width: W,
  height: H,
  digits: 5,
  ...extra,
});
const draw = (name: (typeof CHART_TOOLS)[number], coords: Pt[], extra?: Partial<ToolInput>) => TOOL_BY_NAME.get(name)!.geometry(input(coords, extra));
const lines = (shapes: Shape[]) => shapes.filter((s) => s.kind === 'line').map((s) => s.points);
const polygons = (shapes: Shape[]) => shapes.filter((s) => s.kind === 'polygon').map((s) => s.points);
const texts = (shapes: Shape[]) => shapes.filter((s) => s.kind === 'text').map((s) => s.text);
const near = (a: number, b: number, what = '') => assert.ok(Math.abs(a - b) < 1e-9, `${what} ${a} ≠ ${b}`);
const A = { x: 100, y: 300 };
const B = { x: 300, y: 200 };
const C = { x: 200, y: 350 };

describe('drawing tools', () => {
  it('offers exactly the tools of the spec’s four menus and ours (Fibonacci, text), each once, under its menu', () => {
    assert.deepEqual(TOOLS.map((t) => t.name), [...CHART_TOOLS]);
    assert.deepEqual(TOOL_MENUS.map((m) => m.menu), ['lines', 'channels', 'gann', 'fibonacci', 'shapes', 'annotations']);
    assert.deepEqual(TOOL_MENUS.map((m) => TOOLS.filter((t) => t.menu === m.menu).length), [12, 4, 3, 2, 4, 1]);
    assert.equal(new Set(TOOLS.map((t) => t.label)).size, TOOLS.length);
    for (const t of TOOLS) assert.equal(toolOfOverlay(overlayName(t.name)), t.name);
    assert.equal(toolOfOverlay('segment'), null);
  });

  it('draws nothing until a tool has the points it needs to start, and never throws on partial input', () => {
    for (const t of TOOLS) {
      assert.deepEqual(t.geometry(input([])), [], t.name);
      if (t.points > 1) assert.deepEqual(t.geometry(input([A])), [], t.name);
      for (let n = 1; n <= 3; n++) assert.ok(Array.isArray(t.geometry(input([A, B, C].slice(0, n), { text: 'Note' }))), t.name);
    }
  });

  it('every figure of every tool has finite coordinates for any anchors (property)', () => {
    const pt = fc.record({ x: fc.double({ min: -2000, max: 2000, noNaN: true }), y: fc.double({ min: -2000, max: 2000, noNaN: true }) });
    const closes = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => 1 + Math.sin(i));
    fc.assert(
      fc.property(fc.array(pt, { minLength: 3, maxLength: 3 }), (pts) => {
        for (const t of TOOLS) {
          for (const s of t.geometry(input(pts, { closes, yOf: (p) => 400 - p * 100, text: 'Note' }))) {
            const xs = s.kind === 'circle' ? [s.center.x, s.center.y, s.r] : s.kind === 'text' || s.kind === 'note' ? [s.at.x, s.at.y] : s.points.flatMap((p) => [p.x, p.y]);
            assert.ok(xs.every(Number.isFinite), `${t.name} ${JSON.stringify(s)}`);
          }
        }
      }),
      { numRuns: 200 },
    );
  });

  it('trendline joins its points; horizontal line, ray, vertical and cross lines span the pane from their point', () => {
    assert.deepEqual(lines(draw('trendLine', [A, B])), [[A, B]]);
    assert.deepEqual(lines(draw('horizontalLine', [A])), [[{ x: 0, y: 300 }, { x: W, y: 300 }]]);
    assert.deepEqual(texts(draw('horizontalLine', [A])), ['1.10000']);
    assert.deepEqual(lines(draw('horizontalRay', [A])), [[A, { x: W, y: 300 }]]);
    assert.deepEqual(lines(draw('verticalLine', [A])), [[{ x: 100, y: 0 }, { x: 100, y: H }]]);
    assert.deepEqual(lines(draw('crossLine', [A])), [[{ x: 0, y: 300 }, { x: W, y: 300 }], [{ x: 100, y: 0 }, { x: 100, y: H }]]);
  });

  it('ray runs from the first point through the second to the edge; the extended line crosses the whole pane', () => {
    // Slope −0.5: from (100,300) to x=800 falls 350 px.
    assert.deepEqual(lines(draw('ray', [A, B])), [[A, { x: W, y: -50 }]]);
    assert.deepEqual(lines(draw('ray', [B, A])), [[B, { x: 0, y: 350 }]]);
    assert.deepEqual(lines(draw('extendedLine', [A, B])), [[{ x: 0, y: 350 }, { x: W, y: -50 }]]);
    assert.deepEqual(extend({ x: 5, y: 10 }, { x: 5, y: 50 }, W, H, 'a'), [{ x: 5, y: 10 }, { x: 5, y: H }]);
  });

  it('info line tells the price change with its percent, the bars and the time between its points', () => {
    const a = { value: 1.1, timestamp: 0, dataIndex: 10 };
    assert.equal(infoText(a, { value: 1.1011, timestamp: 26 * 3_600_000, dataIndex: 36 }, 5), '+0.00110 (+0.10%) · 26 bars · 1d 2h');
    assert.equal(infoText(a, { value: 1.089, timestamp: 45 * 60_000, dataIndex: 11 }, 5), '−0.01100 (−1.00%) · 1 bar · 45m');
    assert.deepEqual(texts(draw('infoLine', [A, B])), ['+0.01000 (+0.91%) · 1 bar · 1h']);
    assert.equal(span(150 * 60_000), '2h 30m');
  });

  it('finds a time’s candle index, and counts bars past the last candle', () => {
    const candles = [0, 60, 120, 180].map((timestamp) => ({ timestamp }));
    assert.equal(indexOfTime(candles, 0), 0);
    assert.equal(indexOfTime(candles, 119), 1);
    assert.equal(indexOfTime(candles, 120), 2);
    assert.equal(indexOfTime(candles, 180 + 600), 13);
    assert.equal(indexOfTime(candles, -5), 0);
    assert.equal(indexOfTime([], 50), 0);
  });

  it('arrowed line ends in a head at its second point pointing along the line', () => {
    const head = arrowHead({ x: 0, y: 0 }, { x: 100, y: 0 }, 10);
    assert.equal(head.kind, 'polygon');
    const [tip, l, r] = (head as { points: Pt[] }).points;
    assert.deepEqual(tip, { x: 100, y: 0 });
    near(l!.x, 100 - 10 * Math.cos(Math.PI / 6));
    near(l!.y, -r!.y);
    assert.equal(polygons(draw('arrowedLine', [A, B])).length, 1);
  });

  it('trend by angle shows the line’s angle on screen, rising lines positive', () => {
    near(screenAngle({ x: 0, y: 100 }, { x: 100, y: 0 }), 45);
    near(screenAngle({ x: 0, y: 0 }, { x: 100, y: 100 }), -45);
    assert.deepEqual(texts(draw('trendAngle', [{ x: 0, y: 100 }, { x: 100, y: 100 - 100 * Math.tan(Math.PI / 6) }])), ['30.0°']);
  });

  it('disjoint channel mirrors the first line’s slope from the third point; flat top/bottom adds a level there', () => {
    const d = lines(draw('disjointChannel', [A, B, C]));
    assert.deepEqual(d[1], [{ x: 100, y: 350 }, { x: 300, y: 450 }]);
    const f = lines(draw('flatTopBottom', [A, B, C]));
    assert.deepEqual(f[1], [{ x: 100, y: 350 }, { x: 300, y: 350 }]);
    assert.equal(polygons(draw('flatTopBottom', [A, B, C])).length, 1);
  });

  it('equidistant channel draws the parallel through the third point and the middle line', () => {
    const [base, parallel, middle] = lines(draw('equidistantChannel', [A, B, C]));
    assert.deepEqual(base, [A, B]);
    // The base line at x=200 is at y=250; the third point is 100 px below it.
    assert.deepEqual(parallel, [{ x: 100, y: 400 }, { x: 300, y: 300 }]);
    assert.deepEqual(middle, [{ x: 100, y: 350 }, { x: 300, y: 250 }]);
  });

  it('pitchfork’s median line runs from the handle through the middle of points 2 and 3, the tines parallel to it', () => {
    const [median, t1, t2] = lines(draw('pitchfork', [{ x: 100, y: 200 }, { x: 200, y: 100 }, { x: 200, y: 300 }]));
    assert.deepEqual(median, [{ x: 100, y: 200 }, { x: W, y: 200 }]);
    assert.deepEqual(t1, [{ x: 200, y: 100 }, { x: W, y: 100 }]);
    assert.deepEqual(t2, [{ x: 200, y: 300 }, { x: W, y: 300 }]);
  });

  it('regression channel fits the closes between its points, its band through the farthest close; the deviation channel’s is two standard deviations', () => {
    const closes = [1, 2, 3, 10, 5];
    const fit = linearRegression(closes);
    near(fit.slope, 1.6);
    near(fit.intercept, 1);
    const r = residuals(closes, fit);
    // Residuals 0, −0.6, −1.2, 4.2, −2.4.
    near(r.maxDistance, 4.2);
    near(r.stdDev, Math.sqrt(25.2 / 5));
    // Price p is drawn at y = 1000 − 100·p; the points sit on candles 10 and 14 at x 100 and 500.
    const yOf = (p: number) => 1000 - 100 * p;
    const from = (a: number, b: number) => { assert.deepEqual([a, b], [10, 14]); return closes; };
    const anchors = [{ value: 1, timestamp: 0, dataIndex: 10 }, { value: 5, timestamp: 1, dataIndex: 14 }];
    const at = (x: number, offset: number) => yOf(1 + 1.6 * x + offset);
    const regression = lines(draw('regressionChannel', [{ x: 100, y: 0 }, { x: 500, y: 0 }], { anchors, closes: from, yOf }));
    assert.deepEqual(regression[1], [{ x: 100, y: at(0, 0) }, { x: 500, y: at(4, 0) }]);
    near(regression[0]![0]!.y, at(0, 4.2));
    near(regression[2]![1]!.y, at(4, -4.2));
    const deviation = lines(draw('stdDevChannel', [{ x: 100, y: 0 }, { x: 500, y: 0 }], { anchors, closes: from, yOf }));
    near(deviation[0]![0]!.y, at(0, 2 * Math.sqrt(5.04)));
    assert.equal(polygons(draw('regressionChannel', [{ x: 100, y: 0 }, { x: 500, y: 0 }], { anchors, closes: from, yOf })).length, 1);
  });

  it('Gann fan draws its nine angles from the first point, the 1×1 through the second', () => {
    const fan = draw('gannFan', [{ x: 100, y: 300 }, { x: 200, y: 200 }]);
    assert.deepEqual(texts(fan), GANN_RATIOS.map((r) => r.label));
    const oneByOne = lines(fan)[4]!;
    assert.deepEqual(oneByOne, [{ x: 100, y: 300 }, { x: W, y: -400 }]);
    assert.deepEqual(lines(draw('gannLine', [{ x: 100, y: 300 }, { x: 200, y: 200 }])), [[{ x: 100, y: 300 }, { x: W, y: -400 }]]);
  });

  it('Gann grid covers the pane with rising and falling diagonals of its cell, bounded however small the cell', () => {
    const grid = lines(draw('gannGrid', [{ x: 100, y: 200 }, { x: 200, y: 100 }]));
    assert.ok(grid.length >= 2 * Math.floor(W / 100));
    assert.ok(grid.some(([p, q]) => p!.x === 0 && p!.y === 300 && q!.x === W && q!.y === -500));
    assert.ok(lines(draw('gannGrid', [{ x: 0, y: 0 }, { x: 5, y: 5 }])).length <= 2 * GRID_MAX);
  });

  it('Fibonacci retracement: 0% at the end of the move, 100% back at its start, each level labelled with its price', () => {
    // A move up from 1.10000 (A, lower on screen) to 1.20000 (B).
    const anchors = [{ value: 1.1, timestamp: 0, dataIndex: 0 }, { value: 1.2, timestamp: 1, dataIndex: 1 }];
    const shapes = draw('fibRetracement', [A, B], { anchors });
    assert.deepEqual(lines(shapes)[0], [A, B], 'the move, dashed');
    assert.equal((shapes[0] as { dashed?: boolean }).dashed, true);
    const levels = lines(shapes).slice(1);
    assert.equal(levels.length, RETRACEMENT_LEVELS.length);
    RETRACEMENT_LEVELS.forEach((level, i) => {
      near(levels[i]![0]!.y, B.y + (A.y - B.y) * level, `${level} height`);
      assert.deepEqual([levels[i]![0]!.x, levels[i]![1]!.x], [100, 300], 'across the move');
    });
    assert.deepEqual(texts(shapes), ['0% (1.20000)', '23.6% (1.17640)', '38.2% (1.16180)', '50% (1.15000)', '61.8% (1.13820)', '78.6% (1.12140)', '100% (1.10000)']);
    // Two points close in time still give levels long enough for their labels.
    const narrow = lines(draw('fibRetracement', [{ x: 400, y: 100 }, { x: 404, y: 200 }], { anchors })).slice(1);
    assert.ok(narrow.every(([a, b]) => b!.x - a!.x >= 80));
  });

  it('Fibonacci extension projects the first leg from the third point at 0, 38.2, 61.8, 100, 161.8, 261.8 and 423.6%', () => {
    assert.deepEqual(EXTENSION_LEVELS, [0, 0.382, 0.618, 1, 1.618, 2.618, 4.236]);
    const anchors = [{ value: 1.1, timestamp: 0, dataIndex: 0 }, { value: 1.2, timestamp: 1, dataIndex: 1 }, { value: 1.15, timestamp: 2, dataIndex: 2 }];
    const a = { x: 100, y: 300 };
    const b = { x: 200, y: 200 };
    const c = { x: 260, y: 250 };
    assert.deepEqual(lines(draw('fibExtension', [a, b], { anchors })), [[a, b]], 'the first leg until the third point');
    const shapes = draw('fibExtension', [a, b, c], { anchors });
    const levels = lines(shapes).slice(2);
    EXTENSION_LEVELS.forEach((level, i) => near(levels[i]![0]!.y, c.y - 100 * level, `${level} height`));
    assert.deepEqual([levels[0]![0]!.x, levels[0]![1]!.x], [200, 360], 'from the pull-back on, as far right of it as the first leg is long');
    assert.deepEqual(texts(shapes).slice(0, 4), ['0% (1.15000)', '38.2% (1.18820)', '61.8% (1.21180)', '100% (1.25000)']);
    assert.equal(texts(shapes)[4], '161.8% (1.31180)');
    assert.equal(levelText(2.618, 1.41180, 5), '261.8% (1.41180)');
  });

  it('a text note is its text at its point, a line per line break; no text draws nothing', () => {
    assert.deepEqual(draw('textNote', [A], { text: 'Support\nheld twice' }), [{ kind: 'note', at: A, lines: ['Support', 'held twice'] }]);
    assert.deepEqual(draw('textNote', [A], { text: '<img src=x onerror=alert(1)>' }), [{ kind: 'note', at: A, lines: ['<img src=x onerror=alert(1)>'] }], 'markup is text like any other');
    assert.deepEqual(draw('textNote', [A]), []);
  });

  it('shapes: rectangle from two corners, circle from centre and edge, triangle through three points, ellipse inside its box', () => {
    assert.deepEqual(polygons(draw('rectangle', [A, B])), [[A, { x: 300, y: 300 }, B, { x: 100, y: 200 }]]);
    assert.deepEqual(draw('circle', [{ x: 0, y: 0 }, { x: 3, y: 4 }]), [{ kind: 'circle', center: { x: 0, y: 0 }, r: 5 }]);
    assert.deepEqual(polygons(draw('triangle', [A, B, C])), [[A, B, C]]);
    const e = ellipsePoints({ x: 0, y: 0 }, { x: 200, y: 100 });
    for (const p of e) near(((p.x - 100) / 100) ** 2 + ((p.y - 50) / 50) ** 2, 1);
    assert.deepEqual(e[0], { x: 200, y: 50 });
  });
});

describe('chart layout schema', () => {
  const drawing = { tool: 'trendLine', points: [{ timestamp: 1, value: 1.1 }, { timestamp: 2, value: 1.2 }], color: '#1c7ed6', width: 2 };
  it('accepts every tool and the indicators with their settings', () => {
    for (const tool of CHART_TOOLS) assert.ok(chartLayout.safeParse({ drawings: [{ ...drawing, tool, ...(tool === 'textNote' ? { text: 'A note' } : {}) }], indicators: [] }).success, tool);
    assert.ok(chartLayout.safeParse({ drawings: [], indicators: [{ name: 'BOLL', params: [20, 2], source: 'close', colors: ['#1c7ed6', '#e8590c', '#2f9e44'] }] }).success);
  });
  it('refuses unknown tools, non-finite or missing points, bad colours and widths, extra keys and too many drawings', () => {
    const bad = (d: object) => assert.equal(chartLayout.safeParse({ drawings: [{ ...drawing, ...d }], indicators: [] }).success, false, JSON.stringify(d));
    bad({ tool: 'fibonacci' });
    bad({ points: [{ timestamp: 1, value: Number.NaN }] });
    bad({ points: [{ timestamp: 1, value: Number.POSITIVE_INFINITY }] });
    bad({ points: [{ timestamp: 1.5, value: 1 }] });
    bad({ points: [] });
    bad({ color: 'rgb(0,0,0)' });
    bad({ width: 0 });
    bad({ onclick: 'x' });
    assert.equal(chartLayout.safeParse({ drawings: Array(101).fill(drawing), indicators: [] }).success, false);
  });
  it('keeps a line style and a lock, and a note’s text within its limits; refuses text on other tools and notes without it', () => {
    const ok = (d: object) => assert.equal(chartLayout.safeParse({ drawings: [{ ...drawing, ...d }], indicators: [] }).success, true, JSON.stringify(d));
    const bad = (d: object) => assert.equal(chartLayout.safeParse({ drawings: [{ ...drawing, ...d }], indicators: [] }).success, false, JSON.stringify(d));
    ok({ lineStyle: 'dotted', locked: true });
    ok({ tool: 'textNote', points: [{ timestamp: 1, value: 1 }], text: 'x'.repeat(MAX_NOTE_LENGTH) });
    ok({ tool: 'textNote', points: [{ timestamp: 1, value: 1 }], text: 'one\ntwo\nthree\nfour\nfive' });
    bad({ lineStyle: 'wavy' });
    bad({ locked: 'yes' });
    bad({ text: 'not a note' });
    bad({ tool: 'textNote' });
    bad({ tool: 'textNote', text: '   ' });
    bad({ tool: 'textNote', text: 'x'.repeat(MAX_NOTE_LENGTH + 1) });
    bad({ tool: 'textNote', text: 'one\ntwo\nthree\nfour\nfive\nsix' });
    bad({ tool: 'textNote', text: 'bell\u0007' });
    const note = { ...drawing, tool: 'textNote', text: 'n' };
    assert.equal(chartLayout.safeParse({ drawings: Array(MAX_CHART_NOTES).fill(note), indicators: [] }).success, true);
    assert.equal(chartLayout.safeParse({ drawings: Array(MAX_CHART_NOTES + 1).fill(note), indicators: [] }).success, false);
  });
});
