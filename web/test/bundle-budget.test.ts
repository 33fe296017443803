import assert from 'node:assert/strict';
import { it } from 'node:test';
import { entrySize, routeSizes, SIGN_IN_BUDGET_BYTES, SIGN_IN_BUDGET_FILES } from '../scripts/route-sizes';

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
