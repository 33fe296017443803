import { Center, Loader, MantineProvider } from '@mantine/core';
import type { Quote, SymbolRecord } from '@tradeport/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { callRoutes } from './api/call-routes.generated';
import { queryKeys } from './api/query-keys';
import { permissionsOf } from '@tradeport/contracts';
import type { Role } from './auth/session';
import { DashboardShell } from './dashboard/dashboard-shell';
import { HomePage } from './dashboard/home-page';
import { useAppStore } from './state/app-store';
import { renderWithQuotes } from './stream/hooks';
import { PhoneTerminal } from './terminal/phone/phone-terminal';
import { firstShownSymbols } from './terminal/price-pages';
import { theme } from './theme';

/**
 * A signed-in page's first paint, sent by the server inside the page itself: the page's frame as
 * the app renders it before any of its data is in (the dashboard's header and menu, the page's
 * title and description), so a phone on a slow link shows the page as soon as the document and
 * the style sheet are in, instead of a loading screen until the app's script has downloaded and
 * run. The app takes over by replacing it with its first render of the same page (main.tsx waits
 * for the page's modules so that nothing else shows in between); `e2e/page-frames.e2e.ts` holds
 * the two to the same place on screen.
 *
 * The frames are rendered by the build (`build/page-frames.ts`, through
 * `scripts/render-page-frames.ts`) from the app's own components, one per page and role, and the
 * server puts the one for the session's role in the page (`server/src/plugins/web-app.ts`). What
 * depends on the user (the name in the header) is left out; the connection badge says
 * 'Connecting'; below the page's header a loader stands where the data will show.
 */
export interface PageFrame {
  /** The page's path, exactly (no prefix). */
  path: string;
  role: Role;
  html: string;
}

interface FrameRoute {
  path: string;
  /** The layout the page renders in, at `layoutPath`, and the page at `path` under it. */
  layoutPath: string;
  Layout: ComponentType;
  Page: ComponentType;
}

/** The pages with a frame: the ones a signed-in visit most often starts on. */
const FRAME_ROUTES: FrameRoute[] = [{ path: '/dashboard/home', layoutPath: '/dashboard', Layout: DashboardShell, Page: HomePage }];

/** Where the page's data will show, while the app's script loads. */
function DataLoader() {
  return (
    <Center py="xl" role="status" aria-label="Loading">
      <Loader size="sm" />
    </Center>
  );
}

/**
 * The session as `testSession` answers it, for a user of `role` whose name the frame leaves out.
 * The staff frame is an administrator's (most back offices' first and busiest user): a member with
 * fewer roles sees their shorter menu as soon as the app runs.
 */
function frameSession(role: Role) {
  if (role === 'trader') return { status: 'success' as const, accountType: '0' as const };
  return { status: 'success' as const, accountType: '1' as const, staffRoles: ['administrator' as const], permissions: permissionsOf(['administrator']) };
}

export function renderPageFrame(route: FrameRoute, role: Role): string {
  const client = new QueryClient({ defaultOptions: { queries: { enabled: false, retry: false } } });
  client.setQueryData(queryKeys.session, frameSession(role));
  const { Layout, Page } = route;
  const router = createMemoryRouter(
    [
      {
        path: route.layoutPath,
        Component: Layout,
        children: [
          {
            path: route.path.slice(route.layoutPath.length + 1),
            element: (
              <>
                <Page />
                <DataLoader />
              </>
            ),
          },
        ],
      },
    ],
    { initialEntries: [route.path] },
  );
  return renderToStaticMarkup(
    <MantineProvider theme={theme} defaultColorScheme="auto">
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

/** Every page's frame for every role that may see it. */
export function renderPageFrames(): PageFrame[] {
  return FRAME_ROUTES.flatMap((route) => (['trader', 'admin'] as const).map((role) => ({ path: route.path, role, html: renderPageFrame(route, role) })));
}

/** What the phone terminal's frame shows: the instruments (`getMainCurrencies`'s rows) and their quotes. */
export interface TerminalFrameData {
  symbols: SymbolRecord[];
  quotes: Quote[];
}

/** The phone terminal's frame, and what the app must start from to render the same rows. */
export interface TerminalFrame {
  html: string;
  /** The quotes the frame shows, for the app's stream to start from (src/page-data.ts). */
  quotes: Quote[];
  /** The reads whose answers the page carries with the frame (the symbols), which it need not preload. */
  answers: string[];
}

/**
 * `/trading` on a phone as the app first renders it once its symbols and first quotes are in: the
 * terminal's header, the price table's first rows of the first group with the server's quotes as
 * it answers, and the tab bar. Unlike the dashboard's frame it is rendered by the server for each
 * request (the prices move), from this module as the build bundles it for Node
 * (`build/page-frames.ts`); the page also carries the symbols and the quotes shown, from which the
 * app renders its first screen (main.tsx), so the frame gives way to the same rows and figures.
 * The connection badge says Connecting until the app's stream is open.
 */
export function renderTerminalFrame({ symbols, quotes }: TerminalFrameData): TerminalFrame {
  const shown = new Set(firstShownSymbols(symbols, useAppStore.getInitialState().symbolType, true));
  const shownQuotes = quotes.filter((q) => shown.has(q.symbol));
  const client = new QueryClient({ defaultOptions: { queries: { enabled: false, retry: false } } });
  client.setQueryData(queryKeys.symbols, { status: 'success' as const, data: symbols });
  const router = createMemoryRouter([{ path: '/trading', Component: PhoneTerminal }], { initialEntries: ['/trading'] });
  const html = renderWithQuotes(shownQuotes, () =>
    renderToStaticMarkup(
      <MantineProvider theme={theme} defaultColorScheme="auto">
        <QueryClientProvider client={client}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </MantineProvider>,
    ),
  );
  return { html, quotes: shownQuotes, answers: [`/api${callRoutes.getMainCurrencies.path}`] };
}
