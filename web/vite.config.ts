import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { mantineStyles } from './build/mantine-styles';
import { pageFrames } from './build/page-frames';
import { routePreloads, type RoutePreload } from './build/route-preloads';

/**
 * The signed-in pages' lazily loaded modules, named by the server in the page itself
 * (build/route-preloads.ts): the layout every signed-in page renders in, then the page's own.
 */
const SIGNED_IN = 'src/ui/signed-in-layout.tsx';
const DASHBOARD = 'src/dashboard/dashboard-shell.tsx';
const ROUTE_PRELOADS: RoutePreload[] = [
  {
    path: '/dashboard/home',
    modules: [SIGNED_IN, DASHBOARD, 'src/dashboard/home-page.tsx'],
    // What router.tsx's prefetchHome asks for as the page opens.
    data: [{ path: '/api/dashboard/customer/getProfileDetails.php' }, { path: '/api/dashboard/customer/getTradesHistory.php', roles: ['trader'] }],
  },
  { path: '/dashboard/', prefix: true, modules: [SIGNED_IN, DASHBOARD] },
  {
    path: '/trading',
    modules: [SIGNED_IN, 'src/terminal/trading-route.tsx'],
    phone: ['src/terminal/phone/phone-terminal.tsx'],
    desktop: ['src/terminal/trading-page.tsx'],
    // Both layouts' first reads: the symbols, the positions, the pending orders and the account's figures.
    data: ['getMainCurrencies.php', 'getTrades.php', 'getPendingOrders.php?status=pending', 'getMargins.php'].map((call) => ({ path: `/api/platform/${call}`, roles: ['trader' as const] })),
  },
];

// The server serves web/dist on the same origin as the API, sending the brotli or gzip file beside
// each asset when the browser accepts it; in development Vite proxies /api to the server.
export default defineConfig({
  plugins: [react(), routePreloads(ROUTE_PRELOADS), pageFrames(), mantineStyles(), compression({ algorithms: ['brotliCompress', 'gzip'], threshold: 1024, deleteOriginalAssets: false })],
  server: { proxy: { '/api': { target: 'http://127.0.0.1:8080', ws: true } } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    chunkSizeWarningLimit: 800,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // Everything the first screen needs (the sign-in page is part of the entry) in one
            // file: left to itself the bundler splits it into a dozen sub-KiB chunks that a phone
            // on a slow link fetches a few at a time. Style sheets keep their own files.
            { name: 'boot', tags: ['$initial'], test: (id: string) => !/\.css($|\?)/.test(id), priority: 10 },
            // The UI libraries that three or more screens share (Mantine's components, floating-ui,
            // the icons, the number input's formatter) in one file: left to itself the bundler
            // makes a file per component, about 40 for the terminal, and each response's headers
            // (~1 KB) cost as much as a small component. What one or two screens use stays with
            // them, so a small page (sign-up) does not download the terminal's components.
            // KLineChart and our module that feeds it candles, in one file of a fixed name, whichever
            // screen loads it first (the terminal, or the dashboard's chart panel): the chart
            // benchmark tells KLineChart's redraws by this file on the stack.
            {
              name: 'chart-core',
              test: (id: string) => /node_modules[\\/]klinecharts[\\/]|src[\\/]market[\\/]candle-chart\.tsx$/.test(id),
              priority: 6,
              // Only those two: what candle-chart.tsx imports (the stream, the API client) stays
              // where it was, or every signed-in page would download KLineChart with the stream.
              includeDependenciesRecursively: false,
            },
            // The signed-in app's own plumbing that most screens share (formats, the app store, the
            // stream and its hooks, the API's query hooks, the page states and toasts) in one file:
            // left to itself the bundler makes a sub-KiB chunk of each, by which screens import it,
            // and the terminal downloaded eleven of them, a third of their bytes response headers.
            // The back office's own query modules are not in it, so no trader's page downloads them.
            {
              name: 'app',
              test: (id: string) =>
                !/\.css($|\?)/.test(id) &&
                /web[\\/]src[\\/](format[\\/]|state[\\/]|stream[\\/]|api[\\/](queries|terminal-queries|query-keys|query-options|client)\.|ui[\\/](page|connection-badge|toast)\.|auth[\\/]use-sign-out\.)|contracts[\\/]src[\\/]messages\.|node_modules[\\/]zustand[\\/]/.test(id),
              minShareCount: 2,
              priority: 4,
              includeDependenciesRecursively: false,
            },
            // Mantine's layout and navigation pieces of the dashboard and the back office (the menu's
            // links and their collapsing sections, grids, cards, icons in a circle, paging), which
            // the trading terminal never shows: apart from 'ui', so the terminal does not download
            // them. (Nothing in 'ui' may import them, or the terminal would fetch this file too.)
            {
              name: 'ui-pages',
              test: (id: string) => !/\.css($|\?)/.test(id) && /node_modules[\\/]@mantine[\\/](core[\\/]esm[\\/]components[\\/](Card|Collapse|Grid|NavLink|Pagination|ThemeIcon)[\\/]|hooks[\\/]esm[\\/]use-collapse[\\/])/.test(id),
              minShareCount: 3,
              priority: 6,
              includeDependenciesRecursively: false,
            },
            {
              name: 'ui',
              test: (id: string) => !/\.css($|\?)/.test(id) && /node_modules[\\/](@mantine|@floating-ui|@tabler|react-number-format)[\\/]/.test(id),
              minShareCount: 3,
              priority: 5,
            },
          ],
        },
      },
    },
  },
});
