// What the database routes depend on, as small interfaces: who is asking (session), which datasources the
// server manages, where audit events go, and the governance hook points (policy before execution, masking of
// every returned row, export rules). server.ts wires the real implementations; tests pass simple ones.
// Also the resolution of a request's connection (managed definition wins over whatever the client sent).

import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { HttpError, notFound } from '@app/kit';
import type { FastifyRequest } from 'fastify';
import { ProviderCache } from '../providers/cache.js';
import { resolveTimeouts } from '../providers/descriptor.js';
import { toHttpError } from '../providers/errors.js';
import { defaultRegistry } from '../providers/registry.js';
import { RunningQueries } from '../providers/running.js';
import { sshProfilesFromFile } from '../providers/ssh.js';
import { TransactionManager } from '../providers/transactions.js';
import type {
  ConnectionDescriptor,
  ParamValue,
  Provider,
  ProviderFactory,
  ProviderSession,
} from '../providers/types.js';
import type { Dialect } from '../sql/dialects.js';

export interface SessionUser {
  role: 'admin' | 'user';
  username: string;
}

export interface SessionReader {
  /** The caller's session; throws a 401 HttpError when there is none. */
  requireSession(request: FastifyRequest): Promise<SessionUser> | SessionUser;
}

export interface DatasourcePolicy {
  readOnly?: boolean;
  maxRows?: number;
  maxConcurrent?: number;
  exportRoles?: string[];
  [key: string]: unknown;
}

/** A datasource declared on the server (PORTAL_DATASOURCES): its definition (with credentials) and policy. */
export interface ManagedDatasource {
  id: string;
  name: string;
  connection: ConnectionDescriptor;
  policy: DatasourcePolicy;
  /** Roles that may see it; absent means every signed-in role. */
  roles?: string[];
}

export interface ManagedLookup {
  getManaged(id: string): ManagedDatasource | undefined | Promise<ManagedDatasource | undefined>;
  /**
   * Why a declared datasource cannot be used right now (e.g. a missing `${ENV}`), or undefined. A request
   * naming it fails with 503; it never falls back to whatever descriptor the client sent.
   */
  unavailable?(id: string): string | undefined;
}

export interface AuditEvent {
  type: string;
  actor: string;
  result: 'success' | 'failure';
  /** The connection (datasource) id; `connectionName` and `engine` travel beside it. */
  connection?: string;
  [field: string]: unknown;
}

export interface AuditSink {
  record(event: AuditEvent): void | Promise<void>;
}

/** Everything governance needs to decide about one execution request. */
export interface ExecutionContext {
  session: SessionUser;
  route: 'query' | 'multi-query' | 'transaction' | 'export' | 'explain' | 'objects';
  connection: ConnectionDescriptor;
  managed?: ManagedDatasource;
  policy: DatasourcePolicy;
  engine: string;
  dialect: Dialect;
  /** The statements as split under the engine's grammar, in order. */
  statements: string[];
  params: ParamValue[];
  ticket?: string;
  /** Export only: the caller asked for unmasked values (the masking hook decides whether that is allowed). */
  reveal?: boolean;
  /** The request's whole text as sent (governance classifies it as one script). */
  sql?: string;
  /** Scripts: which statement the rows passed to `maskRows` came from. */
  statementIndex?: number;
}

/**
 * Hook points for the governance layer (classification, policy, approvals, masking, export rules). The
 * defaults allow everything and mask nothing. A refusal is a thrown HttpError (403, 429, …).
 */
export interface GovernanceHooks {
  beforeExecute(ctx: ExecutionContext): void | Promise<void>;
  /** Masks rows before they leave the server (query results, scripts, transactions). */
  maskRows(
    ctx: ExecutionContext,
    fields: string[],
    rows: Record<string, unknown>[],
  ): Record<string, unknown>[];
  /** A per-row masker for streamed exports (rows as arrays in field order), or undefined for none. */
  exportRowMasker(ctx: ExecutionContext, fields: string[]): ((row: unknown[]) => unknown[]) | undefined;
  /** The export rule: throw to refuse (403, audited `export_not_allowed` by the hook). */
  checkExport(ctx: ExecutionContext): void | Promise<void>;
  /** Object rules on the object surface: a hidden object is left out of lists and its describe is 404. */
  isObjectVisible(ctx: ExecutionContext, path: readonly string[]): boolean;
  /**
   * The provider a route runs the request on, after `beforeExecute` (or at transaction `begin`): governance
   * may make the engine itself refuse writes and withhold engine messages that could echo masked values.
   */
  wrapProvider?(ctx: ExecutionContext, provider: Provider): Provider;
  /** Same for a statement on an open transaction's session. */
  wrapSession?(ctx: ExecutionContext, session: ProviderSession): ProviderSession;
  /** Called once the execution that `beforeExecute` admitted has ended (success or failure): frees its slot. */
  afterExecute?(ctx: ExecutionContext): void;
  /** Extra fields for the execution's `query_execution` audit line (e.g. `approved_by`). */
  auditFields?(ctx: ExecutionContext): Record<string, unknown>;
}

