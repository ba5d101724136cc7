// Git polling: each git material (by fingerprint: repository and branch) is checked with `git ls-remote` at
// its effective interval (the project's override, else the material's `poll_interval`). A head that moved is
// fetched shallowly into the material's bare cache for its author and message, recorded as a modification,
// and starts one run (cause `poll`) in each watching pipeline that has not run for that revision yet. The
// first look at a material records a baseline and starts nothing: applying a project is not a push.
import type { FastifyBaseLogger } from 'fastify';
import type { RunEvents } from '../events/run-events.js';
import type { StoreDb } from '../store/database.js';
import { newId } from '../store/ids.js';
import type { ScmCredentials } from './credentials.js';
import { type CommitInfo, type GitRunner, scrub } from './git.js';
import { effectiveInterval, type GitMaterialRow } from './materials.js';
import { claimAndCreateRuns, publishRuns, triggerKey } from './start-runs.js';

export interface PollerDeps {
  db: StoreDb;
  git: GitRunner;
  credentials: ScmCredentials;
  events: RunEvents;
  now: () => Date;
  log: FastifyBaseLogger;
}

export interface PollOutcome {
  fingerprint: string;
  url: string;
  branch: string;
  revision: string | null;
  changed: boolean;
  run_ids: string[];
  error?: string;
}

/** One polled unit: a repository and branch, and every active pipeline watching it. */
export interface MaterialGroup {
  fingerprint: string;
  url: string;
  branch: string;
  /** The smallest effective interval of its materials; null when none is polled. */
  intervalMs: number | null;
  materials: GitMaterialRow[];
}

/** Polls at most this many materials at once, so one tick never starts an unbounded number of git processes. */
const CONCURRENCY = 4;
const KEYS_PER_QUERY = 500;
const HISTORY_DAYS = 90;

export function groupMaterials(rows: GitMaterialRow[]): MaterialGroup[] {
  const groups = new Map<string, MaterialGroup>();
  for (const m of rows) {
    let g = groups.get(m.fingerprint);
    if (!g) {
      g = { fingerprint: m.fingerprint, url: m.url, branch: m.branch, intervalMs: null, materials: [] };
      groups.set(m.fingerprint, g);
    }
    g.materials.push(m);
    const iv = effectiveInterval(m);
    if (iv !== null && (g.intervalMs === null || iv < g.intervalMs)) g.intervalMs = iv;
  }
  return [...groups.values()];
}

export class Poller {
  private readonly inFlight = new Map<string, Promise<PollOutcome>>();

  constructor(private readonly deps: PollerDeps) {}

  /** Materials whose interval has elapsed since their last poll (the leader's tick). */
  async dueGroups(groups: MaterialGroup[]): Promise<MaterialGroup[]> {
    const polled = groups.filter((g) => g.intervalMs !== null);
    if (polled.length === 0) return [];
    const last = new Map<string, string | null>();
    for (let i = 0; i < polled.length; i += KEYS_PER_QUERY) {
      const states = await this.deps.db
        .selectFrom('material_poll_state')
        .select(['fingerprint', 'last_polled_at'])
        .where(
          'fingerprint',
          'in',
          polled.slice(i, i + KEYS_PER_QUERY).map((g) => g.fingerprint),
        )
        .execute();
      for (const s of states) last.set(s.fingerprint, s.last_polled_at);
    }
    const now = this.deps.now().getTime();
    return polled.filter((g) => {
      const at = last.get(g.fingerprint);
      return !at || Date.parse(at) + (g.intervalMs as number) <= now;
    });
  }

