/**
 * Our indicator folds (src/chart/indicator-folds.ts) stand in for KLineChart's own formulas, so
 * that a tick recomputes only the forming candle, and our drawing (src/chart/indicator-draw.ts)
 * for its figure per candle. This checks in Chromium, against KLineChart's browser build, that the
 * folds give exactly its figures for every indicator we offer (default and odd settings), and that
 * our drawing paints exactly its pixels.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import type { ChartIndicatorName } from '@tradeport/contracts';
import type { KLineData } from 'klinecharts';
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { resumable } from '../src/chart/indicator-folds';
import { foldOf } from '../src/chart/more-indicator-folds';

const KLINECHARTS_UMD = join(dirname(createRequire(import.meta.url).resolve('klinecharts')), 'umd', 'klinecharts.js');

/** Our fast indicator drawing as a page script (it imports only types): `window.drawIndicatorFast`. */
function drawScript(): string {
  const source = readFileSync(new URL('../src/chart/indicator-draw.ts', import.meta.url), 'utf8');
  const js = ts.transpileModule(source, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } }).outputText;
  return `(() => { ${js.replace(/^export /gm, '').replace(/^import .*$/gm, '')}; window.drawIndicatorFast = drawIndicatorFast; })();`;
}

/** 400 hourly candles of a random walk (seeded, so a failure repeats). */
function walk(): KLineData[] {
  let seed = 17;
  const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
  let close = 1.0850;
  return Array.from({ length: 400 }, (_, i) => {
    const open = close;
    close = Number((close + (random() - 0.5) * 0.004).toFixed(5));
    return { timestamp: Date.UTC(2026, 0, 5) + i * 3_600_000, open, high: Math.max(open, close) + 0.0007, low: Math.min(open, close) - 0.0006, close, volume: Math.round(500 + random() * 2000) };
  });
}

const CASES: Array<{ name: ChartIndicatorName; params: number[] }> = [
  { name: 'MA', params: [20] },
  { name: 'MA', params: [1] },
  { name: 'EMA', params: [50] },
  { name: 'EMA', params: [3] },
  { name: 'BOLL', params: [20, 2] },
  { name: 'BOLL', params: [7, 0.5] },
  { name: 'RSI', params: [14] },
  { name: 'RSI', params: [2] },
  { name: 'MACD', params: [12, 26, 9] },
  { name: 'MACD', params: [30, 5, 4] },
  { name: 'VOL', params: [20] },
  { name: 'SMA', params: [12, 2] },
  { name: 'SMA', params: [5, 5] },
  { name: 'SAR', params: [2, 2, 20] },
  { name: 'SAR', params: [0.5, 1.5, 10] },
  { name: 'BBI', params: [3, 6, 12, 24] },
  { name: 'BBI', params: [1, 50, 2, 7] },
  { name: 'KDJ', params: [9, 3, 3] },
  { name: 'KDJ', params: [1, 1, 1] },
  { name: 'KDJ', params: [30, 5, 8] },
  { name: 'CCI', params: [20] },
  { name: 'CCI', params: [1] },
  { name: 'DMI', params: [14, 6] },
  { name: 'DMI', params: [1, 2] },
  { name: 'DMI', params: [30, 20] },
  { name: 'WR', params: [14] },
  { name: 'WR', params: [1] },
  { name: 'AO', params: [5, 34] },
  { name: 'AO', params: [34, 5] },
  { name: 'MTM', params: [12, 6] },
  { name: 'MTM', params: [1, 2] },
  { name: 'ROC', params: [12, 6] },
  { name: 'ROC', params: [1, 40] },
  { name: 'TRIX', params: [12, 9] },
  { name: 'TRIX', params: [1, 2] },
  { name: 'TRIX', params: [20, 30] },
  { name: 'BIAS', params: [12] },
  { name: 'BIAS', params: [1] },
  { name: 'DMA', params: [10, 50, 10] },
  { name: 'DMA', params: [50, 3, 2] },
  { name: 'OBV', params: [30] },
  { name: 'OBV', params: [2] },
  { name: 'PVT', params: [] },
  { name: 'VR', params: [26, 6] },
  { name: 'VR', params: [1, 2] },
  { name: 'BRAR', params: [26] },
  { name: 'BRAR', params: [1] },
  { name: 'PSY', params: [12, 6] },
  { name: 'PSY', params: [1, 2] },
];

let browser: Browser;
before(async () => {
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});
after(async () => {
  await browser?.close();
});

