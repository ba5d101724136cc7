// Agent identity: each agent, once registered with the shared registration token, gets its own credential.
// Only its SHA-256 hash is stored (`credential_hash`, unique, so a credential finds its agent in one indexed
// lookup). `revoked_at` marks an agent an admin revoked: its credential is refused from then on and its name
// cannot be registered again with the registration token. The rotated registration token (when an admin
// rotated it) lives in server_settings as a hash, not here.
import type { Kysely, Migration } from 'kysely';

export const m0010AgentIdentity: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('agents').addColumn('credential_hash', 'varchar(64)').execute();
    await db.schema.alterTable('agents').addColumn('revoked_at', 'varchar(40)').execute();
    await db.schema
      .createIndex('agents_credential_hash')
      .on('agents')
      .column('credential_hash')
      .unique()
      .execute();
  },
};
