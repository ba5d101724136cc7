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

/**
 * Search parameters as plain strings (`?offset=25&status=failed`), exactly as URLSearchParams reads and writes
 * them, instead of the router's default JSON values: addresses stay the ones users bookmark and servers log.
 */
export function parsePlainSearch(search: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(search.startsWith('?') ? search.slice(1) : search));
}

export function stringifyPlainSearch(search: Record<string, unknown>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(search))
    if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
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
    parseSearch: parsePlainSearch,
    stringifySearch: stringifyPlainSearch,
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
