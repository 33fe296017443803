/**
 * Writes the signed-in pages' frames (src/page-frames.tsx) into a build's output directory as
 * `page-frames.json`, which the server reads beside `route-preloads.json`. Run by the build
 * (build/page-frames.ts) after the bundle is written: `node --import tsx scripts/render-page-frames.ts DIR`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderPageFrames } from '../src/page-frames';

const outDir = process.argv[2];
if (!outDir) throw new Error('usage: render-page-frames.ts OUT_DIR');
writeFileSync(join(outDir, 'page-frames.json'), JSON.stringify({ frames: renderPageFrames() }));
