/**
 * `npm run bench:web`: Lighthouse 12's default mobile profile (a mid-range phone: 4× CPU slowdown,
 * slow 4G, simulated) against the production server — `npm start`'s process (server/src/main.ts,
 * its logger, the simulated feed ticking) on a fresh SQLite database with a year of simulated
 * history, the built web app, and a signed-in trader with a funded account, open positions and a
 * trade history. Pages: sign-in, the dashboard home and the terminal. Each page is measured
 * `--runs=N` times (default 3) and the median run (by performance score) is reported as a
 * markdown table on stdout; progress goes to stderr.
 *
 * Chromium is Debian's (`CHROME_PATH`, default /usr/bin/chromium). Run `npm run build` first, or
 * pass `--build`. `--serve` only starts and seeds the server and leaves it running (for profiling
 * by hand); `--save=DIR` keeps the full reports.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { machine } from '../../server/bench/bench-util';
import { arg, log, startProductionServer } from './production-server';

const RUNS = Number(arg('runs', '3'));
const PAGES = arg('pages', 'sign-in,dashboard,terminal').split(',');
/** `--save=DIR` keeps each run's full Lighthouse report (JSON) there, for a closer look. */
const SAVE_DIR = arg('save', '');
/** `--dist=DIR` serves a build made elsewhere (`vite build --outDir DIR`) instead of web/dist. */
const DIST = arg('dist', '');
interface PageResult {
  score: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  siMs: number;
  longestTaskMs: number;
  requests: number;
  scriptKiB: number;
  totalKiB: number;
  unauthorized: number;
  /** Lighthouse's own failure of the run (`runtimeError`, e.g. NO_FCP), whose metrics mean nothing. */
  error: string | null;
}

async function measure(url: string, port: number, cookie: string | null): Promise<PageResult> {
  const result = await lighthouse(
    url,
    { port, output: 'json', logLevel: 'error', onlyCategories: ['performance'], ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}) },
    undefined,
  );
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const lhr = result.lhr;
  if (SAVE_DIR) {
    mkdirSync(SAVE_DIR, { recursive: true });
    writeFileSync(join(SAVE_DIR, `${new URL(url).pathname.replace(/\W+/g, '_') || 'root'}-${Date.now()}.json`), JSON.stringify(lhr));
  }
  const num = (id: string) => Number(lhr.audits[id]?.numericValue ?? Number.NaN);
  const items = (id: string) => ((lhr.audits[id]?.details as { items?: Record<string, unknown>[] } | undefined)?.items ?? []);
  const requests = items('network-requests');
  const bytes = (filter: (r: Record<string, unknown>) => boolean) => requests.filter(filter).reduce((s, r) => s + Number(r.transferSize ?? 0), 0) / 1024;
  return {
    score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    fcpMs: num('first-contentful-paint'),
    lcpMs: num('largest-contentful-paint'),
    tbtMs: num('total-blocking-time'),
    cls: num('cumulative-layout-shift'),
    siMs: num('speed-index'),
    longestTaskMs: Math.max(0, ...items('long-tasks').map((t) => Number(t.duration ?? 0))),
    requests: requests.length,
    scriptKiB: bytes((r) => r.resourceType === 'Script'),
    totalKiB: bytes(() => true),
    unauthorized: requests.filter((r) => Number(r.statusCode) === 401).length,
    error: lhr.runtimeError ? `${lhr.runtimeError.code}: ${lhr.runtimeError.message}` : null,
  };
}

async function main(): Promise<void> {
  let chrome: chromeLauncher.LaunchedChrome | null = null;
  // Stopped at any point (Ctrl-C, or a plain kill, even while the server is starting), the run ends
  // its Chromium, and process.exit ends its server (production-server.ts), instead of leaving them
  // loading the machine. With --serve, the signals stop the server below instead.
  const interrupted = (signal: NodeJS.Signals) => {
    chrome?.kill();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  if (!process.argv.includes('--serve')) {
    process.once('SIGINT', interrupted);
    process.once('SIGTERM', interrupted);
  }
  const server = await startProductionServer({ dist: DIST, build: process.argv.includes('--build') });
  try {
    const { origin, cookie } = server;
    if (process.argv.includes('--serve')) {
      // For profiling by hand: the same server and trader, left running until Ctrl-C.
      log(`serving ${origin}; the trader's cookie: ${cookie}; Ctrl-C (or SIGTERM) stops`);
      // Either signal stops the server too: a plain `kill` of this process left it running, feed and all.
      await new Promise<void>((stop) => {
        process.once('SIGINT', () => stop());
        process.once('SIGTERM', () => stop());
      });
      return;
    }
    chrome = await chromeLauncher.launch({
      chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
      chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    const pages: Record<string, { path: string; signedIn: boolean }> = {
      'sign-in': { path: '/', signedIn: false },
      dashboard: { path: '/dashboard/home', signedIn: true },
      terminal: { path: '/trading', signedIn: true },
    };
    const rows: string[] = [];
    for (const name of PAGES) {
      const p = pages[name];
      if (!p) throw new Error(`unknown page ${name}`);
      const runs: PageResult[] = [];
      // A run Lighthouse itself failed (its score is 0) is reported and made again, at most RUNS times over.
      const failures: string[] = [];
      for (let i = 0; runs.length < RUNS && failures.length < RUNS; i = runs.length) {
        const r = await measure(`${origin}${p.path}`, chrome.port, p.signedIn ? cookie : null);
        if (r.error) {
          log(`${name} run ${i + 1}/${RUNS} failed in Lighthouse (${r.error}); measuring again`);
          failures.push(r.error.split(':')[0]!);
          continue;
        }
        if (r.unauthorized > 0) throw new Error(`${name}: ${r.unauthorized} requests were refused 401: the trader's session did not reach the page`);
        log(`${name} run ${i + 1}/${RUNS}: performance ${r.score}, LCP ${Math.round(r.lcpMs)} ms, TBT ${Math.round(r.tbtMs)} ms, longest task ${Math.round(r.longestTaskMs)} ms`);
        runs.push(r);
      }
      if (runs.length === 0) throw new Error(`${name}: every run failed in Lighthouse (${failures.join(', ')})`);
      runs.sort((a, b) => a.score - b.score);
      const m = runs[runs.length >> 1]!;
      const failed = failures.length ? `; ${failures.length} failed run${failures.length > 1 ? 's' : ''} left out (${[...new Set(failures)].join(', ')})` : '';
      rows.push(
        `| \`${p.path}\` ${name} | **${m.score}** (${runs.map((r) => r.score).join(', ')}${failed}) | ${(m.fcpMs / 1000).toFixed(1)} s | ${(m.lcpMs / 1000).toFixed(1)} s | ${Math.round(m.tbtMs)} ms | ${m.cls.toFixed(3)} | ${(m.siMs / 1000).toFixed(1)} s | ${Math.round(m.longestTaskMs)} ms | ${m.requests} | ${m.scriptKiB.toFixed(0)} KiB | ${m.totalKiB.toFixed(0)} KiB |`,
      );
    }
    console.log(`Lighthouse ${'12.2.3'} mobile (simulated: 4× CPU slowdown, slow 4G), Chromium at ${process.env.CHROME_PATH ?? '/usr/bin/chromium'}; ${machine()}; median of ${RUNS} runs per page (all scores in brackets).\n`);
    console.log('| page | performance | FCP | LCP | TBT | CLS | speed index | longest task | requests | script | all |');
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const row of rows) console.log(row);
  } finally {
    if (chrome) chrome.kill();
    await server.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
