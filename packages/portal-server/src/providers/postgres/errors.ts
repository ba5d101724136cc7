// PostgreSQL driver errors mapped onto the provider error classes.
import { ProviderError, timeoutError } from '../errors.js';

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
]);

export function mapPgError(err: unknown, timeoutMs: number): ProviderError {
  if (err instanceof ProviderError) return err;
  const e = err as { code?: string; message?: string };
  const message = e.message ?? String(err);
  const code = e.code ?? '';
  if (code === '57014') {
    return /statement timeout/i.test(message)
      ? timeoutError(timeoutMs)
      : new ProviderError('cancelled', message, code);
  }
  if (code === '28P01' || code === '28000') return new ProviderError('authentication', message, code);
  if (code.startsWith('08') || code === '3D000' || code === '57P03' || CONNECTION_CODES.has(code)) {
    return new ProviderError('connection', message, code);
  }
  if (/timeout expired|Connection terminated|connect ECONN/i.test(message))
    return new ProviderError('connection', message, code);
  if (code === '53300') return new ProviderError('pool_exhausted', message, code);
  return new ProviderError('query', message, code);
}
