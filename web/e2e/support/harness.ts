import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startApp, FEED_TOKEN, ADMIN_EMAIL, ADMIN_PASSWORD, type StartOptions, type TestApp } from '../../../server/test/helpers/app';
import { Client } from '../../../server/test/helpers/client';

/**
 * What every browser test file needs: a fresh server (real database, the built web app, the push
 * feed so the test decides every price), Debian's Chromium, screenshots at the two sizes we judge
 * screens at, and an axe-core check.
 */
const here = dirname(fileURLToPath(import.meta.url));
// E2E_WEB_DIST lets a build made elsewhere (`vite build --outDir …`) be tested while web/dist is rebuilt.
export const WEB_DIST = process.env.E2E_WEB_DIST ? resolve(process.env.E2E_WEB_DIST) : resolve(here, '../../dist');
export const ARTIFACTS = resolve(here, '../artifacts');
export const DESKTOP = { width: 1440, height: 900 };
export const MOBILE = { width: 375, height: 812 };
export { ADMIN_EMAIL, ADMIN_PASSWORD, FEED_TOKEN, Client, type TestApp };

export interface Harness {
  app: TestApp;
  origin: string;
  outboxDir: string;
  browser: Browser;
  close(): Promise<void>;
}

export async function startHarness(options: { supportChatPhone?: string; market?: StartOptions['market']; config?: StartOptions['config'] } = {}): Promise<Harness> {
  const outboxDir = mkdtempSync(join(tmpdir(), 'tp-outbox-'));
  const app = await startApp({
    realClock: true,
    // A file may shorten the market's timings (e.g. how soon a quiet quote turns stale).
    market: options.market,
    config: {
      webDistDir: WEB_DIST,
      supportChatPhone: options.supportChatPhone ?? null,
      mail: { smtpUrl: null, from: 'Tradeport <no-reply@localhost>', outboxDir },
      ...options.config,
    } as never,
  });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return {
    app,
    origin: app.origin,
    outboxDir,
    browser,
    async close() {
      await browser.close().catch(() => undefined);
      await app.close();
      rmSync(outboxDir, { recursive: true, force: true });
    },
  };
}

/** A test client's cookies (its `cookieHeader`: the session, the device cookie…) for a browser context of this harness. */
export function browserCookies(h: Harness, cookieHeader: string): { name: string; value: string; url: string }[] {
  return cookieHeader
    .split('; ')
    .filter((c) => c.includes('='))
    .map((c) => {
      const [name, value] = c.split(/=(.*)/s);
      return { name: name!, value: value!, url: h.origin };
    });
}

export async function newPage(h: Harness, viewport = DESKTOP, { timezoneId = 'UTC' }: { timezoneId?: string } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await h.browser.newContext({ viewport, baseURL: h.origin, colorScheme: 'light', timezoneId, locale: 'en-US' });
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  page.on('pageerror', (err) => console.error(`[page error] ${err.message}`));
  return { context, page };
}

// As text: the test's TypeScript compiler would wrap named functions in a helper the page lacks.
const SETTLE = `(async () => {
  const deadline = performance.now() + 5000;
  // A frame, or 50 ms where the page draws none (throttled), so the wait stays within the deadline.
  const frame = () => Promise.race([new Promise((done) => requestAnimationFrame(() => done())), new Promise((done) => setTimeout(done, 50))]);
  // Done after three frames in a row with nothing finite running: styles changed just before (a
  // media emulation, a new size) start their transitions at the next frame, and components that
  // start theirs from script (Mantine's Transition) a frame or two after they mount.
  let quiet = 0;
  while (quiet < 3) {
    await frame();
    const ending = document.getAnimations().filter((a) => {
      if (a.playState !== 'running') return false;
      const end = a.effect ? a.effect.getComputedTiming().endTime : Infinity;
      return typeof end === 'number' && Number.isFinite(end);
    });
    const left = deadline - performance.now();
    if (left <= 0) return;
    if (ending.length === 0) {
      quiet += 1;
      continue;
    }
    quiet = 0;
    await Promise.race([Promise.all(ending.map((a) => a.finished.catch(() => undefined))), new Promise((done) => setTimeout(done, left))]);
  }
})()`;

/**
 * Waits until the page's finite animations and CSS transitions have ended (a theme switch or a
 * resize starts colour transitions; a dialog fades in), so a contrast check or a screenshot sees the
 * settled page however busy the machine is. Endless ones (a loader's spin) are not waited for; after
 * 5 s it gives up and lets the check judge what is there.
 */
export async function settled(page: Page): Promise<void> {
  await page.evaluate(SETTLE);
}

/**
 * Saves the screen at 1440×900 and at 375×812 (then restores the page's size); with `dark`, also
 * both sizes in the dark theme (the app follows the system's scheme until the user picks one).
 */
export async function screenshots(page: Page, name: string, options: { dark?: boolean } = {}): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const original = page.viewportSize() ?? DESKTOP;
  const schemes = options.dark ? (['light', 'dark'] as const) : (['light'] as const);
  for (const scheme of schemes) {
    if (scheme === 'dark') await page.emulateMedia({ colorScheme: 'dark' });
    for (const [label, size] of [['desktop', DESKTOP], ['mobile', MOBILE]] as const) {
      await page.setViewportSize(size);
      await page.waitForTimeout(250);
      await settled(page);
      await page.screenshot({ path: join(ARTIFACTS, `${name}-${label}${scheme === 'dark' ? '-dark' : ''}.png`), fullPage: false, animations: 'disabled' });
    }
  }
  if (options.dark) await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize(original);
  // Let colour transitions finish, so a following contrast check reads the settled colours.
  await page.waitForTimeout(300);
}

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Runs axe-core on the page, or only on the parts `include` selects (a panel and its dialogs);
 * returns the serious and critical violations (none expected).
 */
