// Tables of the run triggers (see src/store/trigger-schema.ts for the row types): modifications seen per git
// material, polling state, webhook deliveries (headers redacted) and their dedupe claims, project cron
// schedules, cron state and firings, the per-project poll-interval override, SCM credentials (sealed with the
// server's secret box), trigger claims (git revisions, upstream fan-in) and leader leases. Identical on SQLite and PostgreSQL; the
// claim tables' primary keys are what make a trigger fire once across replicas.
import type { Kysely, Migration } from 'kysely';

const id = 'varchar(36)';
const ts = 'varchar(40)';

export const m0006Triggers: Migration = {
  async up(db: Kysely<any>) {
    // Polling and cron read the git and cron materials of every pipeline on each leader tick.
    await db.schema.createIndex('materials_kind').on('materials').columns(['kind', 'pipeline_id']).execute();

    // One row per revision a git material (its fingerprint: repository and branch) was seen at. The unique
    // key makes "a new revision" an atomic claim shared by polling, webhooks and every replica.
    await db.schema
      .createTable('material_modifications')
      .addColumn('id', id, (c) => c.primaryKey())
      .addColumn('fingerprint', 'varchar(64)', (c) => c.notNull())
      .addColumn('url', 'varchar(2000)', (c) => c.notNull())
      .addColumn('branch', 'varchar(255)', (c) => c.notNull())
      .addColumn('revision', 'varchar(100)', (c) => c.notNull())
      .addColumn('author', 'varchar(500)')
      .addColumn('message', 'text')
      .addColumn('committed_at', ts)
      .addColumn('source', 'varchar(20)', (c) => c.notNull())
      .addColumn('detected_at', ts, (c) => c.notNull())
      .addUniqueConstraint('material_modifications_revision', ['fingerprint', 'revision'])
      .execute();
    await db.schema
      .createIndex('material_modifications_latest')
      .on('material_modifications')
      .columns(['fingerprint', 'detected_at'])
      .execute();

    await db.schema
      .createTable('material_poll_state')
      .addColumn('fingerprint', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('url', 'varchar(2000)', (c) => c.notNull())
      .addColumn('branch', 'varchar(255)', (c) => c.notNull())
      .addColumn('last_revision', 'varchar(100)')
      .addColumn('last_polled_at', ts)
      .addColumn('last_error', 'text')
      .addColumn('updated_at', ts, (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('webhook_deliveries')
      .addColumn('id', id, (c) => c.primaryKey())
      .addColumn('scm', 'varchar(20)', (c) => c.notNull())
      .addColumn('event', 'varchar(100)', (c) => c.notNull())
      .addColumn('delivery_id', 'varchar(200)')
      .addColumn('status', 'varchar(20)', (c) => c.notNull())
      .addColumn('status_code', 'integer', (c) => c.notNull())
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('repository', 'varchar(2000)')
      .addColumn('ref', 'varchar(500)')
      .addColumn('revision', 'varchar(100)')
      .addColumn('run_ids', 'text', (c) => c.notNull())
      .addColumn('headers', 'text', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('payload_bytes', 'integer', (c) => c.notNull())
      .addColumn('payload_truncated', 'integer', (c) => c.notNull())
      .addColumn('received_at', ts, (c) => c.notNull())
      .execute();
    // The history is read newest first (ids are UUIDv7), optionally by host or outcome.
    await db.schema
      .createIndex('webhook_deliveries_scm')
      .on('webhook_deliveries')
      .columns(['scm', 'id'])
      .execute();
    await db.schema
      .createIndex('webhook_deliveries_status')
      .on('webhook_deliveries')
      .columns(['status', 'id'])
      .execute();
    await db.schema
      .createIndex('webhook_deliveries_received')
      .on('webhook_deliveries')
      .column('received_at')
      .execute();

    // A verified delivery id is claimed in the transaction that creates its runs: a redelivery finds it.
    await db.schema
      .createTable('webhook_delivery_claims')
      .addColumn('scm', 'varchar(20)', (c) => c.notNull())
      .addColumn('delivery_key', 'varchar(200)', (c) => c.notNull())
      .addColumn('claimed_at', ts, (c) => c.notNull())
      .addPrimaryKeyConstraint('webhook_delivery_claims_pk', ['scm', 'delivery_key'])
      .execute();
    await db.schema
      .createIndex('webhook_delivery_claims_at')
      .on('webhook_delivery_claims')
      .column('claimed_at')
      .execute();

    await db.schema
      .createTable('project_crons')
      .addColumn('id', id, (c) => c.primaryKey())
      .addColumn('project_id', id, (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('name', 'varchar(200)', (c) => c.notNull())
      .addColumn('expression', 'varchar(200)', (c) => c.notNull())
      .addColumn('pipeline_ids', 'text', (c) => c.notNull())
      .addColumn('enabled', 'integer', (c) => c.notNull())
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('updated_at', ts, (c) => c.notNull())
      .addUniqueConstraint('project_crons_name', ['project_id', 'name'])
      .execute();

    // When each schedule (a project cron or a cron material) fires next; survives restarts and leader changes.
    await db.schema
      .createTable('cron_state')
      .addColumn('schedule_key', 'varchar(200)', (c) => c.primaryKey())
      .addColumn('expression', 'varchar(200)', (c) => c.notNull())
      .addColumn('next_run_at', ts, (c) => c.notNull())
      .addColumn('last_fired_at', ts)
      .execute();
    // One row per firing: the claim that keeps a firing single even if two leaders ever overlapped.
    await db.schema
      .createTable('cron_firings')
      .addColumn('schedule_key', 'varchar(200)', (c) => c.notNull())
      .addColumn('fire_at', ts, (c) => c.notNull())
      .addColumn('run_ids', 'text', (c) => c.notNull())
      .addColumn('created_at', ts, (c) => c.notNull())
      .addPrimaryKeyConstraint('cron_firings_pk', ['schedule_key', 'fire_at'])
      .execute();
    await db.schema.createIndex('cron_firings_created').on('cron_firings').column('created_at').execute();

    // Absent: each material's own poll_interval; 0: polling disabled for the project; else the interval (ms).
    await db.schema
      .createTable('project_poll_settings')
      .addColumn('project_id', id, (c) => c.primaryKey().references('projects.id').onDelete('cascade'))
      .addColumn('poll_interval_ms', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', ts, (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('scm_credentials')
      .addColumn('id', id, (c) => c.primaryKey())
      // The normalised URL prefix (host[/path]) the credential applies to; the longest match wins.
      .addColumn('prefix', 'varchar(1000)', (c) => c.notNull().unique())
      .addColumn('url', 'varchar(2000)', (c) => c.notNull())
      .addColumn('username', 'varchar(200)', (c) => c.notNull())
      .addColumn('secret_sealed', 'text', (c) => c.notNull())
      .addColumn('description', 'varchar(500)')
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('updated_at', ts, (c) => c.notNull())
      .execute();

    // One row per (pipeline, reason to run): a git revision of a material, a combination of upstream runs.
    // Inserted in the transaction that creates the run, so webhooks, polls, replicas and redeliveries that
    // race for the same reason create one run between them.
    await db.schema
      .createTable('trigger_claims')
      .addColumn('pipeline_id', id, (c) => c.notNull().references('pipelines.id').onDelete('cascade'))
      .addColumn('trigger_key', 'varchar(64)', (c) => c.notNull())
      .addColumn('source', 'varchar(20)', (c) => c.notNull())
      .addColumn('detail', 'text', (c) => c.notNull())
      .addColumn('run_id', id)
      .addColumn('created_at', ts, (c) => c.notNull())
      .addPrimaryKeyConstraint('trigger_claims_pk', ['pipeline_id', 'trigger_key'])
      .execute();

    await db.schema
      .createTable('leader_leases')
      .addColumn('name', 'varchar(100)', (c) => c.primaryKey())
      .addColumn('holder', 'varchar(100)', (c) => c.notNull())
      .addColumn('acquired_at', ts, (c) => c.notNull())
      .addColumn('expires_at', ts, (c) => c.notNull())
      .execute();
  },
};
