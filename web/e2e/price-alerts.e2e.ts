import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { PhoneTerminalPage } from './pages/phone-terminal-page';
import { ARTIFACTS, newPage, outbox, screenshots, seriousA11yViolations } from './support/harness';
import { traderFixture } from './support/trader-fixture';

/**
 * Price alerts (docs/design.md#price-alerts) in the browser: set from the Alerts tab and from the
 * chart's bell, drawn on the chart, checked against the live price before sending; the server fires
 * one at the first tick that reaches it — a toast in the terminal and, when chosen, a mail — and the
 * list says so. On a phone: the Trade tab's Alerts, with the dialog filling the screen.
 */
describe('price alerts in the terminal', () => {
  const { harness, eurusd, fundedTrader, signedIn, phonePage } = traderFixture({ firstName: 'Alma', lastName: 'Quensby' });

  async function look(page: Page, name: string, scope?: string[]) {
    await page.mouse.move(0, 0);
    await page.waitForTimeout(300);
    assert.deepEqual(await seriousA11yViolations(page, scope), [], `${name}: no serious or critical axe violation`);
    await screenshots(page, name, { dark: true });
  }

  it('sets an alert from the Alerts tab, draws it on the chart, fires it once at the tick that reaches it, with a toast and a mail', async () => {
    const trader = await fundedTrader();
    const { context, page } = await newPage(harness());
    await signedIn(page, trader);
    await eurusd(1.1);
    await page.getByRole('tab', { name: /^Alerts/ }).click();
    await page.getByText('You have no price alerts.', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'New alert' }).click();
    const dialog = page.getByRole('dialog', { name: 'New price alert' });
    await dialog.waitFor();
    const level = dialog.getByRole('textbox', { name: 'Level' });
    // It starts 20 points above the bid of 1.10000.
    await page.waitForFunction(() => (document.querySelector('[data-testid="alert-level"]') as HTMLInputElement | null)?.value === '1.10020');
    await level.fill('1.1');
    await dialog.getByText('The bid is 1.1 already: an alert above must be set above it.').waitFor();
    await level.fill('1.101');
    await dialog.getByText('Bid now 1.10000 · +100 pts away').waitFor();
    await dialog.getByRole('textbox', { name: 'Note' }).fill('Breakout: buy the retest');
    await dialog.getByRole('checkbox', { name: 'Also send me a mail' }).check();
    await look(page, 'terminal-alert-dialog', ['[role="dialog"]']);
    await dialog.getByRole('button', { name: 'Set alert' }).click();
    await dialog.waitFor({ state: 'hidden' });

    const row = page.locator('[data-testid^="alert-"][data-status="active"]');
    await row.waitFor();
    assert.equal((await row.getByTestId('condition').textContent())?.trim(), 'Bid ≥ 1.10100');
    assert.equal((await row.getByTestId('distance').textContent())?.trim(), '100');
    await page.waitForFunction(() => (document.querySelector('[data-testid="terminal-chart"]')?.getAttribute('data-level-labels') ?? '').includes('Alert bid ≥ 1.10100'));
    await screenshots(page, 'terminal-alerts', { dark: true });

    // The chart's bell sets another one, below.
    await page.getByRole('button', { name: 'Set a price alert' }).first().click();
    await page.getByRole('menuitem', { name: 'New alert…' }).click();
    const second = page.getByRole('dialog', { name: 'New price alert' });
    await second.waitFor();
    await second.locator('label', { hasText: 'At or below' }).click();
    await second.getByRole('textbox', { name: 'Level' }).fill('1.099');
    await second.getByRole('button', { name: 'Set alert' }).click();
    await second.waitFor({ state: 'hidden' });
    await page.locator('[data-testid^="alert-"][data-status="active"]').nth(1).waitFor();
    assert.equal(await page.getByRole('tab', { name: 'Alerts (2)' }).count(), 1);

    // The bid reaches 1.10120: the first fires, once, with a toast and a mail; the list says so.
    await eurusd(1.1012);
    await page.getByText('Price alert: EURUSD bid above 1.101').waitFor();
    await page.locator('[data-testid^="alert-"][data-status="fired"]').waitFor();
    await eurusd(1.1015);
    const mails = outbox(harness()).filter((m) => m.to === trader.email && m.subject.startsWith('Price alert'));
    assert.deepEqual(mails.map((m) => m.subject), ['Price alert: EURUSD bid above 1.10100']);
    await screenshots(page, 'terminal-alerts-fired');
    // Deleting the one still waiting takes it off the list and the chart.
    const waiting = page.locator('[data-testid^="alert-"][data-status="active"]');
    await waiting.getByRole('button', { name: /^Delete alert/ }).click();
    await waiting.waitFor({ state: 'detached' });
    await page.waitForFunction(() => !(document.querySelector('[data-testid="terminal-chart"]')?.getAttribute('data-level-labels') ?? '').includes('Alert'));
    await context.close();
  });

  it('sets and lists alerts on a phone, with thumb-sized controls', async () => {
    const trader = await fundedTrader();
    const { context, page } = await phonePage();
    await signedIn(page, trader);
    const terminal = new PhoneTerminalPage(page);
    await eurusd(1.1);
    await terminal.openTab('Trade');
    await page.getByTestId('phone-trading').locator('label', { hasText: 'Alerts' }).tap();
    await page.getByRole('button', { name: 'New alert' }).tap();
    const dialog = page.getByRole('dialog', { name: 'New price alert' });
    await dialog.waitFor();
    await dialog.getByRole('textbox', { name: 'Level' }).fill('1.1025');
    await dialog.getByRole('textbox', { name: 'Note' }).fill('Take profit zone');
    assert.deepEqual(await terminal.smallTouchTargets(), [], 'every touch target is at least 44 px');
    mkdirSync(ARTIFACTS, { recursive: true });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForTimeout(300);
      assert.deepEqual(await seriousA11yViolations(page), [], `the phone's alert dialog (${scheme}): no serious or critical axe violation`);
      await page.screenshot({ path: join(ARTIFACTS, `alert-dialog-phone${scheme === 'dark' ? '-dark' : ''}.png`), animations: 'disabled' });
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await dialog.getByRole('button', { name: 'Set alert' }).tap();
    await dialog.waitFor({ state: 'hidden' });
    const item = page.locator('[data-testid^="phone-alert-"]');
    await item.filter({ hasText: 'Bid ≥ 1.10250' }).waitFor();
    await item.filter({ hasText: '250 pts to go' }).waitFor();
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(ARTIFACTS, 'alerts-phone.png'), animations: 'disabled' });
    await context.close();
  });
});
