import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { SignInPage } from './pages/sign-in-page';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createTrader, MOBILE, newPage, screenshots, seriousA11yViolations, startHarness, type Harness } from './support/harness';

/**
 * Sign-in history and devices in the browser (docs/architecture.md#sign-in-history-and-devices): a
 * trader signed in on a laptop and a phone sees both in My Settings with the recent attempts, signs
 * the phone out from the laptop, and support sees the trader's sign-ins on their page.
 */
describe('sign-in history and devices', () => {
  let h: Harness;
  let trader: Awaited<ReturnType<typeof createTrader>>;

  before(async () => {
    h = await startHarness();
    trader = await createTrader(h, { firstName: 'Omar', lastName: 'Farouk' });
  });
  after(async () => h?.close());

  async function signedIn(email: string, password: string, viewport?: typeof MOBILE): Promise<Page> {
    const { page } = await newPage(h, viewport);
    const form = new SignInPage(page);
    await form.goto();
    await form.signIn(email, password);
    await page.waitForURL((u) => u.pathname !== '/');
    return page;
  }

  it('My Settings lists the devices signed in and the recent sign-ins; the phone is signed out from the laptop', async () => {
    // A wrong password first, from the laptop's browser.
    const { page: laptop } = await newPage(h);
    const form = new SignInPage(laptop);
    await form.goto();
    await form.signIn(trader.email, 'not-my-password-1');
    await form.messageText();
    await form.signIn(trader.email, trader.password);
    await laptop.waitForURL((u) => u.pathname === '/trading');
    const phone = await signedIn(trader.email, trader.password, MOBILE);

    await laptop.goto('/dashboard/change-password');
    const section = laptop.getByRole('region', { name: 'Devices and sign-ins' });
    const devices = section.getByRole('list', { name: 'Signed-in devices' });
    await devices.getByRole('listitem').nth(2).waitFor();
    // The sign-up helper's own session, the laptop's (this device) and the phone's.
    assert.equal(await devices.getByRole('listitem').count(), 3);
    await devices.getByRole('listitem').first().getByText('This device').waitFor();
    const table = section.getByRole('table', { name: 'Recent sign-ins' });
    await table.getByText('Wrong password').waitFor();
    assert.ok((await table.getByRole('row').count()) >= 4, 'a header and three sign-ins at least');
    assert.deepEqual(await seriousA11yViolations(laptop), []);
    await section.scrollIntoViewIfNeeded();
    await screenshots(laptop, 'sign-ins-devices', { dark: true });

    // The phone (Chrome on Android in the harness's phone profile, or the same words as the laptop): sign out every other device.
    await section.getByRole('button', { name: 'Sign out all other devices' }).click();
    await laptop.getByText('Signed out 2 other devices.').waitFor();
    await devices.getByRole('listitem').nth(1).waitFor({ state: 'detached' });
    // The phone's next call finds no session: back to sign-in.
    await phone.reload();
    await phone.waitForURL((u) => u.pathname === '/');
    await phone.context().close();
    await laptop.context().close();
  });

  it("support sees the trader's sign-ins on their page", async () => {
    const admin = await signedIn(ADMIN_EMAIL, ADMIN_PASSWORD);
    await admin.goto(`/dashboard/users/${trader.id}?tab=sign-ins`);
    await admin.getByRole('heading', { name: 'Omar Farouk' }).waitFor();
    const table = admin.getByRole('table', { name: 'Recent sign-ins' });
    await table.getByText('Wrong password').waitFor();
    assert.deepEqual(await seriousA11yViolations(admin), []);
    await screenshots(admin, 'sign-ins-back-office', {});
    await admin.context().close();
  });
});
