/**
 * The desktop terminal's speed (issue 16, "Speed"), in headless Chromium against the real app
 * serving the production build, with every price pushed by the benchmark:
 *
 * - how soon `/trading` shows its first quotes and its first open positions, counted from the
 *   navigation's start, on a cold start (a new browser context, empty cache) and on a reload;
 * - with 50 symbols ticking 10 times a second and 20 open positions: the main thread's long tasks
 *   (Performance API, over 50 ms), whether the price rows of the symbols that did not tick changed
 *   at all (a MutationObserver on each), how often each profit cell changed within one animation
 *   frame, and the JavaScript heap (after a forced garbage collection) sampled over `--minutes`.
 *
 * The catalogue is the shipped one (35 instruments) plus 20 copies of EURUSD (`EURUSD.01` …): 50
 * symbols tick, and 5 of the first 10 rows of the price table (which lists the 34 Forex symbols,
 * drawing those in view) only get a first price. Quotes never turn stale during the run.
 *
 * Run: `npm run bench:terminal -w web -- --minutes=1` against the last build (web/dist), or
 * `cd web && npx vite build --outDir /tmp/bench-dist && E2E_WEB_DIST=/tmp/bench-dist npm run bench:terminal -- --minutes=10`.
 * `--minutes` (default 10) is how long the ticks run for the heap figures. Markdown on stdout,
 * progress on stderr. A measurement: it does not fail on a miss.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, totalmem, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { addPaymentAccount, adminClient, approvedDeposit, browserCookies, createTrader, DESKTOP, postJson, pushTicks, startHarness, WEB_DIST } from './support/harness';

const minutes = Number(process.argv.find((a) => a.startsWith('--minutes='))?.split('=')[1] ?? 10);
/** `--profile=FILE` also writes a 10 s CPU profile of the page under load (.cpuprofile JSON). */
const PROFILE = process.argv.find((a) => a.startsWith('--profile='))?.slice('--profile='.length) ?? '';
const log = (msg: string) => void process.stderr.write(`[bench:terminal] ${msg}\n`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? Number.NaN;

const TICKED = 50;
const POSITIONS = 20;
const TICK_MS = 100;

interface Instrument {
  symbol: string;
  digits: number;
  group: string;
}

/** The shipped catalogue and 20 copies of EURUSD, written to a temporary file. */
function benchCatalogue(dir: string): { file: string; instruments: Instrument[] } {
  const shipped = JSON.parse(readFileSync(resolve(dirname(fileURLToPath(import.meta.url)), '../../server/config/instruments.json'), 'utf8')) as { instruments: (Instrument & Record<string, unknown>)[] };
  const eurusd = shipped.instruments.find((i) => i.symbol === 'EURUSD')!;
  const copies = Array.from({ length: 20 }, (_, i) => ({ ...eurusd, symbol: `EURUSD.${String(i + 1).padStart(2, '0')}`, description: `Euro vs US Dollar (copy ${i + 1})` }));
  const catalogue = { ...shipped, instruments: [...shipped.instruments, ...copies] };
  const file = join(dir, 'instruments.json');
  writeFileSync(file, JSON.stringify(catalogue));
  return { file, instruments: catalogue.instruments.map((i) => ({ symbol: i.symbol, digits: i.digits, group: i.group })) };
}

/** A plausible first price for an instrument of `digits` decimals, and a random walk from it. */
class Walk {
  private readonly price = new Map<string, number>();
  constructor(private readonly instruments: Instrument[]) {
    for (const i of instruments) this.price.set(i.symbol, i.digits >= 4 ? 1.1 : i.digits === 3 ? 150 : i.digits === 2 ? 250 : 1000);
  }
  quote(i: Instrument, move: boolean) {
    const point = 10 ** -i.digits;
    let bid = this.price.get(i.symbol)!;
    if (move) {
      // A step of 1 to 5 points either way (never zero: every tick is a change).
      bid += (Math.random() < 0.5 ? -1 : 1) * (1 + Math.floor(Math.random() * 5)) * point;
      this.price.set(i.symbol, bid);
    }
    return { symbol: i.symbol, bid: Number(bid.toFixed(i.digits)), ask: Number((bid + 2 * point).toFixed(i.digits)) };
  }
  ticks(move = true) {
    return this.instruments.map((i) => this.quote(i, move));
  }
}

/** Installed before any page script: first-paint marks, long tasks, and the render counters. */
function instrument() {
  const w = window as unknown as Record<string, unknown> & { __b: { firstQuote: number | null; firstPosition: number | null; longTasks: { start: number; duration: number }[] } };
  w.__b = { firstQuote: null, firstPosition: null, longTasks: [] };
  new PerformanceObserver((list) => list.getEntries().forEach((e) => w.__b.longTasks.push({ start: e.startTime, duration: e.duration }))).observe({ type: 'longtask', buffered: true });
  const check = () => {
    if (w.__b.firstQuote === null && [...document.querySelectorAll('[data-testid^="price-row-"] [data-testid="bid"]')].some((c) => /\d\.\d/.test(c.textContent ?? ''))) w.__b.firstQuote = performance.now();
    if (w.__b.firstPosition === null && document.querySelector('[data-testid^="position-"] [data-testid="profit"]')?.textContent) w.__b.firstPosition = performance.now();
    return w.__b.firstQuote !== null && w.__b.firstPosition !== null;
  };
  const observer = new MutationObserver(() => {
    if (check()) observer.disconnect();
  });
  document.addEventListener('DOMContentLoaded', () => observer.observe(document.body, { subtree: true, childList: true, characterData: true }));
}

/** Starts counting: mutations of the untouched rows, and profit-cell changes per animation frame. */
function startCounting(untouched: string[]) {
  const w = window as unknown as { __c: { untouched: Record<string, number>; frames: number; profitUpdates: number; profitTwiceInAFrame: number; rowUpdates: number; longTasksFrom: number } };
  const c = { untouched: {} as Record<string, number>, frames: 0, profitUpdates: 0, profitTwiceInAFrame: 0, rowUpdates: 0, longTasksFrom: performance.now() };
  w.__c = c;
  const frame = () => {
    c.frames += 1;
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  for (const symbol of untouched) {
    c.untouched[symbol] = 0;
    const row = document.querySelector(`[data-testid="price-row-${CSS.escape(symbol)}"]`);
    if (!row) throw new Error(`no price row for ${symbol}`);
    new MutationObserver((records) => (c.untouched[symbol]! += records.length)).observe(row, { subtree: true, childList: true, characterData: true, attributes: true });
  }
  // Each observer callback is one batch of DOM changes; a cell in two batches of one frame changed twice in it.
  const lastFrame = new Map<Element, number>();
  const profitCells = [...document.querySelectorAll('[data-testid^="position-"] [data-testid="profit"]')].map((s) => s.parentElement!);
  const cellObserver = new MutationObserver((records) => {
    const cells = new Set<Element>();
    for (const r of records) {
      const cell = profitCells.find((p) => p.contains(r.target));
      if (cell) cells.add(cell);
    }
    for (const cell of cells) {
      c.profitUpdates += 1;
      if (lastFrame.get(cell) === c.frames) c.profitTwiceInAFrame += 1;
      lastFrame.set(cell, c.frames);
    }
  });
  for (const cell of profitCells) cellObserver.observe(cell, { subtree: true, childList: true, characterData: true });
  // The ticking rows on screen: how many batches changed each (for the rate per row).
  const tickingRows = [...document.querySelectorAll('[data-testid^="price-row-"]')].filter((row) => !untouched.includes(row.getAttribute('data-testid')!.slice('price-row-'.length)));
  const rowObserver = new MutationObserver((records) => {
    c.rowUpdates += new Set(records.map((r) => tickingRows.find((row) => row.contains(r.target)))).size;
  });
  for (const row of tickingRows) rowObserver.observe(row, { subtree: true, childList: true, characterData: true });
  // How many rows the table draws of those it lists (it draws only the rows in view).
  const drawn = document.querySelectorAll('[data-testid^="price-row-"]').length;
  const listed = Number(document.querySelector('table[aria-label="Prices"]')?.getAttribute('aria-rowcount') ?? 1) - 1;
  return { cells: profitCells.length, rows: tickingRows.length, drawn, listed };
}

async function heapUsed(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  await cdp.detach();
  return usedSize;
}

const dir = mkdtempSync(join(tmpdir(), 'tp-bench-terminal-'));
const catalogue = benchCatalogue(dir);
const h = await startHarness({ market: { catalogueFile: catalogue.file, staleAfterMs: 24 * 3_600_000 } });
let ticking: ReturnType<typeof setInterval> | undefined;
try {
  log(`serving ${WEB_DIST}`);
  // The price table lists Forex first and draws the rows in view (about 16 at 1440×900): rows 6 to
  // 10 do not tick, so quiet rows sit among ticking ones on screen (and more symbols tick off it).
  const firstPage = catalogue.instruments.filter((i) => i.group === 'Forex').slice(0, 10);
  const untouched = firstPage.slice(5).map((i) => i.symbol);
  const ticked = catalogue.instruments.filter((i) => !untouched.includes(i.symbol));
  if (ticked.length !== TICKED) throw new Error(`${ticked.length} ticking symbols, expected ${TICKED}`);
  const walk = new Walk(catalogue.instruments);
  await pushTicks(h, walk.ticks(false));

  const admin = await adminClient(h);
  const gateway = await addPaymentAccount(admin);
  const trader = await createTrader(h);
  await approvedDeposit(trader.client, admin, gateway, '100000');
  for (let i = 0; i < POSITIONS; i++) {
    const r = await postJson(trader.client, '/platform/addTrades.php', { fullSymbol: ticked[i]!.symbol, tradestypes: i % 2 ? 'sell' : 'buy', volume: 0.01, comment: `bench ${i + 1}` });
    if (r.status !== 200) throw new Error(`position refused: ${JSON.stringify(r.body)}`);
  }
  log(`${POSITIONS} positions open; ${ticked.length} symbols tick every ${TICK_MS} ms, ${untouched.length} do not`);

  const tickedWalk = new Walk(ticked);
  // The same first prices as above, then a step of every ticked symbol per tick.
  ticking = setInterval(() => void pushTicks(h, tickedWalk.ticks()).catch((err: unknown) => log(`push failed: ${String(err)}`)), TICK_MS);

  const cookies = browserCookies(h, trader.client.cookieHeader);
  const newContext = async (): Promise<BrowserContext> => {
    const context = await h.browser.newContext({ viewport: DESKTOP, baseURL: h.origin, colorScheme: 'light', timezoneId: 'UTC', locale: 'en-US' });
    await context.addCookies(cookies);
    // tsx keeps function names with a `__name` helper that the page does not have.
    await context.addInitScript('window.__name = (f) => f;');
    await context.addInitScript(instrument);
    return context;
  };
  const firstShown = async (page: Page) => {
    await page.waitForFunction(() => {
      const b = (window as unknown as { __b?: { firstQuote: number | null; firstPosition: number | null } }).__b;
      return !!b && b.firstQuote !== null && b.firstPosition !== null;
    }, undefined, { timeout: 30_000 }).catch(async (err: unknown) => {
      await page.screenshot({ path: join(dir, 'failed.png') });
      log(`not shown at ${page.url()}: ${JSON.stringify(await page.evaluate(() => (window as unknown as { __b?: unknown }).__b))}; ${join(dir, 'failed.png')}`);
      throw err;
    });
    return page.evaluate(() => (window as unknown as { __b: { firstQuote: number; firstPosition: number } }).__b);
  };

  // First quotes and positions: three cold starts (new context, empty cache), then three reloads.
  const cold: { firstQuote: number; firstPosition: number }[] = [];
  const warm: { firstQuote: number; firstPosition: number }[] = [];
  for (let i = 0; i < 3; i++) {
    const context = await newContext();
    const page = await context.newPage();
    await page.goto('/trading');
    cold.push(await firstShown(page));
    await page.waitForTimeout(500);
    await page.reload();
    warm.push(await firstShown(page));
    await context.close();
  }
  log(`first quotes (cold) ${cold.map((c) => c.firstQuote.toFixed(0)).join(', ')} ms; first positions (cold) ${cold.map((c) => c.firstPosition.toFixed(0)).join(', ')} ms`);

  // Under load.
  const context = await newContext();
  const page = await context.newPage();
  page.on('pageerror', (err) => log(`page error: ${err.message}`));
  await page.goto('/trading');
  await firstShown(page);
  await page.locator('[data-testid^="position-"]').nth(POSITIONS - 1).waitFor();
  await page.waitForTimeout(3000);
  const { cells, rows, drawn, listed } = await page.evaluate(startCounting, untouched);
  if (PROFILE) {
    // A CPU profile of 10 s under load, for a closer look (chrome://inspect or speedscope).
    const cdp = await context.newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.start');
    await page.waitForTimeout(10_000);
    const { profile } = await cdp.send('Profiler.stop');
    writeFileSync(PROFILE, JSON.stringify(profile));
    await cdp.detach();
    log(`CPU profile of 10 s written to ${PROFILE}`);
  }
  const started = Date.now();
  const heap: { atMin: number; bytes: number }[] = [{ atMin: 0, bytes: await heapUsed(page) }];
  const sampleEveryMs = Math.max(5_000, (minutes * 60_000) / 20);
  log(`ticking for ${minutes} min; heap ${(heap[0]!.bytes / 1048576).toFixed(1)} MB`);
  while (Date.now() - started < minutes * 60_000) {
    await page.waitForTimeout(Math.min(sampleEveryMs, minutes * 60_000 - (Date.now() - started)));
    heap.push({ atMin: (Date.now() - started) / 60_000, bytes: await heapUsed(page) });
    log(`${heap.at(-1)!.atMin.toFixed(1)} min: heap ${(heap.at(-1)!.bytes / 1048576).toFixed(1)} MB`);
  }
  const seconds = (Date.now() - started) / 1000;
  const result = await page.evaluate(() => {
    const w = window as unknown as { __b: { longTasks: { start: number; duration: number }[] }; __c: { untouched: Record<string, number>; frames: number; profitUpdates: number; profitTwiceInAFrame: number; rowUpdates: number; longTasksFrom: number } };
    const during = w.__b.longTasks.filter((t) => t.start >= w.__c.longTasksFrom).map((t) => t.duration);
    const atStart = w.__b.longTasks.filter((t) => t.start < w.__c.longTasksFrom).map((t) => t.duration);
    return { ...w.__c, during, atStart };
  });
  await context.close();

  // Heap trend: the least-squares slope over the second half of the run (after warm-up).
  const late = heap.filter((s) => s.atMin >= minutes / 2);
  const mx = late.reduce((a, s) => a + s.atMin, 0) / late.length;
  const my = late.reduce((a, s) => a + s.bytes, 0) / late.length;
  const slope = late.length > 1 ? late.reduce((a, s) => a + (s.atMin - mx) * (s.bytes - my), 0) / late.reduce((a, s) => a + (s.atMin - mx) ** 2, 0) : 0;
  const mb = (b: number) => (b / 1048576).toFixed(1);
  const untouchedChanges = Object.values(result.untouched).reduce((a, n) => a + n, 0);

  console.log(`Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${(totalmem() / 1073741824).toFixed(1)} GiB, Node ${process.version}, Debian's headless Chromium at 1440×900; the app in the benchmark's process serving the production build (${WEB_DIST.endsWith('dist') ? 'web/dist' : 'a build'}), push feed. ${TICKED} symbols ticking every ${TICK_MS} ms (each tick a change), ${untouched.length} more listed without ticks, ${POSITIONS} open positions; ${minutes} min of ticks.\n`);
  console.log('| Measure | Result | Target |');
  console.log('| --- | ---: | ---: |');
  console.log(`| First quotes visible after navigation start, cold / reload (median of 3) | ${median(cold.map((c) => c.firstQuote)).toFixed(0)} / ${median(warm.map((c) => c.firstQuote)).toFixed(0)} ms | ≤ 1000 ms |`);
  console.log(`| First positions visible after navigation start, cold / reload (median of 3) | ${median(cold.map((c) => c.firstPosition)).toFixed(0)} / ${median(warm.map((c) => c.firstPosition)).toFixed(0)} ms | ≤ 1000 ms |`);
  console.log(`| Long tasks (> 50 ms) while ticking | ${result.during.length}${result.during.length ? `, longest ${Math.max(...result.during).toFixed(0)} ms` : ''} | none |`);
  console.log(`| Long tasks while the page started (for reference) | ${result.atStart.length}${result.atStart.length ? `, longest ${Math.max(...result.atStart).toFixed(0)} ms` : ''} | |`);
  console.log(`| Changes to the ${untouched.length} price rows that did not tick | ${untouchedChanges} | 0 |`);
  console.log(`| Price rows drawn of those listed | ${drawn} of ${listed} | the rows in view and a few more |`);
  console.log(`| Updates of a ticking price row on screen (${rows} rows) | ${(result.rowUpdates / rows / seconds).toFixed(1)} a second | ≤ 10 (one per stream frame) |`);
  console.log(`| Profit cells: updates, and updates twice within one frame | ${(result.profitUpdates / cells / seconds).toFixed(1)} a second per cell over ${cells} cells; ${result.profitTwiceInAFrame} twice in a frame (${result.frames} frames) | at most once per frame |`);
  console.log(`| JS heap after GC: start / end / highest | ${mb(heap[0]!.bytes)} / ${mb(heap.at(-1)!.bytes)} / ${mb(Math.max(...heap.map((s) => s.bytes)))} MB | steady |`);
  console.log(`| JS heap trend over the second half | ${(slope / 1024).toFixed(0)} KB a minute | ≈ 0 |`);
} finally {
  if (ticking) clearInterval(ticking);
  await h.close();
  if (!process.argv.includes('--keep')) rmSync(dir, { recursive: true, force: true });
}
