import type { Locator, Page } from 'playwright-core';
import type { ToolMenuLabel } from './chart-panel';

/** The phone's chart tab: its toolbar, the tool column and the canvas, driven by taps. */
export class PhoneChartTab {
  constructor(
    readonly page: Page,
    readonly root: Locator = page.getByTestId('phone-chart'),
  ) {}

  readonly toolbar = () => this.root.getByRole('toolbar', { name: 'Chart toolbar' });
  readonly tools = () => this.root.getByRole('toolbar', { name: 'Chart tools' });
  readonly canvas = () => this.root.getByTestId('terminal-chart');
  readonly drawingBar = () => this.root.getByTestId('drawing-bar');

  async waitForChart(symbol: string, period: string): Promise<void> {
    await this.root.getByRole('group', { name: `${symbol} chart, ${period}` }).waitFor();
    await this.page.waitForFunction(() => !document.querySelector('[data-testid="phone-chart"] [aria-label="Loading the chart"]'));
  }

  async choosePeriod(period: string): Promise<void> {
    await this.toolbar().getByRole('button', { name: /^Chart period / }).tap();
    await this.page.getByRole('menu', { name: 'Chart period' }).getByRole('menuitem', { name: period, exact: true }).tap();
  }

  async pickTool(menu: ToolMenuLabel, tool: string): Promise<void> {
    await this.tools().getByRole('button', { name: `${menu} drawing tools` }).tap();
    const list = this.page.getByRole('menu', { name: `${menu} drawing tools` });
    await list.getByRole('menuitem', { name: tool, exact: true }).tap();
    // The menu fades out over the chart: a tap on the canvas meanwhile would land on one of its items.
    await list.waitFor({ state: 'hidden' });
  }

  /** Taps points on the canvas, each given as fractions of its width and height. */
  async tapAt(points: Array<[number, number]>): Promise<void> {
    const box = (await this.canvas().boundingBox())!;
    for (const [fx, fy] of points) {
      await this.page.touchscreen.tap(box.x + box.width * fx, box.y + box.height * fy);
      // KLineChart takes a second tap within 500 ms of the first for a double tap.
      await this.page.waitForTimeout(550);
    }
  }

  /** The full-screen list of indicators, opened from the tool column. */
  readonly indicatorSheet = () => this.page.getByRole('dialog', { name: 'Indicators' });

  async openIndicators(): Promise<void> {
    await this.tools().getByRole('button', { name: /^Indicators/ }).tap();
    await this.indicatorSheet().waitFor();
  }

  /** The indicators the list offers to add, by their names. */
  async offeredIndicators(): Promise<string[]> {
    return this.indicatorSheet().locator('button[data-indicator] .mantine-Button-label').allTextContents();
  }

  async addIndicator(label: string): Promise<void> {
    await this.indicatorSheet().locator('button[data-indicator]').filter({ has: this.page.getByText(label, { exact: true }) }).tap();
  }

  async closeIndicators(): Promise<void> {
    await this.indicatorSheet().getByRole('button', { name: 'Close the indicators' }).tap();
    await this.indicatorSheet().waitFor({ state: 'hidden' });
  }

  async waitForOverlays(count: number): Promise<void> {
    await this.canvas().and(this.page.locator(`[data-overlays="${count}"]`)).waitFor();
  }

  /** Every control of the toolbar and the tool column that is smaller than a finger (44×44 px). */
  async smallTargets(): Promise<string[]> {
    return this.root.evaluate((root) =>
      [...root.querySelectorAll<HTMLElement>('[role="toolbar"] button, [role="toolbar"] [role="radio"] + label, [role="toolbar"] label')]
        .filter((el) => el.offsetParent !== null)
        .map((el) => ({ el, r: el.getBoundingClientRect() }))
        .filter(({ r }) => r.width < 44 || r.height < 44)
        .map(({ el, r }) => `${el.getAttribute('aria-label') ?? el.textContent} ${Math.round(r.width)}×${Math.round(r.height)}`),
    );
  }
}
