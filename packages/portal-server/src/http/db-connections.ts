// Connection operations on /api/db/*: cancel a running statement, disconnect, the connectivity test,
// provider metadata (engine lists and capability flags for the UI), pool statistics, monitoring, profile,
// maintenance (administrators) and the health reading. Statements themselves run in query.ts, db-scripts.ts,
// db-transaction.ts and export.ts, through the governed pipeline.
import { existsSync } from 'node:fs';
import { HttpError, notFound } from '@app/kit';
import type { FastifyInstance } from 'fastify';
import { type TSchema, Type } from 'typebox';
import { audit, auditConnection } from '../execution/audit-lines.js';
import type { QueryDeps } from '../execution/contracts.js';
import { resolveTarget } from '../execution/target.js';
import { IN_MEMORY } from '../providers/descriptor.js';
import { editorMeta } from '../providers/editor-facts.js';
import { ProviderError, toHttpError } from '../providers/errors.js';
import { connectionIdentity } from '../providers/identity.js';
import { ENGINES, engineFor } from '../providers/registry.js';
import type { Provider, ProviderFactory } from '../providers/types.js';
import { defaultExpressionsOf } from '../sql/table-ddl.js';
import { connectionBody, connectionSchema, DB_ERRORS } from './connection-schema.js';
import { parseQueryId, requireAdminRole, sessionFor, strictBody } from './request-input.js';
import {
  Cancelled,
  ConnectionProfile,
  ConnectionTest,
  Disconnected,
  HealthReading,
  MaintenanceResult,
  MonitoringReading,
  PoolStats,
  ProviderMeta,
  rowsAsJson,
} from './response-schemas.js';

