import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { BrowserContext, Page, Response } from 'playwright-core';
import { AdminAuditLogPage, AdminOpenTradesPage, AdminPaymentAccountsPage, AdminRequestsPage, AdminTraderPage, AdminUsersPage } from './pages/admin-pages';
import { DashboardPage } from './pages/dashboard-page';
import { SignInPage } from './pages/sign-in-page';
import { ADMIN_EMAIL, ADMIN_PASSWORD, ARTIFACTS, adminClient, createTrader, DESKTOP, MOBILE, newPage, postJson, pushTicks, screenshots, seriousA11yViolations, startHarness, Client, type Harness } from './support/harness';

/**
 * The back office in the browser: the queues (decided here, refused, and updated live by other
 * administrators and new requests), users (search, deactivate, password), a trader's page, open
 * trades, payment accounts and the audit log that records all of it. Every screen is checked with
 * axe-core and saved at both sizes.
 */
describe('the back office', () => {
  let h: Harness;
  let api: Client;
  let gateway: number;
  let context: BrowserContext;
  let page: Page;

  async function signIn(email: string, password: string) {
    const opened = await newPage(h);
    const signInPage = new SignInPage(opened.page);
    await signInPage.goto();
    await signInPage.signIn(email, password);
    await opened.page.waitForURL((u) => u.pathname !== '/');
    return opened;
  }

  async function check(name: string, options: { dark?: boolean } = {}) {
    // The pointer rests where the last click was; move it off, so no hover tooltip covers the screen.
    await page.mouse.move(0, 0);
    // Dialogs fade in: check the settled colours.
    await page.waitForTimeout(300);
    assert.deepEqual(await seriousA11yViolations(page), [], `${name}: no serious or critical axe violation`);
    await screenshots(page, name, options);
  }

  async function deposit(trader: { client: Client }, amount: string): Promise<number> {
    const r = await postJson(trader.client, '/platform/addDeposite.php', { depositAmount: amount, paymentAccount: 'DE89 3704 0044 0532 0130 00', payment_getways_id: gateway });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.id as number;
  }

  /** Fresh prices: the feed marks a symbol stale after a quiet spell, and the server then refuses fills. */
  const freshPrices = (eurBid = 1.1) =>
    pushTicks(h, [
      { symbol: 'EURUSD', bid: eurBid, ask: Number((eurBid + 0.0002).toFixed(5)) },
      { symbol: 'GBPUSD', bid: 1.27, ask: 1.2702 },
    ]);

  async function funded(firstName: string, lastName: string, amount = '5000.00') {
    const trader = await createTrader(h, { firstName, lastName });
    const id = await deposit(trader, amount);
    assert.equal((await postJson(api, '/dashboard/admin/editStatusDeposite.php', { deposites_id: id, status: 1 })).status, 200);
    return trader;
  }

  before(async () => {
    h = await startHarness();
    api = await adminClient(h);
    const added = await postJson(api, '/dashboard/admin/addNewPayments.php', { name: 'Wire transfer — Deutsche Bank', number: 'DE44 5001 0517 5407 3249 31', moreInfo: 'Quote your trader id as the reference.' });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    gateway = added.body.id as number;
    await freshPrices();
    ({ context, page } = await signIn(ADMIN_EMAIL, ADMIN_PASSWORD));
    await page.waitForURL((u) => u.pathname === '/dashboard/home');
  });
  after(async () => {
    await context?.close();
    await h?.close();
  });

  it('shows a new deposit request live; approving it changes the trader’s balance', async () => {
    const trader = await createTrader(h, { firstName: 'Amelia', lastName: 'Hartmann-Oyelaran' });
    const queue = new AdminRequestsPage(page, 'deposit');
    await queue.goto();
    await queue.live();
    await page.getByText('No pending deposit requests.', { exact: false }).waitFor();
    await check('admin-deposit-requests-empty');

    // Filed while the admin watches: it arrives through the feed, well before the 10 s poll.
    const id = await deposit(trader, '2500.75');
    await queue.row(id).waitFor({ timeout: 4000 });
    await check('admin-deposit-requests', { dark: true });

    await queue.openDecision(id, 'Approve');
    await page.getByText(`2,500.75 USD is credited to Amelia Hartmann-Oyelaran's balance.`).waitFor();
    await check('admin-deposit-approve-dialog');
    await queue.confirm('Approve');
    await queue.toast(`Deposit request# ${id} approved successfully`);
    await queue.row(id).waitFor({ state: 'detached' });

    const users = new AdminUsersPage(page);
    await users.goto();
    await users.find(trader.email);
    await page.waitForFunction(() => document.querySelectorAll('table[aria-label="Users"] tbody tr').length === 1);
    assert.equal(await users.balance(trader.email), '2,500.7500');
    await users.openTrader('Amelia Hartmann-Oyelaran');
    const detail = new AdminTraderPage(page);
    assert.equal(await detail.balance(), '2,500.7500');
    await detail.tab('Money requests');
    await page.getByRole('table', { name: 'Money requests' }).getByText('Approved').waitFor();
  });

  it('rejects a withdrawal; the history tab shows it Rejected and the balance is unchanged', async () => {
    const trader = await funded('Bruno', 'Castellanos', '800.00');
    const w = await postJson(trader.client, '/platform/addWithdrawal.php', { withdrawalsAmount: '300', paymentAccount: 'ES91 2100 0418 4502 0005 1332' });
    assert.equal(w.status, 200, JSON.stringify(w.body));
    const id = w.body.id as number;
    const queue = new AdminRequestsPage(page, 'withdrawal');
    await queue.goto();
    await queue.row(id).waitFor();
    await check('admin-withdraw-requests');
    await queue.decide(id, 'Reject', 'The IBAN belongs to another person.');
    await queue.toast(`Withdrawal ${id} request rejected successfully`);
    await queue.row(id).waitFor({ state: 'detached' });
    await queue.allRequests();
    await queue.allRow(id).getByText('Rejected').waitFor();
    await queue.allRow(id).getByText('The IBAN belongs to another person.').waitFor();
    await check('admin-withdraw-requests-all');
    const profile = await trader.client.request('GET', '/dashboard/customer/getProfileDetails.php');
    assert.equal(profile.body.data[0].totalBalance, '800.00');
  });

  it('a refused approval puts the row back with the server’s message; another administrator’s decision empties the queue live', async () => {
    const trader = await createTrader(h, { firstName: 'Chiara', lastName: 'Lindqvist' });
    const queue = new AdminRequestsPage(page, 'deposit');
    const first = await deposit(trader, '120.00');
    await queue.goto();
    await queue.live();
    await queue.row(first).waitFor();

    // Decided elsewhere without this tab hearing of it (another server, say): the approval is refused.
    await queue.openDecision(first, 'Approve');
    await h.app.ctx.db.updateTable('money_requests').set({ status: '1', decided_at: Date.now() }).where('id', '=', first).execute();
    // Hold the queue's refetch back, so the restored row can be seen before the list catches up.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/dashboard/admin/getPendingDeposite.php', async (route) => {
      await held;
      // The route may be gone by then (unrouted below); the request then simply proceeds.
      await route.continue().catch(() => undefined);
    });
    await queue.confirm('Approve');
    await queue.toast(`Deposit request #${first} has already been approved.`);
    await queue.row(first).waitFor();
    release();
    await page.unroute('**/api/dashboard/admin/getPendingDeposite.php');
    await queue.row(first).waitFor({ state: 'detached' });

    // Another administrator (here: through the API) approves while this tab watches.
    const second = await deposit(trader, '75.00');
    await queue.row(second).waitFor({ timeout: 4000 });
    assert.equal((await postJson(api, '/dashboard/admin/editStatusDeposite.php', { deposites_id: second, status: 1 })).status, 200);
    await queue.row(second).waitFor({ state: 'detached', timeout: 4000 });

    // …and if its dialog is open here, the dialog says so instead of letting a refused decision be sent.
    const third = await deposit(trader, '30.00');
    await queue.row(third).waitFor({ timeout: 4000 });
    await queue.openDecision(third, 'Reject');
    assert.equal((await postJson(api, '/dashboard/admin/editStatusDeposite.php', { deposites_id: third, status: 2 })).status, 200);
    await queue.dialog().getByText('Another administrator has just decided this request').waitFor({ timeout: 4000 });
    assert.equal(await queue.dialog().getByRole('button', { name: 'Reject', exact: true }).isDisabled(), true);
    await check('admin-decided-elsewhere-dialog');
    await queue.dialog().getByRole('button', { name: 'Cancel' }).click();
    await queue.dialog().waitFor({ state: 'detached' });
  });

  it('deactivates a trader (signed out at once) and reactivates them', async () => {
    const trader = await createTrader(h, { firstName: 'Dmitri', lastName: 'Abernathy' });
    const users = new AdminUsersPage(page);
    await users.goto();
    await check('admin-users', { dark: true });
    await users.find('Dmitri');
    await users.deactivate('Dmitri Abernathy');
    await users.toast('Dmitri Abernathy is now inactive.');
    assert.equal(await users.activeSwitch('Dmitri Abernathy').isChecked(), false);
    assert.equal((await trader.client.request('GET', '/dashboard/customer/getProfileDetails.php')).status, 401, 'the trader was signed out');
    const refused = await postJson(new Client(h.app), '/login.php', { email: trader.email, password: trader.password });
    assert.notEqual(refused.body.status, 'Success', 'an inactive trader cannot sign in');

    await users.activate('Dmitri Abernathy');
    await users.toast('Dmitri Abernathy is now active.');
    assert.equal(await users.activeSwitch('Dmitri Abernathy').isChecked(), true);
    const again = await signIn(trader.email, trader.password);
    await again.page.waitForURL((u) => u.pathname === '/trading');
    await again.context.close();
  });

  it('changes a trader’s password; the trader signs in with it', async () => {
    const trader = await createTrader(h, { firstName: 'Eleanor', lastName: 'Voss' });
    const users = new AdminUsersPage(page);
    await users.goto();
    await users.find('Voss');
    await page.getByRole('button', { name: 'Change password of Eleanor Voss' }).click();
    await users.dialog().getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Please enter a new password.').waitFor();
    await check('admin-change-password');
    await users.dialog().getByRole('button', { name: 'Cancel' }).click();
    await users.dialog().waitFor({ state: 'detached' });
    await users.changePassword('Eleanor Voss', 'Copper-Kettle-9182');
    await users.toast('Eleanor Voss password changed successfully');
    const withNew = await signIn(trader.email, 'Copper-Kettle-9182');
    await withNew.page.waitForURL((u) => u.pathname === '/trading');
    await withNew.context.close();
  });

  it('searches users from the start of the text, and says No users found', async () => {
    await funded('Fatima', 'Al-Rashid', '12000.00');
    const users = new AdminUsersPage(page);
    await users.goto();
    await users.find('al-ra');
    await users.table().getByRole('link', { name: 'Fatima Al-Rashid' }).waitFor();
    await page.waitForFunction(() => document.querySelectorAll('table[aria-label="Users"] tbody tr').length === 1);
    await users.find('rashid');
    await page.getByText('No users found').waitFor();
    await check('admin-users-none');
  });

  it('users are searched, ordered and paged on the server: only the page shown is sent; a filter’s trader is found by a server search', async () => {
    const stamp = String(Date.now() % 100_000);
    const made = [];
    for (let i = 0; i < 11; i++) made.push(await createTrader(h, { firstName: 'Pia', lastName: `Pagerow${stamp}${String.fromCharCode(97 + i)}` }));
    const rich = made[6]!;
    const id = await deposit(rich, '300.00');
    assert.equal((await postJson(api, '/dashboard/admin/editStatusDeposite.php', { deposites_id: id, status: 1 })).status, 200);

    const answers: { url: URL; body: { total: number; data: { email: string }[] } }[] = [];
    const record = async (response: Response) => {
      // An answer the page navigated away from has no body to read: it is not one the test looks at.
      if (response.url().includes('/getTraders.php') && response.ok()) await response.json().then((body) => answers.push({ url: new URL(response.url()), body }), () => undefined);
    };
    page.on('response', record);
    try {
      const users = new AdminUsersPage(page);
      await users.goto();
      await users.find(`pagerow${stamp}`);
      await page.getByText('11 users found').waitFor();
      await page.waitForFunction(() => document.querySelectorAll('table[aria-label="Users"] tbody tr').length === 10);
      const first = answers.findLast((a) => a.url.searchParams.get('search') === `pagerow${stamp}`);
      assert.ok(first, 'the search went to the server');
      assert.deepEqual([first.body.total, first.body.data.length, first.url.searchParams.get('limit'), first.url.searchParams.get('sort')], [11, 10, '10', 'name']);

      await page.getByRole('button', { name: 'Page 2' }).click();
      await page.getByText('Showing 11–11 of 11').waitFor();
      await users.row(made[10]!.email).waitFor();
      assert.equal(answers.at(-1)?.url.searchParams.get('offset'), '10');

      // Balance, highest first: the funded trader leads page one (a page the server ordered).
      await users.table().getByRole('button', { name: 'Balance' }).click();
      await users.table().getByRole('button', { name: 'Balance' }).click();
      await page.waitForFunction((email) => document.querySelector('table[aria-label="Users"] tbody tr')?.textContent?.includes(email), rich.email);
      // The ascending answer may finish reading after the descending one: look for the page shown by what it asked.
      const byBalance = () => answers.findLast((a) => a.url.searchParams.get('sort') === 'balance' && a.url.searchParams.get('direction') === 'desc');
      for (let i = 0; i < 50 && !byBalance(); i++) await page.waitForTimeout(100);
      assert.deepEqual([byBalance()?.url.searchParams.get('offset'), byBalance()?.body.data[0]?.email], ['0', rich.email]);
      await check('admin-users-paged');

      // The closed records' trader filter asks the server for the traders matching what is typed.
      await page.goto('/dashboard/requests/user_closs_records');
      await page.getByRole('heading', { name: 'User Closed Records' }).waitFor();
      const picker = page.getByRole('combobox', { name: 'Trader' });
      const typed = rich.email.slice(0, 12);
      const answered = page.waitForResponse((r) => r.url().includes('/getTraders.php') && new URL(r.url()).searchParams.get('search') === typed);
      await picker.fill(typed);
      await answered;
      // Only the server's matches are offered.
      const offered = page.getByRole('listbox', { name: 'Trader' }).getByRole('option');
      await offered.filter({ hasText: rich.email }).waitFor();
      // The list the picker opened with (every trader, by name) gives way to the server's answer.
      for (let i = 0; i < 50 && (await offered.count()) !== 1; i++) await page.waitForTimeout(100);
      assert.deepEqual(await offered.allTextContents(), [`Pia ${rich.lastName} · ${rich.email}`]);
      await offered.first().click();
      const searched = answers.findLast((a) => a.url.searchParams.get('search') === rich.email.slice(0, 12));
      assert.ok(searched, 'the picker searched on the server');
      assert.deepEqual([searched.url.searchParams.get('role'), searched.body.data.map((u) => u.email)], ['trader', [rich.email]]);
      await page.getByText('No closed trades match these filters.').waitFor();
      assert.equal(await picker.inputValue(), `Pia ${rich.lastName} · ${rich.email}`, 'the chosen trader stays in the box');
      await check('admin-closed-records-trader');
      await page.getByRole('button', { name: 'Clear filters' }).click();
      await page.getByText('No closed trades match these filters.').waitFor({ state: 'detached' });
      assert.equal(await picker.inputValue(), '', 'Clear filters empties the trader box');
    } finally {
      page.off('response', record);
    }
  });

  it('shows a trader’s page with positions, orders and activity, and closes the trade from Open Trades', async () => {
    const trader = await funded('Gustavo', 'Nakamura-Ferreira', '10000.00');
    await freshPrices();
    const opened = await postJson(trader.client, '/platform/addTrades.php', { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 0.5, stopLoss: 0, takeProfit: 0 });
    assert.equal(opened.status, 200, JSON.stringify(opened.body));
    const ticket = opened.body.ticket as number;
    const sell = await postJson(trader.client, '/platform/addTrades.php', { fullSymbol: 'GBPUSD', tradestypes: 'sell', volume: 0.2, stopLoss: 0, takeProfit: 0 });
    assert.equal(sell.status, 200, JSON.stringify(sell.body));
    const order = await postJson(trader.client, '/platform/addPendingOrder.php', { fullSymbol: 'EURUSD', orderType: 'Buy Limit', volume: 0.1, price: 1.05 });
    assert.equal(order.status, 200, JSON.stringify(order.body));

    const detail = new AdminTraderPage(page);
    await detail.goto(trader.id);
    await page.getByRole('table', { name: 'Open positions' }).getByText(`#${ticket}`).waitFor();
    await check('admin-trader', { dark: true });
    await detail.tab(/Pending orders/);
    await page.getByRole('table', { name: 'Pending orders' }).getByText('Buy Limit').waitFor();
    await detail.tab('Activity');
    await page.getByRole('table', { name: 'Recent activity' }).getByText('Deposit approved').waitFor();
    await check('admin-trader-activity');

    const trades = new AdminOpenTradesPage(page);
    await trades.goto();
    await trades.expand('Gustavo Nakamura-Ferreira');
    // Profit follows the streamed price: (1.1010 − 1.1002) × 100,000 × 0.5 = +40.00.
    await freshPrices(1.101);
    await page.waitForFunction((t) => document.querySelector(`[data-testid="profit-${t}"]`)?.textContent?.trim() === '+40.00', ticket);
    // The total over every page agrees with the rows as they tick: +40.00 − 4.00.
    await page.getByText(/^2 trades · 1 trader · \+36\.00 USD$/).waitFor();
    await check('admin-open-trades', { dark: true });

    await trades.search().fill('zzz-nothing');
    await page.getByText('No trades found').waitFor();
    await trades.search().fill('akamura-fer');
    await trades.trades('Gustavo Nakamura-Ferreira').waitFor();
    await trades.search().fill('');
    await trades.trades('Gustavo Nakamura-Ferreira').waitFor();

    await page.getByRole('button', { name: `Close ticket ${ticket}` }).click();
    await trades.dialog().getByText('Gustavo Nakamura-Ferreira').waitFor();
    await check('admin-close-trade-dialog');
    await trades.dialog().getByRole('button', { name: 'Close position' }).click();
    await trades.dialog().waitFor({ state: 'detached' });
    await trades.toast(`ticket# ${ticket} closed successfully`);
    await page.getByRole('button', { name: `Close ticket ${ticket}` }).waitFor({ state: 'detached' });
    const closed = await trader.client.request('GET', '/dashboard/customer/getTradesHistory.php');
    assert.deepEqual(
      closed.body.data.map((r: { ID: number; closeReason: string; profit: string }) => [r.ID, r.closeReason, r.profit]),
      [[ticket, 'admin', '40.00']],
    );
    await trades.close(sell.body.ticket as number);
    await trades.toast(`ticket# ${sell.body.ticket as number} closed successfully`);
    await page.getByText('No trades found').waitFor();
    await check('admin-open-trades-empty');

    await page.goto('/dashboard/requests/user_closs_records');
    await page.getByRole('heading', { name: 'User Closed Records' }).waitFor();
    await page.getByText(`#${ticket}`).first().waitFor();
    await check('admin-closed-records');
  });

  it('adds a payment account (with validation messages) and toggles it', async () => {
    const accounts = new AdminPaymentAccountsPage(page);
    await accounts.goto();
    await accounts.openAdd();
    await accounts.submitAdd();
    await page.getByText('Please enter the account name.').waitFor();
    await page.getByText('Please enter the account number.').waitFor();
    await check('admin-add-account-dialog');
    await accounts.add('USDT (TRC-20) — Treasury wallet', 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE', 'Network TRC-20 only; other networks are lost.');
    await accounts.toast(/USDT \(TRC-20\) — Treasury wallet added/);
    await accounts.dialog().waitFor({ state: 'detached' });
    const toggle = accounts.activeSwitch('USDT (TRC-20) — Treasury wallet');
    assert.equal(await toggle.isChecked(), true, 'created active');
    await toggle.click({ force: true });
    await page.waitForFunction(() => [...document.querySelectorAll('[role="switch"]')].some((s) => s.getAttribute('aria-label')?.startsWith('USDT') && !(s as HTMLInputElement).checked));
    const active = await api.request('GET', '/platform/getPaymentGetwaysActive.php');
    assert.ok(!active.body.data.some((a: { name: string }) => a.name.startsWith('USDT')), 'no longer offered to traders');
    // Let the toasts go, so the screenshots show the table.
    await page.waitForFunction(() => document.querySelectorAll('.mantine-Notification-root').length === 0, undefined, { timeout: 6000 });
    await check('admin-payment-accounts', { dark: true });
  });

  it('the audit log records each of those actions, with who and before/after', async () => {
    const audit = new AdminAuditLogPage(page);
    await audit.goto();
    await check('admin-audit-log', { dark: true });
    let entries = await audit.entries();
    const older = page.getByRole('button', { name: 'Older' });
    while ((await older.count()) > 0 && (await older.isEnabled())) {
      const firstRow = await audit.table().locator('tbody tr').first().getAttribute('data-testid');
      await older.click();
      await page.waitForFunction((before) => document.querySelector('table[aria-label="Audit log"] tbody tr')?.getAttribute('data-testid') !== before, firstRow);
      entries = [...entries, ...(await audit.entries())];
    }
    const joined = entries.join('\n');
    for (const action of ['Approved deposit', 'Rejected withdrawal', 'Changed account status', 'Changed password', 'Closed position', 'Added payment account', 'Changed payment account status']) {
      assert.ok(joined.includes(action), `audit log shows ${action}:\n${joined}`);
    }
    assert.equal(entries.filter((e) => e.startsWith('Changed account status')).length, 2, 'deactivated and reactivated');
    assert.equal(entries.filter((e) => e.startsWith('Closed position')).length, 2);
    // 'On' names the user each action was about, with their email, rather than 'User #3'.
    assert.ok(!joined.includes('User #'), `no bare user numbers:\n${joined}`);
    assert.ok(entries.some((e) => /^Changed password · Eleanor Voss \S+@\S+$/.test(e)), `the password change names Eleanor Voss and her email:\n${joined}`);
    assert.equal(entries.filter((e) => /^Changed account status · Dmitri Abernathy \S+@\S+$/.test(e)).length, 2);
    assert.ok(entries.some((e) => /^Closed position · Ticket #\d+ Gustavo Nakamura-Ferreira \S+@\S+ Live account \d{8}$/.test(e)), `the closed position names its owner:\n${joined}`);
    assert.ok(entries.some((e) => /^Approved deposit · Deposit request #\d+ Bruno Castellanos \S+@\S+ Live account \d{8}$/.test(e)), `the deposit names its trader:\n${joined}`);
    // Each name links to the user's page.
    const links = await audit.table().getByRole('link').evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute('href')]));
    assert.ok(links.length > 0 && links.every(([text, href]) => /^\/dashboard\/users\/\d+$/.test(href ?? '') && !/^User #/.test(text ?? '')), JSON.stringify(links));
    await page.getByRole('button', { name: 'Newer' }).first().waitFor();
  });

  it('on a phone the users, closed records and request history are lists that fit the screen, with the same actions', async () => {
    await page.setViewportSize(MOBILE);
    try {
      const pages = [
        { path: '/dashboard/users', list: 'Users' },
        { path: '/dashboard/requests/user_closs_records', list: 'Closed trades' },
        { path: '/dashboard/requests/user_deposit_requests?tab=all', list: 'All deposit requests' },
        { path: '/dashboard/requests/user_withdraw_requests?tab=all', list: 'All withdrawal requests' },
      ];
      for (const { path, list } of pages) {
        await page.goto(path);
        const items = page.getByRole('list', { name: list }).getByRole('listitem');
        await items.first().waitFor();
        assert.ok((await items.count()) > 0, `${list}: records listed`);
        assert.equal(await page.getByRole('table').count(), 0, `${list}: no table on a phone`);
        const sideways = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        assert.ok(sideways <= 0, `${list}: nothing wider than the screen (${sideways} px too wide)`);
        assert.deepEqual(await seriousA11yViolations(page), [], `${list}: no serious or critical axe violation at 375 px`);
      }

      // The users list keeps the table's actions and sorting: sort by balance, open the password dialog.
      await page.goto('/dashboard/users');
      const users = page.getByRole('list', { name: 'Users' });
      await users.getByRole('listitem').first().waitFor();
      const sorted = page.waitForResponse((r) => r.url().includes('/getTraders.php') && new URL(r.url()).searchParams.get('sort') === 'balance');
      await page.getByLabel('Sort by').selectOption('balance:desc');
      await sorted;
      // The page before stays (dimmed) until the server's ordered page replaces it.
      await page.waitForFunction(() => getComputedStyle(document.querySelector('[role="list"][aria-label="Users"]') as Element).opacity === '1');
      const balances = await users.getByRole('listitem').evaluateAll((items) => items.map((item) => Number((item.textContent ?? '').match(/([\d,]+\.\d{4}) USD/)?.[1]?.replace(/,/g, '') ?? 'NaN')));
      assert.ok(balances.length > 1 && balances.every((b, i) => !Number.isNaN(b) && (i === 0 || balances[i - 1]! >= b)), `balances highest first: ${balances.join(', ')}`);
      await users.getByRole('button', { name: /^Change password of / }).first().click();
      await page.getByRole('dialog').waitFor();
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });

      // The page of the trader who traded above: every tab is a list (or its empty state), nothing wider than the screen.
      await users.getByRole('link', { name: 'Gustavo Nakamura-Ferreira' }).click();
      await page.waitForURL((u) => /^\/dashboard\/users\/\d+$/.test(u.pathname));
      const base = new URL(page.url()).pathname;
      for (const [tab, list, mustHaveItems] of [['positions', 'Open positions', false], ['orders', 'Pending orders', true], ['closed', 'Closed trades', true], ['requests', 'Money requests', true], ['activity', 'Recent activity', true]] as const) {
        await page.goto(`${base}?tab=${tab}`);
        const items = page.getByRole('list', { name: list }).getByRole('listitem');
        if (mustHaveItems) await items.first().waitFor();
        else await Promise.race([items.first().waitFor(), page.getByText(/^No .*\.$/).first().waitFor()]);
        assert.equal(await page.getByRole('table').count(), 0, `trader page, ${tab}: no table on a phone`);
        const sideways = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        assert.ok(sideways <= 0, `trader page, ${tab}: nothing wider than the screen (${sideways} px too wide)`);
        assert.deepEqual(await seriousA11yViolations(page), [], `trader page, ${tab}: no serious or critical axe violation at 375 px`);
        // The tab's records at the top of the phone's screen (the page's own screenshots show its head).
        await page.getByRole('tablist').evaluate((el) => el.scrollIntoView());
        await page.screenshot({ path: join(ARTIFACTS, `admin-trader-${tab}-phone.png`), animations: 'disabled' });
      }
    } finally {
      await page.setViewportSize(DESKTOP);
    }
    await screenshots(page, 'admin-trader-phone-activity');
  });

  it('the administrator’s home links to every queue; a trader reaches none of these routes', async () => {
    const dashboard = new DashboardPage(page);
    await dashboard.goto('home');
    await page.getByRole('link', { name: 'Review open trades' }).waitFor();
    await page.getByTestId('admin-card-open-trades-value').waitFor();
    await page.getByTestId('admin-card-pending-deposits-value').waitFor();
    const menu = await dashboard.menuLabels();
    for (const label of ['Open Trades', 'Audit Log', 'Users', 'User Deposit Requests']) assert.ok(menu.includes(label), `admin menu has ${label}`);
    await check('admin-overview');

    const trader = await createTrader(h, { firstName: 'Hana', lastName: 'Okafor' });
    const t = await signIn(trader.email, trader.password);
    for (const path of ['users', `users/${trader.id}`, 'admin_accounts', 'open_trades', 'audit_log', 'requests/user_deposit_requests', 'requests/user_withdraw_requests', 'requests/user_closs_records']) {
      await t.page.goto(`/dashboard/${path}`);
      await t.page.waitForURL((u) => u.pathname === '/dashboard/home');
    }
    const traderMenu = await new DashboardPage(t.page).menuLabels();
    for (const label of ['Open Trades', 'Audit Log', 'Users']) assert.ok(!traderMenu.includes(label), `trader menu lacks ${label}`);
    assert.equal((await trader.client.request('GET', `/dashboard/admin/getTraderDetails.php?traderId=${trader.id}`)).status, 403);
    await t.context.close();
  });
});
