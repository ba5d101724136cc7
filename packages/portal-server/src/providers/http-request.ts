// One HTTP(S) request of an engine that speaks JSON over HTTP (Trino's client protocol, Druid's SQL API),
// on node:http/https rather than global fetch so the descriptor's TLS options (CA, client certificate,
// verification mode) apply. The body is read whole, bounded, and handed back as text with the status; an
// AbortSignal stops it. Transport failures become connection errors.
import http from 'node:http';
import https from 'node:https';
import { ProviderError } from './errors.js';
import { tlsOptions } from './ssl.js';
import type { SslConfig } from './types.js';

export interface HttpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

export interface HttpTarget {
  /** `http://host:port` or `https://host:port`. */
  origin: string;
  ssl?: SslConfig;
  host?: string;
  /** Sent on every request (authorization, session headers). */
  headers: Record<string, string>;
}

/** Largest answer body read (a page of results, an error document). */
const MAX_BODY = 256 * 1024 * 1024;

export function httpRequest(
  target: HttpTarget,
  method: string,
  url: string,
  body: string | undefined,
  options: { signal?: AbortSignal; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<HttpAnswer> {
  const full = new URL(url, target.origin);
  const secure = full.protocol === 'https:';
  const agentOptions = secure ? (tlsOptions(target.ssl ?? { mode: 'require' }, target.host) ?? {}) : {};
  return new Promise<HttpAnswer>((resolve, reject) => {
    const req = (secure ? https : http).request(
      full,
      {
        method,
        headers: {
          ...target.headers,
          ...options.headers,
          ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}),
        },
        ...(secure ? agentOptions : {}),
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.timeoutMs ? { timeout: options.timeoutMs } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > MAX_BODY) {
            req.destroy(new ProviderError('query', 'The engine answered more than 256 MB in one response'));
            return;
          }
          chunks.push(c);
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () =>
      req.destroy(new ProviderError('connection', 'The engine did not answer in time')),
    );
    req.on('error', (err: Error & { code?: string }) => {
      if (err instanceof ProviderError || err.name === 'AbortError') reject(err);
      else
        reject(new ProviderError('connection', `The engine is not reachable (${err.code ?? err.message})`));
    });
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** `Authorization: Basic …` for a user and password. */
export function basicAuth(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}
