// What the store holds now, counted on each call (the admin retention view): runs, log lines, archived logs,
// artifacts and cache entries with their bytes. count/sum come back as strings (bigint/numeric) on
// PostgreSQL and numbers on SQLite, so every figure goes through Number().
import type { StoreDb } from './database.js';

export interface StoreTotals {
  runs: number;
  log_lines: number;
  log_archives: number;
  log_archive_bytes: number;
  artifacts: number;
  artifact_bytes: number;
  cache_entries: number;
  cache_bytes: number;
}

export async function storeTotals(db: StoreDb): Promise<StoreTotals> {
  const [runs, logs, archives, artifacts, caches] = await Promise.all([
    db
      .selectFrom('runs')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('log_lines')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('log_archives')
      .select((eb) => [eb.fn.countAll().as('n'), eb.fn.sum('stored_bytes').as('bytes')])
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('artifacts')
      .select((eb) => [eb.fn.countAll().as('n'), eb.fn.sum('size_bytes').as('bytes')])
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('cache_entries')
      .select((eb) => [eb.fn.countAll().as('n'), eb.fn.sum('size_bytes').as('bytes')])
      .executeTakeFirstOrThrow(),
  ]);
  return {
    runs: Number(runs.n),
    log_lines: Number(logs.n),
    log_archives: Number(archives.n),
    log_archive_bytes: Number(archives.bytes ?? 0),
    artifacts: Number(artifacts.n),
    artifact_bytes: Number(artifacts.bytes ?? 0),
    cache_entries: Number(caches.n),
    cache_bytes: Number(caches.bytes ?? 0),
  };
}
