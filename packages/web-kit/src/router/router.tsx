// Router setup shared by both UIs, on @tanstack/react-router: a router with the kit's pending, error and
// not-found screens, links preloaded on intent, scroll restored, and the safe `next` target for sign-in
// redirects. Each app declares its own route tree; this keeps the behaviour around it the same.
import {
  type AnyRoute,
  createRouter,
  type ErrorComponentProps,
  type RouterHistory,
  type TrailingSlashOption,
} from '@tanstack/react-router';
import { LoadingState } from '../components/Spinner';
import { EmptyState, ErrorState } from '../components/States';

function RouteError({ error, reset }: ErrorComponentProps) {
  return <ErrorState error={error} title="This page failed" onRetry={reset} />;
}

function NotFound() {
  return (
    <EmptyState title="There is no page at this address.">
      Check the address or use the navigation.
    </EmptyState>
  );
}

export function createAppRouter<TTree extends AnyRoute>(
  routeTree: TTree,
  options: {
    history?: RouterHistory;
    context?: Record<string, unknown>;
    trailingSlash?: TrailingSlashOption;
  } = {},
) {
  return createRouter({
    routeTree,
    history: options.history,
    context: options.context as never,
    defaultPreload: 'intent',
    defaultPendingComponent: () => <LoadingState />,
    defaultErrorComponent: RouteError,
    defaultNotFoundComponent: NotFound,
    scrollRestoration: true,
    trailingSlash: options.trailingSlash ?? 'never',
  });
}

export { safeNext } from './next';
