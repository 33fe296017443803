import { after, before } from 'node:test';
import type { Page } from 'playwright-core';
import { SignInPage } from '../pages/sign-in-page';
import { addPaymentAccount, adminClient, approvedDeposit, createTrader, MOBILE, pushTicks, startHarness, type Client, type Harness } from './harness';

/**
 * What a describe about one trader's terminal needs: a fresh server (started before its tests and
 * closed after them) with a payment account, funded traders, EURUSD ticks with a 2-point spread,
 * a signed-in terminal on the desktop or on a touch phone.
 */
export function traderFixture(name: { firstName: string; lastName: string }) {
  let h: Harness;
  let admin: Client;
  let gateway = 0;

  before(async () => {
    h = await startHarness();
    admin = await adminClient(h);
    gateway = await addPaymentAccount(admin);
  });
  after(async () => h?.close());

  /** EURUSD at `bid` and two points above it. */
  const eurusd = (bid: number) => pushTicks(h, [{ symbol: 'EURUSD', bid, ask: Number((bid + 0.0002).toFixed(5)) }]);

  /** A new trader with 10,000.00 USD approved, EURUSD at 1.10000. */
  async function fundedTrader() {
    const trader = await createTrader(h, name);
    await approvedDeposit(trader.client, admin, gateway, '10000.00');
    await eurusd(1.1);
    return trader;
  }

  /** Signs `who` in and waits for the terminal's live stream. */
  async function signedIn(page: Page, who: { email: string; password: string }) {
    const signIn = new SignInPage(page);
    await signIn.goto();
    await signIn.signIn(who.email, who.password);
    await page.waitForURL((u) => u.pathname === '/trading');
    await page.waitForFunction(() => document.querySelector('[data-testid="connection-state"]')?.getAttribute('data-state') === 'open');
  }

  /** A phone's browser (375 × 812, touch), light, in UTC. */
  async function phonePage() {
    const context = await h.browser.newContext({ viewport: MOBILE, hasTouch: true, isMobile: true, baseURL: h.origin, colorScheme: 'light', timezoneId: 'UTC', locale: 'en-US' });
    context.setDefaultTimeout(10_000);
    return { context, page: await context.newPage() };
  }

  return { harness: () => h, eurusd, fundedTrader, signedIn, phonePage };
}
