import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * Checks the relative links of the project's markdown the way GitHub renders them: a link's file
 * (or folder) must exist, and a `#fragment` into a markdown file must name one of its headings
 * (GitHub's slug: lower case, punctuation dropped, spaces as hyphens, `-1`, `-2` … for repeats) or
 * an `<a id>` / `<a name>` in it. Links with a scheme (`https:`, `mailto:`) are not followed.
 */

/** Folders never walked: installed packages, build output, local data, test artifacts. */
const SKIPPED_DIRS = new Set(['.git', 'node_modules', 'dist', 'data', 'coverage']);
const SKIPPED_PATHS = [join('web', 'e2e', 'artifacts')];

/** Every file under `root` whose name passes `wanted`, as paths relative to `root`, sorted. */
export function projectFiles(root: string, wanted: (name: string) => boolean): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      const rel = relative(root, path);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name) && !SKIPPED_PATHS.includes(rel)) walk(path);
      } else if (entry.isFile() && wanted(entry.name)) {
        found.push(rel);
      }
    }
  };
  walk(root);
  return found.sort();
}

/** The text outside fenced code blocks, line by line (a code block's lines become empty). */
function proseLines(markdown: string): string[] {
  let fence: string | null = null;
  return markdown.split('\n').map((line) => {
    const opener = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (opener?.startsWith(fence)) fence = null;
      return '';
    }
    if (opener) {
      fence = opener;
      return '';
    }
    return line;
  });
}

/** GitHub's anchor for a heading's text (after its inline markup is rendered). */
export function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // links and images: their text
    .replace(/<[^>]+>/g, '') // inline HTML tags
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** Every anchor a markdown file offers: its headings' slugs (repeats numbered) and explicit ids. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(markdown)) {
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading !== undefined) {
      const base = slug(heading);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const [, id] of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) if (id) anchors.add(id);
  }
  return anchors;
}

export interface DocLink {
  /** The markdown file the link is in, relative to the root. */
  file: string;
  line: number;
  target: string;
}

/** The links of a markdown file that point inside the project: inline `[text](target)` and reference definitions. */
export function relativeLinks(file: string, markdown: string): DocLink[] {
  const links: DocLink[] = [];
  proseLines(markdown).forEach((raw, index) => {
    const line = raw.replace(/(`+)[^`]*?\1/g, ''); // code spans are not links
    const targets = [
      ...line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g),
      ...line.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/g),
    ].flatMap(([, target]) => (target ? [target] : []));
    for (const target of targets) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue;
      links.push({ file, line: index + 1, target });
    }
  });
  return links;
}

/** What is wrong with each broken link of the given markdown files (paths relative to `root`). */
export function brokenLinks(root: string, markdownFiles: string[]): string[] {
  const anchorCache = new Map<string, Set<string>>();
  const anchorsIn = (path: string): Set<string> => {
    let anchors = anchorCache.get(path);
    if (!anchors) anchorCache.set(path, (anchors = anchorsOf(readFileSync(path, 'utf8'))));
    return anchors;
  };
  const problems: string[] = [];
  for (const file of markdownFiles) {
    const from = resolve(root, file);
    for (const link of relativeLinks(file, readFileSync(from, 'utf8'))) {
      const where = `${link.file}:${link.line}: ${link.target}`;
      const hash = link.target.indexOf('#');
      const pathPart = decodeURI(hash < 0 ? link.target : link.target.slice(0, hash));
      const fragment = hash < 0 ? null : decodeURIComponent(link.target.slice(hash + 1));
      const target = pathPart === '' ? from : pathPart.startsWith('/') ? join(root, pathPart) : resolve(dirname(from), pathPart);
      if (!(target + sep).startsWith(resolve(root) + sep)) {
        problems.push(`${where} — points outside the project`);
        continue;
      }
      if (!existsSync(target)) {
        problems.push(`${where} — no such file`);
        continue;
      }
      if (fragment === null || fragment === '') continue;
      if (!target.endsWith('.md') || statSync(target).isDirectory()) continue;
      if (!anchorsIn(target).has(fragment)) problems.push(`${where} — no heading or anchor "${fragment}" in ${relative(root, target)}`);
    }
  }
  return problems;
}
