// Authentication and administration tables: users, server-side sessions, API and service-account tokens,
// preferences, OIDC providers added through the API, the audit log and global secrets. Only hashes of
// passwords, session cookies and tokens are stored; secrets are sealed (see docs/ci-auth.md).
import { type Kysely, type Migration, PostgresAdapter } from 'kysely';

const ts = 'varchar(40)';

export const m0003Auth: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('users')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('username', 'varchar(200)', (c) => c.notNull())
      .addColumn('username_key', 'varchar(200)', (c) => c.notNull().unique())
      .addColumn('email', 'varchar(320)')
      .addColumn('role', 'varchar(20)', (c) => c.notNull())
      .addColumn('password_hash', 'varchar(255)')
      .addColumn('provider', 'varchar(100)', (c) => c.notNull())
      .addColumn('subject', 'varchar(255)')
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('updated_at', ts, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('users_provider_subject')
      .on('users')
      .columns(['provider', 'subject'])
      .unique()
      .execute();

    await db.schema
      .createTable('user_sessions')
      .addColumn('id_hash', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('last_seen_at', ts, (c) => c.notNull())
      .addColumn('expires_at', ts, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('user_sessions_user').on('user_sessions').column('user_id').execute();
    await db.schema.createIndex('user_sessions_expires').on('user_sessions').column('expires_at').execute();

    await db.schema
      .createTable('service_accounts')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('name', 'varchar(200)', (c) => c.notNull())
      .addColumn('name_key', 'varchar(200)', (c) => c.notNull().unique())
      .addColumn('role', 'varchar(20)', (c) => c.notNull())
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('created_by', 'varchar(200)')
      .execute();

    await db.schema
      .createTable('api_tokens')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('name', 'varchar(200)', (c) => c.notNull())
      .addColumn('prefix', 'varchar(20)', (c) => c.notNull())
      .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('user_id', 'varchar(36)', (c) => c.references('users.id').onDelete('cascade'))
      .addColumn('service_account_id', 'varchar(36)', (c) =>
        c.references('service_accounts.id').onDelete('cascade'),
      )
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('expires_at', ts)
      .addColumn('last_used_at', ts)
      .addColumn('revoked_at', ts)
      .execute();
    await db.schema.createIndex('api_tokens_user').on('api_tokens').column('user_id').execute();
    await db.schema
      .createIndex('api_tokens_service_account')
      .on('api_tokens')
      .column('service_account_id')
      .execute();

    await db.schema
      .createTable('user_preferences')
      .addColumn('owner_id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('preferences', 'text', (c) => c.notNull())
      .addColumn('updated_at', ts, (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('auth_providers')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('name', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('display', 'varchar(200)', (c) => c.notNull())
      .addColumn('issuer', 'varchar(2000)', (c) => c.notNull())
      .addColumn('client_id', 'varchar(500)', (c) => c.notNull())
      .addColumn('client_secret_sealed', 'text')
      .addColumn('scopes', 'text', (c) => c.notNull())
      .addColumn('role_claim', 'varchar(500)')
      .addColumn('role_map', 'text', (c) => c.notNull())
      .addColumn('default_role', 'varchar(20)', (c) => c.notNull())
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('updated_at', ts, (c) => c.notNull())
      .execute();

    // An ever-increasing sequence orders the log; its SQL differs per dialect.
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    await db.schema
      .createTable('audit_log')
      .addColumn('seq', postgres ? 'bigserial' : 'integer', (c) =>
        postgres ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn('id', 'varchar(36)', (c) => c.notNull().unique())
      .addColumn('at', ts, (c) => c.notNull())
      .addColumn('actor', 'varchar(255)', (c) => c.notNull())
      .addColumn('action', 'varchar(300)', (c) => c.notNull())
      .addColumn('target', 'varchar(500)')
      .addColumn('status', 'integer', (c) => c.notNull())
      .addColumn('details', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('audit_log_at').on('audit_log').column('at').execute();
    await db.schema.createIndex('audit_log_actor').on('audit_log').columns(['actor', 'seq']).execute();
    await db.schema.createIndex('audit_log_action').on('audit_log').columns(['action', 'seq']).execute();

    await db.schema
      .createTable('global_secrets')
      .addColumn('name', 'varchar(200)', (c) => c.primaryKey())
      .addColumn('value_sealed', 'text', (c) => c.notNull())
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('updated_at', ts, (c) => c.notNull())
      .execute();
  },
};
