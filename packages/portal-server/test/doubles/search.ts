// A loopback HTTP double of a search engine's REST surface, in either product's wire shape (no server can
// be installed here). It reproduces the documented answers the portal reads:
//   Elasticsearch  POST /_sql?format=json {query, fetch_size} → {columns:[{name,type}], rows, cursor?};
//                  POST /_sql?format=json {cursor} → {rows, cursor?}; POST /_sql/close {cursor} → {succeeded}
//   OpenSearch     POST /_plugins/_sql {query, fetch_size} → {schema:[{name,type}], datarows, total, size,
//                  status, cursor?}; {cursor} → {datarows, cursor?}; POST /_plugins/_sql/close
//   both           GET /, GET /_cat/indices?format=json, GET /<index>/_mapping, GET /_cluster/health,
//                  GET /_nodes/stats, GET /_tasks; errors as {error:{type, reason, …}, status}
// SQL is the small subset of search-sql.ts. Pages hold min(fetch_size, the index's own page size) rows, so
// an index can page like an aggregation does. An index named `hang` never answers (until the client goes).
// Optionally behind basic auth and/or https (a self-signed certificate).
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { evaluate, SqlError, type SqlIndex } from './search-sql.js';

export type SearchKind = 'elasticsearch' | 'opensearch';

export interface DoubleIndex extends SqlIndex {
  /** Rows per page at most (the engine paging on its own, as with aggregations). */
  pageSize?: number;
}

export interface SearchDouble {
  url: string;
  host: string;
  port: number;
  /** Every SQL text received, in order. */
  queries: string[];
  /** Every first request body ({query, fetch_size?}), in order. */
  bodies: Record<string, unknown>[];
  /** Cursors closed through the close endpoint. */
  closed: string[];
  /** Cursor pages served (requests carrying a cursor). */
  cursorPages: number;
  /** Requests of the `hang` index whose client went away. */
  abandoned: number;
  /** When set, node statistics lack `http.current_open` (health must fail, not read 0). */
  breakStats: boolean;
  open(): number;
  close(): Promise<void>;
}

interface Cursor {
  rows: unknown[][];
  pos: number;
  size: number;
}

