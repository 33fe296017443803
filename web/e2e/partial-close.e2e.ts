import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { PhoneTerminalPage } from './pages/phone-terminal-page';
import { PositionsPanel } from './pages/positions-panel';
import { SignInPage } from './pages/sign-in-page';
import { ADMIN_EMAIL, ADMIN_PASSWORD, ARTIFACTS, newPage, postJson, screenshots, seriousA11yViolations, type Client } from './support/harness';
import { traderFixture } from './support/trader-fixture';

/**
 * Closing part of a position (docs/design.md#partial-close) in the browser: from the positions row
 * on the desktop and from the position's sheet on a phone; the rest stays open under its ticket,
 * History lists the part with the ticket it came from, and the back office's closed records say so.
 */
describe('closing part of a position', () => {
  const { harness, eurusd, fundedTrader, signedIn, phonePage } = traderFixture({ firstName: 'Ines', lastName: 'Valdermoor' });

  async function open(client: Client, volume: number, stopLoss = 0): Promise<number> {
    const r = await postJson(client, '/platform/addTrades.php', { fullSymbol: 'EURUSD', tradestypes: 'buy', volume, stopLoss, takeProfit: 0, comment: '' });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.ticket as number;
  }

  async function openTrades(client: Client) {
    return (await client.get('/platform/getTrades.php')).body.data as { ticket: number; volume: number; stopLoss: number }[];
  }

  it('closes 0.40 of 1.00 lot from the row: the dialog previews the part, the row keeps 0.60 with its stop, History shows the part', async () => {
    const trader = await fundedTrader();
    const { context, page } = await newPage(harness());
    await signedIn(page, trader);
    const panel = new PositionsPanel(page);
    const ticket = await open(trader.client, 1, 1.09);
    await panel.position(ticket).waitFor();
    await eurusd(1.1032);
    await panel.waitForCell(ticket, 'profit', '+300.00');

    await panel.position(ticket).getByRole('button', { name: `Close part of position ${ticket}` }).click();
    const dialog = page.getByRole('dialog', { name: `Close part of #${ticket}` });
    await dialog.waitFor();
    const volume = dialog.getByRole('textbox', { name: 'Volume to close' });
    // Half is offered first; the most is what leaves the minimum open.
    assert.equal(await volume.inputValue(), '0.5');
    await volume.fill('1');
    await dialog.getByText("Volume must be less than the position's 1 lots; to close all of it, close the position.").waitFor();
    assert.equal(await dialog.getByRole('button', { name: 'Close part', exact: true }).isDisabled(), true, 'all of it is not a part');
    await volume.fill('0.4');
    // 0.4 lots from the ask of 1.10020 to the bid of 1.10320: 30 points × 0.4 × 10 USD.
    await dialog.getByTestId('close-part-summary').filter({ hasText: 'Profit of this part now +120.00 USD; 0.60 lots stay open as' }).waitFor();
    await page.mouse.move(0, 0);
    await page.waitForTimeout(300);
    assert.deepEqual(await seriousA11yViolations(page, ['[role="dialog"]']), [], 'the dialog: no serious or critical axe violation');
    await screenshots(page, 'terminal-close-part', { dark: true });
    await dialog.getByRole('button', { name: 'Close 0.40 lots' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText(new RegExp(`^Closed 0\\.4 lots of ticket #${ticket} at 1\\.1032 \\(now #\\d+ in history\\); profit 120\\.00 USD\\. 0\\.6 lots stay open\\.$`)).waitFor();
    await page.waitForFunction((t) => document.querySelector(`[data-testid="position-${t}"] td:nth-child(5)`)?.textContent === '0.60', ticket);
    await panel.waitForCell(ticket, 'profit', '+180.00');
    assert.equal(await panel.positionCell(ticket, 'sl'), '1.09000');
    await panel.waitForFooter('balance', '10,120.0000 USD');
    const [rest] = await openTrades(trader.client);
    assert.deepEqual([rest!.ticket, rest!.volume, rest!.stopLoss], [ticket, 0.6, 1.09]);

    await panel.openTab('History');
    const part = panel.historyTable().getByTestId('history-part-of');
    await part.waitFor();
    assert.equal((await part.textContent())?.trim(), `· part of #${ticket}`);
    await screenshots(page, 'terminal-close-part-history');

    // The back office lists the part among the closed records, with the ticket it came from.
    const records = await newPage(harness());
    const adminSignIn = new SignInPage(records.page);
    await adminSignIn.goto();
    await adminSignIn.signIn(ADMIN_EMAIL, ADMIN_PASSWORD);
    await records.page.waitForURL((u) => u.pathname.startsWith('/dashboard'));
    await records.page.goto('/dashboard/requests/user_closs_records');
    const closedTicket = (await trader.client.get('/dashboard/customer/getTradesHistory.php')).body.data[0].ID as number;
    await records.page.getByTestId(`closed-part-${closedTicket}`).filter({ hasText: `part of #${ticket}` }).waitFor();
    await screenshots(records.page, 'admin-closed-records-part');
    await records.context.close();
    await context.close();
  });

  it('closes part from the phone sheet with thumb-sized controls, and the sheet shows the rest', async () => {
    const trader = await fundedTrader();
    const ticket = await open(trader.client, 0.3);
    const { context, page } = await phonePage();
    await signedIn(page, trader);
    const terminal = new PhoneTerminalPage(page);
    await eurusd(1.1);
    await terminal.openTab('Trade');
    await terminal.position(ticket).tap();
    await terminal.positionSheet().waitFor();
    await terminal.sheetButton('position', 'Close Part').tap();
    const form = page.getByTestId('sheet-close-part');
    await form.waitFor();
    // Half of 0.30 on the grid of 0.01: 0.15.
    assert.equal(await form.getByRole('textbox', { name: 'Volume to close' }).inputValue(), '0.15');
    await form.getByRole('button', { name: 'Lower the volume' }).tap();
    assert.equal(await form.getByRole('textbox', { name: 'Volume to close' }).inputValue(), '0.14');
    assert.deepEqual(await terminal.smallTouchTargets(), [], 'every touch target is at least 44 px');
    await page.waitForTimeout(300);
    mkdirSync(ARTIFACTS, { recursive: true });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForTimeout(300);
      assert.deepEqual(await seriousA11yViolations(page), [], `the phone's form (${scheme}): no serious or critical axe violation`);
      await page.screenshot({ path: join(ARTIFACTS, `close-part-phone${scheme === 'dark' ? '-dark' : ''}.png`), animations: 'disabled' });
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await eurusd(1.1);
    await form.getByRole('button', { name: 'Close 0.14 lots' }).tap();
    await form.waitFor({ state: 'detached' });
    await page.getByTestId('position-sheet-details').getByText('0.16').waitFor();
    assert.deepEqual((await openTrades(trader.client)).map((t) => [t.ticket, t.volume]), [[ticket, 0.16]]);
    // The phone's History names the ticket the part came from.
    await page.getByTestId('sheet-backdrop').tap({ position: { x: 20, y: 20 } });
    await terminal.positionSheet().waitFor({ state: 'detached' });
    const closedTicket = (await trader.client.get('/dashboard/customer/getTradesHistory.php')).body.data[0].ID as number;
    await page.getByTestId('phone-trading').locator('label', { hasText: 'History' }).tap();
    await page.getByTestId(`phone-history-${closedTicket}`).filter({ hasText: `#${closedTicket} (part of #${ticket})` }).waitFor();
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(ARTIFACTS, 'close-part-history-phone.png'), animations: 'disabled' });
    await context.close();
  });
});