describe('indicator folds against KLineChart', () => {
  it('give exactly KLineChart’s own figures for every indicator we offer, default and odd settings', async () => {
    const candles = walk();
    const page = await browser.newPage();
    await page.setContent('<div id="chart" style="width: 900px; height: 600px"></div>');
    await page.addScriptTag({ path: KLINECHARTS_UMD });
    // As source text: the test runner's transpiler would wrap a function's inner helpers in names
    // the page does not have.
    const theirs = (await page.evaluate(`(async ({ candles, cases }) => {
      const k = window.klinecharts;
      const chart = k.init('chart');
      chart.setDataLoader({ getBars: ({ callback }) => callback(candles, false) });
      chart.setSymbol({ ticker: 'EURUSD', pricePrecision: 5, volumePrecision: 0 });
      chart.setPeriod({ type: 'hour', span: 1 });
      await new Promise((r) => setTimeout(r, 200));
      const results = [];
      for (const c of cases) {
        const id = chart.createIndicator({ name: c.name, calcParams: c.params }, false);
        await new Promise((r) => setTimeout(r, 50));
        const indicator = chart.getIndicators({ id })[0];
        results.push({ keys: indicator.figures.map((f) => f.key), values: indicator.result });
        chart.removeIndicator({ id });
      }
      return results;
    })(${JSON.stringify({ candles, cases: CASES })})`)) as Array<{ keys: string[]; values: unknown[] }>;
    await page.close();
    CASES.forEach((c, n) => {
      const { keys, values } = theirs[n]!;
      assert.equal(values.length, candles.length, `${c.name} ${c.params}: KLineChart computed it`);
      const ours = resumable(foldOf(c.name, c.params, 'close', keys))(candles);
      assert.deepEqual(JSON.parse(JSON.stringify(ours)), values, `${c.name} ${c.params}`);
    });
  });

  it('drawn a line or a look of bars at a time, paint the same pixels as KLineChart’s figure per candle', async () => {
    const candles = walk();
    const page = await browser.newPage({ viewport: { width: 1000, height: 1400 } });
    await page.setContent('<div id="theirs" style="width: 900px; height: 640px"></div><div id="ours" style="width: 900px; height: 640px"></div>');
    await page.addScriptTag({ path: KLINECHARTS_UMD });
    await page.addScriptTag({ content: drawScript() });
    const differences = (await page.evaluate(`(async ({ candles }) => {
      const k = window.klinecharts;
      const make = (id, fast) => {
        const chart = k.init(id);
        chart.setDataLoader({ getBars: ({ callback }) => callback(candles, false) });
        chart.setSymbol({ ticker: 'EURUSD', pricePrecision: 5, volumePrecision: 0 });
        chart.setPeriod({ type: 'hour', span: 1 });
        const add = (name, params, pane, colors) => {
          const ind = chart.createIndicator({ name, calcParams: params, styles: colors ? { lines: colors.map((color) => ({ color, size: 1.5 })) } : undefined, ...(pane ? { paneId: pane } : {}) }, !!pane);
          if (fast) chart.overrideIndicator({ id: ind, draw: window.drawIndicatorFast });
        };
        add('MA', [20], 'candle_pane', ['#f08c00']);
        add('BOLL', [20, 2], 'candle_pane', ['#7048e8', '#868e96', '#7048e8']);
        add('RSI', [14], null, ['#ae3ec9']);
        add('MACD', [12, 26, 9], null, ['#1c7ed6', '#f08c00']);
        add('VOL', [20], null, ['#f08c00']);
        add('AO', [5, 34], null, null);
        add('KDJ', [9, 3, 3], null, ['#1c7ed6', '#f08c00', '#ae3ec9']);
        return chart;
      };
      make('theirs', false);
      make('ours', true);
      await new Promise((r) => setTimeout(r, 600));
      // Each pane's main canvas (candles, indicators, grid), the same size in both charts.
      const canvases = (id) => [...document.querySelectorAll('#' + id + ' canvas')];
      const a = canvases('theirs');
      const b = canvases('ours');
      if (a.length !== b.length || a.length === 0) return [{ canvas: -1, pixels: a.length - b.length }];
      return a.map((ca, n) => {
        const cb = b[n];
        if (ca.width !== cb.width || ca.height !== cb.height || ca.width === 0) return { canvas: n, pixels: -1 };
        const da = ca.getContext('2d').getImageData(0, 0, ca.width, ca.height).data;
        const db = cb.getContext('2d').getImageData(0, 0, cb.width, cb.height).data;
        let pixels = 0;
        for (let i = 0; i < da.length; i += 4) if (Math.abs(da[i] - db[i]) + Math.abs(da[i + 1] - db[i + 1]) + Math.abs(da[i + 2] - db[i + 2]) + Math.abs(da[i + 3] - db[i + 3]) > 8) pixels++;
        return { canvas: n, pixels };
      });
    })(${JSON.stringify({ candles })})`)) as Array<{ canvas: number; pixels: number }>;
    await page.close();
    assert.ok(differences.length > 8, `every pane's canvases compared (${differences.length})`);
    assert.deepEqual(differences.filter((d) => d.pixels !== 0), [], 'pixels that differ, by canvas');
  });
});
