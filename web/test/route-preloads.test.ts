import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { filesFor, routePreloadManifest, type ChunkInfo } from '../build/route-preloads';

/**
 * The build's list of what each signed-in page loads lazily (build/route-preloads.ts), which the
 * server names in the page so the browser fetches it beside the entry.
 */
const ROOT = '/app/web';
const chunk = (fileName: string, facade: string | null, imports: string[] = [], extra: Partial<ChunkInfo> = {}): ChunkInfo => ({
  fileName,
  isEntry: false,
  facadeModuleId: facade ? `${ROOT}/${facade}` : null,
  imports,
  css: [],
  ...extra,
});
const CHUNKS: ChunkInfo[] = [
  chunk('assets/index.js', 'index.html', ['assets/boot-shared.js'], { isEntry: true }),
  chunk('assets/boot-shared.js', null),
  chunk('assets/layout.js', 'src/ui/signed-in-layout.tsx', ['assets/index.js', 'assets/queries.js']),
  chunk('assets/queries.js', null, ['assets/boot-shared.js']),
  chunk('assets/shell.js', 'src/dashboard/dashboard-shell.tsx', ['assets/ui.js', 'assets/queries.js'], { css: ['assets/shell.css'] }),
  chunk('assets/ui.js', null, ['assets/index.js']),
  chunk('assets/route.js', 'src/terminal/trading-route.tsx', ['assets/queries.js']),
  chunk('assets/phone.js', 'src/terminal/phone/phone-terminal.tsx', ['assets/ui.js', 'assets/phone-only.js']),
  chunk('assets/phone-only.js', null),
  chunk('assets/desktop.js', 'src/terminal/trading-page.tsx', ['assets/ui.js'], { css: ['assets/desktop.css', 'assets/shell.css'] }),
];

describe('route preloads', () => {
  test("a page's files: each module's chunk and what it imports, in load order, without the entry's files or repeats", () => {
    assert.deepEqual(filesFor(['src/ui/signed-in-layout.tsx', 'src/dashboard/dashboard-shell.tsx'], CHUNKS, ROOT), {
      scripts: ['assets/layout.js', 'assets/queries.js', 'assets/shell.js', 'assets/ui.js'],
      styles: ['assets/shell.css'],
    });
  });

  test("a device's files leave out what every device of the route already loads", () => {
    const [trading] = routePreloadManifest(
      [{ path: '/trading', modules: ['src/ui/signed-in-layout.tsx', 'src/terminal/trading-route.tsx'], phone: ['src/terminal/phone/phone-terminal.tsx'], desktop: ['src/terminal/trading-page.tsx'] }],
      CHUNKS,
      ROOT,
    ).routes;
    assert.deepEqual(trading!.common.scripts, ['assets/layout.js', 'assets/queries.js', 'assets/route.js']);
    assert.deepEqual(trading!.phone, { scripts: ['assets/phone.js', 'assets/ui.js', 'assets/phone-only.js'], styles: [] });
    assert.deepEqual(trading!.desktop, { scripts: ['assets/desktop.js', 'assets/ui.js'], styles: ['assets/desktop.css', 'assets/shell.css'] });
    assert.equal(trading!.prefix, false);
  });

  test("a route's first reads go to the server as written, with their roles; a path that is not one of the app's API reads fails the build", () => {
    const data = [{ path: '/api/platform/getTrades.php', roles: ['trader' as const] }, { path: '/api/platform/getPendingOrders.php?status=pending' }];
    const [trading] = routePreloadManifest([{ path: '/trading', modules: ['src/terminal/trading-route.tsx'], data }], CHUNKS, ROOT).routes;
    assert.deepEqual(trading!.data, data);
    assert.deepEqual(routePreloadManifest([{ path: '/trading', modules: ['src/terminal/trading-route.tsx'] }], CHUNKS, ROOT).routes[0]!.data, []);
    for (const path of ['https://elsewhere.example/api/x.php', '/assets/x.js', '/api/x.php?a="b"', '/api/x.php"><script>']) {
      assert.throws(() => routePreloadManifest([{ path: '/trading', modules: ['src/terminal/trading-route.tsx'], data: [{ path }] }], CHUNKS, ROOT), /is not an API path of this app/, path);
    }
  });

  test('the build fails when a named module starts no chunk (renamed, or no longer loaded lazily)', () => {
    assert.throws(() => filesFor(['src/dashboard/home-page.tsx'], CHUNKS, ROOT), /src\/dashboard\/home-page\.tsx is not the start of any chunk/);
    // A module bundled into its importer (not a chunk's start) is refused the same way.
    assert.throws(() => filesFor(['src/api/queries.ts'], CHUNKS, ROOT), /not the start of any chunk/);
  });
});
