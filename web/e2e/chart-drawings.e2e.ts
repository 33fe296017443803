import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { after, before, describe, it } from 'node:test';
import { ChartPanel } from './pages/chart-panel';
import { PhoneChartTab } from './pages/phone-chart-tab';
import { SignInPage } from './pages/sign-in-page';
import { seedHourlyCandles } from './support/chart-candles';
import { captionInk, CROSSHAIR_LABEL, HANDLE, inPicture, onScreen, RECTANGLE } from './support/chart-pixels';
import { ARTIFACTS, createTrader, DESKTOP, MOBILE, newPage, screenshots, seriousA11yViolations, startHarness, type Harness } from './support/harness';

interface SavedDrawing {
  tool: string;
  points: Array<{ timestamp: number; value: number }>;
  color: string;
  width: number;
  lineStyle?: string;
  locked?: boolean;
  text?: string;
}

/** The trader's saved drawings for EURUSD, read with the page's own session. */
async function drawingsOf(page: Page): Promise<SavedDrawing[]> {
  return page.evaluate(async () => {
    const r = await fetch('/api/platform/getChartLayout.php?symbol=EURUSD');
    return (await r.json()).data.layout.drawings;
  });
}

describe('chart drawings: Fibonacci, text notes, line styles, locks and a clean saved picture', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
    await seedHourlyCandles(h, 'EURUSD', 500);
  });
  after(async () => h?.close());

  async function openChart(trader?: { email: string; password: string }, viewport = DESKTOP) {
    const who = trader ?? (await createTrader(h));
    const { context, page } = await newPage(h, viewport);
    const signIn = new SignInPage(page);
    await signIn.goto();
    await signIn.signIn(who.email, who.password);
    await page.waitForURL((u) => u.pathname === '/trading');
    await page.getByTestId('price-row-EURUSD').click({ timeout: 30_000 });
    const chart = new ChartPanel(page);
    await chart.canvas().waitFor();
    await page.waitForFunction(() => !document.querySelector('[data-testid="chart-panel"] [aria-label="Loading the chart"]'));
    return { trader: who, context, page, chart };
  }

  async function reopen(page: Page, chart: ChartPanel, overlays: number) {
    await page.reload();
    await page.getByTestId('price-row-EURUSD').click({ timeout: 30_000 });
    await chart.canvas().and(page.locator(`[data-overlays="${overlays}"]`)).waitFor();
  }

  it('draws a Fibonacci retracement and extension with their levels, and finds both again from the server after a reload', async () => {
    const { context, page, chart } = await openChart();
    assert.deepEqual(await chart.toolsOf('Fib'), ['Fib retracement', 'Fib extension']);
    // Every tool menu fits the toolbar at 1440 px, the chart type's three buttons included.
    const fit = await chart.toolbar().evaluate((el) => [el.scrollWidth, el.clientWidth]);
    assert.ok(fit[0]! <= fit[1]!, `the toolbar does not scroll: ${fit}`);
    assert.equal(await chart.toolbar().getByRole('radiogroup', { name: 'Chart type' }).getByRole('radio').count(), 3);
    await chart.pickTool('Fib', 'Fib retracement');
    await chart.clickAt([[0.15, 0.75], [0.4, 0.2]]);
    await chart.waitForDrawings(1);
    await chart.pickTool('Fib', 'Fib extension');
    await chart.clickAt([[0.5, 0.7], [0.62, 0.35], [0.7, 0.55]]);
    await chart.waitForDrawings(2);
    await chart.waitForSaved();
    const saved = await drawingsOf(page);
    assert.deepEqual(saved.map((d) => [d.tool, d.points.length]), [['fibRetracement', 2], ['fibExtension', 3]]);
    assert.ok(saved[0]!.points[1]!.value > saved[0]!.points[0]!.value, 'the move drawn upwards');

    await reopen(page, chart, 2);
    assert.deepEqual(await drawingsOf(page), saved);
    await page.mouse.move(5, 5);
    await screenshots(page, 'chart-fibonacci', { dark: true });
    await context.close();
  });

  it('places a text note through an accessible dialog, draws markup as plain text, edits it later and keeps it on the server', async () => {
    const { context, page, chart } = await openChart();
    // Cancelling the dialog takes the note away again.
    await chart.pickTextNote();
    await chart.clickAt([[0.3, 0.3]]);
    const dialog = chart.noteDialog('New text note');
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    assert.equal(await chart.canvas().getAttribute('data-overlays'), '0');
    assert.equal(await chart.drawingCount(), 0);

    await chart.pickTextNote();
    await chart.clickAt([[0.3, 0.3]]);
    await dialog.waitFor();
    const text = dialog.getByRole('textbox', { name: 'Text' });
    assert.equal(await text.evaluate((el) => el === document.activeElement), true, 'the text field has the focus');
    // Six lines are one too many: said next to the field, nothing added.
    await text.fill('1\n2\n3\n4\n5\n6');
    await dialog.getByText('At most 5 lines.').waitFor();
    await dialog.getByRole('button', { name: 'Add note' }).click();
    assert.equal(await chart.drawingCount(), 0);
    const markup = '<img src=x onerror="window.__noteRan=1">';
    await text.fill(`Breakout above the range\n${markup}`);
    assert.deepEqual(await seriousA11yViolations(page, ['[role="dialog"]']), []);
    await page.screenshot({ path: join(ARTIFACTS, 'chart-note-dialog-desktop.png') });
    await text.press('Control+Enter');
    await dialog.waitFor({ state: 'hidden' });
    await chart.waitForDrawings(1);
    await chart.waitForSaved();
    const [note] = await drawingsOf(page);
    assert.equal(note!.tool, 'textNote');
    assert.equal(note!.text, `Breakout above the range\n${markup}`);
    // Drawn on the canvas: no element was made from the text, nothing in it ran.
    assert.equal(await page.locator('img[src="x"]').count(), 0);
    assert.equal(await page.evaluate(() => (window as { __noteRan?: number }).__noteRan), undefined);

    // A click inside the note selects it; its bar offers the text again.
    const box = (await chart.canvas().boundingBox())!;
    await page.mouse.click(box.x + box.width * 0.3 + 30, box.y + box.height * 0.3 + 12);
    await chart.drawingBar().getByRole('button', { name: 'Edit text' }).click();
    const edit = chart.noteDialog('Edit text note');
    await edit.waitFor();
    assert.equal(await edit.getByRole('textbox', { name: 'Text' }).inputValue(), note!.text);
    await edit.getByRole('textbox', { name: 'Text' }).fill('Breakout above the range — retest at 1.0850');
    await edit.getByRole('button', { name: 'Save' }).click();
    await chart.waitForSaved();
    assert.equal((await drawingsOf(page))[0]!.text, 'Breakout above the range — retest at 1.0850');

    await reopen(page, chart, 1);
    assert.equal((await drawingsOf(page))[0]!.text, 'Breakout above the range — retest at 1.0850');
    // A double click on the note opens its text too.
    const again = (await chart.canvas().boundingBox())!;
    await page.mouse.dblclick(again.x + again.width * 0.3 + 30, again.y + again.height * 0.3 + 12);
    await edit.waitFor();
    await edit.getByRole('button', { name: 'Cancel' }).click();
    assert.equal(await chart.drawingCount(), 1, 'cancelling an edit keeps the note');
    await page.mouse.move(5, 5);
    await screenshots(page, 'chart-note', { dark: true });
    await context.close();
  });

  it("changes a selected drawing's colour, width and line style, kept on the server", async () => {
    const { context, page, chart } = await openChart();
    await chart.pickTool('Lines', 'Horizontal line');
    await chart.clickAt([[0.5, 0.4]]);
    await chart.waitForDrawings(1);
    await chart.clickAt([[0.2, 0.4]]);
    const bar = chart.drawingBar();
    await bar.waitFor();
    await bar.getByRole('radiogroup', { name: 'Line width' }).getByText('3', { exact: true }).click();
    await bar.getByRole('radiogroup', { name: 'Line style' }).locator('label', { hasText: 'Dotted' }).click();
    const colour = bar.getByRole('textbox', { name: 'Drawing colour' });
    await colour.fill('#e03131');
    await colour.press('Enter');
    await colour.blur();
    await chart.waitForSaved();
    await page.waitForFunction(async () => {
      const r = await fetch('/api/platform/getChartLayout.php?symbol=EURUSD');
      return (await r.json()).data.layout.drawings[0]?.color === '#e03131';
    });
    const [line] = await drawingsOf(page);
    assert.deepEqual([line!.color, line!.width, line!.lineStyle], ['#e03131', 3, 'dotted']);
    await page.screenshot({ path: join(ARTIFACTS, 'chart-line-style-desktop.png') });

    // The next drawing starts with the look last chosen; solid again is left out of the layout.
    await reopen(page, chart, 1);
    await chart.clickAt([[0.2, 0.4]]);
    await bar.waitFor();
    assert.equal(await bar.getByRole('radio', { name: 'Dotted' }).isChecked(), true);
    await bar.getByRole('radiogroup', { name: 'Line style' }).locator('label', { hasText: 'Solid' }).click();
    await chart.waitForSaved();
    assert.equal((await drawingsOf(page))[0]!.lineStyle, undefined);
    await context.close();
  });

  it('a locked drawing is neither dragged nor deleted (Delete key, button, right click, remove all) until it is unlocked', async () => {
    const { context, page, chart } = await openChart();
    await chart.pickTool('Lines', 'Horizontal line');
    await chart.clickAt([[0.5, 0.5]]);
    await chart.waitForDrawings(1);
    await chart.clickAt([[0.2, 0.5]]);
    const bar = chart.drawingBar();
    await bar.getByRole('button', { name: 'Lock drawing' }).click();
    await chart.waitForSaved();
    const [locked] = await drawingsOf(page);
    assert.equal(locked!.locked, true);
    assert.equal(await bar.getByRole('button', { name: 'Delete' }).isDisabled(), true);
    assert.deepEqual(await seriousA11yViolations(page, ['[data-testid="chart-panel"]']), []);

    await chart.drag([0.2, 0.5], [0.2, 0.3]);
    await page.keyboard.press('Delete');
    const box = (await chart.canvas().boundingBox())!;
    await page.mouse.click(box.x + box.width * 0.2, box.y + box.height * 0.5, { button: 'right' });
    await page.waitForTimeout(900);
    assert.equal(await chart.drawingCount(), 1);
    assert.deepEqual((await drawingsOf(page))[0]!.points, locked!.points, 'not moved');
    await chart.toolbar().getByRole('button', { name: 'Remove all drawings' }).waitFor();
    assert.equal(await chart.toolbar().getByRole('button', { name: 'Remove all drawings' }).isDisabled(), true, 'nothing to remove but a locked drawing');

    // Still locked after a reload; unlocked, the same drag moves it.
    await reopen(page, chart, 1);
    await chart.clickAt([[0.2, 0.5]]);
    await bar.getByRole('button', { name: 'Unlock drawing', pressed: true }).click();
    await chart.waitForSaved();
    assert.equal((await drawingsOf(page))[0]!.locked, undefined);
    await chart.drag([0.2, 0.5], [0.2, 0.3]);
    await chart.waitForSaved();
    const [moved] = await drawingsOf(page);
    assert.ok(moved!.points[0]!.value > locked!.points[0]!.value, `moved up: ${moved!.points[0]!.value} > ${locked!.points[0]!.value}`);
    // Unlocked, a right click (KLineChart's own gesture) removes it, and the layout follows.
    const now = (await chart.canvas().boundingBox())!;
    await page.mouse.click(now.x + now.width * 0.2, now.y + now.height * 0.3, { button: 'right' });
    await chart.waitForDrawings(0);
    await chart.waitForSaved();
    assert.deepEqual(await drawingsOf(page), []);
    await context.close();
  });

  it('saves a clean picture: the drawings without the crosshair, the selection handles or the axis highlight, under a caption with the symbol, period and time', async () => {
    const { context, page, chart } = await openChart();
    await chart.pickTool('Shapes', 'Rectangle');
    await chart.clickAt([[0.35, 0.3], [0.6, 0.6]]);
    await chart.waitForDrawings(1);
    await chart.clickAt([[0.35, 0.45]]);
    const bar = chart.drawingBar();
    const colour = bar.getByRole('textbox', { name: 'Drawing colour' });
    await colour.fill('#e03131');
    await colour.press('Enter');
    // The picker closes when the field loses the focus.
    await colour.blur();
    await chart.waitForSaved();
    // The pointer rests on the chart: crosshair with its axis labels, the selected rectangle's handles.
    const box = (await chart.canvas().boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.45, box.y + box.height * 0.45, { steps: 4 });
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(ARTIFACTS, 'chart-picture-before-desktop.png') });
    const shown = await onScreen(page, [CROSSHAIR_LABEL, HANDLE, RECTANGLE]);
    assert.ok(shown[0]! > 50 && shown[1]! > 20 && shown[2]! > 50, `crosshair, handles and the rectangle on screen: ${shown}`);

    // Saved from the keyboard, so the pointer stays where it was.
    const save = chart.toolbar().getByRole('button', { name: 'Save image' });
    await save.focus();
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    assert.equal(download.suggestedFilename(), 'EURUSD-H1.png');
    const png = readFileSync((await download.path())!);
    writeFileSync(join(ARTIFACTS, 'chart-saved-picture-light.png'), png);
    const picture = await inPicture(page, png, [CROSSHAIR_LABEL, HANDLE, RECTANGLE]);
    const ratio = await page.evaluate(() => window.devicePixelRatio);
    assert.equal(picture.width, Math.round(box.width * ratio));
    assert.equal(picture.height, Math.round((box.height + 36) * ratio), 'the chart under a 36 px caption');
    assert.equal(picture.counts[0], 0, 'no crosshair label');
    assert.equal(picture.counts[1], 0, 'no handles or highlighted price tags');
    assert.ok(picture.counts[2]! > 50, `the rectangle is in it: ${picture.counts[2]}`);
    // The caption is drawn: dark text on the white strip.
    const caption = await captionInk(page, png);
    assert.ok(caption > 100, `caption text drawn: ${caption} dark pixels`);
    // The screen is as it was: the drawing still selected, and the crosshair back with the pointer.
    await bar.waitFor();
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5, { steps: 3 });
    await page.waitForTimeout(300);
    assert.ok((await onScreen(page, [CROSSHAIR_LABEL]))[0]! > 50, 'the crosshair shows again');

    // The dark theme's picture, and a phone-wide one (the time under the title).
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForTimeout(400);
    const [dark] = await Promise.all([page.waitForEvent('download'), chart.toolbar().getByRole('button', { name: 'Save image' }).click()]);
    writeFileSync(join(ARTIFACTS, 'chart-saved-picture-dark.png'), readFileSync((await dark.path())!));
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize(MOBILE);
    await page.waitForTimeout(600);
    await chart.root.scrollIntoViewIfNeeded();
    const [narrow] = await Promise.all([page.waitForEvent('download'), chart.toolbar().getByRole('button', { name: 'Save image' }).click()]);
    const small = readFileSync((await narrow.path())!);
    writeFileSync(join(ARTIFACTS, 'chart-saved-picture-narrow.png'), small);
    const narrowBox = (await chart.canvas().boundingBox())!;
    const narrowPicture = await inPicture(page, small, []);
    assert.equal(narrowPicture.width, Math.round(narrowBox.width * ratio));
    // One caption line, or two where the title and the time would meet.
    assert.ok([36, 54].some((caption) => narrowPicture.height === Math.round((narrowBox.height + caption) * ratio)), `${narrowPicture.height}`);
    await context.close();
  });

  it("on a phone, a drawing's line style and lock and a text note are set with finger-sized controls", async () => {
    const trader = await createTrader(h);
    const context = await h.browser.newContext({ viewport: MOBILE, hasTouch: true, isMobile: true, baseURL: h.origin, colorScheme: 'light', timezoneId: 'UTC', locale: 'en-US' });
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    const signIn = new SignInPage(page);
    await signIn.goto();
    await signIn.signIn(trader.email, trader.password);
    await page.waitForURL((u) => u.pathname === '/trading');
    await page.getByTestId('price-row-EURUSD').tap({ timeout: 30_000 });
    await page.getByTestId('price-sheet').getByRole('button', { name: 'Chart' }).tap();
    const chart = new PhoneChartTab(page);
    await chart.waitForChart('EURUSD', 'H1');

    await chart.pickTool('Lines', 'Horizontal line');
    await chart.tapAt([[0.5, 0.45]]);
    await chart.waitForOverlays(1);
    await chart.tapAt([[0.25, 0.45]]);
    const bar = chart.drawingBar();
    await bar.getByRole('button', { name: /^Line 2 px, solid/ }).tap();
    await page.getByRole('menu').getByRole('menuitem', { name: 'Dashed' }).tap();
    await bar.getByRole('button', { name: 'Lock drawing' }).tap();
    await bar.getByRole('button', { name: 'Unlock drawing', pressed: true }).waitFor();
    const small = await bar.evaluate((el) =>
      [...el.querySelectorAll<HTMLElement>('button, input')]
        .map((c) => ({ c, r: c.getBoundingClientRect() }))
        .filter(({ r }) => r.width < 44 || r.height < 44)
        .map(({ c, r }) => `${c.getAttribute('aria-label') ?? c.textContent} ${Math.round(r.width)}×${Math.round(r.height)}`),
    );
    assert.deepEqual(small, [], 'every control of the bar is finger-sized');
    await page.waitForFunction(async () => {
      const r = await fetch('/api/platform/getChartLayout.php?symbol=EURUSD');
      const [d] = (await r.json()).data.layout.drawings;
      return d?.lineStyle === 'dashed' && d.locked === true;
    });
    assert.deepEqual(await seriousA11yViolations(page, ['[data-testid="phone-chart"]']), []);
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(ARTIFACTS, 'chart-phone-drawing-bar.png') });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForTimeout(400);
    await page.screenshot({ path: join(ARTIFACTS, 'chart-phone-drawing-bar-dark.png') });
    await page.emulateMedia({ colorScheme: 'light' });

    await chart.pickTool('Text', 'Text note');
    await chart.tapAt([[0.2, 0.2]]);
    const dialog = page.getByRole('dialog', { name: 'New text note' });
    await dialog.getByRole('textbox', { name: 'Text' }).fill('Weekly pivot');
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(ARTIFACTS, 'chart-phone-note-dialog.png') });
    await dialog.getByRole('button', { name: 'Add note' }).tap();
    await chart.waitForOverlays(2);
    await page.waitForFunction(async () => {
      const r = await fetch('/api/platform/getChartLayout.php?symbol=EURUSD');
      return (await r.json()).data.layout.drawings.some((d: { text?: string }) => d.text === 'Weekly pivot');
    });
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(ARTIFACTS, 'chart-phone-note.png') });
    await context.close();
  });
});
