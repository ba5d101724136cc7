// A Trino coordinator double speaking the documented client protocol on a loopback port: POST /v1/statement
// answers a QUEUED page with only `nextUri`; each GET of a `nextUri` answers the next page of `columns` and
// `data` (two rows a page, so every result crosses pages); a failed statement is HTTP 200 with an `error`
// object (Trino's own SYNTAX_ERROR wording, e.g. for LIMIT before OFFSET or a trailing semicolon); DELETE on a
// `nextUri` cancels the query (it then reports USER_CANCELED). BIGINT values are written as bare JSON numbers,
// wide ones included. It holds tables in memory and runs a small SELECT/INSERT/DELETE subset on them, the
// information_schema, SHOW CATALOGS, system.runtime.queries/nodes and system.runtime.kill_query, and records
// every request (method, path, headers, body) so tests can check what the provider sent.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TrinoTable {
  columns: Array<{ name: string; type: string }>;
  rows: unknown[][];
}

interface Outcome {
  columns?: Array<{ name: string; type: string }>;
  data?: unknown[][];
  updateType?: string;
  updateCount?: number;
  error?: { message: string; errorName: string; errorType: string; errorCode: number };
  /** Never finishes on its own: RUNNING pages until cancelled or killed. */
  hang?: boolean;
}

interface Query {
  id: string;
  sql: string;
  user: string;
  outcome: Outcome;
  page: number;
  state: 'RUNNING' | 'FINISHED' | 'FAILED';
  cancelled: boolean;
}

export interface TrinoDouble {
  url: string;
  port: number;
  requests: Array<{ method: string; path: string; headers: IncomingHttpHeaders; body: string }>;
  /** Statement bodies POSTed, in order. */
  statements: string[];
  /** Query ids stopped by DELETE. */
  deleted: string[];
  /** Catalog → schema → table. */
  catalogs: Map<string, Map<string, Map<string, TrinoTable>>>;
  close(): Promise<void>;
}

const PAGE = 2;

const syntaxError = (message: string): Outcome => ({
  error: { message, errorName: 'SYNTAX_ERROR', errorType: 'USER_ERROR', errorCode: 1 },
});

/** JSON with bigint values written as bare integer literals (as Trino writes BIGINT). */
function wire(value: unknown): string {
  return JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? `@@big${v}@@` : v)).replace(
    /"@@big(-?\d+)@@"/g,
    '$1',
  );
}

