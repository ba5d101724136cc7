// Seed runs at rest (table `seed_runs`, storage/migrations/0005_seed_runs.ts): create with the one-active-run-per-datasource
// rule enforced by a unique index, read, per-table snapshots while running, and the final state.
import type { Kysely } from 'kysely';
import type { PortalDatabase, SeedRunTableRow } from '../storage/schema.js';
import type { SeedRequest, SeedRun, SeedRunStatus, SeedRunTable } from './types.js';

function toRun(row: SeedRunTableRow): SeedRun {
  return {
    id: row.id,
    status: row.status as SeedRunStatus,
    mode: row.mode as SeedRun['mode'],
    datasourceId: row.datasource_id,
    schema: row.schema_name,
    ...(row.source_id ? { sourceId: row.source_id } : {}),
    ...(row.source_name ? { sourceName: row.source_name } : {}),
    jobId: row.job_id,
    tables: JSON.parse(row.tables) as SeedRunTable[],
    ...(row.error ? { error: row.error } : {}),
    actor: row.actor,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ...(row.finished_at ? { finishedAt: row.finished_at } : {}),
  };
}

/** True for a unique-constraint violation on either store dialect. */
function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return (
    e.code === '23505' || e.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint/i.test(e.message ?? '')
  );
}

export class SeedRunRepository {
  private readonly db: Kysely<PortalDatabase>;

  constructor(
    db: Kysely<PortalDatabase>,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.db = db;
  }

  /** Stores a queued run; undefined when another run is queued or running on the datasource. */
  async create(run: SeedRun, request: SeedRequest): Promise<SeedRun | undefined> {
    const row: SeedRunTableRow = {
      id: run.id,
      datasource_id: run.datasourceId,
      active_key: run.datasourceId,
      job_id: run.jobId,
      status: 'queued',
      mode: run.mode,
      schema_name: run.schema,
      source_id: run.sourceId ?? null,
      source_name: run.sourceName ?? null,
      request: JSON.stringify(request),
      tables: JSON.stringify(run.tables),
      actor: run.actor,
      error: null,
      created_at: run.createdAt,
      updated_at: run.createdAt,
      finished_at: null,
    };
    try {
      await this.db.insertInto('seed_runs').values(row).execute();
    } catch (err) {
      if (isUniqueViolation(err)) return undefined;
      throw err;
    }
    return toRun(row);
  }

  /** Drops a run that never got its job (the enqueue failed), releasing the datasource. */
  async remove(id: string): Promise<void> {
    await this.db.deleteFrom('seed_runs').where('id', '=', id).execute();
  }

  async get(id: string): Promise<SeedRun | undefined> {
    const row = await this.db.selectFrom('seed_runs').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toRun(row);
  }

  async request(id: string): Promise<SeedRequest | undefined> {
    const row = await this.db
      .selectFrom('seed_runs')
      .select('request')
      .where('id', '=', id)
      .executeTakeFirst();
    return row && (JSON.parse(row.request) as SeedRequest);
  }

  /** Runs still queued or running (the reconciler compares them with their jobs). */
  async active(): Promise<SeedRun[]> {
    const rows = await this.db
      .selectFrom('seed_runs')
      .selectAll()
      .where('status', 'in', ['queued', 'running'])
      .execute();
    return rows.map(toRun);
  }

  /** The progress snapshot: written when the run starts and after every table. */
  async snapshot(id: string, tables: SeedRunTable[]): Promise<void> {
    await this.db
      .updateTable('seed_runs')
      .set({ status: 'running', tables: JSON.stringify(tables), updated_at: this.now().toISOString() })
      .where('id', '=', id)
      .where('status', 'in', ['queued', 'running'])
      .execute();
  }

  /** Final state; false when the run had already finished (a second finisher changes nothing). */
  async finish(
    id: string,
    status: 'done' | 'failed',
    tables: SeedRunTable[],
    error?: string,
  ): Promise<boolean> {
    const at = this.now().toISOString();
    const res = await this.db
      .updateTable('seed_runs')
      .set({
        status,
        active_key: null,
        tables: JSON.stringify(tables),
        error: error ?? null,
        updated_at: at,
        finished_at: at,
      })
      .where('id', '=', id)
      .where('status', 'in', ['queued', 'running'])
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }
}
