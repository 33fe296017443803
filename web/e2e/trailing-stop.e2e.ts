import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { PhoneTerminalPage } from './pages/phone-terminal-page';
import { PositionsPanel } from './pages/positions-panel';
import { OrderEntry } from './pages/terminal-page';
import { ARTIFACTS, newPage, postJson, screenshots, seriousA11yViolations, type Client } from './support/harness';
import { traderFixture } from './support/trader-fixture';

/**
 * Trailing stops (docs/design.md#trailing-stops) in the browser: set from the order dialog and from
 * Modify on the desktop, from the position's sheet on a phone; the positions row marks the stop
 * "TS" and follows it as the server moves it, and the stop loss it trails to closes the position.
 */
describe('trailing stops in the terminal', () => {
  const { harness, eurusd, fundedTrader, signedIn, phonePage } = traderFixture({ firstName: 'Tomas', lastName: 'Reyvald' });

  async function openTrades(client: Client) {
    return (await client.get('/platform/getTrades.php')).body.data as { ticket: number; stopLoss: number; trailingStop: { distance: number; activation: number; step: number } | null }[];
  }

  async function look(page: Page, name: string, scope?: string[]) {
    await page.mouse.move(0, 0);
    await page.waitForTimeout(300);
    assert.deepEqual(await seriousA11yViolations(page, scope), [], `${name}: no serious or critical axe violation`);
    await screenshots(page, name, { dark: true });
  }

  it('buys with a trailing stop from the dialog; the row marks it and follows the server; Modify changes its step; the trailed stop closes it', async () => {
    const trader = await fundedTrader();
    const { context, page } = await newPage(harness());
    await signedIn(page, trader);
    await eurusd(1.1);
    const entry = new OrderEntry(page);
    await entry.openFromRow('EURUSD');
    const dialog = entry.dialog();
    await dialog.getByRole('checkbox', { name: 'Trailing stop' }).check();
    const distance = dialog.getByRole('textbox', { name: 'Distance' });
    await distance.fill('0');
    await dialog.getByTestId('dialog-trailing-error').filter({ hasText: 'The trailing distance must be a whole number of points from 1' }).waitFor();
    await distance.fill('100');
    // A Buy is valued at the bid: 100 points under 1.10000.
    await dialog.getByTestId('dialog-trailing-outlook').filter({ hasText: "At today's price the stop loss goes to 1.09900." }).waitFor();
    await look(page, 'terminal-order-dialog-trailing', ['[role="dialog"]']);
    await eurusd(1.1);
    await entry.button('buy').click();
    await dialog.waitFor({ state: 'hidden' });

    const [opened] = await openTrades(trader.client);
    assert.deepEqual([opened?.stopLoss, opened?.trailingStop], [1.099, { distance: 100, activation: 0, step: 1 }]);
    const ticket = opened!.ticket;
    const panel = new PositionsPanel(page);
    await panel.waitForCell(ticket, 'sl', 'TS1.09900');
    // The server moves the stop as the bid rises; the row follows without a reload.
    await eurusd(1.103);
    await panel.waitForCell(ticket, 'sl', 'TS1.10200');
    await panel.position(ticket).getByTestId('ts').hover();
    await page.getByRole('tooltip', { name: 'Trailing stop: 100 pts behind the price, in steps of 1 pts' }).waitFor();
    await screenshots(page, 'terminal-positions-trailing');

    await panel.position(ticket).getByRole('button', { name: `Modify position ${ticket}` }).click();
    const modify = page.getByRole('dialog', { name: new RegExp(`^Modify #${ticket}`) });
    await modify.waitFor();
    assert.equal(await modify.getByRole('checkbox', { name: 'Trailing stop' }).isChecked(), true);
    assert.equal(await modify.getByRole('textbox', { name: 'Distance' }).inputValue(), '100 pts');
    await modify.getByRole('textbox', { name: 'Step' }).fill('50');
    await modify.getByTestId('modify-trailing-outlook').filter({ hasText: 'The stop loss next moves when the bid reaches 1.10350.' }).waitFor();
    await look(page, 'terminal-modify-trailing', ['[role="dialog"]']);
    await modify.getByRole('button', { name: 'Save' }).click();
    await modify.waitFor({ state: 'hidden' });
    const [changed] = await openTrades(trader.client);
    assert.deepEqual([changed?.stopLoss, changed?.trailingStop], [1.102, { distance: 100, activation: 0, step: 50 }]);
    // 49 points up is under the step of 50: the stop stays; then the bid falls through it.
    await eurusd(1.10349);
    await page.waitForTimeout(300);
    assert.equal(await panel.positionCell(ticket, 'sl'), 'TS1.10200');
    await eurusd(1.1019);
    await page.getByText(`Position #${ticket} closed by stop loss`).waitFor();
    await panel.position(ticket).waitFor({ state: 'detached' });
    await context.close();
  });

  it('places a Buy Limit with a trailing stop; its row marks it, Modify changes it, and the position it opens trails', async () => {
    const trader = await fundedTrader();
    const { context, page } = await newPage(harness());
    await signedIn(page, trader);
    await eurusd(1.1);
    const entry = new OrderEntry(page);
    await entry.openFromRow('EURUSD');
    await entry.chooseType('Buy Limit');
    await entry.price().fill('1.09950');
    const dialog = entry.dialog();
    await dialog.getByRole('checkbox', { name: 'Trailing stop' }).check();
    await dialog.getByRole('textbox', { name: 'Distance' }).fill('150');
    await dialog.getByTestId('dialog-trailing-outlook').filter({ hasText: 'Once the order fills, the stop loss follows the bid, 150 points behind.' }).waitFor();
    await look(page, 'terminal-order-pending-trailing', ['[role="dialog"]']);
    await entry.button('buy').click();
    await dialog.waitFor({ state: 'hidden' });
    const [order] = (await trader.client.get('/platform/getPendingOrders.php')).body.data as { orderId: number; trailingStop: unknown }[];
    assert.deepEqual(order?.trailingStop, { distance: 150, activation: 0, step: 1 });

    const panel = new PositionsPanel(page);
    await panel.openTab('Pending Orders');
    await panel.order(order!.orderId).getByTestId('ts').waitFor();
    await panel.order(order!.orderId).getByRole('button', { name: `Modify order ${order!.orderId}` }).click();
    const modify = page.getByRole('dialog', { name: new RegExp(`^Modify order #${order!.orderId}`) });
    await modify.waitFor();
    assert.equal(await modify.getByRole('textbox', { name: 'Distance' }).inputValue(), '150 pts');
    await modify.getByRole('textbox', { name: 'Activation' }).fill('20');
    await modify.getByTestId('modify-order-trailing-outlook').filter({ hasText: 'Once the order fills and is 20 points in profit, the stop loss follows the bid, 150 points behind.' }).waitFor();
    await look(page, 'terminal-modify-order-trailing', ['[role="dialog"]']);
    await modify.getByRole('button', { name: 'Save' }).click();
    await modify.waitFor({ state: 'hidden' });
    const [changed] = (await trader.client.get('/platform/getPendingOrders.php')).body.data as { trailingStop: unknown }[];
    assert.deepEqual(changed?.trailingStop, { distance: 150, activation: 20, step: 1 });

    // Filled at the ask 1.0995; 20 points of profit later (bid 1.0997) the stop starts 150 points behind the bid.
    await eurusd(1.0993);
    await page.getByText(`Order #${order!.orderId} filled`).waitFor();
    await eurusd(1.0997);
    await panel.openTab('Positions');
    const [opened] = await openTrades(trader.client);
    assert.deepEqual([opened?.stopLoss, opened?.trailingStop], [1.0982, { distance: 150, activation: 20, step: 1 }]);
    await panel.waitForCell(opened!.ticket, 'sl', 'TS1.09820');
    await context.close();
  });

  it('shows and changes a trailing stop from the phone sheet, with thumb-sized fields', async () => {
    const trader = await fundedTrader();
    const r = await postJson(trader.client, '/platform/addTrades.php', { fullSymbol: 'EURUSD', tradestypes: 'sell', volume: 0.1, stopLoss: 0, takeProfit: 0, comment: '', trailingStop: { distance: 150, activation: 20 } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const ticket = r.body.ticket as number;
    const { context, page } = await phonePage();
    await signedIn(page, trader);
    const terminal = new PhoneTerminalPage(page);
    await eurusd(1.1);
    await terminal.openTab('Trade');
    await terminal.position(ticket).tap();
    await terminal.positionSheet().waitFor();
    // Not 20 points in profit yet: no stop, and the sheet says it trails.
    assert.equal((await page.getByTestId('sheet-ts').textContent())?.trim(), 'Trailing 150 pts');
    // The ask falls to 1.09970 (a Sell opened at the bid of 1.10000 is 30 points in profit): the stop goes 150 points above it.
    await eurusd(1.0995);
    await page.getByTestId('sheet-sl').filter({ hasText: '1.10120' }).waitFor();
    await terminal.sheetButton('position', 'Modify').tap();
    const form = page.getByTestId('sheet-modify');
    await form.waitFor();
    assert.equal(await form.getByRole('textbox', { name: 'Activation' }).inputValue(), '20 pts');
    await form.getByRole('textbox', { name: 'Distance' }).fill('80');
    await form.getByTestId('modify-trailing-outlook').filter({ hasText: "At today's price the stop loss goes to 1.10050." }).waitFor();
    assert.deepEqual(await terminal.smallTouchTargets(), [], 'every touch target is at least 44 px');
    mkdirSync(ARTIFACTS, { recursive: true });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForTimeout(300);
      assert.deepEqual(await seriousA11yViolations(page), [], `the phone's form (${scheme}): no serious or critical axe violation`);
      await page.screenshot({ path: join(ARTIFACTS, `trailing-stop-phone${scheme === 'dark' ? '-dark' : ''}.png`), animations: 'disabled' });
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await eurusd(1.0995);
    await form.getByRole('button', { name: 'Save' }).tap();
    await form.waitFor({ state: 'detached' });
    const [changed] = await openTrades(trader.client);
    assert.deepEqual([changed?.stopLoss, changed?.trailingStop], [1.1005, { distance: 80, activation: 20, step: 1 }]);
    await context.close();
  });
});
