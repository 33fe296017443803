/**
 * The terminal chart under load (issue 17's speed targets): five indicators, 50 drawings and a tick
 * every 100 ms for a while, in headless Chromium against the real app. Reports the main thread's
 * work per animation frame (KLineChart redraws in requestAnimationFrame; every frame callback is
 * timed, so the figure also holds whatever else ran in the frame), the long tasks (Performance API,
 * over 50 ms), and how soon a period and a symbol switch show their candles.
 *
 * Run: `cd web && npx vite build --outDir /tmp/bench-dist && E2E_WEB_DIST=/tmp/bench-dist node --import tsx e2e/terminal-chart.bench.ts`
 * (`--seconds=20` to tick longer). Markdown on stdout. A measurement: it does not fail on a miss.
 */
import { CHART_TOOLS, type ChartLayout } from '@tradeport/contracts';
import { cpus } from 'node:os';
import { SignInPage } from './pages/sign-in-page';
import { seedHourlyCandles } from './support/chart-candles';
import { createTrader, newPage, postJson, pushTicks, startHarness } from './support/harness';

/** `--drawings=0 --indicators=0` measures the bare chart, for comparison. */
const option = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const drawingCount = option('drawings', 50);
const indicatorCount = option('indicators', 5);
const seconds = Number(process.argv.find((a) => a.startsWith('--seconds='))?.split('=')[1] ?? 15);
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : 0;
};

