// Pipelines as code (issue 29, spec/pipeline-yaml.md "a project's `.gocdnext/` folder read from its
// repository"; docs/ci-gocdnext.md). A project bound to a repository (url, branch, folder — `.gocdnext` by
// default, or one file) takes its pipelines from that folder and from our bundle file at the repository root
// (domain/repository-definition.ts): at binding, on a push the webhook delivers,
// on a poll that sees the branch move, and on a project sync, the files are read at that commit and applied
// with the apply route's semantics (a full declaration, idempotent). Pipelines without a git or upstream
// material get the repository as their implicit material (domain/implicit-material.ts). A definition that
// does not apply records its errors with the revision and changes nothing: the last good pipelines stay.
import {
  assembleRepositoryDefinition,
  BUNDLE_FILE,
  formatBundleError,
  normaliseGitUrl,
  parseDuration,
  SLUG,
  withImplicitMaterial,
} from '../domain/index.js';
import { applyBundle } from '../services/apply.js';
import type { StoreDb } from '../store/database.js';
import { newId, nowIso } from '../store/ids.js';
import { readProjectSetting, writeProjectSetting } from '../store/settings.js';
import type { ScmCredentials } from './credentials.js';
import { type GitRunner, readConfigFolder, scrub } from './git.js';

export const CONFIG_REPO_KEY = 'config_repo';
export const DEFAULT_CONFIG_PATH = '.gocdnext';
const DEFAULT_POLL_MS = 60_000;

export interface ConfigRepoInput {
  url: string;
  branch?: string;
  path?: string;
  /** A duration (`30s`, `5m`); `""` turns polling off (webhooks only). Default 1m. */
  poll_interval?: string;
}

/** What the project settings keep, and the API shows. */
export interface ConfigRepoState {
  url: string;
  branch: string;
  path: string;
  poll_interval: string;
  /** The commit whose definition is applied; null before the first good one. */
  applied_revision: string | null;
  /** The last commit read (good or not). */
  checked_revision: string | null;
  status: 'pending' | 'applied' | 'failed';
  /** Why the last read commit did not apply; null when it did. */
  error: string | null;
  synced_at: string | null;
}

export interface SyncOutcome {
  status: ConfigRepoState['status'];
  revision: string | null;
  error: string | null;
  /** Whether the applied definition changed. */
  changed: boolean;
}

export class ConfigRepoError extends Error {
  override name = 'ConfigRepoError';
}

const PATH_OK = /^(?!\/)(?!.*(^|\/)\.\.(\/|$))[A-Za-z0-9._\-/]{1,300}$/;
const BRANCH_OK = /^(?!-)(?!.*\.\.)[A-Za-z0-9._\-/]{1,200}$/;