export const allowAllGovernance: GovernanceHooks = {
  beforeExecute: () => undefined,
  maskRows: (_ctx, _fields, rows) => rows,
  exportRowMasker: () => undefined,
  checkExport: () => undefined,
  isObjectVisible: () => true,
};

export interface QueryDeps {
  sessions: SessionReader;
  managed: ManagedLookup;
  audit: AuditSink;
  governance: GovernanceHooks;
  providers: ProviderCache;
  running: RunningQueries;
  transactions: TransactionManager;
  /** Where export files are spooled before they are sent (the row count must be known for the header). */
  spoolDir: string;
  /** Optional limiter for database-reaching routes (issue 7's rate limiter); throws 429. */
  rateLimit?: (request: FastifyRequest, session: SessionUser) => void | Promise<void>;
  /** The caller's own saved connections (server storage), with their sealed credentials opened. */
  saved?: SavedConnectionLookup;
}

export interface SavedConnectionLookup {
  getWithSecrets(owner: string, id: string): Promise<object | undefined>;
}

export const MAX_STATEMENT_CHARS = 1_048_576;
export const TICKET_MAX = 120;
/** Row ceiling when a connection has no datasource policy (the export bound of the spec). */
export const SERVER_MAX_ROWS = 100_000;

export async function sessionFor(deps: QueryDeps, request: FastifyRequest): Promise<SessionUser> {
  const session = await deps.sessions.requireSession(request);
  await deps.rateLimit?.(request, session);
  return session;
}

export function requireAdminRole(session: SessionUser): void {
  if (session.role !== 'admin') throw new HttpError(403, 'Administrator role required', 'FORBIDDEN');
}

export interface ResolvedTarget {
  descriptor: ConnectionDescriptor;
  managed?: ManagedDatasource;
  policy: DatasourcePolicy;
  factory: ProviderFactory;
  /** Administrators and managed datasources may open embedded files anywhere and use ATTACH and the like. */
  privileged: boolean;
  /** Row ceiling: the datasource's maxRows, else the server's. */
  maxRows: number;
}

