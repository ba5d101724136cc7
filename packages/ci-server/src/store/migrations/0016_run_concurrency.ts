// Concurrency control of runs (a pipeline's `concurrency`, domain/concurrency.ts): each run of a serial or
// cancel-superseded pipeline records its group and its place in the group's order; a serial run held back
// records the run it waits for, a canceled one the run that superseded it. `concurrency_groups` holds each
// group's sequence; taking the next value locks the group's row until the creating transaction ends, so two
// runs of one group created at once are ordered and decided one after the other.
import type { Kysely, Migration } from 'kysely';

export const m0016RunConcurrency: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('runs').addColumn('concurrency_group', 'varchar(120)').execute();
    await db.schema.alterTable('runs').addColumn('concurrency_seq', 'integer').execute();
    await db.schema.alterTable('runs').addColumn('waiting_for', 'varchar(36)').execute();
    await db.schema.alterTable('runs').addColumn('superseded_by', 'varchar(36)').execute();
    await db.schema
      .createIndex('runs_concurrency_group')
      .on('runs')
      .columns(['project_id', 'concurrency_group', 'concurrency_seq'])
      .execute();
    await db.schema
      .createTable('concurrency_groups')
      .addColumn('project_id', 'varchar(36)', (c) =>
        c.notNull().references('projects.id').onDelete('cascade'),
      )
      .addColumn('name', 'varchar(120)', (c) => c.notNull())
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('concurrency_groups_pk', ['project_id', 'name'])
      .execute();
  },
};
