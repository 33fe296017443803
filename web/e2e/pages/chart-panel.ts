import type { Locator, Page } from 'playwright-core';

/** The drawing-tool menus ('Text' is a menu on the phone; the desktop toolbar has a Text note button instead). */
export type ToolMenuLabel = 'Lines' | 'Channels' | 'Gann' | 'Fib' | 'Shapes' | 'Text';

/** The terminal's chart: its toolbar, drawing menus, indicators, larger view and the canvas. */
export class ChartPanel {
  constructor(
    readonly page: Page,
    readonly root: Locator = page.getByTestId('chart-panel'),
  ) {}

  /** The same chart in the larger view's dialog. */
  large(): ChartPanel {
    return new ChartPanel(this.page, this.page.getByTestId('chart-large'));
  }

  readonly toolbar = () => this.root.getByRole('toolbar');
  readonly canvas = () => this.root.getByTestId('terminal-chart');
  readonly saveStatus = () => this.root.getByTestId('chart-save-status');
  readonly drawingBar = () => this.root.getByTestId('drawing-bar');
  readonly indicatorList = () => this.root.getByRole('list', { name: /Indicators on the chart/ });

  menuButton(menu: ToolMenuLabel) {
    return this.toolbar().getByRole('button', { name: `${menu} drawing tools` });
  }

  /** The tools a menu offers, by their names. */
  async toolsOf(menu: ToolMenuLabel): Promise<string[]> {
    await this.menuButton(menu).click();
    const dropdown = this.page.getByRole('menu', { name: `${menu} drawing tools` });
    await dropdown.getByRole('menuitem').first().waitFor();
    const names = await dropdown.getByRole('menuitem').allTextContents();
    await this.page.keyboard.press('Escape');
    await dropdown.waitFor({ state: 'hidden' });
    return names;
  }

  async pickTool(menu: ToolMenuLabel, tool: string): Promise<void> {
    await this.menuButton(menu).click();
    const list = this.page.getByRole('menu', { name: `${menu} drawing tools` });
    await list.getByRole('menuitem', { name: tool, exact: true }).click();
    // The menu fades out over the chart: a click on the canvas meanwhile would land on one of its items.
    await list.waitFor({ state: 'hidden' });
  }

  /** The text note, a tool of its own in the toolbar (not a menu). */
  async pickTextNote(): Promise<void> {
    await this.toolbar().getByRole('button', { name: 'Text note' }).click();
  }

  /** Clicks points on the canvas, each given as fractions of its width and height. */
  async clickAt(points: Array<[number, number]>): Promise<void> {
    const box = (await this.canvas().boundingBox())!;
    for (const [fx, fy] of points) {
      await this.page.mouse.move(box.x + box.width * fx, box.y + box.height * fy, { steps: 4 });
      await this.page.mouse.down();
      await this.page.mouse.up();
      // KLineChart ignores a second click within 500 ms of the first unless it is a double click.
      await this.page.waitForTimeout(550);
    }
  }

  /** Presses at one point of the canvas and drags to another (fractions of its width and height). */
  async drag(from: [number, number], to: [number, number]): Promise<void> {
    const box = (await this.canvas().boundingBox())!;
    await this.page.mouse.move(box.x + box.width * from[0], box.y + box.height * from[1], { steps: 4 });
    await this.page.waitForTimeout(150);
    await this.page.mouse.down();
    await this.page.mouse.move(box.x + box.width * to[0], box.y + box.height * to[1], { steps: 12 });
    await this.page.mouse.up();
    await this.page.waitForTimeout(550);
  }

  /** The dialog asking for a text note's text ('New text note' or 'Edit text note'). */
  noteDialog(name: 'New text note' | 'Edit text note') {
    return this.page.getByRole('dialog', { name });
  }

  async drawingCount(): Promise<number> {
    return Number(await this.canvas().getAttribute('data-drawings'));
  }

  async waitForDrawings(count: number): Promise<void> {
    await this.canvas().and(this.page.locator(`[data-drawings="${count}"]`)).waitFor();
  }

  async waitForSaved(): Promise<void> {
    await this.saveStatus().and(this.page.locator('[data-state="saved"]')).waitFor({ timeout: 10_000 });
  }

  async addIndicator(label: string): Promise<void> {
    await this.toolbar().getByRole('button', { name: 'Indicators' }).click();
    const menu = this.page.getByRole('menu', { name: 'Indicators' });
    await menu.getByRole('menuitem').filter({ has: this.page.getByText(label, { exact: true }) }).click();
    await menu.waitFor({ state: 'hidden' });
  }

  /** The indicators menu's groups and the names of what each offers. */
  async indicatorMenu(): Promise<Array<{ group: string; items: string[] }>> {
    await this.toolbar().getByRole('button', { name: 'Indicators' }).click();
    const menu = this.page.getByRole('menu', { name: 'Indicators' });
    await menu.getByRole('menuitem').first().waitFor();
    const groups = await menu.getByRole('group').evaluateAll((els) =>
      els.map((el) => ({ group: el.getAttribute('aria-label') ?? '', items: [...el.querySelectorAll('[role="menuitem"] .mantine-Menu-itemLabel')].map((i) => i.textContent ?? '') })),
    );
    await this.page.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });
    return groups;
  }

  async indicators(): Promise<string[]> {
    return this.indicatorList().getByRole('button', { name: /^Settings of / }).allTextContents();
  }
}
