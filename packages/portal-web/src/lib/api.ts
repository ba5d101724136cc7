// The one way the app talks to portal-server: same-origin JSON requests with the session cookie, errors
// turned into `ApiError` (status, the portal's `code`, the whole body for extras such as `approval`), and a
// hook that sends the browser to /login when a session lapses mid-use.

export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly body: Record<string, unknown>;

  constructor(status: number, body: Record<string, unknown>) {
    const message =
      (typeof body.error === 'string' && body.error) ||
      (typeof body.message === 'string' && body.message) ||
      `Request failed with status ${status}`;
    super(message);
    this.status = status;
    this.code = typeof body.code === 'string' ? body.code : undefined;
    this.body = body;
  }
}

let onUnauthorized: (() => void) | undefined;

/** Called once by the app shell: what to do when an API call answers 401 (the session expired). */
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  query?: Record<string, string | number | undefined>;
  /** Do not run the 401 handler (sign-in routes answer 401 for a wrong password). */
  quiet401?: boolean;
  signal?: AbortSignal;
}

export function withQuery(path: string, query?: RequestOptions['query']): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') params.set(k, String(v));
  const s = params.toString();
  return s ? `${path}?${s}` : path;
}

async function readBody(res: Response): Promise<Record<string, unknown>> {
  const text = await res.text();
  if (!text) return {};
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : { value: parsed };
  } catch {
    return { error: text.slice(0, 500) };
  }
}

/** Sends a request and answers the parsed JSON body; throws ApiError for any non-2xx answer. */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const init: RequestInit = {
    method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    credentials: 'same-origin',
    headers: { accept: 'application/json' },
    signal: options.signal,
  };
  if (options.body !== undefined) {
    init.headers = { ...init.headers, 'content-type': 'application/json' };
    init.body = JSON.stringify(options.body);
  }
  let res: Response;
  try {
    res = await fetch(withQuery(path, options.query), init);
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(0, { error: 'The portal could not be reached. Check your network and try again.' });
  }
  const body = await readBody(res);
  if (!res.ok) {
    if (res.status === 401 && !options.quiet401) onUnauthorized?.();
    throw new ApiError(res.status, body);
  }
  return body as T;
}

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
    throw new ApiError(0, { error: 'The portal could not be reached. Check your network and try again.' });
  }
  if (!res.ok) {
    const parsed = await readBody(res);
    if (res.status === 401) onUnauthorized?.();
    throw new ApiError(res.status, parsed);
  }
  return res;
}

export function errorText(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  if (err instanceof Error) return err.message;
  return String(err);
}
