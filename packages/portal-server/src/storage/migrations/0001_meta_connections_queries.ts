// Storage metadata (the key check), users' saved connections with sealed credentials, saved queries and
// query history.
import type { Migration } from 'kysely';
import { withAutoId } from './ids.js';

export const m0001MetaConnectionsQueries: Migration = {
  async up(db) {
    await db.schema
      .createTable('storage_meta')
      .addColumn('key', 'varchar(100)', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('saved_connections')
      .addColumn('owner', 'varchar(320)', (c) => c.notNull())
      .addColumn('id', 'varchar(200)', (c) => c.notNull())
      .addColumn('name', 'varchar(200)', (c) => c.notNull())
      .addColumn('type', 'varchar(40)', (c) => c.notNull())
      .addColumn('descriptor', 'text', (c) => c.notNull())
      .addColumn('sealed', 'text')
      .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(40)', (c) => c.notNull())
      .addPrimaryKeyConstraint('saved_connections_pk', ['owner', 'id'])
      .execute();

    await db.schema
      .createTable('saved_queries')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('owner', 'varchar(320)', (c) => c.notNull())
      .addColumn('name', 'varchar(200)', (c) => c.notNull())
      .addColumn('sql', 'text', (c) => c.notNull())
      .addColumn('connection_id', 'varchar(200)')
      .addColumn('description', 'text')
      .addColumn('tags', 'text', (c) => c.notNull())
      .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(40)', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('saved_queries_owner')
      .on('saved_queries')
      .columns(['owner', 'updated_at'])
      .execute();

    await withAutoId(db, db.schema.createTable('query_history'))
      .addColumn('owner', 'varchar(320)', (c) => c.notNull())
      .addColumn('connection_id', 'varchar(200)')
      .addColumn('connection_name', 'varchar(200)')
      .addColumn('sql', 'text', (c) => c.notNull())
      .addColumn('status', 'varchar(20)', (c) => c.notNull())
      .addColumn('row_count', 'integer')
      .addColumn('duration_ms', 'integer')
      .addColumn('error', 'text')
      .addColumn('executed_at', 'varchar(40)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('query_history_owner').on('query_history').columns(['owner', 'id']).execute();
  },
};
