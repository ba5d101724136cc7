// Row types of migration 0004_agents: the agent fleet and the lease columns it adds to job_runs. Other
// modules keep using CoreDB; the dispatch code uses DispatchDB, which sees the extra columns.
import type { Kysely } from 'kysely';
import type { AuthDB } from '../store/auth-schema.js';
import type { CoreDB, JobRunsTable } from '../store/schema.js';

export type AgentStatus = 'online' | 'busy' | 'offline';

export interface AgentsTable {
  id: string;
  /** Unique: an agent re-registering under its name keeps its id (and its leases). */
  name: string;
  /** JSON array of routing tags. */
  tags: string;
  capacity: number;
  version: string;
  hostname: string;
  status: AgentStatus;
  last_heartbeat_at: string | null;
  registered_at: string;
  /** SHA-256 hex of the agent's own credential (migration 0010); null until it registers with one. */
  credential_hash: string | null;
  /** When an admin revoked the agent; its credential is refused from then on. */
  revoked_at: string | null;
}

export interface LeaseColumns {
  /** The agent holding the job run; null when nobody does. */
  lease_agent_id: string | null;
  /** The lease lapses at this time unless a heartbeat of the agent renews it. */
  lease_expires_at: string | null;
  /** When the dispatcher claimed the job run for the agent. */
  assigned_at: string | null;
  /** Why the job run failed, in one line (agent lost, unknown reference, the agent's message). */
  error: string | null;
}

export type DispatchJobRunsTable = JobRunsTable & LeaseColumns;

export interface DispatchDB extends Omit<CoreDB, 'job_runs'> {
  job_runs: DispatchJobRunsTable;
  agents: AgentsTable;
  global_secrets: AuthDB['global_secrets'];
}

export type DispatchDb = Kysely<DispatchDB>;
