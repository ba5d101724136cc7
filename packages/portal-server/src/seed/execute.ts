// Carries out one seed run on the target database: reads the schema, plans the fill order, optionally
// truncates the planned tables, then fills table after table — generated rows (generate mode) or rows
// streamed from the source datasource (copy mode) — in multi-row INSERTs, several per transaction, and
// finally fills the keys deferred to break cycles. After every table the per-table progress is handed to
// `snapshot`. The first failing table stops the run; what committed before it stays (reported per table).
import { createHash } from 'node:crypto';
import type { Faker } from '@faker-js/faker';
import type { Provider, ProviderSession } from '../providers/types.js';
import { readSeedSchema } from './catalog.js';
import { planSeed } from './plan.js';
import { RowGenerator } from './rows.js';
import {
  batchRows,
  countSql,
  insertSql,
  maxSql,
  pendingKeysSql,
  poolSql,
  resetSequenceSql,
  truncateSql,
  updateKeySql,
} from './statements.js';
import type { SeedFamily, SeedPlan, SeedRequest, SeedRunTable, SeedSchema, SeedTable } from './types.js';
import { kindOf } from './values.js';

/** Batches per transaction: a failure loses at most this many batches, and commits stay cheap. */
const BATCHES_PER_TX = 10;
const POOL_LIMIT = 100_000;
/** Copy mode reads at most this many rows per table unless `counts` says otherwise. */
export const COPY_MAX_ROWS = 1_000_000;

export interface SeedExecution {
  target: Provider;
  /** Copy mode: the datasource rows come from, and its schema. */
  source?: { provider: Provider; schema: string };
  family: SeedFamily;
  schema: string;
  request: SeedRequest;
  runId: string;
  snapshot(tables: SeedRunTable[]): Promise<void>;
  /** Called after each table's snapshot (tests pause a worker here before killing it). */
  afterTable?(name: string): Promise<void>;
  signal?: AbortSignal;
}

export interface SeedOutcome {
  status: 'done' | 'failed';
  tables: SeedRunTable[];
  error?: string;
}

async function one(p: Provider | ProviderSession, sql: string, params: unknown[] = []) {
  return p.query(sql, params as never[], { maxRows: POOL_LIMIT });
}

/** Plans against the live schema, with copy-mode row targets read from the source. */
export async function planFor(
  x: Pick<SeedExecution, 'target' | 'source' | 'family' | 'schema' | 'request'>,
): Promise<{ plan: SeedPlan; schema: SeedSchema }> {
  const schema = await readSeedSchema(x.target, x.family, x.schema);
  const counts = { ...(x.request.counts ?? {}) };
  if (x.request.mode === 'copy' && x.source) {
    for (const t of schema.tables) {
      if (counts[t.name] !== undefined) continue;
      const res = await one(x.source.provider, countSql(x.family, x.source.schema, t.name)).catch(
        () => undefined,
      );
      counts[t.name] = Math.min(COPY_MAX_ROWS, Number(res?.rows[0]?.n ?? 0));
    }
  }
  return { plan: planSeed(schema, { counts, ratios: x.request.ratios }), schema };
}

