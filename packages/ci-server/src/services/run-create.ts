// Creating a run inside a caller's transaction: take the pipeline's next counter (an UPDATE … RETURNING on
// the pipeline row, which also serialises concurrent triggers of one pipeline, so counters are consecutive
// and a unique index backs them), plan the stages and job runs from the definition (matrix expanded), start
// the first stage, and insert everything. The first stage's jobs are `queued` for an agent; nothing here
// executes them.
//
// On PostgreSQL a plain run (no concurrency group, no fork, and nothing for the outboxes to write: its project
// has no notification or commit-status setting the run would meet) is created in one statement
// (store/run-create-statements.ts): planned on the definition of the version this process last read under
// the pipeline's lock, the statement takes the counter only while the pipeline is still at that version and
// the project still has none of those settings, and otherwise writes nothing and the run is created as above.
// Issue 31: a manual trigger cost seven round trips to create its run (and two more to announce and learn
// it); a plain run now costs one statement, without a transaction of its own (createRun).

import type { Insertable } from 'kysely';
import { FORGE_STATUS_SETTING } from '../domain/forge-status.js';
import {
  causeEvent,
  countStage,
  type Effect,
  type PipelineDocument,
  planRun,
  type RunCause,
  startRun,
  type TriggerEvent,
  type TriggerFacts,
} from '../domain/index.js';
import { mayRaise } from '../domain/notification-events.js';
import type { RunChange, RunEvents } from '../events/run-events.js';
import type { StoreDb } from '../store/database.js';
import { enqueueForgeStatus, mayReportStatus } from '../store/forge-status-outbox.js';
import { newId, nowIso } from '../store/ids.js';
import { enqueueRunNotifications } from '../store/notification-outbox.js';
import { isPostgres } from '../store/run-concurrency.js';
import {
  bumpCounterStatement,
  createRunRows,
  insertRunRows,
  type NewRunRow,
} from '../store/run-create-statements.js';
import { insertJobRows, newJobRow, stageCountColumns, storedStatus } from '../store/run-snapshot.js';
import type { JobRunsTable, StageRunsTable } from '../store/schema.js';
import { type ForkRunInfo, holdStartedRun, insertForkRun } from './fork-runs.js';
import { cancelSuperseded, type GroupPlacement, placeInGroup } from './run-concurrency.js';

export interface NewRun {
  cause: RunCause;
  triggeredBy: string;
  gitRef: string | null;
  revision: string | null;
  parameters: Record<string, string>;
  rerunOf: string | null;
  /** The pipeline version to run (a rerun runs its origin's); default the pipeline's current one. */
  versionId?: string;
  /** A run of a fork's pull request: recorded, held for approval and/or built without secrets. */
  fork?: ForkRunInfo;
  /** gocdnext's `when` facts: the trigger event (default: from the cause) and the files it changed. */
  event?: TriggerEvent;
  files?: string[] | null;
  /** The event recorded on the run when `event` is not given (a rerun keeps its origin's). */
  recordedEvent?: string | null;
  /** A pull request's labels (a rerun keeps its origin's): kept on the run, read by `quorum_by_label`. */
  labels?: string[] | null;
}

const SHA_OR_REF = /^(?:[0-9a-f]{40}|[0-9a-f]{64}|refs\/.*)$/;

/** What job-level `when` is judged on: the event, the branch (when git_ref names one) and changed files. */
function triggerFacts(req: NewRun): TriggerFacts {
  const event = req.event ?? causeEvent(req.cause);
  const branch = event === 'tag' || !req.gitRef || SHA_OR_REF.test(req.gitRef) ? null : req.gitRef;
  // A rerun of a pull request's run (recordedEvent) builds the same pull request: its labels count again.
  const prEvent = event === 'pull_request' || req.recordedEvent === 'pull_request';
  return {
    event,
    branch,
    files: req.files ?? null,
    ...(prEvent && req.labels ? { labels: req.labels } : {}),
  };
}

export interface CreatedRun {
  id: string;
  counter: number;
  effects: Effect[];
  /** Changes to other runs made in the same transaction (runs this one superseded): published with it. */
  related?: RunChange[];
}

/** Publishes a created run's effects and those of the runs it changed, after the commit. */
export function publishCreated(events: RunEvents, run: CreatedRun): void {
  events.publish({ runId: run.id, effects: run.effects });
  for (const change of run.related ?? []) events.publish(change);
}

type Request = NewRun | ((current: PipelineDocument) => NewRun);

/**
 * Each pipeline's definition as last read under its row lock, with its version (a version's definition never
 * changes: apply writes a new version for a new digest): what the one-statement creation plans on.
 */
