// Entry point of the portal's web app: the web kit's design tokens under the app's stylesheets, its theme
// and keyboard shortcuts, one QueryClient (TanStack Query; 4xx answers are not retried) and the router.
import '@app/web-kit/styles.css';
import './styles.css';
import './styles/ide.css';
import './styles/table.css';
import './styles/designer.css';
import { createAppRouter, isClientError, ShortcutsProvider, ThemeProvider } from '@app/web-kit';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { bindRouter } from './lib/router';
import { routeTree } from './routes';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // Authorization answers do not get better by asking again; other failures get one retry.
      retry: (count, err) => count < 1 && !isClientError(err),
      refetchOnWindowFocus: false,
      staleTime: 10_000,
    },
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
if (root) {
  createRoot(root).render(
    <StrictMode>
      <ThemeProvider>
        <QueryClientProvider client={queryClient}>
          <ShortcutsProvider>
            <RouterProvider router={router} />
          </ShortcutsProvider>
        </QueryClientProvider>
      </ThemeProvider>
    </StrictMode>,
  );
}
