import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { SignInPage } from './pages/sign-in-page';
import { TerminalPage } from './pages/terminal-page';
import { createTrader, newPage, pushTicks, screenshots, seedDailyCandles, seriousA11yViolations, startHarness, type Harness } from './support/harness';

describe('the terminal price table under pushed ticks', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => h?.close());

  async function openTerminal() {
    const trader = await createTrader(h);
    const { context, page } = await newPage(h);
    const signIn = new SignInPage(page);
    await signIn.goto();
    await signIn.signIn(trader.email, trader.password);
    await page.waitForURL((u) => u.pathname === '/trading');
    const terminal = new TerminalPage(page);
    await terminal.table().waitFor();
    return { trader, context, page, terminal };
  }

  it('lists every Forex symbol by default in one table, no pages, shows Error before any price, then live prices in the instrument digits', async () => {
    const { context, page, terminal } = await openTerminal();
    const forex = await terminal.symbols();
    assert.equal(forex.length, 14, 'every Forex symbol of the catalogue, not a page of ten');
    assert.equal(await terminal.typeSelect().inputValue(), 'Forex');
    assert.ok(forex.includes('EURUSD') && forex.includes('EURAUD'), 'the first and the last of the group');
    assert.equal(await page.getByRole('button', { name: 'Page 2' }).count(), 0, 'no pagination');
    await page.waitForFunction(() => document.querySelector('[data-testid="price-row-EURUSD"]')?.getAttribute('data-state') === 'error');
    assert.equal((await terminal.cell('EURUSD', 'bid')).text, 'Error');

    await pushTicks(h, [{ symbol: 'EURUSD', bid: 1.08, ask: 1.0802 }, { symbol: 'USDJPY', bid: 151.2, ask: 151.22 }]);
    await page.waitForFunction(() => document.querySelector('[data-testid="price-row-EURUSD"] [data-testid="bid"]')?.textContent === '1.08000');
    assert.equal((await terminal.cell('EURUSD', 'ask')).text, '1.08020');
    await page.waitForFunction(() => document.querySelector('[data-testid="price-row-USDJPY"] [data-testid="bid"]')?.textContent === '151.200');
    assert.deepEqual(await seriousA11yViolations(page), []);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForTimeout(500);
    assert.deepEqual(await seriousA11yViolations(page), [], 'dark theme');
    await page.emulateMedia({ colorScheme: 'light' });
    await screenshots(page, 'terminal', { dark: true });
    await context.close();
  });

  it('colours a rise blue and a fall red, with the arrow, and keeps the row width still', async () => {
    const { context, page, terminal } = await openTerminal();
    await pushTicks(h, [{ symbol: 'EURUSD', bid: 1.08, ask: 1.0802 }]);
    await page.waitForFunction(() => document.querySelector('[data-testid="price-row-EURUSD"] [data-testid="bid"]')?.textContent === '1.08000');
    const before = await terminal.row('EURUSD').boundingBox();
    await pushTicks(h, [{ symbol: 'EURUSD', bid: 1.081, ask: 1.0812 }]);
    await page.waitForFunction(() => document.querySelector('[data-testid="price-row-EURUSD"] [data-testid="bid"]')?.getAttribute('data-direction') === 'up');
    const up = await terminal.cell('EURUSD', 'bid');
    assert.equal(up.text, '1.08100');
    assert.match(up.className, /tp-up/);
    assert.equal(await page.locator('[data-testid="price-row-EURUSD"] svg').count() > 0, true, 'an arrow shows the move');
    await pushTicks(h, [{ symbol: 'EURUSD', bid: 1.0795, ask: 1.0797 }]);
    await page.waitForFunction(() => document.querySelector('[data-testid="price-row-EURUSD"] [data-testid="bid"]')?.getAttribute('data-direction') === 'down');
    assert.match((await terminal.cell('EURUSD', 'bid')).className, /tp-down/);
    // The selected row's red figures stay readable on the selection colour (WCAG AA), in both themes.
    assert.equal(await terminal.row('EURUSD').getAttribute('aria-selected'), 'true');
    assert.deepEqual(await seriousA11yViolations(page), [], 'red on the selected row, light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForTimeout(400);
    assert.deepEqual(await seriousA11yViolations(page), [], 'red on the selected row, dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.waitForTimeout(400);
    const after = await terminal.row('EURUSD').boundingBox();
    assert.deepEqual([after?.width, after?.height], [before?.width, before?.height], 'a tick does not change the row size');
    await context.close();
  });

  it('searches by prefix from the top of the list and in every group, switches type, and says No data found.', async () => {
    const { context, page, terminal } = await openTerminal();
    await terminal.search().fill('GBP');
    const found = await terminal.symbols();
    assert.ok(found.length > 0 && found.every((s) => s.startsWith('GBP') || s.length > 0));
    assert.ok(found.includes('GBPUSD'));
    assert.ok(!found.includes('EURUSD'), 'EURUSD does not start with GBP');
    // A search looks in every group: Bitcoin is found with Forex chosen, and Forex comes back once the box is empty.
    await terminal.search().fill('BTC');
    await page.waitForFunction(() => !!document.querySelector('[data-testid="price-row-BTCUSD"]'));
    assert.ok(!(await terminal.symbols()).includes('EURUSD'));
    // The sign-in toast is still up: it sits below the header, clear of every control there.
    const toast = await page.locator('.mantine-Notification-root').first().boundingBox();
    assert.ok(toast, 'the sign-in toast shows');
    for (const control of await page.locator('header button, header [data-testid="connection-state"]').all()) {
      const box = await control.boundingBox();
      if (box) assert.ok(toast.y >= box.y + box.height || toast.x >= box.x + box.width || toast.x + toast.width <= box.x, `the toast leaves ${(await control.getAttribute('aria-label')) ?? 'a header control'} uncovered`);
    }
    await screenshots(page, 'terminal-search-every-group');
    await terminal.search().fill('ZZZ');
    await page.getByText('No data found.').waitFor();
    await terminal.search().fill('');
    await page.waitForFunction(() => !!document.querySelector('[data-testid="price-row-EURUSD"]'));
    await terminal.chooseType('Crypto');
    await page.waitForFunction(() => !!document.querySelector('[data-testid="price-row-BTCUSD"]'));
    assert.ok(!(await terminal.symbols()).includes('EURUSD'));
    await terminal.chooseType('Metals');
    await page.waitForFunction(() => !!document.querySelector('[data-testid="price-row-XAUUSD"]'));
    await terminal.chooseType('Stocks');
    await page.waitForFunction(() => !!document.querySelector('[data-testid="price-row-AAPL"]'));
    await context.close();
  });

  it('says within seconds that a silent connection (a paused server) is no longer live, and is live again once it answers', async () => {
    const { context, page } = await openTerminal();
    await page.waitForFunction(() => document.querySelector('[data-testid="connection-state"]')?.getAttribute('data-state') === 'open');
    // The stream passes through the test, which can hold every message both ways, as a paused server would.
    let paused = false;
    await page.routeWebSocket(/\/api\/stream$/, (ws) => {
      const server = ws.connectToServer();
      server.onMessage((m) => {
        if (!paused) ws.send(m);
      });
      ws.onMessage((m) => {
        if (!paused) server.send(m);
      });
    });
    for (const client of h.app.app.websocketServer.clients) client.terminate();
    await page.waitForFunction(() => document.querySelector('[data-testid="connection-state"]')?.getAttribute('data-state') === 'open', undefined, { timeout: 20_000 });
    paused = true;
    const pausedAt = Date.now();
    await page.waitForFunction(() => document.querySelector('[data-testid="connection-state"]')?.getAttribute('data-state') !== 'open', undefined, { timeout: 15_000 });
    const noticedMs = Date.now() - pausedAt;
    assert.ok(noticedMs < 7_000, `a silent connection was noticed after ${noticedMs} ms (it used to take ~31 s)`);
    await page.getByTestId('prices-delayed').waitFor();
    await screenshots(page, 'terminal-silent-connection');
    paused = false;
    await page.waitForFunction(() => document.querySelector('[data-testid="connection-state"]')?.getAttribute('data-state') === 'open', undefined, { timeout: 20_000 });
    await context.close();
  });

  it('shows the connection dropping and coming back, and catches up on prices missed meanwhile', async () => {
    const { context, page, terminal } = await openTerminal();
    await page.waitForFunction(() => document.querySelector('[data-testid="connection-state"]')?.getAttribute('data-state') === 'open');
    let blocked = true;
    await page.routeWebSocket(/\/api\/stream$/, (ws) => {
      if (blocked) return ws.close({ code: 1011, reason: 'test: stream unavailable' });
      ws.connectToServer();
    });
    for (const client of h.app.app.websocketServer.clients) client.terminate();
    await page.waitForFunction(() => document.querySelector('[data-testid="connection-state"]')?.getAttribute('data-state') === 'reconnecting');
    // The prices say they are delayed while they are polled.
    await terminal.delayedBadge().waitFor();
    await screenshots(page, 'terminal-reconnecting');
    // While the socket is down, prices still arrive (polled every second).
    await pushTicks(h, [{ symbol: 'EURUSD', bid: 1.0911, ask: 1.0913 }]);
    await page.waitForFunction(() => document.querySelector('[data-testid="price-row-EURUSD"] [data-testid="bid"]')?.textContent === '1.09110', undefined, { timeout: 8000 });
    blocked = false;
    await page.waitForFunction(() => document.querySelector('[data-testid="connection-state"]')?.getAttribute('data-state') === 'open', undefined, { timeout: 20_000 });
    await pushTicks(h, [{ symbol: 'EURUSD', bid: 1.0921, ask: 1.0923 }]);
    await page.waitForFunction(() => document.querySelector('[data-testid="price-row-EURUSD"] [data-testid="bid"]')?.textContent === '1.09210');
    assert.equal(await terminal.connectionState(), 'open');
    await terminal.delayedBadge().waitFor({ state: 'hidden' });
    await context.close();
  });
});

