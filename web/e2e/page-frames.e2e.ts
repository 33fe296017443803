import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page, Request, Route } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { adminClient, ARTIFACTS, browserCookies, createTrader, DESKTOP, MOBILE, pushTicks, seriousA11yViolations, startHarness, type Harness } from './support/harness';

/** A phone says so in its client hints; the server sends frames to phones only. */
const PHONE = { viewport: MOBILE, isMobile: true, hasTouch: true, extraHTTPHeaders: { 'sec-ch-ua-mobile': '?1' } };

/** A signed-in phone's page, in a context of its own. */
async function phonePage(h: Harness, cookie: string, colorScheme: 'light' | 'dark' = 'light') {
  const context = await h.browser.newContext({ ...PHONE, baseURL: h.origin, colorScheme, timezoneId: 'UTC', locale: 'en-US' });
  context.setDefaultTimeout(15_000);
  await context.addCookies(browserCookies(h, cookie));
  const page = await context.newPage();
  page.on('pageerror', (err) => console.error(`[page error] ${err.message}`));
  return { context, page };
}

/**
 * Holds the app's entry back until the returned function is called (the frame can be measured
 * meanwhile), and the page's own module `pageModule` 1.5 s longer: the app runs while its page is
 * still on the way, as on a slow link.
 */
async function holdTheApp(page: Page, pageModule: RegExp): Promise<() => void> {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/index-[^/]+\.js$/, async (route: Route) => {
    await held;
    await route.continue();
  });
  await page.route(pageModule, async (route: Route) => {
    await held;
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await route.continue();
  });
  return release;
}

/**
 * Whether the page's style sheets are in: a box read before then is laid out without them (the
 * frame does not paint until they are, but a script may measure it).
 */