export async function seriousA11yViolations(page: Page, include?: string[]): Promise<string[]> {
  // Colours judged mid-transition (a theme just switched) would fail or pass by the machine's speed.
  await settled(page);
  await page.evaluate(axeSource);
  const results = await page.evaluate(async (selectors) => {
    const axe = (window as unknown as { axe: { run: (ctx: Document | { include: string[][] }, opts: object) => Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: string[]; html: string }[] }[] }> } }).axe;
    const present = selectors?.filter((s) => document.querySelector(s));
    return axe.run(present ? { include: present.map((s) => [s]) } : document, { resultTypes: ['violations'] });
  }, include ?? null);
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => `${n.target.join(' ')} ${n.html.slice(0, 160)}`).join(' | ')}`);
}

/** Prices pushed through the feed endpoint, as a price bridge would. */
export async function pushTicks(h: Harness, ticks: { symbol: string; bid: number; ask: number }[]): Promise<void> {
  const res = await fetch(`${h.origin}/api/feed/ticks`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${FEED_TOKEN}` }, body: JSON.stringify({ ticks }) });
  if (!res.ok) throw new Error(`push refused: ${res.status} ${await res.text()}`);
}

let counter = 0;
/** A new trader through the API (faster than the form where the form is not the subject). */
export async function createTrader(h: Harness, overrides: Partial<{ firstName: string; lastName: string; email: string; password: string }> = {}) {
  counter += 1;
  const trader = { firstName: 'Ada', lastName: 'Lovelace', phoneNo: '447700900123', email: `trader${counter}.${Date.now()}@example.com`, password: 'Tr4ding-Pass-2026', country_id: '826', ...overrides };
  const client = new Client(h.app);
  const reg = await client.request('POST', '/registration.php', { body: JSON.stringify(trader), headers: { 'content-type': 'application/json' } });
  if (reg.status !== 200) throw new Error(`registration failed: ${JSON.stringify(reg.body)}`);
  const login = await client.request('POST', '/login.php', { body: JSON.stringify({ email: trader.email, password: trader.password }), headers: { 'content-type': 'application/json' } });
  if (login.status !== 200) throw new Error(`login failed: ${JSON.stringify(login.body)}`);
  const session = await client.request('GET', '/testSession.php');
  return { ...trader, id: session.body.user.id as number, client };
}

export async function adminClient(h: Harness): Promise<Client> {
  const client = new Client(h.app);
  const login = await client.request('POST', '/login.php', { body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }), headers: { 'content-type': 'application/json' } });
  if (login.status !== 200) throw new Error(`admin login failed: ${JSON.stringify(login.body)}`);
  return client;
}

export async function postJson(client: Client, path: string, body: object) {
  return client.request('POST', path, { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
}

/** Adds an active payment account as the admin and returns its id. */
export async function addPaymentAccount(admin: Client): Promise<number> {
  const added = await postJson(admin, '/dashboard/admin/addNewPayments.php', { name: 'Wire transfer', number: 'DE44 5001 0517 5407 3249 31', moreInfo: 'Quote your trader id.' });
  if (added.status !== 200) throw new Error(`adding a payment account failed: ${JSON.stringify(added.body)}`);
  return added.body.id as number;
}

/** Deposits `amount` USD for the trader and approves it as the admin. */
export async function approvedDeposit(trader: Client, admin: Client, gateway: number, amount: string): Promise<void> {
  const d = await postJson(trader, '/platform/addDeposite.php', { depositAmount: amount, paymentAccount: '1234', payment_getways_id: gateway });
  if (d.status !== 200) throw new Error(`the deposit failed: ${JSON.stringify(d.body)}`);
  const a = await postJson(admin, '/dashboard/admin/editStatusDeposite.php', { deposites_id: d.body.id, status: 1 });
  if (a.status !== 200) throw new Error(`approving the deposit failed: ${JSON.stringify(a.body)}`);
}

/** The mails the server wrote to its dev outbox, oldest first. */
export function outbox(h: Harness): { to: string; subject: string; text: string }[] {
  return readdirSync(h.outboxDir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(h.outboxDir, f), 'utf8')) as { to: string; subject: string; text: string });
}

/**
 * Daily candles imported as history through the candle store (stored, and the newest two kept in its
 * memory as after a restart), so charts, the technical summary and the
 * market summary have a history to show (the push feed starts with none). A seeded walk, same every run.
 */
export async function seedDailyCandles(h: Harness, symbol: string, options: { days?: number; start?: number; digits?: number } = {}): Promise<void> {
  const days = options.days ?? 260;
  const digits = options.digits ?? 5;
  const round = (v: number) => Number(v.toFixed(digits));
  const dayMs = 86_400_000;
  const today = Math.floor(Date.now() / dayMs) * dayMs;
  let seed = 42;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  let close = options.start ?? 1.08;
  const rows = [];
  for (let i = days; i >= 1; i--) {
    const open = close;
    close = open * (1 + (random() - 0.48) * 0.012);
    const high = Math.max(open, close) * (1 + random() * 0.004);
    const low = Math.min(open, close) * (1 - random() * 0.004);
    rows.push({ symbol, period: 'D1', time: today - i * dayMs, open: round(open), high: round(high), low: round(low), close: round(close), volume: Math.round(1000 + random() * 5000) });
  }
  await h.app.app.market.candles.importHistory(rows);
}
