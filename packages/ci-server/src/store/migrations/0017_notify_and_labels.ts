// gocdnext's dialect, two facts a run keeps: which outcomes fire a notification job run (`notify_on`, null
// for every other job; domain/notifications.ts), and the labels of the pull request a run builds
// (`pr_labels`, a JSON array; null for other runs), which an approval gate's `quorum_by_label` reads.
import type { Kysely, Migration } from 'kysely';

export const m0017NotifyAndLabels: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('job_runs').addColumn('notify_on', 'varchar(10)').execute();
    await db.schema.alterTable('runs').addColumn('pr_labels', 'text').execute();
  },
};