const styled = (page: Page) => page.waitForFunction(() => [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].every((link) => link.sheet !== null));

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
      const { context, page } = await phonePage(h, trader.client.cookieHeader, scheme);
      await page.route('**/assets/*.js', (route) => route.abort());
      await page.goto('/dashboard/home');
      await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
      await page.getByText('Your account at a glance, the markets you follow and your closed trades.').waitFor();
      await styled(page);
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
    const { context, page } = await phonePage(h, admin.cookieHeader);
    await page.route('**/assets/*.js', (route) => route.abort());
    await page.goto('/dashboard/home');
    await page.getByText('The back office at a glance.').waitFor();
    assert.equal(await page.getByRole('link', { name: 'Web Terminal' }).count(), 0);
    await context.close();
  });

  test('the app takes the frame over where it stands, with no loading screen between, and the page works', async () => {
    const trader = await createTrader(h);
    const { context, page } = await phonePage(h, trader.client.cookieHeader);
    // Whether the app's loading screen ever shows, from the document's start.
    await page.addInitScript(() => {
      const w = window as unknown as { sawLoadingScreen: boolean };
      w.sawLoadingScreen = false;
      new MutationObserver(() => {
        if (document.querySelector('#root p')?.textContent === 'Loading...') w.sawLoadingScreen = true;
      }).observe(document, { childList: true, subtree: true, characterData: true });
    });
    const release = await holdTheApp(page, /\/assets\/home-page-[^/]+\.js$/);
    const requests: Request[] = [];
    page.on('request', (r) => requests.push(r));
    const response = await page.goto('/dashboard/home', { waitUntil: 'commit' });
    const html = (await response?.text()) ?? '';
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await styled(page);
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

/**
 * A trader's phone opening the terminal gets its first screen in the document: the price table's
 * first page with the server's quotes of that moment (rendered per request by the server with the
 * web build's frames module), so the prices show before the app's script has arrived. The app starts
 * from the same symbols and quotes (carried in the page) and takes the table over in place.
 */
describe("a phone's terminal comes with its prices", () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => {
    await h.close();
  });

  /** Quotes for the first page of Forex, as the feed last gave them. */
  const FOREX = [
    ['EURUSD', 1.08512],
    ['GBPUSD', 1.26431],
    ['USDJPY', 151.234],
    ['USDCHF', 0.88127],
    ['AUDUSD', 0.65318],
    ['USDCAD', 1.36042],
    ['NZDUSD', 0.59871],
    ['EURGBP', 0.85826],
    ['EURJPY', 164.105],
    ['GBPJPY', 191.207],
    ['AUDJPY', 98.781],
    ['EURCHF', 0.95629],
    ['CHFJPY', 171.602],
    ['EURAUD', 1.66128],
  ] as const;
  const tickForex = (h: Harness) => pushTicks(h, FOREX.map(([symbol, bid]) => ({ symbol, bid, ask: Number((bid * 1.00002).toFixed(bid > 50 ? 3 : 5)) })));

  /** Where each of the first rows stands. */
  const rowBoxes = (page: Page) =>
    page.evaluate(() =>
      [...document.querySelectorAll('[data-testid^="price-row-"]')].slice(0, 5).map((row) => {
        const r = row.getBoundingClientRect();
        return { row: row.getAttribute('data-testid'), x: r.x, y: r.y, width: Math.round(r.width), height: Math.round(r.height) };
      }),
    );

  test("before any script runs, the trader's terminal shows the price table with the server's quotes, the header and the tab bar, in light and dark", async () => {
    const trader = await createTrader(h);
    await tickForex(h);
    for (const scheme of ['light', 'dark'] as const) {
      const { context, page } = await phonePage(h, trader.client.cookieHeader, scheme);
      await page.route('**/assets/*.js', (route) => route.abort());
      await page.goto('/trading');
      await page.getByRole('heading', { level: 1, name: 'Prices' }).waitFor();
      await styled(page);
      assert.equal(await page.getByTestId('connection-state').textContent(), 'Connecting');
      assert.equal(await page.getByTestId('prices-delayed').count(), 0, 'not Delayed while the first connection is made (the header says Connecting)');
      const eurusd = page.getByTestId('price-row-EURUSD');
      assert.equal(await eurusd.getByTestId('bid').textContent(), '1.08512', "the server's bid");
      assert.equal(await eurusd.getByTestId('ask').textContent(), '1.08514', "the server's ask");
      assert.equal(await page.getByTestId('price-row-USDJPY').getByTestId('bid').textContent(), '151.234', 'with the symbol\'s digits');
      assert.ok((await page.locator('[data-testid^="price-row-"]').count()) >= 10, 'the first page of Forex');
      assert.equal(await page.locator('[data-testid^="price-row-BTC"]').count(), 0, 'only the first group');
      assert.ok(await page.getByTestId('phone-tab-prices').isVisible());
      // The phone terminal's own style sheets are the page's: the tab bar sits at the foot of the screen.
      const bar = await page.getByRole('navigation', { name: 'Terminal' }).boundingBox();
      assert.ok(bar && Math.abs(bar.y + bar.height - MOBILE.height) < 2, `the tab bar is at the bottom (${JSON.stringify(bar)})`);
      assert.deepEqual(await seriousA11yViolations(page), []);
      mkdirSync(ARTIFACTS, { recursive: true });
      const suffix = scheme === 'dark' ? '-dark' : '';
      await page.screenshot({ path: join(ARTIFACTS, `page-frame-terminal-mobile${suffix}.png`), animations: 'disabled' });
      await page.setViewportSize(DESKTOP);
      await page.waitForTimeout(250);
      await page.screenshot({ path: join(ARTIFACTS, `page-frame-terminal-desktop${suffix}.png`), animations: 'disabled' });
      await context.close();
    }
  });

  test('the app takes the price table over where it stands, never showing a loader, without asking for the symbols again, and the terminal works', async () => {
    const trader = await createTrader(h);
    await tickForex(h);
    const { context, page } = await phonePage(h, trader.client.cookieHeader);
    // Whether a loading screen or a loader ever shows in the page once the frame is in.
    await page.addInitScript(() => {
      const w = window as unknown as { sawLoader: string[] };
      w.sawLoader = [];
      new MutationObserver(() => {
        if (!document.querySelector('#root[data-page-frame]')) return;
        if (document.querySelector('#root p')?.textContent === 'Loading...') w.sawLoader.push('loading screen');
        for (const s of document.querySelectorAll('#root [role="status"][aria-label^="Loading"]')) w.sawLoader.push(s.getAttribute('aria-label') ?? '');
      }).observe(document, { childList: true, subtree: true, characterData: true });
    });
    const release = await holdTheApp(page, /\/assets\/phone-terminal-[^/]+\.js$/);
    const requests: Request[] = [];
    page.on('request', (r) => requests.push(r));
    const response = await page.goto('/trading', { waitUntil: 'commit' });
    const html = (await response?.text()) ?? '';
    await page.getByTestId('price-row-EURUSD').waitFor();
    await styled(page);
    const frame = await rowBoxes(page);
    release();

    // The app's table: its rows tick live, so their prices move; their places do not.
    await page.getByTestId('connection-state').and(page.locator('[data-state="open"]')).waitFor();
    assert.deepEqual(await rowBoxes(page), frame, 'the rows stand where the frame had them');
    assert.deepEqual(await page.evaluate(() => (window as unknown as { sawLoader: string[] }).sawLoader), [], 'no loader between the frame and the table');
    assert.equal(requests.filter((r) => r.url().includes('/getMainCurrencies.php')).length, 0, 'the symbols came with the page');
    // And the prices are live: the next tick shows.
    await pushTicks(h, [{ symbol: 'EURUSD', bid: 1.08601, ask: 1.08603 }]);
    await page.getByTestId('price-row-EURUSD').getByTestId('bid').getByText('1.08601').waitFor();
    // The table is the app's: a tap opens the row's sheet.
    await page.getByTestId('price-row-GBPUSD').click();
    await page.getByTestId('price-sheet').getByText('GBPUSD').first().waitFor();

    const modules = [...html.matchAll(/<link rel="modulepreload"[^>]* href="([^"]+)">/g)].map((m) => m[1]!);
    assert.ok(modules.some((m) => /phone-terminal-/.test(m)), "the phone terminal's module is named");
    await page.waitForTimeout(2_000);
    for (const url of modules) assert.equal(requests.filter((r) => new URL(r.url()).pathname === url).length, 1, `${url} fetched once`);
    await context.close();
  });
});
