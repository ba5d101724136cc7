// A Druid router/broker double speaking the documented SQL API on a loopback port: POST /druid/v2/sql with
// `resultFormat: arrayLines` and the header lines (names, Druid types, SQL types) answers one JSON array per
// line and a closing blank line; BIGINTs past 2^53 are bare JSON numbers; array columns are JSON strings (as
// with Druid's default sqlStringifyArrays); `?` parameters bind from `parameters`. It reproduces Druid's
// refusals as 400 error documents (INSERT/REPLACE "not supported by requested SQL engine [native]", the
// grammar error for UPDATE/DELETE/CREATE, the planner refusing to order a scan by a non-time column),
// EXPLAIN PLAN FOR as a native-query tree, INFORMATION_SCHEMA, sys.segments/tasks/servers, GET /status,
// optional basic auth, and DELETE /druid/v2/sql/{sqlQueryId} for a query that runs until cancelled
// (`slow_scan`). Every request is recorded.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface DruidColumn {
  name: string;
  /** Druid's own type (LONG, STRING, …) and the SQL type (BIGINT, VARCHAR, TIMESTAMP, …). */
  type: string;
  sqlType: string;
}

export interface DruidDouble {
  url: string;
  port: number;
  requests: Array<{ method: string; path: string; headers: IncomingHttpHeaders; body: Record<string, any> }>;
  /** Query texts POSTed, in order. */
  queries: string[];
  /** sqlQueryIds cancelled by DELETE. */
  cancelled: string[];
  tables: Map<string, { columns: DruidColumn[]; rows: unknown[][] }>;
  close(): Promise<void>;
}

function wire(value: unknown): string {
  return JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? `@@big${v}@@` : v)).replace(
    /"@@big(-?\d+)@@"/g,
    '$1',
  );
}

const failure = (errorMessage: string, errorCode = 'invalidInput') => ({
  error: 'druidException',
  errorCode,
  persona: 'USER',
  category: 'INVALID_INPUT',
  errorMessage,
  context: {},
});

interface Answer {
  status: number;
  error?: Record<string, unknown>;
  columns?: DruidColumn[];
  rows?: unknown[][];
  hang?: boolean;
}

const col = (name: string, type = 'STRING', sqlType = 'VARCHAR'): DruidColumn => ({ name, type, sqlType });

