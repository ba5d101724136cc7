// A project's trigger settings (TriggerSettings): cron schedules (`{id, name, expression, pipeline_ids,
// enabled, next_run_at}`, decisions.md), the poll-interval override and the fork policy (fork-policy.ts).
// Validation answers 400 with the reason; a schedule naming a pipeline that is not an active pipeline of the
// project is refused.
import { badRequest, conflict, notFound } from '@app/kit';
import { formatDuration, NAME_MAX, nextCronRuns, parseDuration, validateCron } from '../domain/index.js';
import type { StoreDb } from '../store/database.js';
import { newId, nowIso } from '../store/ids.js';
import { projectIdOf } from '../store/lookups.js';
import type { ProjectCronsTable } from '../store/trigger-schema.js';
import { type ForkPolicy, readForkPolicy, writeForkPolicy } from './fork-policy.js';

export interface CronSchedule {
  id: string;
  name: string;
  expression: string;
  pipeline_ids: string[];
  enabled: boolean;
  next_run_at: string | null;
}

export interface CronInput {
  name?: string;
  expression?: string;
  pipeline_ids?: string[];
  enabled?: boolean;
}

/** Shortest poll interval accepted: anything faster only loads the git host. */
export const MIN_POLL_MS = 1000;
export const MAX_POLL_MS = 7 * 86_400_000;
const MAX_CRONS_PER_PROJECT = 100;

function view(row: ProjectCronsTable, state: Map<string, string>, now: Date): CronSchedule {
  const enabled = row.enabled === 1;
  const stored = state.get(`cron:${row.id}`);
  const next = enabled ? (stored ?? nextCronRuns(row.expression, now)[0]?.toISOString() ?? null) : null;
  return {
    id: row.id,
    name: row.name,
    expression: row.expression,
    pipeline_ids: JSON.parse(row.pipeline_ids) as string[],
    enabled,
    next_run_at: next,
  };
}

export class TriggerSettings {
  constructor(
    private readonly db: StoreDb,
    private readonly now: () => Date,
  ) {}

  /** The project's fork policy (fork-policy.ts); the default when none was set. */
  forkPolicy(slug: string) {
    return readForkPolicy(this.db, slug);
  }

  setForkPolicy(slug: string, input: Partial<ForkPolicy>) {
    return writeForkPolicy(this.db, slug, input);
  }

  private async views(rows: ProjectCronsTable[]): Promise<CronSchedule[]> {
    const keys = rows.map((r) => `cron:${r.id}`);
    const state = new Map<string, string>();
    if (keys.length > 0) {
      const stored = await this.db
        .selectFrom('cron_state')
        .select(['schedule_key', 'expression', 'next_run_at'])
        .where('schedule_key', 'in', keys)
        .execute();
      const byKey = new Map(rows.map((r) => [`cron:${r.id}`, r.expression]));
      // A stored time for an older expression is stale until the next tick recomputes it.
      for (const s of stored)
        if (byKey.get(s.schedule_key) === s.expression) state.set(s.schedule_key, s.next_run_at);
    }
    const now = this.now();
    return rows.map((r) => view(r, state, now));
  }

  async listCrons(slug: string): Promise<CronSchedule[]> {
    const projectId = await projectIdOf(this.db, slug);
    const rows = await this.db
      .selectFrom('project_crons')
      .selectAll()
      .where('project_id', '=', projectId)
      .orderBy('name')
      .execute();
    return this.views(rows);
  }

  private async checkInput(projectId: string, input: CronInput): Promise<void> {
    if (input.name !== undefined) {
      if (input.name.trim() === '') throw badRequest('the schedule name is empty');
      if (input.name.length > NAME_MAX)
        throw badRequest(`the schedule name is longer than ${NAME_MAX} characters`);
    }
    if (input.expression !== undefined) {
      const problem = validateCron(input.expression);
      if (problem) throw badRequest(problem);
    }
    if (input.pipeline_ids !== undefined && input.pipeline_ids.length > 0) {
      const ids = [...new Set(input.pipeline_ids.map((id) => id.toLowerCase()))];
      const found = await this.db
        .selectFrom('pipelines')
        .select('id')
        .where('project_id', '=', projectId)
        .where('archived', '=', 0)
        .where('id', 'in', ids)
        .execute();
      const known = new Set(found.map((r) => r.id));
      const missing = ids.filter((id) => !known.has(id));
      if (missing.length > 0)
        throw badRequest(
          `pipeline_ids names pipelines that are not active in this project: ${missing.join(', ')}`,
        );
    }
  }

