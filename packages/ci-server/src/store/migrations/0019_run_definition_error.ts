// Pipelines as code (issue 29): a run triggered by a push whose repository definition did not apply runs the
// last good definition; the run keeps why the pushed one failed, so its page says so long after the project's
// binding has moved on to later commits.
import type { Kysely, Migration } from 'kysely';

export const m0019RunDefinitionError: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('runs').addColumn('definition_error', 'text').execute();
  },
};
