/**
 * The build draws KLineChart's candles without a figure object per rectangle and keeps whether a
 * colour is transparent (web/build/klinecharts-lean-frames.ts). This checks in Chromium that a
 * chart built from the transformed module paints exactly the pixels of one built from KLineChart's
 * own, every canvas, through what changes a chart (ticks inside and beyond the price range, a new
 * candle, scrolling, bars from 1.5 to 14 px apart, restyling, hollow and OHLC bars, the crosshair,
 * a drawing hovered and selected), that a click on a candle reports the same candle to
 * `onCandleBarClick`, and that a drawing answers the pointer as before.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { KLineData } from 'klinecharts';
import { leanFrames } from '../build/klinecharts-lean-frames';
import { keepTextWidths } from '../build/klinecharts-text-widths';

const ES_BUILD = join(dirname(createRequire(import.meta.url).resolve('klinecharts')), 'index.esm.js');

/** KLineChart's ES module as a page script that puts its exports on `window[name]`. */
function pageScript(code: string, name: string): string {
  const body = code.replace(/export \{([^}]*)\};?\s*$/, (_, names: string) => `window.${name} = {${names}};`);
  if (body === code) throw new Error("KLineChart's exports not found");
  // The ES build reads process.env.NODE_ENV, which a bundler replaces.
  return `(function () {\n'use strict';\nvar process = { env: { NODE_ENV: 'production' } };\n${body}\n})();`;
}

/** 300 hourly candles of a random walk (seeded, so a failure repeats). */
function walk(): KLineData[] {
  let seed = 23;
  const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
  let close = 1.085;
  return Array.from({ length: 300 }, (_, i) => {
    const open = close;
    close = Number((close + (random() - 0.5) * 0.003).toFixed(5));
    return { timestamp: Date.UTC(2026, 0, 5) + i * 3_600_000, open, high: Number((Math.max(open, close) + random() * 0.001).toFixed(5)), low: Number((Math.min(open, close) - random() * 0.001).toFixed(5)), close, volume: Math.round(500 + random() * 2000) };
  });
}

/** Both charts, built alike (the app's colours, an indicator over the candles and one below, drawings). */
const SETUP = `(async ({ candles }) => {
  const make = (k, id) => {
    const chart = k.init(id, { timezone: 'UTC', locale: 'en-US' });
    const feed = { push: null, clicked: [], drawing: [] };
    chart.setDataLoader({ getBars: ({ callback }) => callback(candles, false), subscribeBar: ({ callback }) => { feed.push = callback; } });
    chart.setSymbol({ ticker: 'EURUSD', pricePrecision: 5, volumePrecision: 0 });
    chart.setPeriod({ type: 'hour', span: 1 });
    chart.setStyles({ candle: { bar: { upColor: '#0a7d4f', downColor: '#c92a2a', upBorderColor: '#0a7d4f', downBorderColor: '#c92a2a', upWickColor: '#0a7d4f', downWickColor: '#c92a2a' } } });
    chart.createIndicator({ name: 'MA', calcParams: [20] }, true, { id: 'candle_pane' });
    chart.createIndicator('MACD');
    const t = (i) => candles[candles.length - 1 - i].timestamp;
    chart.createOverlay([
      { name: 'segment', id: 'segment', points: [{ timestamp: t(60), value: 1.08 }, { timestamp: t(20), value: 1.09 }], onClick: () => { feed.drawing.push('click'); }, onSelected: () => { feed.drawing.push('selected'); }, onMouseEnter: () => { feed.drawing.push('enter'); } },
      { name: 'priceLine', points: [{ timestamp: t(40), value: 1.084 }] },
    ]);
    chart.subscribeAction('onCandleBarClick', (data) => feed.clicked.push(data && data.data && data.data.current ? data.data.current.timestamp : JSON.stringify(data)));
    return { chart, feed };
  };
  window.charts = [make(window.kTheirs, 'theirs'), make(window.kOurs, 'ours')];
  window.frames = () => new Promise((r) => setTimeout(() => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 20))), 20));
  window.step = async (fn) => { window.charts.forEach((c) => fn(c.chart, c.feed)); await window.frames(); };
  window.snap = (id) => [...document.querySelectorAll('#' + id + ' canvas')].map((c) => ({ w: c.width, h: c.height, data: c.width && c.height ? c.getContext('2d').getImageData(0, 0, c.width, c.height).data : new Uint8ClampedArray() }));
  window.diff = (a, b) => {
    if (a.length !== b.length || a.length === 0) return [{ canvas: -1, pixels: a.length - b.length }];
    return a.map((x, n) => {
      const y = b[n];
      if (x.w !== y.w || x.h !== y.h) return { canvas: n, pixels: -1 };
      let pixels = 0;
      for (let i = 0; i < x.data.length; i++) if (x.data[i] !== y.data[i]) pixels++;
      return { canvas: n, pixels };
    }).filter((d) => d.pixels !== 0);
  };
  await window.frames();
  await new Promise((r) => setTimeout(r, 300));
})`;