  async createCron(slug: string, input: Required<Pick<CronInput, 'name' | 'expression'>> & CronInput) {
    const projectId = await projectIdOf(this.db, slug);
    await this.checkInput(projectId, input);
    const now = nowIso();
    const row: ProjectCronsTable = {
      id: newId(),
      project_id: projectId,
      name: input.name.trim(),
      expression: input.expression.trim().replace(/\s+/g, ' '),
      pipeline_ids: JSON.stringify([...new Set((input.pipeline_ids ?? []).map((id) => id.toLowerCase()))]),
      enabled: input.enabled === false ? 0 : 1,
      created_at: now,
      updated_at: now,
    };
    await this.db.transaction().execute(async (trx) => {
      const count = await trx
        .selectFrom('project_crons')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('project_id', '=', projectId)
        .executeTakeFirstOrThrow();
      if (Number(count.n) >= MAX_CRONS_PER_PROJECT)
        throw badRequest(`a project has at most ${MAX_CRONS_PER_PROJECT} cron schedules`);
      const clash = await trx
        .selectFrom('project_crons')
        .select('id')
        .where('project_id', '=', projectId)
        .where('name', '=', row.name)
        .executeTakeFirst();
      if (clash) throw conflict(`the project already has a cron schedule named "${row.name}"`);
      await trx.insertInto('project_crons').values(row).execute();
    });
    return (await this.views([row]))[0];
  }

  private async cronRow(projectId: string, id: string): Promise<ProjectCronsTable> {
    const row = await this.db
      .selectFrom('project_crons')
      .selectAll()
      .where('id', '=', id.toLowerCase())
      .where('project_id', '=', projectId)
      .executeTakeFirst();
    if (!row) throw notFound(`cron schedule ${id} not found in this project`);
    return row;
  }

  /** Changes the fields given; the others keep their values. */
  async updateCron(slug: string, id: string, input: CronInput): Promise<CronSchedule> {
    const projectId = await projectIdOf(this.db, slug);
    const row = await this.cronRow(projectId, id);
    await this.checkInput(projectId, input);
    const next: ProjectCronsTable = {
      ...row,
      name: input.name?.trim() ?? row.name,
      expression: input.expression?.trim().replace(/\s+/g, ' ') ?? row.expression,
      pipeline_ids:
        input.pipeline_ids === undefined
          ? row.pipeline_ids
          : JSON.stringify([...new Set(input.pipeline_ids.map((p) => p.toLowerCase()))]),
      enabled: input.enabled === undefined ? row.enabled : input.enabled ? 1 : 0,
      updated_at: nowIso(),
    };
    if (next.name !== row.name) {
      const clash = await this.db
        .selectFrom('project_crons')
        .select('id')
        .where('project_id', '=', projectId)
        .where('name', '=', next.name)
        .executeTakeFirst();
      if (clash) throw conflict(`the project already has a cron schedule named "${next.name}"`);
    }
    const { id: _id, project_id: _p, created_at: _c, ...changes } = next;
    await this.db.updateTable('project_crons').set(changes).where('id', '=', row.id).execute();
    return (await this.views([next]))[0];
  }

  async deleteCron(slug: string, id: string): Promise<void> {
    const projectId = await projectIdOf(this.db, slug);
    const row = await this.cronRow(projectId, id);
    await this.db.deleteFrom('project_crons').where('id', '=', row.id).execute();
    await this.db.deleteFrom('cron_state').where('schedule_key', '=', `cron:${row.id}`).execute();
  }

  /** The override as text: null (materials decide), "" (polling off) or a duration. */
  async pollInterval(slug: string): Promise<{ interval: string | null }> {
    const projectId = await projectIdOf(this.db, slug);
    const row = await this.db
      .selectFrom('project_poll_settings')
      .select('poll_interval_ms')
      .where('project_id', '=', projectId)
      .executeTakeFirst();
    if (!row) return { interval: null };
    const ms = Number(row.poll_interval_ms);
    return { interval: ms === 0 ? '' : formatDuration(ms) };
  }

  /** "" disables polling for the project, a duration overrides every material's, null removes the override. */
  async setPollInterval(slug: string, interval: string | null): Promise<{ interval: string | null }> {
    const projectId = await projectIdOf(this.db, slug);
    if (interval === null) {
      await this.db.deleteFrom('project_poll_settings').where('project_id', '=', projectId).execute();
      return { interval: null };
    }
    let ms = 0;
    if (interval.trim() !== '') {
      const parsed = parseDuration(interval);
      if (parsed === null)
        throw badRequest(
          `"${interval}" is not a duration; write it like 30s, 5m or 1h30m, or "" to disable polling`,
        );
      if (parsed < MIN_POLL_MS || parsed > MAX_POLL_MS)
        throw badRequest(`the poll interval must be between 1s and 7d`);
      ms = parsed;
    }
    const updated_at = nowIso();
    await this.db
      .insertInto('project_poll_settings')
      .values({ project_id: projectId, poll_interval_ms: ms, updated_at })
      .onConflict((oc) => oc.column('project_id').doUpdateSet({ poll_interval_ms: ms, updated_at }))
      .execute();
    return { interval: ms === 0 ? '' : formatDuration(ms) };
  }
}
