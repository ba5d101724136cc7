// SCM credentials: a username and a token or password for the repositories under a URL prefix
// (`https://git.example.com/org` covers every repository of org), sealed with the server's secret box and
// never returned. `credentialsFor(url)` picks the longest prefix matching a repository URL in one indexed
// query; polling uses it, and checkouts of private repositories can ask it the same way.
import { badRequest, notFound, type SecretBox } from '@app/kit';
import { normaliseGitUrl } from '../domain/index.js';
import type { StoreDb } from '../store/database.js';
import { newId, nowIso } from '../store/ids.js';
import type { GitCredentials } from './git.js';

export interface CredentialView {
  id: string;
  url: string;
  prefix: string;
  username: string;
  description: string | null;
  has_secret: boolean;
  created_at: string;
  updated_at: string;
}

export interface CredentialInput {
  url: string;
  username?: string;
  secret: string;
  description?: string;
}

/** Username used when none is given: what GitHub expects with a token (GitLab and others accept any). */
export const DEFAULT_USERNAME = 'x-access-token';
const SECRET_MAX = 16 * 1024;
const aad = (prefix: string) => `scm-credential\u0000${prefix}`;

/** The normalised prefix of a URL given for a credential: `https://Git.Example.com/org/` → `git.example.com/org`. */
export function credentialPrefix(url: string): string {
  const raw = url.trim();
  let parsed: URL;
  try {
    parsed = new URL(raw.includes('://') ? raw : `https://${raw}`);
  } catch {
    throw badRequest(`"${url}" is not a URL; give the https address of a host, group or repository`);
  }
  if (parsed.username || parsed.password)
    throw badRequest('the URL must not carry credentials; give them as username and secret');
  if (!['http:', 'https:'].includes(parsed.protocol))
    throw badRequest(`credentials apply to http and https URLs, not ${parsed.protocol}`);
  return normaliseGitUrl(parsed.toString()).replace(/\/+$/, '');
}

/** Every prefix a repository key could be covered by, longest first: a/b/c → a/b/c, a/b, a. */
function prefixesOf(key: string): string[] {
  const parts = key.split('/');
  const out: string[] = [];
  for (let i = parts.length; i >= 1; i--) out.push(parts.slice(0, i).join('/'));
  return out;
}

/**
 * The stored credential for a repository URL (longest matching prefix), opened with the server's secret box;
 * null when none applies. For code outside the triggers (checkouts of private repositories).
 */
export function credentialsFor(db: StoreDb, box: SecretBox, url: string): Promise<GitCredentials | null> {
  return new ScmCredentials(db, box).credentialsFor(url);
}

export class ScmCredentials {
  constructor(
    private readonly db: StoreDb,
    private readonly box: SecretBox,
  ) {}

  async list(): Promise<CredentialView[]> {
    const rows = await this.db
      .selectFrom('scm_credentials')
      .select(['id', 'url', 'prefix', 'username', 'description', 'created_at', 'updated_at'])
      .orderBy('prefix')
      .limit(10_000)
      .execute();
    return rows.map((r) => ({ ...r, has_secret: true }));
  }

  /** Stores a credential; the same prefix again replaces it (`created` false). */
  async put(input: CredentialInput): Promise<{ created: boolean; credential: CredentialView }> {
    const prefix = credentialPrefix(input.url);
    if (input.secret === '') throw badRequest('the secret is empty');
    if (Buffer.byteLength(input.secret) > SECRET_MAX)
      throw badRequest(`the secret is larger than ${SECRET_MAX} bytes`);
    const username = input.username?.trim() || DEFAULT_USERNAME;
    const sealed = this.box.seal(input.secret, aad(prefix));
    const now = nowIso();
    const description = input.description ?? null;
    const url = input.url.trim();
    return this.db.transaction().execute(async (trx) => {
      const existing = await trx
        .selectFrom('scm_credentials')
        .select(['id', 'created_at'])
        .where('prefix', '=', prefix)
        .executeTakeFirst();
      const id = existing?.id ?? newId();
      const created_at = existing?.created_at ?? now;
      await trx
        .insertInto('scm_credentials')
        .values({
          id,
          prefix,
          url,
          username,
          secret_sealed: sealed,
          description,
          created_at,
          updated_at: now,
        })
        .onConflict((oc) =>
          oc
            .column('prefix')
            .doUpdateSet({ url, username, secret_sealed: sealed, description, updated_at: now }),
        )
        .execute();
      return {
        created: !existing,
        credential: { id, url, prefix, username, description, has_secret: true, created_at, updated_at: now },
      };
    });
  }

  async delete(id: string): Promise<void> {
    const r = await this.db.deleteFrom('scm_credentials').where('id', '=', id).executeTakeFirst();
    if (Number(r.numDeletedRows) === 0) throw notFound(`SCM credential ${id} not found`);
  }

  /** The credential of the longest prefix covering `url`, opened; null when none applies. */
  async credentialsFor(url: string): Promise<GitCredentials | null> {
    const key = normaliseGitUrl(url);
    if (key.startsWith('file:')) return null;
    const candidates = prefixesOf(key);
    const rows = await this.db
      .selectFrom('scm_credentials')
      .select(['prefix', 'username', 'secret_sealed'])
      .where('prefix', 'in', candidates)
      .execute();
    if (rows.length === 0) return null;
    rows.sort((a, b) => b.prefix.length - a.prefix.length);
    const best = rows[0];
    return { username: best.username, password: this.box.open(best.secret_sealed, aad(best.prefix)) };
  }
}
