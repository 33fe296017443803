import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import react from '@vitejs/plugin-react';
import { build, type Plugin } from 'vite';
import type * as PageFramesSource from '../src/page-frames';

const WEB_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Where in the build's output the server finds the frames' module (server/src/plugins/web-app.ts). */
const FRAMES_MODULE_DIR = 'ssr';

/** What the frames' module exports (src/page-frames.tsx). */
export type FramesModule = typeof PageFramesSource;

/**
 * Bundles src/page-frames.tsx for Node into `outDir` (all of it, React and Mantine included, so the
 * module needs nothing installed beside it) and returns its path. The CSS modules' class names are
 * those of the browser's build: both derive them from the same files the same way, and the frame
 * must carry the names the page's style sheets use.
 */
export async function buildFramesModule(outDir: string): Promise<string> {
  await build({
    configFile: false,
    root: WEB_ROOT,
    mode: 'production',
    logLevel: 'warn',
    publicDir: false,
    plugins: [react()],
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    ssr: { noExternal: true },
    build: { ssr: 'src/page-frames.tsx', outDir, emptyOutDir: true, minify: false, copyPublicDir: false, rolldownOptions: { output: { entryFileNames: 'page-frames.js' } } },
  });
  return join(outDir, 'page-frames.js');
}

/** Loads a frames module built by `buildFramesModule` (a fresh copy each time, for a rebuilt one). */
export async function loadFramesModule(path: string): Promise<FramesModule> {
  return (await import(`${pathToFileURL(path).href}?at=${Date.now()}`)) as FramesModule;
}

/**
 * The signed-in pages' frames (src/page-frames.tsx: the page as the app first renders it), built
 * with the web app: the dashboard home's, which needs no data, rendered now into
 * `page-frames.json`; and the module itself, in `ssr/`, with which the server renders the phone
 * terminal's frame for each request, with the prices of the moment. The build fails if the frames
 * do not render.
 */
export function pageFrames(): Plugin {
  let outDir = '';
  return {
    name: 'tradeport-page-frames',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const frames = await loadFramesModule(await buildFramesModule(join(outDir, FRAMES_MODULE_DIR)));
      writeFileSync(join(outDir, 'page-frames.json'), JSON.stringify({ frames: frames.renderPageFrames() }));
    },
  };
}
