// The runs list's compiled page statements on SQLite and PostgreSQL: every filter combination, first page,
// offset page and keyset page, answers the runs a plain reading of the table says it should (the statements
// are compiled once per shape with stand-in values, so a value in the wrong place would show here), and on
// PostgreSQL first and keyset pages filtered by nothing but a status run as named prepared statements while
// project and pipeline pages stay unprepared (planned per call, see store/runs-page-statements.ts).
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CiServer } from '../../src/index.js';
import { PipelineNames } from '../../src/store/pipeline-names.js';
import { listRuns } from '../../src/store/runs-query.js';
import {
  applyAndGetPipelines,
  BUILD_PIPELINE,
  type Client,
  client,
  DEPLOY_PIPELINE,
  STORES,
  startApiServer,
} from '../api-helpers.js';
import { seedRuns } from './seed-runs.js';

interface Row {
  id: string;
  project_id: string;
  pipeline_id: string;
  status: string;
  created_at: string;
}

describe.each(STORES)('runs page statements on %s', (store) => {
  let server: CiServer;
  let api: Client;
  let shop: Record<string, string>;
  let all: Row[];
  const slugOf = new Map<string, string>();
  beforeAll(async () => {
    server = await startApiServer(store);
    api = client(server);
    shop = await applyAndGetPipelines(api, 'shop', [BUILD_PIPELINE, DEPLOY_PIPELINE]);
    const other = await applyAndGetPipelines(api, 'other', [BUILD_PIPELINE]);
    await seedRuns(server, shop.build, 230);
    for (let i = 0; i < 4; i++) {
      expect((await api.post(`/api/v1/pipelines/${shop.deploy}/trigger`)).status).toBe(201);
      expect((await api.post(`/api/v1/pipelines/${other.build}/trigger`)).status).toBe(201);
    }
    const db = server.database.db;
    for (const p of await db.selectFrom('projects').select(['id', 'slug']).execute())
      slugOf.set(p.id, p.slug);
    all = (
      await db
        .selectFrom('runs')
        .select(['id', 'project_id', 'pipeline_id', 'status', 'created_at'])
        .execute()
    ).sort((a, b) =>
      a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1,
    );
  });
  afterAll(async () => server?.close());

  const shapes = () => {
    const out: [string, (r: Row) => boolean][] = [];
    for (const status of [undefined, 'success', 'queued'])
      for (const project of [undefined, 'shop', 'other'])
        for (const pipeline of [undefined, shop.build, shop.deploy]) {
          const query = [
            status && `status=${status}`,
            project && `project=${project}`,
            pipeline && `pipeline=${pipeline}`,
          ]
            .filter(Boolean)
            .join('&');
          out.push([
            query,
            (r) =>
              (!status || r.status === status) &&
              (!project || slugOf.get(r.project_id) === project) &&
              (!pipeline || r.pipeline_id === pipeline),
          ]);
        }
    return out;
  };

  it('answers every filter combination on first, offset and keyset pages as the table says', async () => {
    const ids = (body: { runs: { id: string }[] }) => body.runs.map((r) => r.id);
    for (const [query, keep] of shapes()) {
      const expected = all.filter(keep).map((r) => r.id);
      const first = (await api.get(`/api/v1/runs?limit=7&${query}`)).body;
      expect(first.total, query).toBe(expected.length);
      expect(ids(first), query).toEqual(expected.slice(0, 7));
      const offset = (await api.get(`/api/v1/runs?limit=7&offset=5&${query}`)).body;
      expect(ids(offset), query).toEqual(expected.slice(5, 12));
      if (expected.length > 3) {
        const keyset = (await api.get(`/api/v1/runs?limit=7&cursor=${expected[2]}&${query}`)).body;
        expect(keyset.total, query).toBe(expected.length);
        expect(ids(keyset), query).toEqual(expected.slice(3, 10));
      }
    }
  });

  it('walks the unfiltered list by cursor to the same runs as by offset, and past the end to nothing', async () => {
    const walked: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const body = (await api.get(`/api/v1/runs?limit=100${cursor ? `&cursor=${cursor}` : ''}`)).body;
      expect(body.total).toBe(all.length);
      walked.push(...body.runs.map((r: { id: string }) => r.id));
      if (body.runs.length < 100) break;
      cursor = body.runs[body.runs.length - 1].id;
    }
    expect(walked).toEqual(all.map((r) => r.id));
    const last = all[all.length - 1].id;
    expect((await api.get(`/api/v1/runs?limit=200&cursor=${last}`)).body).toEqual({
      runs: [],
      total: all.length,
      limit: 200,
      offset: 0,
    });
  });
});

describe('runs page statements prepared on PostgreSQL', () => {
  let server: CiServer;
  let all: string[];
  let build: string;
  beforeAll(async () => {
    server = await startApiServer('postgres');
    build = (await applyAndGetPipelines(client(server), 'shop', [BUILD_PIPELINE])).build;
    all = (await seedRuns(server, build, 60)).map((r) => r.id);
  });
  afterAll(async () => server?.close());

  it('prepares first and keyset pages filtered by nothing but a status (written into the text), no others', async () => {
    // One connection, so the statements it holds can be read back on it.
    const prepared = await server.database.db.connection().execute(async (c) => {
      const names = new PipelineNames();
      const page = await listRuns(c, names, {}, 20, 0);
      expect(page?.rows.map((r) => r.id)).toEqual(all.slice(0, 20));
      const next = await listRuns(c, names, {}, 20, 0, all[19]);
      expect(next?.rows.map((r) => r.id)).toEqual(all.slice(20, 40));
      await listRuns(c, names, { status: 'success' }, 20, 0);
      const failed = await listRuns(c, names, { status: 'failed' }, 5, 0, all[0]);
      expect(failed?.rows.every((r) => r.status === 'failed')).toBe(true);
      expect(failed?.rows).toHaveLength(5);
      await listRuns(c, names, { pipelineId: build }, 20, 0, all[19]);
      await listRuns(c, names, { status: 'success', pipelineId: build }, 20, 0);
      await listRuns(c, names, {}, 20, 5);
      const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(
        c,
      );
      return rows.map((r) => r.statement);
    });
    // The first page and the keyset page are separate statements (the keyset one reads the cursor run's key).
    expect(prepared).toHaveLength(4);
    for (const text of prepared) {
      expect(text).toMatch(/from "runs"/);
      expect(text).toMatch(/limit 200\) as "page" order by "created_at" desc, "id" desc limit \$\d+$/);
      expect(text).not.toMatch(/"pipeline_id" = |"project_id" = |"status" = \$/);
    }
    expect(prepared.filter((t) => t.includes(`"status" = 'success'`))).toHaveLength(1);
    expect(prepared.filter((t) => t.includes(`"status" = 'failed'`))).toHaveLength(1);
  });
});
