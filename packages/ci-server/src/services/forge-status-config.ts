// A project's commit-status configuration (docs/ci-triggers.md, "Commit statuses"): which forge its runs
// report to, at which API root, on which repository (default: the pipeline's git material), under which
// status-name prefix. The document lives in `project_settings` (key `commit_status`); the token is the
// project secret COMMIT_STATUS_TOKEN, sealed like every project secret and never returned — `has_token`
// says whether one is set.
import { badRequest, type SecretBox } from '@app/kit';
import {
  DEFAULT_API_URL,
  DEFAULT_CONTEXT_PREFIX,
  FORGE_STATUS_SETTING,
  FORGE_STATUS_TOKEN_SECRET,
  type ForgeHost,
  type ForgeStatusConfig,
  parseForgeStatusConfig,
  validRepository,
} from '../domain/forge-status.js';
import type { StoreDb } from '../store/database.js';
import { projectIdOf } from '../store/lookups.js';
import { readProjectSetting, writeProjectSetting } from '../store/settings.js';
import { deleteSecret, putSecret } from './secrets.js';

export interface ForgeStatusView {
  host: ForgeHost | null;
  /** The API root in use (the host's public API unless set). */
  api_url: string | null;
  repository: string | null;
  username: string | null;
  context_prefix: string;
  has_token: boolean;
  updated_at: string | null;
}

export interface ForgeStatusInput {
  host: ForgeHost;
  api_url?: string | null;
  repository?: string | null;
  username?: string | null;
  context_prefix?: string;
  token?: string;
}

const PREFIX = /^[A-Za-z0-9][A-Za-z0-9_.\-/]{0,99}$/;

function checkApiUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw badRequest(`api_url "${text}" is not a URL; give the API root, e.g. https://api.github.com`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw badRequest(`api_url must be http or https, not ${url.protocol}`);
  if (url.username || url.password)
    throw badRequest('api_url must not carry credentials; give the token in "token"');
  if (url.search || url.hash) throw badRequest('api_url must not carry a query or a fragment');
  return url.toString().replace(/\/+$/, '');
}

async function hasToken(db: StoreDb, projectId: string): Promise<boolean> {
  const row = await db
    .selectFrom('project_secrets')
    .select('name')
    .where('project_id', '=', projectId)
    .where('name', '=', FORGE_STATUS_TOKEN_SECRET)
    .executeTakeFirst();
  return row !== undefined;
}

export async function readForgeStatus(db: StoreDb, slug: string): Promise<ForgeStatusView> {
  const id = await projectIdOf(db, slug);
  const row = await readProjectSetting(db, id, FORGE_STATUS_SETTING);
  const config = parseForgeStatusConfig(row?.value);
  return {
    host: config?.host ?? null,
    api_url: config ? (config.api_url ?? DEFAULT_API_URL[config.host]) : null,
    repository: config?.repository ?? null,
    username: config?.username ?? null,
    context_prefix: config?.context_prefix ?? DEFAULT_CONTEXT_PREFIX,
    has_token: await hasToken(db, id),
    updated_at: config ? (row?.updated_at ?? null) : null,
  };
}

/** Replaces the configuration (fields left out take their defaults); a token given replaces the stored one. */
export async function writeForgeStatus(
  db: StoreDb,
  box: SecretBox,
  slug: string,
  input: ForgeStatusInput,
): Promise<ForgeStatusView> {
  const id = await projectIdOf(db, slug);
  const repository = input.repository?.trim() || null;
  if (repository !== null && !validRepository(repository, input.host))
    throw badRequest(
      input.host === 'gitlab'
        ? `repository "${repository}" is not a GitLab project path (group/project)`
        : `repository "${repository}" is not owner/name`,
    );
  const prefix = input.context_prefix ?? DEFAULT_CONTEXT_PREFIX;
  if (!PREFIX.test(prefix))
    throw badRequest(
      'context_prefix is 1 to 100 letters, digits and _ . - / characters, starting with a letter or digit',
    );
  if (input.token !== undefined && input.token.trim() === '') throw badRequest('the token is empty');
  const config: ForgeStatusConfig = {
    host: input.host,
    api_url: input.api_url ? checkApiUrl(input.api_url.trim()) : null,
    repository,
    username: input.username?.trim() || null,
    context_prefix: prefix,
  };
  if (input.token !== undefined) await putSecret(db, box, slug, FORGE_STATUS_TOKEN_SECRET, input.token);
  await writeProjectSetting(db, id, FORGE_STATUS_SETTING, JSON.stringify(config));
  return readForgeStatus(db, slug);
}

/** Stops reporting: removes the configuration and the token. */
export async function deleteForgeStatus(db: StoreDb, slug: string): Promise<void> {
  const id = await projectIdOf(db, slug);
  await writeProjectSetting(db, id, FORGE_STATUS_SETTING, null);
  if (await hasToken(db, id)) await deleteSecret(db, slug, FORGE_STATUS_TOKEN_SECRET);
}
