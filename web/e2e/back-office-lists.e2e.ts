import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { join } from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { AdminAuditLogPage, AdminPaymentAccountsPage, AdminRequestsPage, AdminTraderPage } from './pages/admin-pages';
import { choose, exportCsv, TraderPendingOrders } from './pages/back-office-lists';
import { PositionsPanel } from './pages/positions-panel';
import { SignInPage } from './pages/sign-in-page';
import { TerminalPage } from './pages/terminal-page';
import { ADMIN_EMAIL, ADMIN_PASSWORD, adminClient, approvedDeposit, ARTIFACTS, createTrader, DESKTOP, MOBILE, newPage, postJson, pushTicks, screenshots, seriousA11yViolations, settled, startHarness, type Client, type Harness } from './support/harness';

/**
 * The back office's lists in the browser (issue 32): 'Export CSV' on the closed records, the
 * request history and the audit log (the file holds every row of the filters on screen, with UTC
 * times a spreadsheet reads); the audit log's filters; a payment account edited; and a trader's
 * pending order modified and cancelled from their page while the trader's own terminal follows live.
 */
describe('the back office lists', () => {
  let h: Harness;
  let api: Client;
  let gateway: number;
  let context: BrowserContext;
  let page: Page;
  let zoe: Awaited<ReturnType<typeof createTrader>>;
  let omar: Awaited<ReturnType<typeof createTrader>>;

  const freshPrices = () =>
    pushTicks(h, [
      { symbol: 'EURUSD', bid: 1.1, ask: 1.1002 },
      { symbol: 'GBPUSD', bid: 1.27, ask: 1.2702 },
    ]);

  async function signIn(email: string, password: string) {
    const opened = await newPage(h);
    const signInPage = new SignInPage(opened.page);
    await signInPage.goto();
    await signInPage.signIn(email, password);
    await opened.page.waitForURL((u) => u.pathname !== '/');
    return opened;
  }

  /** Screenshots at both sizes (and dark), then axe in each theme: the pictures are there to look at even when axe objects. */
  async function check(name: string, options: { dark?: boolean } = {}) {
    await page.mouse.move(0, 0);
    await page.waitForTimeout(300);
    await screenshots(page, name, options);
    assert.deepEqual(await seriousA11yViolations(page), [], `${name}: no serious or critical axe violation`);
    if (options.dark) {
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.waitForTimeout(300);
      const dark = await seriousA11yViolations(page);
      await page.emulateMedia({ colorScheme: 'light' });
      assert.deepEqual(dark, [], `${name} (dark): no serious or critical axe violation`);
    }
  }

  /** A phone's view of a list further down the page (the screenshots above show the page's top). */
  async function phoneList(name: string, list: Locator) {
    await page.setViewportSize(MOBILE);
    await list.scrollIntoViewIfNeeded();
    await settled(page);
    await page.screenshot({ path: join(ARTIFACTS, `${name}-mobile-list.png`), animations: 'disabled' });
    await page.setViewportSize(DESKTOP);
  }

  /** Opens and closes a position for the trader through the API; returns its ticket. */
  async function closedTrade(trader: { client: Client }, symbol: string, side: 'buy' | 'sell', volume: number): Promise<number> {
    await freshPrices();
    const opened = await postJson(trader.client, '/platform/addTrades.php', { fullSymbol: symbol, tradestypes: side, volume, stopLoss: 0, takeProfit: 0, comment: '' });
    assert.equal(opened.status, 200, JSON.stringify(opened.body));
    const closed = await postJson(trader.client, '/platform/updateTrades.php', { ticket: opened.body.ticket });
    assert.equal(closed.status, 200, JSON.stringify(closed.body));
    return opened.body.ticket as number;
  }

  before(async () => {
    h = await startHarness();
    api = await adminClient(h);
    const added = await postJson(api, '/dashboard/admin/addNewPayments.php', { name: 'Wire transfer — Deutsche Bank', number: 'DE44 5001 0517 5407 3249 31', moreInfo: 'Quote your trader id as the reference.' });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    gateway = added.body.id as number;
    zoe = await createTrader(h, { firstName: 'Zoë', lastName: 'Ångström-Castellanos' });
    omar = await createTrader(h, { firstName: 'Omar', lastName: '=HYPERLINK("x")' });
    await approvedDeposit(zoe.client, api, gateway, '25000.00');
    await approvedDeposit(omar.client, api, gateway, '800.00');
    for (const [symbol, side] of [['EURUSD', 'buy'], ['EURUSD', 'sell'], ['GBPUSD', 'buy']] as const) await closedTrade(zoe, symbol, side, 0.5);
    await closedTrade(omar, 'EURUSD', 'buy', 0.1);
    ({ context, page } = await signIn(ADMIN_EMAIL, ADMIN_PASSWORD));
    await page.waitForURL((u) => u.pathname === '/dashboard/home');
  });
  after(async () => {
    await context?.close();
    await h?.close();
  });

  it('User Closed Records exports every closed trade of its filters, not just the page, with UTC spreadsheet times', async () => {
    // Twelve more for Zoë: two pages on screen.
    for (let i = 0; i < 12; i++) await closedTrade(zoe, 'EURUSD', i % 2 ? 'sell' : 'buy', 0.01);
    await page.goto('/dashboard/requests/user_closs_records');
    await page.getByRole('heading', { name: 'User Closed Records' }).waitFor();
    await page.getByRole('table', { name: 'Closed trades' }).waitFor();
    await choose(page, 'Trader', 'Zoë', /Zoë Ångström-Castellanos/);
    await page.getByText('15 closed trades').waitFor();
    await check('back-office-closed-records-export', { dark: true });

    const file = await exportCsv(page);
    assert.match(file.fileName, new RegExp(`^tradeport-closed-trades-trader-${zoe.id}-start-to-\\d{4}-\\d{2}-\\d{2}\\.csv$`));
    assert.ok(file.text.startsWith('\uFEFF'), 'a byte-order mark, so spreadsheets read UTF-8');
    const [header, ...rows] = file.rows;
    assert.equal(header?.join(','), 'Ticket,Trader ID,First name,Last name,Email,Trading account,Symbol,Type,Volume,Open time (UTC),Open price,S / L,T / P,Close time (UTC),Close price,Swap (USD),Commission (USD),Profit (USD),Close reason,Closed by,Comment,Part of');
    assert.equal(rows.length, 15, 'every row of the filter, beyond the 10 on screen');
    assert.ok(rows.every((r) => r[1] === String(zoe.id) && r[3] === 'Ångström-Castellanos'), 'only Zoë’s, her name intact');
    assert.ok(rows.every((r) => /^\d{8}$/.test(r[5] ?? '')), 'each names its trading account');
    assert.ok(rows.every((r) => /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(r[13] ?? '')), 'close times a spreadsheet reads');
    await page.getByText(/exported to tradeport-closed-trades/).waitFor();

    // The symbol filter narrows the file too.
    await choose(page, 'Symbol', 'GBP', 'GBPUSD');
    await page.getByText('1 closed trade', { exact: true }).waitFor();
    const gbp = await exportCsv(page);
    assert.deepEqual(gbp.rows.slice(1).map((r) => r[6]), ['GBPUSD']);
  });

  it('the request history exports its filters; a formula in a name stays text', async () => {
    const queue = new AdminRequestsPage(page, 'deposit');
    await queue.goto();
    await queue.allRequests();
    await page.getByText('2 requests').waitFor();
    const file = await exportCsv(page);
    assert.match(file.fileName, /^tradeport-deposit-requests-start-to-\d{4}-\d{2}-\d{2}\.csv$/);
    const [header, ...rows] = file.rows;
    assert.equal(header?.[0], 'Request');
    assert.equal(header?.[6], 'Trading account');
    assert.equal(header?.[12], 'Requested (UTC)');
    assert.deepEqual(rows.map((r) => r[4]).sort(), ["'=HYPERLINK(\"x\")", 'Ångström-Castellanos'].sort(), 'the formula is prefixed, so it opens as text');
    await page.getByRole('textbox', { name: 'Search' }).fill('zo');
    await page.getByText('1 request', { exact: true }).waitFor();
    await check('back-office-requests-export');
    const one = await exportCsv(page);
    assert.deepEqual(one.rows.slice(1).map((r) => r[2]), [String(zoe.id)]);
  });

  it('edits a payment account: the same rules as adding one, then the new details everywhere and in the audit log', async () => {
    const accounts = new AdminPaymentAccountsPage(page);
    await accounts.goto();
    await page.getByRole('button', { name: 'Edit Wire transfer — Deutsche Bank' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Wire transfer — Deutsche Bank' });
    await dialog.waitFor();
    assert.equal(await dialog.getByRole('textbox', { name: /^Number/ }).inputValue(), 'DE44 5001 0517 5407 3249 31');
    await dialog.getByRole('textbox', { name: /^Name/ }).fill('   ');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await dialog.getByText('Please enter the account name.').waitFor();
    await check('back-office-payment-account-edit', { dark: true });
    await dialog.getByRole('textbox', { name: /^Name/ }).fill('SEPA — Commerzbank');
    await dialog.getByRole('textbox', { name: /^Number/ }).fill('DE89 3704 0044 0532 0130 00');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Payment account SEPA — Commerzbank saved.').waitFor();
    await accounts.table().getByRole('cell', { name: 'DE89 3704 0044 0532 0130 00' }).waitFor();
    // Traders are offered the new details.
    const offered = await zoe.client.request('GET', '/platform/getPaymentGetwaysActive.php');
    assert.equal(offered.body.data[0].name, 'SEPA — Commerzbank');
    await check('back-office-payment-accounts');
  });

  it('a trader’s pending order is modified and cancelled from their page; the trader’s terminal follows at once', async () => {
    await freshPrices();
    const placed = await postJson(zoe.client, '/platform/addPendingOrder.php', { fullSymbol: 'EURUSD', orderType: 'Buy Limit', volume: 0.3, price: 1.095, stopLoss: 1.09, takeProfit: 1.12, comment: 'dip buy' });
    assert.equal(placed.status, 200, JSON.stringify(placed.body));
    const orderId = placed.body.orderId as number;

    // The trader watches their Pending Orders tab in a browser of their own.
    const trader = await signIn(zoe.email, zoe.password);
    await trader.page.waitForURL((u) => u.pathname === '/trading');
    await new TerminalPage(trader.page).table().waitFor();
    const panel = new PositionsPanel(trader.page);
    await panel.openTab('Pending Orders');
    await panel.order(orderId).waitFor();
    await trader.page.waitForFunction(() => document.querySelector('[data-testid="connection-state"]')?.getAttribute('data-state') === 'open');

    const detail = new AdminTraderPage(page);
    await detail.goto(zoe.id);
    await detail.tab(/^Pending orders/);
    const orders = new TraderPendingOrders(page);
    await orders.row(orderId).waitFor();
    await check('back-office-trader-pending-orders', { dark: true });
    await phoneList('back-office-trader-pending-orders', page.getByRole('list', { name: 'Pending orders' }));

    // Modify: a price on the wrong side is refused with the trader's own rule, then a good one.
    await freshPrices();
    await orders.modify(orderId).click();
    const modal = page.getByRole('dialog', { name: new RegExp(`Modify Zoë Ångström-Castellanos's order #${orderId}`) });
    await modal.waitFor();
    await modal.getByTestId('order-price').fill('1.10500');
    await modal.getByRole('button', { name: 'Save' }).click();
    await modal.getByText('A Buy Limit must be below the current ask.').waitFor();
    await check('back-office-trader-order-modify');
    await modal.getByTestId('order-price').fill('1.09650');
    await modal.getByRole('button', { name: 'Save' }).click();
    await modal.waitFor({ state: 'detached' });
    await page.getByText(`Order #${orderId} of trader #${zoe.id} changed.`).waitFor();
    await orders.row(orderId).getByRole('cell', { name: '1.09650' }).waitFor();
    // The trader sees it without doing anything: the new price, and a notice saying who changed it.
    await panel.order(orderId).getByRole('cell', { name: '1.09650' }).waitFor({ timeout: 5000 });
    await trader.page.getByText(`Order #${orderId} changed by the broker`).waitFor();
    await trader.page.mouse.move(0, 0);
    await settled(trader.page);
    await trader.page.screenshot({ path: join(ARTIFACTS, 'back-office-trader-terminal-order-changed-desktop.png'), animations: 'disabled' });

    // Cancel asks first, then the order leaves both screens.
    await orders.cancel(orderId).click();
    const confirm = page.getByRole('dialog', { name: `Cancel Zoë Ångström-Castellanos's order #${orderId}?` });
    await confirm.waitFor();
    await confirm.getByText('1.09650', { exact: true }).waitFor();
    await check('back-office-trader-order-cancel');
    await confirm.getByRole('button', { name: 'Cancel order' }).click();
    await page.getByText(`Order #${orderId} of trader #${zoe.id} cancelled.`).waitFor();
    await orders.row(orderId).waitFor({ state: 'detached' });
    await page.getByText('No pending orders.').waitFor();
    await panel.order(orderId).waitFor({ state: 'detached', timeout: 5000 });
    await trader.page.getByText(`Order #${orderId} cancelled by the broker`).waitFor();
    await trader.context.close();
  });

  it('the audit log filters by who, about whom, what and when, pages within the filter, and exports it', async () => {
    const audit = new AdminAuditLogPage(page);
    await audit.goto();
    await choose(page, 'Action', 'pending', 'Cancelled pending order');
    await page.waitForFunction(() => document.querySelectorAll('table[aria-label="Audit log"] tbody tr').length === 1);
    const [cancelled] = await audit.entries();
    assert.match(cancelled ?? '', /^Cancelled pending order · Pending order #\d+ Zoë Ångström-Castellanos \S+@\S+ Live account \d{8}$/);
    await page.getByRole('button', { name: 'Clear filters' }).click();

    await choose(page, 'About user', 'Zoë', /Zoë Ångström-Castellanos/);
    // Her deposit's approval and the two changes to her order; the closes she made herself are not admin actions.
    await page.waitForFunction(() => document.querySelectorAll('table[aria-label="Audit log"] tbody tr').length === 3);
    assert.deepEqual((await audit.entries()).map((e) => e.split(' · ')[0]), ['Cancelled pending order', 'Changed pending order', 'Approved deposit']);
    await check('back-office-audit-log-filtered', { dark: true });

    const file = await exportCsv(page);
    assert.match(file.fileName, new RegExp(`^tradeport-audit-log-trader-${zoe.id}-start-to-\\d{4}-\\d{2}-\\d{2}\\.csv$`));
    const [header, ...rows] = file.rows;
    assert.equal(header?.join(','), 'Entry,Time (UTC),Actor,Actor ID,Action,Target type,Target ID,Trader ID,Trader name,Trader email,Trading account,Before,After,IP');
    assert.deepEqual(rows.map((r) => r[4]), ['order.cancel', 'order.modify', 'deposit.approve']);
    assert.ok(rows.every((r) => /^\d{8}$/.test(r[10] ?? '')), 'each names the trading account it was about');
    assert.deepEqual(JSON.parse(rows[1]?.[12] ?? '{}').price, 1.0965);

    // Who did it, and a day with nothing.
    await choose(page, 'Done by', 'admin', /admin@tradeport\.test/);
    await page.waitForFunction(() => document.querySelectorAll('table[aria-label="Audit log"] tbody tr').length === 3);
    await page.getByRole('textbox', { name: 'From' }).fill('2020-01-01');
    await page.getByRole('textbox', { name: 'To' }).fill('2020-01-31');
    await page.getByText('No recorded actions match these filters.').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Export CSV' }).isDisabled(), true, 'nothing to export');
    await page.getByRole('button', { name: 'Clear filters' }).first().click();
    await audit.table().waitFor();
  });
});