interface Known {
  versionId: string;
  definition: string;
  /**
   * The one statement found a setting an outbox reads (its project has notification channels or commit
   * statuses): runs that may notify go under the lock at once, not after a statement that writes nothing.
   */
  settings?: boolean;
  /** The last one-statement attempt that guarded on settings wrote nothing (settings, or a new version). */
  missed?: boolean;
}
const definitions = new Map<string, Known>();
const DEFINITIONS_KEPT = 1_000;
/** What a plain run must not meet (store/notification-outbox.ts, store/forge-status-outbox.ts read them). */
const NOTIFY_SETTING = 'notifications';

function remember(pipelineId: string, versionId: string, definition: string): void {
  const was = definitions.get(pipelineId);
  definitions.delete(pipelineId);
  if (definitions.size >= DEFINITIONS_KEPT) definitions.delete(definitions.keys().next().value as string);
  // A miss at the same version was the settings (versions only change by apply).
  const settings = was?.versionId === versionId && (was.missed === true || was.settings === true);
  definitions.set(pipelineId, { versionId, definition, ...(settings ? { settings: true } : {}) });
}

interface Planned {
  runId: string;
  now: string;
  status: ReturnType<typeof storedStatus>;
  held: boolean;
  effects: Effect[];
  row: NewRunRow;
  stageRows: Insertable<StageRunsTable>[];
  jobRows: Insertable<JobRunsTable>[];
  /** The gates waiting from the start: what the notification outbox is told. */
  gates: { id: string; name: string }[];
}

/** Plans and starts a run of `document` (unless it waits in its group) and builds its rows. */
function plan(
  pipelineId: string,
  versionId: string,
  document: PipelineDocument,
  req: NewRun,
  placed: GroupPlacement | null,
): Planned {
  const planned = planRun(document, newId, triggerFacts(req));
  const waiting = placed !== null && !placed.decision.start;
  const started = waiting ? { ok: true as const, run: planned, effects: [] } : startRun(planned);
  if (!started.ok) throw new Error(`a planned run could not start: ${started.message}`);
  const snapshot = started.run;
  let effects = started.effects;
  // A held run stays `queued` (waiting for a maintainer, not for an agent) with its jobs awaiting approval.
  const held = req.fork?.awaitingApproval === true && !waiting;
  if (held) effects = holdStartedRun(snapshot, effects);
  const now = nowIso();
  const runId = newId();
  const status = held ? 'queued' : storedStatus(snapshot);
  const terminal = status === 'success' || status === 'failed' || status === 'canceled';
  const row: NewRunRow = {
    id: runId,
    pipeline_id: pipelineId,
    version_id: versionId,
    status,
    cause: req.cause,
    triggered_by: req.triggeredBy,
    git_ref: req.gitRef,
    revision: req.revision,
    parameters: JSON.stringify(req.parameters),
    rerun_of: req.rerunOf,
    trigger_event: req.event ?? req.recordedEvent ?? null,
    pr_labels: req.labels ? JSON.stringify(req.labels) : null,
    cancel_requested: 0,
    created_at: now,
    started_at: status === 'running' || terminal ? now : null,
    finished_at: terminal ? now : null,
    updated_at: now,
    concurrency_group: placed?.group ?? null,
    concurrency_seq: placed?.seq ?? null,
    waiting_for: placed?.decision.waitFor ?? null,
  };
  const stageRows = snapshot.stages.map((s, position) => ({
    id: newId(),
    run_id: runId,
    position,
    name: s.name,
    status: s.status,
    started_at: s.status === 'created' ? null : now,
    finished_at: s.status === 'created' || s.status === 'running' ? null : now,
    ...stageCountColumns(countStage(s)),
  }));
  const jobRows = snapshot.stages.flatMap((s, i) =>
    s.jobs.map((job, position) => newJobRow(job, { runId, stageRunId: stageRows[i].id, position }, now)),
  );
  // Gates only: a held run's build jobs are approved through the run (POST /runs/{id}/approve).
  const gates = jobRows
    .filter((j) => j.status === 'awaiting_approval' && j.is_gate === 1)
    .map((j) => ({ id: j.id, name: j.name }));
  return { runId, now, status, held, effects, row, stageRows, jobRows, gates };
}

/**
 * PostgreSQL's one-statement creation (see the top), in a transaction or not; null when it does not apply or
 * the pipeline was not at the remembered version (nothing written then).
 */
