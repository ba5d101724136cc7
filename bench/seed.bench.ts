// Benchmark of seed data's generate mode against a private PostgreSQL and MariaDB, as a ratio to a plain
// batched insert of the same rows in the same run: (1) a seed run (`executeSeed`: schema read, faker values
// honouring unique/check/enum/length constraints, multi-row INSERTs through the provider, 10 batches per
// transaction) fills `people` with N rows; (2) those very rows are read back and inserted into an identical
// table with the raw driver in the same batch shape (1,000 rows per INSERT, 10 per transaction) — the
// fastest a client can write them, with no values to make. The ratio is (1) rows/s over (2) rows/s.
// Run with `npm run bench` or `node --import tsx bench/seed.bench.ts`. BENCH_SEED_ROWS changes the size.
import { pathToFileURL } from 'node:url';
import { startMariadb, startPostgres, tempDir } from '@app/kit/testing';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { ProviderCache } from '../packages/portal-server/src/providers/cache.js';
import { engineFor } from '../packages/portal-server/src/providers/registry.js';
import { executeSeed } from '../packages/portal-server/src/seed/execute.js';
import type { SeedFamily } from '../packages/portal-server/src/seed/types.js';

const ROWS = Number(process.env.BENCH_SEED_ROWS ?? 100_000);
const BATCH = 1000;
const PER_TX = 10;

function tableSql(family: SeedFamily, name: string): string {
  const id = family === 'postgres' ? 'id SERIAL PRIMARY KEY' : 'id INT AUTO_INCREMENT PRIMARY KEY';
  const status =
    family === 'postgres'
      ? "VARCHAR(10) NOT NULL CHECK (status IN ('new','active','closed'))"
      : "ENUM('new','active','closed') NOT NULL";
  return `CREATE TABLE ${name} (${id}, email VARCHAR(120) NOT NULL UNIQUE, first_name VARCHAR(50) NOT NULL,
    last_name VARCHAR(50) NOT NULL, age INT NOT NULL CHECK (age BETWEEN 18 AND 99), balance DECIMAL(12,2) NOT NULL,
    status ${status}, joined_at ${family === 'postgres' ? 'TIMESTAMP' : 'DATETIME'} NOT NULL, city VARCHAR(80))`;
}

const COLUMNS = ['email', 'first_name', 'last_name', 'age', 'balance', 'status', 'joined_at', 'city'];

interface Db {
  exec(sql: string, params?: unknown[]): Promise<unknown[][]>;
  close(): Promise<void>;
}

async function open(family: SeedFamily, url: string): Promise<Db> {
  if (family === 'postgres') {
    const c = new pg.Client({ connectionString: url });
    // The server is stopped at the end; its goodbye must not crash the run.
    c.on('error', () => undefined);
    await c.connect();
    return {
      exec: async (sql, params = []) => (await c.query({ text: sql, values: params, rowMode: 'array' })).rows,
      close: () => c.end(),
    };
  }
  const c = await mysql.createConnection({ uri: url, dateStrings: true });
  return {
    exec: async (sql, params = []) => {
      const [rows] = params.length
        ? await c.execute({ sql, values: params, rowsAsArray: true } as never)
        : await c.query({ sql, rowsAsArray: true });
      return Array.isArray(rows) ? (rows as unknown[][]) : [];
    },
    close: () => c.end(),
  };
}

/** The baseline: the same rows, same batch shape, raw driver. */
async function plainInsert(family: SeedFamily, db: Db, rows: unknown[][]): Promise<number> {
  const q = (c: string) => (family === 'postgres' ? `"${c}"` : `\`${c}\``);
  const sqlFor = (n: number) => {
    let k = 1;
    const tuples = Array.from(
      { length: n },
      () => `(${COLUMNS.map(() => (family === 'postgres' ? `$${k++}` : '?')).join(', ')})`,
    );
    return `INSERT INTO people_plain (${COLUMNS.map(q).join(', ')}) VALUES ${tuples.join(', ')}`;
  };
  const full = sqlFor(BATCH);
  const started = performance.now();
  for (let i = 0; i < rows.length; i += BATCH * PER_TX) {
    await db.exec(family === 'postgres' ? 'BEGIN' : 'START TRANSACTION');
    for (let j = i; j < Math.min(rows.length, i + BATCH * PER_TX); j += BATCH) {
      const batch = rows.slice(j, j + BATCH);
      await db.exec(batch.length === BATCH ? full : sqlFor(batch.length), batch.flat());
    }
    await db.exec('COMMIT');
  }
  return performance.now() - started;
}

