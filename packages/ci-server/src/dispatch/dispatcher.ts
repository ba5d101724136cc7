// The dispatcher: hands queued job runs to free agents through their ports (dispatch/agent-registry.ts:
// send an assignment, send a cancel), the moment either side becomes available — an `enqueue` effect after a
// commit, an agent connecting, a slot freeing — with no polling interval in between. Pending jobs are
// grouped by their tag set, so a pick looks at one head per group and at the connected agents, never at the
// whole queue. The claim itself is the store's conditional UPDATE (store/agent-leases.ts), so another server
// process on the same database can never take the same job. Jobs another replica queued arrive as `remote`
// run events (PostgreSQL NOTIFY, replicas/); a periodic resync (driven by the lease sweeper) still picks up
// what no notification announced — jobs queued before this process started, or while its listening
// connection was down. server.ts builds it and subscribes `onRunChange` to run events.

import { jobOfRun } from '../domain/index.js';
import type { RunChange } from '../events/run-events.js';
import type { CiMetrics } from '../metrics.js';
import { claimJobs, type QueuedJob, releaseClaim, unclaimedJobs } from '../store/agent-leases.js';
import type { StoreDb } from '../store/database.js';
import type { ActiveJobs } from './active-jobs.js';
import type { AgentRegistry, ConnectedAgent } from './agent-registry.js';
import type { AssignmentBuilder, BuildOutcome } from './assignment-builder.js';
import type { JobTransitions } from './job-transitions.js';

export interface DispatcherLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface DispatcherDeps {
  db: StoreDb;
  registry: AgentRegistry;
  builder: AssignmentBuilder;
  transitions: JobTransitions;
  /** The jobs handed out, with their secret maskers (the agent endpoint reads them). */
  jobs: ActiveJobs;
  metrics: Pick<CiMetrics, 'jobScheduled' | 'setQueueDepth'>;
  leaseMs: number;
  log: DispatcherLog;
  /** Writes a `[ci]` line into a job run's log (reasons a job could not start). */
  systemLine(jobRunId: string, text: string): Promise<void>;
  /** Claim batches in flight at once; default 4. */
  maxInFlight?: number;
  /**
   * Picks wait for the end of the current tick (default), so the slots a batch of finished reports frees
   * are claimed together — one claim statement and one assignment read for all of them — rather than one
   * by one as each report returns. False picks at once (the benchmark's baseline).
   */
  coalesce?: boolean;
  /** Observer for tests and benchmarks: a job run was pushed to an agent. */
  onAssigned?(jobRunId: string, agent: ConnectedAgent): void;
}

interface Pending {
  id: string;
  runId: string;
  tags: string[];
  /** Engines that can run the job: podman for a job with an image (or image services), else sandbox or host. */
  engines: readonly string[];
  key: string;
  stage: string;
}

const CONTAINER_ENGINES = ['podman'] as const;
const PLAIN_ENGINES = ['sandbox', 'host'] as const;

const RESYNC_LIMIT = 1000;
/** Queued jobs held in memory at most; the rest stay in the store until resyncs reach them. */
const MAX_PENDING = 50_000;
/** Jobs claimed and built together at most. */
const BATCH = 64;

export class Dispatcher {
  private readonly pending = new Map<string, Pending>();
  private readonly groups = new Map<
    string,
    { tags: string[]; engines: readonly string[]; ids: Set<string> }
  >();
  /** Jobs whose log already says no connected agent has an engine for them. */
  private readonly noted = new Set<string>();
  private readonly depth = new Map<string, number>();
  private readonly byRun = new Map<string, Set<string>>();
  /** Claimed, being built or sent: not pending, not yet known to the agent. */
  private readonly assigning = new Set<string>();
  private batches = 0;
  private resyncAfter?: { created_at: string; id: string };
  /** Claims won, and claims another process (or a state change) got first. */
  readonly stats = { claimed: 0, claimsLost: 0 };
  private turn = 0;
  /** Run changes are acted on between start() and stop() only. */
  private started = false;
  private stopped = false;
  private pumpQueued = false;

  constructor(private readonly deps: DispatcherDeps) {}

  start(): void {
    this.started = true;
  }

