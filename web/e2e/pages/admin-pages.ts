import type { Locator, Page } from 'playwright-core';

/**
 * The back office's screens, by role and label, so the tests read like an administrator's steps.
 * Toasts are read by their text; dialogs are the one open `dialog`.
 */
abstract class AdminScreen {
  constructor(readonly page: Page) {}
  readonly dialog = () => this.page.getByRole('dialog');

  async toast(text: string | RegExp): Promise<void> {
    await this.page.getByText(text).first().waitFor();
  }
}

export class AdminUsersPage extends AdminScreen {
  readonly table = () => this.page.getByRole('table', { name: 'Users' });
  readonly search = () => this.page.getByLabel('Search users');
  readonly row = (email: string) => this.table().getByRole('row').filter({ hasText: email });

  async goto(): Promise<void> {
    await this.page.goto('/dashboard/users');
    await this.page.getByRole('heading', { name: 'Users', exact: true }).waitFor();
    await this.table().waitFor();
  }

  async find(text: string): Promise<void> {
    await this.search().fill(text);
  }

  /** The balance cell (fourth column) of a user's row. */
  /** The Balance column (the third: name and email, country and phone, balance). */
  async balance(email: string): Promise<string> {
    return ((await this.row(email).getByRole('cell').nth(2).textContent()) ?? '').trim();
  }

  activeSwitch(name: string): Locator {
    return this.page.getByRole('switch', { name: `${name} active` });
  }

  async deactivate(name: string): Promise<void> {
    await this.activeSwitch(name).click({ force: true });
    await this.dialog().getByRole('button', { name: 'Deactivate and sign out' }).click();
    await this.dialog().waitFor({ state: 'detached' });
  }

  async activate(name: string): Promise<void> {
    await this.activeSwitch(name).click({ force: true });
  }

  async changePassword(name: string, password: string): Promise<void> {
    await this.page.getByRole('button', { name: `Change password of ${name}` }).click();
    await this.dialog().getByLabel('New password').fill(password);
    await this.dialog().getByRole('button', { name: 'Change password' }).click();
  }

  async openTrader(name: string): Promise<void> {
    await this.table().getByRole('link', { name, exact: true }).click();
    await this.page.getByRole('heading', { name, level: 1 }).waitFor();
  }
}

export class AdminRequestsPage extends AdminScreen {
  constructor(
    page: Page,
    readonly kind: 'deposit' | 'withdrawal',
  ) {
    super(page);
  }
  readonly pending = () => this.page.getByRole('table', { name: `Pending ${this.kind} requests` });
  // The request's cell holds its number and, under it, its trading account.
  readonly row = (id: number) => this.pending().getByRole('row').filter({ has: this.page.getByText(`#${id}`, { exact: true }) });

  async goto(): Promise<void> {
    await this.page.goto(`/dashboard/requests/${this.kind === 'deposit' ? 'user_deposit_requests' : 'user_withdraw_requests'}`);
    await this.page.getByRole('heading', { name: this.kind === 'deposit' ? 'User Deposit Requests' : 'User Withdraw Requests' }).waitFor();
    await this.page.getByRole('tab', { name: /Pending/ }).waitFor();
  }

  /** Waits for the live marker: the back-office feed is connected. */
  async live(): Promise<void> {
    await this.page.getByTestId('admin-feed-state').getByText('Live', { exact: true }).waitFor();
  }

  async openDecision(id: number, decision: 'Approve' | 'Reject'): Promise<void> {
    await this.page.getByRole('button', { name: `${decision} ${this.kind} request ${id}` }).click();
    await this.dialog().waitFor();
  }

  async confirm(decision: 'Approve' | 'Reject'): Promise<void> {
    await this.dialog().getByRole('button', { name: decision, exact: true }).click();
    await this.dialog().waitFor({ state: 'detached' });
  }

  /** A rejection asks for the reason the trader is shown. */
  async decide(id: number, decision: 'Approve' | 'Reject', reason = 'The payment details could not be verified.'): Promise<void> {
    await this.openDecision(id, decision);
    if (decision === 'Reject') await this.dialog().getByLabel('Reason').fill(reason);
    await this.confirm(decision);
  }

  /** Opens a request's internal notes (from the pending queue or the history). */
  async openNotes(id: number): Promise<void> {
    await this.page.getByRole('button', { name: new RegExp(`^Notes on ${this.kind} request ${id}:`) }).click();
    await this.page.getByRole('dialog', { name: `Notes on ${this.kind} request #${id}` }).waitFor();
  }

  async addNote(text: string): Promise<void> {
    await this.dialog().getByRole('textbox', { name: 'Add a note' }).fill(text);
    await this.dialog().getByRole('button', { name: 'Add note' }).click();
  }

  async allRequests(): Promise<void> {
    await this.page.getByRole('tab', { name: 'All requests' }).click();
    await this.page.getByRole('table', { name: `All ${this.kind} requests` }).waitFor();
  }

