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

  list(): ConnectedAgent[] {
    return [...this.byName.values()];
  }
}