  stop(): void {
    this.stopped = true;
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  /**
   * Hears run changes, this process's and (`remote`) another replica's: jobs another replica queued may go
   * to agents connected here (the claim decides).
   */
  onRunChange(change: RunChange): void {
    if (!this.started || this.stopped) return;
    const queued: string[] = [];
    for (const effect of change.effects) {
      if (effect.kind === 'enqueue') queued.push(effect.jobId);
      else if (effect.kind === 'cancel-agent') this.cancelOnAgent(effect.jobId, 'the run was canceled');
      else if (effect.kind === 'run-finished') this.forgetRun(change.runId);
    }
    if (queued.length > 0)
      this.enqueue(queued).catch((err) => this.deps.log.error({ err }, 'could not queue jobs for dispatch'));
  }

  /** Learns the given queued job runs (when nobody holds them yet) and dispatches. */
  async enqueue(ids: string[]): Promise<void> {
    const rows = await unclaimedJobs(this.deps.db, ids.length, ids);
    for (const row of rows) await this.add(row);
    this.pump();
  }

  /**
   * Picks up what other processes queued, or what was missed: one page of the store's queue per call, the
   * next call continuing after it, so a long queue of jobs no agent can take does not hide the ones after.
   */
  async resync(): Promise<void> {
    const rows = await unclaimedJobs(this.deps.db, RESYNC_LIMIT, undefined, this.resyncAfter);
    const last = rows[rows.length - 1];
    this.resyncAfter =
      rows.length < RESYNC_LIMIT || !last ? undefined : { created_at: last.created_at, id: last.id };
    for (const row of rows) if (this.pending.size < MAX_PENDING) await this.add(row);
    this.pump();
  }

  private async add(row: QueuedJob): Promise<void> {
    if (this.pending.has(row.id) || this.assigning.has(row.id)) return;
    const doc = await this.deps.builder.definition(row.version_id);
    const spec = doc ? jobOfRun(doc, row.name) : undefined;
    const tags = [...new Set(spec?.tags ?? [])].sort();
    const containers =
      Boolean(spec?.image) || (doc?.services ?? []).some((s) => s.image && spec?.services.includes(s.name));
    const engines = containers ? CONTAINER_ENGINES : PLAIN_ENGINES;
    const key = `${containers ? 'c' : 'p'}\u0000${tags.join('\u0000')}`;
    const job: Pending = { id: row.id, runId: row.run_id, tags, engines, key, stage: spec?.stage ?? '' };
    if (this.pending.has(row.id) || this.assigning.has(row.id)) return;
    this.pending.set(job.id, job);
    let ofRun = this.byRun.get(job.runId);
    if (!ofRun) {
      ofRun = new Set();
      this.byRun.set(job.runId, ofRun);
    }
    ofRun.add(job.id);
    let group = this.groups.get(key);
    if (!group) {
      group = { tags, engines, ids: new Set() };
      this.groups.set(key, group);
    }
    group.ids.add(job.id);
    this.depth.set(job.stage, (this.depth.get(job.stage) ?? 0) + 1);
    this.deps.metrics.setQueueDepth(this.depth);
    this.explainIfUnrunnable(job, spec?.image);
  }

  /**
   * A job no connected agent has an engine for stays queued (an agent with one may connect) and its log
   * says why, once. Said only while some agent is connected: before any is, nothing can run anyway.
   */
  private explainIfUnrunnable(job: Pending, image: string | undefined): void {
    const agents = this.deps.registry.connected();
    if (this.noted.has(job.id) || agents.length === 0) return;
    if (agents.some((a) => job.engines.some((e) => a.engines.includes(e)))) return;
    this.noted.add(job.id);
    const why = image
      ? `it runs in a container (image ${image}) and no connected agent has podman`
      : job.engines === CONTAINER_ENGINES
        ? 'its services run in containers and no connected agent has podman'
        : 'no connected agent runs jobs without an image (none has the sandbox or the host engine)';
    this.deps
      .systemLine(job.id, `[ci] waiting for an agent: ${why}`)
      .catch((err) => this.deps.log.warn({ err, jobRunId: job.id }, 'could not explain a waiting job'));
  }

  /** A finished run's leftovers (jobs canceled before an agent took them) leave the queue. */
  private forgetRun(runId: string): void {
    for (const id of this.byRun.get(runId) ?? []) {
      const job = this.pending.get(id);
      if (job) this.take(job);
    }
    this.byRun.delete(runId);
  }

  private take(job: Pending): void {
    this.pending.delete(job.id);
    this.noted.delete(job.id);
    const ofRun = this.byRun.get(job.runId);
    ofRun?.delete(job.id);
    if (ofRun && ofRun.size === 0) this.byRun.delete(job.runId);
    const group = this.groups.get(job.key);
    group?.ids.delete(job.id);
    if (group && group.ids.size === 0) this.groups.delete(job.key);
    this.depth.set(job.stage, Math.max(0, (this.depth.get(job.stage) ?? 1) - 1));
    this.deps.metrics.setQueueDepth(this.depth);
  }

  /** The oldest pending job some free agent can take, and the freest such agent (ties take turns). */
  private pick(): { job: Pending; agent: ConnectedAgent } | undefined {
    const free = this.deps.registry.connected().filter((a) => this.deps.registry.free(a) > 0);
    if (free.length === 0) return undefined;
    let best: { job: Pending; agent: ConnectedAgent } | undefined;
    for (const group of this.groups.values()) {
      const headId = group.ids.values().next().value;
      if (headId === undefined) continue;
      let agent: ConnectedAgent | undefined;
      for (const a of free) {
        if (!group.tags.every((t) => a.tags.includes(t))) continue;
        if (!group.engines.some((e) => a.engines.includes(e))) continue;
        const better =
          !agent ||
          this.deps.registry.free(a) > this.deps.registry.free(agent) ||
          (this.deps.registry.free(a) === this.deps.registry.free(agent) &&
            a.lastAssigned < agent.lastAssigned);
        if (better) agent = a;
      }
      if (!agent) continue;
      // Job ids are time-ordered (UUIDv7), so comparing them compares queue age.
      if (!best || headId < best.job.id) best = { job: this.pending.get(headId)!, agent };
    }
    return best;
  }

  /**
   * Assigns as long as jobs and free slots meet. Cheap to call on every occasion. Picks are made at once in
   * memory (the slot is reserved before the claim) and claimed and built in batches: a matrix of twenty
   * jobs costs one claim statement and one read, not twenty of each.
   */
  pump(): void {
    if (this.deps.coalesce === false) {
      this.pumpNow();
      return;
    }
    if (this.pumpQueued) return;
    this.pumpQueued = true;
    setImmediate(() => {
      this.pumpQueued = false;
      this.pumpNow();
    });
  }

  private pumpNow(): void {
    const maxBatches = this.deps.maxInFlight ?? 4;
    while (!this.stopped && this.batches < maxBatches) {
      const picks: { job: Pending; agent: ConnectedAgent }[] = [];
      while (picks.length < BATCH) {
        const pick = this.pick();
        if (!pick) break;
        this.take(pick.job);
        this.assigning.add(pick.job.id);
        this.deps.registry.lease(pick.agent, pick.job.id);
        pick.agent.lastAssigned = ++this.turn;
        picks.push(pick);
      }
      if (picks.length === 0) return;
      this.batches++;
      this.assign(picks).finally(() => {
        this.batches--;
        for (const p of picks) this.assigning.delete(p.job.id);
        this.pump();
      });
    }
  }

  private async assign(picks: { job: Pending; agent: ConnectedAgent }[]): Promise<void> {
    const { db, registry, builder, leaseMs } = this.deps;
    let won = new Set<string>();
    try {
      won = await claimJobs(
        db,
        picks.map((p) => ({ jobRunId: p.job.id, agent: p.agent })),
        leaseMs,
      );
    } catch (err) {
      this.deps.log.error({ err }, 'claiming jobs failed; they stay queued');
    }
    this.stats.claimed += won.size;
    this.stats.claimsLost += picks.length - won.size;
    // Taken by another process, or no longer queued: the slot is free again.
    for (const p of picks) if (!won.has(p.job.id)) registry.release(p.job.id);
    const claimed = picks.filter((p) => won.has(p.job.id));
    if (claimed.length === 0) return;
    let built: Map<string, BuildOutcome>;
    try {
      built = await builder.buildMany(claimed.map((p) => p.job.id));
    } catch (err) {
      this.deps.log.error({ err }, 'preparing assignments failed; the jobs go back to the queue');
      for (const p of claimed) await this.giveBack(p.job.id, p.agent);
      return;
    }
    for (const { job, agent } of claimed) await this.deliver(job.id, agent, built.get(job.id)!);
  }

  private async giveBack(jobRunId: string, agent: ConnectedAgent): Promise<void> {
    this.deps.registry.release(jobRunId);
    this.deps.jobs.forget(jobRunId);
    await releaseClaim(this.deps.db, jobRunId, agent.id).catch(() => undefined);
  }

  private async deliver(jobRunId: string, agent: ConnectedAgent, built: BuildOutcome): Promise<void> {
    if (!built.ok) {
      this.deps.registry.release(jobRunId);
      try {
        if (await this.deps.transitions.unstartable(jobRunId, built.error))
          await this.deps.systemLine(jobRunId, `[ci] the job could not start: ${built.error}`);
      } catch (err) {
        this.deps.log.error({ err, jobRunId }, 'failing an unstartable job failed');
      }
      return;
    }
    const ctx = built.context;
    this.deps.jobs.remember(jobRunId, ctx, built.secretValues);
    const sent = agent.outbound?.sendAssignment(built.assignment) ?? false;
    if (!sent) {
      // The agent's stream closed meanwhile: back to the queue at once.
      await this.giveBack(jobRunId, agent);
      await this.enqueue([jobRunId]).catch(() => undefined);
      return;
    }
    if (built.notice) await this.deps.systemLine(jobRunId, built.notice).catch(() => undefined);
    this.deps.metrics.jobScheduled({ pipeline: ctx.pipelineName, project: ctx.projectSlug });
    this.deps.onAssigned?.(jobRunId, agent);
  }

  /** A job run left its agent (finished, lost, or refused): free the slot and dispatch again. */
  released(jobRunId: string): void {
    this.deps.registry.release(jobRunId);
    this.deps.jobs.forget(jobRunId);
    this.pump();
  }

  /** Tells the agent holding the job run (when connected here) to stop it. */
  cancelOnAgent(jobRunId: string, reason: string): boolean {
    const agent = this.deps.registry.holder(jobRunId);
    return agent?.outbound?.sendCancel(jobRunId, reason) ?? false;
  }
}
