import '@fontsource-variable/inter';
import './mantine-styles';
import '@mantine/notifications/styles.css';
import './styles.css';
import { localStorageColorSchemeManager, MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { queryClient } from './api/query-client';
import { queryKeys } from './api/query-keys';
import { sessionQuery } from './api/session-query';
import { pageData } from './page-data';
import { createAppRouter } from './router';
import { theme } from './theme';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// The route guards ask for the session as the router starts; pages without a guard take it too, so
// the answer index.html preloads is always used.
void queryClient.prefetchQuery(sessionQuery);

// A page whose frame shows the symbols (the phone terminal) carries them: the app starts from them
// rather than asking again (the page does not preload them either).
const symbols = pageData()?.symbols;
if (symbols) queryClient.setQueryData(queryKeys.symbols, symbols);

const colorSchemeManager = localStorageColorSchemeManager({ key: 'tradeport-color-scheme' });

/**
 * The first script's work in three tasks instead of one: running the script, starting the router
 * (which asks for the session and the page's modules), and rendering (itself in slices). On a phone with a slow CPU
 * the three together held the main thread for a quarter of a second; apart, input and painting
 * can happen between them. Each is a macrotask (a timeout), so the browser may run other work
 * in between; the session request started above is already on its way.
 */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * A signed-in page may come with its first paint from the server (src/page-frames.tsx: the page's
 * header, menu and title, marked `data-page-frame` on the root element). React's first render
 * replaces whatever the root holds, so with a frame it waits until the router has the page's
 * modules and has run its checks: the frame then gives way to the same page, not to a loading
 * screen in between. (Should the page turn out to be another, a redirect to sign-in, say, that
 * page replaces the frame.)
 */
function pageReady(router: ReturnType<typeof createAppRouter>): Promise<void> {
  if (!root?.hasAttribute('data-page-frame') || router.state.initialized) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = router.subscribe((state) => {
      if (!state.initialized) return;
      stop();
      resolve();
    });
  });
}

void nextTask()
  .then(() => {
    const router = createAppRouter();
    return nextTask()
      .then(() => pageReady(router))
      .then(() => router);
  })
  .then((router) => {
    // As a transition, React renders the first screen in slices it can pause between (the page
    // already shows index.html's identical loading screen meanwhile): the providers, the theme's
    // CSS variables and the loading screen took 80-130 ms in one piece under a 4x slowdown.
    const reactRoot = createRoot(root);
    startTransition(() => {
      reactRoot.render(
        <StrictMode>
          <MantineProvider theme={theme} defaultColorScheme="auto" colorSchemeManager={colorSchemeManager}>
            <QueryClientProvider client={queryClient}>
              <RouterProvider router={router} />
            </QueryClientProvider>
          </MantineProvider>
        </StrictMode>,
      );
    });
  });
