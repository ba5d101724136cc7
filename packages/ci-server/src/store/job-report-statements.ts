// The two reports every job sends, applied without loading the run (dispatch/report-batches.ts sends a tick's
// reports together; a single report is a batch of one):
//
// - started: one conditional UPDATE of the job rows (queued → running, held by the reporting agent, the run
//   not being canceled) that moves the run row queued → running only when this start is the run's first
//   (PostgreSQL: one statement, a data-modifying CTE; SQLite: two in one transaction). The state machine would
//   do nothing else (onJobStarted raises no effect). A run whose project has notification or commit-status
//   settings has its first start take the full transition instead, which writes those outboxes.
// - finished (success or canceled): after the runs are locked, one read of the finishing jobs with their
//   stages' counts (domain/stage-counts.ts), the decision made by finishByCounts, and one write of the job
//   rows and the stage counts (PostgreSQL: one statement), plus the run row and its outboxes when the job was
//   the run's last. What the counts cannot decide is left to the full transition.
//
// Locks: `started` takes the run row FOR KEY SHARE in its statement (ordered against a cancel's FOR UPDATE,
// not against other reports), and two first starts of one run meet on the run row's update (the second finds
// it no longer queued). `finished` runs after lockRunsForReports in the same transaction, so its read sees
// every transition committed before the lock was granted, and the counts it writes follow from that read.
import { type Selectable, sql } from 'kysely';
import { FORGE_STATUS_SETTING } from '../domain/forge-status.js';
import type { Effect, JobStatus, RunStatus, StageStatus } from '../domain/index.js';
import { type FinishByCounts, finishByCounts, type StageCounts } from '../domain/stage-counts.js';
import type { StoreDb } from './database.js';
import {
  compiledOnce,
  lockRunsStatement,
  startStatement,
  writeFinishesStatement,
} from './dispatch-statements.js';
import { enqueueForgeStatus } from './forge-status-outbox.js';
import { nowIso } from './ids.js';
import { enqueueRunNotifications } from './notification-outbox.js';
import type { RunsTable } from './schema.js';

export interface StartReport {
  jobRunId: string;
  agentId: string;
  engine: string | null;
}

/** Project settings that make a run's status change write an outbox row (the full transition does that). */
const OUTBOX_SETTINGS = ['notifications', FORGE_STATUS_SETTING];

/** `case id when <job> then <value> … else <otherwise> end` over the reports of a batch. */
function byJob<R extends { jobRunId: string }>(
  reports: readonly R[],
  value: (r: R) => unknown,
  otherwise: unknown,
) {
  return sql<any>`case ${sql.ref('id')} ${sql.join(
    reports.map((r) => sql`when ${r.jobRunId} then ${value(r)}`),
    sql` `,
  )} else ${otherwise} end`;
}

/** queued → running for the reports it can apply alone (see the file's comment): their ids. */
export async function startJobs(
  db: StoreDb,
  reports: readonly StartReport[],
  postgres: boolean,
): Promise<Set<string>> {
  if (reports.length === 0) return new Set();
  const now = nowIso();
  const engines = reports.some((r) => r.engine);
  const updateJobs = (qb: StoreDb) =>
    qb
      .updateTable('job_runs')
      .set({
        status: 'running',
        started_at: now,
        updated_at: now,
        ...(engines ? { engine: byJob(reports, (r) => r.engine, sql.ref('engine')) } : {}),
      })
      .where(
        'id',
        'in',
        reports.map((r) => r.jobRunId),
      )
      .where('status', '=', 'queued')
      .where(({ eb, ref }) =>
        eb(
          ref('lease_agent_id'),
          '=',
          byJob(reports, (r) => r.agentId, null),
        ),
      )
      .where('run_id', 'in', (eb) => {
        const runs = eb
          .selectFrom('runs')
          .select('runs.id')
          .whereRef('runs.id', '=', 'job_runs.run_id')
          .where('runs.cancel_requested', '=', 0)
          .where(({ eb: w, or, and, not, exists, selectFrom }) =>
            or([
              w('runs.status', '=', 'running'),
              and([
                w('runs.status', '=', 'queued'),
                not(
                  exists(
                    selectFrom('project_settings as ps')
                      .select(sql`1`.as('one'))
                      .whereRef('ps.project_id', '=', 'runs.project_id')
                      .where('ps.key', 'in', OUTBOX_SETTINGS),
                  ),
                ),
              ]),
            ]),
          );
        return runs;
      })
      .returning(['id', 'run_id']);
  const startRuns = (qb: StoreDb, runIds: readonly string[]) =>
    qb
      .updateTable('runs')
      .set({ status: 'running', started_at: sql`coalesce(started_at, ${now})`, updated_at: now })
      .where('id', 'in', [...runIds])
      .where('status', '=', 'queued');
  if (postgres) {
    const rows = await startStatement(db, [
      reports.map((r) => r.jobRunId),
      reports.map((r) => r.agentId),
      reports.map((r) => r.engine),
      now,
      engines,
      OUTBOX_SETTINGS,
    ]);
    return new Set(rows.map((r) => r.id));
  }
  return db.transaction().execute(async (trx) => {
    const rows = await updateJobs(trx).execute();
    if (rows.length > 0) await startRuns(trx, [...new Set(rows.map((r) => r.run_id))]).execute();
    return new Set(rows.map((r) => r.id));
  });
}

