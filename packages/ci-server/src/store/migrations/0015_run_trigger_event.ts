// The trigger event of a run (push, pull_request, tag; null for a run started by a person or a schedule,
// whose event follows from its cause). A job's OIDC token (gocdnext's `id_tokens`) needs it: a pull
// request's or a tag's `sub` must not read as a branch's, and the run's ref alone cannot tell them apart.
import type { Kysely, Migration } from 'kysely';

export const m0015RunTriggerEvent: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('runs').addColumn('trigger_event', 'varchar(20)').execute();
  },
};