export async function startDruidDouble(
  options: { user?: string; password?: string } = {},
): Promise<DruidDouble> {
  const requests: DruidDouble['requests'] = [];
  const queries: string[] = [];
  const cancelled: string[] = [];
  const tables: DruidDouble['tables'] = new Map();
  const hanging = new Map<string, ServerResponse>();

  function run(sql: string, params: Array<{ value: unknown }>): Answer {
    const text = sql.trim();
    const head = /^\s*(\w+)/.exec(text)?.[1]?.toUpperCase() ?? '';
    if (head === 'INSERT' || head === 'REPLACE')
      return {
        status: 400,
        error: failure(
          `${head} operations are not supported by requested SQL engine [native], consider using MSQ.`,
        ),
      };
    if (['UPDATE', 'DELETE', 'CREATE', 'DROP', 'ALTER', 'TRUNCATE'].includes(head))
      return {
        status: 400,
        error: failure(`Incorrect syntax near the keyword '${head}' at line 1, column 1`),
      };
    if (/slow_scan/.test(text)) return { status: 200, hang: true };
    let m = /^EXPLAIN PLAN FOR SELECT .*? FROM "?(\w+)"?/is.exec(text);
    if (m) {
      const plan = [
        {
          query: {
            queryType: 'scan',
            dataSource: { type: 'table', name: m[1] },
            resultFormat: 'compactedList',
          },
          signature: [],
        },
      ];
      return {
        status: 200,
        columns: [col('PLAN'), col('RESOURCES'), col('ATTRIBUTES')],
        rows: [
          [
            JSON.stringify(plan),
            JSON.stringify([{ name: m[1], type: 'DATASOURCE' }]),
            '{"statementType":"SELECT"}',
          ],
        ],
      };
    }
    if (/FROM INFORMATION_SCHEMA\.TABLES/i.test(text)) {
      const only = /TABLE_SCHEMA = '(\w+)'/.exec(text)?.[1];
      const rows = [...tables.keys()].map((t) => ['druid', t]).filter((r) => !only || r[0] === only);
      return { status: 200, columns: [col('TABLE_SCHEMA'), col('TABLE_NAME')], rows };
    }
    m = /FROM INFORMATION_SCHEMA\.COLUMNS\s+WHERE TABLE_SCHEMA = '(\w+)' AND TABLE_NAME = '(\w+)'/i.exec(
      text,
    );
    if (m) {
      const t = tables.get(m[2]);
      return {
        status: 200,
        columns: [col('COLUMN_NAME'), col('DATA_TYPE'), col('IS_NULLABLE')],
        rows: (t?.columns ?? []).map((c) => [c.name, c.sqlType, c.name === '__time' ? 'NO' : 'YES']),
      };
    }
    if (/FROM sys\.segments/i.test(text))
      return {
        status: 200,
        columns: [col('datasource'), col('rows', 'LONG', 'BIGINT'), col('bytes', 'LONG', 'BIGINT')],
        rows: [...tables].map(([name, t]) => [name, t.rows.length, 4096]),
      };
    if (/FROM sys\.tasks/i.test(text))
      return {
        status: 200,
        columns: [
          col('task_id'),
          col('datasource'),
          col('type'),
          col('status'),
          col('duration', 'LONG', 'BIGINT'),
        ],
        rows: [['index_kafka_wiki_1', 'wiki', 'index_kafka', 'RUNNING', -1]],
      };
    if (/FROM sys\.servers/i.test(text))
      return {
        status: 200,
        columns: [col('server'), col('server_type')],
        rows: [['localhost:8083', 'historical']],
      };
    m =
      /^SELECT (.+?) FROM "?(\w+)"?(?: WHERE "?(\w+)"? = ('[^']*'|\?|\d+))?(?: ORDER BY "?(\w+)"?( DESC)?)?(?:\s+LIMIT (\d+))?(?:\s+OFFSET (\d+))?$/is.exec(
        text,
      );
    if (!m)
      return {
        status: 400,
        error: failure(`Incorrect syntax near the keyword '${head}' at line 1, column 1`),
      };
    const t = tables.get(m[2]);
    if (!t) return { status: 400, error: failure(`Object '${m[2]}' not found`) };
    const picks =
      m[1] === '*'
        ? t.columns.map((c) => ({ from: c.name, as: c.name }))
        : m[1].split(',').map((p) => {
            const a = /^\s*"?(\w+)"?(?:\s+AS\s+"?(\w+)"?)?\s*$/i.exec(p);
            return { from: a?.[1] ?? p.trim(), as: a?.[2] ?? a?.[1] ?? p.trim() };
          });
    const idx = picks.map((p) => t.columns.findIndex((c) => c.name === p.from));
    const missing = picks.find((_p, i) => idx[i] < 0);
    if (missing) return { status: 400, error: failure(`Column '${missing.from}' not found in any table`) };
    if (m[5] && m[5] !== '__time')
      return {
        status: 400,
        error: failure(
          `Query could not be planned. A possible reason is [SQL query requires ordering a table by non-time column [[${m[5]}]], which is not supported.]`,
          'general',
        ),
      };
    let rows = t.rows;
    if (m[3]) {
      const c = t.columns.findIndex((x) => x.name === m?.[3]);
      const raw = m[4] === '?' ? String(params[0]?.value) : m[4].replace(/^'|'$/g, '');
      rows = rows.filter((r) => String(r[c]) === raw);
    }
    if (m[6]) rows = [...rows].reverse();
    const offset = Number(m[8] ?? 0);
    rows = rows.slice(offset, m[7] ? offset + Number(m[7]) : undefined);
    return {
      status: 200,
      columns: picks.map((p, i) => ({ ...t.columns[idx[i]], name: p.as })),
      rows: rows.map((r) => idx.map((i) => r[i])),
    };
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, any> = {};
      try {
        body = raw ? JSON.parse(raw) : {};
      } catch {
        body = { raw };
      }
      requests.push({ method: req.method ?? '', path, headers: req.headers, body });
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(wire(value));
      };
      if (options.user) {
        const expected = `Basic ${Buffer.from(`${options.user}:${options.password ?? ''}`).toString('base64')}`;
        if (req.headers.authorization !== expected) return json(401, { error: 'Unauthorized' });
      }
      if (req.method === 'GET' && path === '/status')
        return json(200, {
          version: '31.0.0',
          modules: [],
          memory: { maxMemory: 1_000_000, totalMemory: 500_000 },
        });
      const del = /^\/druid\/v2\/sql\/([\w-]+)$/.exec(path);
      if (req.method === 'DELETE' && del) {
        cancelled.push(del[1]);
        const waiting = hanging.get(del[1]);
        hanging.delete(del[1]);
        waiting?.writeHead(500, { 'content-type': 'application/json' });
        waiting?.end(JSON.stringify({ error: 'Query cancelled', errorMessage: 'Query cancelled' }));
        res.writeHead(202);
        return res.end();
      }
      if (req.method !== 'POST' || path !== '/druid/v2/sql') return json(404, { error: 'Not found' });
      if (typeof body.query !== 'string') return json(400, failure('Missing query'));
      queries.push(body.query);
      const a = run(body.query, Array.isArray(body.parameters) ? body.parameters : []);
      if (a.hang) {
        const id = String(body.context?.sqlQueryId ?? '');
        hanging.set(id, res);
        res.on('close', () => hanging.delete(id));
        return;
      }
      if (a.error) return json(a.status, a.error);
      if (body.resultFormat !== 'arrayLines') return json(400, failure('the double speaks arrayLines only'));
      const cols = a.columns ?? [];
      const lines: unknown[] = [];
      if (body.header) lines.push(cols.map((c) => c.name));
      if (body.typesHeader) lines.push(cols.map((c) => c.type));
      if (body.sqlTypesHeader) lines.push(cols.map((c) => c.sqlType));
      lines.push(...(a.rows ?? []));
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`${lines.map(wire).join('\n')}\n\n`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    queries,
    cancelled,
    tables,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
