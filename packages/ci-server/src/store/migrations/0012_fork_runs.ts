// Runs built from a fork's pull request (docs/ci-triggers.md, "Pull requests from forks"): one row per such
// run saying where the code came from, whether the run still waits for a maintainer's approval, whether the
// project's and global secrets are withheld from its jobs, and who approved it. Removed with its run.
import type { Kysely, Migration } from 'kysely';

export const m0012ForkRuns: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('fork_runs')
      .addColumn('run_id', 'varchar(36)', (c) => c.primaryKey().references('runs.id').onDelete('cascade'))
      .addColumn('head_repository', 'varchar(500)')
      .addColumn('author', 'varchar(200)')
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('awaiting_approval', 'integer', (c) => c.notNull())
      .addColumn('secrets_withheld', 'integer', (c) => c.notNull())
      .addColumn('approved_by', 'varchar(200)')
      .addColumn('approved_at', 'varchar(40)')
      .addColumn('comment', 'text')
      .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
      .execute();
  },
};
