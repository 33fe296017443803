/**
 * The repo's KLineChart patches (patches/, applied on install), checked in Chromium against
 * KLineChart as published (the installed build with the patches taken back out), through what
 * changes a chart (ticks inside and beyond the price range, a new candle, scrolling, bars from
 * 1.5 to 14 px apart, restyling, hollow and OHLC bars, the crosshair, a drawing hovered and
 * selected):
 * - with the lean frames alone (`lean-frames.patch`) every canvas has exactly KLineChart's pixels,
 *   the same candle is reported to `onCandleBarClick` and a drawing answers the pointer as before;
 * - with both, as installed (`unchanged-layers.patch` too: the drawings on a canvas of their own,
 *   canvases a tick did not change not drawn again, the closed candles kept as a picture, the
 *   candles drawn a colour at a time) the chart looks the same: composed as the page shows it, it
 *   differs from KLineChart's own only on antialiased edges (see `LOOKS_SAME`). A fourth chart whose
 *   kept layers are never drawn again after their first frame shows that the comparison fails on a
 *   stale drawing, axis or label.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { KLineData } from 'klinecharts';
import { installedKLineChart, kLineChartWith, pageScript, publishedKLineChart } from './support/klinecharts-patches';

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
    chart.setDataLoader({ getBars: ({ callback }) => callback(candles.map((c) => ({ ...c })), false), subscribeBar: ({ callback }) => { feed.push = callback; } });
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
  window.charts = [make(window.kTheirs, 'theirs'), make(window.kOurs, 'ours'), make(window.kKept, 'kept'), make(window.kStale, 'stale')];
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
  // The chart as the page shows it: every canvas drawn where it is, in the page's order (later over earlier), on the page's white.
  window.compose = (id) => {
    const root = document.getElementById(id);
    const box = root.getBoundingClientRect();
    const out = document.createElement('canvas');
    out.width = Math.round(box.width);
    out.height = Math.round(box.height);
    const ctx = out.getContext('2d');
    // On the page's background (white), as the page shows the chart.
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, out.width, out.height);
    for (const c of root.querySelectorAll('canvas')) {
      const r = c.getBoundingClientRect();
      if (c.width && c.height) ctx.drawImage(c, Math.round(r.left - box.left), Math.round(r.top - box.top), Math.round(r.width), Math.round(r.height));
    }
    return { w: out.width, h: out.height, data: ctx.getImageData(0, 0, out.width, out.height).data };
  };
  // How two compositions differ: pixels that differ, the largest difference of a channel, and the
  // differing pixels that are not on an edge of the reference (its 3 × 3 neighbourhood all one colour).
  window.looks = (a, b) => {
    if (a.w !== b.w || a.h !== b.h) return { size: false, pixels: a.w * a.h, maxDelta: 255, offEdge: a.w * a.h, total: a.w * a.h };
    const { w, h } = a;
    const same = (i, j) => a.data[i] === a.data[j] && a.data[i + 1] === a.data[j + 1] && a.data[i + 2] === a.data[j + 2] && a.data[i + 3] === a.data[j + 3];
    let pixels = 0, maxDelta = 0, offEdge = 0;
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const i = (y * w + x) * 4;
        const delta = Math.max(Math.abs(a.data[i] - b.data[i]), Math.abs(a.data[i + 1] - b.data[i + 1]), Math.abs(a.data[i + 2] - b.data[i + 2]), Math.abs(a.data[i + 3] - b.data[i + 3]));
        if (delta === 0) continue;
        pixels++;
        maxDelta = Math.max(maxDelta, delta);
        let edge = false;
        for (let dy = -1; dy <= 1 && !edge; dy++) for (let dx = -1; dx <= 1 && !edge; dx++) {
          const nx = x + dx, ny = y + dy;
          if (nx >= 0 && ny >= 0 && nx < w && ny < h && !same(i, (ny * w + nx) * 4)) edge = true;
        }
        if (!edge) offEdge++;
      }
    }
    return { size: true, pixels, maxDelta, offEdge, total: w * h };
  };
  await window.frames();
  await new Promise((r) => setTimeout(r, 300));
})`;

/**
 * "Looks the same" (the kept layers against KLineChart's own, the whole chart composed): every
 * differing pixel is on an antialiased edge of KLineChart's picture (a neighbour of another colour),
 * within 48 levels in every channel, and they are at most 0.1 % of the chart. What the step changes
 * is antialiasing only: the candles' rectangles filled a colour at a time make Chromium rasterize
 * the corner where a wick meets its body another way (up to 45 levels on that one pixel), and a
 * canvas that draws fewer paths puts dashed lines' and text's edge pixels a few levels apart. A
 * drawing, label, candle, line or crosshair missing, stale or moved differs by more than 48 levels
 * in its own pixels (the chart draws them at least 1 px wide, far from the background), or inside
 * an area; the stale chart below shows the comparison catching it.
 */
