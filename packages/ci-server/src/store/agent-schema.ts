// Row types of migrations 0004_agents and 0010_agent_identity: the agent fleet. The lease columns it adds to job_runs are in schema.ts.

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