  allRow(id: number): Locator {
    return this.page.getByRole('table', { name: `All ${this.kind} requests` }).getByRole('row').filter({ has: this.page.getByText(`#${id}`, { exact: true }) });
  }
}

export class AdminOpenTradesPage extends AdminScreen {
  readonly search = () => this.page.getByLabel('Search trades');

  async goto(): Promise<void> {
    await this.page.goto('/dashboard/open_trades');
    await this.page.getByRole('heading', { name: 'Open Trades' }).waitFor();
  }

  async expand(name: string): Promise<void> {
    await this.page.getByRole('button', { name: `Show the trades of ${name}` }).click();
    await this.trades(name).waitFor();
  }

  trades(name: string): Locator {
    return this.page.getByRole('table', { name: `Open trades of ${name}` });
  }

  profit(ticket: number): Locator {
    return this.page.getByTestId(`profit-${ticket}`);
  }

  async close(ticket: number): Promise<void> {
    await this.page.getByRole('button', { name: `Close ticket ${ticket}` }).click();
    await this.dialog().getByRole('button', { name: 'Close position' }).click();
    await this.dialog().waitFor({ state: 'detached' });
  }
}

export class AdminPaymentAccountsPage extends AdminScreen {
  readonly table = () => this.page.getByRole('table', { name: 'Payment accounts' });

  async goto(): Promise<void> {
    await this.page.goto('/dashboard/admin_accounts');
    await this.page.getByRole('heading', { name: 'Admin Accounts' }).waitFor();
  }

  async openAdd(): Promise<void> {
    await this.page.getByRole('button', { name: 'Add Account' }).first().click();
    await this.dialog().waitFor();
  }

  async submitAdd(): Promise<void> {
    await this.dialog().getByRole('button', { name: 'Add Account' }).click();
  }

  async add(name: string, number: string, moreInfo: string): Promise<void> {
    await this.dialog().getByRole('textbox', { name: /^Name/ }).fill(name);
    await this.dialog().getByRole('textbox', { name: /^Number/ }).fill(number);
    await this.dialog().getByRole('textbox', { name: /^More info/ }).fill(moreInfo);
    await this.submitAdd();
  }

  activeSwitch(name: string): Locator {
    return this.page.getByRole('switch', { name: `${name} active` });
  }
}

export class AdminAuditLogPage extends AdminScreen {
  readonly table = () => this.page.getByRole('table', { name: 'Audit log' });

  async goto(): Promise<void> {
    await this.page.goto('/dashboard/audit_log');
    await this.page.getByRole('heading', { name: 'Audit Log' }).waitFor();
    await this.table().waitFor();
  }

  /** Every row's action and target, newest first: 'Approved deposit · Deposit request #3'. */
  async entries(): Promise<string[]> {
    const rows = this.table().locator('tbody tr');
    const out: string[] = [];
    for (let i = 0; i < (await rows.count()); i++) {
      const cells = rows.nth(i).getByRole('cell');
      out.push(`${((await cells.nth(2).textContent()) ?? '').trim()} · ${((await cells.nth(3).innerText()) ?? '').replace(/\s+/g, ' ').trim()}`);
    }
    return out;
  }
}

export class AdminTraderPage extends AdminScreen {
  async goto(id: number): Promise<void> {
    await this.page.goto(`/dashboard/users/${id}`);
    await this.page.getByTestId('trader-balance').waitFor();
  }

  async balance(): Promise<string> {
    return ((await this.page.getByTestId('trader-balance').textContent()) ?? '').trim();
  }

  async tab(name: RegExp | string): Promise<void> {
    await this.page.getByRole('tab', { name }).click();
  }

  /** Opens "Adjust balance" and fills it in: what, add or remove, how much and why (not yet sent). */
  async fillBalanceOperation(what: 'Balance adjustment' | 'Credit (bonus)', direction: 'Add' | 'Remove', amount: string, reason: string): Promise<void> {
    await this.page.getByRole('button', { name: 'Adjust balance' }).click();
    const dialog = this.dialog();
    await dialog.waitFor();
    await dialog.locator('.mantine-SegmentedControl-label', { hasText: new RegExp(`^${what.replace(/[()]/g, '\\$&')}$`) }).click();
    await dialog.locator('.mantine-SegmentedControl-label', { hasText: new RegExp(`^${direction}$`) }).click();
    await dialog.getByLabel('Amount').fill(amount);
    await dialog.getByLabel('Reason').fill(reason);
  }

  /** Sends the filled-in operation with its button ("Add 50.00 USD to balance"…). */
  async sendBalanceOperation(): Promise<void> {
    await this.dialog().getByRole('button', { name: /^(Add|Remove) .* USD (to|from) (balance|credit)$/ }).click();
  }
}
