import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { PhoneTerminalPage } from './pages/phone-terminal-page';
import { SignInPage } from './pages/sign-in-page';
import { seedHourlyCandles } from './support/chart-candles';
import { addPaymentAccount, adminClient, approvedDeposit, ARTIFACTS, createTrader, MOBILE, postJson, pushTicks, screenshots, seedDailyCandles, seriousA11yViolations, startHarness, type Client, type Harness } from './support/harness';

/**
 * `/trading` on a phone (issue 18), at 375×812 with touch: the four tabs of the bottom bar, the
 * price row's and a position's sheets, the full-screen order screen, the trading tab, the chart tab,
 * and the rules of the layout (44 px targets, no sideways scroll at 360 px, landscape). Every price
 * is pushed by the test.
 */
describe('the phone terminal', () => {
  let h: Harness;
  let admin: Client;
  let gateway: number;
  const eurusd = (bid: number, ask = Number((bid + 0.0002).toFixed(5))) => pushTicks(h, [{ symbol: 'EURUSD', bid, ask }]);

  before(async () => {
    h = await startHarness();
    admin = await adminClient(h);
    gateway = await addPaymentAccount(admin);
    await seedHourlyCandles(h, 'EURUSD', 400);
  });
  after(async () => h?.close());

  /** A phone (touch, 375×812) signed in as a trader with `amount` USD, on /trading with a live stream and EURUSD at 1.10000 / 1.10020. */
  async function phone(amount = '10000.00', trader?: Awaited<ReturnType<typeof createTrader>>) {
    const who = trader ?? (await createTrader(h, { firstName: 'Noor', lastName: 'Haddad' }));
    if (!trader && amount !== '0') await approvedDeposit(who.client, admin, gateway, amount);
    await eurusd(1.1);
    const context = await h.browser.newContext({ viewport: MOBILE, hasTouch: true, isMobile: true, baseURL: h.origin, colorScheme: 'light', timezoneId: 'UTC', locale: 'en-US' });
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    page.on('pageerror', (err) => console.error(`[page error] ${err.message}`));
    const signIn = new SignInPage(page);
    await signIn.goto();
    await signIn.signIn(who.email, who.password);
    await page.waitForURL((u) => u.pathname === '/trading');
    const terminal = new PhoneTerminalPage(page);
    await terminal.root().waitFor();
    await page.waitForFunction(() => document.querySelector('[data-testid="connection-state"]')?.getAttribute('data-state') === 'open');
    await eurusd(1.1);
    await page.waitForFunction(() => document.querySelector('[data-testid="price-row-EURUSD"] [data-testid="bid"]')?.textContent === '1.10000');
    await page.getByText('SignIn successful!').waitFor({ state: 'hidden' });
    return { trader: who, context, page, terminal };
  }

  async function openTrades(client: Client) {
    const r = await client.get('/platform/getTrades.php');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.data as { ticket: number; symbol: string; type: string; volume: number; orginalPrice: number; stopLoss: number; takeProfit: number }[];
  }

  async function eventually<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 8000): Promise<T> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const v = await probe();
      if (v) return v;
      if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** The phone's screen, light and dark (axe-clean in both), saved at 375×812. */
  async function look(page: Page, name: string) {
    await page.waitForTimeout(300);
    mkdirSync(ARTIFACTS, { recursive: true });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForTimeout(300);
      assert.deepEqual(await seriousA11yViolations(page), [], `${name} (${scheme}): no serious or critical axe violation`);
      await page.screenshot({ path: join(ARTIFACTS, `${name}-phone${scheme === 'dark' ? '-dark' : ''}.png`), animations: 'disabled' });
    }
    await page.emulateMedia({ colorScheme: 'light' });
  }

  async function checkLayout(terminal: PhoneTerminalPage, where: string) {
    assert.deepEqual(await terminal.smallTouchTargets(), [], `${where}: every touch target is at least 44 px`);
    await terminal.page.setViewportSize({ width: 360, height: 740 });
    await terminal.page.waitForTimeout(200);
    assert.equal(await terminal.scrollsSideways(), false, `${where}: nothing scrolls sideways at 360 px`);
    await terminal.page.setViewportSize(MOBILE);
  }

  it('has the four tabs in the bottom bar: every price of the group, the chart, the trading table and the way back to the dashboard', async () => {
    const { context, page, terminal } = await phone();
    assert.equal(await terminal.rowCount(), 14, 'all 14 Forex symbols');
    await terminal.page.getByRole('textbox', { name: 'Keyword Search' }).waitFor();
    assert.equal(await terminal.tab('Prices').getAttribute('aria-current'), 'page');
    await look(page, 'phone-prices');
    await checkLayout(terminal, 'prices');
    await screenshots(page, 'phone-terminal', { dark: true });

    await terminal.openTab('Trade');
    await terminal.account().waitFor();
    assert.equal(await page.getByTestId('phone-balance').textContent(), '10,000.0000');
    await page.getByText("You don't have any positions").waitFor();
    await look(page, 'phone-trading-empty');
    await checkLayout(terminal, 'trading');

    await terminal.openTab('Chart');
    await terminal.chart().waitFor();
    assert.equal(await terminal.title().textContent(), 'EURUSD');
    await page.getByRole('group', { name: 'EURUSD chart, H1' }).waitFor();
    await look(page, 'phone-chart');
    await checkLayout(terminal, 'chart');

    // Landscape: the bar stays at the foot, nothing scrolls sideways.
    await page.setViewportSize({ width: 812, height: 375 });
    await page.waitForTimeout(300);
    const bar = await terminal.tabBar().boundingBox();
    assert.ok(bar && Math.abs(bar.y + bar.height - 375) < 1, 'the bottom bar sits at the foot in landscape');
    assert.equal(await terminal.scrollsSideways(), false);
    await page.screenshot({ path: join(ARTIFACTS, 'phone-chart-landscape.png') });
    await page.setViewportSize(MOBILE);

    // The tab survives a reload (it is in the URL's hash).
    await page.reload();
    await terminal.chart().waitFor();

    const viewport = () => page.locator('meta[name="viewport"]').getAttribute('content');
    assert.match((await viewport()) ?? '', /viewport-fit=cover/, 'the terminal reaches under the notch and pads by the safe-area insets');
    await terminal.tab('Dashboard').tap();
    await page.waitForURL((u) => u.pathname === '/dashboard/home');
    // The dashboard, which does not pad for the insets, stays letterboxed once the terminal has gone.
    await page.waitForFunction(() => !/viewport-fit/.test(document.querySelector('meta[name="viewport"]')?.getAttribute('content') ?? ''));
    await context.close();
  });

  it('stars symbols into Favourites from a row and its sheet, opens a row’s menu with a long press, and shows the instrument’s details in a sheet', async () => {
    const { trader, context, page, terminal } = await phone();
    await pushTicks(h, [{ symbol: 'GBPUSD', bid: 1.27, ask: 1.2702 }]);
    // The row's star: in the favourites at once, without opening the row's sheet.
    await terminal.row('GBPUSD').getByTestId('favourite').tap();
    await page.getByRole('button', { name: 'Remove GBPUSD from favourites' }).waitFor();
    assert.equal(await terminal.priceSheet().count(), 0, 'the star does not open the sheet');
    // The sheet's star.
    await terminal.tapRow('EURUSD');
    await terminal.priceSheet().getByRole('button', { name: 'Add EURUSD to favourites' }).tap();
    await terminal.priceSheet().getByRole('button', { name: 'Remove EURUSD from favourites' }).waitFor();
    assert.deepEqual((await trader.client.get('/platform/getFavourites.php')).body.data, ['GBPUSD', 'EURUSD'], 'kept on the server');
    await look(page, 'phone-price-sheet-favourite');
    // Details from the sheet: the specification, over the tab; Back closes it.
    await terminal.sheetButton('price', 'Details').tap();
    await terminal.detailsSheet().waitFor();
    assert.match(page.url(), /#prices\/details\/EURUSD$/);
    await terminal.detailsSheet().getByText('100,000 EUR per lot', { exact: true }).waitFor();
    await terminal.detailsSheet().getByText('Sunday 17:00 to Friday 17:00, New York time', { exact: true }).waitFor();
    await look(page, 'phone-details');
    assert.deepEqual(await terminal.smallTouchTargets(), [], 'the details sheet: every touch target is at least 44 px');
    await page.goBack();
    await terminal.detailsSheet().waitFor({ state: 'detached' });

    // Favourites, from the system's picker.
    await terminal.category().selectOption('Favourites');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid^="price-row-"]').length === 2);
    assert.equal(await terminal.row('GBPUSD').getByTestId('bid').textContent(), '1.27000');
    await look(page, 'phone-favourites');
    await checkLayout(terminal, 'favourites');

    // A long press opens the row's menu (not its sheet), with thumb-sized items.
    await terminal.longPress('GBPUSD');
    await page.waitForTimeout(300);
    assert.equal(await terminal.priceSheet().count(), 0, 'the press does not also open the sheet');
    assert.deepEqual(await terminal.rowMenu().getByRole('menuitem').allTextContents(), ['New order', 'Chart', 'Details', 'Remove from favourites']);
    for (const item of await terminal.rowMenu().getByRole('menuitem').all()) assert.ok(((await item.boundingBox())?.height ?? 0) >= 43.5, 'a menu item is at least 44 px high');
    await look(page, 'phone-row-menu');
    await terminal.rowMenu().getByRole('menuitem', { name: 'Remove from favourites' }).tap();
    await terminal.row('GBPUSD').waitFor({ state: 'detached' });
    assert.deepEqual((await trader.client.get('/platform/getFavourites.php')).body.data, ['EURUSD']);
    await terminal.longPress('EURUSD');
    await terminal.rowMenu().getByRole('menuitem', { name: 'Chart' }).tap();
    await terminal.chart().waitFor();
    assert.equal(await terminal.title().textContent(), 'EURUSD');

    // The optional columns show under the symbol on a phone (GBPUSD's day from a year of daily candles).
    await seedDailyCandles(h, 'GBPUSD', { start: 1.25 });
    await terminal.openTab('Prices');
    await page.getByRole('button', { name: 'Price table columns' }).tap();
    await page.getByRole('switch', { name: 'Spread' }).tap({ force: true });
    await page.getByRole('switch', { name: 'Change' }).tap({ force: true });
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => document.querySelector('[data-testid="price-row-EURUSD"] [data-testid="spread"]')?.textContent === '20 pt');
    await terminal.category().selectOption('Forex');
    await terminal.row('GBPUSD').getByTestId('spread').getByText('20 pt').waitFor();
    await page.waitForFunction(() => /^[+-]\d+\.\d\d%$/.test(document.querySelector('[data-testid="price-row-GBPUSD"] [data-testid="change"]')?.textContent ?? ''));
    await look(page, 'phone-prices-columns');
    await checkLayout(terminal, 'prices with the columns');
    await context.close();
  });

  it('opens a position from the price row sheet through the order screen, follows its profit, modifies its stop loss and closes it', async () => {
    const { trader, context, page, terminal } = await phone();
    // The sheet closes by Back, by a drag down and by a tap outside.
    await terminal.tapRow('EURUSD');
    await page.goBack();
    await terminal.priceSheet().waitFor({ state: 'detached' });
    assert.equal(new URL(page.url()).pathname, '/trading');
    await terminal.tapRow('EURUSD');
    await terminal.dragSheetDown(160);
    await terminal.priceSheet().waitFor({ state: 'detached' });
    await terminal.tapRow('EURUSD');
    await page.getByTestId('sheet-backdrop').tap({ position: { x: 20, y: 20 } });
    await terminal.priceSheet().waitFor({ state: 'detached' });

    await terminal.tapRow('EURUSD');
    assert.equal(await page.getByTestId('sheet-bid').textContent(), '1.10000');
    await page.waitForTimeout(300); // the sheet's rise
    const sheet = await terminal.priceSheet().boundingBox();
    const bar = await terminal.tabBar().boundingBox();
    assert.ok(sheet && bar && sheet.y + sheet.height <= bar.y + 0.5, 'the sheet ends above the bottom bar');
    assert.ok(sheet && Math.abs(sheet.height - 812 * 0.25) < 4, `the row sheet is a quarter of the height (${sheet?.height})`);
    await look(page, 'phone-price-sheet');

    await terminal.sheetButton('price', 'New Order').tap();
    await terminal.orderScreen().waitFor();
    assert.equal(await terminal.volume().inputValue(), '0.01');
    assert.match((await terminal.orderButton('buy').textContent()) ?? '', /1\.10020/);
    assert.match((await terminal.orderButton('sell').textContent()) ?? '', /1\.10000/);
    await terminal.volume().fill('0.5');
    await page.waitForFunction(() => document.querySelector('[data-testid="dialog-margin-buy"]')?.textContent === '550.0000 USD');
    await look(page, 'phone-order-screen');
    assert.deepEqual(await terminal.smallTouchTargets(), [], 'the order screen: every touch target is at least 44 px');
    // Fresh again: the checks above took long enough for the quote to go quiet.
    await eurusd(1.1);
    await terminal.orderButton('buy').tap();
    await terminal.orderScreen().waitFor({ state: 'detached' });
    // Back where it was opened from: the price table.
    assert.equal(await terminal.root().getAttribute('data-view'), 'prices');
    const position = await eventually('the position', async () => (await openTrades(trader.client))[0]);
    assert.deepEqual([position.symbol, position.type, position.volume, position.orginalPrice], ['EURUSD', 'Buy', 0.5, 1.1002]);

    await terminal.openTab('Trade');
    await terminal.position(position.ticket).waitFor();
    // 0.5 lots bought at 1.10020, valued at the bid: (1.10000 − 1.10020) × 50,000 = −10.00, then (1.10100 − 1.10020) × 50,000 = +40.00.
    await page.waitForFunction((t) => document.querySelector(`[data-testid="phone-position-${t}"] [data-testid="profit"]`)?.textContent === '-10.00', position.ticket);
    await eurusd(1.101);
    await page.waitForFunction((t) => document.querySelector(`[data-testid="phone-position-${t}"] [data-testid="profit"]`)?.textContent === '+40.00', position.ticket);
    await look(page, 'phone-trading-position');

    await terminal.position(position.ticket).tap();
    await terminal.positionSheet().waitFor();
    assert.equal(await page.getByTestId('sheet-profit').textContent(), '+40.00');
    assert.equal(await page.getByTestId('sheet-current').textContent(), '1.10100');
    assert.equal(await page.getByTestId('sheet-sl').textContent(), '—');
    await page.waitForTimeout(300);
    const positionSheet = await terminal.positionSheet().boundingBox();
    assert.ok(positionSheet && positionSheet.height >= 812 * 0.45 - 4, `the position sheet is at least 45% of the height (${positionSheet?.height})`);
    await eurusd(1.1005);
    await page.waitForFunction(() => document.querySelector('[data-testid="sheet-profit"]')?.textContent === '+15.00');
    await look(page, 'phone-position-sheet');

    await terminal.sheetButton('position', 'Modify').tap();
    const sl = page.getByTestId('modify-sl');
    await sl.fill('1.09');
    await look(page, 'phone-position-modify');
    await terminal.sheetButton('position', 'Save').tap();
    await page.waitForFunction(() => document.querySelector('[data-testid="sheet-sl"]')?.textContent === '1.09000');
    assert.equal((await openTrades(trader.client))[0]?.stopLoss, 1.09);

    await terminal.sheetButton('position', 'Close Position').tap();
    await terminal.positionSheet().waitFor({ state: 'detached' });
    await eventually('the position closed', async () => (await openTrades(trader.client)).length === 0);
    // The toast says what the server did: the close price and the profit booked.
    await page.getByText(new RegExp(`^Ticket #${position.ticket} closed at [0-9.]+; profit -?[0-9.]+ USD\\.$`)).waitFor();
    await page.getByText("You don't have any positions").waitFor();
    await page.getByTestId('phone-trading').locator('label', { hasText: 'History' }).tap();
    await page.getByTestId(`phone-history-${position.ticket}`).waitFor();
    // Above the list, the period's totals: the closed position's profit, and the deposit that funded it.
    const [closed] = (await trader.client.get('/dashboard/customer/getTradesHistory.php')).body.data as { profit: string }[];
    const profit = `${Number(closed?.profit) > 0 ? '+' : ''}${Number(closed?.profit).toFixed(2)}`;
    await page.waitForFunction((p) => document.querySelector('[data-testid="total-profit"]')?.textContent === p, profit);
    assert.equal(await page.getByTestId('total-closed').textContent(), '1 closed position');
    assert.match((await page.getByTestId('range-totals').textContent()) ?? '', /^Totals · Last 30 days/);
    await look(page, 'phone-trading-history');
    // Another period: 'Today' holds the same; the select is thumb-sized.
    await page.getByTestId('phone-period').selectOption('today');
    await page.waitForFunction(() => /^Totals · Today/.test(document.querySelector('[data-testid="range-totals"]')?.textContent ?? ''));
    await page.getByTestId(`phone-history-${position.ticket}`).waitFor();
    assert.ok(((await page.getByTestId('phone-period').boundingBox())?.height ?? 0) >= 44);
    await context.close();
  });

  it("shows a refused order's message with OK and opens nothing", async () => {
    const { trader, context, page, terminal } = await phone('50.00');
    await terminal.tapRow('EURUSD');
    await terminal.sheetButton('price', 'New Order').tap();
    await terminal.volume().fill('1');
    await eurusd(1.1);
    await terminal.orderButton('buy').tap();
    await terminal.refusal().waitFor();
    assert.match((await terminal.refusal().textContent()) ?? '', /margin/i);
    await look(page, 'phone-order-refused');
    await terminal.refusal().getByRole('button', { name: 'OK' }).tap();
    await terminal.refusal().waitFor({ state: 'detached' });
    assert.deepEqual(await openTrades(trader.client), []);
    // The screen's arrow returns to the tab it was opened from.
    await page.getByRole('button', { name: 'Close the order screen' }).tap();
    await terminal.orderScreen().waitFor({ state: 'detached' });
    assert.equal(await terminal.root().getAttribute('data-view'), 'prices');
    await context.close();
  });

  it('says Market Closed when Close Position is pressed while the market is closed, and keeps the position', async () => {
    const trader = await createTrader(h, { firstName: 'Kenji', lastName: 'Sato' });
    await approvedDeposit(trader.client, admin, gateway, '10000.00');
    await eurusd(1.1);
    const opened = await postJson(trader.client, '/platform/addTrades.php', { fullSymbol: 'EURUSD', tradestypes: 'sell', volume: 0.1, stopLoss: 0, takeProfit: 0, comment: '' });
    assert.equal(opened.status, 200, JSON.stringify(opened.body));
    const { context, page, terminal } = await phone('0', trader);
    const book = (h.app.app as unknown as { market: { book: { isOpen(symbol: string, time?: number): boolean } } }).market.book;
    const isOpen = book.isOpen.bind(book);
    book.isOpen = (symbol, time) => (symbol === 'EURUSD' ? false : isOpen(symbol, time));
    try {
      await eurusd(1.1001);
      await terminal.openTab('Trade');
      await terminal.position(opened.body.ticket).tap();
      await terminal.positionSheet().waitFor();
      await terminal.sheetButton('position', 'Close Position').tap();
      await page.getByTestId('sheet-market-closed').waitFor();
      await look(page, 'phone-position-market-closed');
      assert.equal((await openTrades(trader.client)).length, 1);
    } finally {
      book.isOpen = isOpen;
    }
    await context.close();
  });

  it("modifies a pending order's price and stop loss from the trading table, and cancels another", async () => {
    const trader = await createTrader(h, { firstName: 'Ana', lastName: 'Souza' });
    await approvedDeposit(trader.client, admin, gateway, '10000.00');
    await eurusd(1.1);
    const place = async (price: number) => {
      const r = await postJson(trader.client, '/platform/addPendingOrder.php', { fullSymbol: 'EURUSD', orderType: 'Buy Limit', volume: 0.1, price, comment: '' });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body.orderId as number;
    };
    const kept = await place(1.09);
    const dropped = await place(1.08);
    const { context, page, terminal } = await phone('0', trader);
    await terminal.openTab('Trade');
    await page.getByText(/^Pending/).tap();
    await page.getByTestId(`phone-order-${kept}`).waitFor();

    await page.getByRole('button', { name: `Modify order ${kept}` }).tap();
    const dialog = page.getByRole('dialog', { name: new RegExp(`Modify order #${kept}`) });
    await dialog.waitFor();
    assert.equal(await dialog.getByTestId('order-price').inputValue(), '1.09000');
    await dialog.getByTestId('order-price').fill('1.095');
    await dialog.getByRole('textbox', { name: 'Stop loss' }).fill('1.085');
    assert.deepEqual(await terminal.smallTouchTargets(), [], 'every touch target of the modify screen is at least 44 px');
    await look(page, 'phone-order-modify');
    await dialog.getByRole('button', { name: 'Save' }).tap();
    await dialog.waitFor({ state: 'detached' });
    const orders = async () => (await trader.client.get('/platform/getPendingOrders.php')).body.data as { orderId: number; price: number; stopLoss: number }[];
    const changed = await eventually('the new price on the server', async () => (await orders()).find((o) => o.orderId === kept && o.price === 1.095));
    assert.equal(changed.stopLoss, 1.085);
    await eventually('the new price in the list', async () => /at 1\.09500/.test((await page.getByTestId(`phone-order-${kept}`).textContent()) ?? ''));

    // A price on the wrong side of the market is refused with the server's words, and nothing changes.
    await page.getByRole('button', { name: `Modify order ${kept}` }).tap();
    await dialog.waitFor();
    await dialog.getByTestId('order-price').fill('1.2');
    await dialog.getByRole('button', { name: 'Save' }).tap();
    await dialog.getByTestId('modify-order-error').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).tap();
    await dialog.waitFor({ state: 'detached' });
    assert.equal((await orders()).find((o) => o.orderId === kept)?.price, 1.095);

    await page.getByRole('button', { name: `Cancel order ${dropped}` }).tap();
    await page.getByTestId(`phone-order-${dropped}`).waitFor({ state: 'detached' });
    assert.deepEqual((await orders()).map((o) => o.orderId), [kept]);
    await context.close();
  });

  it('changes the chart period, and shows a drawing made on the desktop', async () => {
    const trader = await createTrader(h, { firstName: 'Lena', lastName: 'Berg' });
    const now = Date.now();
    const saved = await postJson(trader.client, '/platform/saveChartLayout.php', {
      symbol: 'EURUSD',
      layout: { drawings: [{ tool: 'trendLine', points: [{ timestamp: now - 40 * 3_600_000, value: 1.075 }, { timestamp: now - 10 * 3_600_000, value: 1.085 }], color: '#1c7ed6', width: 2 }], indicators: [] },
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const { context, page, terminal } = await phone('0', trader);
    await terminal.openTab('Chart');
    await page.locator('[data-testid="phone-chart"] [data-testid="terminal-chart"][data-drawings="1"]').waitFor();
    await page.getByRole('button', { name: 'Chart period H1' }).tap();
    await page.getByRole('menuitem', { name: 'H4' }).tap();
    await page.getByRole('group', { name: 'EURUSD chart, H4' }).waitFor();
    await page.locator('[data-testid="phone-chart"] [data-testid="terminal-chart"][data-drawings="1"]').waitFor();
    await look(page, 'phone-chart-h4-drawing');

    // The toolbar's menu toggle opens the menu sheet; Back closes it.
    await page.getByRole('button', { name: 'Menu', exact: true }).tap();
    await page.getByTestId('menu-sheet').waitFor();
    await page.getByTestId('menu-sheet').getByText('Lena Berg').waitFor();
    await look(page, 'phone-menu');
    assert.deepEqual(await terminal.smallTouchTargets(), [], 'the menu: every touch target is at least 44 px');
    await page.goBack();
    await page.getByTestId('menu-sheet').waitFor({ state: 'detached' });
    await terminal.chart().waitFor();
    await context.close();
  });
});
