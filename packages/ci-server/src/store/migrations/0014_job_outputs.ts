// Job outputs (gocdnext's `outputs:`, docs/ci-gocdnext.md): the declared values a successful job attempt
// returned, as a JSON object alias → value, stored with its success so that a later job's
// `${{ needs.<job>.outputs.<alias> }}` reads one consistent snapshot at dispatch. Null for jobs without outputs.
import type { Kysely, Migration } from 'kysely';

export const m0014JobOutputs: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('job_runs').addColumn('outputs', 'text').execute();
  },
};
