import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderPageFrames } from '../src/page-frames';

const frames = renderPageFrames();
const frame = (path: string, role: 'trader' | 'admin') => {
  const found = frames.find((f) => f.path === path && f.role === role);
  assert.ok(found, `a frame for ${path} as ${role}`);
  return found.html;
};
/** Whether the frame matches, without printing its 30 KB when it does not. */
const has = (html: string, pattern: RegExp, what: string) => assert.ok(pattern.test(html), what);
const text = (html: string) => html.replace(/<style[\s\S]*?<\/style>/g, '').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

test("the dashboard home's frame is the app's own header, menu and page title, for a trader and for an administrator", () => {
  const trader = frame('/dashboard/home', 'trader');
  const admin = frame('/dashboard/home', 'admin');
  for (const html of [trader, admin]) {
    has(html, /<header[^>]*mantine-AppShell-header/, 'the AppShell header');
    has(html, /<nav(?=[^>]*mantine-AppShell-navbar)(?=[^>]*aria-label="Dashboard menu")[^>]*>/, 'the menu');
    has(html, /<h1[^>]*>Dashboard<\/h1>/, "the page's title");
    // The theme's CSS variables come with the frame: its colours and fonts are the app's before the app runs.
    has(html, /<style data-mantine-styles="true">:root, :host\{[^}]*--mantine-color-brand-6: #1b58f2/, "the theme's variables");
  }
  assert.match(text(trader), /Your account at a glance, the markets you follow and your closed trades\./);
  assert.match(text(trader), /Web Terminal/);
  assert.match(text(admin), /The back office at a glance\./);
  assert.doesNotMatch(text(admin), /Web Terminal/, "an administrator's header has no terminal button");
  // Each role's menu, as the app shows it.
  assert.match(text(trader), /Deposit .*Withdraw/);
  assert.match(text(admin), /Users .*Audit Log/);
});

test('a frame says what it does not know yet: the connection is connecting, the data is loading, and no user is named', () => {
  for (const f of frames) {
    has(f.html, /data-state="connecting"/, `${f.path} (${f.role}): the badge says Connecting`);
    has(f.html, /role="status" aria-label="Loading"/, `${f.path} (${f.role}): a loader stands for the data`);
    has(f.html, /aria-label="Account menu"/, `${f.path} (${f.role}): the account menu names no one`);
  }
});

test('a frame shows the colour-scheme switch for both schemes, one hidden by CSS, so a dark page does not show the light one', () => {
  for (const f of frames) {
    has(f.html, /class="[^"]*tp-scheme-dark-only/, 'the sun, for the dark scheme');
    has(f.html, /class="[^"]*tp-scheme-light-only/, 'the moon, for the light scheme');
  }
});

test('a frame holds nothing that runs: no script and no inline event handler', () => {
  for (const f of frames) {
    assert.ok(!/<script/i.test(f.html), `${f.path} (${f.role}): no script`);
    assert.ok(!/\son[a-z]+=/i.test(f.html), `${f.path} (${f.role}): no event handler attribute`);
  }
});
