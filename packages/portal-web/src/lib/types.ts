// Shapes of the portal API as the UI reads them. What the server answers is generated from its OpenAPI
// description (`npm run gen:api -w packages/web-kit`), never hand-copied; what stays hand-written here is
// the UI's own: the environment list of the connection form and the connection descriptor the browser keeps
// (a user's own connections live in the browser and carry their credentials).
import type { ResponseOf } from '@app/web-kit';
import type { paths } from '@app/web-kit/api/portal';

/** An engine id, as provider-meta lists the engines the server runs (lib/engines.ts). */
export type EngineType = string;

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

// ---------- shapes the server answers: generated from its OpenAPI description (@app/web-kit/api/portal) ----------

type Me = ResponseOf<paths, '/api/auth/me'>;
/** The signed-in person (`GET /api/auth/me`). */
export type SessionUser = NonNullable<Me['user']>;
export type Role = SessionUser['role'];

export type QueryResult = ResponseOf<paths, '/api/db/query', 'post'>;
export type Pagination = QueryResult['pagination'];

export type DbObject = ResponseOf<paths, '/api/db/objects/list', 'post'>['objects'][number];
export type ObjectDetail = ResponseOf<paths, '/api/db/objects/describe', 'post'>;
export type ColumnSchema = ObjectDetail['columns'][number];
export type IndexSchema = ObjectDetail['indexes'][number];
export type ForeignKeySchema = ObjectDetail['foreignKeys'][number];

export type Approval = ResponseOf<paths, '/api/approvals/{id}'>;
export type ApprovalStatus = Approval['status'];

export type AuditPage = ResponseOf<paths, '/api/admin/audit'>;
export type AuditEvent = AuditPage['events'][number];

export type ServiceToken = ResponseOf<paths, '/api/admin/service-tokens'>['tokens'][number];

/** One engine's capability flags and connection-form fields (`POST /api/db/provider-meta` with an empty body). */
export type EngineMeta = NonNullable<ResponseOf<paths, '/api/db/provider-meta', 'post'>['engines']>[number];

/** One page of the table browser (`POST /api/db/table/rows`). */
export type TablePage = ResponseOf<paths, '/api/db/table/rows', 'post'>;
export type TableColumn = TablePage['columns'][number];
/** The edit batch's answer (`POST /api/db/table/edits`): the statements, and whether they ran. */
export type TableEditAnswer = ResponseOf<paths, '/api/db/table/edits', 'post'>;

/** The import preview (`POST /api/db/import/preview`): source fields, their kinds, the columns, a mapping. */
export type ImportPreview = ResponseOf<paths, '/api/db/import/preview', 'post'>;
/** One line of the import's streamed answer (`POST /api/db/import`, application/x-ndjson). */
export type ImportEvent =
  paths['/api/db/import']['post']['responses'][200]['content']['application/x-ndjson'];
