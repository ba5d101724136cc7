// Users' saved connections. Credential fields are sealed with the storage key before they reach the table
// (bound to owner and id, so a sealed value copied into another row does not open), and reads return the
// descriptor without them unless the caller is the execution layer asking for the full definition.
import type { SecretBox } from '@app/kit';
import type { Kysely } from 'kysely';
import type { PortalDatabase, SavedConnectionTable } from './schema.js';

/** Descriptor fields that carry credentials or key material: never stored in clear, never listed. */
export const CONNECTION_SECRET_FIELDS = [
  'password',
  'agentPassword',
  'connectionString',
  'sshTunnel',
  'ssl',
] as const;

export type ConnectionDescriptor = Record<string, unknown> & { id: string; name: string; type: string };

/** A saved connection as listed: no credential fields, plus the names of those that are stored. */
export type SavedConnection = ConnectionDescriptor & {
  storedSecrets: string[];
  createdAt: string;
  updatedAt: string;
};

function isSecretField(key: string, value: unknown): boolean {
  // `ssl: true` is a switch, not key material; an SSL object may hold a private key.
  if (key === 'ssl') return typeof value === 'object' && value !== null;
  return (CONNECTION_SECRET_FIELDS as readonly string[]).includes(key);
}

export class SavedConnectionRepository {
  constructor(
    private readonly db: Kysely<PortalDatabase>,
    private readonly box: SecretBox,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private aad(owner: string, id: string): string {
    return `portal-connection\0${owner}\0${id}`;
  }

  private openSecrets(row: SavedConnectionTable): Record<string, unknown> {
    if (!row.sealed) return {};
    return JSON.parse(this.box.open(row.sealed, this.aad(row.owner, row.id))) as Record<string, unknown>;
  }

  private toPublic(row: SavedConnectionTable): SavedConnection {
    const descriptor = JSON.parse(row.descriptor) as ConnectionDescriptor;
    const stored = row.sealed ? Object.keys(this.openSecrets(row)) : [];
    return {
      ...descriptor,
      id: row.id,
      name: row.name,
      type: row.type,
      storedSecrets: stored.sort(),
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
  }

  async list(owner: string): Promise<SavedConnection[]> {
    const rows = await this.db
      .selectFrom('saved_connections')
      .selectAll()
      .where('owner', '=', owner)
      .orderBy('name')
      .orderBy('id')
      .execute();
    return rows.map((r) => this.toPublic(r));
  }

  async get(owner: string, id: string): Promise<SavedConnection | undefined> {
    const row = await this.row(owner, id);
    return row && this.toPublic(row);
  }

  /** The full descriptor with credentials opened: for the server's own use, never for a response. */
  async getWithSecrets(owner: string, id: string): Promise<ConnectionDescriptor | undefined> {
    const row = await this.row(owner, id);
    if (!row) return undefined;
    return { ...(JSON.parse(row.descriptor) as ConnectionDescriptor), ...this.openSecrets(row) };
  }

  private row(owner: string, id: string) {
    return this.db
      .selectFrom('saved_connections')
      .selectAll()
      .where('owner', '=', owner)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /**
   * Creates or replaces a saved connection. A credential field left out keeps its stored value (so a form
   * need not echo the password back); a credential field set to null removes it.
   */
  async upsert(
    owner: string,
    input: ConnectionDescriptor,
  ): Promise<{ connection: SavedConnection; created: boolean }> {
    const at = this.now().toISOString();
    return this.db.transaction().execute(async (trx) => {
      const existing = await trx
        .selectFrom('saved_connections')
        .selectAll()
        .where('owner', '=', owner)
        .where('id', '=', input.id)
        .executeTakeFirst();
      const secrets: Record<string, unknown> = existing ? this.openSecrets(existing) : {};
      const plain: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(input)) {
        if (key === 'storedSecrets' || key === 'createdAt' || key === 'updatedAt') continue;
        if ((CONNECTION_SECRET_FIELDS as readonly string[]).includes(key) && value === null) {
          delete secrets[key];
        } else if (isSecretField(key, value)) {
          secrets[key] = value;
        } else {
          if (key === 'ssl') delete secrets.ssl;
          plain[key] = value;
        }
      }
      const sealed =
        Object.keys(secrets).length > 0
          ? this.box.seal(JSON.stringify(secrets), this.aad(owner, input.id))
          : null;
      const values = {
        name: input.name,
        type: input.type,
        descriptor: JSON.stringify(plain),
        sealed,
        updated_at: at,
      };
      if (existing) {
        await trx
          .updateTable('saved_connections')
          .set(values)
          .where('owner', '=', owner)
          .where('id', '=', input.id)
          .execute();
      } else {
        await trx
          .insertInto('saved_connections')
          .values({ ...values, owner, id: input.id, created_at: at })
          .execute();
      }
      const row = await trx
        .selectFrom('saved_connections')
        .selectAll()
        .where('owner', '=', owner)
        .where('id', '=', input.id)
        .executeTakeFirstOrThrow();
      return { connection: this.toPublic(row), created: !existing };
    });
  }

  async delete(owner: string, id: string): Promise<boolean> {
    const res = await this.db
      .deleteFrom('saved_connections')
      .where('owner', '=', owner)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }
}