/** Signs a new trader in on the desktop terminal (1440×900) of harness `h`. */
async function openDesktop(h: Harness) {
  const trader = await createTrader(h);
  const { context, page } = await newPage(h);
  const signIn = new SignInPage(page);
  await signIn.goto();
  await signIn.signIn(trader.email, trader.password);
  await page.waitForURL((u) => u.pathname === '/trading');
  const terminal = new TerminalPage(page);
  await terminal.table().waitFor();
  return { trader, context, page, terminal };
}

describe('the price table: favourites, the row menu, details and the optional columns', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
    // A year of daily candles: the change column reads the previous day's close.
    await seedDailyCandles(h, 'EURUSD', { start: 1.08 });
  });
  after(async () => h?.close());

  it('stars symbols into the Favourites category, kept on the server across a reload, and says what to do when there are none', async () => {
    const { trader, context, page, terminal } = await openDesktop(h);
    await terminal.chooseType('Favourites');
    await page.getByTestId('favourites-empty').getByText('No favourites yet. Star a symbol to keep it here.').waitFor();
    await screenshots(page, 'terminal-favourites-empty');
    await page.getByRole('button', { name: 'Show Forex' }).click();
    await terminal.row('EURUSD').waitFor();
    assert.equal(await terminal.typeSelect().inputValue(), 'Forex');

    await terminal.star('GBPUSD').click();
    await page.getByRole('button', { name: 'Remove GBPUSD from favourites' }).waitFor();
    assert.equal(await terminal.star('GBPUSD').getAttribute('aria-pressed'), 'true');
    assert.notEqual(await terminal.row('GBPUSD').getAttribute('aria-selected'), 'true', 'the star does not select the row');
    await terminal.search().fill('XAU');
    await terminal.star('XAUUSD').click();
    await page.getByRole('button', { name: 'Remove XAUUSD from favourites' }).waitFor();
    await terminal.search().fill('');
    await terminal.star('EURUSD').click();
    await page.getByRole('button', { name: 'Remove EURUSD from favourites' }).waitFor();

    await terminal.chooseType('Favourites');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid^="price-row-"]').length === 3);
    assert.deepEqual(await terminal.symbols(), ['GBPUSD', 'XAUUSD', 'EURUSD'], 'in the order they were starred, across groups');
    const stored = async () => (await trader.client.get('/platform/getFavourites.php')).body.data as string[];
    assert.deepEqual(await stored(), ['GBPUSD', 'XAUUSD', 'EURUSD'], 'kept on the server');
    await pushTicks(h, [{ symbol: 'XAUUSD', bid: 2650.1, ask: 2650.45 }, { symbol: 'GBPUSD', bid: 1.27, ask: 1.2702 }, { symbol: 'EURUSD', bid: 1.08, ask: 1.0802 }]);
    await page.waitForFunction(() => document.querySelector('[data-testid="price-row-XAUUSD"] [data-testid="bid"]')?.textContent === '2,650.10');
    assert.deepEqual(await seriousA11yViolations(page), []);
    await screenshots(page, 'terminal-favourites', { dark: true });

    // A click on a starred star takes the symbol out, at once here and on the server.
    await terminal.star('XAUUSD').click();
    await terminal.row('XAUUSD').waitFor({ state: 'detached' });
    assert.deepEqual(await stored(), ['GBPUSD', 'EURUSD']);

    await page.reload();
    await terminal.table().waitFor();
    await terminal.chooseType('Favourites');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid^="price-row-"]').length === 2);
    assert.deepEqual(await terminal.symbols(), ['GBPUSD', 'EURUSD'], 'the same after a reload');

    // A refusal puts the star back and says why.
    await terminal.chooseType('Forex');
    await page.route('**/api/platform/editFavourites.php', (route) => route.fulfill({ status: 409, contentType: 'application/json', body: JSON.stringify({ status: 'Failure', message: 'You already have 100 favourites, the most the list may hold. Remove one before adding another.' }) }));
    await terminal.star('USDJPY').click();
    await page.getByText('You already have 100 favourites, the most the list may hold. Remove one before adding another.').waitFor();
    await page.getByRole('button', { name: 'Add USDJPY to favourites' }).waitFor();
    await page.unroute('**/api/platform/editFavourites.php');
    assert.deepEqual(await stored(), ['GBPUSD', 'EURUSD'], 'nothing changed on the server');
    await context.close();
  });

  it('opens a row’s menu by right-click, the context-menu key and Shift+F10: New order, Chart, Details and the favourites; Escape closes it and gives the focus back', async () => {
    const { trader, context, page, terminal } = await openDesktop(h);
    await pushTicks(h, [{ symbol: 'GBPUSD', bid: 1.27, ask: 1.2702 }, { symbol: 'EURUSD', bid: 1.08, ask: 1.0802 }]);
    await page.waitForFunction(() => document.querySelector('[data-testid="price-row-GBPUSD"] [data-testid="bid"]')?.textContent === '1.27000');
    await page.waitForFunction(() => document.querySelector('[data-testid="symbol-panel"] h2')?.textContent === 'EURUSD');

    await terminal.openRowMenu('GBPUSD');
    assert.deepEqual(await terminal.rowMenu().getByRole('menuitem').allTextContents(), ['New order', 'Chart', 'Details', 'Add to favourites']);
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'New order', 'the first item has the focus');
    assert.deepEqual(await seriousA11yViolations(page), [], 'the menu, light');
    await screenshots(page, 'terminal-row-menu', { dark: true });
    await page.keyboard.press('Escape');
    await terminal.rowMenu().waitFor({ state: 'hidden' });
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'price-row-GBPUSD', 'the focus is back on the row');

    // By keyboard: Shift+F10 on the focused row, the arrow keys, Enter. Chart shows the symbol.
    await page.keyboard.press('Shift+F10');
    await terminal.rowMenu().waitFor();
    // The menu gives its first item the focus as it opens; the arrow key moves on from there.
    await page.waitForFunction(() => document.activeElement?.textContent === 'New order');
    await page.keyboard.press('ArrowDown');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Chart');
    await page.keyboard.press('Enter');
    await terminal.rowMenu().waitFor({ state: 'hidden' });
    await page.waitForFunction(() => document.querySelector('[data-testid="symbol-panel"] h2')?.textContent === 'GBPUSD');
    assert.equal(await terminal.row('GBPUSD').getAttribute('aria-selected'), 'true');

    // The context-menu key: Details, the instrument's specification from the catalogue.
    await terminal.row('EURUSD').focus();
    await page.keyboard.press('ContextMenu');
    await terminal.rowMenu().waitFor();
    await terminal.menuItem('Details').click();
    const details = terminal.details();
    await details.waitFor();
    assert.equal(await details.getByRole('heading').first().textContent(), 'EURUSD specification');
    for (const text of ['5 (one point is 0.00001)', '100,000 EUR per lot', '0.01 to 100 lots, in steps of 0.01', '-7.2 points per lot a day', '+2.1 points per lot a day', 'Sunday 17:00 to Friday 17:00, New York time']) await details.getByText(text, { exact: true }).waitFor();
    assert.equal(await details.getByTestId('details-spread').textContent(), '20 points');
    await pushTicks(h, [{ symbol: 'EURUSD', bid: 1.081, ask: 1.0813 }]);
    await details.getByTestId('details-spread').getByText('30 points').waitFor();
    assert.deepEqual(await seriousA11yViolations(page), [], 'the specification');
    await screenshots(page, 'terminal-details', { dark: true });
    await page.keyboard.press('Escape');
    await details.waitFor({ state: 'hidden' });

    // New order opens the ticket for that row; the menu's star item adds and then removes it.
    await terminal.openRowMenu('GBPUSD');
    await terminal.menuItem('New order').click();
    await page.getByRole('dialog', { name: 'New order' }).waitFor();
    assert.equal(await page.getByTestId('dialog-symbol').textContent(), 'GBPUSD');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'New order' }).waitFor({ state: 'hidden' });
    await terminal.openRowMenu('GBPUSD');
    await terminal.menuItem('Add to favourites').click();
    await page.getByRole('button', { name: 'Remove GBPUSD from favourites' }).waitFor();
    assert.deepEqual((await trader.client.get('/platform/getFavourites.php')).body.data, ['GBPUSD']);
    await terminal.openRowMenu('GBPUSD');
    await terminal.menuItem('Remove from favourites').click();
    await page.getByRole('button', { name: 'Add GBPUSD to favourites' }).waitFor();
    assert.deepEqual((await trader.client.get('/platform/getFavourites.php')).body.data, []);
    // A click outside closes the menu without doing anything.
    await terminal.openRowMenu('USDJPY');
    await page.getByTestId('symbol-panel').click({ position: { x: 5, y: 5 } });
    await terminal.rowMenu().waitFor({ state: 'hidden' });
    assert.equal(await page.getByRole('dialog').count(), 0);
    await context.close();
  });

  it('turns the change and spread columns on from the table’s settings, kept with the terminal settings; a tick moves nothing', async () => {
    const { trader, context, page, terminal } = await openDesktop(h);
    await pushTicks(h, [{ symbol: 'EURUSD', bid: 1.08, ask: 1.0802 }, { symbol: 'USDJPY', bid: 151.2, ask: 151.22 }]);
    await page.waitForFunction(() => document.querySelector('[data-testid="price-row-EURUSD"] [data-testid="bid"]')?.textContent === '1.08000');
    assert.equal(await terminal.row('EURUSD').getByTestId('spread').count(), 0, 'off until turned on');
    await terminal.setColumn('Spread', true);
    await terminal.setColumn('Change', true);
    await page.getByRole('columnheader', { name: 'Change' }).waitFor();
    await page.getByRole('columnheader', { name: 'Spread' }).waitFor();
    assert.equal(((await terminal.row('EURUSD').getByTestId('spread').textContent()) ?? '').trim(), '20');
    assert.equal(((await terminal.row('USDJPY').getByTestId('spread').textContent()) ?? '').trim(), '20');
    // The day's change against the previous day's close the market summary gives.
    const summary = (await trader.client.get('/platform/getMarketSummary.php')).body.data.find((r: { symbol: string }) => r.symbol === 'EURUSD') as { prevClose: number };
    const expected = (((1.08 - summary.prevClose) / summary.prevClose) * 100).toFixed(2);
    const change = async () => ((await terminal.row('EURUSD').getByTestId('change').textContent()) ?? '').trim();
    await page.waitForFunction(() => /\d%$/.test(document.querySelector('[data-testid="price-row-EURUSD"] [data-testid="change"]')?.textContent ?? ''));
    assert.equal(await change(), `${Number(expected) > 0 ? '+' : ''}${expected}%`);
    assert.equal(await terminal.row('EURUSD').getByTestId('change').locator('[data-direction]').getAttribute('data-direction'), Number(expected) > 0 ? 'up' : 'down', 'coloured and with an arrow by its direction');
    assert.equal(((await terminal.row('GBPUSD').getByTestId('change').textContent()) ?? '').trim(), '—', 'no price, no change');
    const settings = (await trader.client.get('/platform/getTerminalSettings.php')).body.data;
    assert.deepEqual([settings.changeColumn, settings.spreadColumn], [true, true], 'kept on the server');

    // A tick changes the figures, never a cell's place or size.
    const boxes = async () => page.locator('[data-testid="price-row-EURUSD"] td').evaluateAll((cells) => cells.map((c) => { const r = c.getBoundingClientRect(); return [r.x, r.width, r.height]; }));
    const before = await boxes();
    await pushTicks(h, [{ symbol: 'EURUSD', bid: 1.1111, ask: 1.11125 }]);
    await page.waitForFunction(() => document.querySelector('[data-testid="price-row-EURUSD"] [data-testid="spread"]')?.textContent === '15');
    assert.notEqual(await change(), `${Number(expected) > 0 ? '+' : ''}${expected}%`, 'the change follows the bid');
    assert.deepEqual(await boxes(), before, 'no cell moved or changed size');
    assert.deepEqual(await seriousA11yViolations(page), []);
    await screenshots(page, 'terminal-columns', { dark: true });

    await page.reload();
    await terminal.table().waitFor();
    await page.getByRole('columnheader', { name: 'Spread' }).waitFor();
    await terminal.setColumn('Change', false);
    await page.getByRole('columnheader', { name: 'Change' }).waitFor({ state: 'detached' });
    assert.equal((await trader.client.get('/platform/getTerminalSettings.php')).body.data.changeColumn, false);
    await context.close();
  });
});