export async function executeSeed(x: SeedExecution): Promise<SeedOutcome> {
  const { plan, schema } = await planFor(x);
  const byName = new Map(schema.tables.map((t) => [t.name, t]));
  const tables: SeedRunTable[] = plan.tables.map((t) => ({
    name: t.name,
    target: t.rows,
    inserted: 0,
    status: 'pending',
  }));
  await x.snapshot(tables);
  // faker (~35 MB with its English locale) is loaded by the first seed run, not at every start.
  const { en, Faker } = await import('@faker-js/faker');
  const faker: Faker = new Faker({ locale: [en] });
  faker.seed(createHash('sha256').update(x.runId).digest().readUInt32BE(0));
  const runTag = createHash('sha256').update(x.runId).digest('hex').slice(0, 4);
  const session = await x.target.openSession();
  const pools = new Map<string, unknown[][]>();
  const poolOf = async (t: SeedTable, fkName: string): Promise<unknown[][]> => {
    const fk = t.foreignKeys.find((f) => f.name === fkName);
    if (!fk) return [];
    const key = `${fk.refTable}\u0000${fk.refColumns.join(',')}`;
    let pool = pools.get(key);
    if (!pool) {
      const res = await one(session, poolSql(x.family, x.schema, fk.refTable, fk.refColumns, POOL_LIMIT));
      pool = res.rows.map((r) => res.fields.map((f) => r[f]));
      pools.set(key, pool);
    }
    return pool;
  };
  const copied = new Map<string, CopiedKeys>();
  let failedAt = -1;
  let error: string | undefined;
  try {
    if (x.request.truncate) {
      for (const sql of truncateSql(
        x.family,
        x.schema,
        plan.tables.map((t) => t.name),
      ))
        await one(session, sql);
    }
    for (let i = 0; i < plan.tables.length; i++) {
      const planned = plan.tables[i];
      const t = byName.get(planned.name) as SeedTable;
      const progress = tables[i];
      progress.status = 'running';
      try {
        if (x.signal?.aborted) throw new Error('the seed run was stopped');
        const deferred = new Set(planned.deferredKeys ?? []);
        if (x.request.mode === 'copy' && x.source) {
          const keys = await copyTable(x, session, t, progress, deferred);
          if (keys) copied.set(t.name, keys);
        } else await fillTable(x, session, t, progress, deferred, { faker, runTag, poolOf });
        progress.status = 'done';
      } catch (err) {
        await session.rollback().catch(() => undefined);
        progress.status = 'failed';
        progress.error = (err as Error).message.slice(0, 500);
        failedAt = i;
        error = `table ${t.name}: ${progress.error}`;
      }
      await x.snapshot(tables);
      if (failedAt >= 0) break;
      await x.afterTable?.(t.name);
    }
    if (failedAt < 0) {
      // Keys left null to break cycles, now that every parent has rows.
      for (const planned of plan.tables) {
        if (!planned.deferredKeys?.length) continue;
        const t = byName.get(planned.name) as SeedTable;
        const progress = tables.find((p) => p.name === t.name) as SeedRunTable;
        try {
          const keys = copied.get(t.name);
          if (keys) await applyCopiedKeys(x, session, t, keys);
          else if (x.request.mode !== 'copy') {
            for (const fkName of planned.deferredKeys)
              await fillDeferred(x, session, t, fkName, progress.inserted, poolOf);
          }
        } catch (err) {
          await session.rollback().catch(() => undefined);
          progress.status = 'failed';
          progress.error = `deferred key: ${(err as Error).message.slice(0, 480)}`;
          error = `table ${t.name}: ${progress.error}`;
          failedAt = 0;
        }
      }
      await x.snapshot(tables);
    }
  } catch (err) {
    error = (err as Error).message;
    for (const p of tables)
      if (p.status !== 'done') Object.assign(p, { status: 'failed', error: p.error ?? error });
    failedAt = 0;
  } finally {
    await session.close().catch(() => undefined);
  }
  if (failedAt >= 0) {
    for (const p of tables) {
      if (p.status === 'pending')
        Object.assign(p, { status: 'failed', error: 'not run: the seed run stopped at an earlier table' });
    }
    return { status: 'failed', tables, error };
  }
  return { status: 'done', tables };
}

/** Inserts `rows` (arrays in `columns` order) in batches, `BATCHES_PER_TX` batches per transaction. */
async function insertAll(
  x: SeedExecution,
  session: ProviderSession,
  t: SeedTable,
  columns: string[],
  next: () => Promise<unknown[][] | undefined>,
  progress: SeedRunTable,
  options: { overridingSystemValue?: boolean } = {},
): Promise<void> {
  const statements = new Map<number, string>();
  const sqlFor = (n: number) => {
    let s = statements.get(n);
    if (!s) {
      s = insertSql(x.family, x.schema, t.name, columns, n, options);
      statements.set(n, s);
    }
    return s;
  };
  // The next batch is made while the database writes the current one (generation is CPU on this side,
  // the INSERT is work on the server's), so the two overlap instead of taking turns.
  let batch = await next();
  while (batch && batch.length > 0) {
    let pending = 0;
    await session.begin();
    for (let b = 0; b < BATCHES_PER_TX && batch && batch.length > 0; b++) {
      if (x.signal?.aborted) throw new Error('the seed run was stopped');
      const rows: unknown[][] = batch;
      const sent =
        columns.length === 0
          ? (async () => {
              for (const _ of rows) await session.query(sqlFor(1), [], { maxRows: 0 });
            })()
          : session.query(sqlFor(rows.length), rows.flat() as never[], { maxRows: 0 });
      // If the INSERT fails, its rejection is taken by the await below, not left unhandled.
      sent.catch(() => undefined);
      const upcoming = next();
      await sent;
      pending += rows.length;
      batch = await upcoming;
    }
    await session.commit();
    progress.inserted += pending;
  }
}

async function fillTable(
  x: SeedExecution,
  session: ProviderSession,
  t: SeedTable,
  progress: SeedRunTable,
  deferred: Set<string>,
  ctx: { faker: Faker; runTag: string; poolOf: (t: SeedTable, fk: string) => Promise<unknown[][]> },
): Promise<void> {
  const pools = new Map<string, unknown[][]>();
  for (const fk of t.foreignKeys)
    if (!deferred.has(fk.name)) pools.set(fk.name, await ctx.poolOf(t, fk.name));
  const starts = new Map<string, number>();
  for (const u of t.unique) {
    const col = t.columns.find((c) => c.name === u[0]);
    if (u.length !== 1 || !col || col.generated || kindOf(col) !== 'int') continue;
    const res = await one(session, maxSql(x.family, x.schema, t.name, col.name));
    starts.set(col.name, Number(res.rows[0]?.m ?? 0));
  }
  const gen = new RowGenerator(t, {
    faker: ctx.faker,
    family: x.family,
    runTag: ctx.runTag,
    deferred,
    pools,
    starts,
  });
  const size = batchRows(gen.columns.length);
  let left = progress.target;
  let givenUp = 0;
  await insertAll(
    x,
    session,
    t,
    gen.columns,
    async () => {
      const batch: unknown[][] = [];
      while (left > 0 && batch.length < size) {
        left--;
        const row = gen.next();
        if (row) batch.push(row);
        else givenUp++;
      }
      return batch;
    },
    progress,
  );
  if (givenUp > 0) {
    progress.error = `${givenUp} row(s) not generated: unique keys or one-to-one parents ran out`;
  }
}

