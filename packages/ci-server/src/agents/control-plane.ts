// The agent side's gRPC face: agent identity (credentials, revocation, token rotation), the session calls
// (sessions.ts) and the endpoint they are served on (grpc-server.ts). Dispatch itself — the registry of
// connected agents, the dispatcher, the job transitions, the lease sweeper — is built in server.ts and handed
// in; this face implements dispatch's port to each agent (a held Session stream) and calls dispatch when
// agents register, report and drop. server.ts starts it with the HTTP listener and stops it on shutdown.
import type { Database } from '@app/kit';
import type { ActiveJobs } from '../dispatch/active-jobs.js';
import type { AgentRegistry } from '../dispatch/agent-registry.js';
import type { Dispatcher, DispatcherLog } from '../dispatch/dispatcher.js';
import type { JobTransitions } from '../dispatch/job-transitions.js';
import type { ExecutionData } from '../services/execution-data.js';
import { revokeAgentRow } from '../store/agent-identity.js';
import type { StoreSchema } from '../store/database.js';
import {
  type AgentServerTls,
  type AgentServiceDeps,
  closeAgentServer,
  HEARTBEAT_INTERVAL_MS,
  startAgentServer,
} from './grpc-server.js';
import { AgentIdentity } from './identity.js';
import { AgentSessions } from './sessions.js';

export interface AgentTiming {
  /** How often agents heartbeat (sent to them at registration); default 10 s. */
  heartbeatMs?: number;
  /** A lease lapses this long after the last renewal; default three heartbeats. */
  leaseMs?: number;
  /** How often lapsed leases are swept and the queue resynced; default 5 s (at most the heartbeat). */
  sweepMs?: number;
  /** How long an agent whose stream dropped may take to reconnect before its jobs are re-queued; 5 s. */
  dropGraceMs?: number;
}

/** The timing with its defaults filled in (dispatch's lease and sweep periods follow the heartbeat). */
export function resolveAgentTiming(timing: AgentTiming = {}) {
  const heartbeatMs = timing.heartbeatMs ?? HEARTBEAT_INTERVAL_MS;
  return {
    heartbeatMs,
    leaseMs: timing.leaseMs ?? 3 * heartbeatMs,
    sweepMs: timing.sweepMs ?? Math.min(5_000, heartbeatMs),
    dropGraceMs: timing.dropGraceMs,
  };
}

export interface AgentControlOptions {
  database: Database<StoreSchema>;
  /** Dispatch, built in server.ts. */
  registry: AgentRegistry;
  dispatcher: Dispatcher;
  transitions: JobTransitions;
  jobs: ActiveJobs;
  data: ExecutionData;
  /** The configured registration token (an admin may rotate it; see agents/identity.ts). */
  agentToken: string;
  /** Called with a rotated registration token (server.ts rewrites the data-dir token file with it). */
  onTokenRotated?(token: string): void;
  /** TLS of the agent port; undefined serves cleartext (tests, or CI_GRPC_TLS=off). */
  tls?: AgentServerTls;
  log: DispatcherLog;
  timing: ReturnType<typeof resolveAgentTiming>;
  /** Writes a `[ci]` line into a job run's log. */
  systemLine(jobRunId: string, text: string): Promise<void>;
  /** A stream dropped and its leases now end in `graceMs` (server.ts sweeps then). */
  onDropped(graceMs: number): void;
}

export class AgentControl {
  readonly registry: AgentRegistry;
  /** The dispatcher this face feeds (kept here for tests that look at its queue). */
  readonly dispatcher: Dispatcher;
  readonly identity: AgentIdentity;
  private readonly serviceDeps: AgentServiceDeps;
  private readonly sessions: AgentSessions;
  private readonly tls: AgentServerTls;
  private grpc?: Awaited<ReturnType<typeof startAgentServer>>;
  private stopping = false;

  constructor(options: AgentControlOptions) {
    const db = options.database.db;
    this.registry = options.registry;
    this.dispatcher = options.dispatcher;
    this.tls = options.tls;
    this.identity = new AgentIdentity({
      db,
      configuredToken: options.agentToken,
      onRotated: options.onTokenRotated,
    });
    this.serviceDeps = {
      identity: this.identity,
      db,
      registry: options.registry,
      dispatcher: options.dispatcher,
      transitions: options.transitions,
      jobs: options.jobs,
      data: options.data,
      log: options.log,
      heartbeatMs: options.timing.heartbeatMs,
      leaseMs: options.timing.leaseMs,
      systemLine: options.systemLine,
      dropGraceMs: options.timing.dropGraceMs,
      stopping: () => this.stopping,
      onDropped: options.onDropped,
    };
    this.sessions = new AgentSessions(this.serviceDeps);
  }

  /**
   * Revokes an agent (admin route): its credential is refused from now on, its session is closed and the
   * job runs it held are re-queued. Answers undefined for an unknown agent.
   */
  async revoke(agentId: string): Promise<{ name: string; requeued: number; already: boolean } | undefined> {
    const row = await revokeAgentRow(this.serviceDeps.db, agentId, new Date().toISOString());
    if (!row) return undefined;
    const requeued = await this.sessions.revoke(agentId, row.name);
    this.serviceDeps.log.info({ agent: row.name, agentId, requeued }, 'agent revoked');
    await this.identity.audit('agent.revoked', `agent:${agentId}`, { name: row.name, requeued });
    return { ...row, requeued };
  }

  /** Listens for agents; answers the gRPC port. */
  async start(host: string, port: number): Promise<number> {
    await this.identity.start();
    this.grpc = await startAgentServer(this.serviceDeps, this.sessions, host, port, this.tls);
    const addr = this.grpc.address();
    return typeof addr === 'object' && addr ? addr.port : port;
  }

  async stop(): Promise<void> {
    // From now on a dropped stream is the server's own doing, not a sign of a dead agent.
    this.stopping = true;
    // Ending the session streams lets the HTTP/2 sessions close at once instead of after the grace period.
    for (const agent of this.registry.list()) agent.outbound?.close();
    if (this.grpc) await closeAgentServer(this.grpc);
    this.grpc = undefined;
  }
}
