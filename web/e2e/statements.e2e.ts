import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { SignInPage } from './pages/sign-in-page';
import { ADMIN_EMAIL, ADMIN_PASSWORD, newPage, postJson, screenshots, seriousA11yViolations } from './support/harness';
import { traderFixture } from './support/trader-fixture';

/**
 * Account statements (docs/design.md#statements): the trader's Account Statements page shows the
 * month's summary from the ledger and saves the PDF and the CSV; the back office saves the same file
 * from the trader's accounts.
 */
describe('account statements', () => {
  const { harness, eurusd, fundedTrader, phonePage } = traderFixture({ firstName: 'Ines', lastName: 'Okafor' });

  async function signInTo(page: Page, who: { email: string; password: string }, path: string) {
    const signIn = new SignInPage(page);
    await signIn.goto();
    await signIn.signIn(who.email, who.password);
    await page.waitForURL((u) => u.pathname !== '/login');
    await page.goto(path);
  }

  /** Clicks a download button and answers the saved file's name and bytes. */
  async function saved(page: Page, button: string): Promise<{ name: string; bytes: Buffer }> {
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button }).click()]);
    const path = await download.path();
    return { name: download.suggestedFilename(), bytes: readFileSync(path) };
  }

  it('shows this month’s summary and saves its PDF and CSV; a backwards custom range is not asked for', async () => {
    const trader = await fundedTrader();
    const opened = await postJson(trader.client, '/platform/addTrades.php', { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 0.1, stopLoss: 0, takeProfit: 0, comment: '' });
    assert.equal(opened.status, 200, JSON.stringify(opened.body));
    await eurusd(1.1012);
    assert.equal((await postJson(trader.client, '/platform/updateTrades.php', { ticket: opened.body.ticket })).status, 200);
    await postJson(trader.client, '/platform/addTrades.php', { fullSymbol: 'EURUSD', tradestypes: 'sell', volume: 0.2, stopLoss: 0, takeProfit: 0, comment: '' });
    const account = ((await trader.client.get('/platform/getAccounts.php')).body.data as { number: number }[])[0]!;

    const { context, page } = await newPage(harness());
    await signInTo(page, trader, '/dashboard/statements');
    const summary = page.getByTestId('statement-summary');
    await summary.waitFor();
    // 10,000 deposited; the Buy of 0.1 from 1.1002 closed at 1.1012: +10.00.
    assert.equal((await summary.getByTestId('statement-Opening balance').textContent())?.trim(), '0.00');
    assert.equal((await summary.getByTestId('statement-Deposits').textContent())?.trim(), '+10,000.00');
    assert.equal((await summary.getByTestId('statement-Closed trades profit').textContent())?.trim(), '+10.00');
    assert.equal((await summary.getByTestId('statement-Closing balance').textContent())?.trim(), '10,010.00');
    await summary.getByText(`Live ${account.number}`).waitFor();
    assert.deepEqual(await seriousA11yViolations(page), [], 'no serious or critical axe violation');
    await screenshots(page, 'statements', { dark: true });

    const pdf = await saved(page, 'Download PDF');
    assert.match(pdf.name, new RegExp(`^statement-${account.number}-\\d{4}-\\d{2}-01-to-\\d{4}-\\d{2}-\\d{2}\\.pdf$`));
    assert.equal(pdf.bytes.subarray(0, 5).toString('latin1'), '%PDF-');
    const csv = await saved(page, 'Download CSV');
    const lines = csv.bytes.toString('utf8').split('\r\n');
    assert.ok(lines.includes('Summary,Closing balance,10010.00'), lines.join('\n'));
    assert.equal(lines.filter((l) => l.startsWith('Closed trades,')).length, 2, 'the header and the one closed trade');

    // A custom range that ends before it starts is not asked for: the field says why.
    await page.getByTestId('statement-period').click();
    await page.getByRole('option', { name: 'Custom range' }).click();
    const day = (back: number) => new Date(Date.now() - back * 86_400_000).toISOString().slice(0, 10);
    for (const [name, value] of [['First day', day(0)], ['Last day', day(20)]] as const) {
      const field = page.getByRole('textbox', { name });
      await field.fill(value);
      await field.blur();
    }
    await page.getByText('The first day must be on or before the last.').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Download PDF' }).isDisabled(), true);
    await context.close();
  });

  it('fits a phone, with thumb-sized controls', async () => {
    const trader = await fundedTrader();
    const { context, page } = await phonePage();
    await signInTo(page, trader, '/dashboard/statements');
    await page.getByTestId('statement-summary').waitFor();
    const small = await page.evaluate(() =>
      [...document.querySelectorAll('main button, main input')]
        .map((e) => e.getBoundingClientRect())
        .filter((r) => r.width > 0 && r.height < 40)
        .length,
    );
    assert.equal(small, 0, 'every button and field is at least 40 px tall');
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scroll');
    await context.close();
  });

  it('the back office saves a trader’s statement from the trader’s accounts', async () => {
    const trader = await fundedTrader();
    const account = ((await trader.client.get('/platform/getAccounts.php')).body.data as { number: number }[])[0]!;
    const { context, page } = await newPage(harness());
    await signInTo(page, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD }, `/dashboard/users/${trader.id}?tab=accounts`);
    await page.getByRole('button', { name: `Statement of account ${account.number}` }).click();
    const dialog = page.getByRole('dialog', { name: `Statement of live account ${account.number}` });
    await dialog.waitFor();
    assert.deepEqual(await seriousA11yViolations(page, ['[role="dialog"]']), []);
    await screenshots(page, 'statements-back-office');
    const csv = await saved(page, 'Download CSV');
    assert.match(csv.name, new RegExp(`^statement-${account.number}-`));
    assert.ok(csv.bytes.toString('utf8').includes('Summary,Deposits,10000.00'));
    await context.close();
  });
});
