// Branch heads for runs that start without a pushed revision (run-all, cron): each pipeline's first git
// material's branch, resolved with `git ls-remote` once per repository and branch, a few at a time. A head
// that cannot be resolved leaves the revision empty and the checkout resolves the branch itself.
import type { FastifyBaseLogger } from 'fastify';
import type { PipelineDocument } from '../domain/index.js';
import type { StoreDb } from '../store/database.js';
import type { ScmCredentials } from './credentials.js';
import { type GitRunner, scrub } from './git.js';
import { firstGitMaterial } from './start-runs.js';

export interface HeadDeps {
  db: StoreDb;
  git: GitRunner;
  credentials: ScmCredentials;
  log: FastifyBaseLogger;
}

export interface ResolvedRef {
  gitRef: string | null;
  revision: string | null;
}

const CONCURRENCY = 4;

/** The commit `branch` points at in `url`, or null (unknown branch, unreachable remote: logged). */
export async function resolveHead(deps: HeadDeps, url: string, branch: string): Promise<string | null> {
  try {
    return await deps.git.lsRemote(url, branch, await deps.credentials.credentialsFor(url));
  } catch (err) {
    deps.log.warn(
      { url: scrub(url), branch, err: (err as Error).message },
      'could not resolve a branch head',
    );
    return null;
  }
}

/** Heads of the default branches of the given pipelines' definitions, keyed by pipeline id. */
export async function resolveHeads(
  deps: HeadDeps,
  docs: Map<string, PipelineDocument>,
): Promise<Map<string, ResolvedRef>> {
  const wanted = new Map<string, { url: string; branch: string }>();
  const keyOf = new Map<string, string>();
  for (const [id, doc] of docs) {
    const git = firstGitMaterial(doc);
    if (!git) continue;
    const key = `${git.url}\n${git.branch}`;
    wanted.set(key, git);
    keyOf.set(id, key);
  }
  const heads = new Map<string, string | null>();
  const queue = [...wanted.entries()];
  const worker = async () => {
    for (let item = queue.shift(); item; item = queue.shift()) {
      heads.set(item[0], await resolveHead(deps, item[1].url, item[1].branch));
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, queue.length) }, worker));
  const out = new Map<string, ResolvedRef>();
  for (const [id, doc] of docs) {
    const key = keyOf.get(id);
    const git = firstGitMaterial(doc);
    out.set(id, { gitRef: git?.branch ?? null, revision: key ? (heads.get(key) ?? null) : null });
  }
  return out;
}

/** Current definitions of active pipelines (one query). */
export async function activeDefinitions(db: StoreDb, ids: string[]): Promise<Map<string, PipelineDocument>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('pipelines')
    .select(['id', 'definition'])
    .where('id', 'in', ids)
    .where('archived', '=', 0)
    .execute();
  return new Map(rows.map((r) => [r.id, JSON.parse(r.definition) as PipelineDocument]));
}
