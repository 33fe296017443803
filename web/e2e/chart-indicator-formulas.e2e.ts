/**
 * Our indicator folds (src/chart/indicator-folds.ts) stand in for KLineChart's own formulas, so
 * that a tick recomputes only the forming candle. This checks in Chromium that they give exactly
 * KLineChart's figures for the same candles, for every indicator we offer, with default and odd
 * settings: KLineChart's browser build computes them, our folds compute them here.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import type { ChartIndicatorName } from '@tradeport/contracts';
import type { KLineData } from 'klinecharts';
import { foldOf, resumable } from '../src/chart/indicator-folds';

const KLINECHARTS_UMD = join(dirname(createRequire(import.meta.url).resolve('klinecharts')), 'umd', 'klinecharts.js');

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
});
