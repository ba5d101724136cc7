// Per-stage job counts (domain/stage-counts.ts): a stage row carries how many of its current job rows are
// not done, wait in `created`, failed and were canceled, written in the same statement or transaction as the
// rows they count (store/run-snapshot.ts, store/job-report-statements.ts), so an agent's `finished` report
// reads the finishing job and its stage's counts instead of every job row of the run. NULL (stages of runs
// created before this migration) means "not known": such a report takes the full transition, which loads
// the run and writes the counts.
import type { Kysely, Migration } from 'kysely';

export const m0018StageJobCounts: Migration = {
  async up(db: Kysely<any>) {
    for (const column of ['active_jobs', 'created_jobs', 'failed_jobs', 'canceled_jobs'])
      await db.schema.alterTable('stage_runs').addColumn(column, 'integer').execute();
  },
};
