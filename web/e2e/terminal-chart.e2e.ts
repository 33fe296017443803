import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { after, before, describe, it } from 'node:test';
import { ChartPanel } from './pages/chart-panel';
import { SignInPage } from './pages/sign-in-page';
import { seedHourlyCandles } from './support/chart-candles';
import { adminClient, ARTIFACTS, createTrader, DESKTOP, MOBILE, newPage, postJson, pushTicks, screenshots, seedDailyCandles, seriousA11yViolations, settled, startHarness, type Harness } from './support/harness';

/** Two anchor clicks per tool, a third where the tool needs one (fractions of the canvas). */
const POINTS: Array<[number, number]> = [
  [0.45, 0.4],
  [0.7, 0.3],
  [0.6, 0.6],
];
const TOOL_POINTS: Record<string, number> = {
  Trendline: 2, 'Horizontal line': 1, 'Horizontal ray': 1, 'Vertical line': 1, 'Info line': 2, 'Arrowed line': 2, Ray: 2, 'Extended line': 2, 'Cross line': 1, 'Trend by angle': 2, 'Disjoint channel': 3, 'Flat top/bottom': 3,
  'Regression channel': 2, 'Equidistant channel': 3, 'Standard deviation channel': 2, Pitchfork: 3,
  'Gann line': 2, 'Gann fan': 2, 'Gann grid': 2,
  'Fib retracement': 2, 'Fib extension': 3,
  Rectangle: 2, Circle: 2, Triangle: 3, Ellipse: 2,
};
const MENUS = {
  Lines: ['Trendline', 'Horizontal line', 'Horizontal ray', 'Vertical line', 'Info line', 'Arrowed line', 'Ray', 'Extended line', 'Cross line', 'Trend by angle', 'Disjoint channel', 'Flat top/bottom'],
  Channels: ['Regression channel', 'Equidistant channel', 'Standard deviation channel', 'Pitchfork'],
  Gann: ['Gann line', 'Gann fan', 'Gann grid'],
  Fib: ['Fib retracement', 'Fib extension'],
  Shapes: ['Rectangle', 'Circle', 'Triangle', 'Ellipse'],
} as const;

/**
 * Records every text the page's canvases write (`window.__canvasTexts`, in order): what the chart
 * shows, as it was drawn. As source text: it runs in the page before the app.
 */
const RECORD_CANVAS_TEXTS = `(() => {
  const texts = [];
  window.__canvasTexts = texts;
  const fillText = CanvasRenderingContext2D.prototype.fillText;
  CanvasRenderingContext2D.prototype.fillText = function (text, ...rest) {
    if (texts.length < 200000) texts.push(String(text));
    return fillText.call(this, text, ...rest);
  };
})()`;