describe('the price table with hundreds of symbols', () => {
  let h: Harness;
  let dir: string;
  /** Forex: the shipped 14 pairs and 300 copies of EURUSD, in catalogue order. */
  let forex: string[];
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tp-price-table-'));
    const shipped = JSON.parse(readFileSync(resolve(dirname(fileURLToPath(import.meta.url)), '../../server/config/instruments.json'), 'utf8')) as { instruments: { symbol: string; group: string; description: string }[] };
    const eurusd = shipped.instruments.find((i) => i.symbol === 'EURUSD')!;
    const copies = Array.from({ length: 300 }, (_, i) => ({ ...eurusd, symbol: `EURUSD.${String(i + 1).padStart(3, '0')}`, description: `Euro vs US Dollar (copy ${i + 1})` }));
    const file = join(dir, 'instruments.json');
    writeFileSync(file, JSON.stringify({ ...shipped, instruments: [...shipped.instruments, ...copies] }));
    forex = [...shipped.instruments.filter((i) => i.group === 'Forex').map((i) => i.symbol), ...copies.map((c) => c.symbol)];
    h = await startHarness({ market: { catalogueFile: file } });
    await pushTicks(h, forex.map((symbol) => ({ symbol, bid: 1.08, ask: 1.0802 })));
  });
  after(async () => {
    await h?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('scrolls every row within the table under a sticky header, drawing only the rows in view; a tick re-renders only its own row', async () => {
    const { context, page, terminal } = await openDesktop(h);
    await page.waitForFunction(() => document.querySelector('[data-testid="price-row-EURUSD"] [data-testid="bid"]')?.textContent === '1.08000');
    const first = await terminal.drawnRows();
    assert.equal(first.listed, forex.length, 'every Forex symbol is listed');
    assert.ok(first.drawn >= 10 && first.drawn <= 40, `${first.drawn} rows drawn of ${first.listed}`);
    const header = page.locator('table[aria-label="Prices"] thead th').nth(2);
    const headerTop = (await header.boundingBox())!.y;
    const table = await page.locator('table[aria-label="Prices"]').boundingBox();
    assert.ok(table && Math.abs(table.height - (forex.length * 30 + (await header.boundingBox())!.height)) <= forex.length, `the table is every row high (${table?.height} px), so the scroll bar is true`);

    // Half way down: the rows there are drawn, the first ones are not, the header has stayed.
    await terminal.body().evaluate((el) => void (el.scrollTop = el.scrollHeight / 2));
    const middle = forex[Math.floor(forex.length / 2)]!;
    await terminal.row(middle).waitFor();
    await terminal.row('EURUSD').waitFor({ state: 'detached' });
    assert.equal((await header.boundingBox())!.y, headerTop, 'the header stays on top');
    assert.ok((await terminal.drawnRows()).drawn <= 40);
    await screenshots(page, 'terminal-long-list', { dark: true });

    // Ticks: only the ticked rows change, one change set each.
    const visible = await page.evaluate(() => {
      const body = document.querySelector('[data-testid="price-table-body"]')!.getBoundingClientRect();
      return [...document.querySelectorAll<HTMLElement>('[data-testid^="price-row-"]')].filter((r) => { const b = r.getBoundingClientRect(); return b.top >= body.top + 30 && b.bottom <= body.bottom; }).map((r) => r.dataset.symbol!);
    });
    const ticked = visible.slice(2, 4);
    await page.evaluate(() => {
      const w = window as unknown as { __changed: Set<string> };
      w.__changed = new Set();
      new MutationObserver((records) => records.forEach((r) => { const row = (r.target instanceof Element ? r.target : r.target.parentElement)?.closest('tr'); if (row) w.__changed.add((row as HTMLElement).dataset.symbol ?? 'spacer'); })).observe(document.querySelector('[data-testid="price-table-body"]')!, { subtree: true, childList: true, characterData: true, attributes: true });
    });
    await pushTicks(h, ticked.map((symbol) => ({ symbol, bid: 1.0811, ask: 1.0813 })));
    await page.waitForFunction((s) => document.querySelector(`[data-testid="price-row-${CSS.escape(s)}"] [data-testid="bid"]`)?.textContent === '1.08110', ticked[1]!);
    await page.waitForTimeout(300);
    assert.deepEqual((await page.evaluate(() => [...(window as unknown as { __changed: Set<string> }).__changed])).sort(), [...ticked].sort(), 'only the two ticked rows changed');
    await context.close();
  });

  it('moves among the rows by keyboard, scrolling the focused row into view: arrows, Page Down, End, Home; Space selects, Enter opens the order', async () => {
    const { context, page, terminal } = await openDesktop(h);
    await terminal.row('EURUSD').waitFor();
    const focused = () => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.symbol ?? null);
    // One tab stop: Tab from the search field's neighbours lands on the table's row, not on every row.
    assert.equal(await page.locator('[data-testid^="price-row-"][tabindex="0"]').count(), 1);
    await terminal.row('EURUSD').focus();
    await page.keyboard.press('ArrowDown');
    assert.equal(await focused(), forex[1]);
    await page.keyboard.press('ArrowUp');
    assert.equal(await focused(), 'EURUSD');
    await page.keyboard.press('PageDown');
    const afterPage = forex.indexOf((await focused())!);
    assert.ok(afterPage >= 8, `Page Down moved a page (to row ${afterPage})`);
    await page.keyboard.press('End');
    assert.equal(await focused(), forex.at(-1));
    const box = await terminal.body().boundingBox();
    const last = await terminal.row(forex.at(-1)!).boundingBox();
    assert.ok(box && last && last.y + last.height <= box.y + box.height + 1 && last.y >= box.y, 'the last row is in view');
    await page.keyboard.press('Space');
    await page.waitForFunction((s) => document.querySelector('[data-testid="symbol-panel"] h2')?.textContent === s, forex.at(-1)!);
    assert.equal(await terminal.row(forex.at(-1)!).getAttribute('aria-selected'), 'true');
    await page.keyboard.press('Home');
    assert.equal(await focused(), 'EURUSD');
    await terminal.row(forex.at(-1)!).waitFor({ state: 'detached' });
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'New order' }).waitFor();
    assert.equal(await page.getByTestId('dialog-symbol').textContent(), 'EURUSD');
    await context.close();
  });
});
