import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { AdminRequestsPage } from './pages/admin-pages';
import { SignInPage } from './pages/sign-in-page';
import { ADMIN_EMAIL, ADMIN_PASSWORD, addPaymentAccount, adminClient, approvedDeposit, createTrader, MOBILE, newPage, postJson, screenshots, seriousA11yViolations, startHarness, type Client, type Harness } from './support/harness';

/**
 * Staff roles in the browser (docs/design.md#staff-roles): the administrator adds a support desk
 * member on the Staff page; that person's back office shows only Users (no money, trades or staff),
 * the trader's page without balance or status controls; a role added while they are signed in
 * opens its menu entry at once, and one taken away closes the page they were on.
 */
describe('staff roles in the back office', () => {
  let h: Harness;
  let admin: Client;
  let trader: Awaited<ReturnType<typeof createTrader>>;
  const member = { firstName: 'Sam', lastName: 'Support', email: 'sam.support@broker.example', password: 'Support-Desk-2026' };

  before(async () => {
    h = await startHarness();
    admin = await adminClient(h);
    trader = await createTrader(h, { firstName: 'Noor', lastName: 'Haddad' });
  });
  after(async () => h?.close());

  async function signIn(email: string, password: string, viewport?: typeof MOBILE): Promise<Page> {
    const { page } = await newPage(h, viewport);
    const form = new SignInPage(page);
    await form.goto();
    await form.signIn(email, password);
    await page.waitForURL((u) => u.pathname === '/dashboard/home');
    await page.mouse.move(0, 0);
    await page.waitForFunction(() => !document.querySelector('.mantine-Notification-root'), undefined, { timeout: 15_000 });
    return page;
  }

  const menuLinks = (page: Page) => page.getByRole('navigation').getByRole('link').allTextContents();

  it('an administrator adds a support desk member on the Staff page, with a refusal shown first', async () => {
    const page = await signIn(ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.getByRole('link', { name: 'Staff' }).first().click();
    await page.waitForURL((u) => u.pathname === '/dashboard/staff');
    await page.getByRole('table', { name: 'Staff' }).waitFor();
    await page.getByRole('button', { name: 'Add staff member' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add staff member' });
    await dialog.getByLabel('First name').fill(member.firstName);
    await dialog.getByLabel('Last name').fill(member.lastName);
    await dialog.getByLabel('Email').fill(member.email);
    await dialog.getByLabel('First password').fill(member.password);
    // No role chosen: said at once, nothing sent.
    await dialog.getByRole('button', { name: 'Add staff member' }).click();
    await dialog.getByText('Choose at least one role.').waitFor();
    await dialog.getByRole('checkbox', { name: 'Support' }).check();
    await screenshots(page, 'staff-add', {});
    await dialog.getByRole('button', { name: 'Add staff member' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Sam Support can now sign in to the back office.').waitFor();
    const row = page.getByRole('row').filter({ hasText: member.email });
    await row.getByText('Support', { exact: true }).waitFor();
    assert.deepEqual(await seriousA11yViolations(page), []);
    await screenshots(page, 'staff', { dark: true });
    const audit = (await admin.request('GET', '/dashboard/admin/getAuditLog.php?action=staff.add')).body;
    assert.equal(audit.data[0].action, 'staff.add');
    await page.context().close();
  });

  it('support sees only what support may use; a refused call is audited', async () => {
    const page = await signIn(member.email, member.password);
    assert.deepEqual(await menuLinks(page), ['Dashboard', 'Users', 'Legal Terms and Policies']);
    // The home shows the traders' card only: no money queues, no trades.
    await page.getByTestId('admin-card-traders').waitFor();
    assert.equal(await page.getByTestId('admin-card-pending-deposits').count(), 0);
    // A page outside the roles, typed in: back to the dashboard.
    await page.goto('/dashboard/requests/user_withdraw_requests');
    await page.waitForURL((u) => u.pathname === '/dashboard/home');
    await page.goto(`/dashboard/users/${trader.id}`);
    await page.getByRole('heading', { name: 'Noor Haddad' }).waitFor();
    await page.getByRole('button', { name: 'Change password' }).waitFor();
    assert.equal(await page.getByRole('button', { name: /balance/i }).count(), 0, 'no balance operations for support');
    assert.equal(await page.getByRole('switch').count(), 0, 'no activate / deactivate switch for support');
    assert.equal(await page.getByRole('tab', { name: 'Money requests' }).count(), 0);
    assert.deepEqual(await seriousA11yViolations(page), []);
    await screenshots(page, 'staff-support-trader', {});
    const refused = await page.evaluate(async () => (await fetch('/api/dashboard/admin/getPendingWithdrawal.php', { credentials: 'include' })).status);
    assert.equal(refused, 403);
    const audit = (await admin.request('GET', '/dashboard/admin/getAuditLog.php?action=access.refused')).body;
    assert.equal(audit.data[0].targetId, 'GET /api/dashboard/admin/getPendingWithdrawal.php');
    await page.context().close();
  });

  it('roles changed while signed in change the menu at once, and a page no longer allowed is left', async () => {
    const page = await signIn(member.email, member.password, MOBILE);
    const staff = (await admin.request('GET', '/dashboard/admin/getStaff.php')).body.data as { id: number; email: string }[];
    const id = staff.find((m) => m.email === member.email)!.id;
    await page.goto('/dashboard/menu');
    await page.getByRole('link', { name: 'Users' }).first().waitFor();
    assert.equal(await page.getByRole('link', { name: 'User Withdraw Requests' }).count(), 0);
    const grant = await postJson(admin, '/dashboard/admin/editStaffMember.php', { id, roles: ['finance', 'support'] });
    assert.equal(grant.status, 200, JSON.stringify(grant.body));
    await page.getByRole('link', { name: 'User Withdraw Requests' }).first().waitFor({ timeout: 15_000 });
    await screenshots(page, 'staff-menu-finance', {});
    await page.getByRole('link', { name: 'User Withdraw Requests' }).first().click();
    await page.waitForURL((u) => u.pathname === '/dashboard/requests/user_withdraw_requests');
    const take = await postJson(admin, '/dashboard/admin/editStaffMember.php', { id, roles: ['support'] });
    assert.equal(take.status, 200);
    await page.waitForURL((u) => u.pathname === '/dashboard/home', { timeout: 15_000 });
    await page.context().close();
  });

  it('a large withdrawal takes two Finance members: the first approval waits, the second pays', async () => {
    const finance = [
      { firstName: 'Fay', lastName: 'First', email: 'fay.first@broker.example', password: 'Finance-Desk-2026', roles: ['finance'] },
      { firstName: 'Sid', lastName: 'Second', email: 'sid.second@broker.example', password: 'Finance-Desk-2026', roles: ['finance'] },
    ];
    for (const f of finance) assert.equal((await postJson(admin, '/dashboard/admin/addStaffMember.php', f)).status, 200);
    const gateway = await addPaymentAccount(admin);
    await approvedDeposit(trader.client, admin, gateway, '30000.00');
    const asked = await postJson(trader.client, '/platform/addWithdrawal.php', { withdrawalsAmount: '12500.00', paymentAccount: 'GB29 NWBK 6016 1331 9268 19' });
    assert.equal(asked.status, 200, JSON.stringify(asked.body));
    const id = asked.body.id as number;
    const balance = async () => (await trader.client.request('GET', '/dashboard/customer/getProfileDetails.php')).body.data[0].totalBalance as string;

    // The first approver: the request says it needs two approvals, and theirs is the first.
    const first = await signIn(finance[0]!.email, finance[0]!.password);
    const queue = new AdminRequestsPage(first, 'withdrawal');
    await queue.goto();
    await first.getByTestId(`second-approval-${id}`).getByText('Needs 2 approvals').waitFor();
    await queue.openDecision(id, 'Approve');
    await queue.dialog().getByText(/Yours is the first: no money moves/).waitFor();
    await queue.dialog().getByRole('button', { name: 'Give first approval' }).click();
    await queue.dialog().waitFor({ state: 'detached' });
    await queue.toast(`First approval of withdrawal request #${id} given: it now awaits another Finance member.`);
    await first.getByTestId(`second-approval-${id}`).getByText('Approved by you · 1 of 2').waitFor();
    assert.equal(await first.getByRole('button', { name: `Approve withdrawal request ${id}` }).count(), 0, 'the first approver cannot give the second');
    assert.equal(await balance(), '30000.00');
    const own = (await trader.client.request('GET', '/platform/getTraderWithdrawals.php')).body.data as { id: number; status: string }[];
    assert.equal(own.find((r) => r.id === id)!.status, '0', 'the trader sees it pending');
    assert.deepEqual(await seriousA11yViolations(first), []);
    await screenshots(first, 'four-eyes-first', {});
    await first.context().close();

    // The second: the dashboard says what awaits them, and leads to it.
    const second = await signIn(finance[1]!.email, finance[1]!.password);
    await second.getByTestId('admin-card-pending-withdrawals').getByText('1 awaiting your second approval').waitFor();
    await screenshots(second, 'four-eyes-home', {});
    await second.getByRole('link', { name: 'Review what awaits you' }).click();
    await second.getByTestId('awaiting-me').waitFor();
    assert.equal(await second.getByTestId('awaiting-me').getAttribute('aria-pressed'), 'true');
    await second.getByTestId(`second-approval-${id}`).getByText('Awaiting second approval').waitFor();
    await screenshots(second, 'four-eyes-second', { dark: true });
    const queue2 = new AdminRequestsPage(second, 'withdrawal');
    await queue2.openDecision(id, 'Approve');
    await queue2.dialog().getByText(`First approval by ${finance[0]!.email}`, { exact: false }).waitFor();
    await queue2.confirm('Approve');
    await queue2.toast(`Withdrawal request# ${id} approved successfully`);
    assert.equal(await balance(), '17500.00');
    await second.context().close();
  });
});
