// Lookups by a public key that routes and services start from: a project's id by its slug (a missing project
// is the API's 404 with one wording everywhere) and a run's status by its id.
import { notFound } from '@app/kit';
import type { RunStatus } from '../domain/index.js';
import type { StoreDb } from './database.js';

/** The project's id; throws the API's 404 `project "<slug>" not found` when there is none. */
export async function projectIdOf(db: StoreDb, slug: string): Promise<string> {
  const row = await db.selectFrom('projects').select('id').where('slug', '=', slug).executeTakeFirst();
  if (!row) throw notFound(`project "${slug}" not found`);
  return row.id;
}

/** The run's status, undefined when the run does not exist. */
export async function runStatusOf(db: StoreDb, runId: string): Promise<RunStatus | undefined> {
  const row = await db.selectFrom('runs').select('status').where('id', '=', runId).executeTakeFirst();
  return row?.status;
}
