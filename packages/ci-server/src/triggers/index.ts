// Run triggers of the control plane, assembled: webhooks, git polling, cron schedules, upstream fan-in,
// SCM credentials and project trigger settings, plus the timer that drives polling and cron. The timer
// ticks in every replica, but only the holder of the leader lease (a row in the shared store) polls and
// fires; claim rows make each trigger fire once even when two replicas briefly disagree. Fan-in reacts to
// run events in whichever process committed them. `start()` after listening, `stop()` at close.
import { join } from 'node:path';
import { ConfigError, createSecretBox, type Database } from '@app/kit';
import type { FastifyBaseLogger } from 'fastify';
import type { CiSettings } from '../config.js';
import type { RunEvents } from '../events/run-events.js';
import { LeaderLease } from '../replicas/leader-lease.js';
import { SCM_HOSTS, type ScmHost } from '../scm/index.js';
import type { StoreDb, StoreSchema } from '../store/database.js';
import { projectIdOf } from '../store/lookups.js';
import { type ConfigRepoInput, ConfigRepos, configRepoOf } from './config-repo.js';
import { ScmCredentials } from './credentials.js';
import { CronScheduler } from './cron.js';
import { Deliveries } from './deliveries.js';
import { FanIn } from './fan-in.js';
import { type GitCredentials, GitRunner } from './git.js';
import { resolveHead } from './heads.js';
import { type FleetAgent, healthReport, type SchedulerStatus } from './health.js';
import { allGitMaterials, materialsByFingerprint, projectGitMaterials } from './materials.js';
import { groupMaterials, Poller, type PollOutcome } from './poller.js';
import { TriggerSettings } from './trigger-settings.js';
import { buildVsm } from './vsm.js';
import { WebhookService } from './webhooks.js';

export {
  ConfigRepoError,
  type ConfigRepoInput,
  type ConfigRepoState,
  type SyncOutcome,
} from './config-repo.js';
export { credentialsFor } from './credentials.js';
export type { GitCredentials } from './git.js';
export { WEBHOOK_BODY_LIMIT } from './webhooks.js';

export interface TriggerOptions {
  /** The clock of schedules and leases (tests drive it). */
  now?: () => Date;
  /** Period of the scheduler tick (default 1 s). */
  tickMs?: number;
  /** Lifetime of the leader lease without renewal (default 15 s). */
  leaseTtlMs?: number;
  /** Timeout of each git call (default 60 s). */
  gitTimeoutMs?: number;
}

export interface TriggerDeps extends TriggerOptions {
  database: Database<StoreSchema>;
  settings: CiSettings;
  secretKey: string;
  events: RunEvents;
  log: FastifyBaseLogger;
  /** Agents connected to this process, for the health view when the store has no agents table. */
  connectedAgents: () => FleetAgent[];
}

const HOUSEKEEPING_MS = 3_600_000;
const POLL_CHECK_MS = 5000;

