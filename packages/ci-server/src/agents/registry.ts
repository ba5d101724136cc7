// Which agents are connected right now: registration with the shared token gives a session; heartbeats keep
// it alive. Kept in memory; the durable fleet view and job leases build on top of this.
import { randomUUID } from 'node:crypto';

export interface ConnectedAgent {
  id: string;
  sessionId: string;
  name: string;
  tags: string[];
  capacity: number;
  version: string;
  hostname: string;
  registeredAt: Date;
  lastSeenAt: Date;
  runningJobIds: string[];
  /** Set while the agent holds its session stream open. */
  outbound?: { push(message: unknown): void };
}

export class AgentRegistry {
  private readonly byName = new Map<string, ConnectedAgent>();
  private readonly bySession = new Map<string, ConnectedAgent>();

  register(
    info: Pick<ConnectedAgent, 'name' | 'tags' | 'capacity' | 'version' | 'hostname'>,
  ): ConnectedAgent {
    const previous = this.byName.get(info.name);
    if (previous) this.bySession.delete(previous.sessionId);
    const now = new Date();
    const agent: ConnectedAgent = {
      ...info,
      id: previous?.id ?? randomUUID(),
      sessionId: randomUUID(),
      registeredAt: now,
      lastSeenAt: now,
      runningJobIds: previous?.runningJobIds ?? [],
    };
    this.byName.set(agent.name, agent);
    this.bySession.set(agent.sessionId, agent);
    return agent;
  }

  touch(sessionId: string, runningJobIds: string[]): ConnectedAgent | undefined {
    const agent = this.bySession.get(sessionId);
    if (!agent) return undefined;
    agent.lastSeenAt = new Date();
    agent.runningJobIds = runningJobIds;
    return agent;
  }

  bySessionId(sessionId: string): ConnectedAgent | undefined {
    return this.bySession.get(sessionId);
  }

  /** The outbound half of the agent's session stream: what the server pushes to it. */
  attach(sessionId: string, outbound: { push(message: unknown): void }): void {
    const agent = this.bySession.get(sessionId);
    if (agent) agent.outbound = outbound;
  }

  detach(sessionId: string, outbound: unknown): void {
    const agent = this.bySession.get(sessionId);
    if (agent && agent.outbound === outbound) agent.outbound = undefined;
  }

  list(): ConnectedAgent[] {
    return [...this.byName.values()];
  }
}