let browser: Browser;
let page: Page;
before(async () => {
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const code = readFileSync(ES_BUILD, 'utf8');
  page = await browser.newPage({ viewport: { width: 1000, height: 1200 } });
  await page.setContent('<div id="theirs" style="width: 900px; height: 520px"></div><div id="ours" style="width: 900px; height: 520px"></div>');
  await page.addScriptTag({ content: pageScript(code, 'kTheirs') });
  // As the app's build has it: both build steps over KLineChart's module.
  await page.addScriptTag({ content: pageScript(leanFrames(keepTextWidths(code)), 'kOurs') });
  await page.evaluate(`${SETUP}(${JSON.stringify({ candles: walk() })})`);
});
after(async () => {
  await browser?.close();
});

/** Canvases whose pixels differ between the two charts (none when the same). */
async function differences(): Promise<Array<{ canvas: number; pixels: number }>> {
  return (await page.evaluate(`window.diff(window.snap('theirs'), window.snap('ours'))`)) as Array<{ canvas: number; pixels: number }>;
}

async function step(what: string, script: string): Promise<void> {
  await page.evaluate(`window.step(${script})`);
  assert.deepEqual(await differences(), [], `${what}: canvases whose pixels differ`);
}

describe('KLineChart’s candles drawn without a figure per rectangle', () => {
  it('paint exactly KLineChart’s own pixels through ticks, new candles, scrolling, zooming and restyling', async () => {
    assert.deepEqual(await differences(), [], 'first paint: canvases whose pixels differ');
    const last = walk().at(-1)!;
    let close = last.close;
    for (let i = 0; i < 6; i++) {
      close = Number((close + (i % 2 ? -0.0003 : 0.0004)).toFixed(5));
      await step(`tick ${i}`, `(chart, feed) => feed.push(${JSON.stringify({ ...last, close, high: Math.max(last.high, close), low: Math.min(last.low, close) })})`);
    }
    const next = { ...last, timestamp: last.timestamp + 3_600_000, open: 1.2, high: 1.201, low: 1.199, close: 1.2005 };
    await step('a tick beyond the price range', `(chart, feed) => feed.push(${JSON.stringify({ ...last, close: 1.2, high: 1.2 })})`);
    await step('a new candle', `(chart, feed) => feed.push(${JSON.stringify(next)})`);
    await step('a tick on it', `(chart, feed) => feed.push(${JSON.stringify({ ...next, low: 1.198, close: 1.1985 })})`);
    await step('scrolled back', `(chart) => chart.scrollByDistance(-180)`);
    await step('a tick while scrolled back', `(chart, feed) => feed.push(${JSON.stringify({ ...next, low: 1.198, close: 1.1995 })})`);
    await step('scrolled to the end', `(chart) => chart.scrollToRealTime()`);
    for (const space of [3, 1.5, 2.3, 7.7, 14]) {
      await step(`bars ${space} px apart`, `(chart) => chart.setBarSpace(${space})`);
      await step(`a tick at ${space} px`, `(chart, feed) => feed.push(${JSON.stringify({ ...next, low: 1.198, close: 1.1992 })})`);
    }
    await step('restyled candles', `(chart) => chart.setStyles({ candle: { bar: { upColor: '#1c7ed6', upBorderColor: '#1c7ed6', upWickColor: '#1c7ed6', noChangeColor: 'rgba(0, 0, 0, 0)' } } })`);
    await step('hollow candles', `(chart) => chart.setStyles({ candle: { type: 'candle_stroke' } })`);
    await step('hollow rising candles', `(chart) => chart.setStyles({ candle: { type: 'candle_up_stroke' } })`);
    await step('OHLC bars', `(chart) => chart.setStyles({ candle: { type: 'ohlc' } })`);
    await step('solid candles', `(chart) => chart.setStyles({ candle: { type: 'candle_solid' } })`);
    await step('the dark styles', `(chart) => chart.setStyles('dark')`);
    await step('resized', `(chart) => { chart.getDom().parentElement.style.width = '700px'; chart.resize(); }`);
  });

  it('paint the same with the crosshair on a candle, and report the same candle when it is clicked', async () => {
    const at = (await page.evaluate(`(() => {
      const chart = window.charts[0].chart;
      const candle = chart.getDataList().at(-12);
      const p = chart.convertToPixel({ timestamp: candle.timestamp, value: (candle.open + candle.close) / 2 }, { paneId: 'candle_pane' });
      const box = (id) => { const r = document.querySelector('#' + id).getBoundingClientRect(); return { x: r.left, y: r.top }; };
      return { x: p.x, y: p.y, timestamp: candle.timestamp, theirs: box('theirs'), ours: box('ours') };
    })()`)) as { x: number; y: number; timestamp: number; theirs: { x: number; y: number }; ours: { x: number; y: number } };
    // The pointer is on one chart at a time: each is pictured with it at the same place.
    await page.mouse.click(at.theirs.x + at.x, at.theirs.y + at.y);
    await page.evaluate('window.frames()');
    await page.evaluate(`window.theirs = window.snap('theirs')`);
    await page.mouse.click(at.ours.x + at.x, at.ours.y + at.y);
    await page.evaluate('window.frames()');
    assert.deepEqual(await page.evaluate(`window.diff(window.theirs, window.snap('ours'))`), [], 'crosshair on a candle: canvases whose pixels differ');
    const clicked = (await page.evaluate('window.charts.map((c) => c.feed.clicked)')) as [unknown[], unknown[]];
    // KLineChart reports the candle once for each of its rectangles under the pointer (wick and body).
    assert.ok(clicked[0].length > 0 && clicked[0].every((t) => t === at.timestamp), `KLineChart's own chart reports the candle clicked (${JSON.stringify(clicked[0])})`);
    assert.deepEqual(clicked[1], clicked[0], 'the same candle, as often');
  });

  it('paint the same with a drawing hovered and then selected, which answers the pointer as before', async () => {
    await page.mouse.move(0, 1190);
    await step('the whole drawing in view', `(chart) => chart.setBarSpace(6)`);
    const at = (await page.evaluate(`(() => {
      const chart = window.charts[0].chart;
      const [a, b] = chart.getOverlays({ id: 'segment' })[0].points;
      const pa = chart.convertToPixel(a, { paneId: 'candle_pane' });
      const pb = chart.convertToPixel(b, { paneId: 'candle_pane' });
      const box = (id) => { const r = document.querySelector('#' + id).getBoundingClientRect(); return { x: r.left, y: r.top }; };
      return { x: Math.round((pa.x + pb.x) / 2), y: Math.round((pa.y + pb.y) / 2), theirs: box('theirs'), ours: box('ours') };
    })()`)) as { x: number; y: number; theirs: { x: number; y: number }; ours: { x: number; y: number } };
    for (const [what, act] of [
      ['hovered', (o: { x: number; y: number }) => page.mouse.move(o.x + at.x, o.y + at.y)],
      ['selected', (o: { x: number; y: number }) => page.mouse.click(o.x + at.x, o.y + at.y)],
    ] as const) {
      await act(at.theirs);
      await page.evaluate('window.frames()');
      await page.evaluate(`window.theirs = window.snap('theirs')`);
      await act(at.ours);
      await page.evaluate('window.frames()');
      assert.deepEqual(await page.evaluate(`window.diff(window.theirs, window.snap('ours'))`), [], `a drawing ${what}: canvases whose pixels differ`);
    }
    const events = (await page.evaluate('window.charts.map((c) => c.feed.drawing)')) as [string[], string[]];
    assert.ok(events[0].includes('click') && events[0].includes('selected'), `KLineChart's own chart answers the pointer on the drawing (${events[0].join(', ')})`);
    assert.deepEqual(events[1], events[0], 'the drawing answers the same, in the same order');
    await page.mouse.move(0, 1190);
    await page.evaluate('window.frames()');
    assert.deepEqual(await differences(), [], 'the pointer gone, the drawing still selected: canvases whose pixels differ');
  });
});
