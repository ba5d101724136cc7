// What agents report, applied to the run state machine: a job started, a job finished (success, failure with
// automatic retry, cancellation), a job the dispatcher could not build, a job whose agent was lost. Each is
// one transaction that loads the run (row-locked on PostgreSQL), checks that the reporting agent still holds
// the job run's lease, applies the transition and clears or keeps the lease; effects are published after the
// commit (new attempts reach the dispatcher through them).
//
// The two reports every job sends first try the short path (store/job-report-statements.ts), which never
// loads the run: a start is one conditional UPDATE (touching the run row only for the run's first start), a
// finish reads the job and its stage's counts and lets domain/stage-counts.ts decide (a matrix cell beside
// running siblings, and the last job of a run's last stage). Those are nearly all reports; the rest (a
// failure, needs in the stage, a next stage to start) take the full transition. Short reports that arrive
// within one tick are applied together (report-batches.ts: the starts as one statement, the finishes as one
// transaction), and only what a batch did not apply goes on alone.
import {
  type Effect,
  expireGate,
  onJobFinished,
  onJobStarted,
  reassignJob,
  retryOrFail,
  type Transition,
} from '../domain/index.js';
import type { RunEvents } from '../events/run-events.js';
import type { StoreDb } from '../store/database.js';
import { newId, nowIso } from '../store/ids.js';
import { finishJobsByCounts, lockRunsForReports, startJobs } from '../store/job-report-statements.js';
import { type LoadedRun, loadRun, persistRun, type Trx } from '../store/run-snapshot.js';
import type { JobRunsTable } from '../store/schema.js';
import { type FinishOutcome, type FinishReport, finishedFields } from './finish-report.js';
import { ReportBatches } from './report-batches.js';

export type { FinishOutcome, FinishReport } from './finish-report.js';

export interface JobTransitionsDeps {
  db: StoreDb;
  postgres: boolean;
  events: RunEvents;
  /** Report transactions at once; default 4 on PostgreSQL, 1 on SQLite (one writer anyway). */
  maxTransactions?: number;
  /** Short reports of one tick applied together (default); false applies each on its own (benchmark baseline). */
  batching?: boolean;
}

const ACTIVE = ['queued', 'running'];
/** Engines an agent may report (anything else is not stored). */
const ENGINES = new Set(['podman', 'sandbox', 'host']);
const clearLease = { lease_agent_id: null, lease_expires_at: null } as const;
/** Runs whose revision this process saw pinned, remembered at most. */
const PINNED_CACHE = 10_000;
const FULL_COMMIT = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

interface Step<T> {
  value: T;
  effects?: Effect[];
}

export class JobTransitions {
  /**
   * Transactions of one run queue here, one at a time, instead of on the run's row lock: a waiter on a lock
   * holds a pooled connection, and twenty jobs of a matrix finishing at once would starve the dispatcher's
   * claims of connections. (Other server processes still meet on the row lock.)
   */
  private readonly chains = new Map<string, Promise<unknown>>();
  /**
   * At most this many report transactions at once (the rest wait here, not in the connection pool), so the
   * dispatcher's claims always find a free connection: pickup latency does not grow with the number of jobs
   * finishing at the same moment.
   */
  private readonly slots: number;
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  /** Runs whose revision is pinned: a later job's commit need not be written again. */
  private readonly pinned = new Set<string>();
  /** Group commit of the short reports (undefined: each report on its own). */
  readonly batches?: ReportBatches;
  /** Runs whose start is being applied alone (the batch could not): later starts of the run wait for it. */
  private readonly firstStarts = new Map<string, Promise<string | null>>();

  constructor(private readonly deps: JobTransitionsDeps) {
    this.slots = deps.maxTransactions ?? (deps.postgres ? 4 : 1);
    if (deps.batching !== false)
      this.batches = new ReportBatches({
        db: deps.db,
        postgres: deps.postgres,
        pin: (trx, runId, commit) => this.pinRevision(trx, runId, commit),
      });
  }

