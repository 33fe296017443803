import assert from 'node:assert/strict';
import { it } from 'node:test';
import { routeSizes, SIGN_IN_BUDGET_BYTES } from '../scripts/route-sizes';

it('the sign-in page needs at most 150 KB of gzipped JavaScript (of the last build)', () => {
  const signIn = routeSizes().find((r) => r.module === 'src/auth/sign-in-page.tsx');
  assert.ok(signIn, 'the build has the sign-in route module');
  assert.ok(signIn.gzipBytes <= SIGN_IN_BUDGET_BYTES, `sign-in needs ${(signIn.gzipBytes / 1024).toFixed(1)} KB gzipped`);
});

it('every screen is its own chunk, loaded on demand', () => {
  const modules = routeSizes().map((r) => r.module);
  for (const m of ['src/auth/sign-in-page.tsx', 'src/auth/sign-up-page.tsx', 'src/dashboard/home-page.tsx', 'src/terminal/trading-page.tsx', 'src/money/deposit-page.tsx']) assert.ok(modules.includes(m), `${m} is loaded on demand`);
});
