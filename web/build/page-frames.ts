import { spawnSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

const WEB_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Renders the signed-in pages' frames (src/page-frames.tsx: the page as the app first renders it,
 * before its data) into the build's output as `page-frames.json`, for the server to send inside
 * the page. The app's components run in Node for this, through tsx in a process of its own (the
 * build itself does not load TypeScript JSX); the build fails if they do not render.
 */
export function pageFrames(): Plugin {
  let outDir = '';
  return {
    name: 'tradeport-page-frames',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/render-page-frames.ts', outDir], { cwd: WEB_ROOT, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
      if (run.status !== 0) throw new Error(`Rendering the page frames failed (exit ${run.status ?? run.signal})`);
    },
  };
}
