// POST /api/db/transaction: explicit transactions owned by the session user. `begin` opens a dedicated
// connection and answers a transactionId; `query` runs one statement in it (same rules as /api/db/query);
// `commit` and `rollback` end it. Another user's transaction id is unknown (404). An abandoned transaction is
// rolled back after the idle timeout (providers/transactions.ts).
import { conflict, HttpError, notFound } from '@app/kit';
import type { FastifyInstance } from 'fastify';
import type { QueryDeps } from '../execution/contracts.js';
import { runWithPaging } from '../execution/paging.js';
import { executeGoverned } from '../execution/pipeline.js';
import { executionContext, type ResolvedTarget, resolveTarget, splitChecked } from '../execution/target.js';
import { toHttpError } from '../providers/errors.js';
import { MAX_TRANSACTIONS_PER_USER } from '../providers/transactions.js';
import { connectionSchema, DB_ERRORS } from './connection-schema.js';
import {
  checkStatementSize,
  clientGone,
  parseOptions,
  parseParams,
  parseQueryId,
  parseTicket,
  sessionFor,
  strictBody,
} from './request-input.js';
import { errorResponses, rowsAsJson, TransactionAnswer } from './response-schemas.js';

export function registerTransactionRoute(app: FastifyInstance, deps: QueryDeps): void {
  app.post(
    '/api/db/transaction',
    {
      preValidation: strictBody,
      ...rowsAsJson,
      schema: {
        tags: ['database'],
        description:
          '`{connection, action: begin|query|commit|rollback, transactionId?, sql?, params?, ticket?, options?, queryId?}`. ' +
          'begin → `{transactionId, status: "open", startedAt, idleTimeoutMs}` (at most 5 open per user, 409 beyond); ' +
          'query (one statement, transaction control refused) → the /api/db/query result plus `transactionId`; ' +
          'commit / rollback → `{transactionId, status: "committed" | "rolled_back"}`. Unknown or another user’s id 404; ' +
          'a transaction still running a statement 409. Idle transactions are rolled back after the idle timeout (5 minutes).',
        body: {
          type: 'object',
          properties: {
            connection: connectionSchema,
            action: { type: 'string', enum: ['begin', 'query', 'commit', 'rollback'] },
            transactionId: { type: 'string' },
            sql: { type: 'string' },
            params: {},
            ticket: { type: 'string' },
            options: { type: 'object', additionalProperties: true },
            queryId: { type: 'string' },
          },
          required: ['action'],
          additionalProperties: true,
        },
        response: { 200: TransactionAnswer, ...DB_ERRORS, ...errorResponses(409) },
      },
    },
    async (request, reply) => {
      const session = await sessionFor(deps, request);
      const body = (request.body ?? {}) as Record<string, unknown>;
      const action = body.action as 'begin' | 'query' | 'commit' | 'rollback';

      if (action === 'begin') {
        const target = await resolveTarget(deps, session, body);
        if (!target.factory.capabilities.supportsTransactions) {
          throw new HttpError(400, `${target.factory.engine} has no transactions`, 'UNSUPPORTED');
        }
        if (deps.transactions.countFor(session.username) >= MAX_TRANSACTIONS_PER_USER) {
          throw conflict(
            `At most ${MAX_TRANSACTIONS_PER_USER} open transactions per user; commit or roll back one first`,
          );
        }
        const lease = await deps.providers.acquire(target.descriptor).catch((err) => {
          throw toHttpError(err);
        });
        try {
          const beginCtx = executionContext(session, target, 'transaction', [], [], undefined);
          const provider = deps.governance.wrapProvider?.(beginCtx, lease.provider) ?? lease.provider;
          const s = await provider.openSession();
          try {
            await s.begin();
          } catch (err) {
            await s.close();
            throw err;
          }
          const t = deps.transactions.add(
            session.username,
            lease.identity,
            target.descriptor.id,
            s,
            lease,
            target,
          );
          return {
            transactionId: t.id,
            status: 'open',
            startedAt: new Date(t.startedAt).toISOString(),
            idleTimeoutMs: deps.transactions.idleMs,
          };
        } catch (err) {
          lease.release();
          throw toHttpError(err);
        }
      }

      const id = typeof body.transactionId === 'string' ? body.transactionId : '';
      const t = deps.transactions.get(session.username, id);
      if (!t) throw notFound('Unknown transaction');
      if (t.busy) throw conflict('The transaction is still running a statement');

      if (action === 'commit' || action === 'rollback') {
        t.busy = true;
        try {
          if (action === 'commit') await t.session.commit();
          else await t.session.rollback();
        } catch (err) {
          throw toHttpError(err);
        } finally {
          t.busy = false;
          await deps.transactions.end(t);
        }
        return { transactionId: t.id, status: action === 'commit' ? 'committed' : 'rolled_back' };
      }

      // action === 'query'
      const sql = checkStatementSize(body.sql);
      const params = parseParams(body.params);
      const ticket = parseTicket(body.ticket);
      const page = parseOptions(body.options);
      const queryId = parseQueryId(body.queryId);
      // The statement runs on the transaction's own connection, under what was resolved at begin.
      const target = t.target as ResolvedTarget;
      const statements = splitChecked(target, sql);
      if (statements.length !== 1) {
        throw new HttpError(400, 'A transaction query runs one statement at a time', 'MULTIPLE_STATEMENTS');
      }
      t.busy = true;
      try {
        return await executeGoverned(deps, {
          principal: session,
          route: 'transaction',
          auditRoute: '/api/db/transaction',
          target,
          sql,
          statements,
          params,
          ticket,
          queryId,
          session: t.session,
          signal: clientGone(request, reply),
          auditFields: { transactionId: t.id },
          run: async (exec) => {
            const out = await runWithPaging(
              exec.query,
              target.factory.sqlDialect,
              statements[0],
              params,
              page,
              target.maxRows,
            );
            return {
              transactionId: t.id,
              rows: exec.mask(out.result.fields, out.result.rows),
              fields: out.result.fields,
              rowCount: out.result.rowCount,
              executionTime: out.executionTime,
              ...(out.result.columnTypes ? { columnTypes: out.result.columnTypes } : {}),
              pagination: out.pagination,
            };
          },
          outcome: (answer) => ({ rowCount: answer.rowCount, durationMs: answer.executionTime }),
        });
      } finally {
        t.busy = false;
        deps.transactions.touch(t);
      }
    },
  );
}
