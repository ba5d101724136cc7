// The HTTP client both search engines are reached with: `fetch` (undici) against `http(s)://host:port`,
// optional basic auth, TLS from the descriptor's `ssl`, every request bounded by an AbortSignal (the query
// deadline or the caller's cancel). Answers are parsed so integers wider than 2^53 keep every digit (as
// exact strings), and failures are mapped onto the provider's error kinds: unreachable → connection,
// 401 → authentication, an engine error body → query error carrying the engine's own reason.
import { Agent, fetch } from 'undici';
import { ProviderError, queryError } from '../errors.js';
import { parseExactJson } from '../exact-json.js';
import { normalizeSsl, tlsOptions } from '../ssl.js';
import type { ResolvedConnection } from '../types.js';
import { errorMessage } from './flavor.js';
import { SEARCH_DEFAULT_PORT } from './search-engine.js';

/** Digits of an integer literal beyond which a double loses precision (2^53 has 16 digits). */

export interface SearchRequest {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  body?: unknown;
  signal?: AbortSignal;
}

export class SearchClient {
  private readonly base: string;
  private readonly auth: string | undefined;
  private readonly dispatcher: Agent;

  constructor(
    conn: ResolvedConnection,
    private readonly product: string,
  ) {
    const d = conn.descriptor;
    const ssl = normalizeSsl(d.ssl);
    const host = conn.host ?? d.host ?? '127.0.0.1';
    const port = conn.port ?? d.port ?? SEARCH_DEFAULT_PORT;
    this.base = `${ssl ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${port}`;
    this.auth =
      d.user || d.password
        ? `Basic ${Buffer.from(`${d.user ?? ''}:${d.password ?? ''}`).toString('base64')}`
        : undefined;
    const tls = tlsOptions(ssl, d.host);
    this.dispatcher = new Agent({
      connect: { timeout: conn.connectTimeoutMs, ...(tls ?? {}) },
      // A statement may legitimately take as long as its deadline; the deadline's AbortSignal ends it.
      headersTimeout: 0,
      bodyTimeout: 0,
    });
  }

  /** One request; the answer's JSON, or the mapped failure. */
  async request(req: SearchRequest): Promise<unknown> {
    let res: Awaited<ReturnType<typeof fetch>>;
    try {
      res = await fetch(`${this.base}${req.path}`, {
        method: req.method,
        headers: {
          accept: 'application/json',
          ...(req.body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(this.auth ? { authorization: this.auth } : {}),
        },
        ...(req.body !== undefined ? { body: JSON.stringify(req.body) } : {}),
        dispatcher: this.dispatcher,
        ...(req.signal ? { signal: req.signal } : {}),
      });
    } catch (err) {
      if (req.signal?.aborted) throw new ProviderError('cancelled', 'The request was cancelled');
      const cause = (err as { cause?: { message?: string; code?: string } }).cause;
      throw new ProviderError(
        'connection',
        `${this.product} at ${this.base} is unreachable: ${cause?.code ?? cause?.message ?? (err as Error).message}`,
      );
    }
    let text: string;
    try {
      text = await res.text();
    } catch (err) {
      if (req.signal?.aborted) throw new ProviderError('cancelled', 'The request was cancelled');
      throw new ProviderError('connection', `${this.product} closed the answer: ${(err as Error).message}`);
    }
    let body: unknown;
    try {
      body = text === '' ? undefined : parseExactJson(text);
    } catch {
      body = undefined;
    }
    if (res.ok) {
      if (body === undefined && text !== '')
        throw queryError(`${this.product} answered ${res.status} with a body that is not JSON`);
      return body;
    }
    const e = errorMessage(body);
    const message =
      e?.message ?? `${this.product} answered HTTP ${res.status}${text ? `: ${text.slice(0, 300)}` : ''}`;
    if (res.status === 401)
      throw new ProviderError('authentication', `${this.product} refused the credentials: ${message}`);
    if (res.status === 502 || res.status === 503 || res.status === 504)
      throw new ProviderError('connection', `${this.product} is unavailable: ${message}`);
    throw queryError(message, e?.type);
  }

  async close(): Promise<void> {
    await this.dispatcher.close().catch(() => undefined);
  }
}
