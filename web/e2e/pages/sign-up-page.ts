import type { Page } from 'playwright-core';

export interface SignUpForm {
  firstName?: string;
  lastName?: string;
  phoneNo?: string;
  email?: string;
  password?: string;
  country?: string;
}

export class SignUpPage {
  constructor(readonly page: Page) {}
  readonly submit = () => this.page.getByRole('button', { name: 'Sign Up' });
  readonly message = () => this.page.getByTestId('form-message');
  readonly strengthMeter = () => this.page.getByTestId('password-strength');
  /** "I have read and accept the Terms … and the Risk Disclosure." */
  readonly acceptTerms = () => this.page.getByRole('checkbox', { name: /I have read and accept/ });

  async goto(): Promise<void> {
    await this.page.goto('/signup');
    await this.page.getByRole('heading', { name: 'Sign Up' }).waitFor();
  }

  async fill(form: SignUpForm): Promise<void> {
    const p = this.page;
    if (form.firstName !== undefined) await p.getByLabel('First Name').fill(form.firstName);
    if (form.lastName !== undefined) await p.getByLabel('Last Name').fill(form.lastName);
    if (form.phoneNo !== undefined) await p.getByLabel('Phone Number').fill(form.phoneNo);
    if (form.email !== undefined) await p.getByLabel('Email', { exact: true }).fill(form.email);
    if (form.password !== undefined) await p.getByLabel('Password', { exact: true }).fill(form.password);
    if (form.country !== undefined) {
      const country = p.getByRole('combobox', { name: 'Country' });
      await country.click();
      await country.fill(form.country);
      await p.getByRole('option', { name: form.country, exact: true }).click();
    }
  }

  async messageAfterSubmit(): Promise<string> {
    await this.submit().click();
    await this.page.waitForFunction(() => (document.querySelector('[data-testid="form-message"]')?.textContent ?? '') !== '');
    return (await this.message().textContent()) ?? '';
  }
}
