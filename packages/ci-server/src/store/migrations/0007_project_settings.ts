// Per-project settings kept as JSON documents by key (`log_archive`, `notifications`), removed with their
// project. Identical on SQLite and PostgreSQL.
import type { Kysely, Migration } from 'kysely';

export const m0007ProjectSettings: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('project_settings')
      .addColumn('project_id', 'varchar(36)', (c) =>
        c.notNull().references('projects.id').onDelete('cascade'),
      )
      .addColumn('key', 'varchar(100)', (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(40)', (c) => c.notNull())
      .addPrimaryKeyConstraint('project_settings_pk', ['project_id', 'key'])
      .execute();
  },
};
