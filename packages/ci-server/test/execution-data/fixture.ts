// Shared set-up of the execution-data tests: a control plane (auth off) on SQLite or PostgreSQL with one
// applied project, and runs whose job rows exist, so logs, artifacts, reports and service runs have owners.
import type { Kysely } from 'kysely';
import type { CiServer } from '../../src/index.js';
import type { StoreSchema } from '../../src/store/database.js';
import { applyAndGetPipelines, client, type StoreKind, startApiServer } from '../api-helpers.js';
import { finishJob, startJob } from '../core/agent-sim.js';

export const PIPELINE = `name: build
stages: [build, test]
jobs:
  compile:
    stage: build
    script: [make]
  lint:
    stage: build
    script: [make lint]
  unit:
    stage: test
    script: [make test]
    matrix:
      NODE: ["20", "22"]
`;

export interface DataFixture {
  server: CiServer;
  db: Kysely<StoreSchema>;
  api: ReturnType<typeof client>;
  pipelineId: string;
  /** Triggers a run; returns its id and the ids of its first stage's jobs (compile, lint). */
  newRun(): Promise<{ runId: string; compile: string; lint: string }>;
  /** Ends a run: every queued job of it is started and finished with `result` until the run is terminal. */
  finishRun(runId: string, result?: 'success' | 'failed'): Promise<void>;
}

export async function startDataFixture(kind: StoreKind, slug = 'shop'): Promise<DataFixture> {
  const server = await startApiServer(kind);
  const api = client(server);
  const pipelines = await applyAndGetPipelines(api, slug, [PIPELINE]);
  const db = server.database.db;
  const jobsOf = (runId: string) =>
    db
      .selectFrom('job_runs')
      .select(['id', 'name', 'status'])
      .where('run_id', '=', runId)
      .orderBy('position')
      .execute();
  return {
    server,
    db,
    api,
    pipelineId: pipelines.build,
    async newRun() {
      const res = await api.post(`/api/v1/pipelines/${pipelines.build}/trigger`);
      if (res.status !== 201) throw new Error(`trigger failed: ${res.status} ${JSON.stringify(res.body)}`);
      const jobs = await jobsOf(res.body.run_id);
      return {
        runId: res.body.run_id,
        compile: jobs.find((j) => j.name === 'compile')!.id,
        lint: jobs.find((j) => j.name === 'lint')!.id,
      };
    },
    async finishRun(runId, result = 'success') {
      for (let round = 0; round < 10; round++) {
        const run = await db
          .selectFrom('runs')
          .select('status')
          .where('id', '=', runId)
          .executeTakeFirstOrThrow();
        if (['success', 'failed', 'canceled'].includes(run.status)) return;
        for (const job of await jobsOf(runId)) {
          if (job.status === 'queued') await startJob(server, job.id);
          if (job.status === 'queued' || job.status === 'running') await finishJob(server, job.id, result);
        }
      }
      throw new Error(`run ${runId} did not finish`);
    },
  };
}

/** `count` lines from `from`, text `<prefix> <seq>`. */
export function lines(count: number, from = 1, prefix = 'line') {
  return Array.from({ length: count }, (_, i) => ({
    seq: from + i,
    stream: i % 5 === 4 ? 'stderr' : 'stdout',
    atMs: Date.UTC(2025, 0, 1) + from + i,
    text: `${prefix} ${from + i}`,
  }));
}

/** Parses an SSE body into its events (comments dropped). */
export function parseSse(body: string): { event?: string; id?: string; data?: any }[] {
  const events: { event?: string; id?: string; data?: any }[] = [];
  for (const block of body.split('\n\n')) {
    const e: { event?: string; id?: string; data?: any } = {};
    let any = false;
    for (const line of block.split('\n')) {
      if (line === '' || line.startsWith(':')) continue;
      const i = line.indexOf(':');
      const field = i < 0 ? line : line.slice(0, i);
      const value = i < 0 ? '' : line.slice(i + 1).replace(/^ /, '');
      if (field === 'event') e.event = value;
      else if (field === 'id') e.id = value;
      else if (field === 'data') e.data = JSON.parse(value);
      else continue;
      any = true;
    }
    if (any) events.push(e);
  }
  return events;
}
