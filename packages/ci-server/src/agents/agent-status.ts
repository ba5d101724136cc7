// The agents' status rows (online, busy, offline: what the agents page shows), written by the session calls
// (agents/sessions.ts) as jobs come and go. With short jobs an agent flips between online and busy all the
// time, so a row is written at most once a second per agent; a change inside that second is deferred, and
// the deferred changes of all agents are written together by one timer — one UPDATE per status value — so
// fifty busy agents cost about one statement a second instead of fifty.
import type { AgentRegistry, ConnectedAgent } from '../dispatch/agent-registry.js';
import type { ExecutionData } from '../services/execution-data.js';
import { setAgentStatus, setAgentsStatus } from '../store/agent-leases.js';
import type { AgentStatus } from '../store/agent-schema.js';
import type { StoreDb } from '../store/database.js';

/** Agent status rows are written at most this often (heartbeats write them anyway). */
export const STATUS_WRITE_MS = 1_000;

/** An agent's status as this process sees it. */
export function statusOf(agent: ConnectedAgent): AgentStatus {
  if (!agent.outbound || agent.outbound.closed) return 'offline';
  return agent.draining || agent.leased.size >= agent.capacity ? 'busy' : 'online';
}

export interface AgentStatusDeps {
  db: StoreDb;
  registry: AgentRegistry;
  data: Pick<ExecutionData, 'metrics'>;
}

export class AgentStatusWriter {
  private readonly written = new Map<string, AgentStatus>();
  private readonly writtenAt = new Map<string, number>();
  /** Agents whose status changed within a second of its last write: written together by one timer. */
  private readonly deferred = new Map<string, ConnectedAgent>();
  private deferTimer?: NodeJS.Timeout;

  constructor(
    private readonly deps: AgentStatusDeps,
    /** The time in ms (tests give their own). */
    private readonly clock: () => number = Date.now,
  ) {}

  /** The row was written elsewhere (a heartbeat, a dropped stream): nothing to write for it now. */
  noteWritten(agentId: string, status: AgentStatus): void {
    this.written.set(agentId, status);
  }

  /** The agent registered again: its next status is written whatever this process wrote before. */
  forget(agentId: string): void {
    this.written.delete(agentId);
  }

  /**
   * Writes the agent's status when it changed (at once when its last write is a second old, or `force`;
   * else with the next deferred round), and the running-jobs gauge.
   */
  async sync(agent: ConnectedAgent, force = false): Promise<void> {
    this.deps.data.metrics.setJobsRunning(this.deps.registry.runningJobs());
    if (this.deferred.has(agent.id) && !force) return;
    const status = statusOf(agent);
    if (!force && this.written.get(agent.id) === status) return;
    const wait = (this.writtenAt.get(agent.id) ?? 0) + STATUS_WRITE_MS - this.clock();
    if (!force && wait > 0) {
      this.deferred.set(agent.id, agent);
      this.schedule(wait);
      return;
    }
    this.written.set(agent.id, status);
    this.writtenAt.set(agent.id, this.clock());
    await setAgentStatus(this.deps.db, agent.id, status);
  }

  private schedule(wait: number): void {
    if (this.deferTimer) return;
    this.deferTimer = setTimeout(() => {
      this.deferTimer = undefined;
      void this.writeDeferred().catch(() => undefined);
    }, wait);
    this.deferTimer.unref();
  }

  /**
   * The deferred statuses whose second has passed, one UPDATE per status value. An agent written less than
   * a second ago waits for the next round; one whose status came back to what was written costs nothing.
   */
  async writeDeferred(): Promise<void> {
    const now = this.clock();
    const byStatus = new Map<AgentStatus, string[]>();
    let next = Number.POSITIVE_INFINITY;
    for (const agent of [...this.deferred.values()]) {
      const wait = (this.writtenAt.get(agent.id) ?? 0) + STATUS_WRITE_MS - now;
      if (wait > 0) {
        next = Math.min(next, wait);
        continue;
      }
      this.deferred.delete(agent.id);
      const status = statusOf(agent);
      if (this.written.get(agent.id) === status) continue;
      this.written.set(agent.id, status);
      this.writtenAt.set(agent.id, now);
      const ids = byStatus.get(status);
      if (ids) ids.push(agent.id);
      else byStatus.set(status, [agent.id]);
    }
    if (this.deferred.size > 0) this.schedule(Number.isFinite(next) ? next : STATUS_WRITE_MS);
    for (const [status, ids] of byStatus) await setAgentsStatus(this.deps.db, ids, status);
  }
}
