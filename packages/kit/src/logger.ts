// pino logger options shared by both services. Secret-bearing fields are redacted wherever they appear.
import type { LoggerOptions } from 'pino';

export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.secret',
  '*.token',
  '*.value',
  '*.new_password',
  '*.current_password',
];

export function loggerOptions(service: string, level = process.env.LOG_LEVEL ?? 'info'): LoggerOptions {
  return {
    level,
    base: { service },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
  };
}
