import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { codeAt } from '../../server/src/services/two-factor';
import { SignInPage } from './pages/sign-in-page';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createTrader, MOBILE, newPage, screenshots, seriousA11yViolations, startHarness, type Harness } from './support/harness';

/**
 * Two-factor sign-in in the browser (docs/architecture.md#two-factor-sign-in): the administrator's
 * first sign-in sets up an authenticator app before anything else; a trader turns it on in My
 * Settings, signs in again with a code, then with a backup code on a phone; the administrator
 * resets it from the trader's page.
 */
describe('two-factor sign-in', () => {
  let h: Harness;
  let trader: Awaited<ReturnType<typeof createTrader>>;
  let adminPage: Page;
  let traderSecret = '';
  let backupCodes: string[] = [];

  before(async () => {
    h = await startHarness({ config: { staffTwoFactor: 'required' } });
    trader = await createTrader(h, { firstName: 'Ines', lastName: 'Moreau' });
  });
  after(async () => h?.close());

  /** The code the app shows now; waits for the next 30-second step when `used` is this one (a code works once). */
  async function freshCode(secret: string, used?: string): Promise<string> {
    for (;;) {
      const code = codeAt(h.app.ctx, secret, Date.now());
      if (code !== used) return code;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }

  const keyOn = async (page: Page) => ((await page.getByTestId('two-factor-key').textContent()) ?? '').replace(/\s/g, '');

  it("the administrator's first sign-in sets up an authenticator app, shows the backup codes once, then opens the back office", async () => {
    const { page } = await newPage(h);
    adminPage = page;
    const form = new SignInPage(page);
    await form.goto();
    await form.signIn(ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.getByRole('heading', { name: 'Add an authenticator app' }).waitFor();
    await page.getByRole('img', { name: /QR code/ }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/', 'no session, no back office yet');
    assert.deepEqual(await seriousA11yViolations(page), []);
    await screenshots(page, 'two-factor-enrol', { dark: true });
    const secret = await keyOn(page);
    // A wrong code first: said under the field, nothing else happens.
    await page.getByLabel('Authentication code').fill('000000');
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByText('That code is not right. Check your authenticator app and try again.').waitFor();
    await page.getByLabel('Authentication code').fill(await freshCode(secret));
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByRole('heading', { name: 'Save your backup codes' }).waitFor();
    const codes = await page.getByTestId('backup-codes').locator('code').allTextContents();
    assert.equal(codes.length, 10);
    await screenshots(page, 'two-factor-backup-codes', {});
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL((u) => u.pathname === '/dashboard/home');
  });

  it('a trader turns it on in My Settings: QR code and key, a confirming code, the backup codes', async () => {
    const { page } = await newPage(h);
    const form = new SignInPage(page);
    await form.goto();
    await form.signIn(trader.email, trader.password);
    await page.waitForURL((u) => u.pathname === '/trading');
    await page.goto('/dashboard/change-password');
    const section = page.getByRole('region', { name: 'Two-factor sign-in' });
    await section.getByText('Off', { exact: true }).waitFor();
    await screenshots(page, 'two-factor-settings-off', {});
    await section.getByRole('button', { name: 'Turn on' }).click();
    await section.getByRole('img', { name: /QR code/ }).waitFor();
    traderSecret = await keyOn(page);
    assert.equal(traderSecret.length, 32);
    await screenshots(page, 'two-factor-settings-setup', { dark: true });
    await section.getByLabel('Authentication code').fill(await freshCode(traderSecret));
    await section.getByRole('button', { name: 'Turn on' }).click();
    await section.getByTestId('backup-codes').waitFor();
    backupCodes = await section.getByTestId('backup-codes').locator('code').allTextContents();
    assert.equal(backupCodes.length, 10);
    assert.deepEqual(await seriousA11yViolations(page), []);
    await section.getByRole('button', { name: 'Done' }).click();
    await section.getByText('On', { exact: true }).waitFor();
    await section.getByTestId('backup-codes-left').getByText('10 backup codes left.').waitFor();
    await screenshots(page, 'two-factor-settings-on', { dark: true });
    await page.context().close();
  });

  it('the next sign-in asks for a code; a backup code on a phone works once', async () => {
    const { page } = await newPage(h);
    const form = new SignInPage(page);
    await form.goto();
    await form.signIn(trader.email, trader.password);
    await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
    assert.deepEqual(await seriousA11yViolations(page), []);
    await screenshots(page, 'two-factor-verify', { dark: true });
    const used = codeAt(h.app.ctx, traderSecret, Date.now());
    await page.getByLabel('Authentication code').fill(await freshCode(traderSecret, used));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL((u) => u.pathname === '/trading');
    await page.context().close();

    const phone = (await newPage(h, MOBILE)).page;
    const again = new SignInPage(phone);
    await again.goto();
    await again.signIn(trader.email, trader.password);
    await phone.getByRole('button', { name: 'Use a backup code instead' }).click();
    await phone.getByLabel('Backup code').fill(backupCodes[0]!.toUpperCase());
    await screenshots(phone, 'two-factor-verify-backup', {});
    await phone.getByRole('button', { name: 'Verify' }).click();
    await phone.waitForURL((u) => u.pathname === '/trading');
    await phone.context().close();

    const third = (await newPage(h, MOBILE)).page;
    const once = new SignInPage(third);
    await once.goto();
    await once.signIn(trader.email, trader.password);
    await third.getByRole('button', { name: 'Use a backup code instead' }).click();
    await third.getByLabel('Backup code').fill(backupCodes[0]!);
    await third.getByRole('button', { name: 'Verify' }).click();
    await third.getByText('That code is not right. Check your authenticator app and try again.').waitFor();
    await third.context().close();
  });

  it("the administrator resets the trader's second factor from their page; the trader is told by mail", async () => {
    await adminPage.goto(`/dashboard/users/${trader.id}`);
    await adminPage.getByRole('heading', { name: 'Ines Moreau' }).waitFor();
    await adminPage.getByRole('button', { name: 'Reset two-factor' }).click();
    const dialog = adminPage.getByRole('dialog', { name: 'Reset two-factor sign-in of Ines Moreau' });
    await dialog.waitFor();
    await screenshots(adminPage, 'two-factor-reset', {});
    await dialog.getByRole('button', { name: 'Reset two-factor' }).click();
    await adminPage.getByText('Ines Moreau: two-factor sign-in reset; their sessions ended.').waitFor();
    await dialog.waitFor({ state: 'detached' });
    assert.equal(await adminPage.getByRole('button', { name: 'Reset two-factor' }).count(), 0, 'nothing left to reset');
    const mails = (await h.app.outbox()).filter((m) => m.to === trader.email).map((m) => m.subject);
    assert.ok(mails.includes('Two-factor sign-in is on') && mails.includes('Your two-factor sign-in was reset'), mails.join(', '));
  });
});
