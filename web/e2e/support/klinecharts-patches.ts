/**
 * KLineChart's ES build as installed (with the repo's patches in `patches/`, which patch-package
 * applies on install) and as published (those patches taken back out), for the browser test and the
 * benchmark that hold the patched chart to KLineChart's own.
 *
 * The published file is rebuilt from the installed one by reverse-applying the patch files, last
 * first: a patch whose lines are not in the installed file exactly (the patches were not applied, or
 * an install changed the file) throws rather than giving a wrong "original".
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ES_BUILD = join(dirname(createRequire(import.meta.url).resolve('klinecharts')), 'index.esm.js');
const PATCHES = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'patches');

/** The repo's KLineChart patch files, in the order patch-package applies them. */
export function kLineChartPatches(): Array<{ name: string; text: string }> {
  return readdirSync(PATCHES)
    .filter((f) => f.startsWith('klinecharts+') && f.endsWith('.patch'))
    .sort()
    .map((f) => ({ name: f.replace(/^klinecharts\+[^+]+\+\d+\+|\.patch$/g, ''), text: readFileSync(join(PATCHES, f), 'utf8') }));
}

interface Hunk {
  /** Where the hunk starts (0-based) in the file before the patch, and after it. */
  start: number;
  end: number;
  before: string[];
  after: string[];
}

/** The hunks of a patch of one file (patch-package writes one diff per file: here only index.esm.js). */
function hunks(patch: string): Hunk[] {
  const files = patch.match(/^diff --git .*$/gm) ?? [];
  if (files.length !== 1 || !files[0]!.endsWith('/dist/index.esm.js')) throw new Error(`a KLineChart patch should change dist/index.esm.js only: ${files.join('; ')}`);
  const out: Hunk[] = [];
  let hunk: Hunk | undefined;
  for (const line of patch.split('\n')) {
    const header = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (header) {
      hunk = { start: Number(header[1]) - 1, end: Number(header[2]) - 1, before: [], after: [] };
      out.push(hunk);
    } else if (hunk && (line.startsWith(' ') || line.startsWith('-') || line.startsWith('+'))) {
      if (line[0] !== '+') hunk.before.push(line.slice(1));
      if (line[0] !== '-') hunk.after.push(line.slice(1));
    } else if (hunk && line.startsWith('\\')) {
      throw new Error('a patch of a file without a final newline is not expected here');
    }
  }
  return out;
}

/**
 * `code` with `patch` applied (or taken back out, `reverse`): each hunk's lines found exactly, the
 * nearest place to where the patch says (a patch applied without an earlier one finds its lines
 * shifted), or an error naming the hunk.
 */
export function applyPatch(code: string, patch: string, reverse = false): string {
  const lines = code.split('\n');
  let shift = 0;
  for (const h of hunks(patch)) {
    const [from, to, start] = reverse ? [h.after, h.before, h.end] : [h.before, h.after, h.start];
    const matches = (at: number) => at >= 0 && at + from.length <= lines.length && from.every((l, i) => lines[at + i] === l);
    const expected = start + shift;
    let at = -1;
    for (let d = 0; d < lines.length && at < 0; d++) {
      if (matches(expected - d)) at = expected - d;
      else if (matches(expected + d)) at = expected + d;
    }
    if (at < 0) throw new Error(`a hunk of a KLineChart patch (line ${start + 1}) is not in the file: ${from.find((l) => l.trim() !== '') ?? ''}`);
    lines.splice(at, from.length, ...to);
    shift = at - start + to.length - from.length;
  }
  return lines.join('\n');
}

/** KLineChart's ES build as installed: with every patch applied. */
export function installedKLineChart(): string {
  return readFileSync(ES_BUILD, 'utf8');
}

/** KLineChart's ES build as published: the installed one with every patch taken back out, last first. */
export function publishedKLineChart(): string {
  return kLineChartPatches().reduceRight((code, p) => applyPatch(code, p.text, true), installedKLineChart());
}

/** KLineChart as published with the named patches applied, in the repo's order. */
export function kLineChartWith(names: string[]): string {
  const patches = kLineChartPatches();
  for (const n of names) if (!patches.some((p) => p.name === n)) throw new Error(`no KLineChart patch named ${n}`);
  return patches.filter((p) => names.includes(p.name)).reduce((code, p) => applyPatch(code, p.text), publishedKLineChart());
}

/** KLineChart's ES module as a page script that puts its exports on `window[name]`. */
export function pageScript(code: string, name: string): string {
  const body = code.replace(/export \{([^}]*)\};?\s*$/, (_, names: string) => `window.${name} = {${names}};`);
  if (body === code) throw new Error("KLineChart's exports not found");
  // The ES build reads process.env.NODE_ENV, which a bundler replaces.
  return `(function () {\n'use strict';\nvar process = { env: { NODE_ENV: 'production' } };\n${body}\n})();`;
}
