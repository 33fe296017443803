import type { Page } from 'playwright-core';

export class DepositPage {
  constructor(readonly page: Page) {}
  async goto(): Promise<void> {
    await this.page.goto('/dashboard/deposit');
    await this.page.getByRole('heading', { name: 'Deposit', exact: true }).waitFor();
  }
  async request(paymentAccountLabel: string, account: string, amount: string): Promise<string> {
    const p = this.page;
    await p.getByRole('combobox', { name: 'Payment account' }).click();
    await p.getByRole('option', { name: paymentAccountLabel }).click();
    await p.getByLabel('Your account').fill(account);
    await p.getByLabel('Amount').fill(amount);
    await p.getByRole('button', { name: 'Continue' }).click();
    await p.waitForFunction(() => (document.querySelector('[data-testid="form-message"]')?.textContent ?? '') !== '');
    return (await p.getByTestId('form-message').textContent()) ?? '';
  }
}

export class WithdrawPage {
  constructor(readonly page: Page) {}
  async goto(): Promise<void> {
    await this.page.goto('/dashboard/withdraw');
    await this.page.getByRole('heading', { name: 'Withdraw', exact: true }).waitFor();
  }
  async request(account: string, amount: string): Promise<string> {
    const p = this.page;
    await p.getByLabel('Account', { exact: true }).fill(account);
    await p.getByLabel('Amount').fill(amount);
    await p.getByRole('button', { name: 'Continue' }).click();
    await p.waitForFunction(() => (document.querySelector('[data-testid="form-message"]')?.textContent ?? '') !== '');
    return (await p.getByTestId('form-message').textContent()) ?? '';
  }
}

export class RequestListPage {
  constructor(readonly page: Page) {}
  async goto(kind: 'deposit' | 'withdraw'): Promise<void> {
    await this.page.goto(`/dashboard/${kind}_requests`);
  }
  /** The status shown for a request, e.g. 'Pending'. */
  status(kind: 'deposit' | 'withdrawal', id: number) {
    return this.page.getByTestId(`request-${kind}-${id}`).locator('[data-testid="request-status"]');
  }
}