export async function startSearchDouble(
  kind: SearchKind,
  indices: Record<string, DoubleIndex>,
  auth?: { user: string; password: string },
  /** Serve https with this certificate and key (PEM). */
  tls?: { cert: string; key: string },
): Promise<SearchDouble> {
  const map = new Map(Object.entries(indices));
  const cursors = new Map<string, Cursor>();
  const es = kind === 'elasticsearch';
  const sqlPath = es ? '/_sql' : '/_plugins/_sql';
  const state = {
    queries: [] as string[],
    bodies: [] as Record<string, unknown>[],
    closed: [] as string[],
    cursorPages: 0,
    abandoned: 0,
    breakStats: false,
  };

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    // Wide integers (BigInt in the fixtures) go out as bare JSON digits, as the engines write `long` values.
    const text = JSON.stringify(body, (_k, v) => (typeof v === 'bigint' ? `__wide__${v}` : v));
    res.end(text.replace(/"__wide__(-?\d+)"/g, '$1'));
  };
  const error = (res: ServerResponse, status: number, type: string, reason: string, details?: string) =>
    send(res, status, {
      error: es
        ? { root_cause: [{ type, reason }], type, reason }
        : { reason, details: details ?? reason, type },
      status,
    });

  /** A page of `c`, in the product's shape; the cursor is dropped with the last page. */
  const page = (
    id: string,
    c: Cursor,
    first: { columns: Array<{ name: string; type: string }> } | undefined,
  ) => {
    const rows = c.rows.slice(c.pos, c.pos + c.size);
    c.pos += rows.length;
    const more = c.pos < c.rows.length;
    if (!more) cursors.delete(id);
    if (es) return { ...(first ? { columns: first.columns } : {}), rows, ...(more ? { cursor: id } : {}) };
    return {
      ...(first ? { schema: first.columns, total: c.rows.length, size: rows.length, status: 200 } : {}),
      datarows: rows,
      ...(more ? { cursor: id } : {}),
    };
  };

  const sql = (req: IncomingMessage, res: ServerResponse, body: Record<string, unknown>) => {
    if (typeof body.cursor === 'string') {
      const c = cursors.get(body.cursor);
      if (!c)
        return error(
          res,
          404,
          es ? 'search_context_missing_exception' : 'IllegalArgumentException',
          'No search context found for id',
        );
      state.cursorPages++;
      return send(res, 200, page(body.cursor, c, undefined));
    }
    if (typeof body.query !== 'string')
      return error(res, 400, 'x_content_parse_exception', 'request does not carry a query');
    state.queries.push(body.query);
    state.bodies.push(body);
    if (/\bhang\b/.test(body.query)) {
      req.socket.once('close', () => state.abandoned++);
      return; // never answers
    }
    try {
      const result = evaluate(body.query, map, !es);
      const index = [...map.entries()].find(([n]) =>
        new RegExp(`\\b${n}\\b`).test(body.query as string),
      )?.[1];
      const asked = typeof body.fetch_size === 'number' && body.fetch_size > 0 ? body.fetch_size : undefined;
      // Elasticsearch always pages (fetch_size defaults to 1000); OpenSearch without fetch_size answers whole.
      const fetch = asked ?? (es ? 1000 : Number.MAX_SAFE_INTEGER);
      const size = asked || es ? Math.min(fetch, index?.pageSize ?? fetch) : fetch;
      const id = randomUUID();
      const c: Cursor = { rows: result.rows, pos: 0, size };
      cursors.set(id, c);
      return send(res, 200, page(id, c, { columns: result.columns }));
    } catch (err) {
      if (!(err instanceof SqlError)) throw err;
      if (es) {
        const type = err.kind === 'parsing' ? 'parsing_exception' : 'verification_exception';
        return error(res, 400, type, err.message);
      }
      const type =
        err.kind === 'parsing'
          ? 'SyntaxCheckException'
          : err.kind === 'index'
            ? 'IndexNotFoundException'
            : 'SemanticCheckException';
      return error(
        res,
        err.kind === 'index' ? 404 : 400,
        type,
        err.kind === 'parsing' ? 'Invalid SQL query' : 'Error occurred in OpenSearch engine',
        err.message,
      );
    }
  };

  const storeBytes = (name: string) =>
    JSON.stringify(map.get(name)?.docs ?? [], (_k, v) => (typeof v === 'bigint' ? String(v) : v)).length;

  const route = (req: IncomingMessage, res: ServerResponse, raw: string) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (auth) {
      const expected = `Basic ${Buffer.from(`${auth.user}:${auth.password}`).toString('base64')}`;
      if (req.headers.authorization !== expected)
        return error(
          res,
          401,
          'security_exception',
          `unable to authenticate user for REST request [${url.pathname}]`,
        );
    }
    let body: Record<string, unknown> = {};
    if (raw !== '') {
      try {
        body = JSON.parse(raw);
      } catch {
        return error(res, 400, 'parse_exception', 'request body is required to be JSON');
      }
    }
    const p = url.pathname;
    if (req.method === 'POST' && p === sqlPath) return sql(req, res, body);
    if (req.method === 'POST' && p === `${sqlPath}/close`) {
      const id = String(body.cursor);
      state.closed.push(id);
      return send(res, 200, { succeeded: cursors.delete(id) });
    }
    if (req.method !== 'GET')
      return error(res, 405, 'method_not_allowed', `Incorrect HTTP method for uri [${p}]`);
    if (p === '/')
      return send(res, 200, {
        name: 'node-1',
        cluster_name: 'double-cluster',
        version: es
          ? { number: '8.15.0', build_flavor: 'default' }
          : { distribution: 'opensearch', number: '2.17.0' },
        tagline: es ? 'You Know, for Search' : 'The OpenSearch Project: https://opensearch.org/',
      });
    if (p === '/_cat/indices') {
      const list = [...map.keys(), '.kibana_1'].map((name) => ({
        health: 'green',
        status: 'open',
        index: name,
        'docs.count': String(map.get(name)?.docs.length ?? 1),
        'store.size': String(storeBytes(name)),
      }));
      return send(res, 200, list);
    }
    if (p === '/_cluster/health')
      return send(res, 200, {
        cluster_name: 'double-cluster',
        status: 'green',
        number_of_nodes: 1,
        active_shards: map.size,
      });
    if (p.startsWith('/_nodes/stats')) {
      const total = [...map.keys()].reduce((n, k) => n + storeBytes(k), 0);
      return send(res, 200, {
        nodes: {
          n1: {
            name: 'node-1',
            indices: {
              docs: { count: [...map.values()].reduce((n, i) => n + i.docs.length, 0) },
              store: { size_in_bytes: total },
              query_cache: { hit_count: 30, miss_count: 10 },
              search: { query_total: state.queries.length, query_time_in_millis: 12, query_current: 0 },
            },
            http: state.breakStats ? { total_opened: 3 } : { current_open: 2, total_opened: 3 },
            jvm: { mem: { heap_used_percent: 41 } },
            os: { cpu: { percent: 7 } },
          },
        },
      });
    }
    if (p === '/_tasks')
      return send(res, 200, {
        nodes: {
          n1: {
            name: 'node-1',
            tasks: {
              'n1:42': {
                node: 'n1',
                id: 42,
                action: 'indices:data/read/sql',
                description: 'SELECT * FROM people',
                running_time_in_nanos: 3_000_000,
                cancellable: true,
                headers: {},
              },
            },
          },
        },
      });
    const mapping = /^\/([^/_][^/]*)\/_mapping$/.exec(p);
    if (mapping) {
      const name = decodeURIComponent(mapping[1]);
      const index = map.get(name);
      if (!index) return error(res, 404, 'index_not_found_exception', `no such index [${name}]`);
      return send(res, 200, { [name]: { mappings: { properties: index.properties } } });
    }
    return error(res, 400, 'illegal_argument_exception', `no handler found for uri [${p}] and method [GET]`);
  };

  const handler = (req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      try {
        route(req, res, raw);
      } catch (err) {
        send(res, 500, { error: { type: 'exception', reason: String(err) }, status: 500 });
      }
    });
  };
  const server: Server = tls ? createTlsServer(tls, handler) : createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(state, {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    host: '127.0.0.1',
    port,
    open: () => cursors.size,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  });
}
