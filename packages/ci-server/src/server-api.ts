// What createCiServer (server.ts) takes and answers: the long-lived parts it builds, as tests and main.ts
// reach them, and the knobs tests turn (timing, clocks, poll periods). Types only; server.ts assembles.
import type { Database } from '@app/kit';
import type { FastifyInstance } from 'fastify';
import type { AgentControl, AgentTiming } from './agents/control-plane.js';
import type { TlsMaterial } from './agents/tls.js';
import type { CiSettings } from './config.js';
import type { ActiveJobs } from './dispatch/active-jobs.js';
import type { AgentRegistry } from './dispatch/agent-registry.js';
import type { JobTransitions } from './dispatch/job-transitions.js';
import type { LeaseSweeper } from './dispatch/lease-sweeper.js';
import type { RunEvents } from './events/run-events.js';
import type { Authorizer } from './http/access.js';
import type { IdTokenIssuer } from './id-tokens/issuer.js';
import type { LogArchiver } from './logs/archiver.js';
import type { NotificationDeliverer } from './notifications/deliverer.js';
import type { NotificationSettings } from './notifications/settings.js';
import type { ReplicaSignals } from './replicas/replica-signals.js';
import type { RetentionScheduler } from './retention/retention-scheduler.js';
import type { RetentionSweeper } from './retention/retention-sweeper.js';
import type { ExecutionData } from './services/execution-data.js';
import type { ConcurrencyReleaser } from './services/run-concurrency.js';
import type { RunService } from './services/runs.js';
import type { StoreSchema } from './store/database.js';
import type { TriggerOptions, Triggers } from './triggers/index.js';

export interface CiServer {
  app: FastifyInstance;
  database: Database<StoreSchema>;
  /** The agents connected to this process (dispatch/agent-registry.ts). */
  agents: AgentRegistry;
  /** The agent endpoint, the gRPC face of dispatch (agents/control-plane.ts); `control.dispatcher` is dispatch's. */
  control: AgentControl;
  /** Signs jobs' OIDC tokens (gocdnext's id_tokens) and serves their keys. */
  idTokens: IdTokenIssuer;
  /** Dispatch, built here: job transitions (agent reports into the state machine) and the lease sweeper. */
  dispatch: { transitions: JobTransitions; sweeper: LeaseSweeper; jobs: ActiveJobs };
  runs: RunService;
  /** Starts a serial group's next run when the one before it finished (services/run-concurrency.ts). */
  concurrency: ConcurrencyReleaser;
  events: RunEvents;
  /** Logs, artifacts, caches, test reports, service runs and metrics (services/execution-data.ts). */
  execution: ExecutionData;
  /** Webhooks, polling, cron, fan-in (triggers/index.ts); its timer runs from listen() to close(). */
  triggers: Triggers;
  /** Log archive and retention sweeper under the `retention` lease; timer from listen() to close(). */
  retention: { archiver: LogArchiver; sweeper: RetentionSweeper; scheduler: RetentionScheduler };
  /** Outbox deliverer of run notifications; polls from listen() to close(). */
  notifications: NotificationDeliverer;
  /** PostgreSQL only: run changes and stored log lines announced to the other replicas (LISTEN/NOTIFY). */
  replicas?: ReplicaSignals;
  settings: CiSettings;
  /** The agent port's certificate; undefined when it serves cleartext (CI_GRPC_TLS=off). */
  grpcTls?: Omit<TlsMaterial, 'key'>;
  announcements: string[];
  /** Replaces how /api/v1 requests are authorized (the default opens everything). */
  setAuthorizer(next: Authorizer): void;
  /** Listens on the HTTP and gRPC ports of the settings. */
  listen(): Promise<{ httpPort: number; grpcPort: number }>;
  close(): Promise<void>;
}

export interface CreateOptions {
  /** false: silent; a stream: the service's log lines (JSON, secrets redacted) written there, level debug. */
  logger?: boolean | { write(line: string): void };
  /** Agent heartbeat, lease and sweep periods (tests shorten them; the defaults are 10 s, 30 s, 5 s). */
  agentTiming?: AgentTiming;
  /** Clock and periods of the trigger scheduler (tests drive them). */
  triggers?: TriggerOptions;
  /** Period of the log-archive pass (default 30 s). */
  archiveEveryMs?: number;
  /** Poll period of the notification outbox (default 2 s) and delivery settings over CI_CONFIG's. */
  notificationPollMs?: number;
  notifications?: Partial<NotificationSettings>;
  /**
   * How often a live log follower reads the store when nothing woke it (default 1 s): the fallback for lines
   * no notification announced. Tests set it far beyond their own length to prove a wake came by NOTIFY.
   */
  logPollMs?: number;
  /**
   * Short job reports of one tick applied together and claims coalesced per tick (dispatch/report-batches.ts).
   * Overrides the `dispatchBatching` setting (CI_DISPATCH_BATCHING, on by default); the dispatch benchmark
   * turns it off for its baseline.
   */
  dispatchBatching?: boolean;
}
