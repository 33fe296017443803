/**
 * How much JavaScript each screen needs before it can show: the entry chunk plus the route module
 * and everything they import statically (not what loads later on demand), gzipped.
 * `npm run route-sizes -w web` prints the table recorded in docs/benchmarks.md; a unit test holds
 * the sign-in page to its budget.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export const DIST = resolve(dirname(fileURLToPath(import.meta.url)), '../dist');
/** The budget for the sign-in page's JavaScript, gzipped, and its number of files. */
export const SIGN_IN_BUDGET_BYTES = 150 * 1024;
export const SIGN_IN_BUDGET_FILES = 30;

export function readManifest(dist = DIST): Manifest {
  const file = join(dist, '.vite/manifest.json');
  if (!existsSync(file)) throw new Error(`No build manifest at ${file}: run \`npm run build\` first.`);
  return JSON.parse(readFileSync(file, 'utf8')) as Manifest;
}

function staticClosure(manifest: Manifest, key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const dep of manifest[key]?.imports ?? []) staticClosure(manifest, dep, seen);
  return seen;
}

const gzipSizes = new Map<string, number>();
function gzipSize(dist: string, file: string): number {
  let size = gzipSizes.get(file);
  if (size === undefined) {
    size = gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
    gzipSizes.set(file, size);
  }
  return size;
}

export interface RouteSize {
  module: string;
  files: number;
  gzipBytes: number;
}

/**
 * The entry and everything it imports statically: what every page loads first. The sign-in page,
 * the most common first page, is part of it (no second round trip to show it).
 */
export function entrySize(dist = DIST): RouteSize {
  const manifest = readManifest(dist);
  const entryKey = Object.keys(manifest).find((k) => manifest[k]?.isEntry);
  if (!entryKey) throw new Error('The build manifest has no entry.');
  const files = [...staticClosure(manifest, entryKey)].map((k) => manifest[k]!.file).filter((f) => f.endsWith('.js'));
  return { module: entryKey, files: files.length, gzipBytes: files.reduce((sum, f) => sum + gzipSize(dist, f), 0) };
}

/** Every route module the entry loads on demand, with the gzipped JavaScript needed to show it. */
export function routeSizes(dist = DIST): RouteSize[] {
  const manifest = readManifest(dist);
  const entryKey = Object.keys(manifest).find((k) => manifest[k]?.isEntry);
  if (!entryKey) throw new Error('The build manifest has no entry.');
  const entry = staticClosure(manifest, entryKey);
  return Object.keys(manifest)
    .filter((k) => manifest[k]?.isDynamicEntry && k.startsWith('src/'))
    .map((module) => {
      const keys = new Set([...entry, ...staticClosure(manifest, module)]);
      const files = [...keys].map((k) => manifest[k]!.file).filter((f) => f.endsWith('.js'));
      return { module, files: files.length, gzipBytes: files.reduce((sum, f) => sum + gzipSize(dist, f), 0) };
    })
    .sort((a, b) => a.module.localeCompare(b.module));
}

/**
 * The desktop terminal with everything it ever loads: the entry, the `/trading` route and the
 * desktop page with their static imports, and every chunk of the terminal and its chart that they
 * load on demand (the phone's modules excepted) — what the browser has received once the page has
 * prefetched its dialogs and tabs.
 */
export function terminalSize(dist = DIST): RouteSize {
  const manifest = readManifest(dist);
  const entryKey = Object.keys(manifest).find((k) => manifest[k]?.isEntry);
  if (!entryKey) throw new Error('The build manifest has no entry.');
  const keys = new Set<string>();
  for (const k of [entryKey, 'src/ui/signed-in-layout.tsx', 'src/terminal/trading-route.tsx', 'src/terminal/trading-page.tsx']) if (manifest[k]) staticClosure(manifest, k, keys);
  const terminalLazy = (k: string) => /^src\/(terminal|chart)\//.test(k) && !/phone/.test(k);
  for (let grew = true; grew; ) {
    grew = false;
    for (const k of [...keys]) {
      for (const d of manifest[k]?.dynamicImports ?? []) {
        if (!keys.has(d) && terminalLazy(d)) {
          staticClosure(manifest, d, keys);
          grew = true;
        }
      }
    }
  }
  const files = [...keys].map((k) => manifest[k]!.file).filter((f) => f.endsWith('.js'));
  return { module: 'src/terminal/trading-page.tsx', files: files.length, gzipBytes: files.reduce((sum, f) => sum + gzipSize(dist, f), 0) };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  /** `--dist=DIR`: a build made elsewhere (`vite build --outDir DIR`) instead of web/dist. */
  const dist = resolve(process.argv.find((a) => a.startsWith('--dist='))?.slice('--dist='.length) ?? DIST);
  console.log('| Route module | JS files | gzipped |');
  console.log('|---|---:|---:|');
  const entry = entrySize(dist);
  console.log(`| entry (with \`src/auth/sign-in-page.tsx\`) | ${entry.files} | ${(entry.gzipBytes / 1024).toFixed(1)} KB |`);
  for (const r of routeSizes(dist)) console.log(`| \`${r.module}\` | ${r.files} | ${(r.gzipBytes / 1024).toFixed(1)} KB |`);
  const terminal = terminalSize(dist);
  console.log(`| the desktop terminal with everything it loads later | ${terminal.files} | ${(terminal.gzipBytes / 1024).toFixed(1)} KB |`);
}
