// The one way the app talks to portal-server: the web kit's API client (`@app/web-kit`, portal error
// shape: same-origin JSON with the session cookie, failures as `ApiError` with status, the portal's `code`
// and the whole body for extras such as `approval`), wrapped in the call form the pages use, plus raw
// responses for file downloads and the hook that sends the browser to /login when a session lapses.
// `apiGet`/`apiPost`/`apiPut`/`apiDelete` take a route of the generated API types (`@app/web-kit/api/portal`)
// and answer what that route's OpenAPI description says it answers, so no page types a response by hand.
import {
  ApiError,
  createApiClient,
  type RouteOf as KitRouteOf,
  type ResponseOf,
  readError,
  type TypedOptions,
  typedCalls,
} from '@app/web-kit';
import type { paths } from '@app/web-kit/api/portal';

export { ApiError };

const client = createApiClient({ errorShape: 'portal' });
let onUnauthorized: (() => void) | undefined;

/** Called once by the app shell: what to do when an API call answers 401 (the session expired). */
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
  client.setUnauthorizedHandler(handler);
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  /** Do not run the 401 handler (sign-in routes answer 401 for a wrong password). */
  quiet401?: boolean;
  signal?: AbortSignal;
}

/** Sends a request and answers the parsed JSON body (`{}` for an empty one); non-2xx throws ApiError. */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const method = options.method ?? (options.body === undefined ? 'GET' : 'POST');
  const out = await client.request<T>(path, { ...options, method });
  return (out ?? {}) as T;
}

/** The routes of the portal's API that take `method`. */
export type RouteOf<M extends 'get' | 'post' | 'put' | 'delete'> = KitRouteOf<paths, M>;
/** The JSON `M P` answers (its first 2xx), from the generated API types. */
export type Answer<P extends keyof paths, M extends 'get' | 'post' | 'put' | 'delete' = 'get'> = ResponseOf<
  paths,
  P,
  M
>;

/** Options of a typed call: `params` fill the route's `{name}` placeholders. */
export type CallOptions = TypedOptions<Omit<RequestOptions, 'method' | 'body'>>;

/** `apiGet(route, {params, query, …})` and the others: the answer typed by the route (web-kit's typedCalls). */
export const { apiGet, apiPost, apiPut, apiDelete } = typedCalls<
  paths,
  Omit<RequestOptions, 'method' | 'body'>
>((path, method, body, options) => api(path, { ...options, method, body }));

/** POSTs JSON and answers the raw response (file downloads); non-2xx becomes ApiError. */
export async function apiRaw(path: string, body: unknown): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(path, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'The portal could not be reached. Check your network and try again.');
  }
  if (!res.ok) {
    if (res.status === 401) onUnauthorized?.();
    throw await readError(res, 'portal');
  }
  return res;
}

export function errorText(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}

/** An ApiError from a failed response's already-parsed body (streamed routes read the body themselves). */
export function errorFromBody(status: number, body: Record<string, unknown>): ApiError {
  const message =
    (typeof body.error === 'string' && body.error) ||
    (typeof body.message === 'string' && body.message) ||
    `Request failed with status ${status}`;
  return new ApiError(status, message, typeof body.code === 'string' ? body.code : undefined, body);
}
