import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { AdminAuditLogPage, AdminRequestsPage, AdminTraderPage } from './pages/admin-pages';
import { RequestListPage } from './pages/money-pages';
import { PhoneTerminalPage } from './pages/phone-terminal-page';
import { SignInPage } from './pages/sign-in-page';
import { ADMIN_EMAIL, ADMIN_PASSWORD, ARTIFACTS, adminClient, createTrader, MOBILE, newPage, postJson, pushTicks, screenshots, seriousA11yViolations, startHarness, type Client, type Harness } from './support/harness';

/**
 * The back office's money tools in the browser: a balance adjustment and credit from the trader's
 * page (refused below zero, listed with their reasons, seen by the trader in the terminal, their
 * activity and the withdraw page), the trader's account beside each pending withdrawal, a
 * rejection's reason (asked for, and shown to the trader), internal notes that stay internal, and
 * the history naming a request the trader cancelled. Every screen is checked with axe-core and
 * saved at both sizes.
 */
describe('the back office money tools', () => {
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

  async function check(on: Page, name: string, options: { dark?: boolean } = {}) {
    await on.mouse.move(0, 0);
    await on.waitForTimeout(300);
    assert.deepEqual(await seriousA11yViolations(on), [], `${name}: no serious or critical axe violation`);
    await screenshots(on, name, options);
  }

  const freshPrices = () =>
    pushTicks(h, [
      { symbol: 'EURUSD', bid: 1.1, ask: 1.1002 },
      { symbol: 'GBPUSD', bid: 1.27, ask: 1.2702 },
    ]);

  async function funded(firstName: string, lastName: string, amount: string) {
    const trader = await createTrader(h, { firstName, lastName });
    const d = await postJson(trader.client, '/platform/addDeposite.php', { depositAmount: amount, paymentAccount: 'DE89 3704 0044 0532 0130 00', payment_getways_id: gateway });
    assert.equal(d.status, 200, JSON.stringify(d.body));
    assert.equal((await postJson(api, '/dashboard/admin/editStatusDeposite.php', { deposites_id: d.body.id, status: 1 })).status, 200);
    return trader;
  }

  async function withdrawal(trader: { client: Client }, amount: string): Promise<number> {
    const w = await postJson(trader.client, '/platform/addWithdrawal.php', { withdrawalsAmount: amount, paymentAccount: 'NL91 ABNA 0417 1643 00' });
    assert.equal(w.status, 200, JSON.stringify(w.body));
    return w.body.id as number;
  }

  before(async () => {
    h = await startHarness();
    api = await adminClient(h);
    const added = await postJson(api, '/dashboard/admin/addNewPayments.php', { name: 'Wire transfer — ING', number: 'NL20 INGB 0001 2345 67', moreInfo: 'Quote your trader id.' });
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

  it('adjusts a balance and grants credit from the trader page; a removal below zero is refused; both are listed and the trader sees them with their reasons', async () => {
    const trader = await funded('Ingrid', 'Solberg-Achterberg', '1500.00');
    const detail = new AdminTraderPage(page);
    await detail.goto(trader.id);

    // Taking more than the balance: the form warns, and the server's refusal shows in the dialog.
    await detail.fillBalanceOperation('Balance adjustment', 'Remove', '2000', 'Chargeback of the first deposit');
    await detail.dialog().getByText('This would take the balance below zero; the server refuses it.').waitFor();
    await detail.dialog().getByText(/1,500\.00\s*→\s*-500\.00/).waitFor();
    await check(page, 'admin-balance-operation-below-zero');
    await detail.sendBalanceOperation();
    await detail.dialog().getByText("Removing 2,000.00 USD would take the trader's balance below zero: it is 1,500.00 USD. Nothing was changed.").waitFor();
    assert.equal(await detail.balance(), '1,500.0000');
    await detail.dialog().getByRole('button', { name: 'Cancel' }).click();
    await detail.dialog().waitFor({ state: 'detached' });

    // A refund added to the balance: the preview, then the figure and a toast.
    await detail.fillBalanceOperation('Balance adjustment', 'Add', '250.5', 'Refund of the bank fee on deposit #1');
    await detail.dialog().getByText(/1,500\.00\s*→\s*1,750\.50/).waitFor();
    await check(page, 'admin-balance-operation', { dark: true });
    await detail.sendBalanceOperation();
    await detail.dialog().waitFor({ state: 'detached' });
    await page.getByText('Balance of Ingrid Solberg-Achterberg adjusted by +250.50 USD; it is now 1,750.50 USD.').first().waitFor();
    await page.waitForFunction(() => document.querySelector('[data-testid="trader-balance"]')?.textContent?.trim() === '1,750.5000');

    // A welcome bonus as credit: counted in equity, shown as Credit.
    await detail.fillBalanceOperation('Credit (bonus)', 'Add', '1000', 'Welcome bonus');
    await detail.dialog().getByText('Credit (a bonus) counts toward equity and free margin for trading, but can never be withdrawn.').waitFor();
    await detail.sendBalanceOperation();
    await detail.dialog().waitFor({ state: 'detached' });
    await page.getByText(/^Credit of Ingrid Solberg-Achterberg increased by 1,000\.00 USD/).first().waitFor();
    await page.getByText('2,750.5000').first().waitFor();

    await detail.tab('Balance operations');
    const table = page.getByRole('table', { name: 'Balance operations' });
    await table.getByText('Welcome bonus').waitFor();
    const cells = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].slice(1, 6).map((td) => td.textContent?.trim() ?? '')));
    // Each names the trading account it changed (the trader's one live account).
    assert.ok(cells.every((r) => /^\d{8}$/.test(r[1] ?? '')), JSON.stringify(cells));
    const rows = cells.map((r) => [r[0], ...r.slice(2)]);
    assert.deepEqual(rows, [
      ['Credit', '+1,000.00', '1,000.00', 'Welcome bonus'],
      ['Adjustment', '+250.50', '1,750.50', 'Refund of the bank fee on deposit #1'],
    ]);
    await check(page, 'admin-balance-operations', { dark: true });

    // The audit log says who did it, to whom, how much and why.
    const audit = new AdminAuditLogPage(page);
    await audit.goto();
    const entries = (await audit.entries()).join('\n');
    assert.match(entries, /^Changed credit · Ingrid Solberg-Achterberg \S+@\S+ Live account \d{8}$/m);
    assert.match(entries, /^Adjusted balance · Ingrid Solberg-Achterberg \S+@\S+ Live account \d{8}$/m);
    await audit.table().getByText('Reason: Welcome bonus').waitFor();

    // The trader: Credit beside the balance in the terminal, the reasons in the activity, and a
    // withdrawable figure that leaves the credit out.
    await freshPrices();
    const mine = await signIn(trader.email, trader.password);
    await mine.page.waitForURL((u) => u.pathname === '/trading');
    await mine.page.waitForFunction(() => document.querySelector('[data-testid="footer-credit"]')?.textContent === '1,000.0000');
    assert.equal(await mine.page.getByTestId('footer-balance').textContent(), '1,750.5000 USD');
    assert.equal(await mine.page.getByTestId('footer-equity').textContent(), '2,750.5000');
    await check(mine.page, 'trader-terminal-credit');

    // On a phone, the trading tab's figures show it too.
    const phone = await h.browser.newContext({ viewport: MOBILE, hasTouch: true, isMobile: true, baseURL: h.origin, colorScheme: 'light', timezoneId: 'UTC', locale: 'en-US' });
    try {
      const phonePage = await phone.newPage();
      const phoneSignIn = new SignInPage(phonePage);
      await phoneSignIn.goto();
      await phoneSignIn.signIn(trader.email, trader.password);
      await phonePage.waitForURL((u) => u.pathname === '/trading');
      const terminal = new PhoneTerminalPage(phonePage);
      await terminal.openTab('Trade');
      // The sign-in toast lies over the figures for its 3 s.
      await phonePage.getByText('SignIn successful!').waitFor({ state: 'detached', timeout: 8000 });
      await phonePage.waitForFunction(() => document.querySelector('[data-testid="phone-credit"]')?.textContent === '1,000.0000');
      assert.equal(await phonePage.getByTestId('phone-equity').textContent(), '2,750.5000');
      assert.deepEqual(await seriousA11yViolations(phonePage), []);
      await phonePage.screenshot({ path: join(ARTIFACTS, 'trader-phone-credit-mobile.png') });
    } finally {
      await phone.close();
    }

    await mine.page.goto('/dashboard/activity_account');
    await mine.page.getByText('+250.50 USD: Refund of the bank fee on deposit #1').first().waitFor();
    await mine.page.getByText('+1,000.00 USD: Welcome bonus').first().waitFor();
    await check(mine.page, 'trader-activity-balance-operations');

    await mine.page.goto('/dashboard/withdraw');
    await mine.page.waitForFunction(() => document.querySelector('[data-testid="funds-withdrawable"]')?.textContent === '1,750.5000 USD');
    assert.match((await mine.page.getByTestId('funds-credit').textContent()) ?? '', /credit of 1,000\.00 USD counts toward your margin for trading but cannot be withdrawn/);
    await check(mine.page, 'trader-withdraw-credit');

    // An adjustment made while the trader is on the dashboard arrives as a toast.
    assert.equal((await postJson(api, '/dashboard/admin/addBalanceOperation.php', { traders_id: trader.id, type: 'credit', amount: '-400.00', reason: 'Bonus terms not met' })).status, 200);
    await mine.page.getByText('Credit removed').first().waitFor();
    await mine.page.getByText('-400.00 USD: Bonus terms not met').first().waitFor();
    await mine.context.close();
  });

  it("beside each pending withdrawal the approver sees the trader's account, and an approval the trader's own funds do not cover is flagged before it is sent", async () => {
    await freshPrices();
    const steady = await funded('Olusegun', 'Adeyemi', '900.00');
    const steadyId = await withdrawal(steady, '120.00');
    const leveraged = await funded('Marguerite', 'Delacroix-Beaumont', '300.00');
    const leveragedId = await withdrawal(leveraged, '200.00');
    assert.equal((await postJson(api, '/dashboard/admin/addBalanceOperation.php', { traders_id: leveraged.id, type: 'credit', amount: '1000.00', reason: 'Welcome bonus' })).status, 200);
    // 1 lot of EURUSD holds 1,100.00 of margin: more than the trader's own 300.00.
    const opened = await postJson(leveraged.client, '/platform/addTrades.php', { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 1 });
    assert.equal(opened.status, 200, JSON.stringify(opened.body));

    const queue = new AdminRequestsPage(page, 'withdrawal');
    await queue.goto();
    await queue.row(leveragedId).waitFor();
    const steadyRisk = page.getByRole('table', { name: 'Pending withdrawal requests' }).getByTestId(`risk-${steady.id}`);
    const leveragedRisk = page.getByRole('table', { name: 'Pending withdrawal requests' }).getByTestId(`risk-${leveraged.id}`);
    await steadyRisk.getByText('Free margin 900.00').waitFor();
    await steadyRisk.getByText('No open positions').waitFor();
    // Equity 1,300 − 20 = 1,280; free margin 1,280 − 1,100 = 180.
    await leveragedRisk.getByText('Free margin 180.00').waitFor();
    await leveragedRisk.getByText('1 position · 1.00 lots · margin 1,100.00').waitFor();
    await leveragedRisk.getByText('Not covered').waitFor();
    assert.equal(await steadyRisk.getByText('Not covered').count(), 0);
    await check(page, 'admin-withdraw-risk', { dark: true });

    await queue.openDecision(leveragedId, 'Approve');
    await queue.dialog().getByText("Not covered by the trader's own funds").waitFor();
    await queue.dialog().getByText('Credit (not withdrawable)').waitFor();
    await check(page, 'admin-withdraw-risk-dialog');
    await queue.dialog().getByRole('button', { name: 'Cancel' }).click();
    await queue.dialog().waitFor({ state: 'detached' });

    // The covered one is approved as before.
    await queue.decide(steadyId, 'Approve');
    await queue.toast(`Withdrawal request# ${steadyId} approved successfully`);
    await queue.row(steadyId).waitFor({ state: 'detached' });
    assert.equal((await postJson(leveraged.client, '/platform/updateTrades.php', { ticket: opened.body.ticket })).status, 200);
  });

  it('a rejection asks for its reason and the trader reads it; notes stay internal; the history says when the trader cancelled', async () => {
    const trader = await funded('Tomasz', 'Wiśniewski', '600.00');
    const id = await withdrawal(trader, '150.00');
    const queue = new AdminRequestsPage(page, 'withdrawal');
    await queue.goto();
    await queue.row(id).waitFor();

    await queue.openNotes(id);
    await queue.dialog().getByText('No notes yet.', { exact: false }).waitFor();
    await queue.addNote('Called the trader: the IBAN is new and belongs to a relative.');
    await queue.dialog().getByRole('listitem').getByText('Called the trader: the IBAN is new and belongs to a relative.').waitFor();
    await queue.dialog().getByRole('textbox', { name: 'Add a note' }).fill('');
    await check(page, 'admin-request-notes', { dark: true });
    await queue.dialog().getByRole('button', { name: 'Close' }).click();
    await queue.dialog().waitFor({ state: 'detached' });
    await page.getByRole('button', { name: `Notes on withdrawal request ${id}: 1` }).first().waitFor();

    await queue.openDecision(id, 'Reject');
    await queue.dialog().getByRole('button', { name: 'Reject', exact: true }).click();
    await queue.dialog().getByText('Please give the reason; the trader sees it.').waitFor();
    await check(page, 'admin-reject-reason');
    await queue.dialog().getByLabel('Reason').fill('We pay out only to an account in your own name.');
    await queue.confirm('Reject');
    await queue.toast(`Withdrawal ${id} request rejected successfully`);

    // A later request the trader cancels: the history says so instead of naming the trader's email as its decider.
    const cancelled = await withdrawal(trader, '50.00');
    assert.equal((await postJson(trader.client, '/platform/cancelMoneyRequest.php', { id: cancelled })).status, 200);
    await queue.allRequests();
    await queue.allRow(id).getByText('We pay out only to an account in your own name.').waitFor();
    await queue.allRow(cancelled).getByText('Cancelled by the trader').waitFor();
    assert.equal(await queue.allRow(cancelled).getByText(trader.email).count(), 1, 'the email only as the trader');
    await check(page, 'admin-withdraw-history-reasons', { dark: true });

    // The trader sees the reason, and nothing of the note.
    const mine = await signIn(trader.email, trader.password);
    const list = new RequestListPage(mine.page);
    await list.goto('withdraw');
    await list.status('withdrawal', id).getByText('Rejected').waitFor();
    await list.status('withdrawal', id).getByText('We pay out only to an account in your own name.').waitFor();
    assert.equal(await mine.page.getByText('belongs to a relative', { exact: false }).count(), 0);
    await check(mine.page, 'trader-withdraw-rejected-reason', { dark: true });
    await mine.context.close();
  });
});
