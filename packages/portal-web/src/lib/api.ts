// The one way the app talks to portal-server: the web kit's API client (`@app/web-kit`, portal error
// shape: same-origin JSON with the session cookie, failures as `ApiError` with status, the portal's `code`
// and the whole body for extras such as `approval`), wrapped in the call form the pages use, plus raw
// responses for file downloads and the hook that sends the browser to /login when a session lapses.
// `apiGet`/`apiPost`/`apiPut`/`apiDelete` take a route of the generated API types (`@app/web-kit/api/portal`)
// and answer what that route's OpenAPI description says it answers, so no page types a response by hand.
import { ApiError, createApiClient, pathOf, type ResponseOf, readError } from '@app/web-kit';
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

type Verb = 'get' | 'post' | 'put' | 'delete';
/** The routes of the portal's API that take `method`. */
export type RouteOf<M extends Verb> = {
  [P in keyof paths]: paths[P] extends Record<M, { responses: unknown }> ? P : never;
}[keyof paths];
/** The JSON `M P` answers (its first 2xx), from the generated API types. */
export type Answer<P extends keyof paths, M extends Verb = 'get'> = ResponseOf<paths, P, M>;

/** Options of a typed call: `params` fill the route's `{name}` placeholders. */
export type CallOptions = Omit<RequestOptions, 'method' | 'body'> & {
  params?: Record<string, string | number>;
};

function call<M extends Verb, P extends RouteOf<M>>(
  method: M,
  route: P,
  body: unknown,
  options: CallOptions,
) {
  const { params, ...rest } = options;
  const path = params ? pathOf(route, params) : route;
  return api<Answer<P, M>>(path, { ...rest, method: method.toUpperCase() as RequestOptions['method'], body });
}

/** `GET route`, answered as the route's generated response type. */
export const apiGet = <P extends RouteOf<'get'>>(route: P, options: CallOptions = {}) =>
  call('get', route, undefined, options);
/** `POST route` with a JSON body, answered as the route's generated response type. */
export const apiPost = <P extends RouteOf<'post'>>(route: P, body?: unknown, options: CallOptions = {}) =>
  call('post', route, body, options);
/** `PUT route` with a JSON body, answered as the route's generated response type. */
export const apiPut = <P extends RouteOf<'put'>>(route: P, body: unknown, options: CallOptions = {}) =>
  call('put', route, body, options);
/** `DELETE route`, answered as the route's generated response type. */
export const apiDelete = <P extends RouteOf<'delete'>>(route: P, options: CallOptions = {}) =>
  call('delete', route, undefined, options);

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
