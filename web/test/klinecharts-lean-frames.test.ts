import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { leanFrames } from '../build/klinecharts-lean-frames';
import { keepTextWidths } from '../build/klinecharts-text-widths';

const ES_BUILD = join(dirname(createRequire(import.meta.url).resolve('klinecharts')), 'index.esm.js');

describe('KLineChart’s candle bars made lean by the build', () => {
  it('finds every patched piece once in the installed KLineChart, next to the text-width step (an upgrade that moves one fails here and in the build)', () => {
    const code = keepTextWidths(readFileSync(ES_BUILD, 'utf8'));
    const patched = leanFrames(code);
    assert.equal(patched.split('function isTransparentColor(').length - 1, 1);
    assert.equal(patched.split('drawRect(ctx, rect.attrs, rect.styles);').length - 1, 1);
    assert.equal(patched.split('new CandleBarTargets(this)').length - 1, 1);
    // Runs as a module: the patched code parses and defines what it uses.
    assert.doesNotThrow(() => new Function(patched.replace(/export \{[^}]*\};?\s*$/, '').replace(/process\.env\.NODE_ENV/g, '"production"')));
  });

  it('fails, naming the piece, on a KLineChart whose code moved', () => {
    assert.throws(() => leanFrames('function other() {}'), /isTransparent is not where the build expects it/);
    const code = readFileSync(ES_BUILD, 'utf8');
    assert.throws(() => leanFrames(code.replace("mouseClickEvent: _this._boundCandleBarClickEvent(visibleData)", 'mouseClickEvent: null')), /candle bars' rectangles is not where/);
  });

  it('keeps whether a colour is transparent as KLineChart decides it', () => {
    const code = leanFrames(readFileSync(ES_BUILD, 'utf8'));
    const start = code.indexOf('var keptTransparent = new Map();');
    const end = code.indexOf('function hexToRgb(');
    const isTransparent = new Function(`${code.slice(start, end)}; return isTransparent;`)() as (c: unknown) => boolean;
    for (const [color, transparent] of [['transparent', true], ['none', true], ['rgba(1, 2, 3, 0)', true], ['hsla(10, 20%, 30%, 0)', true], ['rgba(1, 2, 3, 0.5)', false], ['#0a7d4f', false], ['#0a7d4f', false]] as const) {
      assert.equal(isTransparent(color), transparent, color);
    }
    assert.equal(isTransparent(undefined), false);
  });

  it('formats numbers exactly as KLineChart’s own formatters do', () => {
    const original = readFileSync(ES_BUILD, 'utf8');
    const formatters = (code: string) => {
      const start = code.indexOf('function formatThousands(');
      const end = code.indexOf('function formatTemplateString(');
      return new Function(`function isValid(v) { return v !== null && v !== undefined; }\n${code.slice(start, end)}; return { formatThousands: formatThousands, formatFoldDecimal: formatFoldDecimal };`)() as { formatThousands(v: unknown, s: string): string; formatFoldDecimal(v: unknown, t: number): string };
    };
    const theirs = formatters(original);
    const ours = formatters(leanFrames(original));
    const values: unknown[] = ['1.08512', '108512', '-1234.5', '-123.45', '999', '1000', '12.3.4', '1234.5.6', '', '0.0000012', '1.000000045', 1e21, -0.5, 12345678.9, '1,234', 'abc', 1.0851, 0];
    for (const v of values) {
      for (const sign of ['', ',', ' ']) assert.equal(ours.formatThousands(v, sign), theirs.formatThousands(v, sign), `formatThousands(${String(v)}, '${sign}')`);
      for (const threshold of [2, 3, 5]) assert.equal(ours.formatFoldDecimal(v, threshold), theirs.formatFoldDecimal(v, threshold), `formatFoldDecimal(${String(v)}, ${threshold})`);
    }
  });
});