function isDescriptor(v: unknown): v is ConnectionDescriptor {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The connection a request runs on. A `connection.id` or `connectionId` naming a managed datasource runs with
 * the server's definition and policy, whatever else the client sent; otherwise the client's descriptor is
 * checked (engine known, timeout in range, embedded files inside the portal's folder unless privileged).
 */
export async function resolveTarget(
  deps: QueryDeps,
  session: SessionUser,
  body: { connection?: unknown; connectionId?: unknown },
): Promise<ResolvedTarget> {
  const given = body.connection;
  if (given !== undefined && !isDescriptor(given))
    throw new HttpError(400, 'connection must be an object', 'BAD_REQUEST');
  const id =
    typeof body.connectionId === 'string'
      ? body.connectionId
      : typeof given?.id === 'string'
        ? given.id
        : undefined;
  const managed = id ? await deps.managed.getManaged(id) : undefined;
  const unavailable = id && !managed ? deps.managed.unavailable?.(id) : undefined;
  if (unavailable)
    throw new HttpError(503, `Datasource ${id} is unavailable: ${unavailable}`, 'DATASOURCE_UNAVAILABLE');
  // A connection the caller saved on the server runs with its stored definition (credentials never travel
  // back to the browser), like a managed one; only the owner's own saved connections are looked up.
  const saved =
    id && !managed
      ? ((await deps.saved?.getWithSecrets(session.username, id)) as ConnectionDescriptor | undefined)
      : undefined;
  if (managed) {
    if (managed.roles && !managed.roles.includes(session.role)) throw notFound(`Unknown datasource ${id}`);
  } else if (!given && !saved) {
    if (body.connectionId !== undefined) throw notFound(`Unknown datasource ${String(body.connectionId)}`);
    throw new HttpError(400, 'connection is required', 'BAD_REQUEST');
  }
  const descriptor = managed
    ? { ...managed.connection, id: managed.id, name: managed.name }
    : (saved ?? (given as ConnectionDescriptor));
  if (typeof descriptor.id !== 'string' || descriptor.id === '')
    throw new HttpError(400, 'connection.id is required', 'BAD_REQUEST');
  const privileged = Boolean(managed) || session.role === 'admin';
  try {
    const factory = deps.providers.registry.get(descriptor.type);
    resolveTimeouts(descriptor);
    factory.validate?.(descriptor, { privileged, embeddedDir: deps.providers.ctx.embeddedDir });
    const policy = managed?.policy ?? {};
    const cap =
      typeof policy.maxRows === 'number' && policy.maxRows > 0 ? Math.floor(policy.maxRows) : SERVER_MAX_ROWS;
    return { descriptor, managed, policy, factory, privileged, maxRows: cap };
  } catch (err) {
    throw toHttpError(err);
  }
}

export function checkStatementSize(sql: unknown): string {
  if (typeof sql !== 'string') throw new HttpError(400, 'sql must be a string', 'BAD_REQUEST');
  if (sql.length > MAX_STATEMENT_CHARS) {
    throw new HttpError(
      413,
      `Statement text is ${sql.length} characters; the limit is ${MAX_STATEMENT_CHARS}`,
      'PAYLOAD_TOO_LARGE',
    );
  }
  if (sql.trim() === '') throw new HttpError(400, 'sql is empty', 'BAD_REQUEST');
  return sql;
}

export function parseParams(params: unknown): ParamValue[] {
  if (params === undefined || params === null) return [];
  if (!Array.isArray(params)) throw new HttpError(400, 'params must be an array', 'BAD_REQUEST');
  params.forEach((p, i) => {
    const ok =
      p === null ||
      typeof p === 'string' ||
      typeof p === 'boolean' ||
      (typeof p === 'number' && Number.isFinite(p));
    if (!ok)
      throw new HttpError(400, `params[${i}] must be a string, number, boolean or null`, 'BAD_REQUEST');
  });
  return params as ParamValue[];
}

export function parseTicket(ticket: unknown): string | undefined {
  if (ticket === undefined || ticket === null) return undefined;
  if (typeof ticket !== 'string') throw new HttpError(400, 'ticket must be a string', 'BAD_REQUEST');
  const t = ticket.trim().slice(0, TICKET_MAX);
  return t === '' ? undefined : t;
}

/** Audit statement text is bounded so one huge statement cannot flood the log. */
export const AUDIT_STATEMENT_MAX = 10_000;

export async function audit(deps: QueryDeps, event: AuditEvent): Promise<void> {
  try {
    await deps.audit.record(event);
  } catch {
    // an audit sink failure must not turn a finished execution into an error; the sink logs its own failures
  }
}

/** The connection fields of an audit event: `connection` (id), `connectionName`, `engine`. */
export function auditConnection(t: ResolvedTarget): {
  connection: string;
  connectionName?: string;
  engine: string;
} {
  return {
    connection: t.descriptor.id,
    ...(typeof t.descriptor.name === 'string' ? { connectionName: t.descriptor.name } : {}),
    engine: t.factory.engine,
  };
}

export function boundedStatement(sql: string): string {
  return sql.length > AUDIT_STATEMENT_MAX ? `${sql.slice(0, AUDIT_STATEMENT_MAX)}…` : sql;
}

/** Builds the route dependencies around the three injected interfaces; `close()` releases every pool. */
export async function createQueryDeps(options: {
  sessions: SessionReader;
  managed: ManagedLookup;
  audit: AuditSink;
  dataDir: string;
  governance?: GovernanceHooks;
  rateLimit?: QueryDeps['rateLimit'];
  saved?: SavedConnectionLookup;
  sshProfilesFile?: string;
  transactionIdleMs?: number;
}): Promise<QueryDeps & { close(): Promise<void> }> {
  const embeddedDir = join(options.dataDir, 'databases');
  const spoolDir = join(options.dataDir, 'export-spool');
  mkdirSync(embeddedDir, { recursive: true });
  mkdirSync(spoolDir, { recursive: true });
  // Spool files of a previous run that stopped mid-export.
  for (const f of readdirSync(spoolDir)) rmSync(join(spoolDir, f), { force: true });
  const providers = new ProviderCache(defaultRegistry(), {
    embeddedDir,
    sshProfiles: sshProfilesFromFile(options.sshProfilesFile ?? process.env.PORTAL_SSH_PROFILES),
  });
  const transactions = new TransactionManager(options.transactionIdleMs);
  return {
    sessions: options.sessions,
    managed: options.managed,
    saved: options.saved,
    audit: options.audit,
    governance: options.governance ?? allowAllGovernance,
    rateLimit: options.rateLimit,
    providers,
    running: new RunningQueries(),
    transactions,
    spoolDir,
    async close() {
      await transactions.closeAll();
      await providers.closeAll();
    },
  };
}
