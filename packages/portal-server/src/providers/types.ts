// The provider abstraction: what every engine module offers the HTTP layer, the capability flags that let
// routes (and the UI) decide without ever branching on an engine id, and the shapes of results and objects.

/** SQL engine ids implemented in this package (decisions.md lists all 18; the rest come with later issues). */
/** An engine id: derived from the registry's list of engine descriptors. */
export type EngineId = import('./registry.js').EngineId;

export type ParamValue = string | number | boolean | null;

/** SSL options a connection descriptor may carry (`ssl: true` means `{mode: 'require'}`). */
export interface SslConfig {
  /** `disable` no TLS; `require` TLS without certificate checks; `verify-ca` / `verify-full` check the chain (and host). */
  mode?: 'disable' | 'require' | 'verify-ca' | 'verify-full';
  /** PEM text of the trusted CA bundle. */
  ca?: string;
  /** PEM client certificate and key for mutual TLS. */
  cert?: string;
  key?: string;
  /** Server name sent in SNI and checked under `verify-full` (defaults to `host`). */
  servername?: string;
}

/** SSH tunnel a descriptor may carry; the server forwards a loopback port through the bastion. */
export interface SshTunnelConfig {
  host: string;
  port?: number;
  username: string;
  password?: string;
  /** PEM private key text (never a server file path: a client must not read the server's files). */
  privateKey?: string;
  passphrase?: string;
  /** Expected host key SHA-256 fingerprint (base64, as `ssh-keygen -l` prints after `SHA256:`); unchecked when absent. */
  hostKeySha256?: string;
}

/** The connection descriptor fields the server reads to open a connection (database-portal.md). */
export interface ConnectionDescriptor {
  id: string;
  name?: string;
  type: string;
  host?: string;
  port?: number;
  user?: string;
  password?: string;
  database?: string;
  schema?: string;
  connectionString?: string;
  ssl?: boolean | SslConfig;
  sshTunnel?: SshTunnelConfig;
  sshProfile?: string;
  serviceName?: string;
  instanceName?: string;
  localDataCenter?: string;
  authSource?: string;
  queryTimeout?: number;
  agentUser?: string;
  agentPassword?: string;
  [bookkeeping: string]: unknown;
}

export interface Capabilities {
  supportsExplain: boolean;
  /** Plan modes the provider can build (`analyze` executes the statement inside a rolled-back transaction). */
  explainModes: ReadonlyArray<'estimate' | 'analyze'>;
  supportsCreateTable: boolean;
  supportsInlineRowEdit: boolean;
  supportsMaintenance: boolean;
  declaresForeignKeys: boolean;
  /** Placeholder form of positional parameters: `$n`, `?`, `:n` or `@pn`. */
  parameterStyle: '$n' | '?' | ':n' | '@pn';
  supportsPositionalParams: boolean;
  supportsCancel: boolean;
  supportsTransactions: boolean;
  maintenanceOperations: ReadonlyArray<{ type: string; targetRequired: boolean; description: string }>;
  /**
   * The engine only reads (the search engines, Druid): the policy refuses every write first, whatever the
   * datasource policy says, on every route (session, bot, agent, MCP).
   */
  readOnlyEngine?: boolean;
  /** False when the engine has no SQL DDL to write: the sql-insert and sql-ddl export formats are 400. */
  sqlExport?: boolean;
}

export interface ExecOptions {
  /** Rows to keep; one more is read (when the engine allows) so the caller learns that more exist. */
  maxRows: number;
  /** Called with a handle the caller may pass to `cancel` while the statement runs. */
  onStart?: (cancel: () => Promise<void>) => void;
}

export interface ExecResult {
  fields: string[];
  rows: Record<string, unknown>[];
  /** Rows returned, or rows affected for a statement that returns none. */
  rowCount: number;
  /** True when the engine had more rows than `maxRows` (the extra rows were not kept). */
  truncated: boolean;
  columnTypes?: Record<string, string>;
  warnings?: string[];
}

/** A batch of a streamed read: field names once, then rows as arrays in field order. */
export interface StreamBatch {
  fields: string[];
  columnTypes?: string[];
  rows: unknown[][];
}

export interface DatabaseObject {
  path: readonly string[];
  name: string;
  kind: string;
  status?: string;
  rowCount?: number;
  sizeBytes?: number;
}

