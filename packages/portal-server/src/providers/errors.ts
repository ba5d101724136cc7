// Error classes of the provider layer (spec Errors §7: configuration, connection, authentication, pool
// exhaustion, query, timeout, query cancelled) and their mapping onto the portal's HTTP error shape.
import { HttpError } from '@app/kit';

export type ProviderErrorKind =
  | 'configuration'
  | 'connection'
  | 'authentication'
  | 'pool_exhausted'
  | 'query'
  | 'timeout'
  | 'cancelled'
  | 'unsupported';

export class ProviderError extends Error {
  override name = 'ProviderError';
  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    readonly engineCode?: string,
  ) {
    super(message);
  }
}

export const configError = (m: string) => new ProviderError('configuration', m);
export const queryError = (m: string, code?: string) => new ProviderError('query', m, code);
export const unsupported = (m: string) => new ProviderError('unsupported', m);

export function timeoutError(ms: number): ProviderError {
  return new ProviderError(
    'timeout',
    `Query exceeded the ${ms} ms timeout. Try a simpler query (fewer rows, a narrower filter) or raise the connection's queryTimeout.`,
  );
}

/** Maps any failure below the routes onto the portal's error answer. */
export function toHttpError(err: unknown): HttpError {
  if (err instanceof HttpError) return err;
  if (err instanceof ProviderError) {
    switch (err.kind) {
      case 'configuration':
        return new HttpError(400, err.message, 'CONFIGURATION_ERROR');
      case 'unsupported':
        return new HttpError(400, err.message, 'UNSUPPORTED');
      case 'connection':
        return new HttpError(503, err.message, 'CONNECTION_ERROR', { retryable: true });
      case 'authentication':
        return new HttpError(503, err.message, 'AUTHENTICATION_ERROR');
      case 'pool_exhausted':
        return new HttpError(503, err.message, 'POOL_EXHAUSTED', { retryable: true });
      case 'timeout':
        return new HttpError(408, err.message, 'QUERY_TIMEOUT');
      case 'cancelled':
        return new HttpError(400, err.message, 'QUERY_CANCELLED');
      default:
        return new HttpError(400, err.message, 'QUERY_ERROR');
    }
  }
  const message = err instanceof Error ? err.message : String(err);
  return new HttpError(400, message, 'QUERY_ERROR');
}
