// Forward-only schema migrations of the control plane's store, identical on SQLite and PostgreSQL.
// Append new entries; never edit one that has shipped.
import type { Migrations } from '@app/kit';

export const migrations: Migrations = {
  '0001_server_settings': {
    async up(db) {
      await db.schema
        .createTable('server_settings')
        .addColumn('key', 'varchar(200)', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(40)', (c) => c.notNull())
        .execute();
    },
  },
};