export interface Container {
  path: readonly string[];
  name: string;
  kind: string;
}

export interface KindCount {
  path: readonly string[];
  kind: string;
  count: number;
}

export interface ColumnSchema {
  name: string;
  type: string;
  nullable: boolean;
  isPrimary: boolean;
  defaultValue?: string;
}

export interface IndexSchema {
  name: string;
  columns: string[];
  unique: boolean;
}

export interface ForeignKeySchema {
  columnName: string;
  constraintName: string;
  referencedPath: string[];
  referencedTable: string;
  referencedColumn: string;
  onUpdate?: string;
  onDelete?: string;
}

export interface ObjectDetail {
  object: DatabaseObject;
  columns: ColumnSchema[];
  indexes: IndexSchema[];
  foreignKeys: ForeignKeySchema[];
  /** View or routine source when the engine keeps it. */
  definition?: string;
}

export interface Inventory {
  containers: Container[];
  objects: DatabaseObject[];
  truncated: boolean;
}

export interface SlowQuery {
  query: string;
  calls: number;
  avgTime: number;
}

export interface ActiveSession {
  pid: number | string;
  user: string;
  database: string;
  state: string;
  query: string;
  duration: number;
}

export interface HealthReading {
  activeConnections: number;
  databaseSize: string;
  cacheHitRatio: string;
  slowQueries: SlowQuery[];
  activeSessions: ActiveSession[];
}

export interface ConnectionProfile {
  engine: EngineId;
  serverVersion: string;
  currentUser?: string;
  currentDatabase?: string;
  currentSchema?: string;
}

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

export interface ExplainResult extends ExecResult {
  explainFormat: string;
}

/** A dedicated connection owned by one caller: scripts and explicit transactions run on it. */
export interface ProviderSession {
  query(sql: string, params: ParamValue[], opts: ExecOptions): Promise<ExecResult>;
  begin(): Promise<void>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
  close(): Promise<void>;
}

export interface Provider {
  readonly engine: EngineId;
  readonly capabilities: Capabilities;
  /** Runs one statement on the pool. */
  query(sql: string, params: ParamValue[], opts: ExecOptions): Promise<ExecResult>;
  /** Runs a plan statement built from `sql`; never runs `sql` itself outside a rolled-back transaction. */
  explain(sql: string, params: ParamValue[], mode: 'estimate' | 'analyze'): Promise<ExplainResult>;
  /** Streams a read-only statement in batches; the engine itself refuses writes where it can. */
  stream(
    sql: string,
    params: ParamValue[],
    opts: { maxRows: number; batchSize: number },
  ): AsyncIterable<StreamBatch>;
  openSession(): Promise<ProviderSession>;
  /** Profile, health, monitoring, maintenance and the objects, each call already under the engine's guard. */
  readonly catalog: import('./catalog.js').Catalog;
  poolStats(): PoolStats;
  close(): Promise<void>;
  /**
   * The same provider with the engine itself refusing writes on every request (descriptor `readOnly:
   * 'provider'`): ClickHouse sends `readonly=2`, Redis filters commands by its read allowlist.
   */
  readOnlyView?(): Provider;
  /**
   * Privileges of the datasource's account beyond what the portal needs (superuser, FILE, SUPER, admin
   * commands); empty for a least-privilege account. Fleet health and the datasource page warn on them.
   */
  accountPrivileges?(): Promise<string[]>;
}

/** Server-side settings a provider may need (bastions, where embedded files live, who asks). */
export interface ProviderContext {
  /** Folder relative embedded-engine paths resolve into. */
  embeddedDir: string;
  sshProfiles: (name: string) => SshTunnelConfig | undefined;
}

