// Entry point of the CI web UI: one query client (short retries; 4xx answers are not retried), the router,
// the web kit's theme and keyboard shortcuts, and the kit's design tokens under the app's stylesheet.
import '@app/web-kit/styles.css';
import './styles.css';
import { createAppRouter, isClientError, ShortcutsProvider, ThemeProvider } from '@app/web-kit';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { bindRouter } from './lib/router';
import { routeTree } from './routes';

const client = new QueryClient({
  defaultOptions: {
    queries: {
      retry: (count, err) => !isClientError(err) && count < 2,
      refetchOnWindowFocus: true,
      staleTime: 2000,
    },
    mutations: { retry: false },
  },
});

const router = createAppRouter(routeTree);
bindRouter(router);

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}

const root = document.getElementById('root');
if (!root) throw new Error('no #root element');
createRoot(root).render(
  <StrictMode>
    <ThemeProvider>
      <QueryClientProvider client={client}>
        <ShortcutsProvider>
          <RouterProvider router={router} />
        </ShortcutsProvider>
      </QueryClientProvider>
    </ThemeProvider>
  </StrictMode>,
);