  /**
   * Polls the groups (bounded concurrency). `forProject` (a sync) also starts runs in that project's
   * pipelines whose polling is off; otherwise only pipelines that poll are started.
   */
  async pollGroups(groups: MaterialGroup[], forProject?: string): Promise<PollOutcome[]> {
    const out: PollOutcome[] = [];
    let next = 0;
    const worker = async () => {
      while (next < groups.length) {
        const g = groups[next++];
        out.push(await this.pollOnce(g, forProject));
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, groups.length) }, worker));
    return out;
  }

  /** One poll per fingerprint at a time; a second caller shares the running one. */
  private pollOnce(g: MaterialGroup, forProject?: string): Promise<PollOutcome> {
    const running = this.inFlight.get(g.fingerprint);
    if (running) return running;
    const p = this.poll(g, forProject).finally(() => this.inFlight.delete(g.fingerprint));
    this.inFlight.set(g.fingerprint, p);
    return p;
  }

  private async poll(g: MaterialGroup, forProject?: string): Promise<PollOutcome> {
    const { db, git, credentials, log } = this.deps;
    const base = { fingerprint: g.fingerprint, url: scrub(g.url), branch: g.branch };
    const at = this.deps.now().toISOString();
    const state = await db
      .selectFrom('material_poll_state')
      .select(['last_revision'])
      .where('fingerprint', '=', g.fingerprint)
      .executeTakeFirst();
    let head: string | null;
    let info: CommitInfo | null = null;
    try {
      const creds = await credentials.credentialsFor(g.url);
      head = await git.lsRemote(g.url, g.branch, creds);
      if (head === null) throw new Error(`branch "${g.branch}" does not exist in the repository`);
      if (head !== state?.last_revision) {
        // Metadata is a nicety: a failed fetch still records the revision ls-remote reported.
        info = await git.fetchHead(g.fingerprint, g.url, g.branch, creds).catch((err: Error) => {
          log.warn({ fingerprint: g.fingerprint, err: err.message }, 'could not fetch commit metadata');
          return null;
        });
        if (info) head = info.revision;
      }
    } catch (err) {
      const message = scrub((err as Error).message).slice(0, 1000);
      await this.saveState(g, state?.last_revision ?? null, at, message);
      log.warn({ fingerprint: g.fingerprint, url: base.url, err: message }, 'polling a git material failed');
      return { ...base, revision: state?.last_revision ?? null, changed: false, run_ids: [], error: message };
    }
    const changed = head !== state?.last_revision;
    if (!changed) {
      await this.saveState(g, head, at, null);
      return { ...base, revision: head, changed: false, run_ids: [] };
    }
    const baseline = !state;
    const revision = head;
    const pipelines = baseline
      ? []
      : g.materials.filter(
          (m) => m.on.includes('push') && (effectiveInterval(m) !== null || m.projectId === forProject),
        );
    const created = await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('material_modifications')
        .values({
          id: newId(),
          fingerprint: g.fingerprint,
          url: scrub(g.url),
          branch: g.branch,
          revision,
          author: info?.author ?? null,
          message: info?.message ?? null,
          committed_at: info?.committed_at ?? null,
          source: baseline ? 'baseline' : 'poll',
          detected_at: at,
        })
        .onConflict((oc) => oc.columns(['fingerprint', 'revision']).doNothing())
        .execute();
      const runs = await claimAndCreateRuns(
        trx,
        [...new Set(pipelines.map((m) => m.pipelineId))].map((pipelineId) => ({
          pipelineId,
          cause: 'poll' as const,
          triggeredBy: 'poll',
          ref: { gitRef: g.branch, revision },
          key: triggerKey('git', g.fingerprint, revision),
          source: 'poll',
          detail: revision,
        })),
      );
      await this.saveState(g, revision, at, null, trx);
      return runs;
    });
    publishRuns(this.deps.events, created);
    if (created.length > 0)
      log.info({ fingerprint: g.fingerprint, revision, runs: created.length }, 'poll found a new revision');
    return { ...base, revision, changed: true, run_ids: created.map((r) => r.id) };
  }

  /**
   * Forgets trigger history older than 90 days: claims (an old revision pushed again after that would run
   * again) and modifications that are not their material's latest.
   */
  async prune(): Promise<void> {
    const cutoff = new Date(this.deps.now().getTime() - HISTORY_DAYS * 86_400_000).toISOString();
    const { db } = this.deps;
    await db.deleteFrom('trigger_claims').where('created_at', '<', cutoff).execute();
    await db
      .deleteFrom('material_modifications')
      .where('detected_at', '<', cutoff)
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('material_modifications as newer')
            .select('newer.id')
            .whereRef('newer.fingerprint', '=', 'material_modifications.fingerprint')
            .whereRef('newer.detected_at', '>', 'material_modifications.detected_at'),
        ),
      )
      .execute();
  }

  private async saveState(
    g: MaterialGroup,
    revision: string | null,
    at: string,
    error: string | null,
    trx: StoreDb = this.deps.db,
  ): Promise<void> {
    const row = {
      url: scrub(g.url),
      branch: g.branch,
      last_revision: revision,
      last_polled_at: at,
      last_error: error,
      updated_at: at,
    };
    await trx
      .insertInto('material_poll_state')
      .values({ fingerprint: g.fingerprint, ...row })
      .onConflict((oc) => oc.column('fingerprint').doUpdateSet(row))
      .execute();
  }
}
