// Seed data end to end against the real PostgreSQL and MariaDB of the kit harness, through the HTTP
// routes: a 20-table schema (FK chains, self-references, a two-table cycle, one-to-one keys, composite keys,
// unique, enum and check constraints) is planned in fill order, filled by a queued run on the job queue
// (counts and ratios honoured, every constraint accepted by the database itself, the cycle's deferred key
// filled), refused while a run is active (409), truncated and refilled, copied from another datasource of
// the same engine, and refused for production, other engines, unknown sources and non-admins.
import { createMariadbDatabase, createPostgresDatabase } from '@app/kit/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type BotHarness, botPortal, datasourceEntry, sqliteFile } from '../bot/harness.js';
import { adminGet, adminPost, type Family, sqlOn } from './helpers.js';
import { schemaSql, TABLE_COUNT } from './schema.js';

type Plan = {
  schema: string;
  tables: Array<{ name: string; dependsOn: string[]; rows: number; deferredKeys?: string[] }>;
  notes: string[];
};
type Run = {
  id: string;
  status: string;
  mode: string;
  sourceName?: string;
  tables: Array<{ name: string; target: number; inserted: number; status: string; error?: string }>;
};

describe.each(['postgres', 'mysql'] as const)('seed data on %s', (family: Family) => {
  let target: string;
  let source: string;
  let other: string;
  let h: BotHarness;
  const schemaOf = (url: string) => (family === 'postgres' ? 'public' : new URL(url).pathname.slice(1));

  beforeAll(async () => {
    const services = inject('services');
    const make = () =>
      family === 'postgres'
        ? createPostgresDatabase(services.postgresUrl, 'seed')
        : createMariadbDatabase(services.mariadbUrl, 'seed');
    [target, source] = await Promise.all([make(), make()]);
    other =
      family === 'postgres'
        ? await createMariadbDatabase(services.mariadbUrl, 'seed')
        : await createPostgresDatabase(services.postgresUrl, 'seed');
    await sqlOn(family, target, schemaSql(family));
    await sqlOn(family, source, schemaSql(family));
    h = await botPortal({
      datasources: (dir) =>
        [
          datasourceEntry('target', family, target, ['environment: development']),
          datasourceEntry('source', family, source),
          datasourceEntry('prod', family, source, ['environment: production']),
          datasourceEntry('other', family === 'postgres' ? 'mysql' : 'postgres', other),
          `  - id: lite\n    type: sqlite\n    database: ${sqliteFile(dir, 'lite.db', 'CREATE TABLE t (id INTEGER PRIMARY KEY)')}\n    roles: [admin]\n`,
        ].join(''),
    });
  }, 120_000);

  afterAll(async () => {
    await h?.close();
  });

  async function runToEnd(body: Record<string, unknown>): Promise<Run> {
    const res = await adminPost(h, '/api/admin/seed-data/run', body);
    expect(res.statusCode, res.body).toBe(202);
    const queued = res.json().run as Run;
    expect(queued.status).toBe('queued');
    await h.drain();
    const read = await adminGet(h, `/api/admin/seed-data/${queued.id}`);
    expect(read.statusCode).toBe(200);
    return read.json().run as Run;
  }

  it('plans the 20 tables in foreign-key order and breaks the cycle through the nullable key', async () => {
    const res = await adminPost(h, '/api/admin/seed-data/plan', {
      datasourceId: 'target',
      ratios: { order_items: 3 },
    });
    expect(res.statusCode, res.body).toBe(200);
    const plan = res.json() as Plan;
    expect(plan.schema).toBe(schemaOf(target));
    expect(plan.tables).toHaveLength(TABLE_COUNT);
    const at = new Map(plan.tables.map((t, i) => [t.name, i]));
    for (const t of plan.tables)
      for (const parent of t.dependsOn) expect(at.get(parent)).toBeLessThan(at.get(t.name) as number);
    expect(plan.tables.find((t) => t.name === 'order_items')?.dependsOn).toEqual(['orders', 'products']);
    expect(plan.tables.find((t) => t.name === 'order_items')?.rows).toBe(60);
    // members needs teams; teams.lead_id → members is the nullable key that breaks the cycle.
    expect(at.get('teams')).toBeLessThan(at.get('members') as number);
    expect(plan.tables.find((t) => t.name === 'teams')?.deferredKeys).toHaveLength(1);
    expect(
      plan.notes.some((n) => /cycle .*teams.*members.* broken through the nullable key teams\./.test(n)),
    ).toBe(true);
    expect(plan.notes.some((n) => n.startsWith('customers references itself'))).toBe(true);
  });

  it('fills every table on the job queue, honouring counts, ratios and every constraint', async () => {
    const run = await runToEnd({
      datasourceId: 'target',
      counts: { products: 50, countries: 10 },
      ratios: { order_items: 3 },
    });
    expect(run.status, JSON.stringify(run.tables.filter((t) => t.status !== 'done'))).toBe('done');
    expect(run.tables).toHaveLength(TABLE_COUNT);
    for (const t of run.tables) {
      expect(t.status).toBe('done');
      expect(t.inserted, t.name).toBe(t.target);
    }
    const count = async (table: string) =>
      Number((await sqlOn(family, target, [`SELECT COUNT(*) AS n FROM ${table}`]))[0].n);
    expect(await count('products')).toBe(50);
    expect(await count('countries')).toBe(10);
    expect(await count('order_items')).toBe(60);
    expect(await count('customers')).toBe(20);
    // The cycle's deferred key was filled once members had rows.
    expect(await count('teams')).toBe(20);
    const unfilled = await sqlOn(family, target, ['SELECT COUNT(*) AS n FROM teams WHERE lead_id IS NULL']);
    expect(Number(unfilled[0].n)).toBe(0);
    // Generated values look like what their names say, within their checks.
    const customers = await sqlOn(family, target, ['SELECT email, age FROM customers']);
    for (const c of customers) {
      expect(String(c.email)).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/i);
      if (c.age !== null) expect(Number(c.age)).toBeGreaterThanOrEqual(18);
    }
    const statuses = await sqlOn(family, target, ['SELECT DISTINCT status FROM orders']);
    for (const s of statuses) expect(['new', 'paid', 'shipped']).toContain(s.status);
    const events = await h.auditOf('data_seed');
    expect(events.some((e) => e.action === 'queued' && e.runId === run.id)).toBe(true);
    expect(events.some((e) => e.action === 'finished' && e.runId === run.id && e.result === 'success')).toBe(
      true,
    );
  });

  it('answers 409 while a run is queued on the datasource, then truncates and refills', async () => {
    const first = await adminPost(h, '/api/admin/seed-data/run', {
      datasourceId: 'target',
      truncate: true,
      counts: { products: 30 },
    });
    expect(first.statusCode, first.body).toBe(202);
    const second = await adminPost(h, '/api/admin/seed-data/run', { datasourceId: 'target' });
    expect(second.statusCode).toBe(409);
    expect(second.json().error).toMatch(/already queued or running/);
    // The managed list names the run in flight (database-portal.md: `pendingSeeds` while a seed is in flight).
    const pending = async () => (await adminGet(h, '/api/connections/managed')).json().pendingSeeds;
    expect(await pending()).toEqual([
      { datasourceId: 'target', runId: first.json().run.id, status: 'queued', mode: 'generate' },
    ]);
    await h.drain();
    const run = (await adminGet(h, `/api/admin/seed-data/${first.json().run.id}`)).json().run as Run;
    expect(run.status).toBe('done');
    expect(await pending()).toEqual([]);
    const n = await sqlOn(family, target, ['SELECT COUNT(*) AS n FROM products']);
    expect(Number(n[0].n)).toBe(30);
  });

  it('copies rows from another datasource of the same engine', async () => {
    await runToEnd({ datasourceId: 'source', counts: { customers: 25 } });
    const run = await runToEnd({
      datasourceId: 'target',
      mode: 'copy',
      sourceDatasourceId: 'source',
      truncate: true,
    });
    expect(run.status, JSON.stringify(run.tables.filter((t) => t.status !== 'done'))).toBe('done');
    expect(run.mode).toBe('copy');
    expect(run.sourceName).toBe('source');
    const q = 'SELECT id, email, referred_by FROM customers ORDER BY id';
    expect(await sqlOn(family, target, [q])).toEqual(await sqlOn(family, source, [q]));
    const teams = 'SELECT id, lead_id FROM teams ORDER BY id';
    expect(await sqlOn(family, target, [teams])).toEqual(await sqlOn(family, source, [teams]));
  });

  it('refuses what the spec refuses', async () => {
    const post = (body: unknown, who: 'admin' | 'user' = 'admin') =>
      adminPost(h, '/api/admin/seed-data/run', body, who);
    expect((await post({ datasourceId: 'target' }, 'user')).statusCode).toBe(403);
    expect(
      (await adminPost(h, '/api/admin/seed-data/plan', { datasourceId: 'target' }, 'user')).statusCode,
    ).toBe(403);
    expect((await post({ datasourceId: 'prod' })).statusCode).toBe(403);
    expect((await post({ datasourceId: 'lite' })).statusCode).toBe(403);
    expect((await post({ datasourceId: 'nope' })).statusCode).toBe(404);
    expect((await post({ datasourceId: 'target', mode: 'copy' })).statusCode).toBe(400);
    expect(
      (await post({ datasourceId: 'target', mode: 'copy', sourceDatasourceId: 'nope' })).statusCode,
    ).toBe(404);
    expect(
      (await post({ datasourceId: 'target', mode: 'copy', sourceDatasourceId: 'other' })).statusCode,
    ).toBe(403);
    expect((await post({ datasourceId: 'target', counts: { products: '5' } })).statusCode).toBe(400);
    expect((await post({ datasourceId: 'target', counts: { nosuch: 5 } })).statusCode).toBe(400);
    expect((await post({ datasourceId: 'target', truncate: 'yes' })).statusCode).toBe(400);
    expect((await post({ datasourceId: 'target', mode: 'clone' })).statusCode).toBe(400);
    expect((await post([1, 2])).statusCode).toBe(400);
    expect((await adminGet(h, '/api/admin/seed-data/unknown-id')).statusCode).toBe(404);
    const bad = await post({ datasourceId: 42 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: expect.stringMatching(/datasourceId/) });
  });
});
