import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';

/**
 * A built web app in miniature, for serving tests: an index.html, hashed bundle files under
 * assets/ and a few plain files, each with the .br / .gz siblings the real build writes.
 */
export const INDEX_HTML = `<!doctype html><html><head><title>Tradeport</title><script type="module" src="/assets/index-3f9a1c2b.js"></script></head><body><div id="root"></div></body></html>\n`;
export const APP_JS = `${'export const answer = 42;\n'.repeat(200)}`;
export const STYLE_CSS = `${'body { margin: 0; }\n'.repeat(100)}`;

/**
 * What the build's route-preloads.json says (web/build/route-preloads.ts): the files each signed-in
 * page loads lazily, and those only one of the terminal's layouts loads.
 */
export const ROUTE_PRELOADS = {
  routes: [
    {
      path: '/dashboard/home',
      prefix: false,
      common: { scripts: ['assets/signed-in-1.js', 'assets/shell-2.js', 'assets/home-3.js'], styles: [] },
      phone: { scripts: [], styles: [] },
      desktop: { scripts: [], styles: [] },
      data: [{ path: '/api/dashboard/customer/getProfileDetails.php' }, { path: '/api/dashboard/customer/getTradesHistory.php', roles: ['trader'] }],
    },
    { path: '/dashboard/', prefix: true, common: { scripts: ['assets/signed-in-1.js', 'assets/shell-2.js'], styles: [] }, phone: { scripts: [], styles: [] }, desktop: { scripts: [], styles: [] } },
    {
      path: '/trading',
      prefix: false,
      common: { scripts: ['assets/signed-in-1.js', 'assets/trading-route-4.js'], styles: [] },
      phone: { scripts: ['assets/phone-terminal-5.js'], styles: ['assets/phone-terminal-8.css'] },
      desktop: { scripts: ['assets/trading-page-6.js'], styles: ['assets/trading-page-7.css'] },
      data: [
        { path: '/api/platform/getTrades.php', roles: ['trader'] },
        { path: '/api/platform/getPendingOrders.php?status=pending&x="<y>"', roles: ['trader'] },
      ],
    },
  ],
};

/**
 * What the build's page-frames.json says (web/src/page-frames.tsx): a signed-in page's first paint
 * per role. The dollar signs are there because a frame is app markup the server must insert as is.
 */
export const PAGE_FRAMES = {
  frames: [
    { path: '/dashboard/home', role: 'trader', html: '<header>trader frame $& $1</header><h1>Dashboard</h1>' },
    { path: '/dashboard/home', role: 'admin', html: '<header>admin frame</header><h1>Dashboard</h1>' },
  ],
};

/**
 * The build's frames module in miniature (web/build/page-frames.ts bundles web/src/page-frames.tsx
 * to `ssr/page-frames.js`): a terminal frame that names the instruments and quotes it was given, so
 * a test sees what the server rendered it from, and counts its renderings; it keeps the first two
 * quotes for the page, and says the page answers getTrades (the real one: getMainCurrencies).
 */
export const FRAMES_MODULE_JS = `let renders = 0;
export function renderTerminalFrame({ symbols, quotes }) {
  renders += 1;
  return {
    html: '<main data-render="' + renders + '">terminal frame $& ' + symbols.length + ' symbols; ' + quotes.filter((q) => q.bid !== null).map((q) => q.symbol + ' ' + q.bid + '/' + q.ask).join(', ') + '</main>',
    quotes: quotes.slice(0, 2),
    answers: ['/api/platform/getTrades.php'],
  };
}
`;

export interface WebDist {
  dir: string;
  remove(): void;
}

export function buildWebDist(): WebDist {
  const dir = mkdtempSync(join(tmpdir(), 'tp_web_dist_'));
  const put = (path: string, content: string | Buffer, encodings: ('br' | 'gz')[] = []) => {
    const file = join(dir, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
    if (encodings.includes('br')) writeFileSync(`${file}.br`, brotliCompressSync(content));
    if (encodings.includes('gz')) writeFileSync(`${file}.gz`, gzipSync(content));
  };
  put('index.html', INDEX_HTML, ['br', 'gz']);
  put('assets/index-3f9a1c2b.js', APP_JS, ['br', 'gz']);
  put('assets/style-8d7e6f5a.css', STYLE_CSS, ['gz']);
  put('route-preloads.json', JSON.stringify(ROUTE_PRELOADS));
  put('page-frames.json', JSON.stringify(PAGE_FRAMES));
  put('ssr/page-frames.js', FRAMES_MODULE_JS);
  put('ssr/assets/Button-0.js', 'export const renderTerminalFrame = null;\n');
  put('favicon.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface RawReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The bytes as sent, not decompressed (fetch would undo the content encoding). */
  body: Buffer;
}

export function rawGet(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
