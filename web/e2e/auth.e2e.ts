import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DashboardPage } from './pages/dashboard-page';
import { SignInPage } from './pages/sign-in-page';
import { SignUpPage } from './pages/sign-up-page';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createTrader, newPage, outbox, screenshots, seriousA11yViolations, startHarness, type Harness } from './support/harness';

describe('signing up, signing in and out, and password reset in the browser', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => h?.close());

  it('signs up through the form, then signs in and lands on the terminal', async () => {
    const { context, page } = await newPage(h);
    const signUp = new SignUpPage(page);
    await signUp.goto();
    // 'Loading countries…' until the list arrives, then the spec's placeholder.
    await page.waitForFunction(() => document.querySelector('input[placeholder="Select a Country"]') !== null);
    await screenshots(page, 'sign-up');
    assert.deepEqual(await seriousA11yViolations(page), []);
    const email = `new.trader.${Date.now()}@example.com`;
    // The meter under the password field shows the server's verdict while typing (review finding 6).
    await signUp.fill({ firstName: 'Grace', lastName: 'Hopper', phoneNo: '15550100', email, password: 'Summer2024' });
    const meter = signUp.strengthMeter();
    await page.waitForFunction(() => document.querySelector('[data-testid="password-strength"]')?.getAttribute('data-acceptable') === 'false');
    assert.match((await meter.textContent()) ?? '', /not accepted · This password is too easy to guess\./);
    await screenshots(page, 'sign-up-weak-password');
    await signUp.fill({ password: 'gracehopper1' });
    await page.waitForFunction(() => /too easy to guess/.test(document.querySelector('[data-testid="password-strength"]')?.textContent ?? ''));
    assert.equal(await meter.getAttribute('data-acceptable'), 'false', "the person's own name makes a password guessable");
    await signUp.fill({ password: 'Compil3r-Grace!', country: 'United Kingdom' });
    await page.waitForFunction(() => document.querySelector('[data-testid="password-strength"]')?.getAttribute('data-acceptable') === 'true');
    assert.match((await meter.textContent()) ?? '', /^Strong/);
    assert.deepEqual(await seriousA11yViolations(page), []);
    assert.equal(await page.locator('.fi.fi-gb').count() > 0, true, 'the chosen country shows its flag');
    // Every field filled but the Terms not accepted: the form names what is missing and sends nothing.
    let sent = 0;
    page.on('request', (r) => void (r.url().includes('/registration.php') && sent++));
    await signUp.submit().click();
    await page.getByText('Please accept the Terms of Business and the Risk Disclosure to open an account.').waitFor();
    assert.equal(sent, 0, 'nothing is sent without the acceptance');
    assert.equal(await signUp.acceptTerms().getAttribute('aria-invalid'), 'true');
    await screenshots(page, 'sign-up-terms-required');
    // The documents open without signing in, in a new tab, so the form keeps what was typed.
    const terms = page.getByRole('link', { name: 'Terms of Business' });
    assert.equal(await terms.getAttribute('target'), '_blank');
    const [legalTab] = await Promise.all([context.waitForEvent('page'), terms.click()]);
    await legalTab.getByRole('heading', { name: 'Terms of Business', level: 1 }).waitFor();
    assert.equal(new URL(legalTab.url()).pathname, '/legal/terms');
    await legalTab.close();
    await signUp.acceptTerms().check();
    const message = await signUp.messageAfterSubmit();
    assert.match(message, /success/i);
    await page.waitForURL((u) => u.pathname === '/', { timeout: 5000 });
    const accepted = await h.app.ctx.db
      .selectFrom('legal_acceptances')
      .innerJoin('users', 'users.id', 'legal_acceptances.user_id')
      .select(['document_id', 'version'])
      .where('users.email', '=', email)
      .orderBy('legal_acceptances.id')
      .execute();
    const published = (await (await fetch(`${h.origin}/api/getLegalDocuments.php`)).json()) as { data: { id: string; version: string }[] };
    assert.deepEqual(
      accepted.map((a) => [a.document_id, a.version]),
      ['terms', 'risk-disclosure'].map((id) => [id, published.data.find((d) => d.id === id)!.version]),
      'the acceptance is recorded with the versions shown',
    );

    const signIn = new SignInPage(page);
    await signIn.goto();
    await signIn.signIn(email, 'Compil3r-Grace!', { pressEnter: true });
    assert.equal(await signIn.messageText(), 'SignIn successful!');
    assert.equal(await signIn.message().evaluate((el) => getComputedStyle(el).color !== 'rgb(201, 42, 42)'), true, 'the success message is not red');
    await page.getByText('SignIn successful!').last().waitFor();
    await page.waitForURL((u) => u.pathname === '/trading', { timeout: 5000 });
    await context.close();
  });

  it('shows every sign-in message of the spec', async () => {
    const { context, page } = await newPage(h);
    const signIn = new SignInPage(page);
    await signIn.goto();
    assert.deepEqual(await seriousA11yViolations(page), []);
    await screenshots(page, 'sign-in', { dark: true });

    await signIn.signIn('', '');
    assert.equal(await signIn.messageText(), 'Please enter your email.');
    assert.equal(await signIn.message().evaluate((el) => getComputedStyle(el).color), 'rgb(201, 42, 42)', 'failures are red');

    await signIn.signIn('someone@example.com', '');
    await page.waitForFunction(() => document.querySelector('[data-testid="form-message"]')?.textContent === 'Please enter your password.');

    const trader = await createTrader(h);
    await signIn.signIn(trader.email, 'wrong-password-1');
    await page.waitForFunction(() => {
      const text = document.querySelector('[data-testid="form-message"]')?.textContent ?? '';
      return text !== '' && !text.startsWith('Please enter');
    });
    const wrong = (await signIn.message().textContent()) ?? '';
    assert.ok(wrong.length > 0 && !wrong.includes('successful'), `a wrong password is refused with the server's message, got "${wrong}"`);

    await signIn.signIn('nobody.here@example.com', 'whatever-pass-1');
    await page.waitForFunction(() => document.querySelector('[data-testid="form-message"]')?.textContent === 'This account does not exist, please contact with support team');
    await context.close();
  });

  it('shows the sign-up messages in the spec order, next to their fields', async () => {
    const { context, page } = await newPage(h);
    const signUp = new SignUpPage(page);
    await signUp.goto();
    const expected: [Parameters<SignUpPage['fill']>[0], string][] = [
      [{}, 'Please enter your first name.'],
      [{ firstName: 'Alan' }, 'Please enter your last name.'],
      [{ lastName: 'Turing' }, 'Please enter your phone number.'],
      [{ phoneNo: '4420700' }, 'Please enter your email address.'],
      [{ email: `alan.${Date.now()}@example.com` }, 'Please enter your password.'],
      [{ password: 'Enigma-Machine-1936' }, 'Please select your country.'],
    ];
    for (const [fill, message] of expected) {
      await signUp.fill(fill);
      await signUp.submit().click();
      await page.waitForFunction((m) => document.querySelector('[data-testid="form-message"]')?.textContent === m, message);
    }
    // The first missing field also carries the message beside it.
    assert.equal(await page.getByRole('combobox', { name: 'Country' }).getAttribute('aria-invalid'), 'true');
    assert.deepEqual(await seriousA11yViolations(page), []);
    await screenshots(page, 'sign-up-errors');
    await context.close();
  });

  it('sends signed-in users away from / and /signup, and signed-out users away from private pages', async () => {
    const { context, page } = await newPage(h);
    for (const path of ['/trading', '/dashboard/home', '/dashboard/users']) {
      await page.goto(path);
      await page.waitForURL((u) => u.pathname === '/');
    }
    const trader = await createTrader(h);
    const signIn = new SignInPage(page);
    await signIn.goto();
    await signIn.signIn(trader.email, trader.password);
    await page.waitForURL((u) => u.pathname === '/trading');
    await page.goto('/');
    await page.waitForURL((u) => u.pathname === '/trading');
    await page.goto('/signup');
    await page.waitForURL((u) => u.pathname === '/trading');
    await context.close();

    const admin = await newPage(h);
    const adminSignIn = new SignInPage(admin.page);
    await adminSignIn.goto();
    await adminSignIn.signIn(ADMIN_EMAIL, ADMIN_PASSWORD);
    await admin.page.waitForURL((u) => u.pathname === '/dashboard/home');
    await admin.page.goto('/signup');
    await admin.page.waitForURL((u) => u.pathname === '/dashboard/home');
    await admin.context.close();
  });

  it('opens the legal documents without signing in, at /legal, with a way to sign in or up', async () => {
    const { context, page } = await newPage(h);
    await page.goto('/legal');
    await page.getByRole('heading', { name: 'Terms of Business', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Risk Disclosure' }).click();
    await page.getByRole('heading', { name: 'Risk Disclosure', level: 1 }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/legal/risk-disclosure');
    assert.deepEqual(await seriousA11yViolations(page), []);
    await screenshots(page, 'legal-public', { dark: true });
    await page.getByRole('link', { name: 'Sign up' }).click();
    await page.waitForURL((u) => u.pathname === '/signup');
    await context.close();
  });

  it('shows a 404 page with a way back for an unknown address', async () => {
    const { context, page } = await newPage(h);
    await page.goto('/no/such/page');
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    assert.deepEqual(await seriousA11yViolations(page), []);
    await screenshots(page, 'not-found');
    await page.getByRole('link', { name: 'Back to Tradeport' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await context.close();
  });

  it('resets a forgotten password through the emailed link, ending the old sessions', async () => {
    const trader = await createTrader(h);
    const { context, page } = await newPage(h);
    const signIn = new SignInPage(page);
    await signIn.goto();
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    await page.getByLabel('Email', { exact: true }).fill(trader.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.waitForFunction(() => /If an account exists/.test(document.querySelector('[data-testid="form-message"]')?.textContent ?? ''));
    assert.deepEqual(await seriousA11yViolations(page), []);
    await screenshots(page, 'forgot-password');

    // The server sends mail after it answers: wait for the file to appear.
    let mail = outbox(h).find((m) => m.to === trader.email);
    for (let i = 0; !mail && i < 100; i++) {
      await new Promise((r) => setTimeout(r, 50));
      mail = outbox(h).find((m) => m.to === trader.email);
    }
    assert.ok(mail, 'a reset mail was written to the outbox');
    const link = /https?:\/\/[^\s]+\/reset-password\?token=[A-Za-z0-9_-]+/.exec(mail.text)?.[0];
    assert.ok(link, 'the mail holds a reset link');
    const token = new URL(link).searchParams.get('token')!;

    await page.goto(`/reset-password?token=${encodeURIComponent(token)}`);
    await page.getByLabel('New password', { exact: true }).fill('Brand-New-Pass-77');
    await page.getByLabel('Confirm new password').fill('Brand-New-Pass-77');
    assert.deepEqual(await seriousA11yViolations(page), []);
    await screenshots(page, 'reset-password');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.waitForURL((u) => u.pathname === '/', { timeout: 5000 });

    // The API session opened before the reset has ended.
    const old = await trader.client.request('GET', '/testSession.php');
    assert.equal(old.body.status, 'Failure');
    await signIn.signIn(trader.email, 'Brand-New-Pass-77');
    await page.waitForURL((u) => u.pathname === '/trading');

    // The link works once.
    await page.context().clearCookies();
    await page.goto(`/reset-password?token=${encodeURIComponent(token)}`);
    await page.getByLabel('New password', { exact: true }).fill('Another-Pass-88');
    await page.getByLabel('Confirm new password').fill('Another-Pass-88');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.waitForFunction(() => /invalid or has expired/.test(document.querySelector('[data-testid="form-message"]')?.textContent ?? ''));
    await context.close();
  });

  it('shows the spec’s error page with a way back when a screen cannot load', async () => {
    const trader = await createTrader(h);
    const { context, page } = await newPage(h);
    const signIn = new SignInPage(page);
    await signIn.goto();
    await signIn.signIn(trader.email, trader.password);
    await page.waitForURL((u) => u.pathname === '/trading');
    await page.goto('/dashboard/home');
    await page.getByTestId('card-total-balance').waitFor();
    // The network drops the profile screen's script: the route fails to load.
    await page.route(/\/assets\/profile-page-[^/]+\.js$/, (route) => route.abort());
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'Profile' }).click();
    await page.getByRole('heading', { name: 'Unexpected Application Error!' }).waitFor();
    // Said in words, without the browser's technical message and its server address.
    await page.getByText('This screen could not be downloaded', { exact: false }).waitFor();
    assert.equal(await page.getByText('dynamically imported module', { exact: false }).count(), 0);
    assert.deepEqual(await seriousA11yViolations(page), []);
    await screenshots(page, 'route-error');
    await page.getByRole('link', { name: 'Go to the start page' }).click();
    await page.waitForURL((u) => u.pathname === '/trading');
    await context.close();
  });

  it('signs out from the user menu', async () => {
    const trader = await createTrader(h);
    const { context, page } = await newPage(h);
    const signIn = new SignInPage(page);
    await signIn.goto();
    await signIn.signIn(trader.email, trader.password);
    await page.waitForURL((u) => u.pathname === '/trading');
    const dashboard = new DashboardPage(page);
    await dashboard.goto('home');
    await dashboard.signOut();
    await page.goto('/dashboard/home');
    await page.waitForURL((u) => u.pathname === '/');
    await context.close();
  });
});
