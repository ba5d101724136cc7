// The ClickHouse HTTP client of the provider: opens @clickhouse/client from the descriptor, runs one statement
// text exactly as written (the result format comes from the `default_format` URL parameter, so a statement's
// own FORMAT or SETTINGS clause is left alone), reads the body, and maps the server's exceptions (both the
// old `Code: N, e.displayText() = …` and the newer `Code: N. DB::Exception: …` wording) onto provider errors.
import { type ClickHouseClient, ClickHouseLogLevel, createClient } from '@clickhouse/client';
import { ProviderError, queryError, timeoutError } from '../errors.js';
import { normalizeSsl } from '../ssl.js';
import type { ResolvedConnection } from '../types.js';
import { clickhouseUrl } from './engine.js';

/** The body a statement answered, with the headers that say what it did. */
export interface RawAnswer {
  text: string;
  /** Rows the server says it wrote (X-ClickHouse-Summary; absent on old servers). */
  writtenRows?: number;
  /** The body was cut at the read cap. */
  cut: boolean;
}

/** Largest body read for one answer (an explicit FORMAT may produce any amount of text). */
export const MAX_BODY_BYTES = 64 * 1024 * 1024;

export function openClickhouse(conn: ResolvedConnection): ClickHouseClient {
  const d = conn.descriptor;
  const ssl = normalizeSsl(d.ssl);
  let url: URL;
  let username = d.user;
  let password = d.password;
  let database = d.database;
  if (d.connectionString) {
    url = clickhouseUrl(d.connectionString);
    if (url.username) username ??= decodeURIComponent(url.username);
    if (url.password) password ??= decodeURIComponent(url.password);
    const path = url.pathname.replace(/^\/+|\/+$/g, '');
    if (path) database ??= decodeURIComponent(path);
    url = new URL(`${url.protocol}//${url.host}`);
  } else {
    const scheme = ssl && ssl.mode !== 'disable' ? 'https' : 'http';
    url = new URL(`${scheme}://${conn.host ?? d.host}:${conn.port ?? d.port ?? 8123}`);
  }
  return createClient({
    url,
    ...(username ? { username } : {}),
    ...(password !== undefined ? { password } : {}),
    ...(database ? { database } : {}),
    // The deadline is the provider's (withDeadline); the socket timeout only catches a dead server.
    request_timeout: Math.min(conn.queryTimeoutMs + 30_000, 2_147_483_647),
    compression: { request: false, response: false },
    log: { level: ClickHouseLogLevel.OFF },
    ...(ssl?.ca ? { tls: { ca_cert: Buffer.from(ssl.ca) } } : {}),
  });
}

/** Server code and message of a ClickHouse exception text. */
export function parseServerError(text: string): { code?: string; message: string } {
  const trimmed = text.trim();
  const code = /^Code:\s*(\d+)/.exec(trimmed)?.[1];
  const old = /e\.displayText\(\) = (?:DB::Exception: )?([\s\S]*?)(?:, e\.what\(\) = [\s\S]*)?$/.exec(
    trimmed,
  );
  const modern =
    /^Code:\s*\d+\.\s*(?:DB::Exception: )?([\s\S]*?)(?:\s*\(([A-Z_]+)\)(?:\s*\(version [^)]*\))?)?\s*$/.exec(
      trimmed,
    );
  const message = (old?.[1] ?? modern?.[1] ?? trimmed).trim();
  return { ...(code ? { code } : {}), message: message || trimmed };
}

const AUTH_CODES = new Set(['192', '193', '194', '516']);
const CONNECT_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/** Any failure of a ClickHouse call as a provider error. */
export function mapClickhouseError(err: unknown, timeoutMs: number): ProviderError {
  if (err instanceof ProviderError) return err;
  const e = err as { code?: string; message?: string; name?: string; cause?: { code?: string } };
  const sys = e.code && !/^\d+$/.test(e.code) ? e.code : e.cause?.code;
  if (sys && CONNECT_CODES.has(sys))
    return new ProviderError('connection', `ClickHouse is not reachable (${sys})`);
  if (e.name === 'AbortError') return new ProviderError('cancelled', 'The statement was cancelled');
  if (/timeout/i.test(e.message ?? '') && !/^Code:/.test(e.message ?? '')) return timeoutError(timeoutMs);
  const parsed = parseServerError(String(e.message ?? err));
  const code = parsed.code ?? (e.code && /^\d+$/.test(e.code) ? e.code : undefined);
  if (code && AUTH_CODES.has(code)) return new ProviderError('authentication', parsed.message, code);
  if (code === '159') return timeoutError(timeoutMs);
  if (code === '394') return new ProviderError('cancelled', 'The statement was cancelled', code);
  return queryError(parsed.message, code);
}

/** Reads a response stream as text, up to `MAX_BODY_BYTES`. */
export async function readBody(
  stream: AsyncIterable<Buffer | string>,
): Promise<{ text: string; cut: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    chunks.push(b);
    size += b.length;
    if (size > MAX_BODY_BYTES) {
      (stream as { destroy?: () => void }).destroy?.();
      return { text: Buffer.concat(chunks).subarray(0, MAX_BODY_BYTES).toString('utf8'), cut: true };
    }
  }
  return { text: Buffer.concat(chunks).toString('utf8'), cut: false };
}

/**
 * ClickHouse streams the result before it knows whether the statement failed: an exception raised mid-way
 * is appended to the body. A body whose last line is an exception text is that error.
 */
export function trailingException(text: string): string | undefined {
  const tail = text.trimEnd();
  const at = tail.lastIndexOf('\nCode: ');
  const candidate = at >= 0 ? tail.slice(at + 1) : tail.startsWith('Code: ') ? tail : '';
  return /^Code:\s*\d+[.,]/.test(candidate) && /Exception/.test(candidate) ? candidate : undefined;
}
