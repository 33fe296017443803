import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { PhoneTerminalPage } from './pages/phone-terminal-page';
import { ARTIFACTS, newPage, postJson, screenshots, seriousA11yViolations } from './support/harness';
import { traderFixture } from './support/trader-fixture';

/**
 * The bell (docs/design.md#notifications): what happened on the server — a deposit decided, a stop
 * loss — is listed with an unread count in the terminal's top bar on the desktop and on a phone;
 * read is kept on the server; My Settings chooses which kinds are mailed too.
 */
describe('notifications', () => {
  const { harness, eurusd, fundedTrader, signedIn, phonePage } = traderFixture({ firstName: 'Noor', lastName: 'Halvorsen' });

  it('counts a decided deposit and a stop loss, lists them, marks them read; My Settings chooses mail per kind', async () => {
    const trader = await fundedTrader();
    const r = await postJson(trader.client, '/platform/addTrades.php', { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 0.1, stopLoss: 1.099, takeProfit: 0, comment: '' });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const { context, page } = await newPage(harness());
    await signedIn(page, trader);
    const bell = page.getByTestId('notification-bell');
    await page.getByTestId('notification-count').filter({ hasText: '1' }).waitFor();
    await eurusd(1.0989);
    await page.getByTestId('notification-count').filter({ hasText: '2' }).waitFor();
    assert.equal(await bell.getAttribute('aria-label'), 'Notifications, 2 unread');
    await bell.click();
    const list = page.getByTestId('notification-list');
    await list.getByText(`Position #${r.body.ticket} closed by its stop loss`).waitFor();
    await list.getByText('Deposit approved').waitFor();
    await page.waitForTimeout(300);
    assert.deepEqual(await seriousA11yViolations(page, ['[data-testid="notification-list"]']), [], 'the list: no serious or critical axe violation');
    await screenshots(page, 'terminal-notifications', { dark: true });
    await list.getByRole('button', { name: 'Mark all read' }).click();
    await page.getByTestId('notification-count').waitFor({ state: 'detached' });
    const read = await trader.client.get('/platform/getNotifications.php');
    assert.equal(read.body.unread, 0);

    await list.getByRole('link', { name: 'Settings' }).click();
    await page.waitForURL((u) => u.pathname === '/dashboard/change-password');
    const closeByMail = page.getByRole('switch', { name: 'Positions closed by stop loss, take profit or the broker' });
    await closeByMail.waitFor();
    // The switch follows the server's answer (it is not checked until the choice is stored).
    await closeByMail.click({ force: true });
    await page.getByText('In the app and by mail').waitFor();
    assert.equal(await closeByMail.isChecked(), true);
    const settings = await trader.client.get('/platform/getNotificationSettings.php');
    assert.equal((settings.body.data as { kind: string; byMail: boolean }[]).find((s) => s.kind === 'close')?.byMail, true);
    assert.equal(await page.getByRole('switch', { name: 'Price alerts' }).isDisabled(), true, 'chosen on each alert');
    await page.mouse.move(0, 0);
    await page.waitForTimeout(300);
    assert.deepEqual(await seriousA11yViolations(page), [], 'My Settings: no serious or critical axe violation');
    await screenshots(page, 'settings-notifications', { dark: true });
    await context.close();
  });

  it('shows the bell with its count on a phone, thumb-sized', async () => {
    const trader = await fundedTrader();
    const { context, page } = await phonePage();
    await signedIn(page, trader);
    const terminal = new PhoneTerminalPage(page);
    await page.getByTestId('notification-count').filter({ hasText: '1' }).waitFor();
    await page.getByTestId('notification-bell').tap();
    await page.getByTestId('notification-list').getByText('Deposit approved').waitFor();
    assert.deepEqual(await terminal.smallTouchTargets(), [], 'every touch target is at least 44 px');
    mkdirSync(ARTIFACTS, { recursive: true });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(ARTIFACTS, `notifications-phone${scheme === 'dark' ? '-dark' : ''}.png`), animations: 'disabled' });
    }
    await context.close();
  });
});
