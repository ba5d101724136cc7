// Internal /api/db/* routes around execution: scripts (multi-query), owned transactions, cancel, disconnect,
// connectivity test, provider metadata, pool statistics, monitoring, profile, maintenance (admin) and the
// health reading (POST /api/db/health). Request and response shapes are in each route's OpenAPI description.
import { existsSync } from 'node:fs';
import { HttpError, notFound } from '@app/kit';
import type { FastifyInstance } from 'fastify';
import { IN_MEMORY } from '../providers/descriptor.js';
import { ProviderError, toHttpError } from '../providers/errors.js';
import { connectionIdentity } from '../providers/identity.js';
import { paramsForStatement } from '../sql/placeholders.js';
import { registerTransactionRoute } from './db-transaction.js';
import { executionContext, parseQueryId, queryRouteSchema, runWithPaging, splitChecked } from './query.js';
import {
  audit,
  auditConnection,
  boundedStatement,
  checkStatementSize,
  parseParams,
  parseTicket,
  type QueryDeps,
  requireAdminRole,
  resolveTarget,
  sessionFor,
} from './query-deps.js';

const connectionBody = (
  description: string,
  extra: Record<string, unknown> = {},
  required: string[] = [],
) => ({
  tags: ['database'],
  description,
  body: {
    type: 'object',
    properties: {
      connection: queryRouteSchema.body.properties.connection,
      connectionId: { type: 'string' },
      ...extra,
    },
    required,
    additionalProperties: true,
  },
});

/** Scripts run statement by statement: at most this many rows are returned per statement. */
export const SCRIPT_ROWS = 500;