describe('the terminal chart', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
    await seedHourlyCandles(h, 'EURUSD', 700);
    await seedDailyCandles(h, 'EURUSD');
  });
  after(async () => h?.close());

  async function openChart(trader?: { email: string; password: string }, { recordTexts = false }: { recordTexts?: boolean } = {}) {
    const who = trader ?? (await createTrader(h));
    const { context, page } = await newPage(h);
    if (recordTexts) await page.addInitScript(RECORD_CANVAS_TEXTS);
    const signIn = new SignInPage(page);
    await signIn.goto();
    await signIn.signIn(who.email, who.password);
    await page.waitForURL((u) => u.pathname === '/trading');
    // The first click lands while the terminal is still starting (quotes, symbols, the chart's chunk): slow on a busy machine.
    await page.getByTestId('price-row-EURUSD').click({ timeout: 30_000 });
    const chart = new ChartPanel(page);
    await chart.canvas().waitFor();
    await page.getByRole('group', { name: 'EURUSD chart, H1' }).waitFor();
    await page.waitForFunction(() => !document.querySelector('[data-testid="chart-panel"] [aria-label="Loading the chart"]'));
    return { trader: who, context, page, chart };
  }

  it('offers every tool of the four menus and the Fibonacci one, and each can be drawn on the chart and is kept', async () => {
    const { context, chart } = await openChart();
    for (const [menu, tools] of Object.entries(MENUS)) assert.deepEqual(await chart.toolsOf(menu as keyof typeof MENUS), [...tools], menu);
    let drawn = 0;
    for (const [menu, tools] of Object.entries(MENUS)) {
      for (const tool of tools) {
        await chart.pickTool(menu as keyof typeof MENUS, tool);
        await chart.clickAt(POINTS.slice(0, TOOL_POINTS[tool]));
        drawn += 1;
        await chart.waitForDrawings(drawn);
      }
    }
    await chart.waitForSaved();
    assert.equal(await chart.drawingCount(), 25);
    assert.equal(await chart.canvas().getAttribute('data-overlays'), '25');
    await context.close();
  });

  it('keeps a trendline through a reload and shows it in a second browser signed in as the same trader', async () => {
    const { trader, context, page, chart } = await openChart();
    await chart.pickTool('Lines', 'Trendline');
    await chart.clickAt([[0.3, 0.6], [0.6, 0.35]]);
    await chart.waitForDrawings(1);
    await chart.waitForSaved();
    const saved = await layoutOf(page);
    assert.equal(saved.drawings.length, 1);
    assert.equal(saved.drawings[0]!.tool, 'trendLine');
    await page.reload();
    await page.getByTestId('price-row-EURUSD').click();
    await chart.canvas().and(page.locator('[data-overlays="1"]')).waitFor();
    const second = await openChart(trader);
    await second.chart.canvas().and(second.page.locator('[data-overlays="1"]')).waitFor();
    assert.deepEqual((await layoutOf(second.page)).drawings, saved.drawings);
    await second.context.close();
    await context.close();
  });

  it('selects, restyles and deletes a drawing (Delete key and button); removing all asks first', async () => {
    const { context, page, chart } = await openChart();
    // Horizontal lines: a price is not snapped to a candle, so a click at the same height hits the line.
    for (const at of [0.3, 0.45, 0.6]) {
      await chart.pickTool('Lines', 'Horizontal line');
      await chart.clickAt([[0.5, at]]);
    }
    await chart.waitForDrawings(3);
    // A click on the line selects it: the drawing bar offers colour, width and delete.
    await chart.clickAt([[0.2, 0.3]]);
    await chart.drawingBar().waitFor();
    await chart.drawingBar().getByRole('radiogroup', { name: 'Line width' }).getByText('4', { exact: true }).click();
    await chart.waitForSaved();
    assert.deepEqual((await layoutOf(page)).drawings.map((d) => d.width).sort(), [2, 2, 4]);
    await page.keyboard.press('Delete');
    await chart.waitForDrawings(2);
    await chart.clickAt([[0.2, 0.45]]);
    await chart.drawingBar().getByRole('button', { name: 'Delete' }).click();
    await chart.waitForDrawings(1);
    await chart.toolbar().getByRole('button', { name: 'Remove all drawings' }).click();
    const ask = page.getByRole('dialog', { name: 'Remove all drawings?' });
    await ask.getByRole('button', { name: 'Keep them' }).click();
    assert.equal(await chart.drawingCount(), 1);
    await chart.toolbar().getByRole('button', { name: 'Remove all drawings' }).click();
    await ask.getByRole('button', { name: 'Remove all' }).click();
    await chart.waitForDrawings(0);
    await chart.waitForSaved();
    assert.deepEqual((await layoutOf(page)).drawings, []);
    await context.close();
  });

  it('adding RSI adds a pane below the candles, and its settings change it', async () => {
    const { context, page, chart } = await openChart();
    await chart.addIndicator('Relative strength index');
    await chart.canvas().and(page.locator('[data-panes="1"]')).waitFor();
    assert.equal(await chart.canvas().getAttribute('data-applied'), 'RSI(14)');
    await chart.indicatorList().getByRole('button', { name: 'Settings of RSI 14' }).click();
    const dialog = page.getByRole('dialog', { name: 'Relative strength index settings' });
    await dialog.getByLabel('Period').fill('21');
    await dialog.getByLabel('Source').click();
    await page.getByRole('option', { name: '(High + Low) / 2' }).click();
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await chart.canvas().and(page.locator('[data-applied="RSI(21)"]')).waitFor();
    assert.deepEqual(await chart.indicators(), ['RSI 21 · (High + Low) / 2']);
    await chart.addIndicator('MACD');
    await chart.addIndicator('Moving average');
    await chart.canvas().and(page.locator('[data-panes="2"]')).waitFor();
    await chart.indicatorList().getByRole('button', { name: 'Remove MACD 12, 26, 9' }).click();
    await chart.canvas().and(page.locator('[data-panes="1"]')).waitFor();
    await chart.waitForSaved();
    assert.deepEqual((await layoutOf(page)).indicators.map((i) => [i.name, i.params, i.source]), [['RSI', [21], 'hl2'], ['MA', [20], 'close']]);
    await context.close();
  });

  it('offers at least 15 indicators by the names traders know, over the candles or below them, each with its settings held to their bounds', async () => {
    const { context, page, chart } = await openChart();
    const menu = await chart.indicatorMenu();
    assert.deepEqual(menu.map((g) => g.group), ['Over the price', 'Below the price']);
    const offered = menu.flatMap((g) => g.items);
    assert.ok(offered.length >= 15, `${offered.length} indicators: ${offered.join(', ')}`);
    for (const name of ['Moving average', 'Bollinger Bands', 'Parabolic SAR']) assert.ok(menu[0]!.items.includes(name), `${name} over the price`);
    for (const name of ['Stochastic (KDJ)', 'Williams %R', 'ADX (DMI)', 'MACD', 'Relative strength index', 'Commodity channel index', 'On-balance volume']) assert.ok(menu[1]!.items.includes(name), `${name} below the price`);
    await chart.toolbar().getByRole('button', { name: 'Indicators' }).click();
    await page.getByRole('menu', { name: 'Indicators' }).getByRole('menuitem').first().waitFor();
    await settled(page);
    await page.screenshot({ path: `${ARTIFACTS}/terminal-chart-indicator-menu-desktop.png` });
    await page.keyboard.press('Escape');
    // Closed before the next click on Indicators, which would otherwise land on a closing menu.
    await page.getByRole('menu', { name: 'Indicators' }).waitFor({ state: 'hidden' });

    await chart.addIndicator('Parabolic SAR');
    await chart.canvas().and(page.locator('[data-applied="SAR(2,2,20)"]')).waitFor();
    assert.equal(await chart.canvas().getAttribute('data-panes'), '0', 'SAR is drawn over the candles');
    await chart.addIndicator('Stochastic (KDJ)');
    await chart.addIndicator('Williams %R');
    await chart.addIndicator('ADX (DMI)');
    await chart.canvas().and(page.locator('[data-panes="3"]')).waitFor();
    assert.equal(await chart.canvas().getAttribute('data-applied'), 'SAR(2,2,20) KDJ(9,3,3) WR(14) DMI(14,6)');

    await chart.indicatorList().getByRole('button', { name: 'Settings of KDJ 9, 3, 3' }).click();
    const kdj = page.getByRole('dialog', { name: 'Stochastic (KDJ) settings' });
    await kdj.getByLabel('%D smoothing').waitFor();
    // The colour fields swap their placeholder for Mantine's picker when its code arrives: read the labels once that is done.
    const fieldLabels = () => kdj.getByRole('textbox').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).labels?.[0]?.textContent?.trim()));
    const kdjLabels = ['%K period', '%K smoothing', '%D smoothing', '%K colour', '%D colour', 'J colour'];
    for (let tries = 0; tries < 50 && JSON.stringify(await fieldLabels()) !== JSON.stringify(kdjLabels); tries += 1) await page.waitForTimeout(100);
    assert.deepEqual(await fieldLabels(), kdjLabels);
    await kdj.getByLabel('%K smoothing').fill('101');
    await kdj.getByText('Must be a whole number from 1 to 100').waitFor();
    assert.equal(await kdj.getByRole('button', { name: 'Apply' }).isDisabled(), true, 'out of bounds: nothing to apply');
    await kdj.getByLabel('%K smoothing').fill('5');
    await kdj.getByRole('button', { name: 'Apply' }).click();
    await chart.canvas().and(page.locator('[data-applied="SAR(2,2,20) KDJ(9,5,3) WR(14) DMI(14,6)"]')).waitFor();

    await chart.indicatorList().getByRole('button', { name: 'Settings of SAR 2, 2, 20' }).click();
    const sar = page.getByRole('dialog', { name: 'Parabolic SAR settings' });
    await sar.getByLabel('Maximum (%)').fill('1.5');
    await sar.getByRole('alert').filter({ hasText: 'SAR Start and Step must not be more than the Maximum.' }).waitFor();
    assert.equal(await sar.getByRole('button', { name: 'Apply' }).isDisabled(), true);
    await sar.getByRole('button', { name: 'Cancel' }).click();
    await chart.waitForSaved();
    assert.deepEqual((await layoutOf(page)).indicators.map((i) => [i.name, i.params]), [['SAR', [2, 2, 20]], ['KDJ', [9, 5, 3]], ['WR', [14]], ['DMI', [14, 6]]]);
    await page.mouse.move(10, 10);
    await screenshots(page, 'terminal-chart-indicators', { dark: true });
    await context.close();
  });

  it('writes indicator values and the axes below the candles in the indicator’s own decimals, never folding their zeros like a price', async () => {
    const { context, page, chart } = await openChart(undefined, { recordTexts: true });
    await chart.addIndicator('Relative strength index');
    await chart.addIndicator('MACD');
    await chart.addIndicator('Momentum');
    await chart.canvas().and(page.locator('[data-panes="3"]')).waitFor();
    // Momentum's formula comes with its module, fetched as it is added (its legend says n/a until then).
    await page.waitForFunction(() => {
      const t = (window as unknown as { __canvasTexts: string[] }).__canvasTexts;
      const at = t.lastIndexOf('MTM: ');
      return at >= 0 && /\d/.test(t[at + 1] ?? '');
    });
    const from = await page.evaluate(() => (window as unknown as { __canvasTexts: string[] }).__canvasTexts.length);
    // Over a candle near the end, so the legends show that candle's values.
    const box = (await chart.canvas().boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.8, box.y + box.height * 0.3, { steps: 4 });
    await page.waitForTimeout(500);
    const texts = await page.evaluate(() => (window as unknown as { __canvasTexts: string[] }).__canvasTexts);
    const legends = texts.slice(from);
    const after = (title: string) => legends.flatMap((t, i) => (t === title ? [legends[i + 1]!] : []));
    assert.ok(after('RSI1: ').length > 0, 'the RSI legend is drawn');
    for (const v of after('RSI1: ')) assert.match(v, /^\d{1,3}\.\d{2}$/, 'RSI with 2 decimals');
    // EURUSD has 5 digits: a MACD of 0.000039 is written 0.000039, not 0.0{3}39 or 0.0000.
    for (const title of ['DIF: ', 'DEA: ', 'MACD: ', 'MTM: ']) {
      assert.ok(after(title).length > 0, `the ${title} legend is drawn`);
      for (const v of after(title)) assert.match(v, /^-?\d+\.\d{6}$/, `${title}${v}`);
    }
    assert.deepEqual(texts.filter((t) => t.includes('{')), [], 'no value of an indicator is written with folded zeros');
    assert.deepEqual([...new Set(texts.filter((t) => /^-?\d+\.\d{4}$/.test(t)))], [], 'nothing in KLineChart’s four-decimal default (the RSI axis read 64.0000)');
    const rsiAxis = texts.filter((t) => /^\d{1,3}\.\d{2}$/.test(t) && !after('RSI1: ').includes(t));
    assert.ok(rsiAxis.length > 0, `the RSI axis in 2 decimals (${texts.filter((t) => /^\d/.test(t)).slice(0, 40).join(' ')})`);
    await page.mouse.move(10, 10);
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${ARTIFACTS}/terminal-chart-indicator-precision-desktop.png` });
    await context.close();
  });

  it('the larger view has the period buttons M1 … MN, and a period chosen there is the panel’s too', async () => {
    const { context, page, chart } = await openChart();
    await chart.toolbar().getByRole('button', { name: 'Larger view' }).click();
    const dialog = page.getByRole('dialog', { name: 'EURUSD · H1' });
    await dialog.waitFor();
    const periods = dialog.getByRole('radiogroup', { name: 'Chart period (larger view)' });
    assert.deepEqual(await periods.getByRole('radio').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value)), ['M1', 'M5', 'M15', 'M30', 'H1', 'H4', 'D1', 'W1', 'MN']);
    await periods.getByText('D1', { exact: true }).click();
    await page.getByRole('dialog', { name: 'EURUSD · D1' }).waitFor();
    await page.getByRole('group', { name: 'EURUSD chart, D1, larger view' }).waitFor();
    await page.waitForFunction(() => !document.querySelector('[data-testid="chart-large"] [aria-label="Loading the chart"]'));
    const box = (await page.getByRole('dialog', { name: 'EURUSD · D1' }).boundingBox())!;
    assert.ok(Math.abs(box.width - 1000) <= 2 && Math.abs(box.height - 650) <= 40, `the popup stays 1000×650: ${box.width}×${box.height}`);
    await settled(page);
    await page.screenshot({ path: `${ARTIFACTS}/terminal-chart-larger-periods-desktop.png` });
    await page.getByRole('button', { name: 'Close the larger view' }).click();
    await page.getByRole('group', { name: 'EURUSD chart, D1' }).waitFor();
    assert.equal(await page.getByRole('radiogroup', { name: 'Chart period', exact: true }).getByRole('radio', { checked: true }).getAttribute('value'), 'D1');
    await context.close();
  });

  it('saves the chart as a PNG named after the symbol and period, opens the larger view with the drawings, and changes period', async () => {
    const { context, page, chart } = await openChart();
    await chart.pickTool('Shapes', 'Rectangle');
    await chart.clickAt([[0.4, 0.4], [0.6, 0.6]]);
    await chart.waitForDrawings(1);
    const [download] = await Promise.all([page.waitForEvent('download'), chart.toolbar().getByRole('button', { name: 'Save image' }).click()]);
    assert.equal(download.suggestedFilename(), 'EURUSD-H1.png');
    const png = readFileSync((await download.path())!);
    assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    assert.ok(png.length > 5000, 'the picture has the chart in it');

    await chart.toolbar().getByRole('button', { name: 'Larger view' }).click();
    const dialog = page.getByRole('dialog', { name: 'EURUSD · H1' });
    await dialog.waitFor();
    const large = chart.large();
    await large.canvas().and(page.locator('[data-overlays="1"]')).waitFor();
    const box = (await dialog.boundingBox())!;
    assert.ok(Math.abs(box.width - 1000) <= 2 && Math.abs(box.height - 650) <= 40, `${box.width}×${box.height}`);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    await page.getByRole('radiogroup', { name: 'Chart period' }).getByText('D1', { exact: true }).click();
    await page.getByRole('group', { name: 'EURUSD chart, D1' }).waitFor();
    await page.waitForFunction(() => !document.querySelector('[data-testid="chart-panel"] [aria-label="Loading the chart"]'));
    await context.close();
  });

  it('loads older candles as the trader scrolls back', async () => {
    const { context, page, chart } = await openChart();
    await chart.canvas().and(page.locator('[data-candles="500"]')).waitFor();
    const box = (await chart.canvas().boundingBox())!;
    // Drag the candles to the right (back in time) until the chart asks for the page before its first candle.
    for (let i = 0; i < 12 && (await chart.canvas().getAttribute('data-candles')) === '500'; i++) {
      await page.mouse.move(box.x + box.width * 0.1, box.y + box.height * 0.5);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width * 0.85, box.y + box.height * 0.5, { steps: 8 });
      await page.mouse.up();
      await page.waitForTimeout(200);
    }
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="terminal-chart"]')?.getAttribute('data-candles')) > 500);
    await context.close();
  });

  it('says a failed save and retries it until it lands', async () => {
    const { context, page, chart } = await openChart();
    let refused = 0;
    await page.route('**/api/platform/saveChartLayout.php', async (route) => {
      refused += 1;
      await route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ status: 'Failure', message: 'Service unavailable' }) });
    });
    await chart.pickTool('Lines', 'Horizontal line');
    await chart.clickAt([[0.5, 0.5]]);
    await chart.saveStatus().and(page.getByRole('alert')).waitFor();
    assert.match(await chart.saveStatus().textContent() ?? '', /Drawings not saved/);
    assert.ok(refused >= 1);
    await page.unroute('**/api/platform/saveChartLayout.php');
    await chart.waitForSaved();
    assert.equal((await layoutOf(page)).drawings.length, 1);
    await context.close();
  });

  it('looks right with indicators and drawings, light and dark, and has no serious accessibility problems', async () => {
    const { context, page, chart } = await openChart();
    await chart.addIndicator('Moving average');
    await chart.addIndicator('Bollinger Bands');
    await chart.addIndicator('Relative strength index');
    await chart.addIndicator('Volume');
    await chart.canvas().and(page.locator('[data-panes="2"]')).waitFor();
    // Points within the candles' pane (the top half, above RSI and volume).
    const draw: Array<[Parameters<ChartPanel['pickTool']>[0], string, Array<[number, number]>]> = [
      ['Channels', 'Regression channel', [[0.12, 0.2], [0.4, 0.2]]],
      ['Lines', 'Info line', [[0.48, 0.4], [0.68, 0.18]]],
      ['Gann', 'Gann fan', [[0.72, 0.38], [0.8, 0.3]]],
      ['Shapes', 'Ellipse', [[0.03, 0.06], [0.1, 0.16]]],
      ['Channels', 'Pitchfork', [[0.3, 0.4], [0.38, 0.12], [0.44, 0.36]]],
    ];
    for (const [i, [menu, tool, points]] of draw.entries()) {
      await chart.pickTool(menu, tool);
      await chart.clickAt(points);
      await chart.waitForDrawings(i + 1);
    }
    await chart.waitForSaved();
    await page.mouse.move(10, 10);
    assert.deepEqual(await seriousA11yViolations(page, ['[data-testid="chart-panel"]']), []);
    await screenshots(page, 'terminal-chart', { dark: true });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForTimeout(300);
    assert.deepEqual(await seriousA11yViolations(page, ['[data-testid="chart-panel"]']), [], 'dark theme');
    await chart.toolbar().getByRole('button', { name: 'Larger view' }).click();
    await chart.large().canvas().and(page.locator('[data-overlays="5"]')).waitFor();
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${ARTIFACTS}/terminal-chart-larger-desktop-dark.png` });
    await page.keyboard.press('Escape');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize(MOBILE);
    await chart.root.scrollIntoViewIfNeeded();
    await page.waitForTimeout(400);
    await page.screenshot({ path: `${ARTIFACTS}/terminal-chart-phone.png` });
    await context.close();
  });
});

