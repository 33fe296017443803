import type { Page } from 'playwright-core';

export class TerminalPage {
  constructor(readonly page: Page) {}
  readonly search = () => this.page.getByRole('textbox', { name: 'Keyword Search' });
  readonly typeSelect = () => this.page.getByRole('combobox', { name: 'Symbol type' });
  readonly table = () => this.page.getByRole('table', { name: 'Prices' });
  readonly connection = () => this.page.getByTestId('connection-state');

  async goto(): Promise<void> {
    await this.page.goto('/trading');
    await this.search().waitFor();
  }

  row(symbol: string) {
    return this.page.getByTestId(`price-row-${symbol}`);
  }

  async symbols(): Promise<string[]> {
    return this.page.locator('[data-testid^="price-row-"]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-testid')!.replace('price-row-', '')));
  }

  async chooseType(type: string): Promise<void> {
    await this.typeSelect().click();
    await this.page.getByRole('option', { name: type, exact: true }).click();
  }

  async cell(symbol: string, which: 'bid' | 'ask') {
    const cell = this.row(symbol).getByTestId(which);
    return { text: ((await cell.textContent()) ?? '').trim(), direction: await cell.getAttribute('data-direction'), className: (await cell.locator('span').first().getAttribute('class').catch(() => null)) ?? '' };
  }

  async connectionState(): Promise<string | null> {
    return this.connection().getAttribute('data-state');
  }
}