export function registerDbAdminRoutes(app: FastifyInstance, deps: QueryDeps): void {
  app.post(
    '/api/db/multi-query',
    {
      schema: connectionBody(
        'Runs a script: `{connection, sql, params?, ticket?}`, split under the engine grammar, statements in order on one connection, ' +
          'stopping at the first error; no wrapping transaction, what ran stays. Answers 200 `{executedCount, statements: [{index, status: done|failed, ' +
          'rowCount, fields?, rows?, durationMs, error?, truncated?}]}` (executedCount counts the statements that completed). A statement takes the ' +
          'params its placeholders name. Transaction control anywhere is 400 before anything runs; over 1048576 characters 413.',
        { sql: { type: 'string' }, params: {}, ticket: { type: 'string' } },
        ['sql'],
      ),
    },
    async (request) => {
      const session = await sessionFor(deps, request);
      const body = (request.body ?? {}) as Record<string, unknown>;
      const sql = checkStatementSize(body.sql);
      const params = parseParams(body.params);
      const ticket = parseTicket(body.ticket);
      const target = await resolveTarget(deps, session, body);
      const statements = splitChecked(target, sql);
      const ctx = executionContext(session, target, 'multi-query', statements, params, ticket, sql);
      await deps.governance.beforeExecute(ctx);
      const approvedFields = deps.governance.auditFields?.(ctx);
      const { dialect } = target.factory;
      const style = target.factory.capabilities.parameterStyle;
      const entries: Array<Record<string, unknown>> = [];
      let executedCount = 0;
      await deps.providers
        .use(target.descriptor, async (raw) => {
          const provider = deps.governance.wrapProvider?.(ctx, raw) ?? raw;
          const s = await provider.openSession();
          try {
            for (const [index, statement] of statements.entries()) {
              const started = performance.now();
              const base = {
                type: 'query_execution',
                actor: session.username,
                ...auditConnection(target),
                route: '/api/db/multi-query',
                statement: boundedStatement(statement),
                statementIndex: index,
                ...(ticket ? { ticket } : {}),
                ...approvedFields,
              };
              try {
                const out = await runWithPaging(
                  (q, p, o) => s.query(q, p, o),
                  dialect,
                  statement,
                  paramsForStatement(dialect, style, statement, params),
                  { offset: 0, unlimited: false, limit: SCRIPT_ROWS },
                  target.maxRows,
                );
                const r = out.result;
                entries.push({
                  index,
                  status: 'done',
                  rowCount: r.rowCount,
                  ...(r.fields.length > 0
                    ? {
                        fields: r.fields,
                        rows: deps.governance.maskRows({ ...ctx, statementIndex: index }, r.fields, r.rows),
                      }
                    : {}),
                  ...(out.pagination.hasMore ? { truncated: true } : {}),
                  durationMs: out.executionTime,
                });
                executedCount++;
                await audit(deps, {
                  ...base,
                  result: 'success',
                  rowCount: r.rowCount,
                  durationMs: out.executionTime,
                });
              } catch (err) {
                const e = toHttpError(err);
                const durationMs = Math.round(performance.now() - started);
                entries.push({ index, status: 'failed', rowCount: 0, durationMs, error: e.message });
                await audit(deps, { ...base, result: 'failure', error: e.message, errorCode: e.code });
                // A connection that failed (or a timeout) ends the script like any other error: stop here.
                break;
              }
            }
          } finally {
            await s.close();
          }
        })
        .catch((err) => {
          throw toHttpError(err);
        })
        .finally(() => deps.governance.afterExecute?.(ctx));
      return { executedCount, statements: entries };
    },
  );

  registerTransactionRoute(app, deps);

  app.post(
    '/api/db/cancel',
    {
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
      schema: connectionBody(
        'Closes the caller’s transactions on the connection and its pool (`{connection}` → `{disconnected, transactionsRolledBack}`). ' +
          'The pool of a managed datasource is shared and is closed only for an administrator.',
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
      schema: connectionBody(
        'Opens a fresh connection (not the cached pool) within 10000 ms and reads the server profile: ' +
          '`{success: true, latencyMs, engine, serverVersion, currentUser?, currentDatabase?, currentSchema?}`; failure 503 CONNECTION_ERROR or AUTHENTICATION_ERROR.',
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
        const profile = await deps.providers.probe(target.descriptor, (p) => p.testConnection());
        return { success: true, latencyMs: Math.round(performance.now() - started), ...profile };
      } catch (err) {
        throw connectionFailure(err);
      }
    },
  );

  app.post(
    '/api/db/provider-meta',
    {
      schema: {
        tags: ['database'],
        description:
          'Capability flags of an engine, so the UI hides what an engine lacks: `{type}` or `{connection}` → `{engine, dialect, defaultPort?, capabilities}`; ' +
          'an empty body → `{engines: [...]}`. capabilities: supportsExplain, explainModes, supportsCreateTable, supportsInlineRowEdit, supportsMaintenance, ' +
          'declaresForeignKeys, parameterStyle ($n, ?, :n, @pn), supportsPositionalParams, supportsCancel, supportsTransactions, maintenanceOperations.',
        body: { type: 'object', additionalProperties: true },
      },
    },
    async (request) => {
      await sessionFor(deps, request);
      const body = (request.body ?? {}) as { type?: unknown; connection?: { type?: unknown } };
      const meta = (engine: string) => {
        const f = deps.providers.registry.get(engine);
        return {
          engine: f.engine,
          dialect: f.dialect,
          ...(f.defaultPort ? { defaultPort: f.defaultPort } : {}),
          capabilities: f.capabilities,
        };
      };
      const type = body.type ?? body.connection?.type;
      if (type === undefined) return { engines: deps.providers.registry.engines().map(meta) };
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
      schema: connectionBody(
        'Pool statistics: with `{connection}` that connection’s cached pool, without one every cached pool (administrators). ' +
          'Answers `{pools: [{identity (hash prefix), engine, name, active, openedAt, lastUsedAt, pool: {total, idle, waiting}}]}`.',
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

  const readOn = (
    route: string,
    admin: boolean,
    description: string,
    read: (p: import('../providers/types.js').Provider) => Promise<unknown>,
  ) =>
    app.post(route, { schema: connectionBody(description) }, async (request) => {
      const session = await sessionFor(deps, request);
      if (admin) requireAdminRole(session);
      const target = await resolveTarget(deps, session, request.body as Record<string, unknown>);
      return deps.providers.use(target.descriptor, read).catch((err) => {
        throw toHttpError(err);
      });
    });

  readOn(
    '/api/db/monitoring',
    true,
    'Administrators: the health reading plus engine counters (waiting locks, uptime, max connections, … as the engine keeps them).',
    (p) => p.monitoring(),
  );
  readOn(
    '/api/db/profile',
    false,
    'The connection profile: `{engine, serverVersion, currentUser?, currentDatabase?, currentSchema?}`.',
    (p) => p.profile(),
  );

  app.post(
    '/api/db/maintenance',
    {
      schema: connectionBody(
        'Administrators: `{connection, type, target?}` runs one of the engine’s maintenance operations (see provider-meta maintenanceOperations; ' +
          'target required where marked). Answers `{type, target?, rows, fields, rowCount, executionTime}`; unknown type or missing target 400.',
        { type: { type: 'string' }, target: { type: 'string' } },
        ['type'],
      ),
    },
    async (request) => {
      const session = await sessionFor(deps, request);
      requireAdminRole(session);
      const body = request.body as { type?: unknown; target?: unknown };
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
        const r = await deps.providers.use(target.descriptor, (p) => p.maintenance(op.type, t));
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
      schema: connectionBody(
        'Health reading of a connection (session required; 401 JSON without): `{activeConnections, databaseSize, cacheHitRatio, slowQueries: [{query, calls, avgTime}], ' +
          'activeSessions: [{pid, user, database, state, query, duration}]}`. Embedded engines answer cacheHitRatio "n/a" and empty lists. ' +
          'Any failure is 503 CONNECTION_ERROR, never a zero-filled reading.',
      ),
    },
    async (request) => {
      const session = await sessionFor(deps, request);
      const target = await resolveTarget(deps, session, request.body as Record<string, unknown>);
      try {
        return await deps.providers.use(target.descriptor, (p) => p.health());
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
