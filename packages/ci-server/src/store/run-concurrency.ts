// The store side of run concurrency (domain/concurrency.ts): a group's sequence (whose row lock orders the
// runs of one group created or released at once), the group's unfinished runs as the decisions see them,
// and the groups that still hold waiting runs (for the releaser's sweep).
import { PostgresAdapter, sql } from 'kysely';
import type { GroupRun } from '../domain/index.js';
import type { StoreDb } from './database.js';

export const isPostgres = (db: StoreDb): boolean => db.getExecutor().adapter instanceof PostgresAdapter;

/** The group's next sequence value; the group's row stays locked until the transaction ends. */
export async function nextGroupSeq(trx: StoreDb, projectId: string, group: string): Promise<number> {
  const row = await trx
    .insertInto('concurrency_groups')
    .values({ project_id: projectId, name: group, seq: 1 })
    .onConflict((oc) =>
      oc.columns(['project_id', 'name']).doUpdateSet({ seq: sql<number>`concurrency_groups.seq + 1` }),
    )
    .returning('seq')
    .executeTakeFirstOrThrow();
  return Number(row.seq);
}

/** Locks the group's row (PostgreSQL; SQLite has one writer) for a release decision. */
export async function lockGroup(trx: StoreDb, projectId: string, group: string): Promise<void> {
  if (!isPostgres(trx)) return;
  await trx
    .selectFrom('concurrency_groups')
    .select('seq')
    .where('project_id', '=', projectId)
    .where('name', '=', group)
    .forUpdate()
    .execute();
}

/** The group's runs that have not finished, oldest first; `waiting`: held back and never started. */
export async function unfinishedOfGroup(trx: StoreDb, projectId: string, group: string): Promise<GroupRun[]> {
  const rows = await trx
    .selectFrom('runs')
    .select(['id', 'concurrency_seq', 'waiting_for', 'status', 'git_ref'])
    .where('project_id', '=', projectId)
    .where('concurrency_group', '=', group)
    .where('status', 'in', ['queued', 'running'])
    .orderBy('concurrency_seq')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    seq: Number(r.concurrency_seq ?? 0),
    waiting: r.waiting_for !== null && r.status === 'queued',
    gitRef: r.git_ref,
  }));
}

/** Groups with a run still held back: what a sweep re-decides (after a crash between finish and release). */
export async function groupsWithWaitingRuns(db: StoreDb): Promise<{ project_id: string; group: string }[]> {
  const rows = await db
    .selectFrom('runs')
    .select(['project_id', 'concurrency_group'])
    .distinct()
    .where('status', '=', 'queued')
    .where('waiting_for', 'is not', null)
    .execute();
  return rows
    .filter((r) => r.concurrency_group !== null)
    .map((r) => ({ project_id: r.project_id, group: r.concurrency_group! }));
}
