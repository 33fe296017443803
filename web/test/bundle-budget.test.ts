import assert from 'node:assert/strict';
import { it } from 'node:test';
import { entrySize, readManifest, routeSizes, SIGN_IN_BUDGET_BYTES, SIGN_IN_BUDGET_FILES } from '../scripts/route-sizes';

it('the first screen (the entry, which holds the sign-in page) needs at most 150 KB of gzipped JavaScript in at most 30 files (of the last build)', () => {
  const entry = entrySize();
  assert.ok(entry.gzipBytes <= SIGN_IN_BUDGET_BYTES, `sign-in needs ${(entry.gzipBytes / 1024).toFixed(1)} KB gzipped`);
  assert.ok(entry.files <= SIGN_IN_BUDGET_FILES, `sign-in needs ${entry.files} files`);
});

it('every other screen is its own chunk, loaded on demand', () => {
  const modules = routeSizes().map((r) => r.module);
  for (const m of ['src/auth/sign-up-page.tsx', 'src/dashboard/home-page.tsx', 'src/terminal/trading-page.tsx', 'src/money/deposit-page.tsx']) assert.ok(modules.includes(m), `${m} is loaded on demand`);
  assert.ok(!modules.includes('src/auth/sign-in-page.tsx'), 'the sign-in page is part of the entry');
});

it("the desktop terminal's first load holds none of what it downloads on demand, nor the back office's layout components (of the last build)", () => {
  const manifest = readManifest();
  const entry = Object.keys(manifest).find((k) => manifest[k]?.isEntry)!;
  const first = new Set<string>();
  const add = (key: string) => {
    if (first.has(key)) return;
    first.add(key);
    for (const dep of manifest[key]?.imports ?? []) add(dep);
  };
  for (const key of [entry, 'src/ui/signed-in-layout.tsx', 'src/terminal/trading-route.tsx', 'src/terminal/trading-page.tsx']) add(key);
  // Each of these is a chunk of its own (named after it), fetched when first needed: a static
  // import of one from the first screen's modules would put it back into the first load (the
  // terminal's 300 KB budget, docs/benchmarks.md).
  const onDemand = ['order-dialog', 'modify-position-modal', 'bulk-close-dialog', 'terminal-settings-panel', 'price-row-menu', 'instrument-details', 'positions-pending', 'positions-history', 'date-fields'];
  const chunkOf = (name: string) => new RegExp(`^assets/${name}-[\\w-]+\\.js$`);
  const all = Object.values(manifest).map((c) => c.file);
  for (const name of onDemand) assert.ok(all.some((f) => chunkOf(name).test(f)), `${name} is a chunk of its own`);
  const files = [...first].map((k) => manifest[k]!.file);
  assert.deepEqual(files.filter((f) => onDemand.some((name) => chunkOf(name).test(f))), [], 'none of them is in the first load');
  assert.deepEqual(files.filter((f) => /^assets\/ui-pages-/.test(f)), [], "the dashboard's layout components ('ui-pages') are not fetched by the terminal");
});
