import '@fontsource-variable/inter';
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './styles.css';
import { localStorageColorSchemeManager, MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { queryClient } from './api/query-client';
import { sessionQuery } from './api/session-query';
import { router } from './router';
import { theme } from './theme';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// The route guards ask for the session as the router starts; pages without a guard take it too, so
// the answer index.html preloads is always used.
void queryClient.prefetchQuery(sessionQuery);

const colorSchemeManager = localStorageColorSchemeManager({ key: 'tradeport-color-scheme' });

createRoot(root).render(
  <StrictMode>
    <MantineProvider theme={theme} defaultColorScheme="auto" colorSchemeManager={colorSchemeManager}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
