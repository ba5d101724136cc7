// The error type handlers throw, and the two wire shapes the services answer with:
// CI `{error}` and portal `{error, code, statusCode}` (plus optional extra fields such as `approval`).
export type ErrorShape = 'ci' | 'portal';

export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly statusCode: number,
    message: string,
    readonly code?: string,
    /** Extra fields merged into the body (portal routes use it for `approval`, `retryable`, …). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, code = 'BAD_REQUEST') => new HttpError(400, message, code);
export const unauthorized = (message = 'Authentication required', code = 'UNAUTHORIZED') =>
  new HttpError(401, message, code);
export const forbidden = (message = 'Forbidden', code = 'FORBIDDEN') => new HttpError(403, message, code);
export const notFound = (message = 'Not found', code = 'NOT_FOUND') => new HttpError(404, message, code);
export const conflict = (message: string, code = 'CONFLICT') => new HttpError(409, message, code);

const DEFAULT_CODES: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  408: 'TIMEOUT',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
  500: 'INTERNAL_ERROR',
  503: 'SERVICE_UNAVAILABLE',
};

export function errorBody(
  shape: ErrorShape,
  statusCode: number,
  message: string,
  code?: string,
  extra?: Record<string, unknown>,
): Record<string, unknown> {
  if (shape === 'ci') return { error: message, ...extra };
  return { error: message, code: code ?? DEFAULT_CODES[statusCode] ?? 'ERROR', statusCode, ...extra };
}