async function createPlainRun(db: StoreDb, pipelineId: string, request: Request): Promise<CreatedRun | null> {
  const known = definitions.get(pipelineId);
  if (!known || !isPostgres(db)) return null;
  const document = JSON.parse(known.definition) as PipelineDocument;
  const req = typeof request === 'function' ? request(document) : request;
  if (req.fork || document.concurrency || (req.versionId && req.versionId !== known.versionId)) return null;
  const p = plan(pipelineId, known.versionId, document, req, null);
  // The outboxes write nothing when the project has none of the settings they would read (as enqueue*
  // below decide): the statement writes nothing when it has.
  const absent: string[] = [];
  if (mayRaise('queued', p.status, p.gates.length)) absent.push(NOTIFY_SETTING);
  if (mayReportStatus(req.revision, null, p.status)) absent.push(FORGE_STATUS_SETTING);
  if (absent.length > 0 && known.settings) return null;
  const created = await createRunRows(db, p.row, p.stageRows, p.jobRows, absent);
  if (!created) {
    if (absent.length > 0) known.missed = true;
    return null;
  }
  return { id: p.runId, counter: created.counter, effects: p.effects, related: [] };
}

/** Creates a run of an active pipeline; null when the pipeline does not exist or is archived. */
export async function createRunIn(
  trx: StoreDb,
  pipelineId: string,
  request: Request,
): Promise<CreatedRun | null> {
  return (await createPlainRun(trx, pipelineId, request)) ?? createLockedRun(trx, pipelineId, request);
}

/**
 * Creates a run in a transaction of its own: on PostgreSQL a plain run in one statement without one (a single
 * statement is atomic); null when the pipeline does not exist or is archived.
 */
export async function createRun(
  db: StoreDb,
  pipelineId: string,
  request: Request,
): Promise<CreatedRun | null> {
  return (
    (await createPlainRun(db, pipelineId, request)) ??
    db.transaction().execute((trx) => createLockedRun(trx, pipelineId, request))
  );
}

/** The counter taken under the pipeline's row lock, held until the transaction ends. */
async function bumpCounter(trx: StoreDb, pipelineId: string, postgres: boolean) {
  if (postgres) return (await bumpCounterStatement(trx, [pipelineId]))[0];
  return trx
    .updateTable('pipelines')
    .set((eb) => ({ counter: eb('counter', '+', 1) }))
    .where('id', '=', pipelineId)
    .where('archived', '=', 0)
    .returning(['counter', 'project_id', 'version_id', 'definition'])
    .executeTakeFirst();
}

async function createLockedRun(
  trx: StoreDb,
  pipelineId: string,
  request: Request,
): Promise<CreatedRun | null> {
  const postgres = isPostgres(trx);
  const bumped = await bumpCounter(trx, pipelineId, postgres);
  if (!bumped) return null;
  if (postgres) remember(pipelineId, bumped.version_id, bumped.definition);
  // Decided on the definition read under the pipeline's row lock, not one read before a concurrent apply.
  const current = JSON.parse(bumped.definition) as PipelineDocument;
  const req = typeof request === 'function' ? request(current) : request;
  let versionId = bumped.version_id;
  let document = current;
  if (req.versionId && req.versionId !== versionId) {
    const version = await trx
      .selectFrom('pipeline_versions')
      .select(['id', 'definition'])
      .where('id', '=', req.versionId)
      .executeTakeFirst();
    if (version) [versionId, document] = [version.id, JSON.parse(version.definition) as PipelineDocument];
  }
  // Concurrency (services/run-concurrency.ts): a serial run may wait for the run before it, unstarted.
  const placed = await placeInGroup(trx, bumped.project_id, pipelineId, document, req.gitRef);
  const p = plan(pipelineId, versionId, document, req, placed);
  const { runId, status, jobRows } = p;
  if (postgres) {
    await insertRunRows(
      trx,
      { ...p.row, counter: bumped.counter, project_id: bumped.project_id },
      p.stageRows,
      jobRows,
    );
  } else {
    await trx
      .insertInto('runs')
      .values({ ...p.row, counter: bumped.counter, project_id: bumped.project_id })
      .execute();
    if (p.stageRows.length > 0) await trx.insertInto('stage_runs').values(p.stageRows).execute();
    await insertJobRows(trx, jobRows);
  }
  if (req.fork) await insertForkRun(trx, runId, req.fork);
  // A run may start waiting on a gate (or already be running or over) the moment it is created.
  await enqueueRunNotifications(
    trx,
    {
      id: runId,
      project_id: bumped.project_id,
      pipeline_id: pipelineId,
      counter: bumped.counter,
      cause: req.cause,
      git_ref: req.gitRef,
      revision: req.revision,
    },
    'queued',
    status,
    p.gates,
  );
  // A push's or pull request's run tells its forge it is pending (store/forge-status-outbox.ts).
  await enqueueForgeStatus(
    trx,
    {
      id: runId,
      project_id: bumped.project_id,
      pipeline_id: pipelineId,
      counter: bumped.counter,
      cause: req.cause,
      git_ref: req.gitRef,
      revision: req.revision,
      rerun_of: req.rerunOf,
      held: p.held,
    },
    null,
    status,
  );
  const related = placed ? await cancelSuperseded(trx, placed.decision.cancel, runId) : [];
  return { id: runId, counter: bumped.counter, effects: p.effects, related };
}
