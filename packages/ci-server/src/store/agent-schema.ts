// Row types of migration 0004_agents: the agent fleet. The lease columns it adds to job_runs are in schema.ts.

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
}
