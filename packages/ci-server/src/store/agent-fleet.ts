// The agent fleet as the API reads it: agents by name (paged), one agent, and the job runs each holds
// (queued after assignment or running, in assignment order). Registration, heartbeats and claims are the
// gRPC face's (store/agent-leases.ts).
import type { StoreDb, StoreSchema } from './database.js';

export type AgentRow = StoreSchema['agents'];

export interface HeldJobRow {
  id: string;
  run_id: string;
  name: string;
  matrix: string;
  status: string;
  started_at: string | null;
  lease_agent_id: string | null;
  position: number;
}

const HELD = ['queued', 'running'];

export async function listAgents(
  db: StoreDb,
  page: { limit: number; offset: number },
): Promise<{ rows: AgentRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    db.selectFrom('agents').selectAll().orderBy('name').limit(page.limit).offset(page.offset).execute(),
    db
      .selectFrom('agents')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst(),
  ]);
  return { rows, total: Number(count?.n ?? 0) };
}

export async function findAgent(db: StoreDb, id: string): Promise<AgentRow | undefined> {
  return db.selectFrom('agents').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The job runs the agents hold, in the order they were assigned. */
export async function heldJobsOf(db: StoreDb, agentIds: string[]): Promise<HeldJobRow[]> {
  if (agentIds.length === 0) return [];
  return db
    .selectFrom('job_runs')
    .select(['id', 'run_id', 'name', 'matrix', 'status', 'started_at', 'lease_agent_id', 'position'])
    .where('lease_agent_id', 'in', agentIds)
    .where('status', 'in', HELD)
    .orderBy('assigned_at')
    .orderBy('id')
    .execute();
}
