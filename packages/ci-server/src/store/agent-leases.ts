// The durable side of the fleet: agent rows (one per name, so an agent keeps its id across reconnects and
// server restarts) and job leases on job_runs. The claim is one conditional UPDATE — only a queued job run
// nobody holds can be taken — so two server processes sharing a database never hand one job to two agents.
import { sql } from 'kysely';
import type { AgentStatus } from './agent-schema.js';
import type { StoreDb } from './database.js';
import { claimStatement, unclaimedByIdStatement } from './dispatch-statements.js';
import { newId } from './ids.js';
import { isPostgres } from './run-concurrency.js';

const ACTIVE = ['queued', 'running'];
const iso = (ms: number) => new Date(ms).toISOString();

export interface AgentRowInput {
  name: string;
  tags: string[];
  capacity: number;
  version: string;
  hostname: string;
}

/** Creates or refreshes the agent's row and returns its id (stable per name). */
export async function upsertAgent(db: StoreDb, info: AgentRowInput, now = Date.now()): Promise<string> {
  const values = {
    tags: JSON.stringify(info.tags),
    capacity: info.capacity,
    version: info.version.slice(0, 100),
    hostname: info.hostname.slice(0, 255),
    status: 'online' as AgentStatus,
    last_heartbeat_at: iso(now),
    registered_at: iso(now),
  };
  const id = newId(now);
  // One statement, so two processes registering the same name at once both end with the same row.
  await db
    .insertInto('agents')
    .values({ id, name: info.name, ...values })
    .onConflict((oc) => oc.column('name').doUpdateSet(values))
    .execute();
  const row = await db
    .selectFrom('agents')
    .select('id')
    .where('name', '=', info.name)
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function setAgentStatus(db: StoreDb, id: string, status: AgentStatus): Promise<void> {
  await db.updateTable('agents').set({ status }).where('id', '=', id).execute();
}

/** One status for several agents (agents/sessions.ts writes its deferred status changes together). */
export async function setAgentsStatus(
  db: StoreDb,
  ids: readonly string[],
  status: AgentStatus,
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('agents')
    .set({ status })
    .where('id', 'in', [...ids])
    .execute();
}

/** Agents whose heartbeats stopped (on any server process) are shown offline. */
export async function markSilentAgentsOffline(db: StoreDb, silentSinceMs: number): Promise<void> {
  await db
    .updateTable('agents')
    .set({ status: 'offline' })
    .where('status', '!=', 'offline')
    .where('last_heartbeat_at', '<', iso(silentSinceMs))
    .execute();
}

/**
 * A heartbeat: the agent row is touched and the leases of the job runs the agent reported (plus those
 * assigned within `graceMs`, which may still be on their way to it) are extended to now + leaseMs.
 */
export async function renewLeases(
  db: StoreDb,
  agentId: string,
  status: AgentStatus,
  reported: readonly string[],
  leaseMs: number,
  graceMs: number,
  now = Date.now(),
): Promise<void> {
  await db
    .updateTable('agents')
    .set({ last_heartbeat_at: iso(now), status })
    .where('id', '=', agentId)
    .execute();
  await db
    .updateTable('job_runs')
    .set({ lease_expires_at: iso(now + leaseMs) })
    .where('lease_agent_id', '=', agentId)
    .where('status', 'in', ACTIVE)
    .where((eb) =>
      reported.length > 0
        ? eb.or([eb('id', 'in', [...reported]), eb('assigned_at', '>=', iso(now - graceMs))])
        : eb('assigned_at', '>=', iso(now - graceMs)),
    )
    .execute();
}

/**
 * Of the job runs an agent says it runs, those it must stop: finished, never given to it, given to
 * another agent, or of a run being canceled.
 */
export async function jobsToStop(
  db: StoreDb,
  agentId: string,
  reported: readonly string[],
): Promise<string[]> {
  if (reported.length === 0) return [];
  const ids = [...new Set(reported)].slice(0, 1000);
  const rows = await db
    .selectFrom('job_runs as j')
    .innerJoin('runs as r', 'r.id', 'j.run_id')
    .select(['j.id', 'j.status', 'j.lease_agent_id', 'r.cancel_requested'])
    .where('j.id', 'in', ids)
    .execute();
  const keep = new Set(
    rows
      .filter((r) => ACTIVE.includes(r.status) && r.lease_agent_id === agentId && r.cancel_requested !== 1)
      .map((r) => r.id),
  );
  return ids.filter((id) => !keep.has(id));
}

/** Job runs the store has leased to the agent that are still active. */
export async function activeLeases(
  db: StoreDb,
  agentId: string,
): Promise<{ id: string; run_id: string; status: string }[]> {
  return db
    .selectFrom('job_runs')
    .select(['id', 'run_id', 'status'])
    .where('lease_agent_id', '=', agentId)
    .where('status', 'in', ACTIVE)
    .execute();
}

/**
 * Whether the agent holds the job run's lease, or ran it (late logs and reports of a job it finished): the
 * agent endpoint refuses every call about a job run for which this is false.
 */
export async function agentHeldJob(
  db: StoreDb,
  jobRunId: string,
  agent: { id: string; name: string },
): Promise<boolean> {
  const row = await db
    .selectFrom('job_runs')
    .select(['lease_agent_id', 'agent'])
    .where('id', '=', jobRunId)
    .executeTakeFirst();
  return Boolean(row && (row.lease_agent_id === agent.id || row.agent === agent.name));
}

/** The atomic claim: true when this call took the job run for the agent. */
export async function claimJob(
  db: StoreDb,
  jobRunId: string,
  agent: { id: string; name: string },
  leaseMs: number,
  now = Date.now(),
): Promise<boolean> {
  const res = await db
    .updateTable('job_runs')
    .set({
      lease_agent_id: agent.id,
      lease_expires_at: iso(now + leaseMs),
      assigned_at: iso(now),
      agent: agent.name,
      updated_at: iso(now),
    })
    .where('id', '=', jobRunId)
    .where('status', '=', 'queued')
    .where('lease_agent_id', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/**
 * Claims several job runs, each for its agent, in one conditional UPDATE (one statement for a whole burst of
 * a matrix); answers the ids this call won. Each row is taken only if it is still queued and unheld, exactly
 * as with `claimJob`.
 */
export async function claimJobs(
  db: StoreDb,
  claims: readonly { jobRunId: string; agent: { id: string; name: string } }[],
  leaseMs: number,
  now = Date.now(),
): Promise<Set<string>> {
  if (claims.length === 0) return new Set();
  if (isPostgres(db)) {
    // One fixed text for any number of claims (store/dispatch-statements.ts).
    const rows = await claimStatement(db, [
      claims.map((c) => c.jobRunId),
      claims.map((c) => c.agent.id),
      claims.map((c) => c.agent.name),
      iso(now + leaseMs),
      iso(now),
    ]);
    return new Set(rows.map((r) => r.id));
  }
  if (claims.length === 1) {
    const [c] = claims;
    return new Set((await claimJob(db, c.jobRunId, c.agent, leaseMs, now)) ? [c.jobRunId] : []);
  }
  const pick = (value: (c: (typeof claims)[number]) => string) =>
    sql<string>`case ${sql.ref('id')} ${sql.join(
      claims.map((c) => sql`when ${c.jobRunId} then ${value(c)}`),
      sql` `,
    )} end`;
  const rows = await db
    .updateTable('job_runs')
    .set({
      lease_agent_id: pick((c) => c.agent.id),
      agent: pick((c) => c.agent.name),
      lease_expires_at: iso(now + leaseMs),
      assigned_at: iso(now),
      updated_at: iso(now),
    })
    .where(
      'id',
      'in',
      claims.map((c) => c.jobRunId),
    )
    .where('status', '=', 'queued')
    .where('lease_agent_id', 'is', null)
    .returning('id')
    .execute();
  return new Set(rows.map((r) => r.id));
}

/** Gives a claimed job run that never started back to the queue. */
export async function releaseClaim(db: StoreDb, jobRunId: string, agentId: string): Promise<boolean> {
  const res = await db
    .updateTable('job_runs')
    .set({ lease_agent_id: null, lease_expires_at: null, assigned_at: null, agent: null })
    .where('id', '=', jobRunId)
    .where('lease_agent_id', '=', agentId)
    .where('status', '=', 'queued')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export interface LapsedLease {
  id: string;
  run_id: string;
  status: string;
  lease_agent_id: string | null;
  agent: string | null;
}

/**
 * At start-up: leases that would lapse within `leaseMs` are extended to now + leaseMs, so agents get a full
 * lease period to reconnect to a restarted server before their jobs count as lost.
 */
export async function extendLeasesAtStart(db: StoreDb, leaseMs: number, now = Date.now()): Promise<void> {
  await db
    .updateTable('job_runs')
    .set({ lease_expires_at: iso(now + leaseMs) })
    .where('status', 'in', ACTIVE)
    .where('lease_agent_id', 'is not', null)
    .where('lease_expires_at', '<', iso(now + leaseMs))
    .execute();
}

/**
 * The agent's stream dropped: its leases end `graceMs` from now unless it comes back (registration renews
 * them), so a dead agent's jobs are re-queued within seconds rather than after a whole lease period.
 */
export async function shortenLeases(
  db: StoreDb,
  agentId: string,
  graceMs: number,
  now = Date.now(),
): Promise<void> {
  await db
    .updateTable('job_runs')
    .set({ lease_expires_at: iso(now + graceMs) })
    .where('lease_agent_id', '=', agentId)
    .where('status', 'in', ACTIVE)
    .where('lease_expires_at', '>', iso(now + graceMs))
    .execute();
}

/** Active job runs whose lease lapsed (oldest first, bounded). */
export async function lapsedLeases(db: StoreDb, now = Date.now(), limit = 200): Promise<LapsedLease[]> {
  return db
    .selectFrom('job_runs')
    .select(['id', 'run_id', 'status', 'lease_agent_id', 'agent'])
    .where('lease_expires_at', '<', iso(now))
    .where('status', 'in', ACTIVE)
    .orderBy('lease_expires_at')
    .limit(limit)
    .execute();
}

export interface QueuedJob {
  id: string;
  run_id: string;
  name: string;
  version_id: string;
  created_at: string;
}

/**
 * Queued job runs nobody holds, oldest first (bounded): what the dispatcher may still owe an agent. `ids`
 * narrows to those job runs; `after` pages on (created_at, id) through a long queue.
 */
export async function unclaimedJobs(
  db: StoreDb,
  limit: number,
  ids?: readonly string[],
  after?: { created_at: string; id: string },
): Promise<QueuedJob[]> {
  let q = db
    .selectFrom('job_runs as j')
    .innerJoin('runs as r', 'r.id', 'j.run_id')
    .select(['j.id', 'j.run_id', 'j.name', 'r.version_id', 'j.created_at'])
    .where('j.status', '=', 'queued')
    .where('j.lease_agent_id', 'is', null);
  if (ids) {
    if (ids.length === 0) return [];
    // Once per run created: one fixed text on PostgreSQL (store/dispatch-statements.ts).
    if (!after && isPostgres(db)) return unclaimedByIdStatement(db, [[...ids], limit]);
    q = q.where('j.id', 'in', [...ids]);
  }
  if (after)
    q = q.where((eb) =>
      eb.or([
        eb('j.created_at', '>', after.created_at),
        eb.and([eb('j.created_at', '=', after.created_at), eb('j.id', '>', after.id)]),
      ]),
    );
  return q.orderBy('j.created_at').orderBy('j.id').limit(limit).execute();
}
