// Benchmark of the portal's query path against a private PostgreSQL, ratios to raw `pg` in the same run:
// (1) POST /api/db/query for 10,000 rows versus a raw pg fetch of the same rows; (2) a CSV export of
// 1,000,000 rows versus a raw streamed (cursor) fetch of the same rows, with the export's peak RSS, and the
// peak RSS of a 100,000-row export to show memory does not grow with the row count. Requests go over real
// HTTP with keep-alive. Run with `npm run bench` or `node --import tsx bench/portal-query.bench.ts`.
// BENCH_EXPORT_ROWS and BENCH_QUERY_ROUNDS change the sizes.
import http from 'node:http';
import { pathToFileURL } from 'node:url';
import { startPostgres } from '@app/kit/testing';
import pg from 'pg';
import { registerExportRoutes } from '../packages/portal-server/src/http/export.js';
import { registerQueryRoutes } from '../packages/portal-server/src/http/query.js';
import { peakMemory, startBenchPortal } from './portal-bench-app.js';
import { seedBenchRows } from './portal-bench-rows.js';

const EXPORT_ROWS = Number(process.env.BENCH_EXPORT_ROWS ?? 1_000_000);
const QUERY_ROWS = 10_000;
const ROUNDS = Number(process.env.BENCH_QUERY_ROUNDS ?? 40);
const WARMUP = 5;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;

function post(
  port: number,
  path: string,
  body: unknown,
  agent: http.Agent,
): Promise<{ status: number; bytes: number; headers: http.IncomingHttpHeaders }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          'x-bench-user': 'bench',
        },
      },
      (res) => {
        let bytes = 0;
        // Consumed as it arrives (never buffered), so the client adds no memory of its own.
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, headers: res.headers }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Every column as the server's text: the cheapest decoding pg offers, so the baseline is the fastest fetch. */
const asText = { getTypeParser: () => (v: string) => v };

async function rawCursorFetch(url: string, rows: number): Promise<number> {
  const c = new pg.Client({ connectionString: url, types: asText });
  await c.connect();
  try {
    await c.query('BEGIN TRANSACTION READ ONLY');
    await c.query(`DECLARE raw NO SCROLL CURSOR FOR SELECT * FROM bench_rows ORDER BY id LIMIT ${rows}`);
    let n = 0;
    for (;;) {
      const r = await c.query({ text: 'FETCH FORWARD 5000 FROM raw', rowMode: 'array' });
      n += r.rows.length;
      if (r.rows.length < 5000) break;
    }
    await c.query('ROLLBACK');
    return n;
  } finally {
    await c.end();
  }
}

export async function run(): Promise<void> {
  const server = await startPostgres();
  await seedBenchRows(server.url, EXPORT_ROWS);

  const portal = await startBenchPortal(server.url, {
    policy: { maxRows: EXPORT_ROWS },
    bodyLimit: 8 * 1024 * 1024,
    register: (app, deps) => {
      registerQueryRoutes(app, deps);
      registerExportRoutes(app, deps);
    },
  });
  const port = portal.port;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const pool = new pg.Pool({ connectionString: server.url, max: 2 });
  // pool.end() resolves once its clients are asked to end, before their sockets close; an idle client keeps
  // the pool's error listener, so a server stopping in that gap (57P01, admin shutdown) would be an unhandled
  // 'error'. Every client's own end is awaited before the server stops, and a late error is ignored.
  const clientsEnded: Promise<void>[] = [];
  pool.on('connect', (client) => clientsEnded.push(new Promise((r) => client.once('end', () => r()))));
  pool.on('error', () => undefined);

  try {
    // 1. /api/db/query for 10,000 rows versus a raw pg fetch (objects, as the pg driver hands them out).
    const sql = `SELECT * FROM bench_rows ORDER BY id LIMIT ${QUERY_ROWS}`;
    const raw: number[] = [];
    const route: number[] = [];
    for (let i = 0; i < WARMUP + ROUNDS; i++) {
      let t = performance.now();
      const r = await pool.query(sql);
      if (r.rows.length !== QUERY_ROWS) throw new Error('raw fetch returned the wrong count');
      if (i >= WARMUP) raw.push(performance.now() - t);
      t = performance.now();
      const res = await post(
        port,
        '/api/db/query',
        { connectionId: 'bench', sql, options: { limit: QUERY_ROWS } },
        agent,
      );
      if (res.status !== 200) throw new Error(`query failed: ${res.status}`);
      if (i >= WARMUP) route.push(performance.now() - t);
    }
    console.log(`query of ${QUERY_ROWS} rows (median of ${ROUNDS}, interleaved):`);
    console.log(`  raw pg fetch          ${median(raw).toFixed(1)} ms`);
    console.log(
      `  POST /api/db/query    ${median(route).toFixed(1)} ms  → ${(median(route) / median(raw)).toFixed(2)}× raw (aim ≤ 1.5×)`,
    );

    // 2. CSV export versus a raw streamed fetch of the same rows.
    const small = Math.min(100_000, EXPORT_ROWS);
    const exportOf = (rows: number) =>
      post(
        port,
        '/api/db/export',
        { connectionId: 'bench', sql: `SELECT * FROM bench_rows ORDER BY id LIMIT ${rows}`, format: 'csv' },
        agent,
      );
    await exportOf(1000); // warm-up
    global.gc?.();
    const base = process.memoryUsage().rss;
    const smallRun = await peakMemory(() => exportOf(small));
    let t = performance.now();
    const fetched = await rawCursorFetch(server.url, EXPORT_ROWS);
    const rawMs = performance.now() - t;
    global.gc?.();
    t = performance.now();
    const big = await peakMemory(() => exportOf(EXPORT_ROWS));
    const exportMs = performance.now() - t;
    if (big.value.headers['x-export-rows'] !== String(EXPORT_ROWS) || fetched !== EXPORT_ROWS) {
      throw new Error(`export returned ${big.value.headers['x-export-rows']} rows`);
    }
    const rate = (n: number, ms: number) => `${Math.round((n / ms) * 1000).toLocaleString('en-US')} rows/s`;
    console.log(`CSV export of ${EXPORT_ROWS.toLocaleString('en-US')} rows (${mb(big.value.bytes)} of CSV):`);
    console.log(`  raw streamed fetch    ${(rawMs / 1000).toFixed(2)} s  ${rate(EXPORT_ROWS, rawMs)}`);
    console.log(
      `  POST /api/db/export   ${(exportMs / 1000).toFixed(2)} s  ${rate(EXPORT_ROWS, exportMs)}  → ${Math.round((rawMs / exportMs) * 100)}% of raw rate (aim ≥ 60%)`,
    );
    console.log(
      `  peak RSS ${mb(big.rss)} (heap ${mb(big.heap)}) for ${EXPORT_ROWS.toLocaleString('en-US')} rows; ` +
        `${mb(smallRun.rss)} (heap ${mb(smallRun.heap)}) for ${small.toLocaleString('en-US')} rows; process RSS before ${mb(base)}`,
    );
  } finally {
    agent.destroy();
    await pool.end();
    await Promise.all(clientsEnded);
    await portal.close();
    await server.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await run();
  process.exit(0);
}
