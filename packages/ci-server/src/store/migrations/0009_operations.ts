// CI operations (issue 19): archived job logs (one compressed blob per job run, its rows removed), blob
// prefixes waiting to be deleted (a deleted project's or a swept run's files), and the notification outbox
// (one row per event and channel, written in the transaction of the run transition, delivered after it).
// Identical on SQLite and PostgreSQL.
import type { Kysely, Migration } from 'kysely';

const id = 'varchar(36)';
const ts = 'varchar(40)';

export const m0009Operations: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('log_archives')
      .addColumn('job_run_id', id, (c) => c.primaryKey().references('job_runs.id').onDelete('cascade'))
      .addColumn('run_id', id, (c) => c.notNull().references('runs.id').onDelete('cascade'))
      .addColumn('storage_key', 'varchar(600)', (c) => c.notNull())
      .addColumn('lines', 'integer', (c) => c.notNull())
      .addColumn('max_seq', 'integer', (c) => c.notNull())
      .addColumn('first_cursor', 'integer', (c) => c.notNull())
      .addColumn('last_cursor', 'integer', (c) => c.notNull())
      .addColumn('raw_bytes', 'bigint', (c) => c.notNull())
      .addColumn('stored_bytes', 'bigint', (c) => c.notNull())
      .addColumn('archived_at', ts, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('log_archives_run')
      .on('log_archives')
      .columns(['run_id', 'last_cursor'])
      .execute();

    await db.schema
      .createTable('blob_deletions')
      .addColumn('prefix', 'varchar(600)', (c) => c.primaryKey())
      .addColumn('reason', 'varchar(40)', (c) => c.notNull())
      .addColumn('created_at', ts, (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('notification_outbox')
      .addColumn('id', id, (c) => c.primaryKey())
      .addColumn('project_id', id, (c) => c.notNull().references('projects.id').onDelete('cascade'))
      // No reference: the delivery history outlives a run removed by retention.
      .addColumn('run_id', id)
      .addColumn('event', 'varchar(40)', (c) => c.notNull())
      .addColumn('channel_kind', 'varchar(20)', (c) => c.notNull())
      .addColumn('target', 'text', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('idempotency_key', 'varchar(200)', (c) => c.notNull().unique())
      .addColumn('status', 'varchar(20)', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull())
      .addColumn('next_attempt_at', ts, (c) => c.notNull())
      .addColumn('last_error', 'text')
      .addColumn('response_status', 'integer')
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('delivered_at', ts)
      .execute();
    await db.schema
      .createIndex('notification_outbox_due')
      .on('notification_outbox')
      .columns(['status', 'next_attempt_at'])
      .execute();
    await db.schema
      .createIndex('notification_outbox_project')
      .on('notification_outbox')
      .columns(['project_id', 'created_at'])
      .execute();
  },
};
