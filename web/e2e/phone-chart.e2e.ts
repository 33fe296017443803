import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { after, before, describe, it } from 'node:test';
import { ChartPanel } from './pages/chart-panel';
import { PhoneChartTab } from './pages/phone-chart-tab';
import { SignInPage } from './pages/sign-in-page';
import { seedHourlyCandles } from './support/chart-candles';
import { captionInk, CROSSHAIR_LABEL, inPicture, onScreen } from './support/chart-pixels';
import { ARTIFACTS, createTrader, MOBILE, newPage, seedDailyCandles, seriousA11yViolations, settled, startHarness, type Harness } from './support/harness';

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

    // The eye says what a tap does: the chart is shown, so it hides it; hidden, it shows it.
    const hide = chart.toolbar().getByRole('button', { name: 'Hide chart', exact: true });
    assert.equal(await hide.getAttribute('aria-pressed'), null, 'named by its action, not a pressed state');
    await hide.tap();
    await page.getByTestId('chart-hidden').waitFor();
    await chart.toolbar().getByRole('button', { name: 'Show chart', exact: true }).waitFor();
    assert.equal(await chart.toolbar().getByRole('button', { name: 'Hide chart', exact: true }).count(), 0);
    await page.screenshot({ path: `${ARTIFACTS}/phone-chart-tab-hidden.png` });
    await page.getByTestId('chart-hidden').getByRole('button', { name: 'Show chart' }).tap();
    await chart.waitForChart('EURUSD', 'D1');
    await chart.waitForOverlays(1);
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${ARTIFACTS}/phone-chart-tab-area-d1.png` });

    assert.equal(await chart.toolbar().getByRole('button', { name: 'Hide chart', exact: true }).count(), 1, 'shown again, the eye hides it');
    // Another tab and back: the period, the type and the crosshair are as the trader left them.
    await page.getByTestId('phone-tab-prices').tap();
    await page.getByTestId('phone-tab-chart').tap();
    await chart.waitForChart('EURUSD', 'D1');
    assert.equal(await chart.toolbar().getByRole('button', { name: 'Area chart' }).getAttribute('aria-pressed'), 'true');
    assert.equal(await chart.tools().getByRole('button', { name: 'Crosshair' }).getAttribute('aria-pressed'), 'true');
    await context.close();
  });

  it('offers the indicators on a phone: added over the candles or below them from a finger-sized list, set in a finger-sized dialog, and removed', async () => {
    const trader = await createTrader(h);
    const { context, page, chart } = await phoneChart(trader);
    await chart.openIndicators();
    const sheet = chart.indicatorSheet();
    await sheet.getByText('None yet').waitFor();
    const adds = await chart.offeredIndicators();
    assert.ok(adds.length >= 15, `${adds.length} indicators offered`);
    for (const name of ['Stochastic (KDJ)', 'Williams %R', 'Parabolic SAR', 'ADX (DMI)']) assert.ok(adds.includes(name), name);
    await chart.addIndicator('Stochastic (KDJ)');
    await chart.addIndicator('Parabolic SAR');
    await sheet.getByRole('list', { name: 'Indicators on the chart' }).getByRole('listitem').nth(1).waitFor();
    const small = await sheet.evaluate((root) =>
      [...root.querySelectorAll<HTMLElement>('button')]
        .filter((el) => el.offsetParent !== null)
        .map((el) => ({ name: el.getAttribute('aria-label') ?? el.textContent, r: el.getBoundingClientRect() }))
        .filter(({ r }) => r.height < 44 || r.width < 44)
        .map(({ name, r }) => `${name} ${Math.round(r.width)}×${Math.round(r.height)}`),
    );
    assert.deepEqual(small, [], 'every row and button at least 44 px');
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), MOBILE.width, 'no sideways scrolling');
    assert.deepEqual(await seriousA11yViolations(page, ['[role="dialog"]']), []);
    await page.screenshot({ path: `${ARTIFACTS}/phone-chart-indicators-sheet.png` });
    await page.emulateMedia({ colorScheme: 'dark' });
    await settled(page);
    assert.deepEqual(await seriousA11yViolations(page, ['[role="dialog"]']), [], 'dark theme');
    await page.screenshot({ path: `${ARTIFACTS}/phone-chart-indicators-sheet-dark.png` });
    await page.emulateMedia({ colorScheme: 'light' });
    await chart.closeIndicators();
    await chart.canvas().and(page.locator('[data-applied="KDJ(9,3,3) SAR(2,2,20)"]')).waitFor();
    assert.equal(await chart.canvas().getAttribute('data-panes'), '1', 'the stochastic below the candles, SAR over them');
    assert.equal(await chart.tools().getByRole('button', { name: 'Indicators (2 on the chart)' }).count(), 1);
    await settled(page);
    await page.screenshot({ path: `${ARTIFACTS}/phone-chart-indicators.png` });

    // Its settings, from the list, in the desktop's dialog with finger-sized fields.
    await chart.openIndicators();
    await sheet.getByRole('button', { name: 'Settings of KDJ 9, 3, 3' }).tap();
    const dialog = page.getByRole('dialog', { name: 'Stochastic (KDJ) settings' });
    const period = dialog.getByLabel('%K period');
    await period.waitFor();
    assert.ok((await period.boundingBox())!.height >= 44, 'a finger-sized field');
    await period.fill('14');
    await settled(page);
    await page.screenshot({ path: `${ARTIFACTS}/phone-chart-indicator-settings.png` });
    await dialog.getByRole('button', { name: 'Apply' }).tap();
    await chart.canvas().and(page.locator('[data-applied="KDJ(14,3,3) SAR(2,2,20)"]')).waitFor();

    await chart.openIndicators();
    await sheet.getByRole('button', { name: 'Remove SAR 2, 2, 20' }).tap();
    await chart.closeIndicators();
    await chart.canvas().and(page.locator('[data-applied="KDJ(14,3,3)"]')).waitFor();
    await page.waitForFunction(async () => {
      const r = await fetch('/api/platform/getChartLayout.php?symbol=EURUSD');
      const indicators = (await r.json()).data.layout.indicators as Array<{ name: string; params: number[] }>;
      return indicators.length === 1 && indicators[0]!.name === 'KDJ' && indicators[0]!.params[0] === 14;
    });
    await context.close();
  });

  it('saves the chart from the tool column as the desktop does: a clean picture under a caption with the symbol, period and time', async () => {
    const trader = await createTrader(h);
    const { context, page, chart } = await phoneChart(trader);
    const phone = '[data-testid="phone-chart"]';
    // The crosshair where a finger rested, with its price and time labels.
    await chart.tools().getByRole('button', { name: 'Crosshair' }).tap();
    await chart.canvas().and(page.locator('[data-crosshair="true"]')).waitFor();
    await chart.tapAt([[0.45, 0.6]]);
    assert.ok((await onScreen(page, [CROSSHAIR_LABEL], phone))[0]! > 50, 'the crosshair label shows on the chart');
    await page.screenshot({ path: join(ARTIFACTS, 'phone-chart-picture-before.png') });

    const save = chart.tools().getByRole('button', { name: 'Save image' });
    assert.ok((await save.boundingBox())!.height >= 44, 'a finger-sized button');
    const [download] = await Promise.all([page.waitForEvent('download'), save.tap()]);
    assert.equal(download.suggestedFilename(), 'EURUSD-H1.png');
    const png = readFileSync((await download.path())!);
    assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG', 'a PNG file');
    writeFileSync(join(ARTIFACTS, 'phone-chart-saved-picture.png'), png);
    const picture = await inPicture(page, png, [CROSSHAIR_LABEL]);
    const box = (await chart.canvas().boundingBox())!;
    const ratio = await page.evaluate(() => window.devicePixelRatio);
    assert.equal(picture.width, Math.round(box.width * ratio), 'as wide as the chart');
    // One caption line, or two where the title and the time would meet on a narrow chart.
    assert.ok([36, 54].some((caption) => picture.height === Math.round((box.height + caption) * ratio)), `the chart under its caption: ${picture.height}`);
    assert.equal(picture.counts[0], 0, 'no crosshair label in the picture');
    assert.ok((await captionInk(page, png)) > 100, 'the caption is written');

    // The dark theme's picture, on the theme's background.
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForTimeout(400);
    const [dark] = await Promise.all([page.waitForEvent('download'), save.tap()]);
    writeFileSync(join(ARTIFACTS, 'phone-chart-saved-picture-dark.png'), readFileSync((await dark.path())!));
    await context.close();
  });
});
