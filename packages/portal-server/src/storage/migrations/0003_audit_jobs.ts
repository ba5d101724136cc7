// Audit events (filterable columns plus the whole event as JSON) and the job queue the worker role drains.
import type { Migration } from 'kysely';
import { withAutoId } from './ids.js';

export const m0003AuditJobs: Migration = {
  async up(db) {
    await withAutoId(db, db.schema.createTable('audit_events'))
      .addColumn('type', 'varchar(100)', (c) => c.notNull())
      .addColumn('actor', 'varchar(320)')
      .addColumn('connection', 'varchar(200)')
      .addColumn('result', 'varchar(20)')
      .addColumn('at', 'varchar(40)', (c) => c.notNull())
      .addColumn('event', 'text', (c) => c.notNull())
      .execute();
    // Newest-first pages, alone or under one filter, read an index instead of the table.
    await db.schema.createIndex('audit_events_at').on('audit_events').columns(['at', 'id']).execute();
    await db.schema.createIndex('audit_events_type').on('audit_events').columns(['type', 'at']).execute();
    await db.schema.createIndex('audit_events_actor').on('audit_events').columns(['actor', 'at']).execute();
    await db.schema
      .createIndex('audit_events_connection')
      .on('audit_events')
      .columns(['connection', 'at'])
      .execute();

    await db.schema
      .createTable('jobs')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('type', 'varchar(100)', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('status', 'varchar(20)', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull())
      .addColumn('max_attempts', 'integer', (c) => c.notNull())
      .addColumn('run_after', 'varchar(40)', (c) => c.notNull())
      .addColumn('locked_by', 'varchar(200)')
      .addColumn('lease_until', 'varchar(40)')
      .addColumn('result', 'text')
      .addColumn('error', 'text')
      .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(40)', (c) => c.notNull())
      .addColumn('finished_at', 'varchar(40)')
      .execute();
    // The claim reads the oldest runnable queued job; expiry reads running jobs by lease.
    await db.schema
      .createIndex('jobs_claim')
      .on('jobs')
      .columns(['status', 'type', 'run_after', 'created_at'])
      .execute();
    await db.schema.createIndex('jobs_lease').on('jobs').columns(['status', 'lease_until']).execute();
  },
};
