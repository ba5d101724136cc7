// Response schemas shared by the portal's routes, one per response type, reused by every route that answers
// it. A response schema both documents the answer in the OpenAPI description (and so the web kit's generated
// types) and serialises it: fields it does not list are dropped and declared types are coerced. So every
// object here keeps `additionalProperties: true` unless its fields are closed by the spec, and a field whose
// value may be null or of several types is declared without a type (`Type.Unknown()`): the black-box tests
// compare exact bodies, and a schema must never change what a route answers.
import { type TSchema, Type } from 'typebox';
import { Any, JsonObject, NullableInteger, NullableString, Open, Rows } from './response-shapes.js';

export * from './governance-responses.js';
export * from './response-shapes.js';

// ---------- sign-in and session ----------

export const Role = Type.Union([Type.Literal('admin'), Type.Literal('user')]);
export const SessionUser = Type.Object({ role: Role, username: Type.String() });
export const LoginAnswer = Open(
  { success: Type.Boolean(), role: Type.Optional(Role), message: Type.Optional(Type.String()) },
  '`{success: true, role}`; a refusal is `{success: false, message, totpRequired?}`',
);
export const LogoutAnswer = Open({ success: Type.Boolean(), redirectUrl: Type.Optional(Type.String()) });
export const MeAnswer = Open({ authenticated: Type.Boolean(), user: Type.Optional(SessionUser) });
export const AuthProviders = Open({ provider: Type.String(), local: Type.Boolean(), oidc: Type.Boolean() });

// ---------- connections and storage ----------

