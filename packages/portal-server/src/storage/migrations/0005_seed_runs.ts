// The `seed_runs` table: one row per POST /api/admin/seed-data/run — what was asked (datasource, schema, mode,
// source, counts, truncate), the job that runs it, where it stands (queued → running → done/failed) and the
// per-table progress snapshot written after every table. Registered in index.ts as
// `0005_seed_runs` (the repository is src/seed/store.ts).
import type { Migration } from 'kysely';

export const m0005SeedRuns: Migration = {
  async up(db) {
    await db.schema
      .createTable('seed_runs')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('datasource_id', 'varchar(200)', (c) => c.notNull())
      // Set while the run is queued or running, null once finished: the unique index below makes a second
      // active run on one datasource a conflict the database itself refuses (no check-then-insert race).
      .addColumn('active_key', 'varchar(200)')
      .addColumn('job_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('status', 'varchar(20)', (c) => c.notNull())
      .addColumn('mode', 'varchar(20)', (c) => c.notNull())
      .addColumn('schema_name', 'varchar(200)', (c) => c.notNull())
      .addColumn('source_id', 'varchar(200)')
      .addColumn('source_name', 'varchar(200)')
      .addColumn('request', 'text', (c) => c.notNull())
      .addColumn('tables', 'text', (c) => c.notNull())
      .addColumn('actor', 'varchar(320)', (c) => c.notNull())
      .addColumn('error', 'text')
      .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(40)', (c) => c.notNull())
      .addColumn('finished_at', 'varchar(40)')
      .execute();
    await db.schema.createIndex('seed_runs_active').on('seed_runs').column('active_key').unique().execute();
    await db.schema
      .createIndex('seed_runs_status')
      .on('seed_runs')
      .columns(['status', 'updated_at'])
      .execute();
  },
};
