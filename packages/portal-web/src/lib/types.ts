// Shapes of the portal API as the UI reads them (spec/database-portal.md, decisions.md, docs/portal-*.md).
// Only the fields the UI uses are typed; everything else passes through untouched.

export type Role = 'admin' | 'user';

export interface SessionUser {
  role: Role;
  username: string;
}

export const ENGINE_TYPES = [
  'postgres',
  'mysql',
  'mssql',
  'oracle',
  'sqlite',
  'libsql',
  'duckdb',
  'mongodb',
  'redis',
  'leveldb',
  'couchbase',
  'clickhouse',
  'druid',
  'trino',
  'athena',
  'elasticsearch',
  'opensearch',
  'cassandra',
] as const;
export type EngineType = (typeof ENGINE_TYPES)[number];

export const ENVIRONMENTS = ['production', 'staging', 'development', 'local', 'other'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

/** A connection descriptor: a managed datasource (from the server) or one of the user's own. */
export interface Connection {
  id: string;
  name: string;
  type: EngineType;
  host?: string;
  port?: number;
  user?: string;
  password?: string;
  database?: string;
  environment?: Environment;
  queryTimeout?: number;
  createdAt?: string;
  managed?: boolean;
  available?: boolean;
  unavailableReason?: string;
  readOnly?: boolean;
  requireTicket?: boolean;
  approvalsRequired?: number;
  canExport?: boolean;
  policy?: { writeApproval?: boolean; readOnly?: boolean; requireTicket?: boolean; [k: string]: unknown };
  /** Server storage: which credentials the server holds sealed (never sent back). */
  storedSecrets?: string[];
  [k: string]: unknown;
}

export interface Pagination {
  limit: number;
  offset: number;
  hasMore: boolean;
  totalReturned: number;
  wasLimited: boolean;
}

export interface QueryResult {
  rows: Record<string, unknown>[];
  fields: string[];
  rowCount: number;
  executionTime: number;
  columnTypes?: unknown;
  warnings?: string[];
  pagination: Pagination;
  explainFormat?: string;
}

export interface DbObject {
  path: string[];
  name: string;
  kind: string;
  status?: string;
  rowCount?: number;
  sizeBytes?: number;
}

export interface ColumnSchema {
  name: string;
  type: string;
  nullable: boolean;
  isPrimary: boolean;
  defaultValue?: unknown;
}

export interface IndexSchema {
  name: string;
  columns: string[];
  unique: boolean;
}

export interface ForeignKeySchema {
  columnName: string;
  constraintName?: string;
  referencedPath?: string[];
  referencedTable?: string;
  referencedColumn?: string;
  onUpdate?: string;
  onDelete?: string;
}

export interface ObjectDetail {
  object: DbObject;
  columns: ColumnSchema[];
  indexes: IndexSchema[];
  foreignKeys: ForeignKeySchema[];
  definition?: string;
}

export type ApprovalStatus = 'pending' | 'approved' | 'rejected' | 'expired';

export interface Approval {
  id: string;
  datasourceId: string;
  datasourceName?: string;
  requester: string;
  statement: string;
  route: string;
  status: ApprovalStatus;
  requestedAt: string;
  reviewer?: string;
  reviewedAt?: string;
  windowUntil?: string;
  guardrail?: string;
  approvals?: { reviewer: string; at: string }[];
  ticket?: string;
  note?: string;
}

export interface AuditEvent {
  id?: string;
  type: string;
  actor: string | null;
  connection?: string | null;
  result: 'success' | 'failure';
  at: string;
  [k: string]: unknown;
}

export interface AuditPage {
  events: AuditEvent[];
  total: number;
  limit: number;
  offset: number;
  source: 'store' | 'buffer';
}

export interface ServiceToken {
  id: string;
  name: string;
  role: Role;
  groups: string[];
  datasources: string[] | null;
  requireApproval: boolean;
  trustedApprovals: boolean;
  created_at: string;
  prefix?: string;
  last_used_at?: string | null;
}

export interface EngineMeta {
  engine: string;
  dialect: string;
  defaultPort?: number;
  /** A database file under the portal's folder instead of a server (no host or port). */
  fileBased?: boolean;
  /** Engine-specific descriptor fields the connection form asks for (Cassandra's data center, Athena's region, …). */
  connectionFields?: Array<{ name: string; label: string; required: boolean; placeholder?: string }>;
  capabilities: {
    supportsExplain: boolean;
    explainModes: ('estimate' | 'analyze')[];
    [k: string]: unknown;
  };
}