/** Locks the runs of a batch of finishes (PostgreSQL: in id order, so two batches never deadlock): their rows. */
export async function lockRunsForReports(
  trx: StoreDb,
  runIds: readonly string[],
  postgres: boolean,
): Promise<Map<string, Selectable<RunsTable>>> {
  if (runIds.length === 0) return new Map();
  if (postgres) {
    const rows = await lockRunsStatement(trx, [[...runIds]]);
    return new Map(rows.map((r) => [r.id, r]));
  }
  const q = trx
    .selectFrom('runs')
    .selectAll()
    .where('id', 'in', [...runIds])
    .orderBy('id');
  const rows = await q.execute();
  return new Map(rows.map((r) => [r.id, r]));
}

export interface FinishReportRow {
  jobRunId: string;
  agentId: string;
  result: 'success' | 'canceled';
  exitCode: number | null;
  error: string | null;
  /** The declared outputs of a success (JSON); null: none. */
  outputs: string | null;
}

export interface FinishedRow {
  started_at: string | null;
  assigned_at: string | null;
}

export interface FinishedByCounts {
  /** The reports applied, by job id (the others need the full transition). */
  applied: Map<string, FinishedRow>;
  /** Effects of runs that finished, by run id (published after the commit). */
  effects: Map<string, Effect[]>;
}

interface Facts {
  id: string;
  run_id: string;
  status: string;
  lease_agent_id: string | null;
  /** Set on a notification job run (gocdnext's `notifications`); null on every other. */
  notify_on: string | null;
  started_at: string | null;
  assigned_at: string | null;
  stage_id: string;
  stage_name: string;
  stage_status: string;
  active_jobs: number | null;
  created_jobs: number | null;
  failed_jobs: number | null;
  canceled_jobs: number | null;
  later_stages: number | string;
}

interface StageWrite {
  counts: StageCounts;
  finished?: StageStatus;
}

/** The finishing jobs with their stages' counts; `where` picks the jobs. */
const factsQuery = (trx: StoreDb, where: (qb: any) => any) =>
  where(
    trx
      .selectFrom('job_runs as j')
      .innerJoin('stage_runs as s', 's.id', 'j.stage_run_id')
      .select([
        'j.id',
        'j.run_id',
        'j.status',
        'j.lease_agent_id',
        'j.started_at',
        'j.assigned_at',
        'j.notify_on',
        's.id as stage_id',
        's.name as stage_name',
        's.status as stage_status',
        's.active_jobs',
        's.created_jobs',
        's.failed_jobs',
        's.canceled_jobs',
        sql<number>`(select count(*) from stage_runs l where l.run_id = s.run_id and l.position > s.position)`.as(
          'later_stages',
        ),
      ]),
  );
/** PostgreSQL: the same, one text for every batch size (store/dispatch-statements.ts). */
const factsStatement = compiledOnce<Facts>((db, ids) =>
  factsQuery(db, (qb) => qb.where(sql<boolean>`j.id = any(${ids}::varchar[])`)),
);

/**
 * Applies the finishes the stage counts can decide, after `lockRunsForReports` in the same transaction
 * (`runs`: the locked rows). Reports of one stage are decided in job id order, each on the counts the ones
 * before it left.
 */
