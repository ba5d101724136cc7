// The table designer (issue 30 item 3): POST /api/db/tables/ddl turns a JSON description of a new table
// (`create`) or of changes to an existing one (`alter`) into the engine's DDL (sql/table-ddl.ts), answers it
// for preview, and otherwise runs it through executeGoverned like typed SQL: classification (DDL is a write),
// policy (a read-only datasource refuses it, write approval holds it: 403 APPROVAL_REQUIRED carries the
// request, and the same description sent again inside the approval window runs), audit per statement.
// Engines with transactional DDL (PostgreSQL, SQLite, DuckDB, SQL Server) run the statements in one
// transaction; MySQL/MariaDB and Oracle commit each DDL statement implicitly, so the batch stops at the first
// failure and what ran stays. A script with its own transaction (SQLite's table rebuild: foreign keys are
// switched off outside it) runs as written, its checks (PRAGMA foreign_key_check) failing it on any row,
// and any failure inside rolls the whole script back.

import { HttpError, notFound } from '@app/kit';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { boundedStatement } from '../execution/audit-lines.js';
import type { QueryDeps } from '../execution/contracts.js';
import { executeGoverned } from '../execution/pipeline.js';
import { executionContext, type ResolvedTarget, resolveTarget, splitChecked } from '../execution/target.js';
import { toHttpError } from '../providers/errors.js';
import type { ParamValue } from '../providers/types.js';
import type { DdlScript } from '../sql/dialect.js';
import { alterTableScript } from '../sql/table-alter.js';
import {
  type AlterChange,
  createTableStatements,
  DEFAULT_EXPRESSIONS,
  DesignError,
  designRules,
  FK_ACTIONS,
  type TableDesign,
} from '../sql/table-ddl.js';
import { connectionBody } from './connection-schema.js';
import { clientGone, parseTicket, sessionFor, strictBody } from './request-input.js';

const DesignAnswer = Type.Object(
  {
    statements: Type.Array(Type.String(), { description: 'the DDL, in order, exactly as it runs' }),
    applied: Type.Boolean({ description: 'false for a preview' }),
  },
  { additionalProperties: true },
);

const Name = { type: 'string', minLength: 1, maxLength: 63 };
const Names = { type: 'array', items: Name, minItems: 1, maxItems: 32 };
const PathSchema = {
  type: 'array',
  items: { type: 'string', minLength: 1, maxLength: 512 },
  minItems: 1,
  maxItems: 2,
};
const DefaultSchema = {
  type: 'object',
  description: `{literal: string | number | boolean | null} or {expression: ${DEFAULT_EXPRESSIONS.join(' | ')}}`,
  properties: {
    // Untyped: the validator would coerce a union to its first type.
    literal: { description: 'string, number, boolean or null (checked by the route)' },
    expression: { type: 'string', enum: [...DEFAULT_EXPRESSIONS] },
  },
  minProperties: 1,
  maxProperties: 1,
  additionalProperties: false,
};
const ColumnSchema = {
  type: 'object',
  properties: {
    name: Name,
    type: {
      type: 'string',
      minLength: 1,
      maxLength: 64,
      description: "one of provider-meta's columnTypes, optionally (n) or (p,s)",
    },
    nullable: { type: 'boolean' },
    default: DefaultSchema,
  },
  required: ['name', 'type'],
  additionalProperties: false,
};
const IndexSchema = {
  type: 'object',
  properties: { name: Name, columns: Names, unique: { type: 'boolean' } },
  required: ['name', 'columns'],
  additionalProperties: false,
};
const Action = { type: 'string', enum: [...FK_ACTIONS] };
const ForeignKeySchema = {
  type: 'object',
  properties: {
    name: Name,
    columns: Names,
    referencedPath: PathSchema,
    referencedColumns: Names,
    onDelete: Action,
    onUpdate: Action,
  },
  required: ['columns', 'referencedPath', 'referencedColumns'],
  additionalProperties: false,
};
const CreateSchema = {
  type: 'object',
  properties: {
    columns: { type: 'array', items: ColumnSchema, minItems: 1, maxItems: 500 },
    primaryKey: { type: 'array', items: Name, maxItems: 32 },
    indexes: { type: 'array', items: IndexSchema, maxItems: 64 },
    foreignKeys: { type: 'array', items: ForeignKeySchema, maxItems: 64 },
  },
  required: ['columns'],
  additionalProperties: false,
};
const OPS = [
  'renameTable',
  'addColumn',
  'dropColumn',
  'renameColumn',
  'alterColumn',
  'addPrimaryKey',
  'addIndex',
  'dropIndex',
  'addForeignKey',
  'dropForeignKey',
];
const ChangeSchema = {
  type: 'object',
  properties: {
    op: { type: 'string', enum: OPS },
    name: Name,
    to: Name,
    column: ColumnSchema,
    changed: { type: 'array', items: { type: 'string', enum: ['type', 'nullable', 'default'] }, maxItems: 3 },
    columns: Names,
    index: IndexSchema,
    foreignKey: ForeignKeySchema,
  },
  required: ['op'],
  additionalProperties: false,
};

