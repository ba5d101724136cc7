// Key/value settings the server keeps about itself (runtime configuration changed through the API).
import type { Migration } from 'kysely';

export const m0001ServerSettings: Migration = {
  async up(db) {
    await db.schema
      .createTable('server_settings')
      .addColumn('key', 'varchar(200)', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(40)', (c) => c.notNull())
      .execute();
  },
};
