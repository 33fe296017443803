import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DashboardPage } from './pages/dashboard-page';
import { SignInPage } from './pages/sign-in-page';
import { ADMIN_EMAIL, ADMIN_PASSWORD, adminClient, createTrader, MOBILE, newPage, postJson, pushTicks, screenshots, seedDailyCandles, seriousA11yViolations, startHarness, type Harness } from './support/harness';

describe('the dashboard shell, account pages and roles in the browser', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ supportChatPhone: '447700900123' });
    await seedDailyCandles(h, 'EURUSD', { start: 1.08 });
    await seedDailyCandles(h, 'GBPUSD', { start: 1.27 });
    await pushTicks(h, [{ symbol: 'EURUSD', bid: 1.0851, ask: 1.0852 }, { symbol: 'GBPUSD', bid: 1.2703, ask: 1.2705 }]);
  });
  after(async () => h?.close());

  async function signIn(email: string, password: string, viewport?: { width: number; height: number }) {
    const { context, page } = await newPage(h, viewport);
    const signInPage = new SignInPage(page);
    await signInPage.goto();
    await signInPage.signIn(email, password);
    await page.waitForURL((u) => u.pathname !== '/');
    return { context, page };
  }

  it('shows each role its own menu, and redirects a role away from the other role’s pages', async () => {
    const trader = await createTrader(h);
    const t = await signIn(trader.email, trader.password);
    const dashboard = new DashboardPage(t.page);
    await dashboard.goto('home');
    const traderMenu = await dashboard.menuLabels();
    for (const label of ['Dashboard', 'Deposit', 'Deposit Options', 'Withdraw', 'Withdraw Options', 'Tools', 'Technical Summary', 'Tools Requests', 'Legal Terms and Policies']) assert.ok(traderMenu.includes(label), `trader menu has ${label}`);
    for (const label of ['Users', 'Admin Accounts', 'User Deposit Requests']) assert.ok(!traderMenu.includes(label), `trader menu lacks ${label}`);
    await t.page.getByRole('link', { name: 'Web Terminal', exact: true }).waitFor();
    for (const path of ['users', 'admin_accounts', 'requests/user_deposit_requests', 'requests/user_withdraw_requests', 'requests/user_closs_records']) {
      await t.page.goto(`/dashboard/${path}`);
      await t.page.waitForURL((u) => u.pathname === '/dashboard/home');
    }
    const refused = await trader.client.request('GET', '/dashboard/admin/getTraders.php');
    assert.equal(refused.status, 403, 'the server refuses the admin calls anyway');
    await t.context.close();

    const a = await signIn(ADMIN_EMAIL, ADMIN_PASSWORD);
    const adminDashboard = new DashboardPage(a.page);
    await a.page.waitForURL((u) => u.pathname === '/dashboard/home');
    const adminMenu = await adminDashboard.menuLabels();
    for (const label of ['Dashboard', 'Admin Accounts', 'Users', 'User Requests', 'User Deposit Requests', 'User Withdraw Requests', 'User Closed Records', 'Legal Terms and Policies']) assert.ok(adminMenu.includes(label), `admin menu has ${label}`);
    for (const label of ['Deposit', 'Withdraw', 'Tools']) assert.ok(!adminMenu.includes(label), `admin menu lacks ${label}`);
    assert.equal(await a.page.getByRole('link', { name: 'Web Terminal', exact: true }).count(), 0, 'no Web Terminal for admins');
    await screenshots(a.page, 'admin-home');
    for (const path of ['/trading', '/dashboard/deposit', '/dashboard/withdraw', '/dashboard/deposit_options']) {
      await a.page.goto(path);
      await a.page.waitForURL((u) => u.pathname === '/dashboard/home');
    }
    await a.context.close();
  });

  it('changes the password from My Settings: this tab stays signed in, another device is signed out, the new one signs in', async () => {
    const trader = await createTrader(h);
    const other = await signIn(trader.email, trader.password);
    await other.page.goto('/dashboard/home');
    await other.page.waitForFunction(() => document.querySelector('[data-testid="connection-state"]')?.getAttribute('data-state') === 'open');
    const { context, page } = await signIn(trader.email, trader.password);
    await page.goto('/dashboard/change-password');
    await page.getByRole('button', { name: 'Change' }).click();
    await page.getByText('Please enter your current password.').waitFor();
    await page.getByLabel('Current password').fill(trader.password);
    await page.getByLabel('New password', { exact: true }).fill('Fresh-Password-42');
    await page.getByLabel('Confirm new password').fill('Fresh-Password-42');
    await page.getByRole('button', { name: 'Change' }).click();
    await page.waitForFunction(() => (document.querySelector('[data-testid="form-message"]')?.textContent ?? '') !== '');
    assert.match((await page.getByTestId('form-message').textContent()) ?? '', /password has been changed/i);
    // The other device's session ended; this tab holds the new session and keeps its live connection.
    await other.page.waitForURL((u) => u.pathname === '/', { timeout: 10_000 });
    await other.context.close();
    await page.waitForTimeout(1000);
    assert.equal(new URL(page.url()).pathname, '/dashboard/change-password');
    await page.waitForFunction(() => document.querySelector('[data-testid="connection-state"]')?.getAttribute('data-state') === 'open');
    await screenshots(page, 'settings');
    assert.deepEqual(await seriousA11yViolations(page), []);
    await context.close();

    const again = await signIn(trader.email, 'Fresh-Password-42');
    await again.page.waitForURL((u) => u.pathname === '/trading');
    await again.context.close();
  });

  it('signs a deactivated trader out at once', async () => {
    const trader = await createTrader(h);
    const { context, page } = await signIn(trader.email, trader.password);
    await page.goto('/dashboard/home');
    await page.waitForFunction(() => document.querySelector('[data-testid="connection-state"]')?.getAttribute('data-state') === 'open');
    const admin = await adminClient(h);
    const off = await postJson(admin, '/dashboard/admin/editStatusTraders.php', { id: trader.id, isActive: '0' });
    assert.equal(off.status, 200, JSON.stringify(off.body));
    await page.waitForURL((u) => u.pathname === '/', { timeout: 10_000 });
    await page.getByRole('heading', { name: 'Sign In' }).waitFor();
    await context.close();
  });

  it('shows the trader’s real profile, activity, account card, policies, transfers and tools', async () => {
    const trader = await createTrader(h, { firstName: 'Katherine', lastName: 'Johnson-Montgomery' });
    const { context, page } = await signIn(trader.email, trader.password);

    await page.goto('/dashboard/profile');
    await page.waitForFunction(() => document.querySelector('[data-testid="profile-email"]')?.textContent !== '');
    assert.equal(await page.getByTestId('profile-email').textContent(), trader.email);
    await page.getByLabel('Nationality').fill('American');
    // The date of birth is the app's date field: typed as a person writes it, shown in the app's format.
    const birth = page.getByRole('textbox', { name: 'Date of Birth' });
    await birth.fill('5 Jan 1990');
    await birth.press('Tab');
    assert.equal(await birth.inputValue(), '05 Jan 1990');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForFunction(() => /updated/.test(document.querySelector('[data-testid="form-message"]')?.textContent ?? ''));
    const saved = await trader.client.get('/dashboard/customer/getProfileDetails.php');
    assert.equal(saved.body.data[0].dateOfBirth, '1990-01-05');
    await screenshots(page, 'profile');
    assert.deepEqual(await seriousA11yViolations(page), []);

    await page.goto('/dashboard/activity_account');
    await page.getByRole('table', { name: 'Recent activity' }).waitFor();
    await screenshots(page, 'activity');
    assert.deepEqual(await seriousA11yViolations(page), []);

    await page.goto('/dashboard/accounts');
    await page.getByTestId('account-card').waitFor();
    assert.deepEqual(await seriousA11yViolations(page), []);
    await screenshots(page, 'accounts');
    await page.getByText('Demo', { exact: true }).click();
    await page.getByText('No demo accounts.').waitFor();

    await page.goto('/dashboard/Policies');
    await page.locator('article h1').waitFor();
    await screenshots(page, 'policies');
    assert.deepEqual(await seriousA11yViolations(page), []);

    await page.goto('/dashboard/transfers');
    await page.getByText(/Transfers need two live accounts/).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Transfer' }).isDisabled(), true);
    assert.deepEqual(await seriousA11yViolations(page), []);
    await screenshots(page, 'transfers');

    await page.goto('/dashboard/tools');
    await page.getByRole('table', { name: 'Market summary' }).waitFor();
    await screenshots(page, 'tools-market-summary');
    assert.deepEqual(await seriousA11yViolations(page), []);

    await page.goto('/dashboard/tools_options');
    await page.getByTestId('gauge-summary').waitFor();
    assert.match((await page.getByTestId('gauge-summary').textContent()) ?? '', /Strong Sell|Sell|Neutral|Buy|Strong Buy/);
    await page.getByRole('table', { name: 'Oscillators' }).waitFor();
    assert.deepEqual(await seriousA11yViolations(page), []);
    await screenshots(page, 'tools-technical-summary');

    await page.goto('/dashboard/funds');
    await page.getByRole('heading', { name: 'Funds' }).waitFor();
    assert.deepEqual(await seriousA11yViolations(page), []);
    await screenshots(page, 'funds');

    for (const path of ['deposit_requests', 'withdraw_requests', 'tools_requests', 'deposit_options', 'withdraw_options']) {
      await page.goto(`/dashboard/${path}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
      assert.deepEqual(await seriousA11yViolations(page), [], path);
      await screenshots(page, path.replace(/_/g, '-'));
    }

    // The chat button opens the broker's chat number.
    assert.equal(await page.getByRole('link', { name: 'Chat with support' }).getAttribute('href'), 'https://wa.me/447700900123');
    await context.close();
  });

  it('collapses the side menu behind a menu button at 375 px', async () => {
    const trader = await createTrader(h);
    const { context, page } = await signIn(trader.email, trader.password, MOBILE);
    await page.goto('/dashboard/home');
    const dashboard = new DashboardPage(page);
    await dashboard.menuButton().waitFor();
    const menuShown = () => page.waitForFunction(() => (document.querySelector('nav[aria-label="Dashboard menu"]')?.getBoundingClientRect().left ?? -1) >= 0);
    const menuHidden = () => page.waitForFunction(() => (document.querySelector('nav[aria-label="Dashboard menu"]')?.getBoundingClientRect().right ?? 0) <= 0);
    await menuHidden();
    await dashboard.menuButton().click();
    await menuShown();
    await screenshots(page, 'mobile-menu-open');
    await page.getByRole('link', { name: 'Legal Terms and Policies' }).click();
    await page.waitForURL((u) => u.pathname.startsWith('/dashboard/Policies'));
    await menuHidden();
    await page.goto('/dashboard/menu');
    await page.getByRole('heading', { name: 'Menu' }).waitFor();
    assert.deepEqual(await seriousA11yViolations(page), []);
    await screenshots(page, 'mobile-menu-page');

    // A form at phone width: the profile saves.
    await page.goto('/dashboard/profile');
    await page.getByLabel('Nationality').fill('British');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForFunction(() => /updated/.test(document.querySelector('[data-testid="form-message"]')?.textContent ?? ''));

    // Lists at phone width are lists of records, not tables wider than the screen.
    await page.goto('/dashboard/activity_account');
    const entries = page.getByRole('list', { name: 'Recent activity' }).getByRole('listitem');
    await entries.getByText('Profile updated').first().waitFor();
    assert.ok((await entries.count()) >= 3, 'sign-up, sign-in and the profile change are listed');
    assert.equal(await page.getByRole('table').count(), 0, 'no table on a phone');
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth), 'nothing wider than the screen');
    assert.deepEqual(await seriousA11yViolations(page), []);
    await context.close();
  });

  it('returns to sign-in when the session ends behind the page’s back (a 401 anywhere)', async () => {
    const trader = await createTrader(h);
    const { context, page } = await signIn(trader.email, trader.password);
    await page.goto('/dashboard/home');
    await page.getByTestId('card-total-balance').waitFor();
    // The market panel's chart loads its candles once it is in view: let it finish first, so the
    // 401 the test waits for is the one caused by the navigation below.
    await page.locator('[data-testid="deferred-chart"] canvas').first().waitFor();
    await context.clearCookies();
    // Navigate inside the app (no reload): the activity call is refused with 401 and the app leaves.
    await page.getByRole('button', { name: 'My Account' }).click();
    await page.getByRole('link', { name: 'Recent Activity' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await page.getByRole('heading', { name: 'Sign In' }).waitFor();
    await context.close();
  });
});
