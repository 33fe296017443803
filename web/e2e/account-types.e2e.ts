import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SignInPage } from './pages/sign-in-page';
import { ADMIN_EMAIL, ADMIN_PASSWORD, addPaymentAccount, adminClient, approvedDeposit, createTrader, newPage, postJson, pushTicks, screenshots, seriousA11yViolations, startHarness, type Client, type Harness } from './support/harness';

/**
 * Account types in the back office: the types page (the defaults showing the installation's
 * values), a new type made in its editor (with a commission, one instrument's own, and the
 * instruments it offers), and a trader's account moved to it from the trader page.
 */
describe('account types in the browser', () => {
  let h: Harness;
  let admin: Client;
  let gateway = 0;

  before(async () => {
    h = await startHarness();
    admin = await adminClient(h);
    gateway = await addPaymentAccount(admin);
  });
  after(async () => h?.close());

  it('lists the types, creates one in its editor, and moves a trader’s account to it', async () => {
    const trader = await createTrader(h, { firstName: 'Ines', lastName: 'Moreau' });
    await approvedDeposit(trader.client, admin, gateway, '300.00');
    const { context, page } = await newPage(h);
    const signIn = new SignInPage(page);
    await signIn.goto();
    await signIn.signIn(ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.waitForURL((u) => u.pathname !== '/');

    await page.goto('/dashboard/account_types');
    const standard = page.getByTestId('account-type-Standard');
    await standard.waitFor();
    assert.match((await standard.textContent()) ?? '', /Default.*1:100 \(inherited\)/);
    assert.deepEqual(await seriousA11yViolations(page), []);
    await screenshots(page, 'account-types', { dark: true });

    // The editor checks the levels before sending: a stop-out must stay below the margin call.
    await page.getByRole('button', { name: 'New type' }).click();
    const dialog = page.getByRole('dialog', { name: 'New account type' });
    await dialog.waitFor();
    await dialog.getByLabel('Name').fill('ECN Pro');
    await dialog.getByLabel('Leverage (1:N)').fill('200');
    await dialog.getByLabel('Margin call (%)').fill('120');
    await dialog.getByLabel('Stop-out (%)').fill('130');
    await dialog.getByRole('button', { name: 'Create type' }).click();
    await dialog.getByText('Must be below the margin-call level (120%).').waitFor();
    await dialog.getByLabel('Stop-out (%)').fill('60');
    // Metals at most at 1:20, whatever the account's leverage.
    await dialog.getByLabel('Metals (1:N)').fill('20');
    // A commission per lot: its amount is asked for once a basis is chosen.
    assert.equal(await dialog.getByLabel('Commission (USD)').isDisabled(), true, 'no basis, no amount');
    await dialog.getByLabel('Commission', { exact: true }).click();
    await page.getByRole('option', { name: 'Per lot' }).click();
    await dialog.getByRole('button', { name: 'Create type' }).click();
    await dialog.getByText('An amount from 0.01 to 1000 USD, at most 2 decimals.').waitFor();
    await dialog.getByLabel('Commission (USD)').fill('3.5');
    // Gold charged its own commission: an instrument must be chosen first.
    await dialog.getByRole('button', { name: 'Add instrument' }).click();
    await dialog.getByRole('button', { name: 'Create type' }).click();
    await dialog.getByText('Choose an instrument.').waitFor();
    await dialog.getByLabel('Instrument 1', { exact: true }).click();
    await page.getByRole('option', { name: 'XAUUSD', exact: true }).click();
    await dialog.getByLabel('Commission of XAUUSD (USD)').fill('10');
    // Gold's swaps of its own: both sides must be given.
    await dialog.getByRole('button', { name: 'Add swaps' }).click();
    await dialog.getByLabel('Instrument with swaps 1', { exact: true }).click();
    await page.getByRole('option', { name: 'XAUUSD', exact: true }).click();
    await dialog.getByLabel('Buy swap of XAUUSD (points)').fill('-10');
    await dialog.getByRole('button', { name: 'Create type' }).click();
    await dialog.getByText('Enter points (0 for none).').waitFor();
    await dialog.getByLabel('Sell swap of XAUUSD (points)').fill('5');
    // EURUSD at a spread markup of its own: 20 points, whole.
    await dialog.getByRole('button', { name: 'Add markup' }).click();
    await dialog.getByLabel('Instrument with a markup 1', { exact: true }).click();
    await page.getByRole('option', { name: 'EURUSD', exact: true }).click();
    await dialog.getByRole('button', { name: 'Create type' }).click();
    await dialog.getByText('A whole number of points from 0 to 100,000.').waitFor();
    await dialog.getByLabel('Spread markup of EURUSD (points)').fill('20');
    // It offers two instruments only: at least one must be chosen.
    await dialog.getByText('Only these', { exact: true }).click();
    await dialog.getByRole('button', { name: 'Create type' }).click();
    await dialog.getByText('Choose at least one instrument, or offer every one.').waitFor();
    await dialog.getByLabel('Instruments offered').click();
    await page.getByRole('option', { name: 'EURUSD', exact: true }).click();
    await page.getByRole('option', { name: 'XAUUSD', exact: true }).click();
    await dialog.getByLabel('Name').click();
    assert.deepEqual(await seriousA11yViolations(page, ['[role="dialog"]']), []);
    await screenshots(page, 'account-type-editor');
    await dialog.getByTestId('symbol-markup-0').scrollIntoViewIfNeeded();
    await screenshots(page, 'account-type-editor-markup');
    await dialog.getByRole('button', { name: 'Create type' }).click();
    await dialog.waitFor({ state: 'detached' });
    const ecn = page.getByTestId('account-type-ECN Pro');
    await ecn.waitFor();
    assert.match((await ecn.textContent()) ?? '', /1:200.*max Metals 1:20.*120%.*60%.*3\.50 \/ lot.*1 instrument of their own.*EURUSD, XAUUSD.*own swaps: XAUUSD.*own markup: EURUSD/);
    await screenshots(page, 'account-types-filled');

    // The trader's page moves the account to it.
    const [account] = (await trader.client.request('GET', '/platform/getAccounts.php')).body.data as { id: number; number: number }[];
    await page.goto(`/dashboard/users/${trader.id}?tab=accounts`);
    const row = page.getByTestId(`trader-account-${account!.number}`);
    await row.waitFor();
    await row.getByLabel(`Type of account ${account!.number}`).click();
    await page.getByRole('option', { name: 'ECN Pro' }).click();
    await page.getByText(/is of type "ECN Pro" now \(leverage 1:200\)/).first().waitFor();
    await row.getByText('1:200').waitFor();
    const after = (await trader.client.request('GET', '/platform/getAccounts.php')).body.data[0] as { type: string; leverage: number; symbolSwaps: unknown; symbolMarkups: unknown };
    assert.deepEqual([after.type, after.leverage, after.symbolSwaps, after.symbolMarkups], ['ECN Pro', 200, [{ symbol: 'XAUUSD', swapLong: -10, swapShort: 5 }], [{ symbol: 'EURUSD', points: 20 }]]);
    await pushTicks(h, [{ symbol: 'EURUSD', bid: 1.1, ask: 1.1002 }]);
    // The trader's terminal shows the type's prices (10 points below the bid, 10 above the ask).
    const traderPage = await newPage(h);
    const traderSignIn = new SignInPage(traderPage.page);
    await traderSignIn.goto();
    await traderSignIn.signIn(trader.email, trader.password);
    await traderPage.page.waitForURL((u) => u.pathname === '/trading');
    await traderPage.page.waitForFunction(() => document.querySelector('[data-testid="price-row-EURUSD"] [data-testid="bid"]')?.textContent === '1.09990');
    assert.equal(await traderPage.page.locator('[data-testid="price-row-EURUSD"] [data-testid="ask"]').textContent(), '1.10030');
    await pushTicks(h, [{ symbol: 'EURUSD', bid: 1.101, ask: 1.1012 }]);
    await traderPage.page.waitForFunction(() => document.querySelector('[data-testid="price-row-EURUSD"] [data-testid="ask"]')?.textContent === '1.10130');
    await screenshots(traderPage.page, 'terminal-type-prices');
    await traderPage.context.close();
    await pushTicks(h, [{ symbol: 'EURUSD', bid: 1.1, ask: 1.1002 }]);
    const opened = await postJson(trader.client, '/platform/addTrades.php', { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 0.1, stopLoss: 0, takeProfit: 0, comment: '' });
    assert.equal(opened.status, 200, JSON.stringify(opened.body));
    assert.match(opened.body.message as string, /at 1\.1003:/);
    await pushTicks(h, [{ symbol: 'XAUUSD', bid: 2000, ask: 2000.5 }]);
    const gold = await postJson(trader.client, '/platform/addTrades.php', { fullSymbol: 'XAUUSD', tradestypes: 'buy', volume: 0.01, stopLoss: 0, takeProfit: 0, comment: '' });
    assert.equal(gold.status, 200, JSON.stringify(gold.body));
    const held = (await trader.client.request('GET', '/platform/getTrades.php')).body.data as { symbol: string; commission: string }[];
    // EURUSD at the type's 3.50 per lot; gold at its own 10.00.
    assert.deepEqual(held.map((p) => [p.symbol, p.commission]), [['EURUSD', '-0.35'], ['XAUUSD', '-0.10']]);
    // EURUSD at the type's 1:200 (10,000 EUR / 200 × 1.1 = 55.00); gold at the Metals limit of 1:20 (1 oz × 2,000.5 / 20 = 100.025).
    const figures = (await trader.client.request('GET', '/platform/getMargins.php')).body as { totalMargin: string };
    assert.equal(figures.totalMargin, '155.03');
    assert.deepEqual(await seriousA11yViolations(page), []);
    await screenshots(page, 'trader-account-type');

    await page.goto('/dashboard/audit_log');
    await page.getByText('Moved account to another type').first().waitFor();
    await page.getByText('Created account type').first().waitFor();
    await context.close();
  });

  it('shows the broker’s exposure: net lots and USD per instrument, the largest gains and losses, and margin levels', async () => {
    const long = await createTrader(h, { firstName: 'Amara', lastName: 'Long' });
    const short = await createTrader(h, { firstName: 'Bruno', lastName: 'Short' });
    await approvedDeposit(long.client, admin, gateway, '5000.00');
    await approvedDeposit(short.client, admin, gateway, '5000.00');
    await pushTicks(h, [{ symbol: 'EURUSD', bid: 1.1, ask: 1.1002 }]);
    for (const [client, side, volume] of [[long.client, 'buy', 0.5], [short.client, 'sell', 0.2]] as const) {
      const r = await postJson(client, '/platform/addTrades.php', { fullSymbol: 'EURUSD', tradestypes: side, volume, stopLoss: 0, takeProfit: 0, comment: '' });
      assert.equal(r.status, 200, JSON.stringify(r.body));
    }
    await pushTicks(h, [{ symbol: 'EURUSD', bid: 1.105, ask: 1.1052 }]);

    const { context, page } = await newPage(h);
    const signIn = new SignInPage(page);
    await signIn.goto();
    await signIn.signIn(ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.waitForURL((u) => u.pathname !== '/');
    await page.getByRole('link', { name: 'Exposure' }).first().click();
    await page.waitForURL((u) => u.pathname === '/dashboard/exposure');
    const euro = page.getByTestId('exposure-EURUSD');
    await euro.waitFor();
    // The earlier test's trader holds 0.1 lot too: 0.6 long, 0.2 short.
    assert.equal(await euro.getByTestId('net-lots').textContent(), '+0.40');
    // Amara: 0.5 lot from 1.1002 to 1.105 is +240.00; Bruno: 0.2 from 1.1 to 1.1052 is −104.00.
    await page.getByTestId('largest-profit').getByText('Amara Long').waitFor();
    assert.match((await page.getByTestId('largest-profit').textContent()) ?? '', /Amara Long.*\+240\.00/);
    assert.match((await page.getByTestId('largest-loss').textContent()) ?? '', /Bruno Short.*-104\.00/);
    assert.equal(await page.getByTestId('band-healthy').getByTestId('band-count').textContent(), '3');
    assert.deepEqual(await seriousA11yViolations(page), []);
    await screenshots(page, 'exposure', { dark: true });

    // Demo accounts are apart: none hold anything here.
    await page.getByTestId('account-kind').getByText('Demo').click();
    await page.getByText('No open positions in demo accounts.').waitFor();
    await context.close();
  });

  it('reports what the broker earned per day and account type, as the ledger has it, and exports it', async () => {
    const { context, page } = await newPage(h);
    const signIn = new SignInPage(page);
    await signIn.goto();
    await signIn.signIn(ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.waitForURL((u) => u.pathname !== '/');
    await page.getByRole('link', { name: 'Reports' }).first().click();
    await page.waitForURL((u) => u.pathname === '/dashboard/reports');
    const today = new Date().toISOString().slice(0, 10);
    // The earlier tests' deposits (300.00 + 5,000.00 + 5,000.00) went in on Standard; ECN Pro charged 0.35 + 0.10 of commission.
    const standard = page.getByTestId(`report-${today}-Standard`);
    await standard.waitFor();
    assert.match((await standard.textContent()) ?? '', /10,300\.00/);
    assert.match((await page.getByTestId(`report-${today}-ECN Pro`).textContent()) ?? '', /0\.45/);
    const ledger = (await admin.request('GET', `/dashboard/admin/getBrokerReport.php?from=${today}&to=${today}`)).body as { totals: { deposits: string; commissions: string; markup: string } };
    // ECN Pro's EURUSD markup of 20 points: the 0.1 lot Buy opened at its upper 10 points (1.00 USD).
    assert.deepEqual([ledger.totals.deposits, ledger.totals.commissions, ledger.totals.markup], ['10300.00', '0.45', '1.00']);
    assert.match((await page.getByTestId(`report-${today}-ECN Pro`).textContent()) ?? '', /1\.00/);
    assert.deepEqual(await seriousA11yViolations(page), []);
    await screenshots(page, 'reports', { dark: true });
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    assert.match((await download).suggestedFilename(), /^tradeport-broker-report-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
    await context.close();
  });
});
