import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startApp, type TestApp } from './helpers/app';
import { APP_JS, buildWebDist, INDEX_HTML, PAGE_FRAMES, rawGet, STYLE_CSS, type WebDist } from './helpers/web-dist';
import { signedInAdmin, signedInTrader } from './helpers/client';
import { deviceOf, intoHead, pageDataElement } from '../src/plugins/web-app';
import { pushTicks, sleep } from './helpers/trading';

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

  describe("a signed-in page names the modules it loads lazily, so they download beside the entry", () => {
    const SIGNED_IN = { ...BR_GZIP, cookie: 'tp_session=abc' };
    const html = (r: { headers: Record<string, unknown>; body: Buffer }) => (r.headers['content-encoding'] === 'br' ? brotliDecompressSync(r.body) : r.headers['content-encoding'] === 'gzip' ? gunzipSync(r.body) : r.body).toString();
    const preloaded = (page: string) => [...page.matchAll(/<link rel="modulepreload" fetchpriority="low" crossorigin href="([^"]+)">/g)].map((m) => m[1]);

    test('the dashboard home names its layout, shell and page, at low priority, inside the head', async () => {
      const r = await get('/dashboard/home', SIGNED_IN);
      assert.equal(r.status, 200);
      assert.equal(r.headers['content-encoding'], 'br');
      // Made for the request's session (its role's reads): never for a shared cache.
      assert.equal(r.headers['cache-control'], 'private, no-cache');
      assert.match(String(r.headers['content-type']), /^text\/html/);
      const page = html(r);
      assert.deepEqual(preloaded(page), ['/assets/signed-in-1.js', '/assets/shell-2.js', '/assets/home-3.js']);
      assert.equal(page.replace(/<link rel="modulepreload"[^>]*>/g, ''), INDEX_HTML, 'the page is otherwise the built one');
      assert.ok(page.indexOf('modulepreload') < page.indexOf('</head>'));
      assert.match(String(r.headers['content-security-policy']), /default-src 'self'/, 'the page keeps its policies');
    });

    test('another dashboard page names the layout and shell only; a path outside the routes, nothing', async () => {
      assert.deepEqual(preloaded(html(await get('/dashboard/tools', SIGNED_IN))), ['/assets/signed-in-1.js', '/assets/shell-2.js']);
      const other = await get('/forgot-password', SIGNED_IN);
      assert.equal(html(other), INDEX_HTML);
    });

    test("the terminal names the phone's layout to a phone and the desktop's to a desktop, and neither when it cannot tell", async () => {
      const phone = html(await get('/trading', { ...SIGNED_IN, 'sec-ch-ua-mobile': '?1' }));
      assert.deepEqual(preloaded(phone), ['/assets/signed-in-1.js', '/assets/trading-route-4.js', '/assets/phone-terminal-5.js']);
      const desktop = html(await get('/trading', { ...SIGNED_IN, 'sec-ch-ua-mobile': '?0' }));
      assert.deepEqual(preloaded(desktop), ['/assets/signed-in-1.js', '/assets/trading-route-4.js', '/assets/trading-page-6.js']);
      assert.match(desktop, /<link rel="preload" as="style" fetchpriority="low" crossorigin href="\/assets\/trading-page-7.css">/);
      const unknown = html(await get('/trading', { cookie: 'tp_session=abc', 'user-agent': 'curl/8' }));
      assert.deepEqual(preloaded(unknown), ['/assets/signed-in-1.js', '/assets/trading-route-4.js']);
    });

    test('a visitor without a session gets the plain page (sign-in needs none of those modules)', async () => {
      const r = await get('/dashboard/home', BR_GZIP);
      assert.equal(brotliDecompressSync(r.body).toString(), INDEX_HTML);
    });

    test('each variant has its own validator, answers 304 to it, and is sent gzip or plain as accepted', async () => {
      const first = await get('/dashboard/home', SIGNED_IN);
      const etag = String(first.headers.etag);
      assert.match(etag, /^"rp-/);
      assert.equal((await get('/dashboard/home', { ...SIGNED_IN, 'if-none-match': etag })).status, 304);
      const tools = await get('/dashboard/tools', { ...SIGNED_IN, 'if-none-match': etag });
      assert.equal(tools.status, 200, 'another page is another variant');
      const gz = await get('/dashboard/home', { cookie: 'tp_session=abc', 'accept-encoding': 'gzip' });
      assert.equal(gz.headers['content-encoding'], 'gzip');
      assert.equal(gunzipSync(gz.body).toString(), html(first));
      const plain = await get('/dashboard/home', { cookie: 'tp_session=abc' });
      assert.equal(plain.headers['content-encoding'], undefined);
      assert.equal(plain.body.toString(), html(first));
      assert.match(String(first.headers.vary), /Cookie/);
    });

    const reads = (page: string) => [...page.matchAll(/<link rel="preload" as="fetch" crossorigin="anonymous" href="([^"]+)">/g)].map((m) => m[1]);

    test("a signed-in page names the reads it makes as it opens, by the session's role, so the answers come with its modules", async () => {
      const trader = await signedInTrader(t);
      const admin = await signedInAdmin(t);
      const asTrader = { ...BR_GZIP, cookie: trader.client.cookieHeader };
      const asAdmin = { ...BR_GZIP, cookie: admin.cookieHeader };

      const home = html(await get('/dashboard/home', asTrader));
      assert.deepEqual(reads(home), ['/api/dashboard/customer/getProfileDetails.php', '/api/dashboard/customer/getTradesHistory.php']);
      assert.deepEqual(preloaded(home), ['/assets/signed-in-1.js', '/assets/shell-2.js', '/assets/home-3.js'], 'the modules are named as before');
      assert.ok(home.indexOf('as="fetch"') < home.indexOf('modulepreload'), 'the small reads come first');
      assert.equal(home.replace(/<link rel="(modulepreload|preload)"[^>]*>/g, ''), INDEX_HTML, 'the page is otherwise the built one');
      // An administrator's home does not ask for a trade history.
      assert.deepEqual(reads(html(await get('/dashboard/home', asAdmin))), ['/api/dashboard/customer/getProfileDetails.php']);

      // The terminal's reads, written as attributes (the query's & and quotes escaped), for a trader only.
      const terminal = html(await get('/trading', { ...asTrader, 'sec-ch-ua-mobile': '?0' }));
      assert.deepEqual(reads(terminal), ['/api/platform/getTrades.php', '/api/platform/getPendingOrders.php?status=pending&amp;x=&quot;&lt;y&gt;&quot;']);
      assert.deepEqual(reads(html(await get('/trading', asAdmin))), []);

      // A page without reads, a cookie of no session and a signed-out session name none.
      assert.deepEqual(reads(html(await get('/dashboard/tools', asTrader))), []);
      assert.deepEqual(reads(html(await get('/dashboard/home', SIGNED_IN))), []);
      const signedOut = await signedInTrader(t);
      const cookie = signedOut.client.cookieHeader;
      assert.equal((await signedOut.client.post('/logout.php')).body.status, 'success');
      assert.deepEqual(reads(html(await get('/dashboard/home', { ...BR_GZIP, cookie }))), []);
    });

    test('the read named in the page is answered as the app would be: the same body for the same session', async () => {
      const trader = await signedInTrader(t);
      const page = html(await get('/dashboard/home', { ...BR_GZIP, cookie: trader.client.cookieHeader }));
      const [profilePath] = reads(page);
      const viaPreload = await get(profilePath!, { cookie: trader.client.cookieHeader });
      assert.equal(viaPreload.status, 200);
      const viaApp = await trader.client.get('/dashboard/customer/getProfileDetails.php');
      assert.deepEqual(JSON.parse(viaPreload.body.toString()), viaApp.body);
    });

    test("a phone signed in gets the page's first paint (its frame, for the session's role) in the root element, and the page's modules once it is on screen", async () => {
      const trader = await signedInTrader(t);
      const admin = await signedInAdmin(t);
      const phone = { ...BR_GZIP, 'sec-ch-ua-mobile': '?1' };
      const page = html(await get('/dashboard/home', { ...phone, cookie: trader.client.cookieHeader }));
      const frameOf = (p: string) => /<div id="root" data-page-frame="\/dashboard\/home">([\s\S]*?)<\/div><\/body>/.exec(p)?.[1];
      assert.equal(frameOf(page), PAGE_FRAMES.frames[0]!.html, "the trader's frame, inserted as is");
      assert.equal(frameOf(html(await get('/dashboard/home', { ...phone, cookie: admin.cookieHeader }))), PAGE_FRAMES.frames[1]!.html, "an administrator's frame");
      // The modules wait in a template (index.html's script adds them after the first paint); the reads do not.
      const template = /<template id="after-first-paint">([\s\S]*?)<\/template>/.exec(page)?.[1] ?? '';
      assert.deepEqual(preloaded(template), ['/assets/signed-in-1.js', '/assets/shell-2.js', '/assets/home-3.js']);
      assert.deepEqual(preloaded(page.replace(/<template[\s\S]*?<\/template>/, '')), [], 'no module is named outside the template');
      assert.deepEqual(reads(page), ['/api/dashboard/customer/getProfileDetails.php', '/api/dashboard/customer/getTradesHistory.php']);
      const rest = page.replace(/<template[\s\S]*?<\/template>/, '').replace(/<link rel="preload"[^>]*>/g, '').replace(/ data-page-frame="[^"]*">[\s\S]*?<\/div><\/body>/, '></div></body>');
      assert.equal(rest, INDEX_HTML, 'the page is otherwise the built one');
    });

    test("a trader's phone gets the terminal with a frame rendered for the request from the instruments and the quote book, the quotes it shows and the symbols in the page, and its style sheets in the head", async () => {
      const trader = await signedInTrader(t);
      const phone = { ...BR_GZIP, 'sec-ch-ua-mobile': '?1', cookie: trader.client.cookieHeader };
      await pushTicks(t, [
        { symbol: 'EURUSD', bid: 1.08512, ask: 1.08527 },
        { symbol: 'GBPUSD', bid: 1.26431, ask: 1.26446 },
      ]);
      const first = await get('/trading', phone);
      assert.equal(first.status, 200);
      assert.equal(first.headers['content-encoding'], 'br');
      assert.equal(first.headers.etag, undefined, 'no validator: the page holds the prices of its moment');
      assert.equal(first.headers['cache-control'], 'private, no-cache', 'not for a shared cache');
      const page = html(first);
      const listed = t.app.market.listed;
      const frame = /<div id="root" data-page-frame="\/trading">([\s\S]*?)<\/div><\/body>/.exec(page)?.[1];
      assert.match(frame ?? '', /^<main data-render="\d+">/);
      assert.equal(frame?.replace(/ data-render="\d+"/, ''), `<main>terminal frame $& ${listed.length} symbols; EURUSD 1.08512/1.08527, GBPUSD 1.26431/1.26446</main>`, "rendered from every listed instrument and the book's quotes, and inserted as is");

      // The page carries the symbols as getMainCurrencies answers them, and the quotes the frame shows.
      const data = JSON.parse(/<script type="application\/json" id="page-data">([\s\S]*?)<\/script>/.exec(page)?.[1] ?? 'null') as { symbols: unknown; quotes: { symbol: string }[] };
      assert.deepEqual(data.symbols, (await trader.client.get('/platform/getMainCurrencies.php')).body);
      assert.deepEqual(
        data.quotes.map((q) => q.symbol),
        listed.slice(0, 2).map((i) => i.symbol),
      );
      assert.deepEqual(reads(page), ['/api/platform/getPendingOrders.php?status=pending&amp;x=&quot;&lt;y&gt;&quot;'], 'a read the page answers is not also preloaded');
      const template = /<template id="after-first-paint">([\s\S]*?)<\/template>/.exec(page)?.[1] ?? '';
      assert.deepEqual(preloaded(template), ['/assets/signed-in-1.js', '/assets/trading-route-4.js', '/assets/phone-terminal-5.js'], 'the modules, after the first paint');
      // The frame is drawn with the phone terminal's classes: its style sheet is the page's own, before the first paint.
      const head = page.slice(0, page.indexOf('</head>')).replace(/<template[\s\S]*?<\/template>/, '');
      assert.ok(head.includes('<link rel="stylesheet" crossorigin href="/assets/phone-terminal-8.css">'), 'the style sheet in the head');
      assert.ok(!template.includes('phone-terminal-8.css'), 'and not preloaded again');

      // A request a moment later has the next prices.
      await pushTicks(t, [{ symbol: 'EURUSD', bid: 1.08601, ask: 1.08616 }]);
      await sleep(300);
      assert.match(html(await get('/trading', phone)), /EURUSD 1\.08601\/1\.08616/);
    });

    test("one rendering of the phone terminal's page serves every trader's phone asking at the same moment", async () => {
      const traders = await Promise.all([signedInTrader(t), signedInTrader(t)]);
      const pages = await Promise.all(Array.from({ length: 6 }, (_, i) => get('/trading', { ...BR_GZIP, 'sec-ch-ua-mobile': '?1', cookie: traders[i % 2]!.client.cookieHeader })));
      const renders = new Set(pages.map((p) => /data-render="(\d+)"/.exec(html(p))?.[1]));
      assert.ok(!renders.has(undefined), 'each has the frame');
      // Six at once: one rendering, or two should the quarter second end among them.
      assert.ok(renders.size <= 2, `${renders.size} renderings for six requests`);
    });

    test("text put in a page's head is put as is: a $ pattern in it is not read as one", () => {
      assert.equal(intoHead('<head><title>x</title></head><body></body>', "<i>$` $& $' $$</i>"), "<head><title>x</title><i>$` $& $' $$</i></head><body></body>");
    });

    test("the page's data cannot end its element: a < in it is written as its escape", () => {
      const element = pageDataElement({ text: '</script><script>alert(1)</script>' });
      assert.equal(element.match(/<\/script>/g)?.length, 1, 'only the element\'s own end');
      assert.deepEqual(JSON.parse(/>(.*)<\/script>$/.exec(element)?.[1] ?? ''), { text: '</script><script>alert(1)</script>' });
    });

    test("the terminal's live frame is a trader's on a phone only; the frames module itself is not served", async () => {
      const trader = await signedInTrader(t);
      const admin = await signedInAdmin(t);
      const pages = {
        desktop: html(await get('/trading', { ...BR_GZIP, cookie: trader.client.cookieHeader, 'sec-ch-ua-mobile': '?0' })),
        admin: html(await get('/trading', { ...BR_GZIP, cookie: admin.cookieHeader, 'sec-ch-ua-mobile': '?1' })),
        noSession: html(await get('/trading', { ...SIGNED_IN, 'sec-ch-ua-mobile': '?1' })),
      };
      for (const [what, page] of Object.entries(pages)) {
        assert.ok(!page.includes('data-page-frame') && !page.includes('id="page-data"'), `${what}: no frame and no page data`);
        assert.ok(page.includes('<div id="root"></div>'), `${what}: the root element as built`);
      }
      for (const path of ['/ssr/page-frames.js', '/ssr/assets/Button-0.js', '/ssr/']) {
        const module = await get(path, BR_GZIP);
        assert.equal(module.status, 404, path);
        assert.doesNotMatch(module.body.toString(), /renderTerminalFrame/, path);
      }
    });

    test('no frame for a larger screen, a cookie of no session, or a page without one: the loading screen and the modules in the head, as before', async () => {
      const trader = await signedInTrader(t);
      const cookie = trader.client.cookieHeader;
      const desktop = html(await get('/dashboard/home', { ...BR_GZIP, cookie, 'sec-ch-ua-mobile': '?0' }));
      const unknown = html(await get('/dashboard/home', { ...BR_GZIP, cookie, 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0' }));
      const noSession = html(await get('/dashboard/home', { ...SIGNED_IN, 'sec-ch-ua-mobile': '?1' }));
      const tools = html(await get('/dashboard/tools', { ...BR_GZIP, cookie, 'sec-ch-ua-mobile': '?1' }));
      for (const [what, page] of Object.entries({ desktop, unknown, noSession, tools })) {
        assert.ok(!page.includes('data-page-frame') && !page.includes('<template'), `${what}: no frame`);
        assert.ok(page.includes('<div id="root"></div>'), `${what}: the root element as built`);
        assert.ok(preloaded(page).length > 0, `${what}: the modules are named in the head`);
      }
    });

    test('which layout a browser will show is guessed from its client hint, else from "Mobi" in its user agent', () => {
      assert.equal(deviceOf({ 'sec-ch-ua-mobile': '?1' }), 'phone');
      assert.equal(deviceOf({ 'sec-ch-ua-mobile': '?0', 'user-agent': 'Mozilla/5.0 (Linux; Android 14) Mobile Safari' }), 'desktop');
      assert.equal(deviceOf({ 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Mobile/15E148 Safari/604.1' }), 'phone');
      assert.equal(deviceOf({ 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0' }), 'unknown');
      assert.equal(deviceOf({}), 'unknown');
    });
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

  test("what the build made for the server is not served: the frames and preload manifests, compressed or not, and the frames module", async () => {
    for (const path of ['/page-frames.json', '/route-preloads.json', '/route-preloads.json.br', '/route-preloads.json.gz', '/page-frames.json?x=1', '/ssr/page-frames.js', '/ssr']) {
      const r = await get(path, BR_GZIP);
      assert.equal(r.status, 404, path);
      assert.doesNotMatch(String(r.headers['content-type']), /html|json/, `${path}: neither the page nor the file`);
      assert.equal(r.body.toString(), 'Not found.', path);
    }
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

describe("the phone terminal's page when its frame cannot be rendered", () => {
  let dist: WebDist;
  let t: TestApp;
  before(async () => {
    dist = buildWebDist();
    // A frames module that fails, as a build with a defect in the terminal's components would.
    writeFileSync(join(dist.dir, 'ssr', 'page-frames.js'), "export function renderTerminalFrame() { throw new Error('the frame failed'); }\n");
    t = await startApp({ config: { webDistDir: dist.dir } });
  });
  after(async () => {
    await t.close();
    dist.remove();
  });

  test('is the page as built, never an error: the loading screen, the modules and the reads in the head', async () => {
    const trader = await signedInTrader(t);
    const r = await rawGet(`${t.origin}/trading`, { cookie: trader.client.cookieHeader, 'sec-ch-ua-mobile': '?1' });
    assert.equal(r.status, 200);
    const page = r.body.toString();
    assert.ok(page.includes('<div id="root"></div>') && !page.includes('page-data'), 'no frame');
    assert.match(page, /<link rel="modulepreload"[^>]*phone-terminal-5\.js/);
    assert.match(page, /getTrades\.php/);
    assert.match(String(r.headers.etag), /^"rp-/);
  });
});