export function registerConnectionOperationRoutes(app: FastifyInstance, deps: QueryDeps): void {
  app.post(
    '/api/db/cancel',
    {
      preValidation: strictBody,
      schema: {
        tags: ['database'],
        description:
          'Cancels the caller’s own running statement: `{queryId}` (the id sent with /api/db/query or a transaction query). ' +
          'Answers `{cancelled: true}`; 404 when the caller has no running statement under that id. The cancelled statement answers 400 QUERY_CANCELLED.',
        body: {
          type: 'object',
          properties: { queryId: { type: 'string' } },
          required: ['queryId'],
          additionalProperties: true,
        },
        response: { 200: Cancelled, ...DB_ERRORS },
      },
    },
    async (request) => {
      const session = await sessionFor(deps, request);
      const queryId = parseQueryId((request.body as { queryId?: unknown }).queryId);
      if (!queryId || !(await deps.running.cancel(session.username, queryId))) {
        throw notFound('No running statement of yours with that queryId');
      }
      return { cancelled: true };
    },
  );

  app.post(
    '/api/db/disconnect',
    {
      preValidation: strictBody,
      schema: connectionBody(
        'Closes the caller’s transactions on the connection and its pool (`{connection}` → `{disconnected, transactionsRolledBack}`). ' +
          'The pool of a managed datasource is shared and is closed only for an administrator.',
        Disconnected,
      ),
    },
    async (request) => {
      const session = await sessionFor(deps, request);
      const target = await resolveTarget(deps, session, request.body as Record<string, unknown>);
      const identity = connectionIdentity(target.descriptor);
      const transactionsRolledBack = await deps.transactions.endFor(session.username, identity);
      const shared = target.managed !== undefined && session.role !== 'admin';
      const disconnected = shared ? false : await deps.providers.evict(identity);
      return { disconnected, transactionsRolledBack };
    },
  );

  app.post(
    '/api/db/test-connection',
    {
      preValidation: strictBody,
      schema: connectionBody(
        'Opens a fresh connection (not the cached pool) within 10000 ms and reads the server profile: ' +
          '`{success: true, latencyMs, engine, serverVersion, currentUser?, currentDatabase?, currentSchema?}`; failure 503 CONNECTION_ERROR or AUTHENTICATION_ERROR.',
        ConnectionTest,
      ),
    },
    async (request) => {
      const session = await sessionFor(deps, request);
      const target = await resolveTarget(deps, session, request.body as Record<string, unknown>);
      // Opening a missing SQLite/libSQL/DuckDB file would create an empty database and answer "Connected";
      // creating a database is an explicit choice (run a statement on it), so the check only looks.
      const file = target.factory.localFile?.(target.descriptor, deps.providers.ctx.embeddedDir);
      if (file && file !== IN_MEMORY && !existsSync(file)) {
        throw new HttpError(
          400,
          // A managed datasource's path is the server's business: name the datasource instead.
          target.managed
            ? `The database file of datasource ${target.descriptor.id} does not exist (nothing was created)`
            : `The database file ${target.descriptor.database} does not exist; check the path (nothing was created)`,
          'DATABASE_FILE_NOT_FOUND',
        );
      }
      const started = performance.now();
      try {
        const profile = await deps.providers.probe(target.descriptor, (p) => p.catalog.profile());
        return { success: true, latencyMs: Math.round(performance.now() - started), ...profile };
      } catch (err) {
        throw connectionFailure(err);
      }
    },
  );

  app.post(
    '/api/db/provider-meta',
    {
      preValidation: strictBody,
      schema: {
        tags: ['database'],
        description:
          'Capability flags of an engine, so the UI hides what an engine lacks: `{type}` or `{connection}` → `{engine, label, dialect, defaultPort?, fileBased, capabilities}` (label: the name people know it by, e.g. PostgreSQL); ' +
          'an empty body → `{engines: [...]}` (every engine the server runs, in the order to offer them; fileBased: a database file instead of a server; connectionFields: engine-specific descriptor fields `{name, label, required, placeholder?}` the connection form asks for). capabilities: supportsExplain, explainModes, supportsCreateTable, supportsInlineRowEdit, supportsMaintenance, ' +
          'declaresForeignKeys, parameterStyle ($n, ?, :n, @pn), supportsPositionalParams, supportsCancel, supportsTransactions, maintenanceOperations; ' +
          'readOnlyEngine? (the engine only reads: every write is refused), sqlExport? (false: no sql-insert/sql-ddl export). ' +
          'columnTypes and defaultExpressions: what the table designer (POST /api/db/tables/ddl) accepts, present only where it is offered.',
        body: Type.Object(
          { type: Type.Optional(Type.String()), connection: Type.Optional(connectionSchema) },
          { additionalProperties: true },
        ),
        response: { 200: ProviderMeta, ...DB_ERRORS },
      },
    },
    async (request) => {
      await sessionFor(deps, request);
      const body = (request.body ?? {}) as { type?: unknown; connection?: { type?: unknown } };
      const meta = (engine: string) => {
        const f = engineFor(engine);
        return {
          engine: f.engine,
          label: f.label,
          dialect: f.dialect,
          ...(f.defaultPort ? { defaultPort: f.defaultPort } : {}),
          fileBased: f.fileBased === true,
          capabilities: f.capabilities,
          editor: editorMeta(f),
          ...(f.connectionFields ? { connectionFields: f.connectionFields } : {}),
          ...designerMeta(f),
        };
      };
      const type = body.type ?? body.connection?.type;
      if (type === undefined) return { engines: ENGINES.map((e) => meta(e.engine)) };
      try {
        return meta(String(type));
      } catch (err) {
        throw toHttpError(err);
      }
    },
  );

  app.post(
    '/api/db/pool-stats',
    {
      preValidation: strictBody,
      schema: connectionBody(
        'Pool statistics: with `{connection}` that connection’s cached pool, without one every cached pool (administrators). ' +
          'Answers `{pools: [{identity (hash prefix), engine, name, active, openedAt, lastUsedAt, pool: {total, idle, waiting}}]}`.',
        PoolStats,
      ),
    },
    async (request) => {
      const session = await sessionFor(deps, request);
      const body = (request.body ?? {}) as Record<string, unknown>;
      const all = deps.providers.stats();
      if (body.connection === undefined && body.connectionId === undefined) {
        requireAdminRole(session);
        return { pools: all };
      }
      const target = await resolveTarget(deps, session, body);
      const prefix = connectionIdentity(target.descriptor).slice(0, 12);
      return { pools: all.filter((p) => p.identity === prefix) };
    },
  );

  // Sent by JSON.stringify: an engine's counters and ids pass on as the engine keeps them, the schema documents.
  const readOn = (
    route: string,
    admin: boolean,
    description: string,
    answer: TSchema,
    read: (p: Provider) => Promise<unknown>,
  ) =>
    app.post(
      route,
      { schema: connectionBody(description, answer), preValidation: strictBody, ...rowsAsJson },
      async (request) => {
        const session = await sessionFor(deps, request);
        if (admin) requireAdminRole(session);
        const target = await resolveTarget(deps, session, request.body as Record<string, unknown>);
        return deps.providers.use(target.descriptor, read).catch((err) => {
          throw toHttpError(err);
        });
      },
    );

  readOn(
    '/api/db/monitoring',
    true,
    'Administrators: the health reading plus engine counters (waiting locks, uptime, max connections, … as the engine keeps them). ' +
      'Where the engine reports lock waits (PostgreSQL, MySQL/MariaDB InnoDB) also `locks: [{pid, blockedBy: [pid], lockType, mode, relation, user, query, waitingMs}]`.',
    MonitoringReading,
    (p) => p.catalog.monitoring(),
  );
  readOn(
    '/api/db/profile',
    false,
    'The connection profile: `{engine, serverVersion, currentUser?, currentDatabase?, currentSchema?}`.',
    ConnectionProfile,
    (p) => p.catalog.profile(),
  );

  app.post(
    '/api/db/maintenance',
    {
      preValidation: strictBody,
      ...rowsAsJson,
      schema: connectionBody(
        'Administrators: `{connection, type, target?}` runs one of the engine’s maintenance operations (see provider-meta maintenanceOperations; ' +
          'target required where marked). Session control: `cancel` cancels a session’s running statement (PostgreSQL pg_cancel_backend, MySQL/MariaDB KILL QUERY) and `kill` ends the session ' +
          '(pg_terminate_backend, KILL), target = the session id (`pid` of the health reading). Answers `{type, target?, rows, fields, rowCount, executionTime}`; unknown type or missing target 400; ' +
          'a non-administrator 403 FORBIDDEN, audited `permission_denied`; every run is audited (`query_execution`, action maintenance).',
        MaintenanceResult,
        { type: { type: 'string' }, target: { type: 'string' } },
        ['type'],
      ),
    },
    async (request) => {
      const session = await sessionFor(deps, request);
      const body = request.body as { type?: unknown; target?: unknown };
      if (session.role !== 'admin') {
        // Recorded like any refused governed action: a user trying to kill another's session is worth knowing.
        const named = (body as { connection?: { name?: unknown } }).connection?.name;
        await audit(deps, {
          type: 'permission_denied',
          action: 'maintenance',
          operation: String(body.type ?? ''),
          actor: session.username,
          connection: String((body as { connection?: { id?: unknown } }).connection?.id ?? '').slice(0, 200),
          ...(typeof named === 'string' ? { connectionName: named.slice(0, 200) } : {}),
          route: '/api/db/maintenance',
          result: 'failure',
          error: 'Administrator role required',
        });
        requireAdminRole(session);
      }
      const target = await resolveTarget(deps, session, request.body as Record<string, unknown>);
      const op = target.factory.capabilities.maintenanceOperations.find((o) => o.type === body.type);
      if (!op) {
        const offered =
          target.factory.capabilities.maintenanceOperations.map((o) => o.type).join(', ') || 'none';
        throw new HttpError(
          400,
          `Unknown maintenance operation ${String(body.type)}; ${target.factory.engine} offers: ${offered}`,
          'BAD_REQUEST',
        );
      }
      const t = typeof body.target === 'string' && body.target.trim() !== '' ? body.target.trim() : undefined;
      if (op.targetRequired && !t)
        throw new HttpError(400, `Maintenance ${op.type} requires a target`, 'BAD_REQUEST');
      const started = performance.now();
      const base = {
        type: 'query_execution',
        action: 'maintenance',
        operation: op.type,
        actor: session.username,
        ...auditConnection(target),
        route: '/api/db/maintenance',
        ...(t ? { target: t } : {}),
      };
      try {
        const r = await deps.providers.use(target.descriptor, (p) => p.catalog.maintenance(op.type, t));
        const executionTime = Math.round(performance.now() - started);
        await audit(deps, { ...base, result: 'success', durationMs: executionTime });
        return {
          type: op.type,
          ...(t ? { target: t } : {}),
          rows: r.rows,
          fields: r.fields,
          rowCount: r.rowCount,
          executionTime,
        };
      } catch (err) {
        const e = toHttpError(err);
        await audit(deps, { ...base, result: 'failure', error: e.message });
        throw e;
      }
    },
  );

  app.post(
    '/api/db/health',
    {
      preValidation: strictBody,
      ...rowsAsJson,
      schema: connectionBody(
        'Health reading of a connection (session required; 401 JSON without): `{activeConnections, databaseSize, cacheHitRatio, slowQueries: [{query, calls, avgTime}], ' +
          'activeSessions: [{pid, user, database, state, query, duration}]}`. Embedded engines answer cacheHitRatio "n/a" and empty lists. ' +
          'Any failure is 503 CONNECTION_ERROR, never a zero-filled reading.',
        HealthReading,
      ),
    },
    async (request) => {
      const session = await sessionFor(deps, request);
      const target = await resolveTarget(deps, session, request.body as Record<string, unknown>);
      try {
        return await deps.providers.use(target.descriptor, (p) => p.catalog.health());
      } catch (err) {
        const e = connectionFailure(err);
        throw new HttpError(503, e.message, 'CONNECTION_ERROR', { retryable: true });
      }
    },
  );
}

/** A failed connectivity check: configuration mistakes stay 400, everything else is 503. */
function connectionFailure(err: unknown): HttpError {
  const e = toHttpError(err);
  if (e.statusCode === 400 && err instanceof ProviderError && err.kind === 'configuration') return e;
  if (e.statusCode === 503) return e;
  return new HttpError(503, e.message, 'CONNECTION_ERROR', { retryable: true });
}

/** The table designer's lists, for an engine that creates tables in a dialect the designer writes. */
function designerMeta(f: ProviderFactory) {
  const rules = f.sqlDialect?.tableDesign;
  if (!f.capabilities.supportsCreateTable || !rules) return {};
  return { columnTypes: [...rules.columnTypes], defaultExpressions: defaultExpressionsOf(rules) };
}