  private async limited<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.slots) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await fn();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }

  private serial<T>(runId: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.chains.get(runId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => this.limited(fn));
    this.chains.set(runId, next);
    void next
      .catch(() => undefined)
      .finally(() => {
        if (this.chains.get(runId) === next) this.chains.delete(runId);
      });
    return next;
  }

  /**
   * Runs `body` on the job run's run inside a transaction; publishes its effects after the commit. `quick`,
   * when given, is tried first in the same transaction (it locks the run row itself): what it answers stands, and `body` runs only when it answers undefined. `alone` is the same without a
   * transaction (one statement). Both run in the run's turn, with `body` right after them when they answer
   * undefined: a run's first start that needs `body` is not overtaken by the starts that arrived meanwhile
   * (each of which would then find the run not yet running and need `body` too).
   */
  private async onJob<T>(
    jobRunId: string,
    fallback: T,
    body: (trx: Trx, loaded: LoadedRun, job: JobRunsTable) => Promise<Step<T>>,
    runIdHint?: string,
    quick?: (trx: Trx, runId: string) => Promise<Step<T> | undefined>,
    alone?: () => Promise<Step<T> | undefined>,
  ): Promise<T> {
    // The dispatcher knows the run of the jobs it handed out; only strangers cost a look-up.
    const row = runIdHint
      ? { run_id: runIdHint }
      : await this.deps.db
          .selectFrom('job_runs')
          .select('run_id')
          .where('id', '=', jobRunId)
          .executeTakeFirst();
    if (!row) return fallback;
    const db = this.deps.db;
    const step = await this.serial(
      row.run_id,
      async () =>
        (alone && (await alone())) ||
        db.transaction().execute(async (trx) => {
          if (quick) {
            const done = await quick(trx, row.run_id);
            if (done) return done;
          }
          const loaded = await loadRun(trx, row.run_id, this.deps.postgres);
          const job = loaded?.jobs.find((j) => j.id === jobRunId) as JobRunsTable | undefined;
          if (!loaded || !job) return { value: fallback };
          return body(trx, loaded, job);
        }),
    ).catch((err) => {
      // Rolled back: a revision noted as pinned in it may not be.
      this.pinned.delete(row.run_id);
      throw err;
    });
    if (step.effects?.length) this.deps.events.publish({ runId: row.run_id, effects: step.effects });
    return step.value;
  }

  private async setJob(trx: Trx, id: string, values: Partial<JobRunsTable>): Promise<void> {
    await trx.updateTable('job_runs').set(values).where('id', '=', id).execute();
  }

  /**
   * The agent began the job (queued → running) with `engine` (podman | sandbox | host; empty from agents that
   * predate engines). Null, or why the agent must stop it.
   */
  async started(jobRunId: string, agentId: string, runIdHint?: string, engine = ''): Promise<string | null> {
    const engineName = ENGINES.has(engine) ? engine : null;
    const report = { jobRunId, agentId, engine: engineName };
    if (!this.batches || !runIdHint) return this.startAlone(jobRunId, agentId, engine, runIdHint);
    if (await this.batches.start(report)) return null;
    // Most often the run is not running yet: a matrix's starts all arrive before its first start is applied.
    // One of them takes the full transition; the others wait for it and then go as one batch again.
    const first = this.firstStarts.get(runIdHint);
    if (first) {
      await first.catch(() => undefined);
      if (await this.batches.start(report)) return null;
      return this.startAlone(jobRunId, agentId, engine, runIdHint);
    }
    const applying = this.startAlone(jobRunId, agentId, engine, runIdHint);
    this.firstStarts.set(runIdHint, applying);
    try {
      return await applying;
    } finally {
      this.firstStarts.delete(runIdHint);
    }
  }

  private startAlone(jobRunId: string, agentId: string, engine: string, runIdHint?: string) {
    const { db, postgres } = this.deps;
    const engineName = ENGINES.has(engine) ? engine : null;
    return this.onJob<string | null>(
      jobRunId,
      `job run ${jobRunId} does not exist`,
      async (trx, loaded, job) => {
        if (job.lease_agent_id !== agentId) return { value: 'the job run is not assigned to this agent' };
        if (job.status === 'running') return { value: null };
        if (job.status !== 'queued') return { value: `the job is ${job.status}` };
        const t = onJobStarted(loaded.snapshot, jobRunId);
        if (!t.ok) return { value: t.message };
        await persistRun(trx, loaded, t.run);
        if (ENGINES.has(engine)) await this.setJob(trx, jobRunId, { engine });
        return { value: null, effects: t.effects };
      },
      runIdHint,
      undefined,
      // One statement, no transaction: a start the run's status allows (the run's first moves the run row).
      async () =>
        (await startJobs(db, [{ jobRunId, agentId, engine: engineName }], postgres)).size > 0
          ? { value: null }
          : undefined,
    );
  }

  /** The agent's result. A failure is retried as a new attempt while the job's `retry` allows. */
  async finished(
    jobRunId: string,
    agentId: string,
    report: FinishReport,
    runIdHint?: string,
  ): Promise<FinishOutcome> {
    // The batch needs the run (its row is locked); a stranger's report goes on alone.
    if (this.batches && runIdHint && report.status !== 'failed') {
      const done = await this.batches
        .finish({
          jobRunId,
          agentId,
          runId: runIdHint,
          result: report.status,
          ...finishedFields(report),
          commit: report.commit,
        })
        .catch((err) => {
          // Rolled back: a revision noted as pinned in it may not be.
          this.pinned.delete(runIdHint);
          throw err;
        });
      if (done) {
        if (done.effects.length > 0) this.deps.events.publish({ runId: runIdHint, effects: done.effects });
        const row = done.row;
        return { accepted: true, status: report.status, startedAt: row.started_at ?? row.assigned_at };
      }
    }
    return this.onJob<FinishOutcome>(
      jobRunId,
      { accepted: false },
      async (trx, loaded, job) => {
        if (job.lease_agent_id !== agentId) return { value: { accepted: false } };
        const effects: Effect[] = [];
        let snapshot = loaded.snapshot;
        let status = job.status;
        if (ACTIVE.includes(job.status)) {
          if (job.status === 'queued') {
            // The started report was lost (or overtaken): record the start first.
            const s = onJobStarted(snapshot, jobRunId);
            if (s.ok) {
              snapshot = s.run;
              effects.push(...s.effects);
            }
          }
          let t: Transition;
          if (report.status === 'failed') t = retryOrFail(snapshot, jobRunId, () => newId());
          else t = onJobFinished(snapshot, jobRunId, report.status);
          if (t.ok) {
            snapshot = t.run;
            effects.push(...t.effects);
          }
          await persistRun(trx, loaded, snapshot);
          status = snapshot.stages.flatMap((s) => s.jobs).find((j) => j.id === jobRunId)?.status ?? status;
        }
        const fields = finishedFields(report);
        await this.setJob(trx, jobRunId, {
          ...clearLease,
          exit_code: fields.exitCode,
          error: fields.error,
          ...(fields.outputs === null ? {} : { outputs: fields.outputs }),
        });
        await this.pinRevision(trx, loaded.run.id, report.commit);
        return { value: { accepted: true, status, startedAt: job.started_at ?? job.assigned_at }, effects };
      },
      runIdHint,
      report.status === 'failed'
        ? undefined
        : async (trx, runId) => {
            const runs = await lockRunsForReports(trx, [runId], this.deps.postgres);
            const done = await finishJobsByCounts(
              trx,
              [
                {
                  jobRunId,
                  agentId,
                  result: report.status as 'success' | 'canceled',
                  ...finishedFields(report),
                },
              ],
              runs,
              this.deps.postgres,
            );
            const row = done.applied.get(jobRunId);
            if (!row) return undefined;
            await this.pinRevision(trx, runId, report.commit);
            return {
              value: { accepted: true, status: report.status, startedAt: row.started_at ?? row.assigned_at },
              effects: done.effects.get(runId),
            };
          },
    );
  }

  /**
   * The first checkout pins a run given as a branch to one commit, so later jobs build the same code. Once
   * this process has seen a run pinned, its later jobs' commits are not written again (they would not be).
   */
  private async pinRevision(trx: Trx, runId: string, commit: string): Promise<void> {
    if (!FULL_COMMIT.test(commit) || this.pinned.has(runId)) return;
    await trx
      .updateTable('runs')
      .set({ revision: commit })
      .where('id', '=', runId)
      .where('revision', 'is', null)
      .execute();
    if (this.pinned.size >= PINNED_CACHE) {
      const oldest = this.pinned.values().next().value;
      if (oldest !== undefined) this.pinned.delete(oldest);
    }
    this.pinned.add(runId);
  }

  /** A queued job the dispatcher could not turn into an assignment (no retry: it would fail the same way). */
  unstartable(jobRunId: string, message: string): Promise<boolean> {
    return this.onJob(jobRunId, false, async (trx, loaded, job) => {
      if (job.status !== 'queued') return { value: false };
      const t = onJobFinished(loaded.snapshot, jobRunId, 'failed');
      if (!t.ok) return { value: false };
      await persistRun(trx, loaded, t.run);
      await this.setJob(trx, jobRunId, { ...clearLease, error: message.slice(0, 2000) });
      return { value: true, effects: t.effects };
    });
  }

  /** A gate whose `approval.timeout` passed unanswered: it and its run are canceled. */
  expireGate(jobRunId: string, message: string): Promise<boolean> {
    return this.onJob(jobRunId, false, async (trx, loaded, job) => {
      if (job.status !== 'awaiting_approval') return { value: false };
      const t = expireGate(loaded.snapshot, jobRunId);
      if (!t.ok) return { value: false };
      await persistRun(trx, loaded, t.run);
      await this.setJob(trx, jobRunId, { error: message.slice(0, 2000) });
      return { value: true, effects: t.effects };
    });
  }

  /**
   * The agent holding the job run is gone (lease lapsed, or it came back without the job). A job that never
   * started goes back to the queue as it is; a running one is failed — and re-queued as a new attempt while
   * its `retry` allows. Returns what happened, or null when the lease had moved on meanwhile. `reassign`
   * (a revoked agent) re-queues a running job as a new attempt whatever its `retry` says.
   */
  lost(
    jobRunId: string,
    agentId: string,
    message: string,
    requireLapsed: boolean,
    reassign = false,
  ): Promise<'released' | 'retried' | 'failed' | null> {
    return this.onJob<'released' | 'retried' | 'failed' | null>(jobRunId, null, async (trx, loaded, job) => {
      if (job.lease_agent_id !== agentId || !ACTIVE.includes(job.status)) return { value: null };
      if (requireLapsed && (job.lease_expires_at ?? '') >= nowIso()) return { value: null };
      if (job.status === 'queued') {
        await this.setJob(trx, jobRunId, { ...clearLease, assigned_at: null, agent: null });
        return { value: 'released' };
      }
      const t = (reassign ? reassignJob : retryOrFail)(loaded.snapshot, jobRunId, () => newId());
      if (!t.ok) return { value: null };
      await persistRun(trx, loaded, t.run);
      await this.setJob(trx, jobRunId, { ...clearLease, error: message.slice(0, 2000) });
      const retried = t.effects.some((e) => e.kind === 'job-attempt-created');
      return { value: retried ? 'retried' : 'failed', effects: t.effects };
    });
  }
}
