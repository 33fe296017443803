import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SignInPage } from './pages/sign-in-page';
import { TerminalPage } from './pages/terminal-page';
import { createTrader, newPage, pushTicks, screenshots, seriousA11yViolations, startHarness, type Harness } from './support/harness';

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

  it('lists Forex by default, ten a page, shows Error before any price, then live prices in the instrument digits', async () => {
    const { context, page, terminal } = await openTerminal();
    const firstPage = await terminal.symbols();
    assert.equal(firstPage.length, 10, 'ten rows a page');
    assert.equal(await terminal.typeSelect().inputValue(), 'Forex');
    assert.ok(firstPage.includes('EURUSD'));
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

  it('searches by prefix back on page 1 and in every group, switches type, pages, and says No data found.', async () => {
    const { context, page, terminal } = await openTerminal();
    await page.getByRole('button', { name: 'Page 2' }).click();
    const second = await terminal.symbols();
    assert.ok(second.length > 0 && !second.includes('EURUSD'), 'page 2 holds the next symbols');
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
