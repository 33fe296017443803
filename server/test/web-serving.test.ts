import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startApp, type TestApp } from './helpers/app';
import { APP_JS, buildWebDist, INDEX_HTML, rawGet, STYLE_CSS, type WebDist } from './helpers/web-dist';

/**
 * The built web app served like a production site: precompressed brotli/gzip files chosen by
 * Accept-Encoding, hashed bundles cached for a year, index.html (also as the answer to client-side
 * routes) revalidated on every load, and /api paths never answered with the page.
 */

const IMMUTABLE = 'public, max-age=31536000, immutable';
const BR_GZIP = { 'accept-encoding': 'gzip, deflate, br, zstd' };

describe('serving the web app', () => {
  let dist: WebDist;
  let t: TestApp;
  before(async () => {
    dist = buildWebDist();
    t = await startApp({ config: { webDistDir: dist.dir } });
  });
  after(async () => {
    await t.close();
    dist.remove();
  });

  const get = (path: string, headers: Record<string, string> = {}) => rawGet(`${t.origin}${path}`, headers);
  const varies = (r: { headers: Record<string, unknown> }) => String(r.headers.vary ?? '').toLowerCase().split(/\s*,\s*/).includes('accept-encoding');

  test('a hashed bundle file is sent brotli-compressed to a browser that accepts it, cached for a year', async () => {
    const r = await get('/assets/index-3f9a1c2b.js', BR_GZIP);
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-encoding'], 'br');
    assert.match(String(r.headers['content-type']), /^(application|text)\/javascript/);
    assert.equal(r.headers['cache-control'], IMMUTABLE);
    assert.ok(varies(r), `vary: ${r.headers.vary}`);
    assert.equal(brotliDecompressSync(r.body).toString(), APP_JS);
    assert.ok(r.body.length < APP_JS.length / 10, 'the compressed file is what was sent');
    // Not a document: the resource-level headers only, not the page policies.
    assert.equal(r.headers['x-content-type-options'], 'nosniff');
    assert.equal(r.headers['cross-origin-resource-policy'], 'same-origin');
    assert.equal(r.headers['content-security-policy'], undefined);
    assert.equal(r.headers['x-frame-options'], undefined);
    const page = await get('/', BR_GZIP);
    assert.match(String(page.headers['content-security-policy']), /default-src 'self'/, 'the page keeps its policies');
    assert.equal(page.headers['x-frame-options'], 'SAMEORIGIN');
  });

  test("the page's policy allows the web app's inline script (the colour scheme before the first paint) by its hash, and no other inline script", async () => {
    const html = readFileSync(new URL('../../web/index.html', import.meta.url), 'utf8');
    const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => `'sha256-${createHash('sha256').update(m[1]!).digest('base64')}'`);
    assert.equal(inline.length, 1, 'web/index.html has its one inline script');
    const csp = String((await get('/')).headers['content-security-policy']);
    const scriptSrc = /script-src ([^;]*)/.exec(csp)?.[1]?.split(' ') ?? [];
    assert.deepEqual(scriptSrc, ["'self'", ...inline], `script-src: ${scriptSrc.join(' ')}`);
  });

  test('gzip when the browser takes only gzip, or when no brotli file exists; the plain file otherwise', async () => {
    const gz = await get('/assets/index-3f9a1c2b.js', { 'accept-encoding': 'gzip' });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.equal(gunzipSync(gz.body).toString(), APP_JS);
    assert.equal(gz.headers['cache-control'], IMMUTABLE);

    const css = await get('/assets/style-8d7e6f5a.css', BR_GZIP);
    assert.equal(css.headers['content-encoding'], 'gzip');
    assert.match(String(css.headers['content-type']), /^text\/css/);
    assert.equal(gunzipSync(css.body).toString(), STYLE_CSS);

    const plain = await get('/assets/index-3f9a1c2b.js');
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(plain.body.toString(), APP_JS);
    assert.ok(varies(plain), 'the uncompressed answer varies on Accept-Encoding too, for shared caches');
    assert.equal(plain.headers['cache-control'], IMMUTABLE);

    const onlyBr = await get('/assets/style-8d7e6f5a.css', { 'accept-encoding': 'br' });
    assert.equal(onlyBr.headers['content-encoding'], undefined);
    assert.equal(onlyBr.body.toString(), STYLE_CSS);
  });

  test('index.html at / is compressed and revalidated on every load (no-cache, with a validator)', async () => {
    const r = await get('/', BR_GZIP);
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-encoding'], 'br');
    assert.match(String(r.headers['content-type']), /^text\/html/);
    assert.equal(r.headers['cache-control'], 'no-cache');
    assert.ok(varies(r));
    assert.equal(brotliDecompressSync(r.body).toString(), INDEX_HTML);
    const validator: Record<string, string> = r.headers.etag ? { 'if-none-match': String(r.headers.etag) } : { 'if-modified-since': String(r.headers['last-modified']) };
    const again = await get('/', { ...BR_GZIP, ...validator });
    assert.equal(again.status, 304);
  });

  test('client-side routes answer index.html the same way: compressed, no-cache', async () => {
    for (const path of ['/dashboard/home', '/trading', '/reset-password?token=abc', '/dashboard/legal/terms']) {
      const r = await get(path, BR_GZIP);
      assert.equal(r.status, 200, path);
      assert.match(String(r.headers['content-type']), /^text\/html/, path);
      assert.equal(r.headers['cache-control'], 'no-cache', path);
      assert.equal(r.headers['content-encoding'], 'br', path);
      assert.ok(varies(r), path);
      assert.equal(brotliDecompressSync(r.body).toString(), INDEX_HTML, path);
    }
    const plain = await get('/dashboard/home');
    assert.equal(plain.body.toString(), INDEX_HTML);
    assert.equal(plain.headers['cache-control'], 'no-cache');
  });

  test('other files are revalidated too; a missing bundle file is a 404, never the page', async () => {
    const icon = await get('/favicon.svg', BR_GZIP);
    assert.equal(icon.status, 200);
    assert.equal(icon.headers['content-encoding'], undefined);
    assert.equal(icon.headers['cache-control'], 'no-cache');

    const missing = await get('/assets/index-00000000.js', BR_GZIP);
    assert.equal(missing.status, 404);
    assert.doesNotMatch(String(missing.headers['content-type']), /html/);
    assert.notEqual(missing.headers['cache-control'], IMMUTABLE);
  });

  test('/api paths never fall back to index.html', async () => {
    for (const path of ['/api/nothing', '/api/dashboard/home', '/api', '/api/assets/index-3f9a1c2b.js']) {
      const r = await get(path, BR_GZIP);
      assert.equal(r.status, 404, path);
      assert.match(String(r.headers['content-type']), /application\/json/, path);
      assert.deepEqual(JSON.parse(r.body.toString()), { status: 'Failure', message: 'No such API call.' }, path);
    }
  });

  test('HEAD of the page and of a bundle file answers the same headers without a body', async () => {
    const r = await rawGet(`${t.origin}/assets/index-3f9a1c2b.js`, BR_GZIP, 'HEAD');
    assert.equal(r.status, 200);
    assert.equal(r.headers['cache-control'], IMMUTABLE);
    assert.equal(r.body.length, 0);
  });
});