/** Checks and completes a binding request; throws ConfigRepoError naming the bad field. */
export function configRepoOf(input: ConfigRepoInput): ConfigRepoState {
  const url = input.url?.trim() ?? '';
  if (url === '' || url.startsWith('-') || /\s/.test(url))
    throw new ConfigRepoError('url must be a repository URL git can fetch');
  const branch = (input.branch ?? 'main').replace(/^refs\/heads\//, '');
  if (!BRANCH_OK.test(branch)) throw new ConfigRepoError(`branch "${branch}" is not a branch name`);
  const path = (input.path ?? DEFAULT_CONFIG_PATH).replace(/\/+$/, '');
  if (!PATH_OK.test(path))
    throw new ConfigRepoError(
      `path "${path}" must be a repository-relative folder or file (no "..", no leading "/")`,
    );
  const interval = input.poll_interval ?? '1m';
  if (interval !== '' && parseDuration(interval) === null)
    throw new ConfigRepoError(`poll_interval "${interval}" is not a duration like 30s or 5m`);
  return {
    url,
    branch,
    path,
    poll_interval: interval,
    applied_revision: null,
    checked_revision: null,
    status: 'pending',
    error: null,
    synced_at: null,
  };
}

/**
 * Records on a run started by a push or a poll that the project's repository definition at the run's commit
 * did not apply (the run follows the last good definition, as the project page says), so the run's page shows
 * it with its cause. Nothing for a project without a binding, or when that commit applied.
 */
export async function noteFailedDefinition(db: StoreDb, runId: string): Promise<void> {
  const run = await db
    .selectFrom('runs')
    .select(['project_id', 'revision'])
    .where('id', '=', runId)
    .executeTakeFirst();
  if (!run?.revision) return;
  const row = await readProjectSetting(db, run.project_id, CONFIG_REPO_KEY);
  if (!row) return;
  const state = JSON.parse(row.value) as ConfigRepoState;
  if (state.status !== 'failed' || state.checked_revision !== run.revision || !state.error) return;
  await db.updateTable('runs').set({ definition_error: state.error }).where('id', '=', runId).execute();
}

export interface ConfigReposDeps {
  db: StoreDb;
  git: GitRunner;
  credentials: ScmCredentials;
  postgres: boolean;
  now: () => Date;
}

export class ConfigRepos {
  private readonly inFlight = new Map<string, Promise<SyncOutcome>>();
  private readonly lastPoll = new Map<string, number>();

  constructor(private readonly deps: ConfigReposDeps) {}

  async get(projectId: string): Promise<ConfigRepoState | null> {
    const row = await readProjectSetting(this.deps.db, projectId, CONFIG_REPO_KEY);
    return row ? (JSON.parse(row.value) as ConfigRepoState) : null;
  }

  private save(projectId: string, state: ConfigRepoState | null): Promise<void> {
    return writeProjectSetting(this.deps.db, projectId, CONFIG_REPO_KEY, state && JSON.stringify(state));
  }

  /** Binds (or rebinds) the project to the repository and applies its folder at the branch head at once. */
  async bind(projectId: string, input: ConfigRepoInput): Promise<ConfigRepoState> {
    const state = configRepoOf(input);
    const old = await this.get(projectId);
    const same = old && old.url === state.url && old.branch === state.branch && old.path === state.path;
    await this.save(projectId, same ? { ...old, poll_interval: state.poll_interval } : state);
    await this.sync(projectId, null, true);
    return (await this.get(projectId))!;
  }

  /** The project's id; a project that does not exist yet is created empty (its pipelines come from the repository). */
  async ensureProject(slug: string, name: string): Promise<string> {
    if (!SLUG.test(slug)) throw new ConfigRepoError(`"${slug}" is not a valid project slug`);
    const now = nowIso();
    await this.deps.db
      .insertInto('projects')
      .values({ id: newId(), slug, name, description: null, created_at: now, updated_at: now })
      .onConflict((oc) => oc.column('slug').doNothing())
      .execute();
    const row = await this.deps.db
      .selectFrom('projects')
      .select('id')
      .where('slug', '=', slug)
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async unbind(projectId: string): Promise<void> {
    await this.save(projectId, null);
  }

  /** Reads and applies the folder at `revision` (null: the branch head); one sync per project at a time. */
  sync(projectId: string, revision: string | null, force = false): Promise<SyncOutcome> {
    const running = this.inFlight.get(projectId);
    if (running) return running.then(() => this.sync(projectId, revision, force));
    const p = this.syncNow(projectId, revision, force).finally(() => this.inFlight.delete(projectId));
    this.inFlight.set(projectId, p);
    return p;
  }

  private async syncNow(projectId: string, revision: string | null, force: boolean): Promise<SyncOutcome> {
    const state = await this.get(projectId);
    if (!state)
      return {
        status: 'pending',
        revision: null,
        error: 'the project has no config repository',
        changed: false,
      };
    if (!force && revision !== null && revision === state.checked_revision)
      return { status: state.status, revision, error: state.error, changed: false };
    const project = await this.deps.db
      .selectFrom('projects')
      .select(['slug', 'name', 'description'])
      .where('id', '=', projectId)
      .executeTakeFirstOrThrow();
    let read: Awaited<ReturnType<typeof readConfigFolder>>;
    try {
      const creds = await this.deps.credentials.credentialsFor(state.url);
      read = await readConfigFolder(this.deps.git, `config-${projectId}`, { ...state, revision }, creds);
    } catch (err) {
      return this.record(projectId, state, revision, scrub((err as Error).message).slice(0, 2000), false);
    }
    if (!read.found)
      return this.record(
        projectId,
        state,
        read.revision,
        `neither ${state.path} nor ${BUNDLE_FILE} exists at ${read.revision.slice(0, 12)}`,
        false,
      );
    const result = assembleRepositoryDefinition(
      { slug: project.slug, name: project.name, description: project.description },
      read.files.map((f) => ({ name: f.name, text: f.content })),
    );
    if (!result.ok) {
      const shown = result.errors.slice(0, 20).map(formatBundleError).join('; ');
      return this.record(projectId, state, read.revision, `the definition does not apply: ${shown}`, false);
    }
    const interval =
      state.poll_interval === '' ? undefined : (parseDuration(state.poll_interval) ?? DEFAULT_POLL_MS);
    const bundle = withImplicitMaterial(result.bundle, {
      url: state.url,
      branch: state.branch,
      pollIntervalMs: interval,
    });
    try {
      await applyBundle(this.deps.db, bundle, this.deps.postgres);
    } catch (err) {
      return this.record(
        projectId,
        state,
        read.revision,
        `the definition does not apply: ${(err as Error).message}`.slice(0, 2000),
        false,
      );
    }
    return this.record(projectId, state, read.revision, null, read.revision !== state.applied_revision);
  }

  private async record(
    projectId: string,
    state: ConfigRepoState,
    revision: string | null,
    error: string | null,
    changed: boolean,
  ): Promise<SyncOutcome> {
    const next: ConfigRepoState = {
      ...state,
      checked_revision: revision ?? state.checked_revision,
      applied_revision: error === null ? revision : state.applied_revision,
      status: error === null ? 'applied' : 'failed',
      error,
      synced_at: this.deps.now().toISOString(),
    };
    await this.save(projectId, next);
    return { status: next.status, revision, error, changed };
  }

  /** Projects bound to this repository (any URL spelling) and branch: a push there is a definition change. */
  async boundTo(repoKeys: readonly string[], branch: string): Promise<string[]> {
    const keys = new Set(repoKeys);
    return (await this.all())
      .filter(({ state }) => keys.has(normaliseGitUrl(state.url)) && state.branch === branch)
      .map((b) => b.projectId);
  }

  private async all(): Promise<{ projectId: string; state: ConfigRepoState }[]> {
    const rows = await this.deps.db
      .selectFrom('project_settings')
      .select(['project_id', 'value'])
      .where('key', '=', CONFIG_REPO_KEY)
      .execute();
    return rows.map((r) => ({ projectId: r.project_id, state: JSON.parse(r.value) as ConfigRepoState }));
  }

  /** The leader's tick: bound repositories whose interval elapsed are checked, and read when they moved. */
  async pollDue(): Promise<void> {
    const now = this.deps.now().getTime();
    for (const { projectId, state } of await this.all()) {
      if (state.poll_interval === '') continue;
      const every = parseDuration(state.poll_interval) ?? DEFAULT_POLL_MS;
      if (now - (this.lastPoll.get(projectId) ?? Number.NEGATIVE_INFINITY) < every) continue;
      this.lastPoll.set(projectId, now);
      const creds = await this.deps.credentials.credentialsFor(state.url);
      const head = await this.deps.git.lsRemote(state.url, state.branch, creds).catch(() => null);
      if (head && head !== state.checked_revision) await this.sync(projectId, head);
    }
  }
}
