// Starting runs from a trigger (webhook, poll, cron, upstream) inside the caller's transaction, next to the
// claim row that makes the trigger fire once; the state machine's effects are published only after commit.
import { createHash } from 'node:crypto';
import {
  causeEvent,
  mergeParameters,
  type PipelineDocument,
  type RunCause,
  type TriggerEvent,
  whenRefusal,
} from '../domain/index.js';
import type { RunEvents } from '../events/run-events.js';
import type { ForkRunInfo } from '../services/fork-runs.js';
import { type CreatedRun, createRunIn, publishCreated } from '../services/run-create.js';
import type { StoreDb } from '../store/database.js';
import { nowIso } from '../store/ids.js';
import { noteFailedDefinition } from './config-repo.js';

export interface RunRequest {
  pipelineId: string;
  cause: RunCause;
  triggeredBy: string;
  /** The ref and revision, or a function deciding them from the definition read under the row lock. */
  ref:
    | { gitRef: string | null; revision: string | null }
    | ((doc: PipelineDocument) => { gitRef: string | null; revision: string | null });
  /** A fork's pull request: held for approval and/or without secrets (services/fork-runs.ts). */
  fork?: ForkRunInfo;
  /** gocdnext's `when`: the event (default: from the cause), the branch and the changed files (null: unknown). */
  event?: TriggerEvent;
  branch?: string | null;
  files?: string[] | null;
  /** A pull request's labels (kept on the run; gocdnext's `approval.quorum_by_label` reads them). */
  labels?: string[];
}

/**
 * Whether the pipeline's `when` (gocdnext's dialect) lets this trigger create a run; read before the run is
 * created so that a filtered trigger does not spend a counter value. Triggers only: a person starting a run
 * by hand is never filtered.
 */
async function passesWhen(trx: StoreDb, r: RunRequest): Promise<boolean> {
  const row = await trx
    .selectFrom('pipelines')
    .select('definition')
    .where('id', '=', r.pipelineId)
    .executeTakeFirst();
  if (!row) return true;
  const doc = JSON.parse(row.definition) as PipelineDocument;
  if (!doc.when) return true;
  const ref = typeof r.ref === 'function' ? r.ref(doc) : r.ref;
  const event = r.event ?? causeEvent(r.cause);
  const branch =
    r.branch !== undefined ? r.branch : event === 'tag' || event === 'pull_request' ? null : ref.gitRef;
  return whenRefusal(doc.when, { event, branch, files: r.files ?? null }) === null;
}

/**
 * Creates one run per request (archived or deleted pipelines are skipped). Requests are taken in pipeline-id
 * order so that concurrent triggers lock pipeline rows in the same order and cannot deadlock.
 */
export async function createRuns(trx: StoreDb, requests: RunRequest[]): Promise<CreatedRun[]> {
  const ordered = [...requests].sort((a, b) => (a.pipelineId < b.pipelineId ? -1 : 1));
  const out: CreatedRun[] = [];
  for (const r of ordered) {
    if (!(await passesWhen(trx, r))) continue;
    const run = await createRunIn(trx, r.pipelineId, (doc) => {
      const ref = typeof r.ref === 'function' ? r.ref(doc) : r.ref;
      return {
        cause: r.cause,
        triggeredBy: r.triggeredBy,
        gitRef: ref.gitRef,
        revision: ref.revision,
        parameters: mergeParameters(doc.parameters, {}),
        rerunOf: null,
        fork: r.fork,
        event: r.event,
        files: r.files,
        labels: r.labels,
      };
    });
    if (!run) continue;
    // Pipelines as code: a push whose definition did not apply still runs (the last good definition); say why.
    if (r.cause === 'webhook' || r.cause === 'poll') await noteFailedDefinition(trx, run.id);
    out.push(run);
  }
  return out;
}

/** A run request that fires once per (pipeline, key), whoever asks and however often. */
export interface ClaimedRunRequest extends RunRequest {
  key: string;
  source: string;
  detail: string;
}

/** sha256 hex of the parts of a trigger's reason. */
export function triggerKey(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\n')).digest('hex');
}

/**
 * Claims each (pipeline, key) and creates a run for the claims this transaction won; a request whose claim
 * exists already (an earlier webhook, poll or replica) creates nothing.
 */
export async function claimAndCreateRuns(trx: StoreDb, requests: ClaimedRunRequest[]): Promise<CreatedRun[]> {
  const ordered = [...requests].sort((a, b) => (a.pipelineId < b.pipelineId ? -1 : 1));
  const out: CreatedRun[] = [];
  for (const r of ordered) {
    const claimed = await trx
      .insertInto('trigger_claims')
      .values({
        pipeline_id: r.pipelineId,
        trigger_key: r.key,
        source: r.source,
        detail: r.detail.slice(0, 2000),
        run_id: null,
        created_at: nowIso(),
      })
      .onConflict((oc) => oc.columns(['pipeline_id', 'trigger_key']).doNothing())
      .returning('pipeline_id')
      .executeTakeFirst();
    if (!claimed) continue;
    const [run] = await createRuns(trx, [r]);
    if (!run) continue;
    await trx
      .updateTable('trigger_claims')
      .set({ run_id: run.id })
      .where('pipeline_id', '=', r.pipelineId)
      .where('trigger_key', '=', r.key)
      .execute();
    out.push(run);
  }
  return out;
}

export function publishRuns(events: RunEvents, runs: CreatedRun[]): void {
  for (const run of runs) publishCreated(events, run);
}

/** The first git material of a pipeline: where its default branch lives. */
export function firstGitMaterial(doc: PipelineDocument): { url: string; branch: string } | null {
  for (const m of doc.materials) if ('git' in m) return { url: m.git.url, branch: m.git.branch };
  return null;
}
