import type { Page } from 'playwright-core';

export class TerminalPage {
  constructor(readonly page: Page) {}
  readonly search = () => this.page.getByRole('textbox', { name: 'Keyword Search' });
  readonly typeSelect = () => this.page.getByRole('combobox', { name: 'Symbol type' });
  readonly table = () => this.page.getByRole('table', { name: 'Prices' });
  readonly connection = () => this.page.getByTestId('connection-state');
  /** Shown on the price table while prices are polled (the socket is down). */
  readonly delayedBadge = () => this.page.getByTestId('prices-delayed');

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

  /** The scrolling body of the price table (its rows scroll under the sticky header). */
  readonly body = () => this.page.getByTestId('price-table-body');
  /** A row's menu (right-click, the context-menu key, Shift+F10). */
  readonly rowMenu = () => this.page.getByRole('menu');
  readonly details = () => this.page.getByRole('dialog', { name: /specification$/ });

  /** A row's favourite star. */
  star(symbol: string) {
    return this.row(symbol).getByTestId('favourite');
  }

  /** Right-clicks a row: its menu opens. */
  async openRowMenu(symbol: string): Promise<void> {
    await this.row(symbol).click({ button: 'right' });
    await this.rowMenu().waitFor();
  }

  menuItem(name: string) {
    return this.rowMenu().getByRole('menuitem', { name, exact: true });
  }

  /** Turns one of the table's optional columns on or off from its settings. */
  async setColumn(name: 'Change' | 'Spread', on: boolean): Promise<void> {
    await this.page.getByRole('button', { name: 'Price table columns' }).click();
    const dialog = this.page.getByRole('dialog', { name: 'Price table columns' });
    await dialog.waitFor();
    const toggle = dialog.getByRole('switch', { name });
    if ((await toggle.isChecked()) !== on) await toggle.click({ force: true });
    await this.page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
  }

  /** The rows the table has drawn (those in view and a few either side), and how many it lists. */
  async drawnRows(): Promise<{ drawn: number; listed: number }> {
    return this.page.evaluate(() => ({
      drawn: document.querySelectorAll('[data-testid^="price-row-"]').length,
      listed: Number(document.querySelector('table[aria-label="Prices"]')?.getAttribute('aria-rowcount') ?? 1) - 1,
    }));
  }
}

/** The new-order dialog and the terminal's order-entry controls (quick trade, settings, splits). */
export class OrderEntry {
  constructor(readonly page: Page) {}
  readonly dialog = () => this.page.getByRole('dialog', { name: 'New order' });
  readonly orderType = () => this.dialog().getByRole('combobox', { name: 'Type' });
  readonly volume = () => this.dialog().getByRole('textbox', { name: 'Volume' });
  readonly comment = () => this.dialog().getByRole('textbox', { name: 'Comment' });
  readonly price = () => this.dialog().getByRole('textbox', { name: 'Price', exact: true });
  readonly refusal = () => this.page.getByTestId('dialog-refused');
  readonly marketClosed = () => this.page.getByTestId('dialog-market-closed');
  readonly blocked = () => this.page.getByTestId('dialog-blocked');
  readonly quickTrade = () => this.page.getByTestId('quick-trade');
  readonly settingsButton = () => this.page.getByRole('button', { name: 'Terminal settings' });

  /** Double-clicks the symbol's price row (spec: that opens the dialog on a desktop). */
  async openFromRow(symbol: string): Promise<void> {
    await this.page.getByTestId(`price-row-${symbol}`).dblclick();
    await this.dialog().waitFor();
  }

  /** The dialog's Sell or Buy button (for a pending type, its one Place button has the type's side). */
  button(side: 'buy' | 'sell') {
    return this.page.getByTestId(`dialog-${side}`);
  }

  async chooseType(label: string): Promise<void> {
    await this.orderType().click();
    await this.page.getByRole('option', { name: label, exact: true }).click();
  }

  async setVolume(volume: string): Promise<void> {
    await this.volume().fill(volume);
  }

  /** The margin the dialog says the order needs for this side, as shown ('10.8000 USD'). */
  async margin(side: 'buy' | 'sell'): Promise<string> {
    return ((await this.page.getByTestId(`dialog-margin-${side}`).textContent()) ?? '').trim();
  }

  /** The commission the dialog says the fill is charged, as shown ('1.0500 USD'). */
  async commission(side: 'buy' | 'sell'): Promise<string> {
    return ((await this.page.getByTestId(`dialog-commission-${side}`).textContent()) ?? '').trim();
  }

  async freeMarginAfter(side: 'buy' | 'sell'): Promise<string> {
    return ((await this.page.getByTestId(`dialog-free-after-${side}`).textContent()) ?? '').trim();
  }

  quickButton(side: 'buy' | 'sell') {
    return this.page.getByTestId(`quick-${side}`);
  }

  async openSettings(): Promise<void> {
    await this.settingsButton().click();
    await this.page.getByRole('dialog', { name: 'Terminal settings' }).waitFor();
  }

  async closeSettings(): Promise<void> {
    await this.page.keyboard.press('Escape');
    await this.page.getByRole('dialog', { name: 'Terminal settings' }).waitFor({ state: 'hidden' });
  }

  /** Turns one-click trading on (through its confirmation) or off. */
  async setOneClick(on: boolean): Promise<void> {
    await this.openSettings();
    const toggle = this.page.getByRole('switch', { name: 'One-click trading' });
    if ((await toggle.isChecked()) === on) return;
    await toggle.click({ force: true });
    if (on) {
      const confirm = this.page.getByRole('dialog', { name: 'Turn on one-click trading?' });
      await confirm.waitFor();
      await confirm.getByRole('button', { name: 'Turn on one-click trading' }).click();
      await confirm.waitFor({ state: 'hidden' });
    } else {
      await this.closeSettings();
    }
  }
}
