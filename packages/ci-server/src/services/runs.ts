// Run and job-run actions: trigger, rerun, run-all, cancel, job rerun, approve and reject. Each is one
// transaction that loads the run (row-locked on PostgreSQL), applies a state-machine transition, persists
// what changed and records decisions; effects are published only after the commit.
import { conflict, forbidden, HttpError, notFound } from '@app/kit';
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
import type { RunEvents } from '../events/run-events.js';
import { readApproverGroups } from '../store/approver-groups.js';
import type { StoreDb } from '../store/database.js';
import { newId, nowIso } from '../store/ids.js';
import { type LoadedRun, loadRun, persistRun, type Trx } from '../store/run-snapshot.js';
import { type ForkRunInfo, forkRunOf, releaseHeldRun } from './fork-runs.js';
import { type Decider, namesGroups, refuseDecision } from './gate-approvers.js';
import { createRun, createRunIn, publishCreated } from './run-create.js';

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
    const created = await createRun(this.deps.db, pipelineId, (doc) => {
      const gitRef = input.git_ref ?? defaultGitRef(doc);
      return {
        cause: 'manual',
        triggeredBy: actor,
        gitRef,
        revision: revisionOf(gitRef),
        parameters: mergeParameters(doc.parameters, input.parameters),
        rerunOf: null,
      };
    });
    // Missing (404) or archived (409) told apart only when no run was created: a round trip less per run.
    if (!created) throw conflict(archivedMessage((await this.pipeline(pipelineId)).name));
    publishCreated(this.deps.events, created);
    return { run_id: created.id, counter: created.counter };
  }

  /** A new run of the same pipeline version, revision and parameters, pointing back at `runId`. */
  async rerun(runId: string, actor: string): Promise<{ run_id: string; counter: number }> {
    const origin = await this.deps.db
      .selectFrom('runs')
      .select([
        'id',
        'pipeline_id',
        'version_id',
        'git_ref',
        'revision',
        'parameters',
        'trigger_event',
        'pr_labels',
      ])
      .where('id', '=', runId)
      .executeTakeFirst();
    if (!origin) throw notFound(`run ${runId} not found`);
    const pipeline = await this.pipeline(origin.pipeline_id);
    // A rerun of a fork's run builds the same foreign code: still without secrets unless the run had them,
    // but a maintainer asked for it, so it does not wait for approval again.
    const forkOrigin = await forkRunOf(this.deps.db, origin.id);
    const fork: ForkRunInfo | undefined = forkOrigin
      ? {
          headRepository: forkOrigin.head_repository,
          author: forkOrigin.author,
          reason: `rerun by ${actor} of a run of a pull request from fork ${forkOrigin.head_repository ?? '(unknown)'}; ${
            forkOrigin.secrets_withheld
              ? 'its jobs get no secrets'
              : 'its jobs get the secrets (allow_secrets)'
          }`,
          awaitingApproval: false,
          secretsWithheld: forkOrigin.secrets_withheld,
          approvedBy: actor,
        }
      : undefined;
    const req = rerunRun({
      id: origin.id,
      pipelineId: origin.pipeline_id,
      gitRef: origin.git_ref,
      revision: origin.revision,
      parameters: JSON.parse(origin.parameters),
    });
    const created = await this.deps.db.transaction().execute((trx) =>
      createRunIn(trx, origin.pipeline_id, {
        ...req,
        triggeredBy: actor,
        versionId: origin.version_id,
        fork,
        // A rerun of a pull request's run is still one (its OIDC token's sub stays ref-less).
        recordedEvent: origin.trigger_event,
        // …and keeps the pull request's labels, so its gates need what the original's did.
        labels: origin.pr_labels ? (JSON.parse(origin.pr_labels) as string[]) : null,
      }),
    );
    if (!created) throw conflict(archivedMessage(pipeline.name));
    publishCreated(this.deps.events, created);
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
    for (const run of created) publishCreated(this.deps.events, run);
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

  /**
   * Approves a run of a fork's pull request that waits for a maintainer: its waiting jobs are queued for
   * agents, and who approved (with the comment) is kept on the run. Secrets stay withheld unless the
   * project's fork policy allowed them when the run was created. 409 when the run is not waiting.
   */
  async approveRun(
    runId: string,
    actor: string,
    comment: string | null,
  ): Promise<{ run_id: string; status: RunStatus; approved_by: string; secrets_withheld: boolean }> {
    let withheld = true;
    const { status } = await this.transition(
      runId,
      (s) => releaseHeldRun(s),
      async (trx, loaded) => {
        const fork = await trx
          .selectFrom('fork_runs')
          .select(['awaiting_approval', 'secrets_withheld'])
          .where('run_id', '=', runId)
          .executeTakeFirst();
        if (fork?.awaiting_approval !== 1) throw conflict(`run ${runId} is not waiting for approval`);
        if (['success', 'failed', 'canceled'].includes(loaded.run.status))
          throw conflict(`run ${runId} already finished (${loaded.run.status})`);
        withheld = fork.secrets_withheld === 1;
        await trx
          .updateTable('fork_runs')
          .set({ awaiting_approval: 0, approved_by: actor, approved_at: nowIso(), comment })
          .where('run_id', '=', runId)
          .execute();
      },
    );
    return { run_id: runId, status, approved_by: actor, secrets_withheld: withheld };
  }

  /**
   * Approve or reject a gate; the decision and its comment are recorded with the transition. Refused (403)
   * when the gate names its approvers and the decider is not one of them, or when the decider triggered the
   * run and the gate does not allow self-approval; 409 for a job that is not a gate or a run still waiting
   * for its fork approval.
   */
  async decide(
    jobRunId: string,
    decision: 'approve' | 'reject',
    decider: Decider,
    comment: string | null,
  ): Promise<{ job_run_id: string; run_id: string; status: string; run_status: RunStatus }> {
    const actor = decider.username;
    const job = await this.deps.db
      .selectFrom('job_runs as j')
      .innerJoin('runs as r', 'r.id', 'j.run_id')
      .leftJoin('fork_runs as f', 'f.run_id', 'j.run_id')
      .select([
        'j.id',
        'j.run_id',
        'j.name',
        'j.is_gate',
        'r.version_id',
        'r.triggered_by',
        'f.awaiting_approval',
      ])
      .where('j.id', '=', jobRunId)
      .executeTakeFirst();
    if (!job) throw notFound(`job run ${jobRunId} not found`);
    if (job.awaiting_approval === 1)
      throw conflict(
        `the run waits for a maintainer to approve it (a pull request from a fork): POST /api/v1/runs/${job.run_id}/approve first`,
      );
    if (job.is_gate !== 1) throw conflict(`job "${job.name}" is not a manual gate`);
    const version = await this.deps.db
      .selectFrom('pipeline_versions')
      .select('definition')
      .where('id', '=', job.version_id)
      .executeTakeFirst();
    const spec = version
      ? (JSON.parse(version.definition) as PipelineDocument).jobs[job.name]?.approval
      : undefined;
    // Groups are read at decision time: an admin's change applies to gates already waiting.
    const groups = namesGroups(spec) ? await readApproverGroups(this.deps.db) : undefined;
    const refusal = refuseDecision(job.name, spec, decision, decider, job.triggered_by, groups);
    if (refusal) throw forbidden(refusal);
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
