// Shapes of account provisioning (database-portal.md "Admin", POST /api/admin/datasources/{id}/account…):
// the request, what the database already has (inventory), the statements of the plan and their outcomes.
// Plain data, no I/O.

export type AccountProfile = 'read' | 'readwrite';

export interface AccountRequest {
  profile: AccountProfile;
  /** 1..100 schema names (databases on MySQL-style engines). */
  schemas: string[];
  /** Also the agent's read-only role. */
  agent: boolean;
  /** An account able to create roles, used instead of the datasource's own. */
  bootstrap?: { user: string; password: string };
  /** KV v2 path under the configured mount where generated passwords are written. */
  vaultPath?: string;
}

export interface AccountInventory {
  engine: string;
  database: string;
  /** The account the statements run as. */
  connectedAs: string;
  canCreateRoles: boolean;
  schemas: Array<{ name: string; exists: boolean }>;
  /** Which of the planned accounts already exist (their password is then reset, not created). */
  existingAccounts: string[];
}

export interface PlannedStatement {
  /** The statement as shown: passwords replaced by `********`. */
  shown: string;
  purpose: string;
  /** A refusal does not stop the run (e.g. default privileges only the schema owner may set). */
  optional?: boolean;
  /** The account (role or user name) the statement is for. */
  account: string;
}

export interface AccountPlan {
  roleName: string;
  agentRoleName?: string;
  statements: PlannedStatement[];
  blockers: string[];
}

export type StatementOutcome = 'ran' | 'refused' | 'skipped';

export interface RanStatement extends PlannedStatement {
  outcome: StatementOutcome;
  error?: string;
}

export interface Destination {
  kind: 'vault' | 'none';
  /** KV v2 path (mount included) the passwords are or would be written to. */
  path?: string;
  version?: number;
  reason?: string;
}