/** Global webhook secrets: `webhooks.<host>.secret` in CI_CONFIG, else CI_WEBHOOK_SECRET for every host. */
export function globalWebhookSecrets(settings: CiSettings): Record<ScmHost, string | null> {
  const section = settings.file.webhooks;
  const problems: string[] = [];
  const out = {} as Record<ScmHost, string | null>;
  const fallback = (settings as { webhookSecret?: string }).webhookSecret ?? null;
  const map = section !== null && typeof section === 'object' && !Array.isArray(section) ? section : {};
  if (section !== undefined && section !== map) problems.push('CI_CONFIG webhooks: expected a mapping');
  for (const key of Object.keys(map))
    if (key !== 'secret' && !(SCM_HOSTS as readonly string[]).includes(key))
      problems.push(`CI_CONFIG webhooks.${key}: unknown SCM host (use ${SCM_HOSTS.join(', ')})`);
  for (const host of SCM_HOSTS) {
    const entry = (map as Record<string, unknown>)[host];
    const secret = entry && typeof entry === 'object' ? (entry as { secret?: unknown }).secret : undefined;
    if (entry !== undefined && (typeof secret !== 'string' || secret === ''))
      problems.push(`CI_CONFIG webhooks.${host}.secret: expected a non-empty string`);
    out[host] = typeof secret === 'string' && secret !== '' ? secret : fallback;
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return out;
}

export class Triggers {
  readonly credentials: ScmCredentials;
  readonly deliveries: Deliveries;
  readonly settings: TriggerSettings;
  readonly webhooks: WebhookService;
  readonly fanIn: FanIn;
  /** Pipelines as code: projects whose pipelines live in their repository. */
  readonly configRepos: ConfigRepos;
  readonly secrets: Record<ScmHost, string | null>;
  private readonly db: StoreDb;
  private readonly git: GitRunner;
  private readonly poller: Poller;
  private readonly cron: CronScheduler;
  private readonly lease: LeaderLease;
  private readonly now: () => Date;
  private readonly tickMs: number;
  private readonly background = new Set<Promise<unknown>>();
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private ticking: Promise<void> | undefined;
  private lastTickAt: string | null = null;
  private tickLagMs: number | null = null;
  private lastError: string | null = null;
  private lastHousekeeping = 0;
  private lastPollCheck = Number.NEGATIVE_INFINITY;

  constructor(private readonly deps: TriggerDeps) {
    this.db = deps.database.db;
    this.now = deps.now ?? (() => new Date());
    this.tickMs = deps.tickMs ?? 1000;
    this.secrets = globalWebhookSecrets(deps.settings);
    const box = createSecretBox(deps.secretKey);
    this.git = new GitRunner(join(deps.settings.dataDir, 'materials'), deps.gitTimeoutMs);
    this.credentials = new ScmCredentials(this.db, box);
    this.deliveries = new Deliveries(this.db);
    this.settings = new TriggerSettings(this.db, this.now);
    const base = { db: this.db, events: deps.events, log: deps.log, now: this.now };
    this.configRepos = new ConfigRepos({
      db: this.db,
      git: this.git,
      credentials: this.credentials,
      postgres: deps.database.dialect === 'postgres',
      now: this.now,
    });
    this.webhooks = new WebhookService({
      ...base,
      box,
      configRepos: this.configRepos,
      deliveries: this.deliveries,
      globalSecret: (host) => this.secrets[host],
    });
    this.poller = new Poller({ ...base, git: this.git, credentials: this.credentials });
    this.cron = new CronScheduler({ ...base, git: this.git, credentials: this.credentials });
    this.lease = new LeaderLease(this.db, { ttlMs: deps.leaseTtlMs, now: this.now });
    // Reacting to run events needs no timer: it works from creation on (server.ts subscribes it).
    this.fanIn = new FanIn(base);
  }

  /** Starts the scheduler tick (idempotent). */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  private schedule(delay: number): void {
    const planned = Date.now() + delay;
    this.timer = setTimeout(() => {
      this.tickLagMs = Math.max(0, Date.now() - planned);
      this.ticking = this.tick().finally(() => {
        this.ticking = undefined;
        if (this.running) this.schedule(this.tickMs);
      });
    }, delay);
    this.timer.unref();
  }

  /** Stops the timer, waits for work in progress and gives the leader lease up. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.fanIn.detach();
    await this.ticking;
    await this.idle();
    await this.lease.release().catch(() => {});
  }

  /** Waits for background polls, syncs and fan-outs started so far. */
  async idle(): Promise<void> {
    while (this.background.size > 0) await Promise.allSettled([...this.background]);
    await this.fanIn.idle();
  }

  private track<T>(work: Promise<T>): void {
    const p = work
      .catch((err) => this.deps.log.error({ err }, 'trigger work failed'))
      .finally(() => this.background.delete(p));
    this.background.add(p);
  }

  /** One scheduler pass: renew or take the lease; when leading, fire due crons and start due polls. */
  async tick(): Promise<void> {
    this.lastTickAt = this.now().toISOString();
    try {
      if (!(await this.lease.acquire())) return;
      await this.cron.tick();
      const t = this.now().getTime();
      // Which materials are due is checked every few seconds, not on every tick: it reads every git material.
      if (t - this.lastPollCheck >= POLL_CHECK_MS) {
        this.lastPollCheck = t;
        // Polls run beside the tick so a slow git host never delays a cron firing. Definitions kept in a
        // repository are read first, so a push runs the pipelines as that commit defines them.
        this.track(
          (async () => {
            await this.configRepos.pollDue();
            const due = await this.poller.dueGroups(groupMaterials(await allGitMaterials(this.db)));
            if (due.length > 0) await this.poller.pollGroups(due);
          })(),
        );
      }
      if (t - this.lastHousekeeping >= HOUSEKEEPING_MS) {
        this.lastHousekeeping = t;
        await this.deliveries.prune(this.now());
        await this.cron.prune();
        await this.poller.prune();
      }
      this.lastError = null;
    } catch (err) {
      this.lastError = (err as Error).message.slice(0, 500);
      this.deps.log.error({ err }, 'trigger scheduler tick failed');
    }
  }

  /** Polls every git material of the project now (its own polling settings aside). */
  async pollProject(slug: string): Promise<PollOutcome[]> {
    const projectId = await projectIdOf(this.db, slug);
    const own = await projectGitMaterials(this.db, projectId);
    // Other pipelines watching the same repository and branch are part of the same poll.
    const all = await materialsByFingerprint(this.db, [...new Set(own.map((m) => m.fingerprint))]);
    return this.poller.pollGroups(groupMaterials(all), projectId);
  }

  /** Schedules `pollProject` in the background; returns how many materials it covers (202 Accepted). */
  async syncProject(slug: string): Promise<{ materials: number }> {
    const projectId = await projectIdOf(this.db, slug);
    const own = await projectGitMaterials(this.db, projectId);
    // A project whose pipelines live in its repository reads them again before its materials are polled.
    this.track(
      (async () => {
        if (await this.configRepos.get(projectId)) await this.configRepos.sync(projectId, null);
        await this.pollProject(slug);
      })(),
    );
    return { materials: new Set(own.map((m) => m.fingerprint)).size };
  }

  /** The project's config repository binding, null when its pipelines are applied through the API. */
  async configRepoOf(slug: string) {
    return this.configRepos.get(await projectIdOf(this.db, slug));
  }

  /** Binds the project (created when missing) to a repository folder and reads it at once. */
  async bindConfigRepo(slug: string, input: ConfigRepoInput & { name?: string }) {
    configRepoOf(input);
    const projectId = await this.configRepos.ensureProject(slug, input.name ?? slug);
    return this.configRepos.bind(projectId, input);
  }

  async unbindConfigRepo(slug: string): Promise<void> {
    await this.configRepos.unbind(await projectIdOf(this.db, slug));
  }

  /** Head of a branch in a repository, with stored credentials (run-all). */
  resolveHead = (url: string, branch: string): Promise<string | null> =>
    resolveHead(
      { db: this.db, git: this.git, credentials: this.credentials, log: this.deps.log },
      url,
      branch,
    );

  /** Credentials stored for a repository URL (checkouts of private repositories). */
  credentialsFor = (url: string): Promise<GitCredentials | null> => this.credentials.credentialsFor(url);

  /** How many projects hold a project secret of this name (integrations view; values stay sealed). */
  async projectSecretCount(name: string): Promise<number> {
    const row = await this.db
      .selectFrom('project_secrets')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('name', '=', name)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  vsm(slug: string) {
    return buildVsm(this.db, slug);
  }

  schedulerStatus(): SchedulerStatus {
    return {
      running: this.running,
      leader: this.lease.isLeader,
      holder: this.lease.holder,
      tick_interval_ms: this.tickMs,
      last_tick_at: this.lastTickAt,
      tick_lag_ms: this.tickLagMs,
      last_error: this.lastError,
      last_cron_fired_at: this.cron.lastFiredAt,
    };
  }

  health() {
    return healthReport({
      db: this.db,
      dialect: this.deps.database.dialect,
      scheduler: () => this.schedulerStatus(),
      connectedAgents: this.deps.connectedAgents,
      now: this.now,
    });
  }
}
