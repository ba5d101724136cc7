// Where a request runs and what it runs: `resolveTarget` (a managed definition wins over whatever the client
// sent; saved connections run with their stored definition), `splitChecked` (the text split once under the
// engine's grammar, transaction control and engine-refused statements rejected before anything runs) and the
// `ExecutionContext` governance decides on.

import { HttpError, notFound } from '@app/kit';
import type { Principal } from '../auth/principal.js';
import { normalizePolicy } from '../datasources/policy.js';
import { type DatasourcePolicy, descriptorOf, type ManagedDatasource } from '../datasources/types.js';
import { resolveTimeouts } from '../providers/descriptor.js';
import { toHttpError } from '../providers/errors.js';
import { engineFor } from '../providers/registry.js';
import type { ConnectionDescriptor, ParamValue, ProviderFactory } from '../providers/types.js';
import { splitScript } from '../sql/split.js';
import { transactionControlKeyword } from '../sql/transaction-control.js';
import { type ExecutionContext, type QueryDeps, SERVER_MAX_ROWS } from './contracts.js';

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
  session: Principal,
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
  if (managed) return managedTarget(deps, managed);
  const descriptor = saved ?? (given as ConnectionDescriptor);
  if (typeof descriptor.id !== 'string' || descriptor.id === '')
    throw new HttpError(400, 'connection.id is required', 'BAD_REQUEST');
  // A user connection brings no policy keys: its policy is the default (guardrails in production).
  const environment = typeof descriptor.environment === 'string' ? descriptor.environment : undefined;
  const policy = normalizePolicy(undefined, { managed: false, environment });
  return checkedTarget(deps, descriptor, policy, session.role === 'admin');
}

/**
 * The target of a managed datasource, as every path opens it (the session routes through `resolveTarget`,
 * the bot API with the datasource its token may use): the server's definition and policy, privileged.
 */
export function managedTarget(
  deps: Pick<QueryDeps, 'providers'>,
  managed: ManagedDatasource,
): ResolvedTarget {
  return { ...checkedTarget(deps, descriptorOf(managed), managed.policy, true), managed };
}

function checkedTarget(
  deps: Pick<QueryDeps, 'providers'>,
  descriptor: ConnectionDescriptor,
  policy: DatasourcePolicy,
  privileged: boolean,
): ResolvedTarget {
  try {
    const factory = engineFor(descriptor.type);
    resolveTimeouts(descriptor);
    factory.validate?.(descriptor, { privileged, embeddedDir: deps.providers.ctx.embeddedDir });
    const cap = policy.maxRows && policy.maxRows > 0 ? Math.floor(policy.maxRows) : SERVER_MAX_ROWS;
    return { descriptor, policy, factory, privileged, maxRows: cap };
  } catch (err) {
    throw toHttpError(err);
  }
}

/** Splits and checks a request's text: 400 for transaction control or no statement, 403 for a refused statement. */
export function splitChecked(target: ResolvedTarget, sql: string): string[] {
  const statements = splitScript(target.factory.sqlDialect, sql);
  if (statements.length === 0) throw new HttpError(400, 'sql holds no statement', 'BAD_REQUEST');
  for (const s of statements) {
    const tc = transactionControlKeyword(target.factory.sqlDialect, s);
    if (tc) {
      throw new HttpError(
        400,
        `Transaction control (${tc}) is not accepted here; use /api/db/transaction to run statements in a transaction`,
        'TRANSACTION_CONTROL',
      );
    }
    const refused = target.factory.guardStatement?.(s, { privileged: target.privileged });
    if (refused) throw new HttpError(403, refused, 'FORBIDDEN');
    const engineRefusal = target.factory.refuseStatement?.(s);
    if (engineRefusal) throw new HttpError(400, engineRefusal, 'QUERY_ERROR');
  }
  return statements;
}

export function executionContext(
  session: Principal,
  target: ResolvedTarget,
  route: ExecutionContext['route'],
  statements: string[],
  params: ParamValue[],
  ticket: string | undefined,
  sql?: string,
): ExecutionContext {
  return {
    ...(sql !== undefined ? { sql } : {}),
    session,
    route,
    connection: target.descriptor,
    managed: target.managed,
    policy: target.policy,
    engine: target.factory.engine,
    dialect: target.factory.dialect,
    statements,
    params,
    ticket,
  };
}
