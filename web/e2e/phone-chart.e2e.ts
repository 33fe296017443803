import assert from 'node:assert/strict';
import type { BrowserContext, Page } from 'playwright-core';
import { after, before, describe, it } from 'node:test';
import { ChartPanel } from './pages/chart-panel';
import { PhoneChartTab } from './pages/phone-chart-tab';
import { SignInPage } from './pages/sign-in-page';
import { seedHourlyCandles } from './support/chart-candles';
import { ARTIFACTS, createTrader, MOBILE, newPage, seedDailyCandles, seriousA11yViolations, startHarness, type Harness } from './support/harness';

describe('the chart tab on a phone', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
    await seedHourlyCandles(h, 'EURUSD', 600);
    await seedDailyCandles(h, 'EURUSD');
  });
  after(async () => h?.close());

  /** A phone (375×812, touch) signed in as the trader, on EURUSD's chart tab. */
  async function phoneChart(trader: { email: string; password: string }): Promise<{ context: BrowserContext; page: Page; chart: PhoneChartTab }> {
    const context = await h.browser.newContext({ viewport: MOBILE, hasTouch: true, isMobile: true, baseURL: h.origin, colorScheme: 'light', timezoneId: 'UTC', locale: 'en-US' });
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    page.on('pageerror', (err) => console.error(`[page error] ${err.message}`));
    const signIn = new SignInPage(page);
    await signIn.goto();
    await signIn.signIn(trader.email, trader.password);
    await page.waitForURL((u) => u.pathname === '/trading');
    await page.getByTestId('price-row-EURUSD').tap();
    await page.getByTestId('price-sheet').getByRole('button', { name: 'Chart' }).tap();
    const chart = new PhoneChartTab(page);
    await chart.waitForChart('EURUSD', 'H1');
    return { context, page, chart };
  }

  it('shows a drawing made on the desktop, fills the height between the bars, and every control is finger-sized', async () => {
    const trader = await createTrader(h);
    const desk = await newPage(h);
    const signIn = new SignInPage(desk.page);
    await signIn.goto();
    await signIn.signIn(trader.email, trader.password);
    await desk.page.waitForURL((u) => u.pathname === '/trading');
    await desk.page.getByTestId('price-row-EURUSD').click();
    const desktop = new ChartPanel(desk.page);
    await desk.page.getByRole('group', { name: 'EURUSD chart, H1' }).waitFor();
    await desktop.pickTool('Lines', 'Trendline');
    await desktop.clickAt([[0.3, 0.6], [0.6, 0.35]]);
    await desktop.waitForDrawings(1);
    await desktop.waitForSaved();
    await desk.context.close();

    const { context, page, chart } = await phoneChart(trader);
    await chart.waitForOverlays(1);
    assert.deepEqual(await chart.smallTargets(), []);
    const canvas = (await chart.canvas().boundingBox())!;
    const tabbar = (await page.getByRole('navigation', { name: 'Terminal' }).boundingBox())!;
    assert.ok(canvas.height > 500, `the chart is ${canvas.height} px high`);
    assert.ok(Math.abs(canvas.y + canvas.height - tabbar.y) <= 2, 'the chart reaches down to the bottom bar');
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), MOBILE.width, 'no sideways scrolling');
    const toolbar = await chart.toolbar().evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    assert.ok(toolbar.scroll <= toolbar.client, `the toolbar fits without scrolling (${toolbar.scroll} > ${toolbar.client})`);
    await page.setViewportSize({ width: 360, height: 740 });
    const narrow = await chart.toolbar().evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    assert.ok(narrow.scroll <= narrow.client, `the toolbar fits 360 px (${narrow.scroll} > ${narrow.client})`);
    await page.setViewportSize(MOBILE);
    assert.deepEqual(await seriousA11yViolations(page, ['[data-testid="phone-chart"]']), []);
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${ARTIFACTS}/phone-chart-tab.png` });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForTimeout(400);
    assert.deepEqual(await seriousA11yViolations(page, ['[data-testid="phone-chart"]']), [], 'dark theme');
    await page.screenshot({ path: `${ARTIFACTS}/phone-chart-tab-dark.png` });
    await context.close();
  });

  it('changes period and chart type, hides and shows the chart, toggles the crosshair, and draws a trendline by tapping', async () => {
    const trader = await createTrader(h);
    const { context, page, chart } = await phoneChart(trader);
    await chart.choosePeriod('D1');
    await chart.waitForChart('EURUSD', 'D1');

    const area = chart.toolbar().getByRole('button', { name: 'Area chart' });
    assert.equal(await area.getAttribute('aria-pressed'), 'false', 'candles first');
    await area.tap();
    assert.equal(await area.getAttribute('aria-pressed'), 'true');

    const crosshair = chart.tools().getByRole('button', { name: 'Crosshair' });
    assert.equal(await crosshair.getAttribute('aria-pressed'), 'false');
    await crosshair.tap();
    await chart.canvas().and(page.locator('[data-crosshair="true"]')).waitFor();

    await chart.pickTool('Lines', 'Trendline');
    await chart.root.getByRole('status').filter({ hasText: 'Trendline: tap 2 points' }).waitFor();
    await chart.tapAt([[0.3, 0.6], [0.7, 0.35]]);
    await chart.waitForOverlays(1);
    await page.waitForFunction(async () => {
      const r = await fetch('/api/platform/getChartLayout.php?symbol=EURUSD');
      return (await r.json()).data.layout.drawings.length === 1;
    });

    const show = chart.toolbar().getByRole('button', { name: 'Show chart' });
    await show.tap();
    assert.equal(await show.getAttribute('aria-pressed'), 'false');
    await page.getByTestId('chart-hidden').waitFor();
    await page.screenshot({ path: `${ARTIFACTS}/phone-chart-tab-hidden.png` });
    await page.getByTestId('chart-hidden').getByRole('button', { name: 'Show chart' }).tap();
    await chart.waitForChart('EURUSD', 'D1');
    await chart.waitForOverlays(1);
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${ARTIFACTS}/phone-chart-tab-area-d1.png` });

    // Another tab and back: the period, the type and the crosshair are as the trader left them.
    await page.getByTestId('phone-tab-prices').tap();
    await page.getByTestId('phone-tab-chart').tap();
    await chart.waitForChart('EURUSD', 'D1');
    assert.equal(await chart.toolbar().getByRole('button', { name: 'Area chart' }).getAttribute('aria-pressed'), 'true');
    assert.equal(await chart.tools().getByRole('button', { name: 'Crosshair' }).getAttribute('aria-pressed'), 'true');
    await context.close();
  });
});
