import type { Page } from 'playwright-core';

/** The terminal's positions panel: tabs, the rows of each, the account footer and their dialogs. */
export class PositionsPanel {
  constructor(readonly page: Page) {}
  readonly root = () => this.page.getByTestId('positions-panel');
  readonly positionsTable = () => this.page.getByRole('table', { name: 'Open positions' });
  readonly ordersTable = () => this.page.getByRole('table', { name: 'Pending orders' });
  readonly historyTable = () => this.page.getByRole('table', { name: 'Closed positions' });
  readonly orderHistoryTable = () => this.page.getByRole('table', { name: 'Order history' });
  readonly delayedBadge = () => this.page.getByTestId('positions-delayed');
  readonly marginCallBanner = () => this.page.getByTestId('margin-call-banner');
  readonly dialog = () => this.page.getByRole('dialog');

  tab(name: 'Positions' | 'Pending Orders' | 'History') {
    return this.root().getByRole('tab', { name: new RegExp(`^${name}`) });
  }

  async openTab(name: 'Positions' | 'Pending Orders' | 'History'): Promise<void> {
    await this.tab(name).click();
  }

  position(ticket: number) {
    return this.page.getByTestId(`position-${ticket}`);
  }

  order(orderId: number) {
    return this.page.getByTestId(`order-${orderId}`);
  }

  historyRow(ticket: number) {
    return this.page.getByTestId(`history-${ticket}`);
  }

  async tickets(): Promise<number[]> {
    return this.page.locator('[data-testid^="position-"]').evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-testid')!.replace('position-', ''))));
  }

  /** The text of one cell of a position row: profit, current, sl or tp. */
  async positionCell(ticket: number, cell: 'profit' | 'current' | 'sl' | 'tp'): Promise<string> {
    return ((await this.position(ticket).getByTestId(cell).textContent()) ?? '').trim();
  }

  /** Waits until a position's cell reads `text` (cells follow the stream, so they change on their own). */
  async waitForCell(ticket: number, cell: 'profit' | 'current' | 'sl' | 'tp', text: string, timeout = 10_000): Promise<void> {
    await this.page.waitForFunction(
      ([id, name, want]) => document.querySelector(`[data-testid="position-${id}"] [data-testid="${name}"]`)?.textContent?.trim() === want,
      [ticket, cell, text] as const,
      { timeout },
    );
  }

  async footer(figure: 'balance' | 'equity' | 'margin' | 'free-margin' | 'level'): Promise<string> {
    return ((await this.page.getByTestId(`footer-${figure}`).textContent()) ?? '').trim();
  }

  async waitForFooter(figure: 'balance' | 'equity' | 'margin' | 'free-margin' | 'level', text: string, timeout = 10_000): Promise<void> {
    await this.page.waitForFunction(([name, want]) => document.querySelector(`[data-testid="footer-${name}"]`)?.textContent?.trim() === want, [figure, text] as const, { timeout });
  }

  /** The row's close button; with one-click trading off (the default) the close is then confirmed. */
  async closePosition(ticket: number, { confirm = true }: { confirm?: boolean } = {}): Promise<void> {
    await this.page.getByRole('button', { name: `Close position ${ticket}` }).click();
    if (confirm) await this.confirmClose(ticket);
  }

  /** The confirmation a close asks for with one-click trading off. */
  closeConfirmation(ticket: number) {
    return this.page.getByRole('dialog', { name: `Close position #${ticket}?` });
  }

  async confirmClose(ticket: number): Promise<void> {
    const dialog = this.closeConfirmation(ticket);
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Close position' }).click();
    await dialog.waitFor({ state: 'hidden' });
  }

  async modifyPosition(ticket: number): Promise<void> {
    await this.page.getByRole('button', { name: `Modify position ${ticket}` }).click();
    await this.dialog().waitFor();
  }

  /** In the modify dialog: type a stop loss / take profit and save. */
  async setStops(stops: { stopLoss?: string; takeProfit?: string }): Promise<void> {
    if (stops.stopLoss !== undefined) await this.dialog().getByLabel('Stop loss', { exact: true }).fill(stops.stopLoss);
    if (stops.takeProfit !== undefined) await this.dialog().getByLabel('Take profit', { exact: true }).fill(stops.takeProfit);
    await this.dialog().getByRole('button', { name: 'Save' }).click();
  }

  async bulkClose(which: 'Close all' | 'Close profitable' | 'Close losing'): Promise<void> {
    await this.root().getByRole('button', { name: 'Close positions' }).click();
    await this.page.getByRole('menuitem', { name: which }).click();
    await this.dialog().waitFor();
  }

  /** History's period: one of its presets ('Today', 'Last 7 days', …, 'Custom'). */
  async historyPreset(label: string): Promise<void> {
    await this.root().getByRole('combobox', { name: 'Period' }).click();
    await this.page.getByRole('option', { name: label, exact: true }).click();
  }

  /** History's custom From and To fields (their labels name the trader's zone). */
  readonly historyFrom = () => this.root().getByRole('textbox', { name: /^From \(/ });
  readonly historyTo = () => this.root().getByRole('textbox', { name: /^To \(/ });

  /** A custom History range, From and To typed as YYYY-MM-DD (the fields take the app's format too). */
  async historyRange(from: string, to: string): Promise<void> {
    if ((await this.historyFrom().count()) === 0) await this.historyPreset('Custom');
    await this.historyFrom().fill(from);
    await this.historyTo().fill(to);
    // On to the next control, as a person does: the calendar under the field closes.
    await this.historyTo().press('Tab');
  }

  /** History's totals under the table: 'profit', 'swaps', 'deposits', 'withdrawals', 'net', a ledger kind, or 'closed'. */
  async total(which: string): Promise<string> {
    return ((await this.page.getByTestId(`total-${which}`).textContent()) ?? '').trim();
  }

  async historyTickets(): Promise<number[]> {
    return this.page.locator('[data-testid^="history-"]:not([data-testid^="history-order-"]):not([data-testid="history-count"])').evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-testid')!.replace('history-', ''))));
  }
}
