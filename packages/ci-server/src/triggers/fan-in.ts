// Upstream materials (fan-out and fan-in). When a stage of a run finishes, the run services publish a
// `stage-finished` effect after commit; pipelines of the same project with an upstream material on that
// pipeline, stage and status may run. A downstream pipeline with several upstream materials runs when every
// one of them is satisfied by a run on the same revision (GoCD's fan-in): the finishing run satisfies its
// material, the others are looked up among the latest runs of their pipelines. The claim key is the set of
// upstream runs that satisfied it, so each (combination of upstream runs, downstream pipeline) starts one run
// (cause `upstream`, the upstream's git_ref and revision) whichever replica sees the effects, and however
// often it sees them.
import type { FastifyBaseLogger } from 'fastify';
import { type Effect, type UpstreamMaterial, upstreamFingerprint } from '../domain/index.js';
import type { RunChange, RunEvents } from '../events/run-events.js';
import type { StoreDb } from '../store/database.js';
import { type ClaimedRunRequest, claimAndCreateRuns, publishRuns, triggerKey } from './start-runs.js';

export interface FanInDeps {
  db: StoreDb;
  events: RunEvents;
  log: FastifyBaseLogger;
}

type StageFinished = Extract<Effect, { kind: 'stage-finished' }>;
const WATCHED = new Set(['success', 'failed', 'canceled']);

interface UpstreamRun {
  id: string;
  project_id: string;
  pipeline_id: string;
  counter: number;
  git_ref: string | null;
  revision: string | null;
  slug: string;
  pipeline_name: string;
}

export class FanIn {
  private readonly pending = new Set<Promise<void>>();
  /** Cleared when the triggers stop: a change heard after that starts nothing. */
  private attached = true;

  constructor(private readonly deps: FanInDeps) {}

  detach(): void {
    this.attached = false;
  }

  /** Resolves when every fan-out started so far has finished (shutdown and tests). */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  /** Hears this process's run changes (server.ts subscribes it; never `remote` ones: it writes the store). */
  onRunChange(change: RunChange): void {
    if (!this.attached) return;
    const finished = change.effects.filter(
      (e): e is StageFinished => e.kind === 'stage-finished' && WATCHED.has(e.status),
    );
    if (finished.length === 0) return;
    const work: Promise<void> = this.fanOut(change.runId, finished)
      .then(() => undefined)
      .catch((err) => this.deps.log.error({ err, run: change.runId }, 'upstream fan-out failed'))
      .finally(() => this.pending.delete(work));
    this.pending.add(work);
  }

  /** Starts the downstream runs `stages` of run `runId` satisfy; returns their ids. */
  async fanOut(runId: string, stages: StageFinished[]): Promise<string[]> {
    const { db } = this.deps;
    const run = await db
      .selectFrom('runs as r')
      .innerJoin('projects as pr', 'pr.id', 'r.project_id')
      .innerJoin('pipelines as p', 'p.id', 'r.pipeline_id')
      .select([
        'r.id',
        'r.project_id',
        'r.pipeline_id',
        'r.counter',
        'r.git_ref',
        'r.revision',
        'pr.slug',
        'p.name as pipeline_name',
      ])
      .where('r.id', '=', runId)
      .executeTakeFirst();
    if (!run) return [];
    const fingerprints = stages.map((s) =>
      upstreamFingerprint(run.slug, run.pipeline_name, s.stage, s.status),
    );
    const watchers = await db
      .selectFrom('materials as m')
      .innerJoin('pipelines as p', 'p.id', 'm.pipeline_id')
      .select(['m.pipeline_id'])
      .where('m.kind', '=', 'upstream')
      .where('m.fingerprint', 'in', fingerprints)
      .where('p.project_id', '=', run.project_id)
      .where('p.archived', '=', 0)
      .execute();
    const downstream = [...new Set(watchers.map((w) => w.pipeline_id))];
    if (downstream.length === 0) return [];
    // Every upstream material of every downstream pipeline, in one query.
    const all = await db
      .selectFrom('materials')
      .select(['pipeline_id', 'config'])
      .where('kind', '=', 'upstream')
      .where('pipeline_id', 'in', downstream)
      .execute();
    const satisfiedHere = new Set(stages.map((s) => `${run.pipeline_name}\n${s.stage}\n${s.status}`));
    const requests: ClaimedRunRequest[] = [];
    for (const pipelineId of downstream) {
      const needs = all
        .filter((m) => m.pipeline_id === pipelineId)
        .map((m) => (JSON.parse(m.config) as { upstream: UpstreamMaterial }).upstream);
      const runIds = new Set([run.id]);
      let ready = true;
      for (const need of needs) {
        if (satisfiedHere.has(`${need.pipeline}\n${need.stage}\n${need.status}`)) continue;
        const other = await this.satisfyingRun(run, need);
        if (!other) {
          ready = false;
          break;
        }
        runIds.add(other);
      }
      if (!ready) continue;
      const ids = [...runIds].sort();
      requests.push({
        pipelineId,
        cause: 'upstream' as const,
        triggeredBy: `upstream:${run.pipeline_name}/${run.counter}`,
        ref: { gitRef: run.git_ref, revision: run.revision },
        key: triggerKey('upstream', ...ids),
        source: 'upstream',
        detail: JSON.stringify(ids),
      });
    }
    if (requests.length === 0) return [];
    const created = await db.transaction().execute((trx) => claimAndCreateRuns(trx, requests));
    publishRuns(this.deps.events, created);
    if (created.length > 0)
      this.deps.log.info(
        { upstream: run.id, runs: created.length },
        'upstream success started downstream runs',
      );
    return created.map((r) => r.id);
  }

  /** The newest run of `need.pipeline` on the same revision whose stage finished with the status wanted. */
  private async satisfyingRun(run: UpstreamRun, need: UpstreamMaterial): Promise<string | null> {
    let q = this.deps.db
      .selectFrom('runs as r')
      .innerJoin('pipelines as p', 'p.id', 'r.pipeline_id')
      .innerJoin('stage_runs as s', 's.run_id', 'r.id')
      .select('r.id')
      .where('p.project_id', '=', run.project_id)
      .where('p.name', '=', need.pipeline)
      .where('s.name', '=', need.stage)
      .where('s.status', '=', need.status);
    if (run.revision !== null) q = q.where('r.revision', '=', run.revision);
    else {
      q = q.where('r.revision', 'is', null);
      q = run.git_ref === null ? q.where('r.git_ref', 'is', null) : q.where('r.git_ref', '=', run.git_ref);
    }
    const row = await q.orderBy('r.counter', 'desc').limit(1).executeTakeFirst();
    return row?.id ?? null;
  }
}
