// Bot service tokens. Only the SHA-256 of a secret is stored; the secret (`pst_…`) is returned once by
// `create` and afterwards a presented secret is looked up by its hash.
import { randomUUID } from 'node:crypto';
import { hashToken, randomToken } from '@app/kit';
import type { Kysely } from 'kysely';
import type { PortalDatabase, ServiceTokenTable } from './schema.js';

export const SERVICE_TOKEN_PREFIX = 'pst_';

/** The token as decisions.md shapes it, plus bookkeeping that is safe to show. */
export interface ServiceToken {
  id: string;
  name: string;
  role: string;
  groups: string[];
  datasources: string[] | null;
  requireApproval: boolean;
  trustedApprovals: boolean;
  created_at: string;
  prefix: string;
  created_by: string | null;
  last_used_at: string | null;
}

export interface NewServiceToken {
  name: string;
  role: string;
  groups?: string[];
  /** Allowlist of datasource ids; null or absent admits every datasource the role may use. */
  datasources?: string[] | null;
  requireApproval?: boolean;
  trustedApprovals?: boolean;
  createdBy?: string;
}

function toToken(row: ServiceTokenTable): ServiceToken {
  return {
    id: row.id,
    name: row.name,
    role: row.role,
    groups: JSON.parse(row.groups) as string[],
    datasources: row.datasources ? (JSON.parse(row.datasources) as string[]) : null,
    requireApproval: row.require_approval === 1,
    trustedApprovals: row.trusted_approvals === 1,
    created_at: row.created_at,
    prefix: row.prefix,
    created_by: row.created_by,
    last_used_at: row.last_used_at,
  };
}

export class ServiceTokenRepository {
  constructor(
    private readonly db: Kysely<PortalDatabase>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Mints a token; the answer's `secret` is the only time the secret exists outside the caller. */
  async create(input: NewServiceToken): Promise<{ token: ServiceToken; secret: string }> {
    const secret = randomToken(SERVICE_TOKEN_PREFIX, 32);
    const row: ServiceTokenTable = {
      id: randomUUID(),
      name: input.name,
      token_hash: hashToken(secret),
      prefix: secret.slice(0, SERVICE_TOKEN_PREFIX.length + 6),
      role: input.role,
      groups: JSON.stringify(input.groups ?? []),
      datasources: input.datasources ? JSON.stringify(input.datasources) : null,
      require_approval: input.requireApproval ? 1 : 0,
      trusted_approvals: input.trustedApprovals ? 1 : 0,
      created_by: input.createdBy ?? null,
      created_at: this.now().toISOString(),
      last_used_at: null,
      revoked_at: null,
    };
    await this.db.insertInto('service_tokens').values(row).execute();
    return { token: toToken(row), secret };
  }

  /** Tokens not revoked, oldest first. */
  async list(): Promise<ServiceToken[]> {
    const rows = await this.db
      .selectFrom('service_tokens')
      .selectAll()
      .where('revoked_at', 'is', null)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toToken);
  }

  async get(id: string): Promise<ServiceToken | undefined> {
    const row = await this.db
      .selectFrom('service_tokens')
      .selectAll()
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return row && toToken(row);
  }

  /** The live token a presented secret belongs to (lookup by hash, so no secret comparison is needed). */
  async findBySecret(secret: string): Promise<ServiceToken | undefined> {
    if (!secret.startsWith(SERVICE_TOKEN_PREFIX)) return undefined;
    const row = await this.db
      .selectFrom('service_tokens')
      .selectAll()
      .where('token_hash', '=', hashToken(secret))
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return row && toToken(row);
  }

  async touch(id: string): Promise<void> {
    await this.db
      .updateTable('service_tokens')
      .set({ last_used_at: this.now().toISOString() })
      .where('id', '=', id)
      .execute();
  }

  /** Revokes a live token; false when there is none with this id. */
  async revoke(id: string): Promise<boolean> {
    const res = await this.db
      .updateTable('service_tokens')
      .set({ revoked_at: this.now().toISOString() })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }
}
