// The one way a UI talks to its server: same-origin fetch with the session cookie (`credentials: 'include'`),
// JSON in and out, and every failure turned into an ApiError carrying the server's own error shape — CI's
// `{error}` or the portal's `{error, code, statusCode}`. Both servers defend cookie sessions against CSRF by
// checking the Origin header of state-changing requests; a same-origin fetch sends it by itself, so the
// client adds no token, but it never sets `mode: 'no-cors'` or strips the header.

export type ErrorShape = 'ci' | 'portal';

export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    /** HTTP status; 0 when the server could not be reached. */
    readonly status: number,
    message: string,
    /** The portal's machine-readable `code` (e.g. APPROVAL_REQUIRED); undefined for CI. */
    readonly code?: string,
    /** The whole error body, for extras such as the portal's `approval` or CI's bundle `problems`. */
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type QueryValue = string | number | boolean | undefined | null;

export interface RequestOptions {
  method?: Method;
  body?: unknown;
  query?: Record<string, QueryValue | QueryValue[]>;
  /** Do not announce a 401 (a sign-in probe or a wrong password expects one). */
  quiet401?: boolean;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

export interface ApiClientOptions {
  errorShape: ErrorShape;
  /** Prefix of every path (empty for same-origin absolute paths such as `/api/v1/runs`). */
  baseUrl?: string;
  /** Called when a request answers 401 and did not ask to be quiet: the session ended. */
  onUnauthorized?: () => void;
}

/** A query string from the defined, non-empty values (arrays repeat the name). */
export function queryString(params: Record<string, QueryValue | QueryValue[]> = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params))
    for (const item of Array.isArray(v) ? v : [v])
      if (item !== undefined && item !== null && item !== '') q.append(k, String(item));
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** Reads the error message (and code) from a failed response, whatever its body is. */
export async function readError(res: Response, shape: ErrorShape): Promise<ApiError> {
  const text = await res.text().catch(() => '');
  let body: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      body = parsed as Record<string, unknown>;
  } catch {
    // not JSON: a proxy's page or plain text, shown as it is
  }
  const message =
    (typeof body.error === 'string' && body.error) ||
    (typeof body.message === 'string' && body.message) ||
    text.trim().slice(0, 300) ||
    `${res.status} ${res.statusText}`;
  const code = shape === 'portal' && typeof body.code === 'string' ? body.code : undefined;
  return new ApiError(res.status, message, code, body);
}

export interface ApiClient {
  request<T>(path: string, options?: RequestOptions): Promise<T>;
  get<T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>): Promise<T>;
  post<T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>): Promise<T>;
  put<T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>): Promise<T>;
  patch<T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>): Promise<T>;
  del<T = void>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>): Promise<T>;
  /** Replaces the 401 handler (the app shell sets it once it can navigate). */
  setUnauthorizedHandler(handler: (() => void) | undefined): void;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  let onUnauthorized = options.onUnauthorized;
  const base = options.baseUrl ?? '';

  async function request<T>(path: string, o: RequestOptions = {}): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json', ...o.headers };
    let body: string | undefined;
    if (o.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(o.body);
    }
    let res: Response;
    try {
      res = await fetch(base + path + queryString(o.query), {
        method: o.method ?? 'GET',
        headers,
        body,
        credentials: 'include',
        signal: o.signal,
      });
    } catch (err) {
      if ((err as Error).name === 'AbortError') throw err;
      throw new ApiError(0, 'The server cannot be reached. Check your connection and try again.');
    }
    if (!res.ok) {
      const error = await readError(res, options.errorShape);
      if (res.status === 401 && !o.quiet401) onUnauthorized?.();
      throw error;
    }
    if (res.status === 204) return undefined as T;
    const text = await res.text();
    if (!text) return undefined as T;
    const type = res.headers.get('content-type') ?? '';
    return (type.includes('json') ? JSON.parse(text) : text) as T;
  }

  return {
    request,
    get: (path, o) => request(path, { ...o, method: 'GET' }),
    post: (path, body, o) => request(path, { ...o, method: 'POST', body }),
    put: (path, body, o) => request(path, { ...o, method: 'PUT', body }),
    patch: (path, body, o) => request(path, { ...o, method: 'PATCH', body }),
    del: (path, o) => request(path, { ...o, method: 'DELETE' }),
    setUnauthorizedHandler(handler) {
      onUnauthorized = handler;
    },
  };
}

/** True for a 4xx other than 408/429: retrying will not help. */
export function isClientError(err: unknown): boolean {
  return (
    err instanceof ApiError &&
    err.status >= 400 &&
    err.status < 500 &&
    err.status !== 408 &&
    err.status !== 429
  );
}
