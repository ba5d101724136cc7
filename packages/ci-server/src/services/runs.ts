// Run and job-run actions: trigger, rerun, run-all, cancel, job rerun, approve and reject. Each is one
// transaction that loads the run (row-locked on PostgreSQL), applies a state-machine transition, persists
// what changed and records decisions; effects are published only after the commit.
import { conflict, HttpError, notFound } from '@app/kit';
import {
  approveGate,
  cancelRun,
  mergeParameters,
  type PipelineDocument,
  type RerunJobTransition,
  type RunSnapshot,
  type RunStatus,
  rejectGate,
  rerunJob,
  rerunRun,
  type Transition,
} from '../domain/index.js';
import type { StoreDb } from '../store/database.js';
import { newId, nowIso } from '../store/ids.js';
import { type LoadedRun, loadRun, persistRun, type Trx } from '../store/run-snapshot.js';
import { createRunIn } from './run-create.js';
import type { RunEvents } from './run-events.js';

export interface RunServiceDeps {
  db: StoreDb;
  postgres: boolean;
  events: RunEvents;
  /**
   * Resolves a branch head (git ls-remote, with stored SCM credentials): the triggers' resolver, passed in by
   * server.ts. Run-all pins each run to the head it resolves; without it (or when it fails) the checkout
   * resolves the branch.
   */
  resolveHead?: (url: string, branch: string) => Promise<string | null>;
}

export interface TriggerInput {
  git_ref?: string;
  parameters?: Record<string, string>;
}

/** The branch a run uses when none is given: the first git material's branch (null without one). */
export function defaultGitRef(doc: PipelineDocument): string | null {
  for (const m of doc.materials) if ('git' in m) return m.git.branch;
  return null;
}

/** A full commit id names the revision already; a branch or tag is resolved when the run is checked out. */
function revisionOf(gitRef: string | null): string | null {
  return gitRef && /^([0-9a-f]{40}|[0-9a-f]{64})$/.test(gitRef) ? gitRef : null;
}

const archivedMessage = (name: string) =>
  `pipeline "${name}" is archived (it was left out of the last applied bundle) and cannot start runs`;

/** Key of a pipeline's default branch: its first git material's URL and branch. */
function headKey(doc: PipelineDocument): string | null {
  for (const m of doc.materials) if ('git' in m) return `${m.git.url}\n${m.git.branch}`;
  return null;
}

export class RunService {
  constructor(private readonly deps: RunServiceDeps) {}

  /** Heads of the default branches of `definitions`, one lookup per repository and branch, 4 at a time. */
  private async heads(definitions: string[]): Promise<Map<string, string | null>> {
    const out = new Map<string, string | null>();
    const resolve = this.deps.resolveHead;
    if (!resolve) return out;
    const keys = [...new Set(definitions.map((d) => headKey(JSON.parse(d) as PipelineDocument)))];
    const queue = keys.filter((k): k is string => k !== null);
    const worker = async () => {
      for (let key = queue.shift(); key !== undefined; key = queue.shift()) {
        const [url, branch] = key.split('\n');
        out.set(key, await resolve(url, branch).catch(() => null));
      }
    };
    await Promise.all(Array.from({ length: Math.min(4, queue.length) }, worker));
    return out;
  }

