import type { Page } from 'playwright-core';
import { settled } from '../support/harness';

/** `/trading` on a phone: the bottom bar's tabs, the sheets, the order screen and the trading tab. */
export class PhoneTerminalPage {
  constructor(readonly page: Page) {}
  readonly root = () => this.page.getByTestId('phone-terminal');
  readonly tabBar = () => this.page.getByRole('navigation', { name: 'Terminal' });
  readonly title = () => this.page.getByTestId('phone-title');
  readonly priceSheet = () => this.page.getByTestId('price-sheet');
  readonly positionSheet = () => this.page.getByTestId('position-sheet');
  readonly orderScreen = () => this.page.getByRole('dialog', { name: 'New order' });
  readonly chart = () => this.page.getByTestId('phone-chart');
  readonly account = () => this.page.getByTestId('phone-account');

  tab(name: 'Prices' | 'Chart' | 'Trade' | 'Dashboard') {
    return this.tabBar().getByRole(name === 'Dashboard' ? 'link' : 'button', { name });
  }

  async openTab(name: 'Prices' | 'Chart' | 'Trade'): Promise<void> {
    await this.tab(name).tap();
    await this.page.waitForFunction((n) => document.querySelector('[data-testid="phone-terminal"]')?.getAttribute('data-view') === n, { Prices: 'prices', Chart: 'chart', Trade: 'trading' }[name]);
  }

  row(symbol: string) {
    return this.page.getByTestId(`price-row-${symbol}`);
  }

  async rowCount(): Promise<number> {
    return this.page.locator('[data-testid^="price-row-"]').count();
  }

  /** Taps a price row: its sheet opens. */
  async tapRow(symbol: string): Promise<void> {
    await this.row(symbol).tap();
    await this.priceSheet().waitFor();
  }

  readonly detailsSheet = () => this.page.getByTestId('details-sheet');
  readonly rowMenu = () => this.page.getByRole('menu');
  readonly category = () => this.page.getByRole('combobox', { name: 'Symbol type' });

  /** Holds a finger on a price row (away from its star) until its menu opens, then lifts it. */
  async longPress(symbol: string): Promise<void> {
    const box = await this.row(symbol).boundingBox();
    if (!box) throw new Error(`no row for ${symbol} on screen`);
    const at = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    const cdp = await this.page.context().newCDPSession(this.page);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [at] });
    await this.rowMenu().waitFor();
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await cdp.detach();
  }

  sheetButton(sheet: 'price' | 'position', name: string) {
    return (sheet === 'price' ? this.priceSheet() : this.positionSheet()).getByRole('button', { name, exact: true });
  }

  /** The order screen's Sell or Buy button. */
  orderButton(side: 'buy' | 'sell') {
    return this.orderScreen().getByTestId(`dialog-${side}`);
  }

  readonly volume = () => this.orderScreen().getByRole('textbox', { name: 'Volume' });
  readonly refusal = () => this.orderScreen().getByTestId('dialog-refused');

  position(ticket: number) {
    return this.page.getByTestId(`phone-position-${ticket}`);
  }

  async positionProfit(ticket: number): Promise<string> {
    return ((await this.position(ticket).getByTestId('profit').textContent()) ?? '').trim();
  }

  /** Drags the open sheet's grip down by `dy` pixels. */
  async dragSheetDown(dy: number): Promise<void> {
    // Measured while the sheet still rises, the grip has moved up by the time the press lands.
    await settled(this.page);
    const grip = this.page.getByTestId('sheet-grip');
    const box = await grip.boundingBox();
    if (!box) throw new Error('no sheet grip on screen');
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    await this.page.mouse.move(x, y);
    await this.page.mouse.down();
    for (let i = 1; i <= 8; i++) await this.page.mouse.move(x, y + (dy * i) / 8);
    await this.page.mouse.up();
  }

  /** Interactive elements of the phone terminal (and of a dialog over it) smaller than 44 × 44 px (text fields: under 44 px high). */
  async smallTouchTargets(): Promise<string[]> {
    return this.page.evaluate(() => {
      const out: string[] = [];
      const selector = 'button, a[href], input:not([type="hidden"]):not([type="radio"]):not([type="checkbox"]), [role="button"], [role="combobox"], label:has(> input[type="radio"]), [class*="SegmentedControl-label"]';
      for (const el of document.querySelectorAll<HTMLElement>(`[data-testid="phone-terminal"] :is(${selector}), [data-testid="order-screen"] :is(${selector}), [role="dialog"] :is(${selector})`)) {
        const r = el.getBoundingClientRect();
        const style = getComputedStyle(el);
        if (r.width === 0 || r.height === 0 || style.visibility === 'hidden' || Number(style.opacity) === 0) continue;
        // A visually hidden element (1 px, clipped) is not a target.
        if (r.width <= 1 || r.height <= 1) continue;
        const field = el.tagName === 'INPUT';
        if (r.height < 43.5 || (!field && r.width < 43.5)) out.push(`${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}" ${Math.round(r.width)}×${Math.round(r.height)}`);
      }
      return out;
    });
  }

  /** Whether the page scrolls sideways. */
  async scrollsSideways(): Promise<boolean> {
    return this.page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 0.5 || document.body.scrollWidth > window.innerWidth + 0.5);
  }
}
