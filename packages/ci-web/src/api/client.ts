// The one way the UI talks to the server: the web kit's client with CI's `{error}` shape (same-origin fetch,
// session cookie, the browser's Origin header for the server's CSRF check). A 401 from any call but the
// session probe means the session ended; App.tsx sends the user to sign-in.
// `apiGet`/`apiPost`/`apiPut`/`apiDelete` take a route of the generated API types (`@app/web-kit/api/ci`,
// `npm run gen:api -w packages/web-kit`) and answer what that route's OpenAPI description says it answers,
// so no page types a response by hand (test/house/response-types.test.ts keeps it so).
import {
  ApiError,
  createApiClient,
  type RouteOf as KitRouteOf,
  queryString,
  type RequestOptions,
  type ResponseOf,
  typedCalls,
} from '@app/web-kit';
import type { paths } from '@app/web-kit/api/ci';

export { ApiError };

const client = createApiClient({ errorShape: 'ci' });

type Listener = () => void;
const unauthorizedListeners = new Set<Listener>();
client.setUnauthorizedHandler(() => {
  for (const l of unauthorizedListeners) l();
});

/** Called when a request other than the sign-in probe answers 401 (the session ended). */
export function onUnauthorized(listener: Listener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

/** The routes of the control plane's API that take `method`. */
export type RouteOf<M extends 'get' | 'post' | 'put' | 'delete'> = KitRouteOf<paths, M>;
/** The JSON `M P` answers (its first 2xx), from the generated API types. */
export type Answer<P extends keyof paths, M extends string = 'get'> = ResponseOf<paths, P, M>;

/** `apiGet(route, {params, query, …})` and the others: the answer typed by the route (web-kit's typedCalls). */
export const { apiGet, apiPost, apiPut, apiDelete } = typedCalls<
  paths,
  Omit<RequestOptions, 'method' | 'body'>
>((path, method, body, options) => client.request(path, { ...options, method, body }));

/** Calls whose answer the page does not read (a delete, an action's `{ok}`): untyped on purpose. */
export const api = {
  get: (path: string, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    client.get<unknown>(path, options),
  post: (path: string, body?: unknown) => client.post<unknown>(path, body),
  put: (path: string, body?: unknown) => client.put<unknown>(path, body),
  del: (path: string) => client.del<void>(path),
};

/** A query string from the defined, non-empty values. */
export function query(params: Record<string, string | number | boolean | undefined | null>): string {
  return queryString(params);
}

export const enc = encodeURIComponent;
