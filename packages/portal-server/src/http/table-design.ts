// The table designer (issue 30 item 3): POST /api/db/tables/ddl turns a JSON description of a new table
// (`create`) or of changes to an existing one (`alter`) into the engine's DDL (sql/table-ddl.ts), answers it
// for preview, and otherwise runs it through executeGoverned like typed SQL: classification (DDL is a write),
// policy (a read-only datasource refuses it, write approval holds it: 403 APPROVAL_REQUIRED carries the
// request, and the same description sent again inside the approval window runs), audit per statement.
// PostgreSQL and SQLite run the statements in one transaction (their DDL is transactional); MySQL/MariaDB
// commit each DDL statement implicitly, so the batch stops at the first failure and what ran stays.

import { HttpError, notFound } from '@app/kit';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { boundedStatement } from '../execution/audit-lines.js';
import type { QueryDeps } from '../execution/contracts.js';
import { executeGoverned } from '../execution/pipeline.js';
import { executionContext, type ResolvedTarget, resolveTarget, splitChecked } from '../execution/target.js';
import { toHttpError } from '../providers/errors.js';
import {
  type AlterChange,
  alterTableStatements,
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
          '(`path`: [container, name] of the table). The server writes the DDL for the engine (PostgreSQL, MySQL/MariaDB, SQLite/libSQL; other engines 400 UNSUPPORTED): names are checked and quoted, ' +
          "a type must be one of provider-meta's `columnTypes` (optionally `(n)` or `(p,s)`), a default is `{literal}` or `{expression}` from " +
          `${DEFAULT_EXPRESSIONS.join(', ')}; anything else is 400 BAD_DESIGN. SQLite changes that need a table rebuild (a column's type, nullability or default, the primary key, foreign keys) are 400 with the reason. ` +
          '`preview: true` answers the statements without running them. Otherwise they run governed like typed SQL (a DDL statement is a write: a read-only datasource refuses it, write approval answers 403 APPROVAL_REQUIRED ' +
          'holding the statements, and the same description sent again runs once approved); audit per statement. PostgreSQL and SQLite run them in one transaction; MySQL/MariaDB commit each DDL statement, so a failure stops the batch and what ran stays.',
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
      let texts: string[];
      try {
        if (body.create !== undefined)
          texts = createTableStatements(dialect, path, body.create as TableDesign);
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
          texts = alterTableStatements(dialect, path, changes);
        }
      } catch (err) {
        if (err instanceof DesignError) throw new HttpError(400, err.message, 'BAD_DESIGN');
        throw err;
      }
      if (body.preview === true) return { statements: texts, applied: false };
      const sql = texts.map((t) => `${t};`).join('\n');
      const statements = splitChecked(target, sql);
      if (statements.length !== texts.length)
        throw new HttpError(400, 'The generated DDL did not split as built', 'BAD_REQUEST');
      // MySQL/MariaDB end a transaction at every DDL statement: no BEGIN there.
      const transactional = rules.transactionalDdl;
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
          try {
            if (transactional) {
              await s.begin();
              open = true;
            }
            for (const [index, statement] of statements.entries()) {
              const line = { statement: boundedStatement(statement), statementIndex: index };
              try {
                await s.query(statement, [], { maxRows: 0 });
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
            if (open) await s.rollback().catch(() => undefined);
            await s.close();
          }
          return { statements: texts, applied: true };
        },
      });
    },
  );
}
