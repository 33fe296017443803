import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { leanFrames } from '../build/klinecharts-lean-frames';
import { keepTextWidths } from '../build/klinecharts-text-widths';
import { keepUnchangedLayers } from '../build/klinecharts-unchanged-layers';

const ES_BUILD = join(dirname(createRequire(import.meta.url).resolve('klinecharts')), 'index.esm.js');
const lean = () => leanFrames(keepTextWidths(readFileSync(ES_BUILD, 'utf8')));

describe('KLineChart’s unchanged layers kept by the build', () => {
  it('finds every patched piece once in the installed KLineChart, after the other two steps (an upgrade that moves one fails here and in the build)', () => {
    const patched = keepUnchangedLayers(lean());
    assert.equal(patched.split('_this._drawingsCanvas = new Canvas(').length - 1, 1);
    assert.equal(patched.split("tpLayerUnchanged(_this, 'drawings', resized)").length - 1, 1);
    assert.equal(patched.split("tpLayerUnchanged(_this, 'timeAxis', resized)").length - 1, 1);
    assert.equal(patched.split('tpClosedCandles(this, ctx, chartStore, yAxis_1, type_1)').length - 1, 1);
    assert.equal(patched.split('batch_1.add(slot, rect.attrs, rect.styles)').length - 1, 1);
    // The overlay canvas no longer draws the drawings (their own canvas does).
    assert.doesNotMatch(patched, /IndicatorWidget\.prototype\.updateOverlay = function \(ctx\) \{\s*this\._overlayView\.draw\(ctx\);/);
    // Runs as a module: the patched code parses and defines what it uses.
    assert.doesNotThrow(() => new Function(patched.replace(/export \{[^}]*\};?\s*$/, '').replace(/process\.env\.NODE_ENV/g, '"production"')));
  });

  it('fails, naming the piece, on a KLineChart whose code moved or without the lean frames before it', () => {
    const code = readFileSync(ES_BUILD, 'utf8');
    assert.throws(() => keepUnchangedLayers(code), /is not where the build expects it/);
    assert.throws(() => keepUnchangedLayers(lean().replace('_this._overlayView = new OverlayView(_this);', '_this._overlayView = new OverlayView(_this, 1);')), /IndicatorWidget's construction/);
  });

  it('gathers the candles’ rectangles by part and colour as drawRect would draw them', () => {
    const patched = keepUnchangedLayers(lean());
    const start = patched.indexOf('function TpRectBatch() {');
    const end = patched.indexOf('function tpSameValues(');
    const TpRectBatch = new Function('isTransparent', `${patched.slice(start, end)}; return TpRectBatch;`)((c: string) => c === 'transparent' || c === 'rgba(0, 0, 0, 0)') as new () => { add(slot: number, attrs: unknown, styles: unknown): void; flush(ctx: unknown): void };
    const calls: string[] = [];
    const ctx = new Proxy({} as Record<string, unknown>, {
      get: (_, key: string) => (key === 'roundRect' ? (...a: number[]) => calls.push(`roundRect ${a.join(',')}`) : key === 'rect' ? undefined : (...a: unknown[]) => calls.push(`${key} ${a.map((x) => JSON.stringify(x)).join(',')}`)),
      set: (_, key: string, value) => (calls.push(`${key}=${value}`), true),
    });
    const batch = new TpRectBatch();
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