  private async pipeline(id: string) {
    const row = await this.deps.db
      .selectFrom('pipelines')
      .select(['id', 'name', 'archived'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw notFound(`pipeline ${id} not found`);
    if (row.archived === 1) throw conflict(archivedMessage(row.name));
    return row;
  }

  async trigger(
    pipelineId: string,
    input: TriggerInput,
    actor: string,
  ): Promise<{ run_id: string; counter: number }> {
    const pipeline = await this.pipeline(pipelineId);
    const created = await this.deps.db.transaction().execute((trx) =>
      createRunIn(trx, pipelineId, (doc) => {
        const gitRef = input.git_ref ?? defaultGitRef(doc);
        return {
          cause: 'manual',
          triggeredBy: actor,
          gitRef,
          revision: revisionOf(gitRef),
          parameters: mergeParameters(doc.parameters, input.parameters),
          rerunOf: null,
        };
      }),
    );
    if (!created) throw conflict(archivedMessage(pipeline.name));
    this.deps.events.publish({ runId: created.id, effects: created.effects });
    return { run_id: created.id, counter: created.counter };
  }

  /** A new run of the same pipeline version, revision and parameters, pointing back at `runId`. */
  async rerun(runId: string, actor: string): Promise<{ run_id: string; counter: number }> {
    const origin = await this.deps.db
      .selectFrom('runs')
      .select(['id', 'pipeline_id', 'version_id', 'git_ref', 'revision', 'parameters'])
      .where('id', '=', runId)
      .executeTakeFirst();
    if (!origin) throw notFound(`run ${runId} not found`);
    const pipeline = await this.pipeline(origin.pipeline_id);
    const req = rerunRun({
      id: origin.id,
      pipelineId: origin.pipeline_id,
      gitRef: origin.git_ref,
      revision: origin.revision,
      parameters: JSON.parse(origin.parameters),
    });
    const created = await this.deps.db
      .transaction()
      .execute((trx) =>
        createRunIn(trx, origin.pipeline_id, { ...req, triggeredBy: actor, versionId: origin.version_id }),
      );
    if (!created) throw conflict(archivedMessage(pipeline.name));
    this.deps.events.publish({ runId: created.id, effects: created.effects });
    return { run_id: created.id, counter: created.counter };
  }

  /** One run of every active pipeline of the project, at its default branch's head, in one transaction. */
  async runAll(slug: string, actor: string): Promise<{ run_ids: string[] }> {
    const project = await this.deps.db
      .selectFrom('projects')
      .select('id')
      .where('slug', '=', slug)
      .executeTakeFirst();
    if (!project) throw notFound(`project "${slug}" not found`);
    const pipelines = await this.deps.db
      .selectFrom('pipelines')
      .select(['id', 'definition'])
      .where('project_id', '=', project.id)
      .where('archived', '=', 0)
      .orderBy('position')
      .execute();
    // Resolved before the transaction: network calls must not hold row locks.
    const heads = await this.heads(pipelines.map((p) => p.definition));
    const created = await this.deps.db.transaction().execute(async (trx) => {
      const out = [];
      for (const p of pipelines) {
        const run = await createRunIn(trx, p.id, (doc) => ({
          cause: 'run_all',
          triggeredBy: actor,
          gitRef: defaultGitRef(doc),
          revision: heads.get(headKey(doc) ?? '') ?? null,
          parameters: mergeParameters(doc.parameters, {}),
          rerunOf: null,
        }));
        if (run) out.push(run);
      }
      return out;
    });
    for (const run of created) this.deps.events.publish({ runId: run.id, effects: run.effects });
    return { run_ids: created.map((r) => r.id) };
  }

  /**
   * Loads `runId` under lock, applies `step`, persists and runs `after` in the same transaction, then
   * publishes the effects.
   */
  private async transition<T extends Transition | RerunJobTransition>(
    runId: string,
    step: (snapshot: RunSnapshot) => T,
    after?: (trx: Trx, loaded: LoadedRun, result: Extract<T, { ok: true }>) => Promise<void>,
  ): Promise<{ result: Extract<T, { ok: true }>; status: RunStatus }> {
    const out = await this.deps.db.transaction().execute(async (trx) => {
      const loaded = await loadRun(trx, runId, this.deps.postgres);
      if (!loaded) throw notFound(`run ${runId} not found`);
      const result = step(loaded.snapshot);
      if (!result.ok) throw new HttpError(result.error === 'not_found' ? 404 : 409, result.message);
      const ok = result as Extract<T, { ok: true }>;
      const status = await persistRun(trx, loaded, ok.run);
      await after?.(trx, loaded, ok);
      return { result: ok, status };
    });
    this.deps.events.publish({ runId, effects: out.result.effects });
    return out;
  }

  /** A queued run is canceled at once; a running one winds down as its agents report (202 either way). */
  async cancel(runId: string): Promise<{ run_id: string; status: RunStatus }> {
    const { status } = await this.transition(runId, cancelRun);
    return { run_id: runId, status };
  }

  private async jobRun(jobRunId: string) {
    const job = await this.deps.db
      .selectFrom('job_runs')
      .select(['id', 'run_id', 'name'])
      .where('id', '=', jobRunId)
      .executeTakeFirst();
    if (!job) throw notFound(`job run ${jobRunId} not found`);
    return job;
  }

  async rerunJob(jobRunId: string): Promise<{ job_run_id: string; run_id: string; attempt: number }> {
    const job = await this.jobRun(jobRunId);
    const { result } = await this.transition(job.run_id, (s) => rerunJob(s, jobRunId, newId));
    return { job_run_id: result.job.id, run_id: job.run_id, attempt: result.job.attempt };
  }

  /** Approve or reject a gate; the decision and its comment are recorded with the transition. */
  async decide(
    jobRunId: string,
    decision: 'approve' | 'reject',
    actor: string,
    comment: string | null,
  ): Promise<{ job_run_id: string; run_id: string; status: string; run_status: RunStatus }> {
    const job = await this.jobRun(jobRunId);
    const step = (s: RunSnapshot) =>
      decision === 'approve' ? approveGate(s, jobRunId, actor) : rejectGate(s, jobRunId, actor);
    const { result, status } = await this.transition(job.run_id, step, async (trx) => {
      await trx
        .insertInto('job_run_decisions')
        .values({ id: newId(), job_run_id: jobRunId, decision, actor, comment, at: nowIso() })
        .execute();
    });
    const row = result.run.stages.flatMap((s) => s.jobs).find((j) => j.id === jobRunId);
    return { job_run_id: jobRunId, run_id: job.run_id, status: row?.status ?? 'unknown', run_status: status };
  }
}
