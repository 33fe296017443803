import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { Quote, SymbolRecord } from '@tradeport/contracts';
import { buildFramesModule, loadFramesModule } from '../build/page-frames';
import { symbolRecord } from './helpers/symbols';

// The frames as the server gets them: src/page-frames.tsx bundled for Node by the build's own step
// (its components' CSS modules need the bundler).
const outDir = mkdtempSync(join(tmpdir(), 'tp-frames-'));
after(() => rmSync(outDir, { recursive: true, force: true }));
const framesModule = await loadFramesModule(await buildFramesModule(outDir));
const frames = framesModule.renderPageFrames();
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

const symbol = (ID: number, Symbol: string, CurrencyType: SymbolRecord['CurrencyType'], digits: number) => symbolRecord(Symbol, CurrencyType, { ID, digits });
const quote = (symbol: string, bid: number | null, ask: number | null, flags: Partial<Pick<Quote, 'open' | 'stale'>> = {}): Quote => ({ symbol, bid, ask, time: bid === null ? null : 1_764_000_000_000, open: true, stale: false, ...flags });

test("the phone terminal's frame is the price table's first page of Forex with the quotes it is given, each in its state", () => {
  const forex = Array.from({ length: 17 }, (_, i) => symbol(i + 1, `FX${String(i).padStart(2, '0')}USD`, 'Forex', 5));
  const symbols = [symbol(100, 'BTCUSD', 'Crypto', 2), ...forex, symbol(101, 'USDJPY', 'Forex', 3)];
  const { html, quotes, answers } = framesModule.renderTerminalFrame({
    symbols,
    quotes: [quote('FX00USD', 1.08512, 1.08527), quote('FX01USD', 1.2, 1.21, { open: false }), quote('FX02USD', null, null), quote('FX03USD', 1.3, 1.31, { stale: true }), quote('BTCUSD', 95000.5, 95010)],
  });
  const rows = [...html.matchAll(/data-testid="price-row-([A-Z0-9]+)" data-state="([a-z]+)"/g)].map((m) => [m[1], m[2]]);
  // A phone's page is 15 rows, of the first group (Forex) only, in the catalogue's order.
  assert.deepEqual(
    rows.map(([s]) => s),
    forex.slice(0, 15).map((s) => s.Symbol),
  );
  assert.deepEqual(rows.slice(0, 5), [
    ['FX00USD', 'open'],
    ['FX01USD', 'closed'],
    ['FX02USD', 'error'],
    ['FX03USD', 'error'],
    ['FX04USD', 'loading'],
  ]);
  assert.match(text(html), /FX00USD 1\.08512 1\.08527/, 'the bid and ask with the digits of the symbol');
  has(html, /aria-label="Market closed"/, "a closed market's lock");
  has(html, /<h1[^>]*>Prices<\/h1>/, "the terminal's title");
  has(html, /data-state="connecting"/, 'the badge says Connecting');
  assert.ok(!/prices-delayed/.test(html), 'not Delayed while the first connection is made');
  has(html, /aria-label="Terminal"/, 'the tab bar');
  // Only the quotes the frame shows go with the page; the symbols are the page's answer to getMainCurrencies.
  assert.deepEqual(
    quotes.map((q) => q.symbol),
    ['FX00USD', 'FX01USD', 'FX02USD', 'FX03USD'],
  );
  assert.deepEqual(answers, ['/api/platform/getMainCurrencies.php']);
  assert.ok(!/<script/i.test(html) && !/\son[a-z]+=/i.test(html), 'nothing that runs');
});

test("one terminal frame's quotes do not show in the next", () => {
  const symbols = [symbol(1, 'EURUSD', 'Forex', 5)];
  assert.match(text(framesModule.renderTerminalFrame({ symbols, quotes: [quote('EURUSD', 1.1, 1.2)] }).html), /EURUSD 1\.10000 1\.20000/);
  const next = framesModule.renderTerminalFrame({ symbols, quotes: [] });
  assert.match(next.html, /data-testid="price-row-EURUSD" data-state="loading"/);
  assert.deepEqual(next.quotes, []);
});