const LOOKS_SAME = { maxDelta: 48, share: 0.001 };

interface Looks {
  size: boolean;
  pixels: number;
  maxDelta: number;
  offEdge: number;
  total: number;
}

function looksSame(l: Looks): boolean {
  return l.size && l.offEdge === 0 && l.maxDelta <= LOOKS_SAME.maxDelta && l.pixels <= LOOKS_SAME.share * l.total;
}

let browser: Browser;
let page: Page;
before(async () => {
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  page = await browser.newPage({ viewport: { width: 1000, height: 2200 } });
  await page.setContent(['theirs', 'ours', 'kept', 'stale'].map((id) => `<div id="${id}" style="width: 900px; height: 520px"></div>`).join(''));
  await page.addScriptTag({ content: pageScript(publishedKLineChart(), 'kTheirs') });
  // The patch that keeps KLineChart's pixels exactly.
  await page.addScriptTag({ content: pageScript(kLineChartWith(['lean-frames']), 'kOurs') });
  // As installed, and so as the app has it: the kept layers too.
  const kept = installedKLineChart();
  await page.addScriptTag({ content: pageScript(kept, 'kKept') });
  // A broken variant, to show the comparison finds stale pixels: its kept layers are drawn once, and after only when resized.
  const stale = kept.replace('function keptLayerUnchanged(widget, kind, resized) {', 'function keptLayerUnchanged(widget, kind, resized) {\n    if (!resized && widget._keptLayerKeys !== undefined && widget._keptLayerKeys[kind] !== undefined) { return true; }');
  if (stale === kept) throw new Error('the kept layers’ check is not where the test expects it');
  await page.addScriptTag({ content: pageScript(stale, 'kStale') });
  await page.evaluate(`${SETUP}(${JSON.stringify({ candles: walk() })})`);
});
after(async () => {
  await browser?.close();
});

/** Canvases whose pixels differ between KLineChart's chart and the lean one (none when the same). */
async function differences(): Promise<Array<{ canvas: number; pixels: number }>> {
  return (await page.evaluate(`window.diff(window.snap('theirs'), window.snap('ours'))`)) as Array<{ canvas: number; pixels: number }>;
}

/** How the kept-layers chart and the stale one differ from KLineChart's own, composed (the reference `theirs` may be a picture taken earlier). */
async function looks(theirs = `window.compose('theirs')`): Promise<{ kept: Looks; stale: Looks }> {
  return (await page.evaluate(`(() => { const theirs = ${theirs}; return { kept: window.looks(theirs, window.compose('kept')), stale: window.looks(theirs, window.compose('stale')) }; })()`)) as { kept: Looks; stale: Looks };
}

/** Debug: the two pictures and their difference as PNG files in $CHART_DIFF_DIR. */
function dumpDiff(what: string): void {
  void page.evaluate(`(() => {
    const url = (img) => { const c = document.createElement('canvas'); c.width = img.w; c.height = img.h; c.getContext('2d').putImageData(new ImageData(new Uint8ClampedArray(img.data), img.w, img.h), 0, 0); return c.toDataURL('image/png'); };
    const a = window.compose('theirs'), b = window.compose('kept');
    const d = { w: a.w, h: a.h, data: new Uint8ClampedArray(a.data.length) };
    for (let i = 0; i < a.data.length; i += 4) { const m = Math.max(...[0, 1, 2, 3].map((k) => Math.abs(a.data[i + k] - b.data[i + k]))); d.data[i] = m ? 255 : 0; d.data[i + 3] = 255; }
    return [url(a), url(b), url(d)];
  })()`).then((urls) => (urls as string[]).forEach((u, n) => writeFileSync(join(process.env.CHART_DIFF_DIR!, `${what.replace(/\W+/g, '-')}-${['theirs', 'kept', 'diff'][n]}.png`), Buffer.from(u.split(',')[1]!, 'base64'))));
}

/** Steps where the stale chart did not look the same (the comparison caught it). */
const caught: string[] = [];
/** The largest differences the kept layers showed, for the test's log. */
const worst = { pixels: 0, maxDelta: 0 };

function judge(what: string, l: { kept: Looks; stale: Looks }): void {
  if (!looksSame(l.kept) && process.env.CHART_DIFF_DIR) dumpDiff(what);
  assert.ok(looksSame(l.kept), `${what}: the kept layers do not look the same as KLineChart's own (${JSON.stringify(l.kept)})`);
  worst.pixels = Math.max(worst.pixels, l.kept.pixels);
  worst.maxDelta = Math.max(worst.maxDelta, l.kept.maxDelta);
  if (!looksSame(l.stale)) caught.push(what);
}