export async function startTrinoDouble(): Promise<TrinoDouble> {
  const queries = new Map<string, Query>();
  const requests: TrinoDouble['requests'] = [];
  const statements: string[] = [];
  const deleted: string[] = [];
  const catalogs: TrinoDouble['catalogs'] = new Map();
  let seq = 0;
  let base = '';

  const tableOf = (name: string, headers: IncomingHttpHeaders): TrinoTable | undefined => {
    const parts = name.replace(/"/g, '').split('.');
    const cat = parts.length === 3 ? parts[0] : String(headers['x-trino-catalog'] ?? '');
    const schema = parts.length >= 2 ? parts[parts.length - 2] : String(headers['x-trino-schema'] ?? '');
    return catalogs
      .get(cat)
      ?.get(schema)
      ?.get(parts[parts.length - 1]);
  };

  function execute(sql: string, headers: IncomingHttpHeaders): Outcome {
    const text = sql.trim();
    if (text.endsWith(';')) return syntaxError("line 1:1: mismatched input ';'. Expecting: <EOF>");
    if (/\bLIMIT\s+\d+\s+OFFSET\b/i.test(text))
      return syntaxError("line 1:1: mismatched input 'OFFSET'. Expecting: <EOF>");
    if (/sleep_forever/i.test(text)) return { hang: true };
    if (/^SHOW CATALOGS$/i.test(text))
      return {
        columns: [{ name: 'Catalog', type: 'varchar(6)' }],
        data: [...catalogs.keys(), 'system'].map((c) => [c]),
      };
    let m =
      /^SELECT table_schema, table_name, table_type FROM "(\w+)"\.information_schema\.tables\s+WHERE table_schema <> 'information_schema'(?: AND table_schema = '(\w+)')?/i.exec(
        text,
      );
    if (m) {
      const data: unknown[][] = [];
      for (const [s, tables] of catalogs.get(m[1]) ?? [])
        if (!m[2] || m[2] === s) for (const t of tables.keys()) data.push([s, t, 'BASE TABLE']);
      return {
        columns: [
          { name: 'table_schema', type: 'varchar' },
          { name: 'table_name', type: 'varchar' },
          { name: 'table_type', type: 'varchar' },
        ],
        data,
      };
    }
    m = /^SELECT schema_name FROM "(\w+)"\.information_schema\.schemata/i.exec(text);
    if (m)
      return {
        columns: [{ name: 'schema_name', type: 'varchar' }],
        data: [...(catalogs.get(m[1])?.keys() ?? [])].map((s) => [s]),
      };
    m =
      /^SELECT column_name, data_type, is_nullable, column_default FROM "(\w+)"\.information_schema\.columns\s+WHERE table_schema = '(\w+)' AND table_name = '(\w+)'/i.exec(
        text,
      );
    if (m) {
      const t = catalogs.get(m[1])?.get(m[2])?.get(m[3]);
      return {
        columns: ['column_name', 'data_type', 'is_nullable', 'column_default'].map((name) => ({
          name,
          type: 'varchar',
        })),
        data: (t?.columns ?? []).map((c) => [c.name, c.type, 'YES', null]),
      };
    }
    if (/FROM system\.runtime\.queries WHERE state NOT IN/i.test(text)) {
      const live = [...queries.values()].filter((q) => q.state === 'RUNNING');
      return {
        columns: ['query_id', 'user', 'state', 'query', 'ms'].map((name) => ({
          name,
          type: name === 'ms' ? 'bigint' : 'varchar',
        })),
        data: live.map((q) => [q.id, q.user, q.state, q.sql, 5]),
      };
    }
    if (/FROM system\.runtime\.queries WHERE state = 'FINISHED'/i.test(text))
      return {
        columns: ['query', 'calls', 'avg_ms'].map((name) => ({
          name,
          type: name === 'query' ? 'varchar' : 'double',
        })),
        data: [['SELECT 1', 3, 12.5]],
      };
    if (/FROM system\.runtime\.nodes/i.test(text))
      return {
        columns: ['node_id', 'http_uri', 'node_version', 'coordinator', 'state'].map((name) => ({
          name,
          type: 'varchar',
        })),
        data: [['node-1', base, '468', true, 'active']],
      };
    m = /^CALL system\.runtime\.kill_query\(query_id => '(\w+)'/i.exec(text);
    if (m) {
      const q = queries.get(m[1]);
      if (!q)
        return {
          error: {
            message: `Target query not found: ${m[1]}`,
            errorName: 'NOT_FOUND',
            errorType: 'USER_ERROR',
            errorCode: 44,
          },
        };
      q.cancelled = true;
      return { updateType: 'CALL' };
    }
    m = /^EXPLAIN \(FORMAT JSON\) (SELECT[\s\S]*)$/i.exec(text);
    if (m)
      return {
        columns: [{ name: 'Query Plan', type: 'varchar' }],
        data: [[JSON.stringify({ id: '0', name: 'Output', children: [] })]],
      };
    m =
      /^SELECT (.+?) FROM ([\w."]+)(?: WHERE (\w+) = (\d+|'[^']*'))?(?: ORDER BY (\w+))?(?:\s+OFFSET (\d+))?(?:\s+LIMIT (\d+))?$/is.exec(
        text,
      );
    if (m) {
      const t = tableOf(m[2], headers);
      if (!t)
        return {
          error: {
            message: `line 1:15: Table '${m[2]}' does not exist`,
            errorName: 'TABLE_NOT_FOUND',
            errorType: 'USER_ERROR',
            errorCode: 46,
          },
        };
      const names = m[1] === '*' ? t.columns.map((c) => c.name) : m[1].split(',').map((s) => s.trim());
      const idx = names.map((n) => t.columns.findIndex((c) => c.name === n));
      const missing = names.find((_n, i) => idx[i] < 0);
      if (missing)
        return {
          error: {
            message: `line 1:8: Column '${missing}' cannot be resolved`,
            errorName: 'COLUMN_NOT_FOUND',
            errorType: 'USER_ERROR',
            errorCode: 47,
          },
        };
      let rows = t.rows;
      if (m[3]) {
        const col = t.columns.findIndex((c) => c.name === m?.[3]);
        const want = m[4].startsWith("'") ? m[4].slice(1, -1) : m[4];
        rows = rows.filter((r) => String(r[col]) === want);
      }
      rows = rows.slice(Number(m[6] ?? 0), m[7] ? Number(m[6] ?? 0) + Number(m[7]) : undefined);
      return {
        columns: names.map((n, i) => t.columns[idx[i]] ?? { name: n, type: 'unknown' }),
        data: rows.map((r) => idx.map((i) => r[i])),
      };
    }
    m = /^DELETE FROM ([\w."]+) WHERE id = (\d+)$/i.exec(text);
    if (m) {
      const t = tableOf(m[1], headers);
      if (!t) return syntaxError(`Table ${m[1]} does not exist`);
      const before = t.rows.length;
      t.rows = t.rows.filter((r) => String(r[0]) !== m?.[2]);
      return { updateType: 'DELETE', updateCount: before - t.rows.length };
    }
    m = /^INSERT INTO ([\w."]+) VALUES \((\d+), '([^']*)'\)$/i.exec(text);
    if (m) {
      const t = tableOf(m[1], headers);
      if (!t) return syntaxError(`Table ${m[1]} does not exist`);
      t.rows.push([BigInt(m[2]), m[3], ...t.columns.slice(2).map(() => null)]);
      return { updateType: 'INSERT', updateCount: 1 };
    }
    return syntaxError(
      `line 1:1: mismatched input '${text.split(/\s+/)[0]}'. Expecting: 'SELECT', 'SHOW', 'INSERT', 'DELETE'`,
    );
  }

  const page = (q: Query): Record<string, unknown> => {
    const head = { id: q.id, infoUri: `${base}/ui/query.html?${q.id}` };
    if (q.cancelled) {
      q.state = 'FAILED';
      return {
        ...head,
        stats: { state: 'FAILED' },
        error: {
          message: 'Query was canceled',
          errorName: 'USER_CANCELED',
          errorType: 'USER_ERROR',
          errorCode: 3,
        },
      };
    }
    const o = q.outcome;
    if (o.hang)
      return {
        ...head,
        nextUri: `${base}/v1/statement/executing/${q.id}/${++q.page}`,
        stats: { state: 'RUNNING' },
      };
    if (o.error) {
      q.state = 'FAILED';
      return { ...head, stats: { state: 'FAILED' }, error: o.error };
    }
    const data = o.data ?? [];
    const from = q.page * PAGE;
    q.page++;
    const more = from + PAGE < data.length;
    if (!more) q.state = 'FINISHED';
    return {
      ...head,
      ...(o.columns ? { columns: o.columns } : {}),
      ...(data.length > 0 ? { data: data.slice(from, from + PAGE) } : {}),
      ...(more ? { nextUri: `${base}/v1/statement/executing/${q.id}/${q.page}` } : {}),
      ...(o.updateType ? { updateType: o.updateType } : {}),
      ...(o.updateCount !== undefined ? { updateCount: o.updateCount } : {}),
      stats: { state: more ? 'RUNNING' : 'FINISHED' },
    };
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '/';
      requests.push({ method: req.method ?? '', path, headers: req.headers, body });
      const send = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(wire(value));
      };
      if (req.method === 'GET' && path === '/v1/info')
        return send(200, {
          nodeVersion: { version: '468' },
          environment: 'test',
          coordinator: true,
          starting: false,
        });
      if (req.method === 'POST' && path === '/v1/statement') {
        if (!req.headers['x-trino-user']) return send(400, { message: 'X-Trino-User must be set' });
        statements.push(body);
        const id = `20261124_000000_${String(++seq).padStart(5, '0')}_double`;
        const q: Query = {
          id,
          sql: body,
          user: String(req.headers['x-trino-user']),
          outcome: execute(body, req.headers),
          page: 0,
          state: 'RUNNING',
          cancelled: false,
        };
        queries.set(id, q);
        return send(200, {
          id,
          infoUri: `${base}/ui/query.html?${id}`,
          nextUri: `${base}/v1/statement/queued/${id}/x/0`,
          stats: { state: 'QUEUED' },
        });
      }
      const m = /^\/v1\/statement\/(?:queued|executing)\/(\w+)\//.exec(path);
      const q = m ? queries.get(m[1]) : undefined;
      if (!q) return send(404, { message: 'Query not found' });
      if (req.method === 'DELETE') {
        deleted.push(q.id);
        q.cancelled = true;
        q.state = 'FAILED';
        res.writeHead(204);
        return res.end();
      }
      if (q.outcome.hang && !q.cancelled) {
        // A running query answers a page with no data a little later, as the coordinator does.
        setTimeout(() => send(200, page(q)), 50);
        return;
      }
      return send(200, page(q));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  return {
    url: base,
    port,
    requests,
    statements,
    deleted,
    catalogs,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