/** The fields each change needs (the schema leaves them optional; a missing one is 400, not a TypeError). */
const NEEDS: Record<string, string[]> = {
  renameTable: ['to'],
  addColumn: ['column'],
  dropColumn: ['name'],
  renameColumn: ['name', 'to'],
  alterColumn: ['name', 'column', 'changed'],
  addPrimaryKey: ['columns'],
  addIndex: ['index'],
  dropIndex: ['name'],
  addForeignKey: ['foreignKey'],
  dropForeignKey: ['name'],
};

/** The engine's designer: its dialect and DDL rules, or 400 where the designer is not offered. */
function designerOf(target: ResolvedTarget) {
  const { sqlDialect: dialect, capabilities, engine } = target.factory;
  const rules = designRules(dialect);
  if (!capabilities.supportsCreateTable || !rules)
    throw new HttpError(400, `${engine} has no table designer`, 'UNSUPPORTED');
  return { dialect, rules };
}

export function registerTableDesignRoutes(app: FastifyInstance, deps: QueryDeps): void {
  app.post(
    '/api/db/tables/ddl',
    {
      preValidation: strictBody,
      schema: connectionBody(
        'The table designer: `{connection, path, create?: {columns: [{name, type, nullable?, default?}], primaryKey?, indexes?: [{name, columns, unique?}], foreignKeys?: [{name?, columns, referencedPath, referencedColumns, onDelete?, onUpdate?}]}, ' +
          'alter?: [{op: renameTable|addColumn|dropColumn|renameColumn|alterColumn|addPrimaryKey|addIndex|dropIndex|addForeignKey|dropForeignKey, …}], preview?, ticket?}` with exactly one of create and alter ' +
          '(`path`: [container, name] of the table). The server writes the DDL for the engine (PostgreSQL, MySQL/MariaDB, SQLite/libSQL, DuckDB, SQL Server, Oracle; other engines 400 UNSUPPORTED): names are checked and quoted, ' +
          "a type must be one of provider-meta's `columnTypes` (optionally `(n)` or `(p,s)`), a default is `{literal}` or `{expression}` from " +
          `${DEFAULT_EXPRESSIONS.join(', ')} (those the engine has: provider-meta \`defaultExpressions\`); anything else, and what the engine cannot do, is 400 BAD_DESIGN with the reason. ` +
          "SQLite changes its ALTER TABLE cannot make (a column's type, nullability or default, keys, dropping a column a key or index uses) become one table-rebuild script (foreign keys off, BEGIN, new table, rows copied, old dropped, new renamed, indexes and triggers again, PRAGMA foreign_key_check, COMMIT), run as one unit: a failure, or a row from foreign_key_check (400 FOREIGN_KEY_CHECK), leaves the table as it was. " +
          '`preview: true` answers the statements without running them. Otherwise they run governed like typed SQL (a DDL statement is a write: a read-only datasource refuses it, write approval answers 403 APPROVAL_REQUIRED ' +
          'holding the statements, and the same description sent again runs once approved); audit per statement. PostgreSQL, SQLite, DuckDB and SQL Server run them in one transaction; MySQL/MariaDB and Oracle commit each DDL statement, so a failure stops the batch and what ran stays.',
        DesignAnswer,
        {
          path: PathSchema,
          create: CreateSchema,
          alter: { type: 'array', items: ChangeSchema, minItems: 1, maxItems: 200 },
          preview: { type: 'boolean' },
          ticket: { type: 'string' },
        },
        ['path'],
      ),
    },
    async (request, reply) => {
      const session = await sessionFor(deps, request);
      const body = (request.body ?? {}) as Record<string, unknown>;
      const path = body.path as string[];
      const ticket = parseTicket(body.ticket);
      if ((body.create === undefined) === (body.alter === undefined))
        throw new HttpError(400, 'Give exactly one of create and alter', 'BAD_REQUEST');
      const target = await resolveTarget(deps, session, body);
      const { dialect, rules } = designerOf(target);
      const ctx = executionContext(session, target, 'objects', [], [], undefined);
      if (!deps.governance.isObjectVisible(ctx, path)) throw notFound('Unknown object');
      let script: DdlScript;
      try {
        if (body.create !== undefined)
          script = { statements: createTableStatements(dialect, path, body.create as TableDesign) };
        else {
          const changes = body.alter as AlterChange[];
          changes.forEach((c, i) => {
            const missing = (NEEDS[c.op] ?? []).filter(
              (f) => (c as Record<string, unknown>)[f] === undefined,
            );
            if (missing.length) throw new DesignError(`alter[${i}] (${c.op}) needs ${missing.join(', ')}`);
          });
          // The table must exist (and be visible) before it is altered.
          const detail = await deps.providers
            .use(target.descriptor, (p) => p.catalog.describe(path))
            .catch((err) => {
              throw toHttpError(err);
            });
          if (!detail || detail.columns.length === 0) throw notFound(`Unknown table ${path.join('.')}`);
          // An engine that rebuilds tables reads the table as it stands from its catalog first.
          const rebuild = rules.rebuild;
          const current = rebuild
            ? await deps.providers
                .use(target.descriptor, (p) =>
                  rebuild.read(
                    async (sql, params) =>
                      (await p.query(sql, params as ParamValue[], { maxRows: 10_000 })).rows,
                    path,
                  ),
                )
                .catch((err) => {
                  throw toHttpError(err);
                })
            : undefined;
          script = alterTableScript(dialect, path, changes, current);
        }
      } catch (err) {
        if (err instanceof DesignError) throw new HttpError(400, err.message, 'BAD_DESIGN');
        throw err;
      }
      const texts = script.statements;
      if (body.preview === true) return { statements: texts, applied: false };
      // A script with its own BEGIN … COMMIT (the rebuild) has them run by the session, like the route's own
      // transaction: governance sees the statements that do the work, which the request cannot hold.
      const own = script.ownTransaction;
      const work = texts.filter((_, i) => i !== own?.begin && i !== own?.commit);
      const sql = work.map((t) => `${t};`).join('\n');
      const statements = splitChecked(target, sql);
      if (statements.length !== work.length)
        throw new HttpError(400, 'The generated DDL did not split as built', 'BAD_REQUEST');
      // MySQL/MariaDB and Oracle end a transaction at every DDL statement: no BEGIN there.
      const transactional = rules.transactionalDdl && !own;
      return executeGoverned(deps, {
        principal: session,
        route: 'transaction',
        auditRoute: '/api/db/tables/ddl',
        target,
        sql,
        statements,
        params: [],
        ticket,
        signal: clientGone(request, reply),
        audit: 'per-statement',
        auditFields: { tableDesign: path.join('.') },
        run: async (exec) => {
          const s = await exec.openSession();
          let open = false;
          let index = 0;
          try {
            if (transactional) {
              await s.begin();
              open = true;
            }
            for (const [at, text] of texts.entries()) {
              if (at === own?.begin) {
                await s.begin();
                open = true;
                continue;
              }
              if (at === own?.commit) {
                await s.commit();
                open = false;
                continue;
              }
              const statement = statements[index];
              const line = { statement: boundedStatement(statement), statementIndex: index++ };
              const check = script.checks?.includes(at) === true;
              try {
                const r = await s.query(statement, [], { maxRows: check ? 20 : 0 });
                if (check && r.rows.length > 0)
                  throw new HttpError(
                    400,
                    `The change breaks foreign keys (${r.rows.length}${r.truncated ? '+' : ''} row(s) from ${text}): nothing was changed`,
                    'FOREIGN_KEY_CHECK',
                  );
              } catch (err) {
                const e = toHttpError(err);
                await exec.audit({ ...line, result: 'failure', error: e.message, errorCode: e.code });
                throw e;
              }
              await exec.audit({ ...line, result: 'success', rowCount: 0 });
            }
            if (open) await s.commit();
            open = false;
          } finally {
            // Rolled back whole; a connection setting the script changed (foreign_keys) ends with the
            // session, which is closed here.
            if (open) await s.rollback().catch(() => undefined);
            await s.close();
          }
          return { statements: texts, applied: true };
        },
      });
    },
  );
}