describe('trade levels on the terminal chart', () => {
  let h: Harness;
  let gateway: number;
  before(async () => {
    h = await startHarness();
    await seedHourlyCandles(h, 'EURUSD');
    const admin = await adminClient(h);
    gateway = (await postJson(admin, '/dashboard/admin/addNewPayments.php', { name: 'Wire transfer', number: 'DE44 5001 0517 5407 3249 31', moreInfo: 'Quote your trader id.' })).body.id as number;
  });
  after(async () => h?.close());

  /** A trader with 10,000 USD, and EURUSD at 1.08500 / 1.08520. */
  async function fundedTrader() {
    const trader = await createTrader(h);
    const admin = await adminClient(h);
    const d = await postJson(trader.client, '/platform/addDeposite.php', { depositAmount: '10000.00', paymentAccount: '1234', payment_getways_id: gateway });
    await postJson(admin, '/dashboard/admin/editStatusDeposite.php', { deposites_id: d.body.id, status: 1 });
    await pushTicks(h, [{ symbol: 'EURUSD', bid: 1.085, ask: 1.0852 }]);
    return trader;
  }

  /** The trader's terminal with the EURUSD chart, once the level `key` is drawn (and, for 'removes', its ×). */
  async function chartWithLevel(trader: { email: string; password: string }, key: string, mark: 'levels' | 'removes' = 'levels') {
    const { context, page } = await newPage(h);
    const signIn = new SignInPage(page);
    await signIn.goto();
    await signIn.signIn(trader.email, trader.password);
    await page.waitForURL((u) => u.pathname === '/trading');
    await page.getByTestId('price-row-EURUSD').click();
    const chart = new ChartPanel(page);
    await page.waitForFunction(() => !document.querySelector('[data-testid="chart-panel"] [aria-label="Loading the chart"]'));
    const attribute = mark === 'levels' ? 'data-levels' : 'data-level-removes';
    await page.waitForFunction(([a, k]) => (document.querySelector('[data-testid="terminal-chart"]')?.getAttribute(a) ?? '').includes(`${k}@`), [attribute, key] as const);
    await page.waitForTimeout(300);
    return { context, page, chart };
  }

  /** Where a level is drawn on the canvas: its key's pixel height, as the chart marks it. */
  async function levelY(chart: ChartPanel, key: string): Promise<number> {
    const marks = (await chart.canvas().getAttribute('data-levels')) ?? '';
    const mark = marks.split(' ').find((m) => m.startsWith(`${key}@`));
    assert.ok(mark, `${key} is on the chart (${marks})`);
    return Number(mark.split('@')[1]);
  }

  async function drag(page: Page, chart: ChartPanel, fromY: number, toY: number) {
    const box = (await chart.canvas().boundingBox())!;
    const x = box.x + box.width * 0.5;
    await page.mouse.move(x, box.y + fromY, { steps: 4 });
    await page.waitForTimeout(150);
    await page.mouse.down();
    await page.mouse.move(x, box.y + toY, { steps: 12 });
    await page.mouse.up();
  }

  it('shows a position’s entry, SL and TP; dragging the SL changes it on the server after confirming, and a refused drag snaps back with the message', async () => {
    const trader = await fundedTrader();
    const opened = await postJson(trader.client, '/platform/addTrades.php', { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 0.1, stopLoss: 1.08, takeProfit: 1.09, comment: '' });
    assert.equal(opened.status, 200, JSON.stringify(opened.body));
    const ticket = opened.body.ticket as number;

    const { context, page, chart } = await chartWithLevel(trader, `sl-${ticket}`);
    const sl = await levelY(chart, `sl-${ticket}`);
    const entry = await levelY(chart, `entry-${ticket}`);
    assert.ok(sl > entry && entry > (await levelY(chart, `tp-${ticket}`)), 'TP above the entry above the SL for a Buy');

    // Up a third of the way to the entry: a valid stop loss for a Buy.
    await drag(page, chart, sl, sl - (sl - entry) / 3);
    const dialog = page.getByRole('dialog', { name: 'Change the order?' });
    await dialog.waitFor();
    assert.match((await dialog.textContent()) ?? '', new RegExp(`Move the stop loss of #${ticket} to 1\\.08\\d{3}\\?`));
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.waitForFunction(async (t) => {
      const r = await fetch('/api/platform/getTrades.php');
      const row = (await r.json()).data.find((x: { ticket: number }) => x.ticket === t);
      return row && row.stopLoss > 1.08 && row.stopLoss < 1.085;
    }, ticket);

    // Above the bid: the server refuses a Buy's stop loss there; the line goes back.
    await page.waitForTimeout(600);
    const moved = await levelY(chart, `sl-${ticket}`);
    await drag(page, chart, moved, (await levelY(chart, `tp-${ticket}`)) + 4);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Not changed').waitFor();
    await page.waitForFunction(([t, y]) => (document.querySelector('[data-testid="terminal-chart"]')?.getAttribute('data-levels') ?? '').includes(`sl-${t}@${y}`), [ticket, moved] as const);
    await page.mouse.move(10, 10);
    await screenshots(page, 'terminal-chart-levels', { dark: true });
    await context.close();
  });

  it("a pending order's line is named as people say it; a click or a tremor on a line sends nothing, one-click trading on or off; a drag asks first", async () => {
    const trader = await fundedTrader();
    const placed = await postJson(trader.client, '/platform/addPendingOrder.php', { fullSymbol: 'EURUSD', orderType: 'buy_limit', volume: 0.2, price: 1.08, stopLimitPrice: 0, stopLoss: 0, takeProfit: 0 });
    assert.equal(placed.status, 200, JSON.stringify(placed.body));
    const orderId = placed.body.orderId as number;
    const opened = await postJson(trader.client, '/platform/addTrades.php', { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 0.1, stopLoss: 1.078, takeProfit: 0, comment: '' });
    const ticket = opened.body.ticket as number;

    const { context, page, chart } = await chartWithLevel(trader, `order-${orderId}`);
    const sent: string[] = [];
    page.on('request', (r) => {
      if (/modify(PendingOrder|Trades)\.php/.test(r.url())) sent.push(r.url());
    });
    // The line's label, as drawn: read back from the chart's own overlay.
    const label = await page.evaluate(() => document.querySelector('[data-testid="terminal-chart"]')?.getAttribute('data-level-labels') ?? '');
    assert.ok(label.includes(`#${orderId} Buy Limit 0.20 at 1.08000`), label);
    assert.doesNotMatch(label, /buy_limit/);

    const dialog = page.getByRole('dialog', { name: 'Change the order?' });
    const y = await levelY(chart, `order-${orderId}`);
    const sl = await levelY(chart, `sl-${ticket}`);
    // A plain click on the order's line and on the stop loss's, then a press that moves 2 px.
    const box = (await chart.canvas().boundingBox())!;
    await page.mouse.click(box.x + box.width * 0.5, box.y + y);
    await page.mouse.click(box.x + box.width * 0.5, box.y + sl);
    await drag(page, chart, y, y + 2);
    await page.waitForTimeout(500);
    assert.equal(await dialog.count(), 0, 'no confirmation for a click or a tremor');

    // With one-click trading on, the same sends nothing either.
    await postJson(trader.client, '/platform/editTerminalSettings.php', { oneClickTrading: true });
    await page.reload();
    await page.getByTestId('price-row-EURUSD').click();
    await page.waitForFunction((o) => (document.querySelector('[data-testid="terminal-chart"]')?.getAttribute('data-levels') ?? '').includes(`order-${o}@`), orderId);
    await page.waitForTimeout(300);
    const y2 = await levelY(chart, `order-${orderId}`);
    const box2 = (await chart.canvas().boundingBox())!;
    await page.mouse.click(box2.x + box2.width * 0.5, box2.y + y2);
    await drag(page, chart, y2, y2 - 2);
    await page.waitForTimeout(800);
    assert.deepEqual(sent, [], 'no change was sent');
    await postJson(trader.client, '/platform/editTerminalSettings.php', { oneClickTrading: false });
    await page.reload();
    await page.getByTestId('price-row-EURUSD').click();
    await page.waitForFunction((o) => (document.querySelector('[data-testid="terminal-chart"]')?.getAttribute('data-levels') ?? '').includes(`order-${o}@`), orderId);
    await page.waitForTimeout(300);

    // A real drag proposes the move, named as people say it.
    const y3 = await levelY(chart, `order-${orderId}`);
    await drag(page, chart, y3, y3 - 30);
    await dialog.waitFor();
    assert.match((await dialog.textContent()) ?? '', new RegExp(`Move Buy Limit #${orderId} to 1\\.08\\d{3}\\?`));
    await screenshots(page, 'terminal-chart-order-move', { dark: false });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    assert.deepEqual(sent, [], 'a cancelled move sends nothing');
    await context.close();
  });

  it('dragging an alert line moves the alert at once, nothing asked; dragged below the price it waits for a fall', async () => {
    const trader = await fundedTrader();
    const add = async (direction: 'above' | 'below', level: number) => (await postJson(trader.client, '/platform/addAlert.php', { symbol: 'EURUSD', price: 'bid', direction, level })).body.alertId as number;
    const upper = await add('above', 1.087);
    const lower = await add('below', 1.083);
    const { context, page, chart } = await chartWithLevel(trader, `alert-${lower}`);
    const upperY = await levelY(chart, `alert-${upper}`);
    const lowerY = await levelY(chart, `alert-${lower}`);
    // A quarter of the way up from the lower line is about 1.084: under the bid of 1.085.
    await drag(page, chart, upperY, lowerY - (lowerY - upperY) / 4);
    await page.getByText(/^Moved the alert on the bid to below 1\.08\d{3}$/).waitFor();
    assert.equal(await page.getByRole('dialog').count(), 0, 'an alert trades nothing: no question asked');
    const alerts = (await trader.client.get('/platform/getAlerts.php')).body.data as { alertId: number; direction: string; level: number; status: string }[];
    const moved = alerts.find((a) => a.alertId === upper)!;
    assert.equal(moved.direction, 'below');
    assert.ok(moved.level > 1.083 && moved.level < 1.085, `moved to ${moved.level}`);
    await page.waitForFunction(() => (document.querySelector('[data-testid="terminal-chart"]')?.getAttribute('data-level-labels') ?? '').includes('Alert bid ≤ 1.08'));
    await context.close();
  });

  it('the chart’s bell takes an alert’s level from a click on the chart; Esc gives the pick up', async () => {
    const trader = await fundedTrader();
    const existing = (await postJson(trader.client, '/platform/addAlert.php', { symbol: 'EURUSD', price: 'bid', direction: 'above', level: 1.087 })).body.alertId as number;
    const { context, page, chart } = await chartWithLevel(trader, `alert-${existing}`);
    const bell = page.getByRole('button', { name: 'Set a price alert' }).first();
    const arm = async () => {
      await bell.click();
      await page.getByRole('menuitem', { name: 'At a level clicked on the chart' }).click();
    };
    const hint = page.getByText('Price alert on EURUSD: click its level on the chart · Esc cancels');
    await arm();
    await hint.waitFor();
    assert.equal(await bell.getAttribute('aria-pressed'), 'true');
    await page.keyboard.press('Escape');
    await hint.waitFor({ state: 'hidden' });

    await arm();
    await hint.waitFor();
    // Thirty pixels above the alert at 1.087: a level above it, and above the bid of 1.085.
    const y = await levelY(chart, `alert-${existing}`);
    const box = (await chart.canvas().boundingBox())!;
    await page.mouse.click(box.x + box.width * 0.4, box.y + y - 30);
    const dialog = page.getByRole('dialog', { name: 'New price alert' });
    await dialog.waitFor();
    await hint.waitFor({ state: 'hidden' });
    const level = Number(await dialog.getByRole('textbox', { name: 'Level' }).inputValue());
    assert.ok(level > 1.087 && level < 1.1, `the clicked level ${level}`);
    assert.equal(await dialog.getByRole('radio', { name: 'At or above' }).isChecked(), true);
    await dialog.getByRole('button', { name: 'Set alert' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const alerts = (await trader.client.get('/platform/getAlerts.php')).body.data as { level: number; direction: string }[];
    assert.deepEqual(alerts.map((a) => [a.level, a.direction]).sort(), [[1.087, 'above'], [level, 'above']].sort());
    // Last: the screenshots resize the page, which moves every line.
    await arm();
    await hint.waitFor();
    await screenshots(page, 'terminal-chart-alert-pick');
    await context.close();
  });

  it('keeps the order, SL and TP labels clear of each other and of the indicator legends: on the desktop, at MN, and on a phone turned sideways', async () => {
    const trader = await fundedTrader();
    await seedMonthlyCandles(h, 'EURUSD');
    // Two positions and two orders within 1.2 pips of each other: their lines a few pixels apart.
    const open = async (stopLoss: number, takeProfit: number) => (await postJson(trader.client, '/platform/addTrades.php', { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 0.1, stopLoss, takeProfit, comment: '' })).body.ticket as number;
    const first = await open(1.0846, 1.0858);
    const second = await open(1.0847, 1.0857);
    const order = async (orderType: string, price: number) => (await postJson(trader.client, '/platform/addPendingOrder.php', { fullSymbol: 'EURUSD', orderType, volume: 0.2, price, stopLimitPrice: 0, stopLoss: 0, takeProfit: 0 })).body.orderId as number;
    const buyLimit = await order('buy_limit', 1.0849);
    const sellLimit = await order('sell_limit', 1.0855);
    const saved = await postJson(trader.client, '/platform/saveChartLayout.php', {
      symbol: 'EURUSD',
      layout: { drawings: [], indicators: [{ name: 'MA', params: [20], source: 'close', colors: ['#f08c00'] }, { name: 'BOLL', params: [20, 2], source: 'close', colors: ['#7048e8', '#868e96', '#7048e8'] }, { name: 'SAR', params: [2, 2, 20], source: 'close', colors: ['#2f9e44', '#e03131'] }] },
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const keys = [`entry-${first}`, `sl-${first}`, `tp-${first}`, `entry-${second}`, `sl-${second}`, `tp-${second}`, `order-${buyLimit}`, `order-${sellLimit}`];

    const { context, page, chart } = await chartWithLevel(trader, `order-${buyLimit}`);
    await chart.canvas().and(page.locator('[data-applied="MA(20) BOLL(20,2) SAR(2,2,20)"]')).waitFor();
    await labelsClear(page, 'desktop, H1', keys);
    await page.mouse.move(10, 10);
    await page.screenshot({ path: `${ARTIFACTS}/terminal-chart-labels-desktop.png` });
    await page.setViewportSize(MOBILE);
    await labelsClear(page, 'desktop layout at 375 px', keys);
    await page.setViewportSize(DESKTOP);

    await page.getByRole('radiogroup', { name: 'Chart period', exact: true }).getByText('MN', { exact: true }).click();
    await page.getByRole('group', { name: 'EURUSD chart, MN' }).waitFor();
    await page.waitForFunction(() => !document.querySelector('[data-testid="chart-panel"] [aria-label="Loading the chart"]'));
    await labelsClear(page, 'desktop, MN', keys);
    await page.mouse.move(10, 10);
    await page.screenshot({ path: `${ARTIFACTS}/terminal-chart-labels-mn-desktop.png` });
    await page.emulateMedia({ colorScheme: 'dark' });
    await settled(page);
    await page.screenshot({ path: `${ARTIFACTS}/terminal-chart-labels-mn-desktop-dark.png` });
    await context.close();

    // A phone on its side (812×375): the phone terminal's chart tab, the labels finger-sized.
    const phone = await h.browser.newContext({ viewport: { width: 812, height: 375 }, hasTouch: true, isMobile: true, baseURL: h.origin, colorScheme: 'light', timezoneId: 'UTC', locale: 'en-US' });
    phone.setDefaultTimeout(10_000);
    const tab = await phone.newPage();
    const signIn = new SignInPage(tab);
    await signIn.goto();
    await signIn.signIn(trader.email, trader.password);
    await tab.waitForURL((u) => u.pathname === '/trading');
    await tab.getByTestId('price-row-EURUSD').tap();
    await tab.getByTestId('price-sheet').getByRole('button', { name: 'Chart' }).tap();
    await tab.getByRole('group', { name: 'EURUSD chart, H1' }).waitFor();
    await tab.waitForFunction((k) => (document.querySelector('[data-testid="terminal-chart"]')?.getAttribute('data-levels') ?? '').includes(`${k}@`), `order-${buyLimit}`);
    await labelsClear(tab, 'phone landscape', keys);
    await tab.screenshot({ path: `${ARTIFACTS}/terminal-chart-labels-phone-landscape.png` });
    await tab.setViewportSize(MOBILE);
    await labelsClear(tab, 'phone upright', keys);
    await tab.screenshot({ path: `${ARTIFACTS}/terminal-chart-labels-phone.png` });
    await phone.close();
  });

  it('removes a stop loss from the × on its label and a take profit by keyboard, each after confirming', async () => {
    const trader = await fundedTrader();
    const opened = await postJson(trader.client, '/platform/addTrades.php', { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 0.1, stopLoss: 1.08, takeProfit: 1.09, comment: '' });
    assert.equal(opened.status, 200, JSON.stringify(opened.body));
    const ticket = opened.body.ticket as number;

    const { context, page, chart } = await chartWithLevel(trader, `tp-${ticket}`, 'removes');
    const removes = ((await chart.canvas().getAttribute('data-level-removes')) ?? '').split(' ');
    assert.deepEqual(removes.map((r) => r.split('@')[0]), [`sl-${ticket}`, `tp-${ticket}`], 'an × on the SL and the TP, none on the entry');
    const [x, y] = removes[0]!.split('@')[1]!.split(',').map(Number) as [number, number];
    const box = (await chart.canvas().boundingBox())!;
    await page.mouse.move(box.x + x, box.y + y, { steps: 3 });
    await page.screenshot({ path: `${ARTIFACTS}/terminal-chart-level-remove.png`, clip: { x: box.x, y: Math.max(0, box.y + y - 60), width: 420, height: 120 } });
    await page.mouse.click(box.x + x, box.y + y);
    const dialog = page.getByRole('dialog', { name: 'Change the order?' });
    await dialog.getByText(`Remove the stop loss of #${ticket}?`).waitFor();
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.waitForFunction(async (t) => {
      const r = await fetch('/api/platform/getTrades.php');
      const row = (await r.json()).data.find((x: { ticket: number }) => x.ticket === t);
      return row && row.stopLoss === 0 && row.takeProfit === 1.09;
    }, ticket);
    await page.waitForFunction((t) => !(document.querySelector('[data-testid="terminal-chart"]')?.getAttribute('data-levels') ?? '').includes(`sl-${t}@`), ticket);

    // The keyboard reaches the take profit's × as a button named after it.
    const removeTp = chart.root.getByRole('button', { name: `Remove the take profit of #${ticket}` });
    await removeTp.focus();
    await page.keyboard.press('Enter');
    await dialog.getByText(`Remove the take profit of #${ticket}?`).waitFor();
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.waitForFunction(async (t) => {
      const r = await fetch('/api/platform/getTrades.php');
      const row = (await r.json()).data.find((x: { ticket: number }) => x.ticket === t);
      return row && row.stopLoss === 0 && row.takeProfit === 0;
    }, ticket);
    await removeTp.waitFor({ state: 'detached' });
    await context.close();
  });
});

/**
 * Asserts that the chart's level labels (as it places and marks them) overlap neither each other
 * nor the legends at the top of the candles' pane, and that every level in `keys` has one on the pane.
 */
async function labelsClear(page: Page, what: string, keys: string[]): Promise<void> {
  // The marks are refreshed when the chart is resized: nudge the page, so they are what is drawn now.
  const size = page.viewportSize()!;
  await page.setViewportSize({ width: size.width, height: size.height - 1 });
  await page.setViewportSize(size);
  await page.waitForTimeout(400);
  const canvas = page.getByTestId('terminal-chart');
  const legend = Number(await canvas.getAttribute('data-legend-bottom'));
  const boxes = ((await canvas.getAttribute('data-level-boxes')) ?? '')
    .split(' ')
    .filter(Boolean)
    .map((mark) => {
      const [key, rest] = mark.split('@') as [string, string];
      const [x, y, width, height] = rest.split(',').map(Number) as [number, number, number, number];
      return { key, x, y, width, height };
    });
  assert.ok(legend >= 40, `${what}: the legends of the three indicators end ${legend} px down`);
  assert.deepEqual(boxes.map((b) => b.key).sort(), [...keys].sort(), `${what}: a label for every level`);
  const paneHeight = (await canvas.boundingBox())!.height;
  for (const b of boxes) {
    assert.ok(b.y >= legend, `${what}: ${b.key}'s label (top ${b.y}) is under the legends (${legend})`);
    assert.ok(b.y + b.height <= paneHeight, `${what}: ${b.key}'s label is on the chart`);
  }
  for (const [i, a] of boxes.entries()) {
    for (const b of boxes.slice(i + 1)) assert.ok(a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y, `${what}: ${a.key} and ${b.key} overlap (${JSON.stringify([a, b])})`);
  }
}

/** Monthly candles for the MN period: two years of a seeded walk ending at the pushed price. */
async function seedMonthlyCandles(h: Harness, symbol: string): Promise<void> {
  const now = new Date();
  let seed = 11;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const rows = [];
  let close = 1.02;
  for (let m = 24; m >= 1; m--) {
    const open = close;
    close = m === 1 ? 1.085 : open * (1 + (random() - 0.45) * 0.03);
    const r = (v: number) => Number(v.toFixed(5));
    rows.push({ symbol, period: 'MN', time: Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - m, 1), open: r(open), high: r(Math.max(open, close) * 1.006), low: r(Math.min(open, close) * 0.994), close: r(close), volume: Math.round(50_000 + random() * 50_000) });
  }
  await h.app.ctx.db.insertInto('candles').values(rows).execute();
}

/** The trader's saved layout for EURUSD, read with the page's own session. */
async function layoutOf(page: Page): Promise<{ drawings: Array<{ tool: string; width: number; points: unknown[] }>; indicators: Array<{ name: string; params: number[]; source: string }> }> {
  return page.evaluate(async () => {
    const r = await fetch('/api/platform/getChartLayout.php?symbol=EURUSD');
    return (await r.json()).data.layout;
  });
}
