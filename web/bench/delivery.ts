/**
 * `npm run bench:delivery -w web`: what the browser downloads, as it receives it. For sign-in and
 * the terminal (signed in as the seeded trader), every script response until the network has been
 * idle for 2 s — lazy chunks included — counted by the bytes on the wire (compressed, as served)
 * and by file; and the time until sign-in is usable (its Sign In button shown and enabled) under
 * CDP network throttling of 150 ms round trip and 1.6 Mbit/s, with an empty cache. Against the
 * production server of `production-server.ts`; Debian's Chromium driven by playwright-core.
 * Budgets (issue 16): sign-in ≤ 150 KB of script in at most 30 files; the terminal ≤ 300 KB.
 */
import { chromium, type Page } from 'playwright-core';
import { machine } from '../../server/bench/bench-util';
import { arg, log, startProductionServer } from './production-server';

const KB = 1024;
const BUDGETS = { 'sign-in': { bytes: 150 * KB, files: 30 }, terminal: { bytes: 300 * KB, files: Infinity } } as const;
const RUNS = Number(arg('runs', '3'));
/** `--files` lists every script of the first run by its bytes on the wire, largest first (stderr). */
const LIST_FILES = process.argv.includes('--files');
/** `--pages=terminal` measures only the named pages (default both). */
const PAGES = arg('pages', 'sign-in,terminal').split(',');

interface Delivery {
  scriptBytes: number;
  scriptFiles: number;
  allBytes: number;
  usableMs: number | null;
  /** Each script received: its path and bytes on the wire. */
  scripts: { url: string; bytes: number }[];
}

/** Loads `path` in a fresh context and counts what arrives until the network is quiet. */
async function measure(page: Page, origin: string, path: string, throttled: boolean, ready: (page: Page) => Promise<void>): Promise<Delivery> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (throttled) {
    // 1.6 Mbit/s down, 750 kbit/s up, 150 ms round trip: DevTools' "slow 4G" figures.
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 });
  }
  const types = new Map<string, { type: string; url: string }>();
  const scripts: { url: string; bytes: number }[] = [];
  let scriptBytes = 0;
  let scriptFiles = 0;
  let allBytes = 0;
  let lastActivity = Date.now();
  let inFlight = 0;
  cdp.on('Network.requestWillBeSent', () => {
    inFlight++;
    lastActivity = Date.now();
  });
  cdp.on('Network.responseReceived', (e: { requestId: string; type: string; response: { url: string } }) => void types.set(e.requestId, { type: e.type, url: new URL(e.response.url).pathname }));
  cdp.on('Network.loadingFinished', (e: { requestId: string; encodedDataLength: number }) => {
    inFlight--;
    lastActivity = Date.now();
    allBytes += e.encodedDataLength;
    const response = types.get(e.requestId);
    if (response?.type === 'Script') {
      scripts.push({ url: response.url, bytes: e.encodedDataLength });
      scriptBytes += e.encodedDataLength;
      scriptFiles++;
    }
  });
  cdp.on('Network.loadingFailed', () => {
    inFlight--;
    lastActivity = Date.now();
  });
  const started = Date.now();
  await page.goto(`${origin}${path}`, { waitUntil: 'commit' });
  await ready(page);
  const usableMs = Date.now() - started;
  // Network idle: nothing in flight (the stream's socket aside) for 2 s.
  while (!(inFlight <= 0 && Date.now() - lastActivity > 2000)) await page.waitForTimeout(100);
  await cdp.detach();
  return { scriptBytes, scriptFiles, allBytes, usableMs, scripts };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

async function main(): Promise<void> {
  const server = await startProductionServer({ dist: arg('dist', ''), build: process.argv.includes('--build') });
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const signInReady = async (page: Page) => {
      const button = page.getByRole('button', { name: 'Sign In' });
      await button.waitFor({ timeout: 60_000 });
      await page.waitForFunction(() => !document.querySelector('button[type="submit"]')?.hasAttribute('disabled'), undefined, { timeout: 60_000 });
    };
    const terminalReady = async (page: Page) => {
      // The first live price in the price table.
      await page.waitForFunction(() => [...document.querySelectorAll('[data-testid^="price-row-"] [data-testid="bid"]')].some((cell) => /\d\.\d{2,}/.test(cell.textContent ?? '')), undefined, { timeout: 60_000 });
    };
    const rows: string[] = [];
    for (const [name, path, ready, signedIn] of [
      ['sign-in', '/', signInReady, false],
      ['terminal', '/trading', terminalReady, true],
    ] as const) {
      if (!PAGES.includes(name)) continue;
      const runs: Delivery[] = [];
      for (let i = 0; i < RUNS; i++) {
        const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
        if (signedIn) {
          const [cookieName, value] = server.cookie.split('=') as [string, string];
          await context.addCookies([{ name: cookieName, value, url: server.origin }]);
        }
        const page = await context.newPage();
        const d = await measure(page, server.origin, path, true, ready);
        log(`${name} run ${i + 1}/${RUNS}: ${(d.scriptBytes / KB).toFixed(1)} KB of script in ${d.scriptFiles} files, usable after ${d.usableMs} ms`);
        runs.push(d);
        await context.close();
      }
      const d = runs[0]!;
      if (LIST_FILES) for (const f of [...d.scripts].sort((a, b) => b.bytes - a.bytes)) log(`  ${(f.bytes / KB).toFixed(1).padStart(6)} KB  ${f.url}`);
      const budget = BUDGETS[name];
      const within = d.scriptBytes <= budget.bytes && d.scriptFiles <= budget.files;
      rows.push(
        `| ${name} (\`${path}\`) | ${(d.scriptBytes / KB).toFixed(1)} KB | ${d.scriptFiles} | ${(d.allBytes / KB).toFixed(1)} KB | ${(median(runs.map((r) => r.usableMs ?? Number.NaN)) / 1000).toFixed(2)} s | ${(budget.bytes / KB).toFixed(0)} KB${Number.isFinite(budget.files) ? `, ${budget.files} files` : ''}: ${within ? 'within' : '**over**'} |`,
      );
    }
    console.log(`Web delivery as Chromium receives it (every script until the network is idle, compressed bytes on the wire), throttled to 150 ms RTT and 1.6 Mbit/s, empty cache; ${machine()}; usable time is the median of ${RUNS} runs.\n`);
    console.log('| page | script | script files | everything | usable after | budget |');
    console.log('|---|---:|---:|---:|---:|---|');
    for (const row of rows) console.log(row);
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
