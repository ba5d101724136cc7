// Blob prefixes to delete from the storage backend, recorded in the same transaction that removes their rows
// (a project delete, a run removed by retention), so files are never forgotten even if the process stops
// right after the commit. The retention sweeper deletes each prefix and then its row.
import { sql } from 'kysely';
import type { StoreDb } from './database.js';
import { nowIso } from './ids.js';

type Db = StoreDb;

/** Every blob prefix of the project: its caches, and each run's artifacts and archived logs. */
export async function recordProjectBlobs(db: Db, projectId: string): Promise<void> {
  const now = nowIso();
  await sql`INSERT INTO blob_deletions (prefix, reason, created_at)
    VALUES (${`caches/${projectId}/`}, 'project-deleted', ${now}) ON CONFLICT (prefix) DO NOTHING`.execute(
    db,
  );
  await sql`INSERT INTO blob_deletions (prefix, reason, created_at)
    SELECT DISTINCT 'artifacts/' || a.run_id || '/', 'project-deleted', ${now} FROM artifacts a
    JOIN runs r ON r.id = a.run_id WHERE r.project_id = ${projectId}
    ON CONFLICT (prefix) DO NOTHING`.execute(db);
  await sql`INSERT INTO blob_deletions (prefix, reason, created_at)
    SELECT DISTINCT 'logs/' || l.run_id || '/', 'project-deleted', ${now} FROM log_archives l
    JOIN runs r ON r.id = l.run_id WHERE r.project_id = ${projectId}
    ON CONFLICT (prefix) DO NOTHING`.execute(db);
}

/** The artifact and archived-log prefixes of runs about to be deleted. */
export async function recordRunBlobs(db: Db, runIds: string[], reason: string): Promise<void> {
  if (runIds.length === 0) return;
  const now = nowIso();
  const ids = sql.join(runIds.map((id) => sql`${id}`));
  await sql`INSERT INTO blob_deletions (prefix, reason, created_at)
    SELECT DISTINCT 'artifacts/' || run_id || '/', ${reason}, ${now} FROM artifacts WHERE run_id IN (${ids})
    ON CONFLICT (prefix) DO NOTHING`.execute(db);
  await sql`INSERT INTO blob_deletions (prefix, reason, created_at)
    SELECT DISTINCT 'logs/' || run_id || '/', ${reason}, ${now} FROM log_archives WHERE run_id IN (${ids})
    ON CONFLICT (prefix) DO NOTHING`.execute(db);
}
