// The `dry_run` column of `approvals` (issue 27, "guardrails judged by effect"): the rows a held write touched
// per table in its rolled-back dry run, as JSON, shown to reviewers; the approved execution may touch no more.
// Registered in index.ts as `0006_approval_dry_run`.
import type { Migration } from 'kysely';

export const m0006ApprovalDryRun: Migration = {
  async up(db) {
    await db.schema.alterTable('approvals').addColumn('dry_run', 'text').execute();
  },
};
