// The agents connected to this server process: who they are, which session they hold, the port that reaches
// them, and the job runs leased to them (for capacity). The durable view (agents table, leases on job_runs)
// is kept by store/agent-leases.ts; this is the fast in-memory side the dispatcher reads.
//
// The port (`AgentPort`) is all dispatch knows of how an agent is reached: send an assignment, tell it to
// cancel a job, close. The gRPC face (agents/sessions.ts) implements it over the agent's held Session
// stream, so dispatch/ neither builds protocol envelopes nor knows there is a stream.
import type { AssignmentMessage } from './assignment-builder.js';

/** How dispatch reaches one connected agent; implemented by the agent endpoint (agents/sessions.ts). */
export interface AgentPort {
  /** Hands the agent a job; false when it can no longer be reached (the job was not delivered). */
  sendAssignment(assignment: AssignmentMessage): boolean;
  /** Tells the agent to stop a job run; false when it can no longer be reached. */
  sendCancel(jobRunId: string, reason: string): boolean;
  /** Ends the agent's session (a newer one replaced it, it was revoked, the server stops). */
  close(): void;
  readonly closed: boolean;
}

export interface ConnectedAgent {
  id: string;
  sessionId: string;
  name: string;
  tags: string[];
  /**
   * Engines the agent reported (`podman`, `sandbox`, `host`); an agent that reported none predates
   * engines and runs plain jobs on its host, so it counts as `host`.
   */
  engines: string[];
  capacity: number;
  version: string;
  hostname: string;
  registeredAt: Date;
  lastSeenAt: Date;
  /** Job runs the agent reported on its last heartbeat. */
  runningJobIds: string[];
  /** Job runs leased to the agent (claimed by this process, or kept at registration). */
  leased: Set<string>;
  /** Set by a Drain message: the agent finishes its jobs and takes no new ones. */
  draining: boolean;
  /** Set when an admin revoked the agent: its session stream ends with Unauthenticated. */
  revoked?: boolean;
  /** Set while the agent holds its session open: how assignments and cancellations reach it. */
  outbound?: AgentPort;
  /** Order of the last assignment, so equally free agents take turns. */
  lastAssigned: number;
}

export type AgentInfo = Pick<ConnectedAgent, 'id' | 'name' | 'tags' | 'capacity' | 'version' | 'hostname'> &
  Partial<Pick<ConnectedAgent, 'engines'>>;

/** The registry's count of held leases, kept by every registered agent's lease set. */
interface LeaseTotal {
  n: number;
}

/**
 * An agent's leases that keep the registry's total as they change, so the running-jobs gauge is read, not
 * summed over every agent on each report (it was, twice per job). Detached when the agent leaves the registry.
 */
class LeaseSet extends Set<string> {
  private total: LeaseTotal | undefined;

  constructor(items: Iterable<string>, total: LeaseTotal) {
    super();
    this.total = total;
    for (const id of items) this.add(id);
  }

  override add(id: string): this {
    if (this.total && !this.has(id)) this.total.n++;
    return super.add(id);
  }

  override delete(id: string): boolean {
    const had = super.delete(id);
    if (had && this.total) this.total.n--;
    return had;
  }

  override clear(): void {
    if (this.total) this.total.n -= this.size;
    super.clear();
  }

  /** The agent left the registry: its leases no longer count. */
  detach(): void {
    if (this.total) this.total.n -= this.size;
    this.total = undefined;
  }
}

const detachLeases = (agent: ConnectedAgent) => {
  if (agent.leased instanceof LeaseSet) agent.leased.detach();
};

export class AgentRegistry {
  /** Leases held by the registered agents (LeaseSet keeps it). */
  private readonly leaseTotal: LeaseTotal = { n: 0 };
  private readonly byId = new Map<string, ConnectedAgent>();
  private readonly bySession = new Map<string, ConnectedAgent>();
  /** Job run id → id of the agent holding it. */
  private readonly holders = new Map<string, string>();

  /** A new session for the agent; a previous session of the same agent is closed. */
  register(info: AgentInfo, leased: Iterable<string> = []): ConnectedAgent {
    const previous = this.byId.get(info.id);
    if (previous) {
      this.bySession.delete(previous.sessionId);
      previous.outbound?.close();
      for (const id of previous.leased) this.holders.delete(id);
      detachLeases(previous);
    }
    const now = new Date();
    const agent: ConnectedAgent = {
      ...info,
      engines: info.engines && info.engines.length > 0 ? info.engines : ['host'],
      sessionId: crypto.randomUUID(),
      registeredAt: now,
      lastSeenAt: now,
      runningJobIds: [],
      leased: new LeaseSet(leased, this.leaseTotal),
      draining: false,
      lastAssigned: 0,
    };
    this.byId.set(agent.id, agent);
    this.bySession.set(agent.sessionId, agent);
    for (const id of agent.leased) this.holders.set(id, agent.id);
    return agent;
  }

  /** Forgets the agent (revoked): its session id is refused from now on. */
  remove(id: string): void {
    const agent = this.byId.get(id);
    if (!agent) return;
    this.byId.delete(id);
    this.bySession.delete(agent.sessionId);
    for (const jobRunId of agent.leased) this.holders.delete(jobRunId);
    detachLeases(agent);
  }

  /** Job runs leased to the registered agents: the running-jobs gauge. */
  runningJobs(): number {
    return this.leaseTotal.n;
  }

  lease(agent: ConnectedAgent, jobRunId: string): void {
    agent.leased.add(jobRunId);
    this.holders.set(jobRunId, agent.id);
  }

  /** Forgets a lease; returns the agent that held it. */
  release(jobRunId: string): ConnectedAgent | undefined {
    const agentId = this.holders.get(jobRunId);
    if (agentId === undefined) return undefined;
    this.holders.delete(jobRunId);
    const agent = this.byId.get(agentId);
    agent?.leased.delete(jobRunId);
    return agent;
  }

  bySessionId(sessionId: string): ConnectedAgent | undefined {
    return this.bySession.get(sessionId);
  }

  get(id: string): ConnectedAgent | undefined {
    return this.byId.get(id);
  }

  /** The port of the agent's open session: what dispatch sends to it through. */
  attach(sessionId: string, outbound: AgentPort): ConnectedAgent | undefined {
    const agent = this.bySession.get(sessionId);
    if (!agent) return undefined;
    agent.outbound?.close();
    agent.outbound = outbound;
    agent.draining = false;
    return agent;
  }

  /** True when `outbound` was the agent's current stream (a newer one may have replaced it). */
  detach(sessionId: string, outbound: AgentPort): boolean {
    const agent = this.bySession.get(sessionId);
    if (agent && agent.outbound === outbound) {
      agent.outbound = undefined;
      return true;
    }
    return false;
  }

  /** Slots the agent can take now: none while it is draining or has no open stream. */
  free(agent: ConnectedAgent): number {
    if (agent.draining || !agent.outbound || agent.outbound.closed) return 0;
    return Math.max(0, agent.capacity - agent.leased.size);
  }

  /** Which connected agent holds a job run, if this process knows it. */
  holder(jobRunId: string): ConnectedAgent | undefined {
    const agentId = this.holders.get(jobRunId);
    return agentId === undefined ? undefined : this.byId.get(agentId);
  }

  list(): ConnectedAgent[] {
    return [...this.byId.values()];
  }

  /** Agents with an open stream. */
  connected(): ConnectedAgent[] {
    return this.list().filter((a) => a.outbound && !a.outbound.closed);
  }
}