async function measure(
  family: SeedFamily,
  url: string,
  database: string,
): Promise<{ seedMs: number; plainMs: number }> {
  const db = await open(family, url);
  await db.exec(tableSql(family, 'people'));
  await db.exec(tableSql(family, 'people_plain'));
  const u = new URL(url);
  const providers = new ProviderCache(engineFor, {
    embeddedDir: tempDir('bench-seed-'),
    sshProfiles: () => undefined,
  });
  const descriptor = {
    id: 'bench',
    type: family === 'postgres' ? 'postgres' : 'mysql',
    host: u.hostname,
    port: Number(u.port),
    user: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
    database,
  };
  // Two rounds, the second reported: the first pays for the fresh server (files growing, caches warming),
  // which would otherwise count against whichever side ran first.
  let last = { seedMs: 0, plainMs: 0 };
  for (let round = 0; round < 2; round++) {
    const started = performance.now();
    const outcome = await providers.use(descriptor, (target) =>
      executeSeed({
        target,
        family,
        schema: family === 'postgres' ? 'public' : database,
        // people_plain is in the schema too: 0 rows leaves it to the baseline.
        request: {
          datasourceId: 'bench',
          mode: 'generate',
          truncate: true,
          counts: { people: ROWS, people_plain: 0 },
        },
        runId: `bench-run-${round}`,
        snapshot: async () => undefined,
      }),
    );
    const seedMs = performance.now() - started;
    if (outcome.status !== 'done' || outcome.tables.find((t) => t.name === 'people')?.inserted !== ROWS) {
      throw new Error(`seed run failed: ${JSON.stringify(outcome)}`);
    }
    const rows = await db.exec(`SELECT ${COLUMNS.join(', ')} FROM people ORDER BY id`);
    await db.exec('TRUNCATE TABLE people_plain');
    const plainMs = await plainInsert(family, db, rows);
    const [[n]] = await db.exec('SELECT COUNT(*) FROM people_plain');
    if (Number(n) !== ROWS) throw new Error(`plain insert wrote ${n} rows`);
    last = { seedMs, plainMs };
  }
  await providers.closeAll();
  await db.close();
  return last;
}

export async function run(): Promise<void> {
  const results: Array<[string, { seedMs: number; plainMs: number }]> = [];
  const pgServer = await startPostgres();
  try {
    results.push(['postgres', await measure('postgres', pgServer.url, 'postgres')]);
  } finally {
    await pgServer.stop();
  }
  const myServer = await startMariadb();
  try {
    const admin = await mysql.createConnection(myServer.url);
    await admin.query('CREATE DATABASE bench_seed');
    await admin.end();
    const url = new URL(myServer.url);
    url.pathname = '/bench_seed';
    results.push(['mariadb', await measure('mysql', url.toString(), 'bench_seed')]);
  } finally {
    await myServer.stop();
  }
  console.log(
    `${ROWS} rows of 8 generated columns (unique email, checked age, enum status, decimal, timestamp)`,
  );
  console.log('| engine | seed run rows/s | plain batched insert rows/s | seed / plain |');
  console.log('| --- | ---: | ---: | ---: |');
  for (const [engine, r] of results) {
    const seed = ROWS / (r.seedMs / 1000);
    const plain = ROWS / (r.plainMs / 1000);
    console.log(
      `| ${engine} | ${Math.round(seed).toLocaleString('en')} | ${Math.round(plain).toLocaleString('en')} | ${((seed / plain) * 100).toFixed(0)} % |`,
    );
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await run();
  process.exit(0);
}
