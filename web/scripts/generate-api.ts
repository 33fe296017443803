/**
 * Writes `src/api/call-routes.generated.ts`: the method, path, access, encoding and file types of every call in
 * `@tradeport/contracts`. The web app needs only these at run time (request and response types
 * come from the contracts as type-only imports), so the browser bundle carries no zod schemas.
 * `npm run build` and `npm run typecheck` regenerate it; a unit test fails if it is out of date.
 */
import { writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { calls } from '@tradeport/contracts';

export const GENERATED_FILE = resolve(dirname(fileURLToPath(import.meta.url)), '../src/api/call-routes.generated.ts');

export function renderCallRoutes(): string {
  const rows = Object.entries(calls).map(([name, call]) => {
    const encoding = 'encoding' in call && call.encoding ? `, encoding: '${call.encoding}'` : '';
    const produces = 'produces' in call && call.produces ? `, produces: [${call.produces.map((t) => `'${t}'`).join(', ')}]` : '';
    return `  ${name}: { method: '${call.method}', path: '${call.path}', access: '${call.access}'${encoding}${produces} },`;
  });
  return [
    '// Generated from @tradeport/contracts by web/scripts/generate-api.ts — do not edit by hand.',
    "import type { CallName } from '@tradeport/contracts';",
    "import type { CallRoute } from './call-route';",
    '',
    'export const callRoutes = {',
    ...rows,
    '} as const satisfies Record<CallName, CallRoute>;',
    '',
  ].join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(GENERATED_FILE, renderCallRoutes());
}