/** A connection as the server shows it: a managed datasource (no secrets) or a stored descriptor. */
export const Connection = Open(
  {
    id: Type.String(),
    name: Type.Optional(Type.String()),
    type: Type.Optional(Type.String()),
    managed: Type.Optional(Type.Boolean()),
    available: Type.Optional(Type.Boolean()),
    unavailableReason: Type.Optional(Type.String()),
    readOnly: Type.Optional(Type.Boolean()),
    requireTicket: Type.Optional(Type.Boolean()),
    approvalsRequired: Type.Optional(Type.Number()),
    canExport: Type.Optional(Type.Boolean()),
    policy: Type.Optional(Open({})),
    storedSecrets: Type.Optional(
      Type.Array(Type.String(), {
        description: 'Saved connections: the credentials the server holds sealed',
      }),
    ),
    createdAt: Type.Optional(Type.String()),
    updatedAt: Type.Optional(Type.String()),
  },
  'Connection descriptor without secrets (database-portal.md)',
);
export const ManagedConnections = Open({
  connections: Type.Array(Connection),
  pendingSeeds: Type.Array(
    Open({ datasourceId: Type.String(), runId: Type.String(), status: Type.String(), mode: Type.String() }),
    { description: 'Seed runs queued or running on the listed datasources' },
  ),
});
export const StoredConnections = Open({ connections: Type.Array(Connection) });
export const StoredConnection = Open({ connection: Connection });
export const SavedQuery = Open({
  id: Type.String(),
  name: Type.String(),
  sql: Type.String(),
  connectionId: NullableString,
  description: NullableString,
  tags: Type.Array(Type.String()),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
export const SavedQueryAnswer = Open({ query: SavedQuery });
export const HistoryEntry = Open({
  // PostgreSQL storage keeps the id as a bigint, which its driver reads as a digit string: declared as either,
  // so the serialiser passes it on as stored.
  id: Type.Union([Type.Integer(), Type.String({ pattern: '^[0-9]+$' })]),
  connectionId: NullableString,
  connectionName: NullableString,
  sql: Type.String(),
  status: Type.Union([Type.Literal('success'), Type.Literal('failure')]),
  rowCount: NullableInteger,
  durationMs: NullableInteger,
  error: NullableString,
  executedAt: Type.String(),
});
export const HistoryEntryAnswer = Open({ entry: HistoryEntry });
const PageOf = (key: string, item: TSchema) =>
  Open({ [key]: Type.Array(item), total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() });
export const SavedQueryPage = PageOf('queries', SavedQuery);
export const HistoryPage = PageOf('entries', HistoryEntry);
export const Deleted = Open({ deleted: Type.Integer() });

// ---------- statements ----------

export const Pagination = Type.Object({
  limit: Type.Integer(),
  offset: Type.Integer(),
  hasMore: Type.Boolean(),
  totalReturned: Type.Integer(),
  wasLimited: Type.Boolean(),
});
export const QueryResult = Open({
  rows: Rows,
  fields: Type.Array(Type.String()),
  rowCount: Type.Number(),
  executionTime: Type.Number(),
  columnTypes: Type.Optional(Any),
  warnings: Type.Optional(Type.Array(Type.String())),
  pagination: Pagination,
  explainFormat: Type.Optional(Type.String()),
});
export const ScriptResult = Open({
  executedCount: Type.Integer(),
  statements: Type.Array(
    Open({
      index: Type.Integer(),
      status: Type.Union([Type.Literal('done'), Type.Literal('failed')]),
      rowCount: Type.Number(),
      fields: Type.Optional(Type.Array(Type.String())),
      rows: Type.Optional(Rows),
      truncated: Type.Optional(Type.Boolean({ description: 'more rows than a script statement returns' })),
      durationMs: Type.Number(),
      error: Type.Optional(Type.String()),
    }),
  ),
});
export const TransactionAnswer = JsonObject(
  '`{transactionId, status}` for begin/commit/rollback, a statement result for `query`',
);
export const ExportFile = Type.String({
  description: 'The file (csv, json, sql): Content-Disposition attachment, X-Export-Rows, X-Export-Extension',
});
export const Cancelled = Open({ cancelled: Type.Boolean() });
export const Disconnected = Open({ disconnected: Any, transactionsRolledBack: Any });
export const ConnectionTest = Open({
  success: Type.Boolean(),
  latencyMs: Type.Number(),
  engine: Type.Optional(Type.String()),
  serverVersion: Type.Optional(Type.String()),
  currentUser: Type.Optional(Type.String()),
  currentDatabase: Type.Optional(Type.String()),
  currentSchema: Type.Optional(Type.String()),
});

export const Capabilities = Open({
  supportsExplain: Type.Boolean(),
  explainModes: Type.Array(Type.Union([Type.Literal('estimate'), Type.Literal('analyze')])),
  supportsCreateTable: Type.Boolean(),
  supportsInlineRowEdit: Type.Boolean(),
  supportsMaintenance: Type.Boolean(),
  declaresForeignKeys: Type.Boolean(),
  parameterStyle: Type.Union([
    Type.Literal('$n'),
    Type.Literal('?'),
    Type.Literal(':n'),
    Type.Literal('@pn'),
  ]),
  supportsPositionalParams: Type.Boolean(),
  supportsCancel: Type.Boolean(),
  supportsTransactions: Type.Boolean(),
  maintenanceOperations: Type.Array(
    Open({ type: Type.String(), targetRequired: Type.Boolean(), description: Type.String() }),
  ),
  readOnlyEngine: Type.Optional(Type.Boolean()),
  sqlExport: Type.Optional(Type.Boolean()),
});
export const ConnectionField = Open({
  name: Type.String(),
  label: Type.String(),
  required: Type.Boolean(),
  placeholder: Type.Optional(Type.String()),
});
export const EditorMeta = Type.Object(
  {
    request: Type.Union([Type.Literal('sql'), Type.Literal('json'), Type.Literal('command')], {
      description:
        'sql: statements (a script may hold several); json: one JSON request; command: one command line',
    }),
    language: Type.String({ description: 'the Monaco language the editor colours the text with' }),
    formatter: Type.Optional(
      Type.String({
        description: 'Format: an sql-formatter language, or json (pretty-printed); absent: no formatting',
      }),
    ),
    keywords: Type.Array(Type.String(), { description: 'words completion offers besides the objects' }),
    splitter: Type.Record(Type.String(), Any, {
      description:
        "the dialect's dbgate-query-splitter options: the editor splits a script where the server does",
    }),
    quote: Type.Object(
      { open: Type.String(), close: Type.String() },
      {
        description:
          'how the dialect quotes an identifier: open, the name with each close doubled, close (`"`/`"`, `` ` ``/`` ` ``, `[`/`]`)',
      },
    ),
  },
  { description: "what the web editor needs of the engine's text (providers/editor-facts.ts)" },
);
export const EngineMeta = Open({
  engine: Type.String(),
  label: Type.String({ description: 'the name people know the engine by (PostgreSQL, SQL Server)' }),
  dialect: Type.String(),
  defaultPort: Type.Optional(Type.Number()),
  fileBased: Type.Boolean(),
  capabilities: Capabilities,
  connectionFields: Type.Optional(Type.Array(ConnectionField)),
  editor: EditorMeta,
  columnTypes: Type.Optional(
    Type.Array(Type.String(), {
      description:
        'types the table designer offers (POST /api/db/tables/ddl); absent: the engine has no designer',
    }),
  ),
  defaultExpressions: Type.Optional(
    Type.Array(Type.String(), { description: 'the non-literal column defaults the designer accepts' }),
  ),
});
export const ProviderMeta = Open(
  { engines: Type.Optional(Type.Array(EngineMeta)) },
  'One engine (`EngineMeta`) for `{type}` or `{connection}`; `{engines}` for an empty body',
);
export const MaintenanceResult = Open({
  type: Type.String(),
  target: Type.Optional(Type.String()),
  rows: Rows,
  fields: Type.Array(Type.String()),
  rowCount: Type.Number(),
  executionTime: Type.Number(),
});
// Health and monitoring readings are sent by `JSON.stringify` (rowsAsJson): the schemas only describe them,
// so an engine's session id stays the number or text it keeps.
const healthFields = {
  activeConnections: Type.Number(),
  databaseSize: Type.String({ description: 'as people read it (42 MB)' }),
  cacheHitRatio: Type.String({ description: 'a percentage, or "n/a" where the engine keeps none' }),
  slowQueries: Type.Array(Open({ query: Type.String(), calls: Type.Number(), avgTime: Type.Number() })),
  activeSessions: Type.Array(
    Open({
      pid: Type.Union([Type.Number(), Type.String()], {
        description: 'the session id (`target` of the cancel and kill maintenance operations)',
      }),
      user: Type.String(),
      database: Type.String(),
      state: Type.String(),
      query: Type.String(),
      duration: Type.Number({ description: 'milliseconds' }),
    }),
  ),
};
export const HealthReading = Open(healthFields, 'A connection health reading (providers/types.ts)');
export const LockWait = Open({
  pid: Type.Number(),
  blockedBy: Type.Array(Type.Number(), { description: 'the sessions holding the lock' }),
  lockType: Type.String(),
  mode: Type.String(),
  relation: Type.String(),
  user: Type.String(),
  query: Type.String(),
  waitingMs: Type.Number(),
});
export const MonitoringReading = Open(
  {
    ...healthFields,
    locks: Type.Optional(
      Type.Array(LockWait, {
        description: 'where the engine reports lock waits (PostgreSQL, MySQL/MariaDB InnoDB)',
      }),
    ),
  },
  "The health reading plus the engine's own counters (numbers, text, or an object of them: waiting locks, uptime, max connections, …)",
);
export const ConnectionProfile = Open({
  engine: Type.String(),
  serverVersion: Type.String(),
  currentUser: Type.Optional(Type.String()),
  currentDatabase: Type.Optional(Type.String()),
  currentSchema: Type.Optional(Type.String()),
});
export const PoolStats = Open({ pools: Type.Array(JsonObject('A connection pool')) });

// ---------- objects ----------

export const DbObject = Open({
  path: Type.Array(Type.String(), { description: 'containers, then the name' }),
  name: Type.String(),
  kind: Type.String(),
  status: Type.Optional(Type.String()),
  rowCount: Type.Optional(Type.Number()),
  sizeBytes: Type.Optional(Type.Number()),
});
export const Container = Open({ path: Type.Array(Type.String()), name: Type.String(), kind: Type.String() });
export const KindCount = Open({ path: Type.Array(Type.String()), kind: Type.String(), count: Type.Number() });
export const ObjectList = Open({
  objects: Type.Array(DbObject),
  /** Present when the request had `search` or `limit`: more objects matched than were sent. */
  truncated: Type.Optional(Type.Boolean()),
});
export const ObjectInventory = Open({
  containers: Type.Array(Container),
  objects: Type.Array(DbObject),
  truncated: Type.Boolean(),
});
export const ObjectCounts = Open({ counts: Type.Array(KindCount) });
export const ColumnSchema = Open({
  name: Type.String(),
  type: Type.String(),
  nullable: Type.Boolean(),
  isPrimary: Type.Boolean(),
  defaultValue: Type.Optional(Any),
});
export const IndexSchema = Open({
  name: Type.String(),
  columns: Type.Array(Type.String()),
  unique: Type.Boolean(),
});
export const ForeignKeySchema = Open({
  columnName: Type.String(),
  constraintName: Type.Optional(Type.String()),
  referencedPath: Type.Optional(Type.Array(Type.String())),
  referencedTable: Type.Optional(Type.String()),
  referencedColumn: Type.Optional(Type.String()),
  onUpdate: Type.Optional(Type.String()),
  onDelete: Type.Optional(Type.String()),
});
export const ObjectDetail = Open({
  object: DbObject,
  columns: Type.Array(ColumnSchema),
  indexes: Type.Array(IndexSchema),
  foreignKeys: Type.Array(ForeignKeySchema),
  definition: Type.Optional(Type.String({ description: 'view or routine source when the engine keeps it' })),
});