const h = await startHarness();
try {
  await seedHourlyCandles(h, 'EURUSD', 700);
  await seedHourlyCandles(h, 'GBPUSD', 700, 1.27);
  const trader = await createTrader(h);
  const now = Date.now();
  const drawings = Array.from({ length: drawingCount }, (_, i) => {
    const tool = CHART_TOOLS[i % CHART_TOOLS.length]!;
    return { tool, points: [0, 1, 2].map((k) => ({ timestamp: now - (60 - i - k * 3) * 3_600_000, value: 1.07 + ((i * 7 + k * 13) % 20) / 1000 })), color: '#1c7ed6', width: 2 };
  });
  const indicators: ChartLayout['indicators'] = [
    { name: 'MA', params: [20], source: 'close', colors: ['#f08c00'] },
    { name: 'EMA', params: [50], source: 'close', colors: ['#1c7ed6'] },
    { name: 'BOLL', params: [20, 2], source: 'close', colors: ['#7048e8', '#868e96', '#7048e8'] },
    { name: 'RSI', params: [14], source: 'close', colors: ['#ae3ec9'] },
    { name: 'MACD', params: [12, 26, 9], source: 'close', colors: ['#1c7ed6', '#f08c00'] },
  ];
  const saved = await postJson(trader.client, '/platform/saveChartLayout.php', { symbol: 'EURUSD', layout: { drawings, indicators: indicators.slice(0, indicatorCount) } });
  if (saved.status !== 200) throw new Error(`layout refused: ${JSON.stringify(saved.body)}`);

  const { context, page } = await newPage(h);
  await page.addInitScript(() => {
    const w = window as unknown as { __frames: Map<number, number>; __longTasks: number[] };
    w.__frames = new Map();
    w.__longTasks = [];
    const raf = window.requestAnimationFrame.bind(window);
    // Callbacks of one frame share its timestamp: their times add up to the frame's work.
    window.requestAnimationFrame = (cb) =>
      raf((t) => {
        const start = performance.now();
        cb(t);
        w.__frames.set(t, (w.__frames.get(t) ?? 0) + performance.now() - start);
      });
    new PerformanceObserver((list) => list.getEntries().forEach((e) => w.__longTasks.push(e.duration))).observe({ type: 'longtask', buffered: true });
  });
  const signIn = new SignInPage(page);
  await signIn.goto();
  await signIn.signIn(trader.email, trader.password);
  await page.waitForURL((u) => u.pathname === '/trading');
  await page.getByTestId('price-row-EURUSD').click();
  const panes = indicators.slice(0, indicatorCount).filter((i) => i.name === 'RSI' || i.name === 'MACD').length;
  await page.locator(`[data-testid="chart-panel"] [data-testid="terminal-chart"][data-overlays="${drawingCount}"][data-panes="${panes}"]`).waitFor({ timeout: 20_000 });
  await page.waitForTimeout(1000);
  await page.evaluate(() => {
    const w = window as unknown as { __frames: Map<number, number>; __longTasks: number[] };
    w.__frames.clear();
    w.__longTasks = [];
  });

  let bid = 1.085;
  const ticks = setInterval(() => {
    bid = Number((bid + (Math.random() - 0.5) * 0.0004).toFixed(5));
    void pushTicks(h, [{ symbol: 'EURUSD', bid, ask: Number((bid + 0.0002).toFixed(5)) }]).catch(() => undefined);
  }, 100);
  await page.waitForTimeout(seconds * 1000);
  clearInterval(ticks);
  const { frames, longTasks } = await page.evaluate(() => {
    const w = window as unknown as { __frames: Map<number, number>; __longTasks: number[] };
    return { frames: [...w.__frames.values()], longTasks: w.__longTasks };
  });

  // Switching: from the click until the new candles are drawn (the loading mark gone and the candle count set).
  const switchTime = async (act: () => Promise<void>, label: string) => {
    await page.evaluate(() => document.querySelector('[data-testid="chart-panel"] [data-testid="terminal-chart"]')?.removeAttribute('data-candles'));
    const start = Date.now();
    await act();
    await page.getByRole('group', { name: label }).waitFor();
    await page.waitForFunction(() => {
      const c = document.querySelector('[data-testid="chart-panel"] [data-testid="terminal-chart"]');
      return !!c?.getAttribute('data-candles') && !document.querySelector('[data-testid="chart-panel"] [aria-label="Loading the chart"]');
    });
    return Date.now() - start;
  };
  const periodMs: number[] = [];
  const symbolMs: number[] = [];
  for (let i = 0; i < 3; i++) {
    periodMs.push(await switchTime(() => page.getByRole('radiogroup', { name: 'Chart period' }).getByText('H4', { exact: true }).click(), 'EURUSD chart, H4'));
    periodMs.push(await switchTime(() => page.getByRole('radiogroup', { name: 'Chart period' }).getByText('H1', { exact: true }).click(), 'EURUSD chart, H1'));
    symbolMs.push(await switchTime(() => page.getByTestId('price-row-GBPUSD').click(), 'GBPUSD chart, H1'));
    symbolMs.push(await switchTime(() => page.getByTestId('price-row-EURUSD').click(), 'EURUSD chart, H1'));
  }
  await context.close();

  const busy = frames.filter((f) => f > 0.05);
  console.log(`Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, Node ${process.version}, headless Chromium; ${seconds} s of ticks every 100 ms; ${indicatorCount} indicators, ${drawingCount} drawings.\n`);
  console.log('| Measure | Result | Target |');
  console.log('| --- | ---: | ---: |');
  console.log(`| Frames timed | ${frames.length} (${busy.length} with work) | |`);
  console.log(`| Main-thread work per frame, p50 / p95 / max | ${percentile(busy, 50).toFixed(2)} / ${percentile(busy, 95).toFixed(2)} / ${Math.max(0, ...busy).toFixed(2)} ms | p95 ≤ 4 ms |`);
  console.log(`| Long tasks (> 50 ms) while ticking | ${longTasks.length}${longTasks.length ? ` (longest ${Math.max(...longTasks).toFixed(0)} ms)` : ''} | none |`);
  console.log(`| Period switch to new candles, median / max | ${percentile(periodMs, 50)} / ${Math.max(...periodMs)} ms | ≤ 300 ms |`);
  console.log(`| Symbol switch to new candles, median / max | ${percentile(symbolMs, 50)} / ${Math.max(...symbolMs)} ms | ≤ 300 ms |`);
} finally {
  await h.close();
}
