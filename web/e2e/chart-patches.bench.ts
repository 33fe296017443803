/**
 * What each of the repo's KLineChart patches (`patches/`) buys: KLineChart's redraw per tick as
 * published and with patches applied, several charts of the same size and contents in one page
 * (700 hourly candles, MA, EMA and Bollinger bands over them, RSI and MACD below, 50 drawings of
 * KLineChart's own kinds), the CPU slowed (`--cpu=4`: Chromium's throttling, as a slower machine).
 * Ticks go to one chart at a time, the order rotating each round, so a busy machine slows every
 * variant alike; the frame callbacks each tick causes are timed (wall time, as the terminal chart's
 * benchmark does).
 *
 * Run: `cd web && node --import tsx e2e/chart-patches.bench.ts` (`--ticks=300`, `--cpu=4`,
 * `--variants=published,lean-frames,all`: a variant is `published`, `all` or patch names joined by
 * `+`). Markdown on stdout; a measurement, it does not fail.
 */
import { cpus, loadavg } from 'node:os';
import { chromium } from 'playwright-core';
import { kLineChartPatches, kLineChartWith, pageScript } from './support/klinecharts-patches';

const option = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const ticks = Number(option('ticks') ?? 300);
const cpu = Number(option('cpu') ?? 4);
const names = kLineChartPatches().map((p) => p.name);
const variants = (option('variants') ?? ['published', ...names.map((n, i) => names.slice(0, i + 1).join('+'))].join(',')).split(',');
const patchesOf = (v: string) => (v === 'published' ? [] : v === 'all' ? names : v.split('+'));

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
  await page.setContent(variants.map((_, n) => `<div id="chart${n}" style="width: 940px; height: 600px"></div>`).join(''));
  for (const [n, v] of variants.entries()) await page.addScriptTag({ content: pageScript(kLineChartWith(patchesOf(v)), `k${n}`) });
  const started = loadavg()[0]!;
  await page.evaluate(`(async ({ candles, count }) => {
    const raf = window.requestAnimationFrame.bind(window);
    let spent = 0;
    let timing = false;
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
    const feeds = Array.from({ length: count }, (_, n) => make(window['k' + n], 'chart' + n));
    window.tickCharts = async (ticks) => {
      const frame = () => new Promise((r) => raf(() => r()));
      const last = candles[candles.length - 1];
      const times = feeds.map(() => []);
      let bid = last.close;
      for (let i = 0; i < ticks; i++) {
        bid = Number((bid + (Math.random() - 0.5) * 0.0004).toFixed(5));
        for (let j = 0; j < count; j++) {
          const n = (i + j) % count;
          await frame();
          spent = 0;
          timing = true;
          feeds[n].push({ ...last, close: bid, high: Math.max(last.high, bid), low: Math.min(last.low, bid) });
          await new Promise((r) => setTimeout(r, 0));
          await frame();
          await frame();
          timing = false;
          times[n].push(spent);
        }
      }
      return times;
    };
    await new Promise((r) => setTimeout(r, 1000));
  })(${JSON.stringify({ candles, count: variants.length })})`);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpu });
  // A few ticks first, not counted: the throttled page's first frames (compiling, caches filling).
  await page.evaluate('window.tickCharts(10)');
  const times = (await page.evaluate(`window.tickCharts(${ticks})`)) as number[][];
  const ended = loadavg()[0]!;
  const percentile = (values: number[], p: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
  };
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  console.log(`Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, load average ${started.toFixed(1)} → ${ended.toFixed(1)}, Node ${process.version}, headless Chromium, CPU slowed ×${cpu}; ${ticks} ticks to each chart, the order rotating.\n`);
  // Each round ticks every chart once, close together in time: the difference within a round
  // (against the first variant) is less at the mercy of the machine's load than either time.
  console.log(`| KLineChart 10.0.2 redraw per tick (frame callbacks, wall) | p50 | p95 | mean | against ${variants[0]}: median of the rounds' differences | rounds faster |`);
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
  for (const [n, v] of variants.entries()) {
    const t = times[n]!;
    const diffs = t.map((x, i) => x - times[0]![i]!);
    const faster = diffs.filter((d) => d < 0).length / diffs.length;
    const name = v === 'published' ? 'as published' : v === 'all' ? 'all patches' : v.replaceAll('+', ' + ');
    console.log(`| ${name} | ${percentile(t, 50).toFixed(1)} ms | ${percentile(t, 95).toFixed(1)} ms | ${mean(t).toFixed(1)} ms | ${n === 0 ? '' : `${percentile(diffs, 50).toFixed(1)} ms`} | ${n === 0 ? '' : `${Math.round(faster * 100)} %`} |`);
  }
} finally {
  await browser.close();
}
