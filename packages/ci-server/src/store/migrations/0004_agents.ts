// The agent fleet and job leases. `agents` keeps one row per agent name (a re-registering agent keeps its id,
// so leases survive reconnects and server restarts). A job run handed to an agent holds a lease on its row:
// `lease_agent_id` says who has it, `lease_expires_at` when it lapses unless a heartbeat renews it, and
// `assigned_at` when it was claimed. `error` keeps the one-line reason a job failed (agent lost, bad
// reference, the agent's own message).
import type { Kysely, Migration } from 'kysely';

const id = 'varchar(36)';
const ts = 'varchar(40)';

export const m0004Agents: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('agents')
      .addColumn('id', id, (c) => c.primaryKey())
      .addColumn('name', 'varchar(200)', (c) => c.notNull().unique())
      // JSON array of routing tags.
      .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('capacity', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('version', 'varchar(100)', (c) => c.notNull().defaultTo(''))
      .addColumn('hostname', 'varchar(255)', (c) => c.notNull().defaultTo(''))
      // online | busy | offline
      .addColumn('status', 'varchar(20)', (c) => c.notNull().defaultTo('offline'))
      .addColumn('last_heartbeat_at', ts)
      .addColumn('registered_at', ts, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('agents_status')
      .on('agents')
      .columns(['status', 'last_heartbeat_at'])
      .execute();

    await db.schema.alterTable('job_runs').addColumn('lease_agent_id', id).execute();
    await db.schema.alterTable('job_runs').addColumn('lease_expires_at', ts).execute();
    await db.schema.alterTable('job_runs').addColumn('assigned_at', ts).execute();
    await db.schema.alterTable('job_runs').addColumn('error', 'text').execute();
    // Heartbeats renew an agent's leases; the sweeper finds lapsed ones; neither scans the table.
    await db.schema.createIndex('job_runs_lease_agent').on('job_runs').column('lease_agent_id').execute();
    await db.schema.createIndex('job_runs_lease_expiry').on('job_runs').column('lease_expires_at').execute();
  },
};
