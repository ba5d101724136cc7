// The core tables of the control plane (see store/schema.ts for the row types): projects, pipelines with
// their versions and materials, runs with stage and job runs, gate decisions, log lines, artifacts, project
// secrets, and run counts kept by triggers. Identical on SQLite and PostgreSQL except for the trigger
// bodies, whose syntax differs. Every list and filter the API offers has an index; every foreign key that
// a cascade follows is the leading column of one.
import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

const id = 'varchar(36)';
const ts = 'varchar(40)';
const RUN_STATUSES = sql.raw(`'queued', 'running', 'success', 'failed', 'canceled'`);

async function createTables(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('projects')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('slug', 'varchar(63)', (c) => c.notNull().unique())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('pipelines')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('project_id', id, (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('version_id', id, (c) => c.notNull())
    .addColumn('definition', 'text', (c) => c.notNull())
    .addColumn('raw_yaml', 'text')
    .addColumn('raw_reconstructed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('digest', 'varchar(64)', (c) => c.notNull())
    .addColumn('archived', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('counter', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addUniqueConstraint('pipelines_project_name', ['project_id', 'name'])
    .execute();

  await db.schema
    .createTable('pipeline_versions')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('pipeline_id', id, (c) => c.notNull().references('pipelines.id').onDelete('cascade'))
    .addColumn('digest', 'varchar(64)', (c) => c.notNull())
    .addColumn('definition', 'text', (c) => c.notNull())
    .addColumn('raw_yaml', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addUniqueConstraint('pipeline_versions_digest', ['pipeline_id', 'digest'])
    .execute();

  await db.schema
    .createTable('materials')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('pipeline_id', id, (c) => c.notNull().references('pipelines.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('kind', 'varchar(20)', (c) => c.notNull())
    .addColumn('fingerprint', 'varchar(64)', (c) => c.notNull())
    .addColumn('config', 'text', (c) => c.notNull())
    .addUniqueConstraint('materials_pipeline_position', ['pipeline_id', 'position'])
    .execute();
  // A webhook push looks up every pipeline watching the same repository and branch.
  await db.schema.createIndex('materials_fingerprint').on('materials').column('fingerprint').execute();

  await db.schema
    .createTable('runs')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('project_id', id, (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('pipeline_id', id, (c) => c.notNull().references('pipelines.id').onDelete('cascade'))
    // No foreign key: versions only go away with their pipeline, and so do its runs.
    .addColumn('version_id', id, (c) => c.notNull())
    .addColumn('counter', 'integer', (c) => c.notNull())
    .addColumn('status', 'varchar(20)', (c) => c.notNull())
    .addColumn('cause', 'varchar(20)', (c) => c.notNull())
    .addColumn('triggered_by', 'varchar(200)', (c) => c.notNull())
    .addColumn('git_ref', 'varchar(500)')
    .addColumn('revision', 'varchar(100)')
    .addColumn('parameters', 'text', (c) => c.notNull())
    .addColumn('rerun_of', id)
    .addColumn('cancel_requested', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('started_at', ts)
    .addColumn('finished_at', ts)
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addUniqueConstraint('runs_pipeline_counter', ['pipeline_id', 'counter'])
    .addCheckConstraint('runs_status_known', sql`status in (${RUN_STATUSES})`)
    .execute();
  // The runs list: newest first (created_at, id), optionally filtered by status, project and pipeline.
  // Each index serves one filter combination as an ordered range, so a page never sorts.
  const runIndexes: Record<string, string[]> = {
    runs_created: ['created_at', 'id'],
    runs_status_created: ['status', 'created_at', 'id'],
    runs_project_created: ['project_id', 'created_at', 'id'],
    runs_project_status_created: ['project_id', 'status', 'created_at', 'id'],
    runs_pipeline_created: ['pipeline_id', 'created_at', 'id'],
    runs_pipeline_status_created: ['pipeline_id', 'status', 'created_at', 'id'],
  };
  for (const [name, columns] of Object.entries(runIndexes))
    await db.schema.createIndex(name).on('runs').columns(columns).execute();

  await db.schema
    .createTable('stage_runs')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('run_id', id, (c) => c.notNull().references('runs.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('status', 'varchar(20)', (c) => c.notNull())
    .addColumn('started_at', ts)
    .addColumn('finished_at', ts)
    .addUniqueConstraint('stage_runs_run_position', ['run_id', 'position'])
    .execute();

  await db.schema
    .createTable('job_runs')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('run_id', id, (c) => c.notNull().references('runs.id').onDelete('cascade'))
    .addColumn('stage_run_id', id, (c) => c.notNull().references('stage_runs.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('matrix', 'text', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('status', 'varchar(20)', (c) => c.notNull())
    .addColumn('is_gate', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('needs', 'text', (c) => c.notNull())
    .addColumn('retry', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('retry_left', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('required_approvals', 'integer')
    .addColumn('approved_by', 'text')
    .addColumn('rejected_by', 'varchar(200)')
    .addColumn('exit_code', 'integer')
    .addColumn('agent', 'varchar(200)')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('started_at', ts)
    .addColumn('finished_at', ts)
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('job_runs_run').on('job_runs').columns(['run_id', 'position']).execute();
  await db.schema.createIndex('job_runs_stage').on('job_runs').column('stage_run_id').execute();
  // The dispatcher takes the oldest queued job without scanning the whole table.
  await db.schema.createIndex('job_runs_status').on('job_runs').columns(['status', 'created_at']).execute();

  await db.schema
    .createTable('job_run_decisions')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('job_run_id', id, (c) => c.notNull().references('job_runs.id').onDelete('cascade'))
    .addColumn('decision', 'varchar(10)', (c) => c.notNull())
    .addColumn('actor', 'varchar(200)', (c) => c.notNull())
    .addColumn('comment', 'text')
    .addColumn('at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('job_run_decisions_job')
    .on('job_run_decisions')
    .columns(['job_run_id', 'at'])
    .execute();

  await db.schema
    .createTable('log_lines')
    .addColumn('job_run_id', id, (c) => c.notNull().references('job_runs.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('stream', 'varchar(10)', (c) => c.notNull())
    .addColumn('at', ts, (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('log_lines_pk', ['job_run_id', 'seq'])
    .execute();

  await db.schema
    .createTable('artifacts')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('run_id', id, (c) => c.notNull().references('runs.id').onDelete('cascade'))
    .addColumn('job_run_id', id, (c) => c.notNull().references('job_runs.id').onDelete('cascade'))
    .addColumn('job_name', 'varchar(200)', (c) => c.notNull())
    .addColumn('path', 'varchar(1000)', (c) => c.notNull())
    .addColumn('size_bytes', 'bigint', (c) => c.notNull())
    .addColumn('status', 'varchar(20)', (c) => c.notNull())
    .addColumn('content_sha256', 'varchar(64)')
    .addColumn('storage_key', 'varchar(500)')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('expires_at', ts)
    .execute();
  await db.schema.createIndex('artifacts_run').on('artifacts').columns(['run_id', 'created_at']).execute();
  await db.schema.createIndex('artifacts_job_run').on('artifacts').column('job_run_id').execute();
  await db.schema.createIndex('artifacts_expires').on('artifacts').column('expires_at').execute();

  await db.schema
    .createTable('project_secrets')
    .addColumn('project_id', id, (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('value_sealed', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('project_secrets_pk', ['project_id', 'name'])
    .execute();

  await db.schema
    .createTable('run_stats')
    .addColumn('pipeline_id', id, (c) => c.notNull().references('pipelines.id').onDelete('cascade'))
    .addColumn('project_id', id, (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('status', 'varchar(20)', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('run_stats_pk', ['pipeline_id', 'status'])
    .execute();
  await db.schema
    .createIndex('run_stats_project')
    .on('run_stats')
    .columns(['project_id', 'status'])
    .execute();
}

/**
 * Keeps `run_stats` equal to `SELECT pipeline_id, status, count(*) FROM runs GROUP BY 1, 2` whoever writes
 * runs (services, the agents' job reports, retention), so a list total is a sum over a few rows instead of a count
 * over every run. A status change moves one unit between two rows in a single UPDATE.
 */
async function createStatsTriggers(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const bump = (row: 'NEW' | 'OLD') =>
    `INSERT INTO run_stats (pipeline_id, project_id, status, n)
       VALUES (${row}.pipeline_id, ${row}.project_id, ${row}.status, 1)
       ON CONFLICT (pipeline_id, status) DO UPDATE SET n = run_stats.n + 1`;
  const drop = `UPDATE run_stats SET n = n - 1 WHERE pipeline_id = OLD.pipeline_id AND status = OLD.status`;
  if (postgres) {
    // Every run creation and status change updates a row here: room on each page keeps those updates
    // HOT (pruned in place), so the few live rows stay on a few pages.
    await sql.raw('ALTER TABLE run_stats SET (fillfactor = 30)').execute(db);
    await sql
      .raw(
        `CREATE FUNCTION run_stats_track() RETURNS trigger LANGUAGE plpgsql AS $$
         DECLARE moved integer;
         BEGIN
           IF TG_OP = 'INSERT' THEN
             ${bump('NEW')};
           ELSIF TG_OP = 'DELETE' THEN
             ${drop};
           ELSE
             UPDATE run_stats SET n = n + CASE WHEN status = NEW.status THEN 1 ELSE -1 END
               WHERE pipeline_id = NEW.pipeline_id AND status IN (OLD.status, NEW.status);
             GET DIAGNOSTICS moved = ROW_COUNT;
             IF moved < 2 THEN ${bump('NEW')}; END IF;
           END IF;
           RETURN NULL;
         END $$`,
      )
      .execute(db);
    await sql
      .raw(
        `CREATE TRIGGER runs_stats_insert_delete AFTER INSERT OR DELETE ON runs
         FOR EACH ROW EXECUTE FUNCTION run_stats_track()`,
      )
      .execute(db);
    await sql
      .raw(
        `CREATE TRIGGER runs_stats_update AFTER UPDATE OF status ON runs
         FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION run_stats_track()`,
      )
      .execute(db);
    return;
  }
  await sql
    .raw(`CREATE TRIGGER runs_stats_insert AFTER INSERT ON runs BEGIN ${bump('NEW')}; END`)
    .execute(db);
  await sql.raw(`CREATE TRIGGER runs_stats_delete AFTER DELETE ON runs BEGIN ${drop}; END`).execute(db);
  await sql
    .raw(
      `CREATE TRIGGER runs_stats_update AFTER UPDATE OF status ON runs WHEN OLD.status <> NEW.status
       BEGIN ${drop}; ${bump('NEW')}; END`,
    )
    .execute(db);
}

export const m0002Core: Migration = {
  async up(db) {
    await createTables(db);
    await createStatsTriggers(db);
  },
};
