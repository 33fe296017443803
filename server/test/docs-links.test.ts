import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, test } from 'node:test';
import { anchorsOf, brokenLinks, projectFiles, slug } from './helpers/doc-links';

/**
 * The project's docs stand alone: every relative link in its markdown (README, docs/, the packages'
 * READMEs) reaches a file that exists and, with a `#fragment`, a heading that exists; and nothing in
 * the project cites a file kept outside it (docs/design.md#the-project-stands-alone).
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const THIS_FILE = 'server/test/docs-links.test.ts';

describe('the link checker', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tp-doc-links-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('makes the anchors GitHub makes of headings, repeats numbered', () => {
    assert.equal(slug('Node.js 24 and better-sqlite3'), 'nodejs-24-and-better-sqlite3');
    assert.equal(slug('Several instances: orders and fail-over'), 'several-instances-orders-and-fail-over');
    assert.equal(slug('One data layer, two databases'), 'one-data-layer-two-databases');
    assert.equal(slug('`getProfit.php` and the [API](api.md)'), 'getprofitphp-and-the-api');
    const anchors = anchorsOf('# Title\n## Reading\n```sh\n# not a heading\n```\n### Reading\n<a id="kept"></a>\n');
    assert.deepEqual([...anchors].sort(), ['kept', 'reading', 'reading-1', 'title']);
  });

  test('reports a missing file, a missing heading and a link out of the project, and passes good links', () => {
    mkdirSync(join(dir, 'docs'));
    writeFileSync(join(dir, 'docs', 'b.md'), '# B\n\n## Real heading\n');
    writeFileSync(
      join(dir, 'docs', 'a.md'),
      [
        '# A',
        'Good: [b](b.md), [heading](b.md#real-heading), [here](#a), [web](https://example.com/x#y), [folder](../docs).',
        'Broken: [gone](missing.md), [anchor](b.md#no-such-heading), [out](../../elsewhere.md).',
        'Not links: `[code](nowhere.md)` and',
        '```md',
        '[fenced](nowhere.md)',
        '```',
      ].join('\n'),
    );
    assert.deepEqual(brokenLinks(dir, ['docs/a.md', 'docs/b.md']), [
      'docs/a.md:3: missing.md — no such file',
      'docs/a.md:3: b.md#no-such-heading — no heading or anchor "no-such-heading" in docs/b.md',
      'docs/a.md:3: ../../elsewhere.md — points outside the project',
    ]);
  });
});

describe("the project's docs", () => {
  test('every relative link in the markdown reaches an existing file and heading', () => {
    const markdown = projectFiles(ROOT, (name) => name.endsWith('.md'));
    assert.ok(markdown.includes('README.md') && markdown.includes('docs/design.md'), `markdown found: ${markdown.join(', ')}`);
    assert.deepEqual(brokenLinks(ROOT, markdown), []);
  });

  test('nothing cites a file kept outside the project, or a path of one machine', () => {
    // Spelled in pieces so that this file does not match itself.
    const outside = [
      new RegExp(`\\b${'DESIGN'}(\\.md\\b|\\s+section\\b)`),
      new RegExp(`\\.\\./${'shared'}/`),
      new RegExp(`\\b${'product-spec'}\\.md\\b`),
      new RegExp(`\\b(${'STYLE'}|${'UI'})\\.md\\b`),
      new RegExp(`(^|[\\s\`'"(])/${'work'}/`),
    ];
    const text = /\.(ts|tsx|mts|mjs|js|cjs|md|json|css|html|ya?ml)$|^run$/;
    const hits: string[] = [];
    for (const file of projectFiles(ROOT, (name) => text.test(name) && name !== 'package-lock.json')) {
      if (file === THIS_FILE) continue;
      readFileSync(join(ROOT, file), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (outside.some((re) => re.test(line))) hits.push(`${file}:${i + 1}: ${line.trim()}`);
        });
    }
    assert.deepEqual(hits, []);
  });
});
