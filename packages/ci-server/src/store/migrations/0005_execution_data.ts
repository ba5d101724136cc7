// Execution data (see store/execution-schema.ts): a run-wide cursor on log lines for the SSE stream, service
// runs, test reports and cases, and cache entries. Identical on SQLite and PostgreSQL.
import { type Kysely, type Migration, sql } from 'kysely';

const id = 'varchar(36)';
const ts = 'varchar(40)';

export const m0005ExecutionData: Migration = {
  async up(db: Kysely<any>) {
    // Lines written before this migration keep null cursors (they are only reachable per job run).
    await db.schema.alterTable('log_lines').addColumn('run_id', id).execute();
    await db.schema.alterTable('log_lines').addColumn('run_seq', 'integer').execute();
    // The stream of a run reads one ordered range: `WHERE run_id = ? AND run_seq > ? ORDER BY run_seq`.
    await db.schema.createIndex('log_lines_run_seq').on('log_lines').columns(['run_id', 'run_seq']).execute();

    await db.schema
      .createTable('run_log_heads')
      .addColumn('run_id', id, (c) => c.primaryKey().references('runs.id').onDelete('cascade'))
      .addColumn('last_seq', 'integer', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('service_runs')
      .addColumn('id', id, (c) => c.primaryKey())
      .addColumn('run_id', id, (c) => c.notNull().references('runs.id').onDelete('cascade'))
      .addColumn('job_run_id', id, (c) => c.notNull().references('job_runs.id').onDelete('cascade'))
      .addColumn('name', 'varchar(200)', (c) => c.notNull())
      .addColumn('status', 'varchar(20)', (c) => c.notNull())
      .addColumn('message', 'text')
      .addColumn('started_at', ts, (c) => c.notNull())
      .addColumn('updated_at', ts, (c) => c.notNull())
      .addUniqueConstraint('service_runs_job_name', ['job_run_id', 'name'])
      .addCheckConstraint(
        'service_runs_status_known',
        sql`status in ('starting', 'ready', 'failed', 'stopped')`,
      )
      .execute();
    await db.schema
      .createIndex('service_runs_run')
      .on('service_runs')
      .columns(['run_id', 'started_at'])
      .execute();

    await db.schema
      .createTable('test_reports')
      .addColumn('job_run_id', id, (c) => c.primaryKey().references('job_runs.id').onDelete('cascade'))
      .addColumn('run_id', id, (c) => c.notNull().references('runs.id').onDelete('cascade'))
      .addColumn('unreadable_files', 'text', (c) => c.notNull())
      .addColumn('received_at', ts, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('test_reports_run').on('test_reports').column('run_id').execute();

    await db.schema
      .createTable('test_cases')
      .addColumn('job_run_id', id, (c) => c.notNull().references('job_runs.id').onDelete('cascade'))
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('run_id', id, (c) => c.notNull())
      .addColumn('suite', 'varchar(1000)', (c) => c.notNull())
      .addColumn('classname', 'varchar(1000)', (c) => c.notNull())
      .addColumn('name', 'varchar(2000)', (c) => c.notNull())
      .addColumn('status', 'varchar(10)', (c) => c.notNull())
      .addColumn('duration_s', 'double precision', (c) => c.notNull())
      .addColumn('message', 'text')
      .addPrimaryKeyConstraint('test_cases_pk', ['job_run_id', 'position'])
      .execute();
    await db.schema
      .createIndex('test_cases_run_status')
      .on('test_cases')
      .columns(['run_id', 'status'])
      .execute();

    await db.schema
      .createTable('cache_entries')
      .addColumn('id', id, (c) => c.primaryKey())
      .addColumn('project_id', id, (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('key', 'varchar(1000)', (c) => c.notNull())
      .addColumn('size_bytes', 'bigint', (c) => c.notNull())
      .addColumn('content_sha256', 'varchar(64)', (c) => c.notNull())
      .addColumn('storage_key', 'varchar(500)', (c) => c.notNull())
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('last_used_at', ts, (c) => c.notNull())
      .addUniqueConstraint('cache_entries_project_key', ['project_id', 'key'])
      .execute();
  },
};
