// Cron firing: project cron schedules and `cron` materials. The leader's tick reads every schedule, keeps
// each one's next fire time in `cron_state` (computed with croner, UTC), and fires those that are due: a
// `cron_firings` row per (schedule, fire time) is the claim, inserted in the transaction that creates the
// runs (cause `cron`, at the head of each pipeline's default branch), so a firing happens once even if two
// replicas ever believed they led. A firing missed while no replica ran happens once, late; the next one is
// computed from the current time (no burst of catch-up runs).
import type { FastifyBaseLogger } from 'fastify';
import { nextCronRuns, type PipelineDocument } from '../domain/index.js';
import type { RunEvents } from '../events/run-events.js';
import type { StoreDb } from '../store/database.js';
import { nowIso } from '../store/ids.js';
import { activeDefinitions, type HeadDeps, resolveHeads } from './heads.js';
import { createRuns, publishRuns } from './start-runs.js';

export interface Schedule {
  key: string;
  expression: string;
  projectId: string;
  /** Empty: every active pipeline of the project. */
  pipelineIds: string[];
  label: string;
}

export interface CronDeps extends HeadDeps {
  db: StoreDb;
  events: RunEvents;
  now: () => Date;
  log: FastifyBaseLogger;
}

const KEYS_PER_QUERY = 500;

export async function loadSchedules(db: StoreDb): Promise<Schedule[]> {
  const [crons, materials] = await Promise.all([
    db
      .selectFrom('project_crons')
      .select(['id', 'project_id', 'name', 'expression', 'pipeline_ids'])
      .where('enabled', '=', 1)
      .execute(),
    db
      .selectFrom('materials as m')
      .innerJoin('pipelines as p', 'p.id', 'm.pipeline_id')
      .select(['m.pipeline_id', 'm.fingerprint', 'm.config', 'p.project_id', 'p.name'])
      .where('m.kind', '=', 'cron')
      .where('p.archived', '=', 0)
      .execute(),
  ]);
  const out: Schedule[] = crons.map((c) => ({
    key: `cron:${c.id}`,
    expression: c.expression,
    projectId: c.project_id,
    pipelineIds: JSON.parse(c.pipeline_ids) as string[],
    label: `cron:${c.name}`,
  }));
  for (const m of materials) {
    out.push({
      key: `material:${m.pipeline_id}:${m.fingerprint}`,
      expression: (JSON.parse(m.config) as { cron: { expression: string } }).cron.expression,
      projectId: m.project_id,
      pipelineIds: [m.pipeline_id],
      label: 'cron',
    });
  }
  return out;
}

export class CronScheduler {
  private readonly firing = new Set<string>();
  lastFiredAt: string | null = null;

  constructor(private readonly deps: CronDeps) {}

  private next(expression: string, after: Date): string | null {
    const [at] = nextCronRuns(expression, after);
    return at ? at.toISOString() : null;
  }

  /** One pass: initialise new schedules, fire due ones. Returns how many firings this pass made. */
  async tick(): Promise<number> {
    const { db } = this.deps;
    const schedules = await loadSchedules(db);
    const now = this.deps.now();
    const states = new Map<string, { expression: string; next_run_at: string }>();
    for (let i = 0; i < schedules.length; i += KEYS_PER_QUERY) {
      const keys = schedules.slice(i, i + KEYS_PER_QUERY).map((s) => s.key);
      const rows = await db
        .selectFrom('cron_state')
        .select(['schedule_key', 'expression', 'next_run_at'])
        .where('schedule_key', 'in', keys)
        .execute();
      for (const r of rows) states.set(r.schedule_key, r);
    }
    let fired = 0;
    for (const s of schedules) {
      const state = states.get(s.key);
      if (!state || state.expression !== s.expression) {
        const next = this.next(s.expression, now);
        if (!next) continue;
        const row = { expression: s.expression, next_run_at: next };
        await db
          .insertInto('cron_state')
          .values({ schedule_key: s.key, ...row, last_fired_at: null })
          .onConflict((oc) => oc.column('schedule_key').doUpdateSet(row))
          .execute();
        continue;
      }
      if (Date.parse(state.next_run_at) > now.getTime() || this.firing.has(s.key)) continue;
      this.firing.add(s.key);
      try {
        if (await this.fire(s, state.next_run_at)) fired++;
      } catch (err) {
        this.deps.log.error({ err, schedule: s.key }, 'a cron firing failed');
      } finally {
        this.firing.delete(s.key);
      }
    }
    return fired;
  }

  /** Fires `s` for `fireAt`; false when another replica already did. */
  private async fire(s: Schedule, fireAt: string): Promise<boolean> {
    const { db } = this.deps;
    let ids = s.pipelineIds;
    if (ids.length === 0) {
      const rows = await db
        .selectFrom('pipelines')
        .select('id')
        .where('project_id', '=', s.projectId)
        .where('archived', '=', 0)
        .execute();
      ids = rows.map((r) => r.id);
    }
    const docs: Map<string, PipelineDocument> = await activeDefinitions(db, ids);
    const refs = await resolveHeads(this.deps, docs);
    const now = this.deps.now();
    const next = this.next(s.expression, now) ?? fireAt;
    const created = await db.transaction().execute(async (trx) => {
      const claimed = await trx
        .insertInto('cron_firings')
        .values({ schedule_key: s.key, fire_at: fireAt, run_ids: '[]', created_at: nowIso() })
        .onConflict((oc) => oc.columns(['schedule_key', 'fire_at']).doNothing())
        .returning('schedule_key')
        .executeTakeFirst();
      if (!claimed) return null;
      const runs = await createRuns(
        trx,
        [...docs.keys()].map((pipelineId) => ({
          pipelineId,
          cause: 'cron' as const,
          triggeredBy: s.label,
          ref: refs.get(pipelineId) ?? { gitRef: null, revision: null },
        })),
      );
      await trx
        .updateTable('cron_firings')
        .set({ run_ids: JSON.stringify(runs.map((r) => r.id)) })
        .where('schedule_key', '=', s.key)
        .where('fire_at', '=', fireAt)
        .execute();
      await trx
        .updateTable('cron_state')
        .set({ next_run_at: next, last_fired_at: fireAt })
        .where('schedule_key', '=', s.key)
        .execute();
      return runs;
    });
    if (!created) return false;
    publishRuns(this.deps.events, created);
    this.lastFiredAt = fireAt;
    this.deps.log.info({ schedule: s.key, fire_at: fireAt, runs: created.length }, 'cron fired');
    return true;
  }

  /** Housekeeping: forgets firings older than a week and the state of schedules that no longer exist. */
  async prune(): Promise<void> {
    const { db } = this.deps;
    const weekAgo = new Date(this.deps.now().getTime() - 7 * 86_400_000).toISOString();
    await db.deleteFrom('cron_firings').where('created_at', '<', weekAgo).execute();
    const keys = new Set((await loadSchedules(db)).map((s) => s.key));
    const stored = await db.selectFrom('cron_state').select('schedule_key').execute();
    const stale = stored.map((r) => r.schedule_key).filter((k) => !keys.has(k));
    for (let i = 0; i < stale.length; i += KEYS_PER_QUERY)
      await db
        .deleteFrom('cron_state')
        .where('schedule_key', 'in', stale.slice(i, i + KEYS_PER_QUERY))
        .execute();
  }
}
