// Benchmark of the portal's table import against PostgreSQL's own bulk load in the same run: a CSV of
// 1,000,000 rows (five columns: integer key, text, numeric, date, text with quotes and delimiters) written
// to a temporary file, loaded once by `COPY … FROM '<file>' (FORMAT csv, HEADER)` on a private PostgreSQL
// (the baseline), and once streamed over real HTTP as a multipart upload to POST /api/db/import (governed,
// multi-row INSERTs with bound parameters, 1,000 rows a batch), reading its JSON-lines progress. Reports both
// rates, the ratio, and the import's peak RSS and heap against a 100,000-row import, to show memory does not
// grow with the file. Run with `npm run bench` or `node --import tsx bench/portal-import.bench.ts`;
// BENCH_IMPORT_ROWS changes the size.
import { createReadStream, createWriteStream, statSync } from 'node:fs';
import { chmod } from 'node:fs/promises';
import http from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startPostgres, tempDir } from '@app/kit/testing';
import pg from 'pg';
import { registerImportRoutes } from '../packages/portal-server/src/http/import.js';
import { peakMemory, startBenchPortal } from './portal-bench-app.js';

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 1_000_000);
const SMALL = Math.max(1, Math.floor(ROWS / 10));
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;
const rate = (rows: number, ms: number) => `${Math.round(rows / (ms / 1000)).toLocaleString('en-US')} rows/s`;

/** Writes the CSV with backpressure (the file is never held in memory). */
async function writeCsv(path: string, rows: number): Promise<number> {
  const out = createWriteStream(path);
  const write = (s: string) =>
    out.write(s) ? Promise.resolve() : new Promise<void>((r) => out.once('drain', () => r()));
  await write('id,name,amount,created,note\n');
  let chunk = '';
  for (let i = 1; i <= rows; i++) {
    const day = String((i % 28) + 1).padStart(2, '0');
    const note = i % 7 === 0 ? `"said ""hi"", then left"` : `note ${i}`;
    chunk += `${i},person ${i},${(i % 10_000) / 100},2024-02-${day},${note}\n`;
    if (chunk.length > 64 * 1024) {
      await write(chunk);
      chunk = '';
    }
  }
  await write(chunk);
  await new Promise<void>((r) => out.end(r));
  return statSync(path).size;
}

/** Streams the multipart upload from the file and reads the JSON-lines answer to its last line. */
function upload(port: number, options: object, file: string): Promise<Record<string, unknown>> {
  const boundary = '----portal-import-bench';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="options"\r\n\r\n${JSON.stringify(options)}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.csv"\r\nContent-Type: text/csv\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const length = head.length + statSync(file).size + tail.length;
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/api/db/import',
        method: 'POST',
        headers: {
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': length,
          'x-bench-user': 'bench',
        },
      },
      (res) => {
        let rest = '';
        let last: Record<string, unknown> = {};
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          rest += chunk;
          const lines = rest.split('\n');
          rest = lines.pop() ?? '';
          for (const l of lines) if (l.trim()) last = JSON.parse(l);
        });
        res.on('end', () => {
          if (rest.trim()) last = JSON.parse(rest);
          if (res.statusCode !== 200)
            reject(new Error(`import answered ${res.statusCode}: ${JSON.stringify(last)}`));
          else resolve(last);
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.write(head);
    const body = createReadStream(file);
    body.pipe(req, { end: false });
    body.on('end', () => req.end(tail));
    body.on('error', reject);
  });
}

export async function run(): Promise<void> {
  const server = await startPostgres();
  const dir = tempDir('bench-import-');
  // The PostgreSQL server (another OS user) reads the file for COPY.
  await chmod(dir, 0o755);
  const big = join(dir, 'big.csv');
  const small = join(dir, 'small.csv');
  const bytes = await writeCsv(big, ROWS);
  await writeCsv(small, SMALL);
  await chmod(big, 0o644);

  const portal = await startBenchPortal(server.url, { register: registerImportRoutes });
  const port = portal.port;
  const c = new pg.Client({ connectionString: server.url });
  await c.connect();
  const count = async () => Number((await c.query('SELECT count(*) AS n FROM bench_import')).rows[0].n);
  const options = { connectionId: 'bench', path: ['public', 'bench_import'], format: 'csv' };
  try {
    await c.query(
      'CREATE TABLE bench_import (id int PRIMARY KEY, name text NOT NULL, amount numeric(10,2), created date, note text)',
    );
    // Warm-up: the same code paths on the small file, then emptied.
    await upload(port, options, small);
    await c.query('TRUNCATE bench_import');

    let t = performance.now();
    await c.query(`COPY bench_import FROM '${big}' WITH (FORMAT csv, HEADER)`);
    const copyMs = performance.now() - t;
    if ((await count()) !== ROWS) throw new Error('COPY loaded the wrong count');
    await c.query('TRUNCATE bench_import');
    await c.query('CHECKPOINT');

    const before = process.memoryUsage().rss;
    const smallRun = await peakMemory(() => upload(port, options, small));
    await c.query('TRUNCATE bench_import');
    await c.query('CHECKPOINT');
    t = performance.now();
    const bigRun = await peakMemory(() => upload(port, options, big));
    const importMs = performance.now() - t;
    if (bigRun.value.rowCount !== ROWS || (await count()) !== ROWS)
      throw new Error(`the import wrote ${String(bigRun.value.rowCount)} rows`);

    console.log(
      `  CSV of ${ROWS.toLocaleString('en-US')} rows, ${mb(bytes)}, five columns (int key, text, numeric, date, quoted text)`,
    );
    console.log(`  COPY FROM file (baseline)   ${(copyMs / 1000).toFixed(2)} s  ${rate(ROWS, copyMs)}`);
    console.log(
      `  POST /api/db/import        ${(importMs / 1000).toFixed(2)} s  ${rate(ROWS, importMs)}  → ${(importMs / copyMs).toFixed(2)}× COPY's time (${Math.round((copyMs / importMs) * 100)}% of its rate)`,
    );
    console.log(
      `  peak RSS ${mb(bigRun.rss)} (heap ${mb(bigRun.heap)}) for ${ROWS.toLocaleString('en-US')} rows; ` +
        `${mb(smallRun.rss)} (heap ${mb(smallRun.heap)}) for ${SMALL.toLocaleString('en-US')} rows; process RSS before ${mb(before)}`,
    );
  } finally {
    await c.end();
    await portal.close();
    await server.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await run();
  process.exit(0);
}
