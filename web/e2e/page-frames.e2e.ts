import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page, Request, Route } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { adminClient, ARTIFACTS, createTrader, DESKTOP, MOBILE, seriousA11yViolations, startHarness, type Harness } from './support/harness';

/**
 * A phone opening the dashboard home signed in gets the page's first paint in the document itself
 * (src/page-frames.tsx, put in by server/src/plugins/web-app.ts): the header, the menu button, the
 * page's title and description, before any script has run. The app then replaces it with the same
 * page, where it stood, without a loading screen in between, and the page's modules, named for
 * after that first paint, are each fetched once.
 */
describe("a phone's first paint of a signed-in page comes with the page", () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => {
    await h.close();
  });

  /** A phone says so in its client hints; the server sends frames to phones only. */
  const PHONE = { viewport: MOBILE, isMobile: true, hasTouch: true, extraHTTPHeaders: { 'sec-ch-ua-mobile': '?1' } };

  async function phonePage(browser: Browser, cookie: string, colorScheme: 'light' | 'dark' = 'light') {
    const context = await browser.newContext({ ...PHONE, baseURL: h.origin, colorScheme, timezoneId: 'UTC', locale: 'en-US' });
    context.setDefaultTimeout(15_000);
    const [name, value] = cookie.split(/=(.*)/s);
    await context.addCookies([{ name: name!, value: value!, url: h.origin }]);
    const page = await context.newPage();
    page.on('pageerror', (err) => console.error(`[page error] ${err.message}`));
    return { context, page };
  }

  const boxes = (page: Page) =>
    page.evaluate(() =>
      ['h1', 'header'].map((selector) => {
        const r = document.querySelector(selector)?.getBoundingClientRect();
        return r ? { selector, x: r.x, y: r.y, width: Math.round(r.width), height: Math.round(r.height) } : null;
      }),
    );

  test("before any script runs, the trader's home shows its header, title, description and a loader, in light and dark", async () => {
    const trader = await createTrader(h);
    for (const scheme of ['light', 'dark'] as const) {
      const { context, page } = await phonePage(h.browser, trader.client.cookieHeader, scheme);
      await page.route('**/assets/*.js', (route) => route.abort());
      await page.goto('/dashboard/home');
      await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
      await page.getByText('Your account at a glance, the markets you follow and your closed trades.').waitFor();
      assert.equal(await page.getByTestId('connection-state').textContent(), 'Connecting');
      assert.ok(await page.getByRole('status', { name: 'Loading' }).isVisible(), 'a loader stands for the data');
      assert.ok(await page.getByRole('link', { name: 'Tradeport dashboard' }).isVisible());
      // The colour scheme's switch shows the icon for this scheme only.
      const visibleIcons = await page.locator('.tp-scheme-dark-only, .tp-scheme-light-only').evaluateAll((icons) => icons.filter((i) => getComputedStyle(i).display !== 'none').map((i) => i.getAttribute('class')));
      assert.equal(visibleIcons.length, 1);
      assert.match(visibleIcons[0]!, scheme === 'dark' ? /tp-scheme-dark-only/ : /tp-scheme-light-only/);
      assert.deepEqual(await seriousA11yViolations(page), []);
      // The frame as a phone shows it, and as a wider window would (it has the side menu too).
      mkdirSync(ARTIFACTS, { recursive: true });
      const suffix = scheme === 'dark' ? '-dark' : '';
      await page.screenshot({ path: join(ARTIFACTS, `page-frame-dashboard-home-mobile${suffix}.png`), animations: 'disabled' });
      await page.setViewportSize(DESKTOP);
      await page.waitForTimeout(250);
      await page.screenshot({ path: join(ARTIFACTS, `page-frame-dashboard-home-desktop${suffix}.png`), animations: 'disabled' });
      await context.close();
    }
  });

  test("an administrator's frame is the back office's home", async () => {
    const admin = await adminClient(h);
    const { context, page } = await phonePage(h.browser, admin.cookieHeader);
    await page.route('**/assets/*.js', (route) => route.abort());
    await page.goto('/dashboard/home');
    await page.getByText('The back office at a glance.').waitFor();
    assert.equal(await page.getByRole('link', { name: 'Web Terminal' }).count(), 0);
    await context.close();
  });

  test('the app takes the frame over where it stands, with no loading screen between, and the page works', async () => {
    const trader = await createTrader(h);
    const { context, page } = await phonePage(h.browser, trader.client.cookieHeader);
    // Whether the app's loading screen ever shows, from the document's start.
    await page.addInitScript(() => {
      const w = window as unknown as { sawLoadingScreen: boolean };
      w.sawLoadingScreen = false;
      new MutationObserver(() => {
        if (document.querySelector('#root p')?.textContent === 'Loading...') w.sawLoadingScreen = true;
      }).observe(document, { childList: true, subtree: true, characterData: true });
    });
    // The entry is held back until the frame has been measured, and the home page's module a while
    // longer: the app runs while its page is still on the way, as on a slow link.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/index-[^/]+\.js$/, async (route: Route) => {
      await held;
      await route.continue();
    });
    await page.route(/\/assets\/home-page-[^/]+\.js$/, async (route: Route) => {
      await held;
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await route.continue();
    });
    const requests: Request[] = [];
    page.on('request', (r) => requests.push(r));
    const response = await page.goto('/dashboard/home', { waitUntil: 'commit' });
    const html = (await response?.text()) ?? '';
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    const frame = await boxes(page);
    assert.ok(await page.locator('#root[data-page-frame]').count(), 'the frame is on screen');
    release();

    await page.getByTestId('account-balance').waitFor();
    assert.equal(await page.locator('#root[data-page-frame] header').count(), 1, 'the root element keeps its mark; its content is the app now');
    assert.deepEqual(await boxes(page), frame, 'the title and the header stand where the frame had them');
    assert.equal(await page.evaluate(() => (window as unknown as { sawLoadingScreen: boolean }).sawLoadingScreen), false, 'no loading screen between the frame and the page');
    // The menu button is the app's now: it opens the menu.
    await page.getByRole('button', { name: 'Open the menu' }).click();
    await page.getByRole('link', { name: 'Dashboard' }).first().waitFor();

    // The modules named for after the first paint are the app's own, each fetched once.
    const modules = [...html.matchAll(/<link rel="modulepreload"[^>]* href="([^"]+)">/g)].map((m) => m[1]!);
    assert.ok(modules.length >= 3, 'the layout, shell and page are named');
    assert.ok(/<template id="after-first-paint">/.test(html), 'in the template that waits for the first paint');
    await page.waitForTimeout(3_000);
    for (const url of modules) assert.equal(requests.filter((r) => new URL(r.url()).pathname === url).length, 1, `${url} fetched once`);
    await context.close();
  });
});
