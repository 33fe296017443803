import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { keepTextWidths, MEASURE_FUNCTION } from '../build/klinecharts-text-widths';

const ES_BUILD = join(dirname(createRequire(import.meta.url).resolve('klinecharts')), 'index.esm.js');

describe('KLineChart’s text widths kept by the build', () => {
  it('finds the measuring function once in the installed KLineChart (an upgrade that moves it fails here and in the build)', () => {
    const code = readFileSync(ES_BUILD, 'utf8');
    const patched = keepTextWidths(code);
    assert.equal(patched.split('function calcTextWidth(').length - 1, 1);
    assert.equal(patched.split('function measureTextWidth(').length - 1, 1);
    assert.throws(() => keepTextWidths('function other() {}'), /calcTextWidth is not where the build expects it/);
  });

  it('measures a text in a font once, and again in another font or for another text', () => {
    // KLineChart's function as it stands, around a canvas that counts its measurements.
    const module = keepTextWidths(`
      var measured = 0;
      var measureCtx = { font: '', measureText: function (text) { measured++; return { width: text.length * (this.font.indexOf('bold') === 0 ? 8.4 : 7.2) }; } };
      function createFont(size, weight, family) { return (weight || 'normal') + ' ' + size + 'px ' + family; }
      ${MEASURE_FUNCTION}
        measureCtx.font = createFont(size, weight, family);
        return Math.round(measureCtx.measureText(text).width);
      }
      return { calcTextWidth: calcTextWidth, measured: function () { return measured; } };`);
    const k = new Function(module)() as { calcTextWidth(t: string, s: number, w: string, f: string): number; measured(): number };
    assert.equal(k.calcTextWidth('1.08512', 12, 'normal', 'Inter'), 50);
    assert.equal(k.calcTextWidth('1.08512', 12, 'normal', 'Inter'), 50);
    assert.equal(k.measured(), 1);
    assert.equal(k.calcTextWidth('1.08512', 12, 'bold', 'Inter'), 59);
    assert.equal(k.calcTextWidth('1.0851', 12, 'normal', 'Inter'), 43);
    assert.equal(k.measured(), 3);
  });
});
