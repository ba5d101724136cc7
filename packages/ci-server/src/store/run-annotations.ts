// What a run summary says beyond its row (docs/ci-api.md, "Why a run waits"): `waiting` — why an unfinished
// run does nothing (domain/run-waiting.ts decides from the facts read here) — and `superseded_by` — the run
// that canceled it under `concurrency: cancel-superseded`. Read for a page of runs at once: the unfinished
// runs' active jobs and fork holds, and the counters of the runs they name, in three small queries.
import { type RunWaiting, runWaiting } from '../domain/index.js';
import type { StoreDb } from './database.js';

export interface SupersededBy {
  run_id: string;
  counter: number;
  pipeline_name: string;
}

export interface RunAnnotations {
  waiting: RunWaiting | null;
  superseded_by: SupersededBy | null;
}

interface Annotated {
  id: string;
  pipeline_id: string;
  status: string;
  waiting_for: string | null;
  superseded_by: string | null;
}

const NONE: RunAnnotations = { waiting: null, superseded_by: null };

/** The annotations of each run of `rows`, by run id. */
export async function annotateRuns(
  db: StoreDb,
  rows: readonly Annotated[],
): Promise<Map<string, RunAnnotations>> {
  const out = new Map<string, RunAnnotations>();
  const open = rows.filter((r) => r.status === 'queued' || r.status === 'running').map((r) => r.id);
  const named = [
    ...new Set(rows.flatMap((r) => [r.waiting_for, r.superseded_by]).filter((x): x is string => x !== null)),
  ];
  if (open.length === 0 && named.length === 0) {
    for (const r of rows) out.set(r.id, NONE);
    return out;
  }
  const [jobs, forks, others] = await Promise.all([
    open.length === 0
      ? []
      : db
          .selectFrom('job_runs')
          .select(['run_id', 'name', 'status', 'is_gate', 'stage_run_id', 'position'])
          .where('run_id', 'in', open)
          .where('status', 'in', ['queued', 'running', 'awaiting_approval'])
          .orderBy('position')
          .execute(),
    open.length === 0
      ? []
      : db
          .selectFrom('fork_runs')
          .select('run_id')
          .where('run_id', 'in', open)
          .where('awaiting_approval', '=', 1)
          .execute(),
    named.length === 0
      ? []
      : db
          .selectFrom('runs as r')
          .innerJoin('pipelines as p', 'p.id', 'r.pipeline_id')
          .select(['r.id', 'r.counter', 'r.pipeline_id', 'p.name'])
          .where('r.id', 'in', named)
          .execute(),
  ]);
  const held = new Set(forks.map((f) => f.run_id));
  const byId = new Map(others.map((o) => [o.id, o]));
  for (const r of rows) {
    const w = r.waiting_for ? byId.get(r.waiting_for) : undefined;
    const s = r.superseded_by ? byId.get(r.superseded_by) : undefined;
    out.set(r.id, {
      waiting: runWaiting({
        status: r.status,
        waitingFor: w
          ? {
              id: w.id,
              counter: w.counter,
              pipelineName: w.name,
              samePipeline: w.pipeline_id === r.pipeline_id,
            }
          : null,
        forkAwaitingApproval: held.has(r.id),
        activeJobs: jobs
          .filter((j) => j.run_id === r.id)
          .map((j) => ({ name: j.name, status: j.status, isGate: j.is_gate === 1 })),
      }),
      superseded_by: s ? { run_id: s.id, counter: s.counter, pipeline_name: s.name } : null,
    });
  }
  return out;
}
