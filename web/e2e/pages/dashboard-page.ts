import type { Page } from 'playwright-core';

/** The dashboard shell and its home screen. */
export class DashboardPage {
  constructor(readonly page: Page) {}
  readonly menu = () => this.page.getByRole('navigation', { name: 'Dashboard menu' });
  readonly menuButton = () => this.page.getByRole('button', { name: /Open the menu|Close the menu/ });

  async goto(path = 'home'): Promise<void> {
    await this.page.goto(`/dashboard/${path}`);
  }

  async card(label: string): Promise<string> {
    const card = this.page.getByTestId(`card-${label.toLowerCase().replace(/\s+/g, '-')}`);
    await card.waitFor();
    return ((await card.textContent()) ?? '').replace(/\s*USD$/, '').trim();
  }

  async menuLabels(): Promise<string[]> {
    await this.menu().waitFor();
    // Expand every group so nested entries are listed too (an open group's button carries
    // Mantine's data-expanded; a closed group's entries are not rendered).
    for (;;) {
      const collapsed = this.menu().locator('button:not([data-expanded]):not(:has-text("LogOut"))').first();
      if ((await collapsed.count()) === 0) break;
      await collapsed.click();
    }
    await this.page.waitForTimeout(300);
    return (await this.menu().locator('a, button').allTextContents()).map((t) => t.trim()).filter(Boolean);
  }

  async signOut(): Promise<void> {
    await this.page.getByTestId('user-menu').click();
    await this.page.getByRole('menuitem', { name: 'LogOut' }).click();
    await this.page.waitForURL((u) => u.pathname === '/');
  }
}