export interface ProviderFactory {
  readonly engine: EngineId;
  /** The name people know the engine by, for the UI (`PostgreSQL`, `SQL Server`); `engine` is the id. */
  readonly label: string;
  /** What the web editor needs of the engine's text (editor-facts.ts), answered by provider-meta. */
  readonly editor: import('./editor-facts.js').EditorFacts;
  readonly capabilities: Capabilities;
  /** The name of the SQL dialect the engine speaks (libSQL speaks `sqlite`); its rules are `sqlDialect`. */
  readonly dialect: import('./registry.js').Dialect;
  /** Port used when the descriptor names none (SSH tunnels need it). */
  readonly defaultPort?: number;
  /**
   * Checks made before the cache is consulted, per request: an embedded file outside the portal's folder is
   * refused unless the caller is privileged (an administrator or a managed datasource).
   */
  validate?(conn: ConnectionDescriptor, access: { privileged: boolean; embeddedDir: string }): void;
  /**
   * The server file an embedded engine would open (undefined for :memory: or a network URL), so a connectivity
   * check can say a missing file does not exist instead of creating an empty database.
   */
  localFile?(conn: ConnectionDescriptor, embeddedDir: string): string | undefined;
  /** A refusal message for a statement this caller may not run on this engine (e.g. ATTACH of a server file). */
  guardStatement?(statement: string, access: { privileged: boolean }): string | undefined;
  /**
   * A read-only engine's own refusal of a statement that would write, in the engine's words: answered 400
   * QUERY_ERROR before governance runs and before anything is sent (Druid refuses INSERT/REPLACE and has no
   * UPDATE/DELETE/CREATE grammar).
   */
  refuseStatement?(statement: string): string | undefined;
  /**
   * How a read-only engine's refusal of a write is answered (its spec row): `policy` (the default) 403
   * READ_ONLY, or `engine` 400 QUERY_ERROR in the engine's own words (`refuseStatement`), as the engine
   * itself answers (Druid).
   */
  readonly writeRefusal?: 'policy' | 'engine';
  /**
   * Where a managed datasource (PORTAL_DATASOURCES) of this engine is found, i.e. which fields it must give:
   * `server` host or connectionString (the default of a server engine), `file` a database file path or
   * :memory: (the default of a file-based engine), `file-or-url` a database file or a network URL
   * (database, host or connectionString), `fields` only its required `connectionFields`.
   */
  readonly datasourceAddress?: 'server' | 'file' | 'file-or-url' | 'fields';
  /** False when the engine takes host and port only: a connection string is refused. */
  readonly acceptsConnectionString?: boolean;
  /** A password is only sent over TLS: a managed datasource with a password must enable `ssl`. */
  readonly passwordNeedsTls?: boolean;
  /** What the statement classifier knows of the engine; without it every statement is a doubtful write. */
  readonly classifier?: import('./classifier-rules.js').ClassifierRules;
  /** The database is a file under the portal's folder (or `:memory:`), not a server. */
  readonly fileBased?: boolean;
  /** How the engine itself refuses writes, or undefined when it has no such switch (the classifier is the guard). */
  readonly readOnly?: import('./engine.js').ReadOnlyMode;
  /** How a guarded write is dry-run in a rolled-back transaction; absent: the engine has no such run. */
  readonly dryRun?: import('./engine.js').DryRunRules;
  /** The rules of that dialect, which the sql/ helpers take as a parameter (libSQL carries SQLite's). */
  readonly sqlDialect: import('../sql/dialect.js').SqlDialect;
  /**
   * Engine-specific descriptor fields the connection form asks for besides host/port/user/password/database
   * (e.g. Cassandra's localDataCenter, Athena's region); answered by provider-meta.
   */
  readonly connectionFields?: ReadonlyArray<ConnectionField>;
  /** Opens a provider; engine descriptors load the implementation (drivers, WASM) here, on first use. */
  create(conn: ResolvedConnection, ctx: ProviderContext): Promise<Provider>;
}

/** One engine-specific connection field the web form shows (a descriptor key holding a string). */
export interface ConnectionField {
  name: string;
  label: string;
  required: boolean;
  placeholder?: string;
}

/** A validated descriptor with its timeout resolved and, for a tunnel, the local address to dial. */
export interface ResolvedConnection {
  descriptor: ConnectionDescriptor;
  queryTimeoutMs: number;
  connectTimeoutMs: number;
  /** Where to connect (a tunnel's loopback end when one is configured). */
  host?: string;
  port?: number;
  /**
   * Set when an SSH tunnel is configured: where to connect for another address of the database's network
   * that the engine discovers at run time (Couchbase's query service), through the same bastion.
   */
  reach?(target: { host: string; port: number }): Promise<{ host: string; port: number }>;
}
