// The one way the UI talks to the server: the web kit's client with CI's `{error}` shape (same-origin fetch,
// session cookie, the browser's Origin header for the server's CSRF check). A 401 from any call but the
// session probe means the session ended; App.tsx sends the user to sign-in.
import { ApiError, createApiClient, queryString, type RequestOptions } from '@app/web-kit';

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

export function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return client.request<T>(path, options);
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) => client.get<T>(path, options),
  post: <T>(path: string, body?: unknown) => client.post<T>(path, body),
  put: <T>(path: string, body?: unknown) => client.put<T>(path, body),
  del: <T = void>(path: string) => client.del<T>(path),
};

/** A query string from the defined, non-empty values. */
export function query(params: Record<string, string | number | boolean | undefined | null>): string {
  return queryString(params);
}

export const enc = encodeURIComponent;
