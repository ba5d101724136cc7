// Wires the agent side of the control plane: the registry of connected agents, the dispatcher, the lease
// sweeper, the job transitions, agent identity (credentials, revocation, token rotation) and the gRPC
// endpoint. server.ts creates one, starts it with the HTTP
// listener and stops it on shutdown; tests and the dispatch benchmark use it the same way.
import { createSecretBox, type Database } from '@app/kit';
import { AssignmentBuilder } from '../dispatch/assignment-builder.js';
import { Dispatcher, type DispatcherLog } from '../dispatch/dispatcher.js';
import { JobTransitions } from '../dispatch/job-transitions.js';
import { LeaseSweeper } from '../dispatch/lease-sweeper.js';
import type { IdTokenIssuer } from '../id-tokens/issuer.js';
import type { ExecutionData } from '../services/execution-data.js';
import type { RunEvents } from '../services/run-events.js';
import { revokeAgentRow } from '../store/agent-identity.js';
import { extendLeasesAtStart } from '../store/agent-leases.js';
import type { StoreSchema } from '../store/database.js';
import {
  type AgentServerTls,
  type AgentServiceDeps,
  closeAgentServer,
  HEARTBEAT_INTERVAL_MS,
  startAgentServer,
} from './grpc-server.js';
import { AgentIdentity } from './identity.js';
import { AgentRegistry, type ConnectedAgent } from './registry.js';
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

export interface AgentControlOptions {
  database: Database<StoreSchema>;
  events: RunEvents;
  data: ExecutionData;
  secretKey: string;
  /** The configured registration token (an admin may rotate it; see agents/identity.ts). */
  agentToken: string;
  /** Called with a rotated registration token (server.ts rewrites the data-dir token file with it). */
  onTokenRotated?(token: string): void;
  /** TLS of the agent port; undefined serves cleartext (tests, or CI_GRPC_TLS=off). */
  tls?: AgentServerTls;
  log: DispatcherLog;
  timing?: AgentTiming;
  /** Signs the OIDC tokens of jobs declaring gocdnext's `id_tokens`. */
  idTokens?: IdTokenIssuer;
  /** Observer of assignments (benchmarks, tests). */
  onAssigned?(jobRunId: string, agent: ConnectedAgent): void;
}

export class AgentControl {
  readonly registry = new AgentRegistry();
  readonly dispatcher: Dispatcher;
  readonly transitions: JobTransitions;
  readonly identity: AgentIdentity;
  private readonly sweeper: LeaseSweeper;
  private readonly serviceDeps: AgentServiceDeps;
  private readonly sessions: AgentSessions;
  private readonly tls: AgentServerTls;
  private grpc?: Awaited<ReturnType<typeof startAgentServer>>;
  private stopping = false;

  constructor(options: AgentControlOptions) {
    const db = options.database.db;
    const heartbeatMs = options.timing?.heartbeatMs ?? HEARTBEAT_INTERVAL_MS;
    const leaseMs = options.timing?.leaseMs ?? 3 * heartbeatMs;
    const sweepMs = options.timing?.sweepMs ?? Math.min(5_000, heartbeatMs);
    const data = options.data;
    this.transitions = new JobTransitions({
      db,
      postgres: options.database.dialect === 'postgres',
      events: options.events,
    });
    // Server notices have their own (negative) sequence space: no agent line is ever displaced by one.
    const systemLine = (jobRunId: string, text: string) => data.logs.appendNotice(jobRunId, text);
    const builder = new AssignmentBuilder(db, createSecretBox(options.secretKey), options.idTokens);
    this.dispatcher = new Dispatcher({
      db,
      registry: this.registry,
      builder,
      transitions: this.transitions,
      events: options.events,
      metrics: data.metrics,
      leaseMs,
      log: options.log,
      systemLine,
      onAssigned: options.onAssigned,
    });
    this.sweeper = new LeaseSweeper({
      db,
      dispatcher: this.dispatcher,
      transitions: this.transitions,
      builder,
      leaseMs,
      intervalMs: sweepMs,
      log: options.log,
      systemLine,
    });
    this.tls = options.tls;
    this.identity = new AgentIdentity({
      db,
      configuredToken: options.agentToken,
      onRotated: options.onTokenRotated,
    });
    this.serviceDeps = {
      identity: this.identity,
      db,
      registry: this.registry,
      dispatcher: this.dispatcher,
      transitions: this.transitions,
      data,
      log: options.log,
      heartbeatMs,
      leaseMs,
      systemLine,
      dropGraceMs: options.timing?.dropGraceMs,
      stopping: () => this.stopping,
      // Sweep right after the grace, so a dead agent's job is back in the queue within seconds.
      onDropped: (graceMs) => {
        const timer = setTimeout(() => void this.sweeper.tick(), graceMs + 100);
        timer.unref();
      },
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

  /** Starts dispatching and listens for agents; answers the gRPC port. */
  async start(host: string, port: number): Promise<number> {
    // A restarted server gives its agents a full lease period to come back before it sweeps.
    await extendLeasesAtStart(this.serviceDeps.db, this.serviceDeps.leaseMs);
    await this.identity.start();
    this.dispatcher.start();
    this.sweeper.start();
    this.grpc = await startAgentServer(this.serviceDeps, this.sessions, host, port, this.tls);
    // Jobs queued before this process started (or while it was down) go to the first free agents.
    await this.sweeper.tick();
    const addr = this.grpc.address();
    return typeof addr === 'object' && addr ? addr.port : port;
  }

  /** Sweeps now (tests: lapsed leases without waiting for the timer). */
  sweep(): Promise<void> {
    return this.sweeper.tick();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.dispatcher.stop();
    await this.sweeper.stop();
    // Ending the session streams lets the HTTP/2 sessions close at once instead of after the grace period.
    for (const agent of this.registry.list()) agent.outbound?.close();
    if (this.grpc) await closeAgentServer(this.grpc);
    this.grpc = undefined;
  }
}
