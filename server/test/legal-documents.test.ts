import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from './helpers/app';
import { Client } from './helpers/client';

/**
 * The Legal Terms and Policies pages: operator-editable markdown served as HTML to anyone, with
 * raw HTML escaped, ids that cannot leave the directory, and edits visible without a restart.
 */

const NO_SUCH_DOCUMENT = { status: 'Failure', message: 'No such document.' };
const titles = (docs: { id: string; title: string }[]) => docs.map(({ id, title }) => ({ id, title }));

describe('the shipped legal documents', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp();
  });
  after(() => t.close());

  test('getLegalDocuments lists the four documents in the documented order, signed out', async () => {
    const r = await new Client(t).get('/getLegalDocuments.php');
    assert.equal(r.status, 200);
    assert.equal(r.body.status, 'success');
    assert.deepEqual(titles(r.body.data), [
      { id: 'terms', title: 'Terms of Business' },
      { id: 'privacy', title: 'Privacy Policy' },
      { id: 'risk-disclosure', title: 'Risk Disclosure' },
      { id: 'aml', title: 'Anti-Money-Laundering Policy' },
    ]);
    for (const d of r.body.data) assert.match(d.version, /^[0-9a-f]{16}$/);
  });

  test('getLegalDocument answers the rendered body without its title heading, and when the file changed', async () => {
    const r = await new Client(t).get('/getLegalDocument.php?id=risk-disclosure');
    assert.equal(r.status, 200);
    assert.equal(r.body.status, 'success');
    const doc = r.body.data;
    assert.deepEqual(Object.keys(doc).sort(), ['html', 'id', 'title', 'updatedAt', 'version']);
    assert.equal(doc.id, 'risk-disclosure');
    assert.equal(doc.title, 'Risk Disclosure');
    assert.match(doc.html, /<h2>Leverage<\/h2>/);
    assert.doesNotMatch(doc.html, /<h1>/);
    assert.ok(!Number.isNaN(Date.parse(doc.updatedAt)));
    for (const { id } of (await new Client(t).get('/getLegalDocuments.php')).body.data as { id: string }[]) {
      const d = await new Client(t).get(`/getLegalDocument.php?id=${id}`);
      assert.equal(d.status, 200, id);
      assert.ok(d.body.data.html.length > 1000, `${id} has real content`);
      assert.doesNotMatch(d.body.data.html, /lorem|ipsum|TODO/i, id);
    }
  });

  test('unknown, malformed and path-traversing ids answer 404 No such document.', async () => {
    const ids = ['nothing', '', 'TERMS', '../config/instruments', '..%2Fconfig%2Finstruments', 'terms.md', '%2E%2E', 'a'.repeat(65), 'terms/../privacy'];
    for (const id of ids) {
      const r = await new Client(t).get(`/getLegalDocument.php?id=${id}`);
      assert.equal(r.status, 404, id);
      assert.deepEqual(r.body, NO_SUCH_DOCUMENT, id);
    }
    // NUL is refused in every input, as everywhere in the API.
    assert.deepEqual((await new Client(t).get('/getLegalDocument.php?id=terms%00')).body, { status: 'Failure', message: 'Text must not contain NUL characters.' });
    const missing = await new Client(t).get('/getLegalDocument.php');
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, NO_SUCH_DOCUMENT);
  });
});

describe('LEGAL_DIR: operator documents', () => {
  let t: TestApp;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tp-legal-'));
    writeFileSync(join(dir, 'terms.md'), '# Our Terms\n\nFirst version.\n');
    writeFileSync(join(dir, 'cookies.md'), 'No heading here.\n');
    writeFileSync(join(dir, 'aml.md'), '# AML\n\nText.\n');
    writeFileSync(join(dir, 'Not-Valid.md'), '# Skipped\n');
    writeFileSync(join(dir, 'notes.txt'), '# Not markdown\n');
    writeFileSync(
      join(dir, 'unsafe.md'),
      [
        '# Unsafe <b>title</b>',
        '',
        'Inline <script>alert(1)</script> and <img src=x onerror=alert(1)>.',
        '',
        '<div onclick="alert(1)">block html</div>',
        '',
        '[bad](javascript:alert(1)) [good](https://example.com/terms) [mail](mailto:support@example.com) [here](/dashboard/home)',
        '',
        '![tracker](https://tracker.example/pixel.png)',
      ].join('\n'),
    );
    t = await startApp({ config: { legalDir: dir } });
  });
  after(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('lists the usual documents first in their order, then others by id; title falls back to the id', async () => {
    const r = await new Client(t).get('/getLegalDocuments.php');
    assert.deepEqual(titles(r.body.data), [
      { id: 'terms', title: 'Our Terms' },
      { id: 'aml', title: 'AML' },
      { id: 'cookies', title: 'cookies' },
      { id: 'unsafe', title: 'Unsafe <b>title</b>' },
    ]);
  });

  test('raw HTML in the markdown is escaped, never passed through; unsafe links and remote images become text', async () => {
    const { html } = (await new Client(t).get('/getLegalDocument.php?id=unsafe')).body.data;
    assert.doesNotMatch(html, /<script|<img|<div|onclick="|href="javascript/i);
    assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    assert.match(html, /&lt;div onclick=&quot;alert\(1\)&quot;&gt;block html&lt;\/div&gt;/);
    assert.match(html, /bad <a href="https:\/\/example.com\/terms">good<\/a>/);
    assert.match(html, /<a href="mailto:support@example.com">mail<\/a>/);
    assert.match(html, /<a href="\/dashboard\/home">here<\/a>/);
    assert.match(html, /tracker/);
  });

  test('an edited file shows on the next request, without a restart', async () => {
    const before = (await new Client(t).get('/getLegalDocument.php?id=terms')).body.data;
    assert.match(before.html, /First version/);
    writeFileSync(join(dir, 'terms.md'), '# Our New Terms\n\nSecond version, a little longer.\n');
    const later = new Date(Math.ceil(Date.parse(before.updatedAt) / 1000) * 1000 + 60_000);
    utimesSync(join(dir, 'terms.md'), later, later);
    const after = (await new Client(t).get('/getLegalDocument.php?id=terms')).body.data;
    assert.match(after.html, /Second version/);
    assert.equal(after.title, 'Our New Terms');
    assert.equal(after.updatedAt, later.toISOString());
    assert.notEqual(after.version, before.version, 'an edit is a new version');
    assert.equal((await new Client(t).get('/getLegalDocuments.php')).body.data[0].title, 'Our New Terms');
  });

  test('a new file appears and a removed one answers 404', async () => {
    writeFileSync(join(dir, 'complaints.md'), '# Complaints Procedure\n\nWrite to us.\n');
    rmSync(join(dir, 'aml.md'));
    const list = (await new Client(t).get('/getLegalDocuments.php')).body.data as { id: string }[];
    assert.deepEqual(list.map((d) => d.id), ['terms', 'complaints', 'cookies', 'unsafe']);
    assert.deepEqual((await new Client(t).get('/getLegalDocument.php?id=aml')).body, NO_SUCH_DOCUMENT);
  });
});
