/**
 * Planning new runs: the snapshot a trigger creates (stages and job rows from the pipeline document, matrix
 * expanded), trigger parameters merged over the pipeline's defaults, and what a run rerun copies.
 */
import type { PipelineDocument } from './bundle-types.js';
import { gateQuorum } from './gate-quorum.js';
import { expandMatrix } from './matrix.js';
import { NOTIFY_STAGE, notifyJobName } from './notifications.js';
import type { JobRow, RunCause, RunSnapshot } from './run-types.js';
import { type TriggerFacts, whenRefusal } from './when-filter.js';

/**
 * A new run of `pipeline`: status `queued`, every stage `created`, one `created` row per job and matrix
 * combination (stage order, then job declaration order, then matrix order), attempt 1.
 */
export function planRun(
  pipeline: PipelineDocument,
  newId: () => string,
  trigger?: TriggerFacts,
): RunSnapshot {
  const stages = pipeline.stages.map((name) => ({ name, status: 'created' as const, jobs: [] as JobRow[] }));
  for (const [name, job] of Object.entries(pipeline.jobs)) {
    const stage = stages.find((s) => s.name === job.stage);
    if (!stage) continue;
    for (const matrix of expandMatrix(job.matrix)) {
      const row: JobRow = {
        id: newId(),
        name,
        matrix,
        // gocdnext's job-level `when`: a job the trigger does not pass is skipped from the start (and the
        // jobs that need it are skipped in turn by the state machine).
        status: trigger && whenRefusal(job.when, trigger) !== null ? 'skipped' : 'created',
        needs: [...job.needs],
        attempt: 1,
        isGate: job.approval !== undefined,
        retryLeft: job.retry,
        retry: job.retry,
      };
      if (job.approval) {
        row.requiredApprovals = gateQuorum(job.approval, trigger);
        row.approvedBy = [];
      }
      stage.jobs.push(row);
    }
  }
  // gocdnext's notifications: one last stage, started by the state machine once the run has finished.
  const notifications = pipeline.notifications ?? [];
  if (notifications.length > 0)
    stages.push({
      name: NOTIFY_STAGE,
      status: 'created',
      jobs: notifications.map((n, i) => ({
        id: newId(),
        name: notifyJobName(i),
        matrix: {},
        status: 'created',
        needs: [],
        attempt: 1,
        isGate: false,
        retryLeft: 0,
        retry: 0,
        notifyOn: n.on,
      })),
    });
  return { status: 'queued', stages };
}

/**
 * A run's parameters: the pipeline's `parameters` block with the trigger's values merged over it. Names the
 * block does not declare are kept too (the trigger body is "merged into" the block).
 */
export function mergeParameters(
  defaults: Record<string, string>,
  overrides: Record<string, string> | undefined | null,
): Record<string, string> {
  return { ...defaults, ...(overrides ?? {}) };
}

export interface TriggerBody {
  /** Branch, tag or commit; null means the project head. */
  git_ref?: string | null;
  parameters?: Record<string, string> | null;
}

/** What `POST /pipelines/{id}/trigger` creates: a run with cause `manual`, trigger parameters merged in. */
export function manualTrigger(
  pipelineId: string,
  pipeline: PipelineDocument,
  body: TriggerBody = {},
): NewRunRequest {
  return {
    pipelineId,
    cause: 'manual',
    gitRef: body.git_ref ?? null,
    revision: null,
    parameters: mergeParameters(pipeline.parameters, body.parameters),
    rerunOf: null,
  };
}

export interface RunOrigin {
  id: string;
  pipelineId: string;
  gitRef: string | null;
  revision: string | null;
  parameters: Record<string, string>;
}

export interface NewRunRequest {
  pipelineId: string;
  cause: RunCause;
  gitRef: string | null;
  revision: string | null;
  parameters: Record<string, string>;
  /** The run this one reruns (`rerun_of`). */
  rerunOf: string | null;
}

/**
 * What `POST /runs/{id}/rerun` creates: a new run of the same pipeline at the same revision with the same
 * parameters (the same materials snapshot), cause `rerun`, pointing back at the original. The rerun of a
 * rerun points at the run it was asked for, not at the first one. Any run may be rerun, finished or not.
 */
export function rerunRun(origin: RunOrigin): NewRunRequest {
  return {
    pipelineId: origin.pipelineId,
    cause: 'rerun',
    gitRef: origin.gitRef,
    revision: origin.revision,
    parameters: { ...origin.parameters },
    rerunOf: origin.id,
  };
}
