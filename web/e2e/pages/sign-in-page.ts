import type { Page } from 'playwright-core';

export class SignInPage {
  constructor(readonly page: Page) {}
  readonly email = () => this.page.getByLabel('Email', { exact: true });
  readonly password = () => this.page.getByLabel('Password', { exact: true });
  readonly rememberMe = () => this.page.getByLabel('Remember me');
  readonly submit = () => this.page.getByRole('button', { name: 'Sign In' });
  readonly message = () => this.page.getByTestId('form-message');

  async goto(): Promise<void> {
    await this.page.goto('/');
    await this.page.getByRole('heading', { name: 'Sign In' }).waitFor();
  }

  async signIn(email: string, password: string, options: { rememberMe?: boolean; pressEnter?: boolean } = {}): Promise<void> {
    await this.email().fill(email);
    await this.password().fill(password);
    if (options.rememberMe) await this.rememberMe().check();
    if (options.pressEnter) await this.password().press('Enter');
    else await this.submit().click();
  }

  async messageText(): Promise<string> {
    await this.page.waitForFunction(() => (document.querySelector('[data-testid="form-message"]')?.textContent ?? '') !== '');
    return (await this.message().textContent()) ?? '';
  }
}
