// The enabled OIDC providers: those of CI_CONFIG (`auth.oidc_providers`) followed by those added through the
// admin API (stored with the client secret sealed). Discovery documents are fetched on first use and cached
// until `reload()`; a failed discovery is not cached, so the next sign-in tries again.
import { ConfigError, type SecretBox } from '@app/kit';
import * as oidc from 'openid-client';
import { listProviderRows, type ProviderRow } from '../../store/auth-providers.js';
import type { StoreDb } from '../../store/database.js';
import { type ProviderDefinition, parseProviderDefinition } from './provider-config.js';
import type { DefaultRole, RoleMap } from './roles.js';

export interface ProviderEntry extends ProviderDefinition {
  /** UUID for providers stored in the database, `config:<name>` for those of CI_CONFIG. */
  id: string;
  source: 'config' | 'database';
  created_at: string | null;
  updated_at: string | null;
}

/** What the admin API shows of a provider: everything but the client secret. */
export function providerView(entry: ProviderEntry) {
  return {
    id: entry.id,
    name: entry.name,
    display: entry.display,
    issuer: entry.issuer,
    client_id: entry.client_id,
    has_client_secret: entry.client_secret !== undefined,
    scopes: entry.scopes,
    role_claim: entry.role_claim,
    role_map: entry.role_map,
    default_role: entry.default_role,
    source: entry.source,
    created_at: entry.created_at,
    updated_at: entry.updated_at,
  };
}

export const providerSecretAad = (id: string) => `auth_provider:${id}`;

/** Providers of the CI_CONFIG document; a bad definition stops the server with every problem listed. */
export function providersFromConfig(file: Record<string, unknown>): ProviderEntry[] {
  const auth = file.auth as Record<string, unknown> | undefined;
  const list = auth?.oidc_providers;
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw new ConfigError(['CI_CONFIG auth.oidc_providers: must be a list']);
  const problems: string[] = [];
  const out: ProviderEntry[] = [];
  list.forEach((item, i) => {
    const parsed = parseProviderDefinition(item);
    if (!parsed.ok) {
      for (const p of parsed.problems) problems.push(`CI_CONFIG auth.oidc_providers[${i}]: ${p}`);
      return;
    }
    if (out.some((e) => e.name === parsed.value.name))
      problems.push(`CI_CONFIG auth.oidc_providers[${i}]: name "${parsed.value.name}" is used twice`);
    out.push({
      ...parsed.value,
      id: `config:${parsed.value.name}`,
      source: 'config',
      created_at: null,
      updated_at: null,
    });
  });
  if (problems.length > 0) throw new ConfigError(problems);
  return out;
}

function fromRow(row: ProviderRow, box: SecretBox): ProviderEntry {
  return {
    id: row.id,
    name: row.name,
    display: row.display,
    issuer: row.issuer,
    client_id: row.client_id,
    ...(row.client_secret_sealed
      ? { client_secret: box.open(row.client_secret_sealed, providerSecretAad(row.id)) }
      : {}),
    scopes: JSON.parse(row.scopes) as string[],
    role_claim: row.role_claim,
    role_map: JSON.parse(row.role_map) as RoleMap,
    default_role: row.default_role as DefaultRole,
    source: 'database',
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export class ProviderUnavailableError extends Error {
  override name = 'ProviderUnavailableError';
}

export class ProviderRegistry {
  private entries: ProviderEntry[] | undefined;
  private readonly discovered = new Map<string, Promise<oidc.Configuration>>();

  constructor(
    private readonly db: StoreDb,
    private readonly box: SecretBox,
    private readonly fromConfig: ProviderEntry[],
  ) {}

  /** Re-reads stored providers and forgets cached discovery documents. */
  async reload(): Promise<ProviderEntry[]> {
    const rows = await listProviderRows(this.db);
    const names = new Set(this.fromConfig.map((e) => e.name));
    // A stored provider cannot shadow one of the configuration file (creation refuses it too).
    const stored = rows.filter((r) => !names.has(r.name)).map((r) => fromRow(r, this.box));
    this.entries = [...this.fromConfig, ...stored];
    this.discovered.clear();
    return this.entries;
  }

  async list(): Promise<ProviderEntry[]> {
    return this.entries ?? this.reload();
  }

  async get(name: string): Promise<ProviderEntry | undefined> {
    return (await this.list()).find((e) => e.name === name);
  }

  /** The openid-client configuration of a provider (discovery on first use). */
  configuration(entry: ProviderEntry): Promise<oidc.Configuration> {
    const key = `${entry.id}\n${entry.issuer}\n${entry.client_id}`;
    let pending = this.discovered.get(key);
    if (!pending) {
      const issuer = new URL(entry.issuer);
      pending = oidc
        .discovery(
          issuer,
          entry.client_id,
          entry.client_secret,
          entry.client_secret ? oidc.ClientSecretPost(entry.client_secret) : oidc.None(),
          {
            timeout: 10,
            // Plain http is only accepted for loopback issuers (validated with the definition).
            execute: issuer.protocol === 'http:' ? [oidc.allowInsecureRequests] : [],
          },
        )
        .catch((err: Error) => {
          this.discovered.delete(key);
          throw new ProviderUnavailableError(
            `identity provider "${entry.name}" could not be reached: ${err.message}`,
          );
        });
      this.discovered.set(key, pending);
    }
    return pending;
  }
}
