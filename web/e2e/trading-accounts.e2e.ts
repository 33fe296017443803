import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { PositionsPanel } from './pages/positions-panel';
import { OrderEntry } from './pages/terminal-page';
import { SignInPage } from './pages/sign-in-page';
import { ADMIN_EMAIL, ADMIN_PASSWORD, addPaymentAccount, adminClient, approvedDeposit, createTrader, MOBILE, newPage, postJson, pushTicks, screenshots, seriousA11yViolations, startHarness, type Client, type Harness } from './support/harness';

/**
 * Trading accounts in the browser: the terminal's account switcher (live and demo, the demo mark),
 * the Trading Accounts page (open, reset), transfers, and the back office's account states.
 */
describe('trading accounts in the browser', () => {
  let h: Harness;
  let admin: Client;
  let gateway = 0;

  before(async () => {
    h = await startHarness();
    admin = await adminClient(h);
    gateway = await addPaymentAccount(admin);
    await pushTicks(h, [{ symbol: 'EURUSD', bid: 1.1, ask: 1.1002 }]);
  });
  after(async () => h?.close());

  /** A trader with `amount` USD approved, and a fresh EURUSD quote (1.10000 / 1.10020) to trade at. */
  async function fundedTrader(amount: string) {
    const trader = await createTrader(h, { firstName: 'Noor', lastName: 'Haddad' });
    await approvedDeposit(trader.client, admin, gateway, amount);
    await pushTicks(h, [{ symbol: 'EURUSD', bid: 1.1, ask: 1.1002 }]);
    return trader;
  }

  const onAccount = (client: Client, accountId: number, path: string, body: object) => client.request('POST', path, { body: JSON.stringify(body), headers: { 'content-type': 'application/json', 'x-trading-account': String(accountId) } });

  async function openMarket(client: Client, side: 'buy' | 'sell', volume: number, accountId?: number): Promise<number> {
    const order = { fullSymbol: 'EURUSD', tradestypes: side, volume };
    const r = accountId === undefined ? await postJson(client, '/platform/addTrades.php', order) : await onAccount(client, accountId, '/platform/addTrades.php', order);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.ticket as number;
  }

  async function signIn(trader: { email: string; password: string }, viewport?: { width: number; height: number }) {
    const { context, page } = await newPage(h, viewport);
    const signInPage = new SignInPage(page);
    await signInPage.goto();
    await signInPage.signIn(trader.email, trader.password);
    await page.waitForURL((u) => u.pathname !== '/');
    return { context, page };
  }

  async function accounts(client: Client) {
    const r = await client.request('GET', '/platform/getAccounts.php');
    return r.body.data as { id: number; number: number; kind: 'live' | 'demo'; balance: string; state: string }[];
  }

  /** Records every positions-panel ticket shown from now on (a switch must never show one of the other account). */
  // Written as text: the test's compiler would name these functions with a helper the page lacks.
  async function watchTickets(page: Page) {
    await page.evaluate(`(() => {
      const seen = new Set();
      window.seenTickets = seen;
      const note = () => document.querySelectorAll('[data-testid^="position-"]').forEach((r) => seen.add(r.getAttribute('data-testid').replace('position-', '')));
      note();
      new MutationObserver(note).observe(document.body, { childList: true, subtree: true });
    })()`);
  }
  const seenTickets = async (page: Page) => ((await page.evaluate('[...window.seenTickets]')) as string[]).map(Number);

  it('switches the terminal between a live and a demo account: each shows only its own positions and figures, and the demo mark stays in sight', async () => {
    const trader = await fundedTrader('1000.00');
    const liveTicket = await openMarket(trader.client, 'buy', 0.1);
    const opened = await postJson(trader.client, '/platform/openAccount.php', { kind: 'demo' });
    assert.equal(opened.status, 200, JSON.stringify(opened.body));
    const demo = opened.body.account as { id: number; number: number };
    const demoTicket = await openMarket(trader.client, 'sell', 2, demo.id);
    const [live] = await accounts(trader.client);

    const { context, page } = await signIn(trader);
    await page.waitForURL((u) => u.pathname === '/trading');
    const panel = new PositionsPanel(page);
    await panel.root().waitFor();
    await page.getByTestId('account-number').filter({ hasText: String(live!.number) }).waitFor();
    await page.waitForFunction((t) => document.querySelector(`[data-testid="position-${t}"]`), liveTicket);
    assert.deepEqual(await panel.tickets(), [liveTicket]);
    assert.equal(await page.getByTestId('demo-mark').count(), 0, 'no demo mark on a live account');
    await screenshots(page, 'accounts-terminal-live');

    await watchTickets(page);
    await page.getByTestId('account-switcher').click();
    await page.getByTestId('account-menu').waitFor();
    assert.deepEqual(await seriousA11yViolations(page, ['[data-testid="account-menu"]']), []);
    await screenshots(page, 'accounts-switcher-menu');
    await page.getByTestId(`account-option-${demo.number}`).click();
    await page.waitForFunction((t) => document.querySelector(`[data-testid="position-${t}"]`), demoTicket);
    assert.deepEqual(await panel.tickets(), [demoTicket]);
    assert.deepEqual((await seenTickets(page)).filter((t) => t === liveTicket), [liveTicket], 'the live position was seen only before the switch');
    await page.getByTestId('brief-balance').filter({ hasText: '10,000.00' }).waitFor();
    await page.getByTestId('demo-mark').first().waitFor();
    assert.deepEqual(await seriousA11yViolations(page), []);
    await screenshots(page, 'accounts-terminal-demo', { dark: true });

    // The choice stays for this browser: the terminal comes back on the demo account.
    await page.reload();
    await page.waitForFunction((t) => document.querySelector(`[data-testid="position-${t}"]`), demoTicket);
    await page.getByTestId('demo-mark').first().waitFor();
    await context.close();

    // On a phone (another browser: no choice made there yet) the header carries the switcher, and then the mark.
    const phone = await signIn(trader, MOBILE);
    await phone.page.waitForURL((u) => u.pathname === '/trading');
    await phone.page.getByTestId('phone-terminal').waitFor();
    assert.equal(await phone.page.getByTestId('demo-mark').count(), 0);
    await phone.page.getByTestId('account-switcher').click();
    await phone.page.getByTestId(`account-option-${demo.number}`).click();
    await phone.page.getByTestId('account-switcher').getByTestId('demo-mark').waitFor();
    await screenshots(phone.page, 'accounts-phone-demo');
    await phone.context.close();
  });

  it('opens and resets a demo account and transfers between live accounts from the dashboard', async () => {
    const trader = await fundedTrader('500.00');
    const { context, page } = await signIn(trader);
    await page.goto('/dashboard/accounts');
    await page.getByTestId('account-card').first().waitFor();
    await page.getByRole('button', { name: 'Open demo account' }).click();
    await page.locator('[data-testid="account-card"] [data-testid="demo-mark"]').waitFor();
    await page.getByRole('button', { name: 'Open live account' }).click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="account-card"]').length === 3);
    const all = await accounts(trader.client);
    const demo = all.find((a) => a.kind === 'demo')!;
    const [first, second] = all.filter((a) => a.kind === 'live');
    assert.deepEqual([demo.balance, first!.balance, second!.balance], ['10000.00', '500.00', '0.00']);
    assert.deepEqual(await seriousA11yViolations(page), []);
    await screenshots(page, 'accounts-page', { dark: true });

    // A loss on the demo account, then its reset.
    await pushTicks(h, [{ symbol: 'EURUSD', bid: 1.1, ask: 1.1002 }]);
    await openMarket(trader.client, 'buy', 1, demo.id);
    await pushTicks(h, [{ symbol: 'EURUSD', bid: 1.095, ask: 1.0952 }]);
    await page.reload();
    const demoCard = page.locator(`[data-testid="account-card"][data-account="${demo.number}"]`);
    await demoCard.getByRole('button', { name: 'Reset' }).click();
    await page.getByRole('dialog', { name: 'Reset the demo account?' }).waitFor();
    await screenshots(page, 'accounts-reset-dialog');
    await page.getByRole('button', { name: 'Reset account' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await demoCard.getByTestId('account-balance').filter({ hasText: '10,000.00' }).waitFor();
    assert.equal((await accounts(trader.client)).find((a) => a.id === demo.id)!.balance, '10000.00');
    await pushTicks(h, [{ symbol: 'EURUSD', bid: 1.1, ask: 1.1002 }]);

    await page.goto('/dashboard/transfers');
    await page.getByRole('combobox', { name: 'From account' }).click();
    await page.getByRole('option', { name: new RegExp(String(first!.number)) }).click();
    await page.getByRole('combobox', { name: 'To account' }).click();
    await page.getByRole('option', { name: new RegExp(String(second!.number)) }).click();
    await page.getByLabel('Amount').fill('600');
    await page.getByRole('button', { name: 'Transfer' }).click();
    await page.getByTestId('form-message').filter({ hasText: /can transfer at most 500\.00 USD/ }).waitFor();
    await page.getByLabel('Amount').fill('125.50');
    await page.getByRole('button', { name: 'Transfer' }).click();
    await page.getByTestId('form-message').filter({ hasText: /125\.50 USD moved/ }).waitFor();
    const after = await accounts(trader.client);
    assert.deepEqual([after.find((a) => a.id === first!.id)!.balance, after.find((a) => a.id === second!.id)!.balance], ['374.50', '125.50']);
    assert.deepEqual(await seriousA11yViolations(page), []);
    await screenshots(page, 'accounts-transfer');
    await context.close();
  });

  it('a close-only account closes but opens nothing, and a disabled one cannot trade: the back office sets it, the terminal says why', async () => {
    const trader = await fundedTrader('1000.00');
    const ticket = await openMarket(trader.client, 'buy', 0.1);
    const [live] = await accounts(trader.client);
    const a = await signIn({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    await a.page.goto(`/dashboard/users/${trader.id}?tab=accounts`);
    const row = a.page.getByTestId(`trader-account-${live!.number}`);
    await row.waitFor();
    await row.getByLabel(`State of account ${live!.number}`).click();
    await a.page.getByRole('option', { name: 'Close-only' }).click();
    await a.page.getByText(/is close-only now/).waitFor();
    assert.deepEqual(await seriousA11yViolations(a.page), []);
    await screenshots(a.page, 'accounts-back-office');

    const refused = await postJson(trader.client, '/platform/addTrades.php', { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 0.01 });
    assert.equal(refused.status, 400);
    assert.match(refused.body.message, /close-only/);
    assert.equal((await postJson(trader.client, '/platform/updateTrades.php', { ticket })).status, 200, 'closing goes on');
    const { context, page } = await signIn(trader);
    await page.waitForURL((u) => u.pathname === '/trading');
    await page.getByTestId('account-switcher').click();
    await page.getByTestId('account-menu').getByText('Close-only').waitFor();
    await context.close();

    await row.getByLabel(`State of account ${live!.number}`).click();
    await a.page.getByRole('option', { name: 'Disabled' }).click();
    await a.page.getByText(/is disabled now/).waitFor();
    const disabled = await postJson(trader.client, '/platform/addTrades.php', { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 0.01 });
    assert.equal(disabled.status, 400);
    assert.match(disabled.body.message, /disabled: it cannot trade/);
    await a.context.close();
  });

  it('the dashboard shows the chosen account and files money requests for a live one; the back office names the account in its lists and log', async () => {
    const trader = await fundedTrader('800.00');
    const second = (await postJson(trader.client, '/platform/openAccount.php', { kind: 'live' })).body.account as { id: number; number: number };
    const demo = (await postJson(trader.client, '/platform/openAccount.php', { kind: 'demo' })).body.account as { id: number; number: number };
    const [first] = await accounts(trader.client);
    const liveTicket = await openMarket(trader.client, 'buy', 0.1);
    const demoTicket = await openMarket(trader.client, 'sell', 1, demo.id);

    // The home's account box follows the chosen account: the demo one, marked, with no money buttons.
    const { context, page } = await signIn(trader);
    await context.addCookies([{ name: 'tp_account', value: String(demo.id), url: h.origin }]);
    await page.goto('/dashboard');
    await page.getByTestId('home-account').getByTestId('demo-mark').waitFor();
    assert.equal(await page.getByTestId('home-account-number').textContent(), String(demo.number));
    await page.getByRole('link', { name: 'Manage accounts' }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'Deposit', exact: true }).count(), 0);
    await screenshots(page, 'home-demo-account');

    // The deposit form does not take a demo account: a live one is chosen, and the request names it.
    await page.goto('/dashboard/deposit');
    await page.getByText(`Demo ${demo.number} holds virtual money only: choose a live account.`).waitFor();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Please choose the live account to deposit into.').waitFor();
    await page.getByRole('combobox', { name: 'Trading account' }).click();
    await page.getByRole('option', { name: new RegExp(`Live ${second.number}`) }).click();
    await page.getByRole('combobox', { name: 'Payment account' }).click();
    await page.getByRole('option').first().click();
    await page.getByLabel('Your account').fill('9911');
    await page.getByLabel('Amount').fill('40');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByTestId('form-message').filter({ hasText: /successfully/ }).waitFor();
    const filed = (await trader.client.request('GET', '/platform/getTraderDeposites.php')).body.data[0] as { id: number; accountNumber: number };
    assert.equal(filed.accountNumber, second.number);
    assert.deepEqual(await seriousA11yViolations(page), []);
    await screenshots(page, 'deposit-live-account');
    await page.goto('/dashboard/deposit_requests');
    await page.getByTestId(`request-deposit-${filed.id}`).getByTestId('request-trading-account').filter({ hasText: String(second.number) }).waitFor();
    await screenshots(page, 'deposit-requests-accounts');
    await context.close();

    // The back office: the queue names the account; open trades show live and demo apart; the log names the account.
    const a = await signIn({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    await a.page.goto('/dashboard/requests/user_deposit_requests');
    await a.page.getByTestId('request-trading-account').filter({ hasText: String(second.number) }).first().waitFor();
    await screenshots(a.page, 'deposit-queue-accounts');
    await a.page.goto('/dashboard/open_trades');
    await a.page.getByLabel('Search trades').fill(trader.email);
    await a.page.getByTestId(`account-${liveTicket}`).filter({ hasText: String(first!.number) }).waitFor();
    assert.equal(await a.page.getByTestId(`account-${demoTicket}`).count(), 0, 'a demo position is not among the live ones');
    await a.page.getByTestId('account-kind').getByText('Demo', { exact: true }).click();
    await a.page.getByTestId(`account-${demoTicket}`).filter({ hasText: String(demo.number) }).waitFor();
    assert.equal(await a.page.getByTestId(`account-${liveTicket}`).count(), 0);
    assert.deepEqual(await seriousA11yViolations(a.page), []);
    await screenshots(a.page, 'open-trades-demo');
    const closed = await postJson(admin, '/dashboard/admin/editStatusTrades.php', { traders_id: trader.id, ticket: demoTicket });
    assert.equal(closed.status, 200, JSON.stringify(closed.body));
    await a.page.goto('/dashboard/requests/user_closs_records');
    await a.page.getByTestId('account-kind').getByText('Demo', { exact: true }).click();
    await a.page.getByTestId(`closed-account-${demoTicket}`).filter({ hasText: String(demo.number) }).waitFor();
    await screenshots(a.page, 'closed-records-demo');

    // A balance adjustment names one of the trader's live accounts.
    await a.page.goto(`/dashboard/users/${trader.id}`);
    await a.page.getByRole('button', { name: 'Adjust balance' }).click();
    await a.page.getByRole('combobox', { name: 'Trading account' }).click();
    await a.page.getByRole('option', { name: new RegExp(`Live ${second.number}`) }).click();
    await a.page.getByLabel('Amount').fill('15');
    await a.page.getByLabel('Reason').fill('Goodwill for the delay');
    assert.deepEqual(await seriousA11yViolations(a.page, ['[role="dialog"]']), []);
    await screenshots(a.page, 'balance-adjustment-account');
    await a.page.getByRole('button', { name: /Add 15\.00 USD to balance/ }).click();
    await a.page.getByRole('dialog').waitFor({ state: 'detached' });
    const after = await accounts(trader.client);
    assert.deepEqual([after.find((x) => x.id === first!.id)!.balance, after.find((x) => x.id === second.id)!.balance], ['800.00', '15.00']);

    await a.page.goto('/dashboard/audit_log');
    await a.page.getByTestId('audit-account').filter({ hasText: `Demo account ${demo.number}` }).first().waitFor();
    await a.page.getByTestId('audit-account').filter({ hasText: `Live account ${second.number}` }).first().waitFor();
    await screenshots(a.page, 'audit-log-accounts');
    await a.context.close();
  });

  it('two tabs on two accounts: a switch in one never moves the other, whose order goes to the account it shows', async () => {
    const trader = await fundedTrader('1000.00');
    const demo = (await postJson(trader.client, '/platform/openAccount.php', { kind: 'demo' })).body.account as { id: number; number: number };
    const [live] = await accounts(trader.client);
    const { context, page: first } = await signIn(trader);
    await first.waitForURL((u) => u.pathname === '/trading');
    await first.getByTestId('account-number').filter({ hasText: String(live!.number) }).waitFor();

    // A second tab of the same browser switches to the demo account.
    const second = await context.newPage();
    await second.goto('/trading');
    await second.getByTestId('account-switcher').click();
    await second.getByTestId(`account-option-${demo.number}`).click();
    await second.getByTestId('account-switcher').getByTestId('demo-mark').waitFor();

    // The first tab still shows, and trades on, the live account.
    await first.bringToFront();
    assert.equal(await first.getByTestId('account-switcher').getByTestId('demo-mark').count(), 0);
    const entry = new OrderEntry(first);
    await entry.openFromRow('EURUSD');
    await entry.setVolume('0.1');
    await entry.button('buy').click();
    await entry.dialog().waitFor({ state: 'hidden' });
    const onLive = await trader.client.request('GET', '/platform/getTrades.php');
    const onDemo = await trader.client.request('GET', '/platform/getTrades.php', { headers: { 'x-trading-account': String(demo.id) } });
    assert.deepEqual([onLive.body.data.length, onDemo.body.data.length], [1, 0], 'the order went to the live account the first tab shows');
    await first.waitForFunction((t) => document.querySelector(`[data-testid="position-${t}"]`), onLive.body.data[0].ticket as number);

    // A reload of the first tab opens on the browser's latest choice: the demo account.
    await first.reload();
    await first.getByTestId('account-switcher').getByTestId('demo-mark').waitFor();
    await context.close();
  });
});
