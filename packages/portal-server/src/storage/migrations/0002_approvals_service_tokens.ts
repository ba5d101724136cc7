// Write approvals (the spec's Approval record) and bot service tokens (hash only).
import type { Migration } from 'kysely';

export const m0002ApprovalsServiceTokens: Migration = {
  async up(db) {
    await db.schema
      .createTable('approvals')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('datasource_id', 'varchar(200)', (c) => c.notNull())
      .addColumn('datasource_name', 'varchar(200)', (c) => c.notNull())
      .addColumn('requester', 'varchar(320)', (c) => c.notNull())
      .addColumn('statement', 'text', (c) => c.notNull())
      .addColumn('statement_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('route', 'varchar(100)', (c) => c.notNull())
      .addColumn('status', 'varchar(20)', (c) => c.notNull())
      .addColumn('requested_at', 'varchar(40)', (c) => c.notNull())
      .addColumn('reviewer', 'varchar(320)')
      .addColumn('reviewed_at', 'varchar(40)')
      .addColumn('window_until', 'varchar(40)')
      .addColumn('guardrail', 'varchar(40)')
      .addColumn('approvals', 'text', (c) => c.notNull())
      .addColumn('approved_by', 'text')
      .addColumn('ticket', 'varchar(120)')
      .addColumn('note', 'text')
      .addColumn('version', 'integer', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('approvals_status_requested')
      .on('approvals')
      .columns(['status', 'requested_at'])
      .execute();
    await db.schema
      .createIndex('approvals_lookup')
      .on('approvals')
      .columns(['datasource_id', 'requester', 'statement_hash'])
      .execute();

    await db.schema
      .createTable('service_tokens')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('name', 'varchar(200)', (c) => c.notNull())
      .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('prefix', 'varchar(20)', (c) => c.notNull())
      .addColumn('role', 'varchar(20)', (c) => c.notNull())
      .addColumn('groups', 'text', (c) => c.notNull())
      .addColumn('datasources', 'text')
      .addColumn('require_approval', 'integer', (c) => c.notNull())
      .addColumn('trusted_approvals', 'integer', (c) => c.notNull())
      .addColumn('created_by', 'varchar(320)')
      .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
      .addColumn('last_used_at', 'varchar(40)')
      .addColumn('revoked_at', 'varchar(40)')
      .execute();
  },
};
