// Concurrency control applied to runs (domain/concurrency.ts decides; this carries it out in the store).
// On creation, inside the creating transaction and under the pipeline's row lock: the run takes its place in
// its group (the group's row locked), and either starts, or waits `queued` for the run before it (serial),
// or starts after canceling the older runs of its git ref (cancel-superseded, each marked superseded by it).
// On a finish: the releaser hears a `run-finished` effect after commit and, in a transaction of its own,
// starts the group's oldest waiting run once nothing started is left; a periodic sweep repeats the decision
// for every group still holding a waiting run, so a crash between a finish and its release delays, never
// strands, the queue. Lock order everywhere: pipeline row, group row, run rows.
import type { FastifyBaseLogger } from 'fastify';
import {
  type CreateDecision,
  cancelRun,
  concurrencyKey,
  decideOnCreate,
  decideRelease,
  type Effect,
  type PipelineDocument,
  startRun,
} from '../domain/index.js';
import type { RunChange, RunEvents } from '../events/run-events.js';
import type { StoreDb } from '../store/database.js';
import {
  groupsWithWaitingRuns,
  isPostgres,
  lockGroup,
  nextGroupSeq,
  unfinishedOfGroup,
} from '../store/run-concurrency.js';
import { loadRun, persistRun, type Trx } from '../store/run-snapshot.js';
import { holdStartedRun } from './fork-runs.js';

export interface GroupPlacement {
  group: string;
  seq: number;
  decision: CreateDecision;
}

/** Where a new run of `doc` goes in its group; null for a parallel pipeline. */
export async function placeInGroup(
  trx: StoreDb,
  projectId: string,
  pipelineId: string,
  doc: PipelineDocument,
  gitRef: string | null,
): Promise<GroupPlacement | null> {
  const group = concurrencyKey(pipelineId, doc.concurrency);
  if (!group || !doc.concurrency) return null;
  const seq = await nextGroupSeq(trx, projectId, group);
  const unfinished = await unfinishedOfGroup(trx, projectId, group);
  return { group, seq, decision: decideOnCreate(doc.concurrency.mode, { seq, gitRef }, unfinished) };
}

/** Cancels the runs `winner` supersedes (queued ones at once, running ones wind down); their changes. */
export async function cancelSuperseded(
  db: StoreDb,
  ids: readonly string[],
  winner: string,
): Promise<RunChange[]> {
  // createRunIn's callers hand it their transaction typed as the database.
  const trx = db as Trx;
  const out: RunChange[] = [];
  for (const id of ids) {
    const loaded = await loadRun(trx, id, isPostgres(trx));
    if (!loaded) continue;
    const result = cancelRun(loaded.snapshot);
    if (!result.ok) continue;
    await persistRun(trx, loaded, result.run);
    await trx
      .updateTable('runs')
      .set({ superseded_by: winner, waiting_for: null })
      .where('id', '=', id)
      .execute();
    out.push({ runId: id, effects: result.effects });
  }
  return out;
}

export interface ReleaserDeps {
  db: StoreDb;
  events: RunEvents;
  log: FastifyBaseLogger;
  /** Sweep period; default 30 s. */
  sweepMs?: number;
}

export class ConcurrencyReleaser {
  private readonly pending = new Set<Promise<unknown>>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  /** `events` is where it publishes the runs it starts; server.ts subscribes `onRunChange` to them. */
  constructor(private readonly deps: ReleaserDeps) {}

  /** Sweeps once now and then periodically (after the store is migrated). */
  start(): void {
    this.track(this.sweep());
    this.timer = setInterval(() => this.track(this.sweep()), this.deps.sweepMs ?? 30_000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.idle();
  }

  /** Resolves when every release started so far has finished (shutdown and tests). */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  private track(work: Promise<unknown>): void {
    const p = work
      .catch((err) => this.deps.log.error({ err }, 'concurrency release failed'))
      .finally(() => this.pending.delete(p));
    this.pending.add(p);
  }

  /** A change this process committed: a finished run may let its group's next run start (ignored once stopped). */
  onRunChange(change: RunChange): void {
    if (this.stopped || !change.effects.some((e) => e.kind === 'run-finished')) return;
    this.track(this.releaseAfter(change.runId));
  }

  private async releaseAfter(runId: string): Promise<void> {
    const run = await this.deps.db
      .selectFrom('runs')
      .select(['project_id', 'concurrency_group'])
      .where('id', '=', runId)
      .executeTakeFirst();
    if (run?.concurrency_group) await this.release(run.project_id, run.concurrency_group);
  }

  /** Re-decides every group that holds a waiting run. */
  async sweep(): Promise<void> {
    for (const g of await groupsWithWaitingRuns(this.deps.db)) await this.release(g.project_id, g.group);
  }

  /** Starts the group's next run when its turn came, and points every waiting run at the run before it. */
  async release(projectId: string, group: string): Promise<string | null> {
    const { db, events } = this.deps;
    const out = await db.transaction().execute(async (trx) => {
      await lockGroup(trx, projectId, group);
      const decision = decideRelease(await unfinishedOfGroup(trx, projectId, group));
      for (const w of decision.waitFor)
        await trx.updateTable('runs').set({ waiting_for: w.waitFor }).where('id', '=', w.id).execute();
      if (!decision.start) return null;
      const loaded = await loadRun(trx, decision.start, isPostgres(trx));
      if (!loaded) return null;
      const started = startRun(loaded.snapshot);
      if (!started.ok) return null;
      let effects: Effect[] = started.effects;
      const fork = await trx
        .selectFrom('fork_runs')
        .select('awaiting_approval')
        .where('run_id', '=', decision.start)
        .executeTakeFirst();
      // A fork's run waiting for a maintainer is still held once its turn comes.
      if (fork?.awaiting_approval === 1) effects = holdStartedRun(started.run, effects);
      await persistRun(trx, loaded, started.run);
      // As at creation: a held run stays `queued` (waiting for a maintainer, not for an agent).
      await trx
        .updateTable('runs')
        .set({ waiting_for: null, ...(fork?.awaiting_approval === 1 ? { status: 'queued' as const } : {}) })
        .where('id', '=', decision.start)
        .execute();
      return { runId: decision.start, effects };
    });
    if (!out) return null;
    events.publish(out);
    return out.runId;
  }
}
