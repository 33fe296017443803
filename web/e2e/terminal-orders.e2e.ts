import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { calendar, pickDateTime } from './pages/date-fields';
import { PositionsPanel } from './pages/positions-panel';
import { SignInPage } from './pages/sign-in-page';
import { OrderEntry, TerminalPage } from './pages/terminal-page';
import { addPaymentAccount, adminClient, approvedDeposit, createTrader, newPage, postJson, pushTicks, screenshots, seriousA11yViolations, startHarness, type Client, type Harness } from './support/harness';

/** A fresh server (with these market timings) and what each test of a describe needs. */
function orderFixture(options: { market?: NonNullable<Parameters<typeof startHarness>[0]>['market'] } = {}) {
  let h: Harness;
  let admin: Client;
  let gateway: number;

  const eurusd = (bid: number, ask = Number((bid + 0.0002).toFixed(5))) => pushTicks(h, [{ symbol: 'EURUSD', bid, ask }]);

  before(async () => {
    h = await startHarness({ market: options.market });
    admin = await adminClient(h);
    gateway = await addPaymentAccount(admin);
  });
  after(async () => h?.close());

  /** A trader with `amount` USD approved, signed in on /trading with a live stream and EURUSD at 1.10000 / 1.10020. */
  async function fundedTerminal(amount = '10000.00', timezoneId = 'UTC') {
    const trader = await createTrader(h, { firstName: 'Ines', lastName: 'Okafor' });
    await approvedDeposit(trader.client, admin, gateway, amount);
    await eurusd(1.1);
    const { context, page } = await newPage(h, undefined, { timezoneId });
    const signIn = new SignInPage(page);
    await signIn.goto();
    await signIn.signIn(trader.email, trader.password);
    await page.waitForURL((u) => u.pathname === '/trading');
    const terminal = new TerminalPage(page);
    await terminal.table().waitFor();
    await page.waitForFunction(() => document.querySelector('[data-testid="connection-state"]')?.getAttribute('data-state') === 'open');
    // Again, fresh: where quotes turn stale quickly, the first one may have aged during the sign-in.
    await eurusd(1.1);
    await page.waitForFunction(() => document.querySelector('[data-testid="price-row-EURUSD"] [data-testid="bid"]')?.textContent === '1.10000');
    return { trader, context, page, terminal, entry: new OrderEntry(page), panel: new PositionsPanel(page) };
  }

  async function openTrades(client: Client) {
    const r = await client.get('/platform/getTrades.php');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.data as { ticket: number; symbol: string; type: string; volume: number; orginalPrice: number; stopLoss: number; takeProfit: number; comment: string }[];
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

  /** Axe in both themes, then the screenshots (1440×900 and 375×812, light and dark). */
  async function look(page: Page, name: string) {
    await page.mouse.move(0, 0);
    await page.waitForTimeout(300);
    assert.deepEqual(await seriousA11yViolations(page), [], `${name}: no serious or critical axe violation`);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForTimeout(300);
    assert.deepEqual(await seriousA11yViolations(page), [], `${name} (dark): no serious or critical axe violation`);
    await page.emulateMedia({ colorScheme: 'light' });
    await screenshots(page, name, { dark: true });
  }

  return { harness: () => h, eurusd, fundedTerminal, openTrades, eventually, look };
}

/**
 * Order entry on /trading against a real server: the new-order dialog (market and pending orders,
 * the margin preview, refusals, 'Market Closed'), the quick-trade widget and one-click trading.
 * Every price is pushed by the test.
 */
describe('the terminal order entry', () => {
  const { harness, eurusd, fundedTerminal, openTrades, eventually, look } = orderFixture();

  it('buys from the dialog: the margin shown before sending is the margin the server holds after the fill', async () => {
    const { trader, context, page, entry, panel } = await fundedTerminal();
    await page.getByText('SignIn successful!').waitFor({ state: 'hidden' });
    await look(page, 'terminal-layout');
    await entry.openFromRow('EURUSD');
    assert.equal(await entry.orderType().inputValue(), 'Instant Execution');
    assert.equal(await entry.volume().inputValue(), '0.01');
    await entry.setVolume('0.5');
    // 0.5 × 100,000 / 100 = 500 EUR at the EURUSD bid 1.10000 = 550.00 USD; the spread costs 10.00 at once.
    await page.waitForFunction(() => document.querySelector('[data-testid="dialog-margin-buy"]')?.textContent === '550.0000 USD');
    const shown = await entry.margin('buy');
    assert.equal(await entry.freeMarginAfter('buy'), '9,440.0000 USD');
    assert.match((await entry.button('buy').textContent()) ?? '', /1\.10020/);
    assert.match((await entry.button('sell').textContent()) ?? '', /1\.10000/);
    await look(page, 'terminal-order-dialog');

    await entry.button('buy').click();
    await entry.dialog().waitFor({ state: 'hidden' });
    const position = await eventually('the position', async () => (await openTrades(trader.client))[0]);
    assert.deepEqual([position.symbol, position.type, position.volume, position.orginalPrice], ['EURUSD', 'Buy', 0.5, 1.1002]);
    const margins = await trader.client.get('/platform/getMargins.php');
    assert.equal(`${Number(margins.body.totalMargin).toLocaleString('en-US', { minimumFractionDigits: 4 })} USD`, shown, 'the preview is what the server holds');
    await panel.position(position.ticket).waitFor();
    await page.getByText(`Position #${position.ticket} opened`).waitFor();

    // The next opening starts from the spec's defaults again; Enter on a focused row opens it too.
    await page.getByTestId('price-row-EURUSD').focus();
    await page.keyboard.press('Enter');
    await entry.dialog().waitFor();
    assert.equal(await page.getByTestId('dialog-symbol').textContent(), 'EURUSD');
    assert.equal(await entry.volume().inputValue(), '0.01');
    assert.equal(await entry.comment().inputValue(), '');
    await page.keyboard.press('Escape');
    await context.close();
  });

  it("charges the account type's commission: previewed before sending, then on the position and in History, as the ledger has it", async () => {
    const { trader, context, page, entry, panel } = await fundedTerminal();
    // The broker puts the account on a type charging 3.50 per lot on each deal.
    const admin = await adminClient(harness());
    const type = await postJson(admin, '/dashboard/admin/saveAccountType.php', { name: 'ECN', kind: 'live', leverage: null, marginCallLevel: null, stopOutLevel: null, tradingMode: 'full', commission: { basis: 'lot', amount: 3.5 }, isDefault: false, state: 'active' });
    assert.equal(type.status, 200, JSON.stringify(type.body));
    const account = ((await trader.client.get('/platform/getAccounts.php')).body.data as { id: number }[])[0]!;
    assert.equal((await postJson(admin, '/dashboard/admin/setAccountType.php', { accountId: account.id, typeId: type.body.data.id })).status, 200);
    await page.reload();
    await page.getByTestId('price-row-EURUSD').waitFor();
    await eurusd(1.1);

    await entry.openFromRow('EURUSD');
    await entry.setVolume('0.3');
    // 3.50 × 0.3 = 1.05; free margin 10,000 − 330.00 margin − 6.00 spread − 1.05.
    await page.waitForFunction(() => document.querySelector('[data-testid="dialog-commission-buy"]')?.textContent === '1.0500 USD');
    assert.equal(await entry.commission('sell'), '1.0500 USD');
    assert.equal(await entry.freeMarginAfter('buy'), '9,662.9500 USD');
    await look(page, 'terminal-order-dialog-commission');
    await entry.button('buy').click();
    await entry.dialog().waitFor({ state: 'hidden' });
    const position = await eventually('the position', async () => (await openTrades(trader.client))[0]);
    await panel.position(position.ticket).getByTestId('commission').filter({ hasText: '-1.05' }).waitFor();

    await eurusd(1.101);
    assert.equal((await postJson(trader.client, '/platform/updateTrades.php', { ticket: position.ticket })).status, 200);
    await panel.openTab('History');
    await panel.historyRow(position.ticket).getByTestId('commission').filter({ hasText: '-2.10' }).waitFor();
    const operations = (await trader.client.get('/dashboard/customer/getBalanceOperations.php')).body.data as { kind: string; amount: string; ticket: number | null }[];
    assert.deepEqual(
      operations.filter((o) => o.kind === 'commission').map((o) => [o.amount, o.ticket]),
      [
        ['-1.05', position.ticket],
        ['-1.05', position.ticket],
      ],
    );
    await context.close();
  });

  it('says on the ticket when the account type does not offer an instrument, with Buy and Sell off, and previews margin at its leverage limit', async () => {
    const { trader, context, page, entry } = await fundedTerminal();
    // The broker puts the account on a type that offers EURUSD only, at most at 1:50.
    const admin = await adminClient(harness());
    const type = await postJson(admin, '/dashboard/admin/saveAccountType.php', { name: 'Euro only', kind: 'live', leverage: null, marginCallLevel: null, stopOutLevel: null, tradingMode: 'full', instruments: ['EURUSD'], leverageLimits: { groups: {}, symbols: { EURUSD: 50 } }, isDefault: false, state: 'active' });
    assert.equal(type.status, 200, JSON.stringify(type.body));
    const account = ((await trader.client.get('/platform/getAccounts.php')).body.data as { id: number }[])[0]!;
    assert.equal((await postJson(admin, '/dashboard/admin/setAccountType.php', { accountId: account.id, typeId: type.body.data.id })).status, 200);
    await page.reload();
    await page.getByTestId('price-row-GBPUSD').waitFor();
    await pushTicks(harness(), [{ symbol: 'GBPUSD', bid: 1.27, ask: 1.2702 }]);
    await eurusd(1.1);

    await entry.openFromRow('GBPUSD');
    const notice = entry.dialog().getByTestId('dialog-not-offered');
    await notice.waitFor();
    assert.equal(await notice.textContent(), 'GBPUSD is not offered on your account type (Euro only). Buy and Sell are off; positions already open in it can still be closed.');
    assert.equal(await entry.button('buy').isDisabled(), true);
    assert.equal(await entry.button('sell').isDisabled(), true);
    await look(page, 'terminal-order-dialog-not-offered');
    await page.keyboard.press('Escape');
    await entry.dialog().waitFor({ state: 'hidden' });

    // What it offers trades as before, margined at the type's 1:50: 1,000 EUR / 50 × 1.1 = 22.00.
    await entry.openFromRow('EURUSD');
    assert.equal(await entry.dialog().getByTestId('dialog-not-offered').count(), 0);
    await page.waitForFunction(() => document.querySelector('[data-testid="dialog-margin-buy"]')?.textContent === '22.0000 USD');
    await entry.button('buy').click();
    await entry.dialog().waitFor({ state: 'hidden' });
    await eventually('the position', async () => (await openTrades(trader.client))[0]);
    const figures = (await trader.client.get('/platform/getMargins.php')).body as { totalMargin: string };
    assert.equal(figures.totalMargin, '22.00', 'the server holds what the ticket previewed');
    await context.close();
  });

  it("previews a cross's margin through its USD rates, as the server then holds it", async () => {
    const { trader, context, page, terminal, entry } = await fundedTerminal();
    // Only GBPJPY on screen: the dialog itself follows the GBPUSD rate it converts with.
    await terminal.search().fill('GBPJ');
    await page.getByTestId('price-row-GBPUSD').waitFor({ state: 'detached' });
    await pushTicks(harness(), [
      { symbol: 'GBPUSD', bid: 1.27, ask: 1.2702 },
      { symbol: 'USDJPY', bid: 151.2, ask: 151.22 },
      { symbol: 'GBPJPY', bid: 192.02, ask: 192.05 },
    ]);
    await page.waitForFunction(() => document.querySelector('[data-testid="price-row-GBPJPY"] [data-testid="bid"]')?.textContent === '192.020');
    await entry.openFromRow('GBPJPY');
    await entry.setVolume('0.1');
    // 0.1 × 100,000 / 100 = 100 GBP at the GBPUSD bid 1.27 = 127.00 USD.
    await page.waitForFunction(() => document.querySelector('[data-testid="dialog-margin-sell"]')?.textContent === '127.0000 USD');
    await entry.button('sell').click();
    await entry.dialog().waitFor({ state: 'hidden' });
    await eventually('the position', async () => (await openTrades(trader.client))[0]);
    assert.equal((await trader.client.get('/platform/getMargins.php')).body.totalMargin, '127.00');
    await context.close();
  });

  it('sets stops with the steppers ten spreads from the valid side, says what each is worth, names stops on the wrong side before sending, and sends them', async () => {
    const { trader, context, page, entry } = await fundedTerminal();
    await entry.openFromRow('EURUSD');
    const sl = entry.dialog().getByRole('textbox', { name: 'Stop loss' });
    const tp = entry.dialog().getByRole('textbox', { name: 'Take profit' });
    assert.equal(await sl.inputValue(), '', 'no stop loss until set');
    await entry.dialog().getByText('No stop loss', { exact: true }).waitFor();
    // The spread is 20 points: for a Buy the first press lands ten spreads (200 points) from the
    // bid, the stop loss below, the take profit above — not one pip away.
    await entry.dialog().getByRole('button', { name: 'Lower the stop loss' }).click();
    assert.equal(await sl.inputValue(), '1.09800');
    await entry.dialog().getByRole('button', { name: 'Raise the take profit' }).click();
    await entry.dialog().getByRole('button', { name: 'Raise the take profit' }).click();
    assert.equal(await tp.inputValue(), '1.10201');
    // Beside each: its distance from the bid in points, and what 0.01 lot bought at 1.10020 makes there.
    assert.equal(await page.getByTestId('dialog-sl-stake').textContent(), '200 pts · -2.20 USD');
    assert.equal(await page.getByTestId('dialog-tp-stake').textContent(), '201 pts · +1.81 USD');
    assert.match((await page.getByTestId('dialog-sl-stake').locator('span').last().getAttribute('class')) ?? '', /tp-negative/);
    // A larger volume stakes more at the same levels.
    await entry.setVolume('0.5');
    await page.waitForFunction(() => document.querySelector('[data-testid="dialog-sl-stake"]')?.textContent === '200 pts · -110.00 USD');
    await entry.setVolume('0.01');
    // Both levels are wrong for a Sell: said at once, beside each, and nothing sent.
    await entry.button('sell').click();
    await entry.dialog().getByText('For a Sell, the stop loss must be above the current ask.').waitFor();
    await entry.dialog().getByText('For a Sell, the take profit must be below the current ask.').waitFor();
    await look(page, 'terminal-order-stops-wrong-side');
    assert.deepEqual(await openTrades(trader.client), []);
    await entry.button('buy').click();
    await entry.dialog().waitFor({ state: 'hidden' });
    const position = await eventually('the position', async () => (await openTrades(trader.client))[0]);
    assert.deepEqual([position.type, position.stopLoss, position.takeProfit], ['Buy', 1.098, 1.10201]);
    await context.close();
  });

  it("names the free margin a refusal names: the preview and the server's message agree to the cent, in the figures' format", async () => {
    const { trader, context, page, entry } = await fundedTerminal('100.00');
    await pushTicks(harness(), [{ symbol: 'USDJPY', bid: 151.2, ask: 151.22 }]);
    // Held: 0.01 USDJPY, −20 JPY at these prices = −0.1322… USD: the live free margin has a fraction of a cent.
    const held = await postJson(trader.client, '/platform/addTrades.php', { fullSymbol: 'USDJPY', tradestypes: 'buy', volume: 0.01 });
    assert.equal(held.status, 200, JSON.stringify(held.body));
    await eurusd(1.10037, 1.10057);
    await page.waitForFunction(() => document.querySelector('[data-testid="price-row-EURUSD"] [data-testid="bid"]')?.textContent === '1.10037');
    await page.waitForFunction(() => document.querySelector('[data-testid="footer-free-margin"]')?.textContent === '89.8700');
    await entry.openFromRow('EURUSD');
    await entry.setVolume('0.09');
    // 89.8677… − 99.0333 − 1.80 of spread = −10.9656… → −10.97 (from the free margin rounded first, −10.96).
    await page.waitForFunction(() => document.querySelector('[data-testid="dialog-free-after-buy"]')?.textContent === '-10.9700 USD');
    const preview = { margin: await entry.margin('buy'), free: await entry.freeMarginAfter('buy') };
    assert.equal(preview.margin, '99.0300 USD');
    await entry.button('buy').click();
    await entry.refusal().waitFor();
    const message = (await entry.refusal().getByText(/^Not enough free margin/).textContent()) ?? '';
    assert.equal(message, `Not enough free margin: this order needs ${preview.margin} of margin; free margin would be ${preview.free}.`);
    assert.deepEqual((await openTrades(trader.client)).map((p) => p.symbol), ['USDJPY']);
    await context.close();
  });

  it('shows a refusal for lack of margin in red with OK, and opens nothing', async () => {
    const { trader, context, page, entry } = await fundedTerminal('100.00');
    await entry.openFromRow('EURUSD');
    await entry.setVolume('1');
    // 1,100.00 USD of margin against 100.00 of free margin: the preview says so in red, the server refuses.
    await page.waitForFunction(() => document.querySelector('[data-testid="dialog-margin-buy"]')?.textContent === '1,100.0000 USD');
    assert.match((await page.getByTestId('dialog-free-after-buy').getAttribute('class')) ?? '', /tp-negative/);
    await entry.button('buy').click();
    await entry.refusal().waitFor();
    assert.match((await entry.refusal().textContent()) ?? '', /Not enough free margin/);
    await look(page, 'terminal-order-refused');
    await entry.refusal().getByRole('button', { name: 'OK' }).click();
    await entry.refusal().waitFor({ state: 'hidden' });
    assert.ok(await entry.dialog().isVisible(), 'the dialog stays open to change the order');
    assert.deepEqual(await openTrades(trader.client), []);
    await context.close();
  });

  it('opens exactly one position when Buy is double-clicked, and a retry of the same order replays it', async () => {
    const { trader, context, page, entry } = await fundedTerminal();
    const sent: { body: string; key: string | undefined }[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/platform/addTrades.php')) sent.push({ body: r.postData() ?? '', key: r.headers()['idempotency-key'] });
    });
    await entry.openFromRow('EURUSD');
    await entry.button('buy').dblclick();
    await entry.dialog().waitFor({ state: 'hidden' });
    await new Promise((r) => setTimeout(r, 800));
    const [position, ...more] = await openTrades(trader.client);
    assert.ok(position);
    assert.equal(more.length, 0, 'one position');
    assert.equal(sent.length, 1, 'one request');
    const [first] = sent;
    assert.match(first?.key ?? '', /^[0-9a-f]{32}$/, 'the order carries an Idempotency-Key');
    // The same request again (a retry after a lost answer) is answered with the same position.
    const retry = await trader.client.request('POST', '/platform/addTrades.php', { body: first?.body, headers: { 'content-type': 'application/json', 'idempotency-key': first?.key ?? '' } });
    assert.equal(retry.status, 200, JSON.stringify(retry.body));
    assert.equal(retry.body.ticket, position.ticket);
    assert.equal((await openTrades(trader.client)).length, 1);
    await context.close();
  });

  it("says 'Market Closed' with OK when the instrument's session is closed, and sends nothing", async () => {
    const { trader, context, page, terminal, entry } = await fundedTerminal();
    // The exchange's session for AAPL is over (as after 16:00 New York): the server's book says so.
    const book = (harness().app.app as unknown as { market: { book: { isOpen(symbol: string, time?: number): boolean } } }).market.book;
    const isOpen = book.isOpen.bind(book);
    book.isOpen = (symbol, time) => (symbol === 'AAPL' ? false : isOpen(symbol, time));
    try {
      await pushTicks(harness(), [{ symbol: 'AAPL', bid: 200, ask: 200.05 }]);
      await terminal.chooseType('Stocks');
      await page.waitForFunction(() => document.querySelector('[data-testid="price-row-AAPL"]')?.getAttribute('data-state') === 'closed');
      await entry.openFromRow('AAPL');
      await entry.button('buy').click();
      await entry.marketClosed().waitFor();
      await look(page, 'terminal-order-market-closed');
      await entry.marketClosed().getByRole('button', { name: 'OK' }).click();
      await entry.marketClosed().waitFor({ state: 'hidden' });
      assert.deepEqual(await openTrades(trader.client), []);
    } finally {
      book.isOpen = isOpen;
    }
    await context.close();
  });

  it('places a Buy Limit from the dialog that fills on a pushed tick and moves to Positions', async () => {
    const { trader, context, page, entry, panel } = await fundedTerminal();
    await entry.openFromRow('EURUSD');
    // A stop limit asks for its limit price too; both start on their valid sides.
    await entry.chooseType('Sell Stop Limit');
    assert.equal(await entry.dialog().getByRole('textbox', { name: 'Stop price' }).inputValue(), '1.09990');
    assert.equal(await entry.dialog().getByRole('textbox', { name: 'Limit price' }).inputValue(), '1.10000');
    await screenshots(page, 'terminal-order-stop-limit', { dark: true });
    await entry.chooseType('Buy Limit');
    // The price starts ten points under the ask, where a Buy Limit is valid; its stepper moves it a point.
    assert.equal(await entry.price().inputValue(), '1.10010');
    await entry.dialog().getByRole('button', { name: 'Lower the price' }).click();
    assert.equal(await entry.price().inputValue(), '1.10009');
    await entry.price().fill('1.09950');
    // Its stop loss starts around its own price, ten spreads below it, and is measured from it.
    await entry.dialog().getByRole('button', { name: 'Lower the stop loss' }).click();
    assert.equal(await entry.dialog().getByRole('textbox', { name: 'Stop loss' }).inputValue(), '1.09750');
    assert.equal(await page.getByTestId('dialog-sl-stake').textContent(), '200 pts · -2.00 USD');
    assert.equal(await entry.button('sell').count(), 0, 'a Buy Limit has no Sell button');
    await look(page, 'terminal-order-pending');
    await entry.button('buy').click();
    await entry.dialog().waitFor({ state: 'hidden' });
    const orders = await trader.client.get('/platform/getPendingOrders.php');
    assert.equal(orders.body.data.length, 1);
    assert.deepEqual([orders.body.data[0].orderType, orders.body.data[0].price], ['buy_limit', 1.0995]);
    const orderId = orders.body.data[0].orderId as number;
    assert.deepEqual(await openTrades(trader.client), []);

    await eurusd(1.0993, 1.0995);
    const position = await eventually('the fill', async () => (await openTrades(trader.client))[0]);
    assert.equal(position.orginalPrice, 1.0995);
    await page.getByText(`Order #${orderId} filled`).waitFor();
    await panel.position(position.ticket).waitFor();
    await context.close();
  });

  it('places a Sell Stop with an expiry, sent as that time', async () => {
    const { trader, context, page, entry } = await fundedTerminal();
    await entry.openFromRow('EURUSD');
    await entry.chooseType('Sell Stop');
    assert.equal(await entry.price().inputValue(), '1.09990');
    await pickDateTime(page, entry.dialog().getByRole('button', { name: /^Expiry/ }), '2030-01-02', '10:30');
    await entry.dialog().getByText('Expires 02 Jan 2030, 10:30:00 UTC').waitFor();
    await entry.button('sell').click();
    await entry.dialog().waitFor({ state: 'hidden' });
    const orders = (await trader.client.get('/platform/getPendingOrders.php')).body.data as { orderType: string; price: number; expiration: string | null }[];
    assert.equal(orders.length, 1);
    assert.deepEqual([orders[0]?.orderType, orders[0]?.price], ['sell_stop', 1.0999]);
    // The browser runs in UTC here, so the local time typed is this instant.
    assert.equal(Date.parse(String(orders[0]?.expiration)), Date.UTC(2030, 0, 2, 10, 30));
    await context.close();
  });

  it("in another time zone (Tokyo) an expiry is entered, listed and modified in the trader's local time, labelled with the zone", async () => {
    const { trader, context, page, entry, panel } = await fundedTerminal('10000.00', 'Asia/Tokyo');
    await entry.openFromRow('EURUSD');
    await entry.chooseType('Buy Limit');
    const expiry = entry.dialog().getByLabel('Expiry (GMT+9)');
    await pickDateTime(page, expiry, '2030-11-30', '12:00');
    // Shown in the app's own format, and said back with the zone.
    assert.equal((await expiry.textContent())?.trim(), '30 Nov 2030, 12:00');
    await entry.dialog().getByText('Expires 30 Nov 2030, 12:00:00 GMT+9').waitFor();
    await look(page, 'terminal-expiry-picked');
    await entry.button('buy').click();
    await entry.dialog().waitFor({ state: 'hidden' });
    const [order] = (await trader.client.get('/platform/getPendingOrders.php')).body.data as { orderId: number; expiration: string | null }[];
    // 12:00 in Tokyo is 03:00 UTC.
    assert.equal(Date.parse(String(order?.expiration)), Date.UTC(2030, 10, 30, 3, 0));
    await panel.openTab('Pending Orders');
    const table = page.getByRole('table', { name: 'Pending orders' });
    await table.getByRole('columnheader', { name: 'Expiry (GMT+9)' }).waitFor();
    const row = page.getByTestId(`order-${order!.orderId}`);
    await row.waitFor();
    assert.match((await row.textContent()) ?? '', /30 Nov 2030, 12:00:00/, 'listed at the time entered');
    await row.getByRole('button', { name: `Modify order ${order!.orderId}` }).click();
    const modify = page.getByRole('dialog');
    const field = modify.getByLabel('Expiry (GMT+9)');
    assert.equal((await field.textContent())?.trim(), '30 Nov 2030, 12:00', 'the modify dialog shows it the same way');
    await screenshots(page, 'terminal-expiry-tokyo');
    // By keyboard: the field opens on Enter, its calendar keeps the day, and the time is typed and set with Enter.
    await field.focus();
    await page.keyboard.press('Enter');
    const open = calendar(page);
    await open.waitFor();
    await look(page, 'terminal-expiry-calendar');
    for (let i = 0; i < 8 && (await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))) !== 'Hours'; i++) await page.keyboard.press('Tab');
    await page.keyboard.type('13');
    await page.keyboard.type('30');
    await page.keyboard.press('Enter');
    await open.waitFor({ state: 'hidden' });
    assert.equal((await field.textContent())?.trim(), '30 Nov 2030, 13:30');
    // A fresh price: the server checks the order against a current one, and the looks above took a while.
    await eurusd(1.1);
    await modify.getByRole('button', { name: 'Save' }).click();
    await eventually('the new expiry on the server', async () => {
      const [o] = (await trader.client.get('/platform/getPendingOrders.php')).body.data as { expiration: string | null }[];
      return Date.parse(String(o?.expiration)) === Date.UTC(2030, 10, 30, 4, 30);
    });
    await context.close();
  });

  it('trades from the quick-trade widget: the dialog with one-click off, at once with it on (after a confirmation), kept on the server', async () => {
    const { trader, context, page, entry } = await fundedTerminal();
    // Off by default: SELL opens the dialog, prefilled.
    await entry.quickTrade().getByRole('textbox', { name: 'Quick trade volume' }).fill('0.05');
    await entry.quickButton('sell').click();
    await entry.dialog().waitFor();
    assert.equal(await entry.volume().inputValue(), '0.05');
    await page.keyboard.press('Escape');
    await entry.dialog().waitFor({ state: 'hidden' });
    assert.deepEqual(await openTrades(trader.client), []);

    await entry.openSettings();
    await screenshots(page, 'terminal-settings', { dark: true });
    await page.getByRole('switch', { name: 'One-click trading' }).click({ force: true });
    const confirm = page.getByRole('dialog', { name: 'Turn on one-click trading?' });
    await confirm.waitFor();
    assert.match((await confirm.textContent()) ?? '', /send a market order at once/);
    await look(page, 'terminal-one-click-confirm');
    await confirm.getByRole('button', { name: 'Turn on one-click trading' }).click();
    await eventually('the setting on the server', async () => (await trader.client.get('/platform/getTerminalSettings.php')).body.data?.oneClickTrading === true);

    await entry.quickButton('buy').click();
    const position = await eventually('the one-click position', async () => (await openTrades(trader.client))[0]);
    assert.deepEqual([position.type, position.volume], ['Buy', 0.05]);
    await page.getByText(`Position #${position.ticket} opened`).waitFor();
    assert.ok(!(await entry.dialog().isVisible()), 'no dialog with one-click on');
    await page.getByTestId('one-click-on').waitFor();
    await screenshots(page, 'terminal-one-click-on', { dark: true });

    // Kept per user: a reload still has it on; turning it off goes back to the dialog.
    await page.reload();
    await page.waitForFunction(() => document.querySelector('[data-testid="quick-trade"]')?.hasAttribute('data-one-click') === true);
    await entry.setOneClick(false);
    await eventually('the setting off on the server', async () => (await trader.client.get('/platform/getTerminalSettings.php')).body.data?.oneClickTrading === false);
    await entry.quickButton('buy').click();
    await entry.dialog().waitFor();
    assert.equal((await openTrades(trader.client)).length, 1);
    await context.close();
  });

  it('resizes the price table and the positions panel by keyboard and by dragging, remembers both, and keeps still when prices tick', async () => {
    const { context, page } = await fundedTerminal();
    const prices = page.getByRole('region', { name: 'Price table' });
    const vertical = page.getByRole('separator', { name: 'Resize the price table' });
    const horizontal = page.getByRole('separator', { name: 'Resize the positions panel' });
    assert.equal(await vertical.getAttribute('aria-valuenow'), '30');
    const before = await prices.boundingBox();
    await vertical.focus();
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowLeft');
    assert.equal(await vertical.getAttribute('aria-valuenow'), '35');
    const wider = await prices.boundingBox();
    assert.ok(wider && before && wider.width - before.width > 50, `the price table is wider (${before?.width} → ${wider?.width})`);

    const bottom = page.getByTestId('positions-panel');
    const low = await bottom.boundingBox();
    const grip = await horizontal.boundingBox();
    assert.ok(low && grip);
    await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2);
    await page.mouse.down();
    await page.mouse.move(grip.x + grip.width / 2, grip.y - 120, { steps: 6 });
    await page.mouse.up();
    const tall = await bottom.boundingBox();
    assert.ok(tall && tall.height - low.height > 90, `the positions panel is taller (${low.height} → ${tall?.height})`);
    const bottomSplit = await horizontal.getAttribute('aria-valuenow');

    await page.reload();
    await page.getByRole('separator', { name: 'Resize the price table' }).waitFor();
    assert.equal(await vertical.getAttribute('aria-valuenow'), '35', 'remembered after a reload');
    assert.equal(await horizontal.getAttribute('aria-valuenow'), bottomSplit, 'remembered after a reload');

    // A tick changes figures, never the layout.
    await page.waitForFunction(() => document.querySelector('[data-testid="quick-buy"]')?.textContent?.includes('1.10020'));
    const boxes = async () => Promise.all(['quick-trade', 'account-brief', 'symbol-panel', 'positions-panel'].map((id) => page.getByTestId(id).boundingBox()));
    const still = await boxes();
    await eurusd(1.09999, 1.10011);
    await page.waitForFunction(() => document.querySelector('[data-testid="quick-buy"]')?.textContent?.includes('1.10011'));
    assert.deepEqual(await boxes(), still);
    await context.close();
  });

  it('uses hotkeys only once turned on: N and B open the dialog, Shift+C closes the selected position, ? lists the keys, nothing while typing', async () => {
    const { trader, context, page, entry, panel } = await fundedTerminal();
    await page.locator('body').press('n');
    await page.waitForTimeout(300);
    assert.equal(await entry.dialog().count(), 0, 'hotkeys are off by default');

    await entry.openSettings();
    await page.getByRole('switch', { name: 'Hotkeys' }).click({ force: true });
    await eventually('hotkeys on, on the server', async () => (await trader.client.get('/platform/getTerminalSettings.php')).body.data?.hotkeys === true);
    await entry.closeSettings();

    await page.locator('body').press('n');
    await entry.dialog().waitFor();
    await page.keyboard.press('Escape');
    await entry.dialog().waitFor({ state: 'hidden' });

    await page.getByRole('textbox', { name: 'Keyword Search' }).fill('b');
    await page.waitForTimeout(300);
    assert.equal(await entry.dialog().count(), 0, 'typing a B into a field does not trade');
    await page.getByRole('textbox', { name: 'Keyword Search' }).fill('');
    await page.getByRole('textbox', { name: 'Keyword Search' }).blur();

    await page.locator('body').press('b');
    await entry.dialog().waitFor();
    assert.equal(await entry.volume().inputValue(), '0.01');
    await page.keyboard.press('Escape');
    await entry.dialog().waitFor({ state: 'hidden' });

    await page.locator('body').press('Shift+C');
    await page.getByText('No position selected').waitFor();

    // Shift+C closes the position selected in the panel, as its close button does.
    const opened = await postJson(trader.client, '/platform/addTrades.php', { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 0.1 });
    assert.equal(opened.status, 200, JSON.stringify(opened.body));
    await panel.position(opened.body.ticket as number).click();
    await page.keyboard.press('Shift+C');
    // One-click trading is off: Shift+C asks first, as the row's button does.
    await page.waitForTimeout(300);
    assert.equal((await openTrades(trader.client)).length, 1, 'nothing is closed before the confirmation');
    await panel.confirmClose(opened.body.ticket as number);
    await eventually('the selected position closed', async () => (await openTrades(trader.client)).length === 0);
    await panel.position(opened.body.ticket as number).waitFor({ state: 'detached' });

    await page.locator('body').press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    assert.match((await help.textContent()) ?? '', /Close the selected position/);
    await look(page, 'terminal-hotkeys');
    await context.close();
  });
});

describe('the terminal order entry on a stale quote', () => {
  // Quotes turn stale after two quiet seconds here.
  const { eurusd, fundedTerminal, openTrades, look } = orderFixture({ market: { staleAfterMs: 2000 } });

  it('disables Buy and Sell with the reason while the price is stale, and sends again on the next tick', async () => {
    const { trader, context, page, entry } = await fundedTerminal();
    await entry.openFromRow('EURUSD');
    // No tick for longer than the stale limit: no order may go out at a price nobody trusts.
    await entry.blocked().waitFor({ timeout: 8000 });
    assert.match((await entry.blocked().textContent()) ?? '', /No recent price/);
    assert.ok(await entry.button('buy').isDisabled());
    assert.ok(await entry.button('sell').isDisabled());
    assert.ok(await entry.quickButton('buy').isDisabled(), 'the quick-trade buttons too');
    await look(page, 'terminal-order-stale');
    await eurusd(1.1005);
    await entry.blocked().waitFor({ state: 'hidden' });
    await entry.button('sell').click();
    await entry.dialog().waitFor({ state: 'hidden' });
    assert.equal((await openTrades(trader.client)).length, 1);
    await context.close();
  });
});