async function step(what: string, script: string): Promise<void> {
  await page.evaluate(`window.step(${script})`);
  assert.deepEqual(await differences(), [], `${what}: canvases whose pixels differ`);
  judge(what, await looks());
}

describe('KLineChart’s candles drawn without a figure per rectangle, and its unchanged layers kept', () => {
  it('paint KLineChart’s own pixels (lean), and look the same (kept layers), through ticks, new candles, scrolling, zooming and restyling', async () => {
    assert.deepEqual(await differences(), [], 'first paint: canvases whose pixels differ');
    judge('first paint', await looks());
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
    await step('a drawing moved', `(chart) => chart.overrideOverlay({ id: 'segment', points: [{ timestamp: ${last.timestamp - 50 * 3_600_000}, value: 1.082 }, { timestamp: ${last.timestamp - 25 * 3_600_000}, value: 1.095 }] })`);
    await step('a tick after it', `(chart, feed) => feed.push(${JSON.stringify({ ...next, low: 1.198, close: 1.1989 })})`);
    await step('restyled candles', `(chart) => chart.setStyles({ candle: { bar: { upColor: '#1c7ed6', upBorderColor: '#1c7ed6', upWickColor: '#1c7ed6', noChangeColor: 'rgba(0, 0, 0, 0)' } } })`);
    await step('hollow candles', `(chart) => chart.setStyles({ candle: { type: 'candle_stroke' } })`);
    await step('hollow rising candles', `(chart) => chart.setStyles({ candle: { type: 'candle_up_stroke' } })`);
    await step('OHLC bars', `(chart) => chart.setStyles({ candle: { type: 'ohlc' } })`);
    await step('solid candles', `(chart) => chart.setStyles({ candle: { type: 'candle_solid' } })`);
    await step('the dark styles', `(chart) => chart.setStyles('dark')`);
    await step('a new candle in the dark', `(chart, feed) => feed.push(${JSON.stringify({ ...next, timestamp: next.timestamp + 3_600_000, open: 1.1989, high: 1.1995, low: 1.1985, close: 1.1991 })})`);
    await step('resized', `(chart) => { chart.getDom().parentElement.style.width = '700px'; chart.resize(); }`);
    // Save image: the picture KLineChart makes of the chart holds the drawings' own canvas too (without it the
    // drawings' pixels would be missing from it).
    const pictures = (await page.evaluate(`(async () => {
      const load = async (chart) => {
        const img = new Image();
        img.src = chart.getConvertPictureUrl(true, 'png', '#ffffff');
        await img.decode();
        const c = document.createElement('canvas');
        c.width = img.width;
        c.height = img.height;
        const ctx = c.getContext('2d');
        ctx.drawImage(img, 0, 0);
        return { w: c.width, h: c.height, data: ctx.getImageData(0, 0, c.width, c.height).data };
      };
      const [theirs, kept] = await Promise.all([window.charts[0].chart, window.charts[2].chart].map(load));
      return { kept: window.looks(theirs, kept) };
    })()`)) as { kept: Looks };
    assert.ok(looksSame(pictures.kept), `the saved picture does not look the same (${JSON.stringify(pictures.kept)})`);
    // The comparison is not blind: a chart whose kept layers are never drawn again fails it where a
    // drawing or the time axis moves (a new candle, scrolling, zooming, a drawing moved, restyling).
    for (const moved of ['a new candle', 'scrolled back', 'bars 3 px apart', 'a drawing moved', 'the dark styles']) assert.ok(caught.includes(moved), `the stale chart passed "${moved}" (caught: ${caught.join(', ')})`);
    assert.ok(!caught.includes('tick 1'), 'a tick inside the price range moves no kept layer');
    console.log(`kept layers against KLineChart's own, worst step: ${worst.pixels} pixels differ, by up to ${worst.maxDelta} levels`);
  });

  it('paint the same with the crosshair on a candle, and report the same candle when it is clicked', async () => {
    const at = (await page.evaluate(`(() => {
      const chart = window.charts[0].chart;
      const candle = chart.getDataList().at(-12);
      const p = chart.convertToPixel({ timestamp: candle.timestamp, value: (candle.open + candle.close) / 2 }, { paneId: 'candle_pane' });
      const box = (id) => { const r = document.querySelector('#' + id).getBoundingClientRect(); return { x: r.left, y: r.top }; };
      return { x: p.x, y: p.y, timestamp: candle.timestamp, boxes: ['theirs', 'ours', 'kept', 'stale'].map(box) };
    })()`)) as { x: number; y: number; timestamp: number; boxes: Array<{ x: number; y: number }> };
    // The pointer is on one chart at a time: each is pictured with it at the same place.
    const pictures: string[] = [];
    for (const [n, id] of ['theirs', 'ours', 'kept', 'stale'].entries()) {
      await page.mouse.click(at.boxes[n]!.x + at.x, at.boxes[n]!.y + at.y);
      await page.evaluate('window.frames()');
      await page.evaluate(`window.pictures = window.pictures || {}; window.pictures.${id} = { canvases: window.snap('${id}'), composed: window.compose('${id}') }`);
      pictures.push(id);
    }
    assert.deepEqual(await page.evaluate(`window.diff(window.pictures.theirs.canvases, window.pictures.ours.canvases)`), [], 'crosshair on a candle: canvases whose pixels differ');
    const kept = (await page.evaluate(`window.looks(window.pictures.theirs.composed, window.pictures.kept.composed)`)) as Looks;
    assert.ok(looksSame(kept), `crosshair on a candle: the kept layers do not look the same (${JSON.stringify(kept)})`);
    const clicked = (await page.evaluate('window.charts.map((c) => c.feed.clicked)')) as unknown[][];
    // KLineChart reports the candle once for each of its rectangles under the pointer (wick and body).
    assert.ok(clicked[0]!.length > 0 && clicked[0]!.every((t) => t === at.timestamp), `KLineChart's own chart reports the candle clicked (${JSON.stringify(clicked[0])})`);
    assert.deepEqual(clicked[1], clicked[0], 'the same candle, as often (lean)');
    assert.deepEqual(clicked[2], clicked[0], 'the same candle, as often (kept layers)');
    // The pointer gone from every chart: no crosshair left on any layer.
    await page.mouse.move(0, 2190);
    await page.evaluate('window.frames()');
    judge('the crosshair gone', await looks());
    assert.deepEqual(await differences(), [], 'the crosshair gone: canvases whose pixels differ');
  });

  it('paint the same with a drawing hovered and then selected, which answers the pointer as before', async () => {
    await page.mouse.move(0, 2190);
    await step('the whole drawing in view', `(chart) => chart.setBarSpace(6)`);
    const at = (await page.evaluate(`(() => {
      const chart = window.charts[0].chart;
      const [a, b] = chart.getOverlays({ id: 'segment' })[0].points;
      const pa = chart.convertToPixel(a, { paneId: 'candle_pane' });
      const pb = chart.convertToPixel(b, { paneId: 'candle_pane' });
      const box = (id) => { const r = document.querySelector('#' + id).getBoundingClientRect(); return { x: r.left, y: r.top }; };
      return { x: Math.round((pa.x + pb.x) / 2), y: Math.round((pa.y + pb.y) / 2), boxes: ['theirs', 'ours', 'kept'].map(box) };
    })()`)) as { x: number; y: number; boxes: Array<{ x: number; y: number }> };
    for (const [what, act] of [
      ['hovered', (o: { x: number; y: number }) => page.mouse.move(o.x + at.x, o.y + at.y)],
      ['selected', (o: { x: number; y: number }) => page.mouse.click(o.x + at.x, o.y + at.y)],
    ] as const) {
      for (const [n, id] of ['theirs', 'ours', 'kept'].entries()) {
        await act(at.boxes[n]!);
        await page.evaluate('window.frames()');
        await page.evaluate(`window.pictures.${id} = { canvases: window.snap('${id}'), composed: window.compose('${id}') }`);
      }
      assert.deepEqual(await page.evaluate(`window.diff(window.pictures.theirs.canvases, window.pictures.ours.canvases)`), [], `a drawing ${what}: canvases whose pixels differ`);
      const kept = (await page.evaluate(`window.looks(window.pictures.theirs.composed, window.pictures.kept.composed)`)) as Looks;
      assert.ok(looksSame(kept), `a drawing ${what}: the kept layers do not look the same (${JSON.stringify(kept)})`);
    }
    const events = (await page.evaluate('window.charts.map((c) => c.feed.drawing)')) as string[][];
    assert.ok(events[0]!.includes('click') && events[0]!.includes('selected'), `KLineChart's own chart answers the pointer on the drawing (${events[0]!.join(', ')})`);
    assert.deepEqual(events[1], events[0], 'the drawing answers the same, in the same order (lean)');
    assert.deepEqual(events[2], events[0], 'the drawing answers the same, in the same order (kept layers)');
    await page.mouse.move(0, 2190);
    await page.evaluate('window.frames()');
    assert.deepEqual(await differences(), [], 'the pointer gone, the drawing still selected: canvases whose pixels differ');
    const selected = await looks();
    assert.ok(looksSame(selected.kept), `the pointer gone, the drawing still selected: the kept layers do not look the same (${JSON.stringify(selected.kept)})`);
    // A tick with the drawing selected: its axis labels stay, and the chart still looks the same.
    const last = (await page.evaluate('window.charts[0].chart.getDataList().at(-1)')) as KLineData;
    await step('a tick with the drawing selected', `(chart, feed) => feed.push(${JSON.stringify({ ...last, close: last.close + 0.0002, high: Math.max(last.high, last.close + 0.0002) })})`);
  });
});
