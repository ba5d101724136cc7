// Every few seconds: job runs whose lease lapsed (their agent stopped heartbeating — killed, partitioned,
// crashed) are taken back — one that never started returns to the queue, a running one fails with "agent
// <name> was lost" and runs again as a new attempt while its `retry` allows — agents that went silent are
// shown offline, overdue approval gates are expired, and the dispatcher resyncs with the store. With a 30 s lease and a 5 s sweep a dead
// agent's jobs move within 35 s. Safe to run in several server processes at once: each step re-checks
// the lease inside the run's transaction.

import { extendLeasesAtStart, lapsedLeases, markSilentAgentsOffline } from '../store/agent-leases.js';
import type { StoreDb } from '../store/database.js';
import type { AssignmentBuilder } from './assignment-builder.js';
import type { Dispatcher, DispatcherLog } from './dispatcher.js';
import { expireOverdueGates } from './gate-timeouts.js';
import type { JobTransitions } from './job-transitions.js';

export interface SweeperDeps {
  db: StoreDb;
  dispatcher: Dispatcher;
  transitions: JobTransitions;
  builder: AssignmentBuilder;
  leaseMs: number;
  intervalMs: number;
  log: DispatcherLog;
  systemLine(jobRunId: string, text: string): Promise<void>;
}

export function lostMessage(agentName: string, leaseMs: number): string {
  return `agent ${agentName} was lost (no heartbeat for ${Math.round(leaseMs / 1000)}s)`;
}

export class LeaseSweeper {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  /** When the last sweep completed: until then the control plane could hear its agents. */
  private lastGoodAt = Date.now();

  constructor(private readonly deps: SweeperDeps) {}

  start(): void {
    this.lastGoodAt = Date.now();
    this.timer = setInterval(() => void this.tick(), this.deps.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One sweep (ticks never overlap). */
  tick(): Promise<void> {
    if (!this.running)
      this.running = this.sweep()
        .catch((err) => this.deps.log.error({ err }, 'lease sweep failed'))
        .finally(() => {
          this.running = undefined;
        });
    return this.running;
  }

  private async sweep(): Promise<void> {
    const { db, transitions, dispatcher, leaseMs, intervalMs } = this.deps;
    // A lease runs from the last moment the control plane could have heard the agent. When sweeps stopped
    // succeeding for a while — the database was down (no heartbeat could be stored) or this process was
    // stalled — every lease gets a full period from now instead of lapsing for the server's own outage.
    const now = Date.now();
    if (now - this.lastGoodAt > 2 * intervalMs + 1_000) {
      await extendLeasesAtStart(db, leaseMs, now);
      this.deps.log.warn(
        { outageMs: now - this.lastGoodAt },
        'the control plane could not hear its agents for a while; leases extended by a full period',
      );
      this.lastGoodAt = Date.now();
      return;
    }
    for (const lease of await lapsedLeases(db)) {
      if (!lease.lease_agent_id) continue;
      const name = lease.agent ?? lease.lease_agent_id;
      const message = lostMessage(name, leaseMs);
      const outcome = await transitions.lost(lease.id, lease.lease_agent_id, message, true);
      if (!outcome) continue;
      dispatcher.released(lease.id);
      if (outcome === 'released') {
        await dispatcher.enqueue([lease.id]);
        continue;
      }
      this.deps.log.warn({ jobRunId: lease.id, agent: name, outcome }, message);
      await this.deps
        .systemLine(
          lease.id,
          `[ci] ${message}; ${outcome === 'retried' ? 'the job runs again as a new attempt' : 'the job failed'}`,
        )
        .catch(() => undefined);
    }
    await markSilentAgentsOffline(db, Date.now() - leaseMs);
    await expireOverdueGates(this.deps);
    await dispatcher.resync();
    this.lastGoodAt = Date.now();
  }

  /** Restarts the outage clock (the sweeper's timer starts now). */
  resetClock(): void {
    this.lastGoodAt = Date.now();
  }
}
