// The Couchbase REST client (no SDK): the management port (8091, 18091 with TLS) answers the cluster map,
// from which the query service's port is discovered (GET /pools/default/nodeServices → services.n1ql or
// n1qlSSL; never configured), and SQL++ runs as POST /query/service with request-plus scan consistency and
// the query service's own `timeout`. Replies are parsed with 64-bit integers kept exact (as strings), and
// failures map onto the provider's error kinds: 401 authentication, an unreachable node connection, a
// status other than success a query error carrying the engine's message (no usable index → the create-index
// remedy), the service's own timeout a timeout.
import { randomUUID } from 'node:crypto';
import { configError, ProviderError, queryError, timeoutError } from '../errors.js';
import { parseExactJson } from '../exact-json.js';
import { normalizeSsl } from '../ssl.js';
import type { ResolvedConnection } from '../types.js';

export interface QueryReply {
  requestID?: string;
  status: string;
  results: unknown[];
  errors: Array<{ code: number; msg: string }>;
  metrics: Record<string, unknown>;
  warnings?: Array<{ code: number; msg: string }>;
}

export interface QueryOptions {
  args?: unknown[];
  /** The query service refuses anything but SELECT, EXPLAIN, INFER and ADVISE. */
  readonly?: boolean;
  signal?: AbortSignal;
  clientContextId?: string;
  timeoutMs: number;
}

/** The message of a keyspace without a usable index always carries the remedy (older servers say it). */
export function withIndexRemedy(code: number, msg: string): string {
  if (code !== 4000 || /CREATE (PRIMARY )?INDEX/i.test(msg)) return msg;
  const ks = /keyspace ([^\s]+)/i.exec(msg)?.[1];
  return `${msg} Create an index first, e.g. CREATE PRIMARY INDEX ON ${ks ?? '<keyspace>'}.`;
}

export class CouchbaseClient {
  private queryBase: string | undefined;
  readonly tls: boolean;

  constructor(private readonly conn: ResolvedConnection) {
    const d = conn.descriptor;
    const ssl = normalizeSsl(d.ssl);
    if (ssl && (ssl.ca || ssl.cert || ssl.key))
      throw configError(
        'Couchbase over REST uses the system trust store; ssl.ca, ssl.cert and ssl.key are not accepted',
      );
    this.tls = ssl !== undefined;
  }

  private get host(): string {
    return this.conn.host ?? this.conn.descriptor.host ?? '127.0.0.1';
  }

  get managementBase(): string {
    const port = this.conn.port ?? this.conn.descriptor.port ?? (this.tls ? 18091 : 8091);
    return `${this.tls ? 'https' : 'http'}://${hostPart(this.host)}:${port}`;
  }

  /** The Basic authorization header (empty without a user). */
  authHeaders(): Record<string, string> {
    return this.auth;
  }

  private get auth(): Record<string, string> {
    const d = this.conn.descriptor;
    if (!d.user) return {};
    return { authorization: `Basic ${Buffer.from(`${d.user}:${d.password ?? ''}`).toString('base64')}` };
  }

  private async send(url: string, init: RequestInit, what: string): Promise<Response> {
    try {
      return await fetch(url, { ...init, headers: { ...this.auth, ...(init.headers ?? {}) } });
    } catch (err) {
      if ((err as Error).name === 'AbortError' || (err as Error).name === 'TimeoutError') throw err;
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      throw new ProviderError(
        'connection',
        `Couchbase ${what} is unreachable: ${cause?.code ?? cause?.message ?? (err as Error).message}`,
      );
    }
  }

