// The detailed health view behind GET /api/v1/admin/health: the database (reachable, round-trip latency),
// the trigger scheduler (leader or not, when it last ticked and how late that tick was) and the agent fleet
// (from the `agents` table when the store has one, else from the in-memory registry of this process).
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import type { StoreDb } from '../store/database.js';

export interface SchedulerStatus {
  running: boolean;
  leader: boolean;
  holder: string;
  tick_interval_ms: number;
  last_tick_at: string | null;
  /** How much later than planned the last tick started (event-loop or database stalls show here). */
  tick_lag_ms: number | null;
  last_error: string | null;
  last_cron_fired_at: string | null;
}

export interface FleetAgent {
  name: string;
  lastSeenAt: Date;
  runningJobIds: string[];
  capacity: number;
}

export interface HealthDeps {
  db: StoreDb;
  dialect: string;
  scheduler: () => SchedulerStatus;
  /** Agents connected to this process (fallback when the store has no agents table). */
  connectedAgents: () => FleetAgent[];
  now: () => Date;
}

export interface FleetStatus {
  source: 'database' | 'memory';
  total: number;
  online: number;
  busy: number;
  offline: number;
  capacity: number;
}

async function databaseStatus(deps: HealthDeps) {
  const started = performance.now();
  try {
    await sql`select 1`.execute(deps.db);
    return {
      ok: true,
      dialect: deps.dialect,
      latency_ms: Math.round((performance.now() - started) * 100) / 100,
    };
  } catch (err) {
    return {
      ok: false,
      dialect: deps.dialect,
      latency_ms: null,
      error: (err as Error).message.slice(0, 500),
    };
  }
}

/** The fleet from the agents table (status online/busy/offline); null when there is no such table. */
async function fleetFromStore(db: StoreDb): Promise<FleetStatus | null> {
  try {
    const result = await sql<{ status: string; n: number | string; cap: number | string | null }>`
      select status, count(*) as n, sum(capacity) as cap from agents group by status`.execute(db);
    const fleet: FleetStatus = { source: 'database', total: 0, online: 0, busy: 0, offline: 0, capacity: 0 };
    for (const r of result.rows) {
      const n = Number(r.n);
      fleet.total += n;
      if (r.status === 'online' || r.status === 'busy' || r.status === 'offline') fleet[r.status] += n;
      if (r.status !== 'offline') fleet.capacity += Number(r.cap ?? 0);
    }
    return fleet;
  } catch {
    return null;
  }
}

function fleetFromMemory(deps: HealthDeps): FleetStatus {
  const now = deps.now().getTime();
  const fleet: FleetStatus = { source: 'memory', total: 0, online: 0, busy: 0, offline: 0, capacity: 0 };
  for (const a of deps.connectedAgents()) {
    fleet.total++;
    // An agent not heard from for a minute is as good as gone.
    if (now - a.lastSeenAt.getTime() > 60_000) fleet.offline++;
    else {
      fleet.capacity += a.capacity;
      if (a.runningJobIds.length > 0) fleet.busy++;
      else fleet.online++;
    }
  }
  return fleet;
}

export async function healthReport(deps: HealthDeps) {
  const database = await databaseStatus(deps);
  const scheduler = deps.scheduler();
  const agents = (database.ok ? await fleetFromStore(deps.db) : null) ?? fleetFromMemory(deps);
  const lagging = scheduler.running && scheduler.tick_lag_ms !== null && scheduler.tick_lag_ms > 10_000;
  return {
    status: database.ok && !lagging ? ('ok' as const) : ('degraded' as const),
    checked_at: deps.now().toISOString(),
    database,
    scheduler,
    agents,
  };
}
