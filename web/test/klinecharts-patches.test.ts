import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyPatch, installedKLineChart, kLineChartPatches, publishedKLineChart } from '../e2e/support/klinecharts-patches';

/** The installed (patched) ES build as a script: the module's code without its export line, run. */
const runs = (code: string) => () => new Function(code.replace(/export \{[^}]*\};?\s*$/, '').replace(/process\.env\.NODE_ENV/g, '"production"'));

/** The code between two markers of a build (both must be there), to try a function of it alone. */
function slice(code: string, from: string, to: string): string {
  const start = code.indexOf(from);
  const end = code.indexOf(to, start);
  assert.ok(start >= 0 && end > start, `${from} … ${to} not found`);
  return code.slice(start, end);
}

describe('KLineChart as installed: the repo’s patches (patches/) applied by patch-package', () => {
  it('is the published build with exactly the patch files applied, in order', () => {
    const patches = kLineChartPatches();
    assert.deepEqual(
      patches.map((p) => p.name),
      ['lean-frames', 'unchanged-layers'],
    );
    const installed = installedKLineChart();
    const published = publishedKLineChart();
    assert.notEqual(published, installed);
    // What the patches add is in the installed build and not in the published one.
    for (const added of ['function CandleBarTargets(view)', 'function keptLayerUnchanged(widget, kind, resized)', '_this._drawingsCanvas = new Canvas(']) {
      assert.equal(installed.split(added).length - 1, 1, added);
      assert.ok(!published.includes(added), added);
    }
    assert.equal(patches.reduce((code, p) => applyPatch(code, p.text), published), installed);
    // Both run as a module: the patched code parses and defines what it uses.
    assert.doesNotThrow(runs(installed));
    assert.doesNotThrow(runs(published));
  });

  it('refuses a patch whose lines are not in the file, naming the line', () => {
    const [first] = kLineChartPatches();
    assert.throws(() => applyPatch(installedKLineChart(), first!.text), /a hunk of a KLineChart patch \(line \d+\) is not in the file/);
    assert.throws(() => applyPatch('function other() {}\n', first!.text, true), /is not in the file/);
  });

  it('keeps whether a colour is transparent as KLineChart decides it', () => {
    const isTransparent = new Function(`${slice(installedKLineChart(), 'var keptTransparent = new Map();', 'function hexToRgb(')}; return isTransparent;`)() as (c: unknown) => boolean;
    for (const [color, transparent] of [['transparent', true], ['none', true], ['rgba(1, 2, 3, 0)', true], ['hsla(10, 20%, 30%, 0)', true], ['rgba(1, 2, 3, 0.5)', false], ['#0a7d4f', false], ['#0a7d4f', false]] as const) {
      assert.equal(isTransparent(color), transparent, color);
    }
    assert.equal(isTransparent(undefined), false);
  });

  it('formats numbers exactly as KLineChart’s own formatters do', () => {
    const formatters = (code: string) =>
      new Function(`function isValid(v) { return v !== null && v !== undefined; }\n${slice(code, 'function formatThousands(', 'function formatTemplateString(')}; return { formatThousands: formatThousands, formatFoldDecimal: formatFoldDecimal };`)() as {
        formatThousands(v: unknown, s: string): string;
        formatFoldDecimal(v: unknown, t: number): string;
      };
    const theirs = formatters(publishedKLineChart());
    const ours = formatters(installedKLineChart());
    const values: unknown[] = ['1.08512', '108512', '-1234.5', '-123.45', '999', '1000', '12.3.4', '1234.5.6', '', '0.0000012', '1.000000045', 1e21, -0.5, 12345678.9, '1,234', 'abc', 1.0851, 0];
    for (const v of values) {
      for (const sign of ['', ',', ' ']) assert.equal(ours.formatThousands(v, sign), theirs.formatThousands(v, sign), `formatThousands(${String(v)}, '${sign}')`);
      for (const threshold of [2, 3, 5]) assert.equal(ours.formatFoldDecimal(v, threshold), theirs.formatFoldDecimal(v, threshold), `formatFoldDecimal(${String(v)}, ${threshold})`);
    }
  });

  it('gathers the candles’ rectangles by part and colour as drawRect would draw them', () => {
    const KeptRectBatch = new Function('isTransparent', `${slice(installedKLineChart(), 'function KeptRectBatch() {', 'function keptSameValues(')}; return KeptRectBatch;`)((c: string) => c === 'transparent' || c === 'rgba(0, 0, 0, 0)') as new () => {
      add(slot: number, attrs: unknown, styles: unknown): void;
      flush(ctx: unknown): void;
    };
    const calls: string[] = [];
    const ctx = new Proxy({} as Record<string, unknown>, {
      get: (_, key: string) => (key === 'roundRect' ? (...a: number[]) => calls.push(`roundRect ${a.join(',')}`) : key === 'rect' ? undefined : (...a: unknown[]) => calls.push(`${key} ${a.map((x) => JSON.stringify(x)).join(',')}`)),
      set: (_, key: string, value) => (calls.push(`${key}=${value}`), true),
    });
    const batch = new KeptRectBatch();
    // Two solid candles: a wick (slot 0) and a body filled and bordered (slot 1); a body too thin for a border.
    batch.add(0, { x: 10, y: 5, width: 1, height: 20 }, { color: '#0a7d4f' });
    batch.add(1, { x: 7, y: 8, width: 7, height: 10 }, { style: 'stroke_fill', color: '#0a7d4f', borderColor: '#0a7d4f' });
    batch.add(0, { x: 20, y: 6, width: 1, height: 18 }, { color: '#c92a2a' });
    batch.add(1, { x: 17, y: 9, width: 7, height: 2 }, { style: 'stroke_fill', color: '#c92a2a', borderColor: '#c92a2a' });
    batch.add(0, { x: 30, y: 6, width: 1, height: 18 }, { color: 'transparent' });
    batch.flush(ctx);
    assert.deepEqual(calls, [
      'fillStyle=#0a7d4f', 'beginPath ', 'roundRect 10,5,1,20,0', 'fill ',
      'fillStyle=#c92a2a', 'beginPath ', 'roundRect 20,6,1,18,0', 'fill ',
      'fillStyle=#0a7d4f', 'beginPath ', 'roundRect 7,8,7,10,0', 'fill ',
      'fillStyle=#c92a2a', 'beginPath ', 'roundRect 17,9,7,2,0', 'fill ',
      'strokeStyle=#0a7d4f', 'fillStyle=#0a7d4f', 'lineWidth=1', 'setLineDash []', 'beginPath ', 'roundRect 7.5,8.5,6,9,0', 'stroke ',
    ]);
  });
});