  /** GET on the management port, parsed. */
  async management(path: string): Promise<unknown> {
    const res = await this.send(
      `${this.managementBase}${path}`,
      { signal: AbortSignal.timeout(this.conn.connectTimeoutMs) },
      'management service',
    );
    if (res.status === 401 || res.status === 403)
      throw new ProviderError(
        'authentication',
        `Couchbase refused the credentials (HTTP ${res.status} on ${path})`,
      );
    const text = await res.text();
    if (!res.ok) throw queryError(`Couchbase answered HTTP ${res.status} on ${path}: ${text.slice(0, 300)}`);
    try {
      return parseExactJson(text);
    } catch {
      throw new ProviderError('connection', `Couchbase answered ${path} with something that is not JSON`);
    }
  }

  /** The query service's base URL, discovered from the cluster map (a node that runs n1ql). */
  async queryService(): Promise<string> {
    if (this.queryBase) return this.queryBase;
    const map = (await this.management('/pools/default/nodeServices')) as {
      nodesExt?: Array<{ hostname?: string; thisNode?: boolean; services?: Record<string, number> }>;
    };
    const nodes = (map.nodesExt ?? []).filter((n) => n.services?.[this.tls ? 'n1qlSSL' : 'n1ql']);
    const node = nodes.find((n) => n.thisNode) ?? nodes[0];
    if (!node)
      throw new ProviderError('connection', 'No node of this Couchbase cluster runs the query service');
    const port = node.services?.[this.tls ? 'n1qlSSL' : 'n1ql'] as number;
    // A node's hostname is absent when it is the one we asked (single-node clusters): the configured host,
    // which behind an SSH tunnel only the bastion reaches, so the query port is forwarded through it too.
    const target = {
      host: node.thisNode || !node.hostname ? (this.conn.descriptor.host ?? this.host) : node.hostname,
      port,
    };
    const reached = this.conn.reach ? await this.conn.reach(target) : target;
    this.queryBase = `${this.tls ? 'https' : 'http'}://${hostPart(reached.host)}:${reached.port}`;
    return this.queryBase;
  }

  /** Runs one SQL++ statement; answers the reply of a successful request, throws the mapped error otherwise. */
  async query(statement: string, opts: QueryOptions): Promise<QueryReply> {
    const base = await this.queryService();
    const body: Record<string, unknown> = {
      statement,
      scan_consistency: 'request_plus',
      timeout: `${opts.timeoutMs}ms`,
      client_context_id: opts.clientContextId ?? randomUUID(),
    };
    if (opts.args && opts.args.length > 0) body.args = opts.args;
    if (opts.readonly) body.readonly = true;
    let res: Response;
    try {
      res = await this.send(
        `${base}/query/service`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
          signal: opts.signal,
        },
        'query service',
      );
    } catch (err) {
      // The node may have gone: the next request asks the cluster map again.
      if (err instanceof ProviderError) this.queryBase = undefined;
      throw err;
    }
    if (res.status === 401)
      throw new ProviderError('authentication', 'Couchbase refused the credentials for the query service');
    const text = await res.text();
    let reply: QueryReply;
    try {
      const raw = parseExactJson(text) as Partial<QueryReply>;
      reply = {
        requestID: raw.requestID,
        status: String(raw.status ?? (res.ok ? 'success' : 'errors')),
        results: Array.isArray(raw.results) ? raw.results : [],
        errors: Array.isArray(raw.errors) ? raw.errors : [],
        metrics: (raw.metrics as Record<string, unknown>) ?? {},
        ...(Array.isArray(raw.warnings) ? { warnings: raw.warnings } : {}),
      };
    } catch {
      throw queryError(`The query service answered HTTP ${res.status} without a JSON body`);
    }
    if (reply.status === 'success') return reply;
    const first = reply.errors[0] ?? { code: 0, msg: `the request ended with status ${reply.status}` };
    if (reply.status === 'timeout' || first.code === 1080) throw timeoutError(opts.timeoutMs);
    if (first.code >= 10000 && first.code < 11000 && /auth|credential|permission/i.test(first.msg))
      throw queryError(`Couchbase refused the request: ${first.msg}`, String(first.code));
    throw queryError(withIndexRemedy(first.code, first.msg), String(first.code));
  }
}

function hostPart(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
