import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { SignInPage } from './pages/sign-in-page';
import { ADMIN_EMAIL, ADMIN_PASSWORD, addPaymentAccount, adminClient, approvedDeposit, ARTIFACTS, createTrader, DESKTOP, MOBILE, newPage, postJson, pushTicks, screenshots, seriousA11yViolations, settled, startHarness, type Client, type Harness } from './support/harness';

/**
 * The back office's Symbols page: the instrument catalogue listed by group and searched; EURUSD's
 * markup, swaps and session window changed in its editor (after the editor's own checks), shown in
 * the table and in a trader's terminal at once; a session window the server cannot read refused
 * with its message and nothing changed; and an instrument a trader holds a position in, whose
 * digits, contract size and group stay and which cannot be disabled.
 */
describe('the Symbols page', () => {
  let h: Harness;
  let admin: Client;
  let trader: Awaited<ReturnType<typeof createTrader>>;

  type Row = { symbol: string; holidays: unknown; spreadMarkup: number; marginRate: number; swapLong: number; swapShort: number; sessions: string[]; digits: number; openPositions: number; tradingMode: string; updatedAt: number };
  const catalogue = async () => (await admin.request('GET', '/dashboard/admin/getCatalogue.php')).body.data as Row[];
  const instrument = async (symbol: string) => (await catalogue()).find((r) => r.symbol === symbol)!;
  const cell = (row: Locator, id: string) => row.getByTestId(id).textContent();

  before(async () => {
    h = await startHarness();
    admin = await adminClient(h);
    const gateway = await addPaymentAccount(admin);
    trader = await createTrader(h, { firstName: 'Noor', lastName: 'Haddad' });
    await approvedDeposit(trader.client, admin, gateway, '2000.00');
    // A position in GBPUSD: its digits, contract size and group must stay while it is open.
    await pushTicks(h, [
      { symbol: 'EURUSD', bid: 1.1, ask: 1.1002 },
      { symbol: 'GBPUSD', bid: 1.27, ask: 1.2702 },
    ]);
    const opened = await postJson(trader.client, '/platform/addTrades.php', { fullSymbol: 'GBPUSD', tradestypes: 'buy', volume: 0.1, stopLoss: 0, takeProfit: 0, comment: '' });
    assert.equal(opened.status, 200, JSON.stringify(opened.body));
  });
  after(async () => h?.close());

  async function signedInAdmin(): Promise<Page> {
    const { page } = await newPage(h);
    const signIn = new SignInPage(page);
    await signIn.goto();
    await signIn.signIn(ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.waitForURL((u) => u.pathname !== '/');
    // The sign-in toast gone first, so it covers nothing in the screenshots.
    await page.mouse.move(0, 0);
    await page.waitForFunction(() => !document.querySelector('.mantine-Notification-root'), undefined, { timeout: 15_000 });
    await page.getByRole('link', { name: 'Symbols' }).first().click();
    await page.waitForURL((u) => u.pathname === '/dashboard/symbols');
    await page.getByTestId('symbol-row-EURUSD').waitFor();
    return page;
  }

  it('lists every instrument by group, finds one by a search, and says when none matches', async () => {
    const page = await signedInAdmin();
    const eurusd = page.getByTestId('symbol-row-EURUSD');
    assert.equal(await page.getByRole('table', { name: 'Instruments' }).locator('tbody tr').count(), (await catalogue()).length);
    assert.equal(await cell(eurusd, 'volumes'), '0.01 / 0.01 / 100');
    assert.equal(await cell(eurusd, 'swap-long'), '-7.20');
    assert.equal(await cell(eurusd, 'swap-short'), '+2.10');
    assert.equal(await cell(eurusd, 'trading-mode'), 'Full');
    assert.equal(await cell(page.getByTestId('symbol-row-GBPUSD'), 'held'), '1 / 0');
    assert.deepEqual(await seriousA11yViolations(page), []);
    await screenshots(page, 'symbols', { dark: true });

    // The Metals group only.
    await page.getByTestId('group-filter').getByText(/^Metals/).click();
    await page.getByTestId('symbol-row-EURUSD').waitFor({ state: 'detached' });
    assert.deepEqual(await page.locator('[data-testid^="symbol-row-"]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-testid'))), ['symbol-row-XAUUSD', 'symbol-row-XAGUSD', 'symbol-row-XPTUSD']);
    // A search within it: the description matches too.
    await page.getByLabel('Search instruments').fill('gold');
    await page.getByTestId('symbol-row-XAGUSD').waitFor({ state: 'detached' });
    assert.equal(await page.locator('[data-testid^="symbol-row-"]').count(), 1);
    await page.getByText('1 of 35 instruments').waitFor();
    // Nothing matches: the page says so, and Clear filters brings every instrument back.
    await page.getByLabel('Search instruments').fill('zzz');
    await page.getByText('No instrument matches “zzz” in Metals.').waitFor();
    assert.deepEqual(await seriousA11yViolations(page), []);
    await screenshots(page, 'symbols-no-match');
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByTestId('symbol-row-EURUSD').waitFor();
    assert.equal(await page.getByLabel('Search instruments').inputValue(), '');
    await page.context().close();
  });

  it('says when the catalogue cannot be read, and reads it again on Try again', async () => {
    const page = await signedInAdmin();
    await page.route('**/getCatalogue.php', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ status: 'failure', message: 'The server could not read the catalogue. Please try again.' }) }));
    await page.reload();
    const failed = page.getByRole('alert').filter({ hasText: 'Could not load the instruments' });
    await failed.waitFor({ timeout: 20_000 });
    assert.match((await failed.textContent()) ?? '', /could not read the catalogue/);
    await screenshots(page, 'symbols-error');
    await page.unroute('**/getCatalogue.php');
    await failed.getByRole('button', { name: 'Try again' }).click();
    await page.getByTestId('symbol-row-EURUSD').waitFor();
    await page.context().close();
  });

  it('edits EURUSD’s markup, swaps and sessions, and the table and a trader’s prices follow', async () => {
    const page = await signedInAdmin();
    await page.getByLabel('Search instruments').fill('eurusd');
    const row = page.getByTestId('symbol-row-EURUSD');
    await page.getByTestId('symbol-row-EURGBP').waitFor({ state: 'detached' });
    await row.getByRole('button', { name: 'Edit EURUSD' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit EURUSD' });
    await dialog.waitFor();
    // What the catalogue file fixes is shown, not edited.
    assert.match((await dialog.getByTestId('instrument-fixed').textContent()) ?? '', /SymbolEURUSD.*CurrenciesEUR \/ USD.*CalculationForex/);
    assert.equal(await dialog.getByLabel('Digits').isDisabled(), false, 'nothing held in EURUSD: its digits may change');
    assert.equal(await dialog.getByLabel('Sessions').inputValue(), 'America/New_York Sun 17:00-Fri 17:00');
    await dialog.getByText('Sunday 17:00 to Friday 17:00, New York time').waitFor();

    // The editor's own checks, next to their fields.
    await dialog.getByLabel('Spread markup (points)').fill('200000');
    await dialog.getByLabel('Minimum').fill('200');
    // Its group's holiday calendar, with the time zone taken out and a day that does not exist.
    assert.equal(await dialog.getByLabel('Holiday calendar').isChecked(), true);
    assert.equal(await dialog.getByLabel('Time zone').inputValue(), 'America/New_York');
    await dialog.getByLabel('Time zone').fill('');
    await dialog.getByLabel('Closed dates').fill('2026-12-25\n2026-02-30');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await dialog.getByText('A whole number of points from 0 to 100,000.').waitFor();
    await dialog.getByText('Must not exceed the maximum.').waitFor();
    await dialog.getByText('Please give the time zone of the holiday dates.').waitFor();
    await dialog.getByText('Line 2: "2026-02-30" is not a date: dates are written YYYY-MM-DD.').waitFor();
    assert.deepEqual(await seriousA11yViolations(page, ['[role="dialog"]']), []);
    await screenshots(page, 'symbol-editor-checks');
    // Without a calendar the editor says so; switched back on, what was typed is still there.
    await dialog.getByLabel('Holiday calendar').uncheck();
    await dialog.getByText('No holiday calendar: the sessions alone decide when it trades.').waitFor();
    await dialog.getByLabel('Holiday calendar').check();
    await dialog.getByLabel('Time zone').fill('America/New_York');
    await dialog.getByLabel('Closed dates').fill('2026-12-25\n2027-01-01');
    await dialog.getByLabel('Early closes').fill('2026-12-24 13:00');
    await dialog.getByLabel('Minimum').fill('0.01');
    await dialog.getByLabel('Spread markup (points)').fill('20');
    await dialog.getByLabel('Swap long (points)').fill('-6.5');
    await dialog.getByLabel('Swap short (points)').fill('1.25');
    await dialog.getByLabel('Margin rate').fill('1.5');

    // A session window the server cannot read: its message shows in the editor, and nothing changes.
    await dialog.getByLabel('Sessions').fill('Mon 25:00-26:00');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    const refusal = dialog.getByRole('alert').filter({ hasText: 'Not saved' });
    await refusal.waitFor();
    assert.match((await refusal.textContent()) ?? '', /Mon 25:00-26:00/);
    const before = await instrument('EURUSD');
    assert.deepEqual([before.spreadMarkup, before.swapLong, before.swapShort, before.sessions], [0, -7.2, 2.1, ['America/New_York Sun 17:00-Fri 17:00']]);
    assert.equal(await dialog.isVisible(), true, 'the editor stays open with what was typed');
    assert.equal(await dialog.getByLabel('Spread markup (points)').inputValue(), '20');
    await refusal.scrollIntoViewIfNeeded();
    await screenshots(page, 'symbol-editor-refused', { dark: true });
    // On a phone the message sits just above Save, where the thumb that pressed it is.
    await page.setViewportSize(MOBILE);
    await refusal.scrollIntoViewIfNeeded();
    await settled(page);
    await page.screenshot({ path: join(ARTIFACTS, 'symbol-editor-refused-mobile-alert.png'), animations: 'disabled' });
    await page.setViewportSize(DESKTOP);

    // A window it can read, with a second line: saved, toasted, and the table shows the new values.
    await dialog.getByLabel('Sessions').fill('America/New_York Sun 17:00-Fri 16:00\nAmerica/New_York Fri 16:15-Fri 17:00');
    await dialog.getByText('Friday 16:15 to Friday 17:00, New York time').waitFor();
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('EURUSD saved.').first().waitFor();
    assert.equal(await cell(row, 'markup'), '20');
    assert.equal(await cell(row, 'swap-long'), '-6.50');
    assert.equal(await cell(row, 'swap-short'), '+1.25');
    const saved = await instrument('EURUSD');
    assert.deepEqual([saved.spreadMarkup, saved.marginRate, saved.swapLong, saved.swapShort, saved.sessions], [20, 1.5, -6.5, 1.25, ['America/New_York Sun 17:00-Fri 16:00', 'America/New_York Fri 16:15-Fri 17:00']]);
    assert.deepEqual(saved.holidays, { zone: 'America/New_York', closed: ['2026-12-25', '2027-01-01'], earlyCloses: [{ date: '2026-12-24', close: '13:00' }] });
    await screenshots(page, 'symbols-saved');

    // The editor opens on what was saved.
    await row.getByRole('button', { name: 'Edit EURUSD' }).click();
    await dialog.waitFor();
    assert.equal(await dialog.getByLabel('Spread markup (points)').inputValue(), '20');
    assert.equal(await dialog.getByLabel('Sessions').inputValue(), 'America/New_York Sun 17:00-Fri 16:00\nAmerica/New_York Fri 16:15-Fri 17:00');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });

    // The trader's terminal prices EURUSD with the new markup: 10 points below the bid, 10 above the ask.
    await pushTicks(h, [{ symbol: 'EURUSD', bid: 1.1, ask: 1.1002 }]);
    const terminal = await newPage(h);
    const signIn = new SignInPage(terminal.page);
    await signIn.goto();
    await signIn.signIn(trader.email, trader.password);
    await terminal.page.waitForURL((u) => u.pathname === '/trading');
    await terminal.page.waitForFunction(() => document.querySelector('[data-testid="price-row-EURUSD"] [data-testid="bid"]')?.textContent === '1.09990');
    assert.equal(await terminal.page.locator('[data-testid="price-row-EURUSD"] [data-testid="ask"]').textContent(), '1.10030');
    await terminal.context.close();
    await page.context().close();
  });

  it('keeps the digits, contract size and group of an instrument with an open position, and does not offer to disable it', async () => {
    const page = await signedInAdmin();
    const row = page.getByTestId('symbol-row-GBPUSD');
    await row.getByRole('button', { name: 'Edit GBPUSD' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit GBPUSD' });
    await dialog.waitFor();
    for (const label of ['Digits', 'Contract size', 'Group']) assert.equal(await dialog.getByLabel(label, { exact: true }).isDisabled(), true, `${label} stays while a position is open`);
    assert.match((await dialog.getByTestId('instrument-held').textContent()) ?? '', /GBPUSD has 1 open position: its group, digits and contract size stay/);
    assert.equal(await dialog.getByRole('radio', { name: 'Disabled' }).isDisabled(), true);
    assert.deepEqual(await seriousA11yViolations(page, ['[role="dialog"]']), []);
    await screenshots(page, 'symbol-editor-held');

    // Close-only is offered: saved, and the badge says so.
    await dialog.getByText('Close-only', { exact: true }).click();
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await dialog.waitFor({ state: 'detached' });
    await row.getByTestId('trading-mode').filter({ hasText: 'Close-only' }).waitFor();
    await page.mouse.move(0, 0);
    await page.waitForFunction(() => !document.querySelector('.mantine-Notification-root'), undefined, { timeout: 15_000 });
    await screenshots(page, 'symbols-close-only', { dark: true });
    const gbp = await instrument('GBPUSD');
    assert.deepEqual([gbp.tradingMode, gbp.digits, gbp.openPositions], ['close-only', 5, 1]);

    // The server refuses to disable it too (as a second administrator's stale page would ask).
    const refused = await postJson(admin, '/dashboard/admin/saveInstrument.php', { ...editable(gbp as unknown as Record<string, unknown>), tradingMode: 'disabled' });
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    assert.equal((refused.body as { message?: string }).message, 'GBPUSD has 1 open position: it cannot be disabled until they are closed. Make it close-only meanwhile.');
    assert.equal((await instrument('GBPUSD')).tradingMode, 'close-only');
    await page.context().close();
  });
});

/** The editable values of a catalogue row, as saveInstrument takes them. */
function editable(row: Record<string, unknown>) {
  const keys = ['symbol', 'description', 'group', 'digits', 'contractSize', 'volumeMin', 'volumeStep', 'volumeMax', 'sessions', 'holidays', 'spreadMarkup', 'marginRate', 'swapLong', 'swapShort', 'tradingMode'];
  return Object.fromEntries(keys.map((k) => [k, row[k]]));
}
