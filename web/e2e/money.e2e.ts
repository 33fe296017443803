import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DashboardPage } from './pages/dashboard-page';
import { DepositPage, RequestListPage, WithdrawPage } from './pages/money-pages';
import { SignInPage } from './pages/sign-in-page';
import { adminClient, createTrader, newPage, postJson, pushTicks, screenshots, seedDailyCandles, seriousA11yViolations, startHarness, type Harness } from './support/harness';

describe('deposits and withdrawals in the browser, decided live by the back office', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
    await seedDailyCandles(h, 'EURUSD', { start: 1.08 });
    const admin = await adminClient(h);
    const added = await postJson(admin, '/dashboard/admin/addNewPayments.php', { name: 'Wire transfer — Barclays', number: 'GB29 NWBK 6016 1331 9268 19', moreInfo: 'Use your trader id as the payment reference.' });
    assert.equal(added.status, 200, JSON.stringify(added.body));
  });
  after(async () => h?.close());

  async function signedIn(h: Harness) {
    const trader = await createTrader(h);
    const { context, page } = await newPage(h);
    const signIn = new SignInPage(page);
    await signIn.goto();
    await signIn.signIn(trader.email, trader.password);
    await page.waitForURL((u) => u.pathname === '/trading');
    return { trader, context, page };
  }

  it('files a deposit; the admin approves it and the cards, the list and a toast update without a reload', async () => {
    const { trader, context, page } = await signedIn(h);
    const dashboard = new DashboardPage(page);
    await dashboard.goto('home');
    assert.equal(await dashboard.card('Total Balance'), '0.00');
    await screenshots(page, 'home-empty');

    await page.getByRole('link', { name: 'Deposit', exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/dashboard/deposit_options');
    await page.getByText('Wire transfer — Barclays').first().waitFor();
    await screenshots(page, 'deposit-options');
    await page.getByRole('link', { name: 'Deposit with Wire transfer — Barclays' }).click();
    await page.waitForURL((u) => u.pathname === '/dashboard/deposit');
    // The side menu shows where the form belongs: its group open, Deposit Options marked.
    await page.locator('nav[aria-label="Dashboard menu"] a[href="/dashboard/deposit_options"][data-active]').waitFor();

    const deposit = new DepositPage(page);
    // Validation next to the fields before anything is sent.
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Please enter your account number.').waitFor();
    await page.getByText('Please enter the deposit amount.').waitFor();
    const message = await deposit.request('Wire transfer — Barclays · GB29 NWBK 6016 1331 9268 19', '4821', '1250.50');
    assert.match(message, /successfully/);
    assert.deepEqual(await seriousA11yViolations(page), []);
    await screenshots(page, 'deposit-form', { dark: true });

    const list = new RequestListPage(page);
    await list.goto('deposit');
    const mine = await trader.client.request('GET', '/platform/getTraderDeposites.php');
    const id = mine.body.data[0].id as number;
    assert.equal((await list.status('deposit', id).textContent())?.trim(), 'Pending');

    const admin = await adminClient(h);
    const decided = await postJson(admin, '/dashboard/admin/editStatusDeposite.php', { deposites_id: id, status: 1 });
    assert.equal(decided.status, 200, JSON.stringify(decided.body));
    await page.getByText('Deposit approved').first().waitFor();
    await page.waitForFunction((rid) => document.querySelector(`[data-testid="request-deposit-${rid}"] [data-testid="request-status"]`)?.textContent?.trim() === 'Approved', id);
    await screenshots(page, 'deposit-requests');

    await page.getByRole('link', { name: 'Dashboard', exact: true }).first().click();
    await page.waitForFunction(() => document.querySelector('[data-testid="card-total-balance"]')?.textContent?.startsWith('1,250.50'));
    assert.equal(await dashboard.card('Total Deposits'), '1,250.50');

    // A trade opened and closed through the API appears in History Trade, Buy in green and the loss in red, live.
    await pushTicks(h, [{ symbol: 'EURUSD', bid: 1.1, ask: 1.1002 }]);
    const opened = await postJson(trader.client, '/platform/addTrades.php', { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 0.1 });
    assert.equal(opened.status, 200, JSON.stringify(opened.body));
    await pushTicks(h, [{ symbol: 'EURUSD', bid: 1.099, ask: 1.0992 }]);
    const closed = await postJson(trader.client, '/platform/updateTrades.php', { ticket: opened.body.ticket });
    assert.equal(closed.status, 200, JSON.stringify(closed.body));
    const history = page.getByRole('table', { name: 'History Trade' });
    await history.getByRole('row').nth(1).waitFor();
    const cells = await history.getByRole('row').nth(1).getByRole('cell').allTextContents();
    assert.deepEqual([cells[1], cells[3], cells[4], cells[5], cells[8], cells[9]], ['EURUSD', 'Buy', '0.10', '1.10020', '1.09900', '-12.00']);
    assert.equal(await history.getByRole('row').nth(1).getByRole('cell').nth(3).evaluate((el) => el.className.includes('tp-buy')), true);
    assert.equal(await history.getByRole('row').nth(1).getByRole('cell').nth(9).evaluate((el) => el.className.includes('tp-negative')), true);
    await page.waitForFunction(() => document.querySelector('[data-testid="card-total-balance"]')?.textContent?.startsWith('1,238.50'));
    await page.waitForFunction(() => document.querySelector('[data-testid="account-balance"]')?.textContent?.startsWith('1,238.5000'));
    assert.deepEqual(await seriousA11yViolations(page), []);
    await screenshots(page, 'home', { dark: true });
    await context.close();
  });

  it('files a withdrawal that the admin rejects; the list shows Rejected and the balance is unchanged', async () => {
    const { trader, context, page } = await signedIn(h);
    const admin = await adminClient(h);
    const gateways = await admin.request('GET', '/dashboard/admin/getPaymentGetways.php');
    await postJson(trader.client, '/platform/addDeposite.php', { depositAmount: '500', paymentAccount: '1111', payment_getways_id: gateways.body.data[0].id });
    const deposits = await trader.client.request('GET', '/platform/getTraderDeposites.php');
    await postJson(admin, '/dashboard/admin/editStatusDeposite.php', { deposites_id: deposits.body.data[0].id, status: 1 });

    const withdraw = new WithdrawPage(page);
    await withdraw.goto();
    await page.waitForFunction(() => document.querySelector('[data-testid="funds-withdrawable"]')?.textContent?.startsWith('500.00'));
    const message = await withdraw.request('GB82 WEST 1234 5698 7654 32', '200');
    assert.match(message, /successfully/);
    await screenshots(page, 'withdraw-form');
    assert.deepEqual(await seriousA11yViolations(page), []);

    const mine = await trader.client.request('GET', '/platform/getTraderWithdrawals.php');
    const id = mine.body.data[0].id as number;
    const list = new RequestListPage(page);
    await list.goto('withdraw');
    assert.equal((await list.status('withdrawal', id).textContent())?.trim(), 'Pending');
    const rejected = await postJson(admin, '/dashboard/admin/editStatusWithdrawal.php', { withdrawals_id: id, status: 2 });
    assert.equal(rejected.status, 200);
    await page.getByText('Withdrawal rejected').first().waitFor();
    await page.waitForFunction((rid) => document.querySelector(`[data-testid="request-withdrawal-${rid}"] [data-testid="request-status"]`)?.textContent?.trim() === 'Rejected', id);
    await screenshots(page, 'withdraw-requests');

    const dashboard = new DashboardPage(page);
    await dashboard.goto('home');
    assert.equal(await dashboard.card('Total Balance'), '500.00');
    assert.equal(await dashboard.card('Total Withdrawals'), '0.00');
    await context.close();
  });

  it('sets a pending withdrawal aside at once; the trader cancels it from the list and the amount is free again', async () => {
    const { trader, context, page } = await signedIn(h);
    const admin = await adminClient(h);
    const gateways = await admin.request('GET', '/dashboard/admin/getPaymentGetways.php');
    await postJson(trader.client, '/platform/addDeposite.php', { depositAmount: '1000', paymentAccount: '2222', payment_getways_id: gateways.body.data[0].id });
    const deposits = await trader.client.request('GET', '/platform/getTraderDeposites.php');
    await postJson(admin, '/dashboard/admin/editStatusDeposite.php', { deposites_id: deposits.body.data[0].id, status: 1 });

    const withdraw = new WithdrawPage(page);
    await withdraw.goto();
    const figure = (id: string) => page.getByTestId(id);
    await page.waitForFunction(() => document.querySelector('[data-testid="funds-withdrawable"]')?.textContent === '1,000.0000 USD');
    assert.equal(await figure('funds-pending').textContent(), '0.0000 USD');
    const explanation = await figure('funds-explanation').textContent();
    assert.match(explanation ?? '', /stay in your balance until they are paid/);
    assert.match(explanation ?? '', /trading may still use them as margin/);
    assert.match(explanation ?? '', /refused/);

    const message = await withdraw.request('GB82 WEST 1234 5698 7654 32', '500');
    assert.match(message, /successfully/);
    // Set aside at once: the figures change with the answer, not after a reload.
    await page.waitForFunction(() => document.querySelector('[data-testid="funds-withdrawable"]')?.textContent === '500.0000 USD');
    assert.equal(await figure('funds-pending').textContent(), '− 500.0000 USD');
    assert.equal(await figure('funds-balance').textContent(), '1,000.0000 USD');
    const mine = await trader.client.request('GET', '/platform/getTraderWithdrawals.php');
    const id = mine.body.data[0].id as number;
    const row = page.getByTestId(`request-withdrawal-${id}`);
    await row.getByRole('button', { name: `Cancel withdrawal request ${id}` }).waitFor();
    assert.deepEqual(await seriousA11yViolations(page), []);
    await screenshots(page, 'withdraw-hold', { dark: true });

    await row.getByRole('button', { name: `Cancel withdrawal request ${id}` }).click();
    const dialog = page.getByRole('dialog', { name: `Cancel withdrawal request #${id}?` });
    await dialog.waitFor();
    await dialog.getByText('500.00 USD').waitFor();
    await dialog.getByText('the amount set aside for it is free to withdraw again').waitFor();
    assert.deepEqual(await seriousA11yViolations(page), []);
    await screenshots(page, 'withdraw-cancel-dialog');
    await dialog.getByRole('button', { name: 'Cancel request' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText(`Withdrawal request #${id} cancelled.`).first().waitFor();
    await page.waitForFunction((rid) => document.querySelector(`[data-testid="request-withdrawal-${rid}"] [data-testid="request-status"]`)?.textContent?.trim() === 'Cancelled', id);
    await page.waitForFunction(() => document.querySelector('[data-testid="funds-withdrawable"]')?.textContent === '1,000.0000 USD');
    assert.equal(await figure('funds-pending').textContent(), '0.0000 USD');
    assert.equal(await row.getByRole('button', { name: /^Cancel/ }).count(), 0, 'a cancelled request has no Cancel action');
    // The form's "sent successfully, please wait for approval" spoke of the request just cancelled: it is gone.
    await page.waitForFunction(() => document.querySelector('[data-testid="form-message"]')?.textContent === '');
    await screenshots(page, 'withdraw-cancelled');

    // The full list says Cancelled too, beside a newer pending request that can still be cancelled, and filters by status.
    const second = await postJson(trader.client, '/platform/addWithdrawal.php', { withdrawalsAmount: '100', paymentAccount: 'GB82 WEST 1234 5698 7654 32' });
    assert.equal(second.status, 200, JSON.stringify(second.body));
    const list = new RequestListPage(page);
    await list.goto('withdraw');
    await list.status('withdrawal', id).getByText('Cancelled').waitFor();
    await page.getByRole('button', { name: `Cancel withdrawal request ${second.body.id}` }).waitFor();
    assert.equal(await page.getByRole('button', { name: `Cancel withdrawal request ${id}` }).count(), 0);
    assert.deepEqual(await seriousA11yViolations(page), []);
    await screenshots(page, 'withdraw-requests-cancelled', { dark: true });
    await page.locator('.mantine-SegmentedControl-label', { hasText: /^Cancelled$/ }).click();
    await list.status('withdrawal', id).getByText('Cancelled').waitFor();
    await page.getByTestId(`request-withdrawal-${second.body.id}`).waitFor({ state: 'detached' });
    // The server agrees: cancelled, nothing paid out; only the newer request is set aside.
    const after = await trader.client.request('GET', '/platform/getWithdrawable.php');
    assert.deepEqual(after.body, { status: 'success', balance: '1000.00', marginHeld: '0.00', pendingWithdrawals: '100.00', withdrawable: '900.00' });
    await context.close();
  });

  it('refuses a withdrawal above the free margin with the server message next to the form', async () => {
    const { context, page } = await signedIn(h);
    const withdraw = new WithdrawPage(page);
    await withdraw.goto();
    const message = await withdraw.request('GB82 WEST 1234 5698 7654 32', '100');
    assert.ok(!/successfully/.test(message), `refused, got "${message}"`);
    assert.equal(await page.getByTestId('form-message').evaluate((el) => getComputedStyle(el).color), 'rgb(201, 42, 42)');
    await context.close();
  });
});
