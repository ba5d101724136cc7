// The engine that ran a job attempt (docs/ci-agent.md): `podman`, `sandbox` or `host`, as the agent reports it
// when the job starts; null before that, and for agents that predate engines. The UI marks `host` runs,
// which ran without isolation on an agent whose operator opted in.
import type { Kysely, Migration } from 'kysely';

export const m0013JobEngine: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('job_runs').addColumn('engine', 'varchar(20)').execute();
  },
};