/** Copied rows' values of keys inserted null (cycle breaks), to be set once every table is in. */
interface CopiedKeys {
  columns: string[];
  rows: unknown[][];
  keyColumns: string[];
}

async function copyTable(
  x: SeedExecution,
  session: ProviderSession,
  t: SeedTable,
  progress: SeedRunTable,
  deferred: Set<string>,
): Promise<CopiedKeys | undefined> {
  const source = x.source as NonNullable<SeedExecution['source']>;
  const columns = t.columns.filter((c) => !c.computed).map((c) => c.name);
  const size = batchRows(columns.length);
  const quoted = columns.map((c) =>
    x.family === 'postgres' ? `"${c.replaceAll('"', '""')}"` : `\`${c.replaceAll('`', '``')}\``,
  );
  const from =
    x.family === 'postgres'
      ? `"${source.schema.replaceAll('"', '""')}"."${t.name.replaceAll('"', '""')}"`
      : `\`${source.schema.replaceAll('`', '``')}\`.\`${t.name.replaceAll('`', '``')}\``;
  const deferredCols = new Set(t.foreignKeys.filter((f) => deferred.has(f.name)).flatMap((f) => f.columns));
  const canDefer = t.primaryKey.length > 0;
  const later: unknown[][] = [];
  const stream = source.provider
    .stream(`SELECT ${quoted.join(', ')} FROM ${from}`, [], { maxRows: progress.target, batchSize: size })
    [Symbol.asyncIterator]();
  let buffered: unknown[][] = [];
  await insertAll(
    x,
    session,
    t,
    columns,
    async () => {
      while (buffered.length < size) {
        const r = await stream.next();
        if (r.done) break;
        buffered.push(...r.value.rows);
      }
      const batch = buffered.slice(0, size);
      buffered = buffered.slice(size);
      if (canDefer && deferredCols.size) {
        for (const row of batch) {
          later.push(row.slice());
          columns.forEach((c, i) => {
            if (deferredCols.has(c)) row[i] = null;
          });
        }
      }
      return batch;
    },
    progress,
    { overridingSystemValue: t.columns.some((c) => c.identity) },
  );
  if (x.family === 'postgres') {
    for (const c of t.columns.filter((col) => col.generated && !col.computed)) {
      await one(session, resetSequenceSql(x.schema, t.name, c.name));
    }
  }
  return later.length && deferredCols.size
    ? { columns, rows: later, keyColumns: [...deferredCols] }
    : undefined;
}

/** Copy mode: sets the deferred keys of copied rows to their source values, by primary key. */
async function applyCopiedKeys(
  x: SeedExecution,
  session: ProviderSession,
  t: SeedTable,
  keys: CopiedKeys,
): Promise<void> {
  const update = updateKeySql(x.family, x.schema, t, keys.keyColumns);
  const at = (c: string) => keys.columns.indexOf(c);
  await session.begin();
  for (const row of keys.rows) {
    const values = keys.keyColumns.map((c) => row[at(c)]);
    if (values.every((v) => v === null)) continue;
    await session.query(update, [...values, ...t.primaryKey.map((c) => row[at(c)])] as never[], {
      maxRows: 0,
    });
  }
  await session.commit();
}

async function fillDeferred(
  x: SeedExecution,
  session: ProviderSession,
  t: SeedTable,
  fkName: string,
  inserted: number,
  poolOf: (t: SeedTable, fk: string) => Promise<unknown[][]>,
): Promise<void> {
  const fk = t.foreignKeys.find((f) => f.name === fkName);
  if (!fk || t.primaryKey.length === 0 || inserted === 0) return;
  const pool = await poolOf(t, fkName);
  if (pool.length === 0) return;
  // A one-to-one key takes each parent once; otherwise parents repeat.
  const oneToOne = t.unique.some(
    (u) => u.length === fk.columns.length && u.every((c) => fk.columns.includes(c)),
  );
  const limit = oneToOne ? Math.min(inserted, pool.length) : inserted;
  const rows = await one(session, pendingKeysSql(x.family, x.schema, t, fk.columns, limit));
  const update = updateKeySql(x.family, x.schema, t, fk.columns);
  await session.begin();
  let k = 0;
  for (const r of rows.rows) {
    const tuple = pool[k++ % pool.length];
    const pk = rows.fields.map((f) => r[f]);
    await session.query(update, [...tuple, ...pk] as never[], { maxRows: 0 });
  }
  await session.commit();
}
