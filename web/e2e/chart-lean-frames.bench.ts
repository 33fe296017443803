/**
 * KLineChart's redraw per tick with and without a build step, measured in one page so that a busy
 * machine slows both alike: two charts of the same size and contents (700 hourly candles, MA, EMA
 * and Bollinger bands over them, RSI and MACD below, 50 drawings of KLineChart's own kinds). By
 * default the step measured is the kept layers (web/build/klinecharts-unchanged-layers.ts): before
 * is KLineChart with the text-width and lean-frames steps, after adds the kept layers (as the app's
 * build has it). `--step=lean` measures the lean frames instead (before: the text-width step only).
 * Ticks go to one chart at a time, alternating, and the frame callbacks each tick causes are timed
 * (wall time, as the terminal chart's benchmark does).
 *
 * Run: `cd web && node --import tsx e2e/chart-lean-frames.bench.ts` (`--ticks=400`, `--step=lean`). Markdown on stdout.
 */
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { chromium } from 'playwright-core';
import { leanFrames } from '../build/klinecharts-lean-frames';
import { keepTextWidths } from '../build/klinecharts-text-widths';
import { keepUnchangedLayers } from '../build/klinecharts-unchanged-layers';

const ES_BUILD = join(dirname(createRequire(import.meta.url).resolve('klinecharts')), 'index.esm.js');
const ticks = Number(process.argv.find((a) => a.startsWith('--ticks='))?.split('=')[1] ?? 400);
const stepLean = process.argv.includes('--step=lean');

/** KLineChart's ES module as a page script that puts its exports on `window[name]`. */
function pageScript(code: string, name: string): string {
  const body = code.replace(/export \{([^}]*)\};?\s*$/, (_, names: string) => `window.${name} = {${names}};`);
  return `(function () {\n'use strict';\nvar process = { env: { NODE_ENV: 'production' } };\n${body}\n})();`;
}

let seed = 31;
const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
let close = 1.085;
const candles = Array.from({ length: 700 }, (_, i) => {
  const open = close;
  close = Number((close + (random() - 0.5) * 0.003).toFixed(5));
  return { timestamp: Date.UTC(2026, 0, 5) + i * 3_600_000, open, high: Number((Math.max(open, close) + random() * 0.001).toFixed(5)), low: Number((Math.min(open, close) - random() * 0.001).toFixed(5)), close, volume: Math.round(500 + random() * 2000) };
});

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1000, height: 1400 } });
  await page.setContent('<div id="before" style="width: 940px; height: 600px"></div><div id="after" style="width: 940px; height: 600px"></div>');
  const code = readFileSync(ES_BUILD, 'utf8');
  const lean = leanFrames(keepTextWidths(code));
  await page.addScriptTag({ content: pageScript(stepLean ? keepTextWidths(code) : lean, 'kBefore') });
  await page.addScriptTag({ content: pageScript(stepLean ? lean : keepUnchangedLayers(lean), 'kAfter') });
  const result = (await page.evaluate(`(async ({ candles, ticks }) => {
    let spent = 0;
    let timing = false;
    const raf = window.requestAnimationFrame.bind(window);
    window.requestAnimationFrame = (cb) => raf((t) => { const start = performance.now(); cb(t); if (timing) spent += performance.now() - start; });
    const make = (k, id) => {
      const chart = k.init(id, { timezone: 'UTC', locale: 'en-US' });
      const feed = { push: null };
      chart.setDataLoader({ getBars: ({ callback }) => callback(candles, false), subscribeBar: ({ callback }) => { feed.push = callback; } });
      chart.setSymbol({ ticker: 'EURUSD', pricePrecision: 5, volumePrecision: 0 });
      chart.setPeriod({ type: 'hour', span: 1 });
      chart.createIndicator({ name: 'MA', calcParams: [20] }, true, { id: 'candle_pane' });
      chart.createIndicator({ name: 'EMA', calcParams: [50] }, true, { id: 'candle_pane' });
      chart.createIndicator({ name: 'BOLL', calcParams: [20, 2] }, true, { id: 'candle_pane' });
      chart.createIndicator('RSI');
      chart.createIndicator('MACD');
      const kinds = ['segment', 'rayLine', 'straightLine', 'priceLine', 'horizontalStraightLine', 'fibonacciLine', 'parallelStraightLine', 'priceChannelLine', 'simpleAnnotation', 'verticalStraightLine'];
      const t = (i) => candles[candles.length - 1 - i].timestamp;
      chart.createOverlay(Array.from({ length: 50 }, (_, i) => ({ name: kinds[i % kinds.length], extendData: 'note', points: [0, 1, 2].map((n) => ({ timestamp: t(5 + ((i * 3 + n * 7) % 80)), value: 1.07 + ((i * 7 + n * 13) % 20) / 1000 })) })));
      return feed;
    };
    const feeds = { before: make(window.kBefore, 'before'), after: make(window.kAfter, 'after') };
    const frame = () => new Promise((r) => raf(() => r()));
    await new Promise((r) => setTimeout(r, 500));
    const last = candles[candles.length - 1];
    const times = { before: [], after: [] };
    let bid = last.close;
    for (let i = 0; i < ticks; i++) {
      bid = Number((bid + (Math.random() - 0.5) * 0.0004).toFixed(5));
      const order = i % 2 ? ['before', 'after'] : ['after', 'before'];
      for (const which of order) {
        await frame();
        spent = 0;
        timing = true;
        feeds[which].push({ ...last, close: bid, high: Math.max(last.high, bid), low: Math.min(last.low, bid) });
        await new Promise((r) => setTimeout(r, 0));
        await frame();
        await frame();
        timing = false;
        times[which].push(spent);
      }
    }
    return times;
  })(${JSON.stringify({ candles, ticks })})`)) as { before: number[]; after: number[] };
  const percentile = (values: number[], p: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
  };
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  console.log(`Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, Node ${process.version}, headless Chromium; ${ticks} ticks to each chart, alternating.\n`);
  console.log('| KLineChart redraw per tick (frame callbacks, wall) | p50 | p95 | mean |');
  console.log('| --- | ---: | ---: | ---: |');
  for (const which of ['before', 'after'] as const) {
    const t = result[which];
    const label = stepLean ? (which === 'before' ? 'text widths kept (before)' : 'text widths kept + lean frames (after)') : which === 'before' ? 'text widths + lean frames (before)' : 'text widths + lean frames + kept layers (after)';
    console.log(`| ${label} | ${percentile(t, 50).toFixed(2)} ms | ${percentile(t, 95).toFixed(2)} ms | ${mean(t).toFixed(2)} ms |`);
  }
} finally {
  await browser.close();
}