export async function finishJobsByCounts(
  trx: StoreDb,
  reports: readonly FinishReportRow[],
  runs: ReadonlyMap<string, Selectable<RunsTable>>,
  postgres: boolean,
): Promise<FinishedByCounts> {
  const out: FinishedByCounts = { applied: new Map(), effects: new Map() };
  if (reports.length === 0) return out;
  const ids = reports.map((r) => r.jobRunId);
  const facts = postgres
    ? await factsStatement(trx, ids)
    : ((await factsQuery(trx, (qb) => qb.where('j.id', 'in', ids)).execute()) as Facts[]);
  const byId = new Map(facts.map((f) => [f.id, f]));
  const stages = new Map<string, StageWrite>();
  const applied: FinishReportRow[] = [];
  const finishedRuns = new Map<string, { status: RunStatus; effects: Effect[] }>();
  for (const report of [...reports].sort((a, b) => (a.jobRunId < b.jobRunId ? -1 : 1))) {
    const f = byId.get(report.jobRunId);
    const run = f && runs.get(f.run_id);
    if (!f || !run || f.lease_agent_id !== report.agentId) continue;
    if (
      f.active_jobs === null ||
      f.created_jobs === null ||
      f.failed_jobs === null ||
      f.canceled_jobs === null
    )
      continue;
    const stage = stages.get(f.stage_id);
    const d: FinishByCounts = finishByCounts(
      {
        jobStatus: f.status as JobStatus,
        stageName: f.stage_name,
        stageStatus: (stage?.finished ?? f.stage_status) as StageStatus,
        counts: stage?.counts ?? {
          active: f.active_jobs,
          created: f.created_jobs,
          failed: f.failed_jobs,
          canceled: f.canceled_jobs,
        },
        lastStage: Number(f.later_stages) === 0,
        notification: f.notify_on !== null,
        cancelRequested: run.cancel_requested === 1,
      },
      report.result,
    );
    if (d.kind === 'full') continue;
    stages.set(f.stage_id, { counts: d.counts, ...(d.kind === 'run' ? { finished: d.stage } : {}) });
    applied.push(report);
    out.applied.set(report.jobRunId, { started_at: f.started_at, assigned_at: f.assigned_at });
    if (d.kind === 'run') finishedRuns.set(f.run_id, { status: d.run, effects: d.effects });
  }
  if (applied.length === 0) return out;
  await writeFinishes(trx, applied, stages, postgres);
  const now = nowIso();
  for (const [runId, { status, effects }] of finishedRuns) {
    const run = runs.get(runId)!;
    await trx
      .updateTable('runs')
      .set({ status, finished_at: now, updated_at: now })
      .where('id', '=', runId)
      .execute();
    // In this transaction, as persistRun does: the run's end and its notifications commit together.
    await enqueueRunNotifications(trx, run, run.status, status, []);
    await enqueueForgeStatus(trx, run, run.status, status);
    out.effects.set(runId, effects);
  }
  return out;
}

/** The job rows and their stages' counts: one fixed-text statement on PostgreSQL, two on SQLite. */
async function writeFinishes(
  trx: StoreDb,
  applied: readonly FinishReportRow[],
  stages: ReadonlyMap<string, StageWrite>,
  postgres: boolean,
): Promise<void> {
  const now = nowIso();
  const entries = [...stages];
  if (postgres) {
    await writeFinishesStatement(trx, [
      applied.map((r) => r.jobRunId),
      now,
      entries.map(([id]) => id),
      entries.map(([, w]) => w.counts.active),
      entries.map(([, w]) => w.counts.created),
      entries.map(([, w]) => w.counts.failed),
      entries.map(([, w]) => w.counts.canceled),
      entries.map(([, w]) => w.finished ?? null),
      applied.map((r) => r.result),
      applied.map((r) => r.exitCode),
      applied.map((r) => r.error),
      applied.map((r) => r.outputs),
    ]);
    return;
  }
  const byStage = (value: (w: StageWrite) => unknown, otherwise: unknown) =>
    sql<any>`case ${sql.ref('id')} ${sql.join(
      entries.map(([id, w]) => sql`when ${id} then ${value(w)}`),
      sql` `,
    )} else ${otherwise} end`;
  // A parameter alone has no type in a CASE: say these are integers.
  const int = (n: number) => sql`cast(${n} as integer)`;
  const updateStages = (qb: StoreDb) =>
    qb
      .updateTable('stage_runs')
      .set({
        active_jobs: byStage((w) => int(w.counts.active), sql.ref('active_jobs')),
        created_jobs: byStage((w) => int(w.counts.created), sql.ref('created_jobs')),
        failed_jobs: byStage((w) => int(w.counts.failed), sql.ref('failed_jobs')),
        canceled_jobs: byStage((w) => int(w.counts.canceled), sql.ref('canceled_jobs')),
        ...(entries.some(([, w]) => w.finished)
          ? {
              status: byStage((w) => w.finished ?? sql.ref('status'), sql.ref('status')),
              finished_at: byStage(
                (w) => (w.finished ? now : sql.ref('finished_at')),
                sql.ref('finished_at'),
              ),
            }
          : {}),
      })
      .where(
        'id',
        'in',
        entries.map(([id]) => id),
      );
  const updateJobs = (qb: StoreDb) =>
    qb
      .updateTable('job_runs')
      .set({
        status: byJob(applied, (r) => r.result, sql.ref('status')),
        finished_at: now,
        updated_at: now,
        lease_agent_id: null,
        lease_expires_at: null,
        exit_code: byJob(applied, (r) => sql`cast(${r.exitCode} as integer)`, null),
        error: byJob(applied, (r) => r.error, null),
        ...(applied.some((r) => r.outputs !== null)
          ? { outputs: byJob(applied, (r) => r.outputs ?? sql.ref('outputs'), sql.ref('outputs')) }
          : {}),
      })
      .where(
        'id',
        'in',
        applied.map((r) => r.jobRunId),
      );
  await updateStages(trx).execute();
  await updateJobs(trx).execute();
}
