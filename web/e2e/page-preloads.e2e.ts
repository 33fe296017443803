import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page, Request } from 'playwright-core';
import { adminClient, browserCookies, createTrader, DESKTOP, MOBILE, startHarness, type Harness } from './support/harness';

/**
 * A signed-in page's HTML names the modules it loads lazily and the reads it makes as it opens
 * (server/src/plugins/web-app.ts, from the build's route-preloads.json), so they download with the
 * page. Each must be what the app then asks for, in the same mode: the browser hands the preloaded
 * answer to the app, nothing is fetched twice, and nothing is preloaded for nothing.
 */
describe('what a signed-in page names for early download is used, once', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => {
    await h.close();
  });

  /** A phone says so in its client hints; the server picks the layout's files by them. */
  const PHONE = { viewport: MOBILE, isMobile: true, hasTouch: true, extraHTTPHeaders: { 'sec-ch-ua-mobile': '?1' } };
  const COMPUTER = { viewport: DESKTOP, extraHTTPHeaders: { 'sec-ch-ua-mobile': '?0' } };

  async function open(cookie: string, path: string, device: typeof PHONE | typeof COMPUTER, ready: (page: Page) => Promise<void>) {
    const context = await h.browser.newContext({ ...device, baseURL: h.origin, colorScheme: 'light', timezoneId: 'UTC', locale: 'en-US' });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    await context.addCookies(browserCookies(h, cookie));
    const requests: Request[] = [];
    const warnings: string[] = [];
    page.on('request', (r) => requests.push(r));
    page.on('console', (m) => {
      if (/preload/i.test(m.text())) warnings.push(m.text());
    });
    const response = await page.goto(path);
    const html = (await response?.text()) ?? '';
    await ready(page);
    // Chromium says so in the console when a preload is not used within a few seconds of the load.
    await page.waitForTimeout(3_500);
    await context.close();
    const named = {
      reads: [...html.matchAll(/<link rel="preload" as="fetch" crossorigin="anonymous" href="([^"]+)">/g)].map((m) => m[1]!.replace(/&amp;/g, '&')),
      modules: [...html.matchAll(/<link rel="modulepreload"[^>]* href="([^"]+)">/g)].map((m) => m[1]!),
    };
    const count = (url: string) => requests.filter((r) => new URL(r.url()).pathname + new URL(r.url()).search === url).length;
    return { named, count, warnings, requests };
  }

  const expectUsedOnce = (r: Awaited<ReturnType<typeof open>>) => {
    for (const url of [...r.named.reads, ...r.named.modules]) assert.equal(r.count(url), 1, `${url} was asked for ${r.count(url)} times`);
    assert.deepEqual(r.warnings, []);
  };

  test("the trader's dashboard home: its profile and trade history come with the page and are the app's own reads", async () => {
    const trader = await createTrader(h);
    const r = await open(trader.client.cookieHeader, '/dashboard/home', COMPUTER, async (page) => {
      await page.getByTestId('account-balance').waitFor();
      await page.getByRole('heading', { name: 'History Trade' }).waitFor();
    });
    assert.deepEqual(r.named.reads, ['/api/dashboard/customer/getProfileDetails.php', '/api/dashboard/customer/getTradesHistory.php']);
    assert.ok(r.named.modules.length >= 3, 'the layout, shell and page are named');
    expectUsedOnce(r);
  });

  test("the administrator's home names the profile only, and uses it", async () => {
    const admin = await adminClient(h);
    const r = await open(admin.cookieHeader, '/dashboard/home', COMPUTER, async (page) => {
      await page.getByTestId('account-name').waitFor();
    });
    assert.deepEqual(r.named.reads, ['/api/dashboard/customer/getProfileDetails.php']);
    expectUsedOnce(r);
  });

  test("the terminal's first reads, on a desktop and on a phone, are each asked for once", async () => {
    const trader = await createTrader(h);
    for (const device of [COMPUTER, PHONE]) {
      const r = await open(trader.client.cookieHeader, '/trading', device, async (page) => {
        await page.getByRole('table').first().waitFor();
        await page.waitForLoadState('networkidle');
      });
      // A phone's page carries the symbols its first screen shows (e2e/page-frames.e2e.ts): they are neither preloaded nor asked for.
      const symbols = '/api/platform/getMainCurrencies.php';
      assert.deepEqual(r.named.reads.sort(), [...(device === PHONE ? [] : [symbols]), '/api/platform/getMargins.php', '/api/platform/getPendingOrders.php?status=pending', '/api/platform/getTrades.php']);
      if (device === PHONE) assert.equal(r.count(symbols), 0, 'the symbols came with the page');
      expectUsedOnce(r);
      // The layout's own files are among them: the phone's or the desktop's.
      assert.ok(r.named.modules.some((m) => (device === PHONE ? /phone-terminal/ : /trading-page/).test(m)), r.named.modules.join(' '));
    }
  });
});
