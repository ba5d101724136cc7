// POST /api/db/export: the export rule first (governance hook, 403), then the statement must only read (400),
// then it runs again as a read-only stream (pg cursor, mysql2 row stream, SQLite iterate, DuckDB chunks)
// bounded by the datasource's maxRows or 100000 rows, rows masked per row. The file is spooled to disk as it
// streams (constant memory) so that `X-Export-Rows` can be sent as a header with the exact count, then sent
// with Content-Disposition, Content-Length and X-Export-Extension and removed.
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { HttpError, openSpoolFile } from '@app/kit';
import type { FastifyInstance } from 'fastify';
import { audit, auditConnection } from '../execution/audit-lines.js';
import type { QueryDeps } from '../execution/contracts.js';
import { executeGoverned } from '../execution/pipeline.js';
import { resolveTarget, splitChecked } from '../execution/target.js';
import { readAnsweringRows } from '../governance/export-rules.js';
import type { Provider } from '../providers/types.js';
import { analyzeStatement } from '../sql/analyze.js';
import { planLimit } from '../sql/limit.js';
import { connectionSchema, DB_ERRORS } from './connection-schema.js';
import { CONTENT_TYPE, EXPORT_FORMATS, EXTENSION, type ExportFormat, writerFor } from './export-formats.js';
import {
  checkStatementSize,
  clientGone,
  parseParams,
  parseTicket,
  sessionFor,
  strictBody,
} from './request-input.js';
import { ExportFile } from './response-schemas.js';

export const EXPORT_BATCH = 5_000;
const SPOOL_BUFFER = 4 * 1024 * 1024;

function parseDelimiter(v: unknown): string {
  if (v === undefined || v === null) return ',';
  if (typeof v !== 'string' || [...v].length !== 1 || v === '"' || v === '\r' || v === '\n') {
    throw new HttpError(
      400,
      'csvDelimiter must be one character other than a quote or a line break',
      'BAD_REQUEST',
    );
  }
  return v;
}

function baseName(tabName: unknown): string {
  const raw = typeof tabName === 'string' ? tabName : '';
  const clean = raw
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._]+/, '')
    .slice(0, 100);
  return clean || `export-${new Date().toISOString().replace(/[:.]/g, '-')}`;
}

export function registerExportRoutes(app: FastifyInstance, deps: QueryDeps): void {
  app.post(
    '/api/db/export',
    {
      preValidation: strictBody,
      schema: {
        tags: ['database'],
        description:
          '`{connectionId | connection, sql, format: csv|json|sql-insert|sql-ddl, params?, csvDelimiter? (one character, default ","), reveal?, tabName?, ticket?}`. ' +
          'Answers the file: Content-Disposition attachment with filename `<tabName>.<ext>`, X-Export-Rows (exact count), X-Export-Extension. ' +
          'csv: RFC 4180 (CRLF, quoted when needed, quotes doubled); json: an array of row objects; sql-insert: INSERT statements into `tabName` ' +
          '(default "export"); sql-ddl: CREATE TABLE then the INSERTs. At most the datasource maxRows or 100000 rows. 403 by the export rule, ' +
          '400 EXPORT_NOT_READ_ONLY when the classifier (the engine allowlist) does not read the statement as a sure read that answers rows; 400 UNSUPPORTED_FORMAT for sql-insert/sql-ddl on an engine without SQL DDL (capability sqlExport false).',
        body: {
          type: 'object',
          properties: {
            connectionId: { type: 'string' },
            connection: connectionSchema,
            sql: { type: 'string' },
            format: { type: 'string' },
            params: {},
            csvDelimiter: { type: 'string' },
            reveal: { type: 'boolean' },
            tabName: { type: 'string' },
            ticket: { type: 'string' },
          },
          required: ['sql', 'format'],
          additionalProperties: true,
        },
        response: { 200: ExportFile, ...DB_ERRORS },
      },
    },
    async (request, reply) => {
      const session = await sessionFor(deps, request);
      const body = (request.body ?? {}) as Record<string, unknown>;
      const sql = checkStatementSize(body.sql);
      const format = body.format as ExportFormat;
      if (!EXPORT_FORMATS.includes(format))
        throw new HttpError(400, `format must be one of ${EXPORT_FORMATS.join(', ')}`, 'BAD_REQUEST');
      const params = parseParams(body.params);
      const ticket = parseTicket(body.ticket);
      const delimiter = parseDelimiter(body.csvDelimiter);
      const target = await resolveTarget(deps, session, body);
      if (format.startsWith('sql-') && target.factory.capabilities.sqlExport === false)
        throw new HttpError(
          400,
          `The ${target.factory.engine} engine has no SQL DDL to write; export as json or csv`,
          'UNSUPPORTED_FORMAT',
        );
      const statements = splitChecked(target, sql);
      if (statements.length !== 1)
        throw new HttpError(400, 'An export runs exactly one statement', 'MULTIPLE_STATEMENTS');
      const statement = statements[0];
      const bound = target.maxRows;
      const name = baseName(body.tabName);
      const writer = writerFor(
        format,
        target.factory.sqlDialect,
        typeof body.tabName === 'string' && body.tabName.trim() ? body.tabName.trim() : 'export',
        delimiter,
      );
      const spool = join(deps.spoolDir, `${randomUUID()}.${EXTENSION[format]}`);
      const rows = await executeGoverned(deps, {
        principal: session,
        route: 'export',
        auditRoute: '/api/db/export',
        target,
        sql,
        statements,
        params,
        ticket,
        reveal: body.reveal === true,
        signal: clientGone(request, reply),
        auditFields: { action: 'export', format },
        preflight: async (ctx) => {
          // Governance refuses what its allowlist does not read as a read (and keeps its classification).
          await deps.governance.checkExport(ctx);
          const facts = await analyzeStatement(target.factory.sqlDialect, statement);
          // The SELECT reader knows no ClickHouse PREWHERE, ANY JOIN or MariaDB ANALYZE SELECT; the
          // classifier's sure read that answers rows is enough.
          const answersRows =
            (facts.kind === 'select' && facts.readOnly) ||
            (ctx.classification !== undefined && readAnsweringRows(ctx.classification));
          if (!answersRows) {
            throw new HttpError(
              400,
              'Only a statement that only reads (a SELECT) can be exported',
              'EXPORT_NOT_READ_ONLY',
            );
          }
        },
        run: async (exec) => {
          const plan = await planLimit(target.factory.sqlDialect, statement, bound, 0);
          const provider = exec.provider as Provider;
          let count = 0;
          // A few MB of write buffer lets the disk write of one batch overlap the fetch of the next.
          const out = openSpoolFile(spool, { highWaterMark: SPOOL_BUFFER });
          try {
            let masker: ((row: unknown[]) => unknown[]) | undefined;
            let headed = false;
            for await (const batch of provider.stream(plan.sql, params, {
              maxRows: bound,
              batchSize: EXPORT_BATCH,
            })) {
              if (exec.cancelled()) break;
              if (!headed) {
                headed = true;
                masker = exec.exportMasker(batch.fields);
                await out.write(writer.head(batch.fields, batch.columnTypes));
              }
              const batchRows = masker ? batch.rows.map(masker) : batch.rows;
              count += batchRows.length;
              await out.write(writer.rows(batchRows));
            }
            if (!headed) await out.write(writer.head([], []));
            await out.write(writer.tail());
            await out.finish();
          } catch (err) {
            // Waits for writes in flight before the file goes, so none of them fails on a destroyed stream.
            await out.discard();
            throw err;
          }
          return count;
        },
        outcome: (count) => ({ rowCount: count }),
      }).catch(async (err) => {
        await rm(spool, { force: true });
        throw err;
      });
      await audit(deps, {
        type: 'data_export',
        actor: session.username,
        ...auditConnection(target),
        result: 'success',
        format,
        rowCount: rows,
        ...(ticket ? { ticket } : {}),
      });

      const size = (await stat(spool)).size;
      const file = createReadStream(spool, { highWaterMark: 1024 * 1024 });
      file.on('close', () => void rm(spool, { force: true }));
      return reply
        .header('content-type', CONTENT_TYPE[format])
        .header('content-disposition', `attachment; filename="${name}.${EXTENSION[format]}"`)
        .header('content-length', size)
        .header('x-export-rows', String(rows))
        .header('x-export-extension', EXTENSION[format])
        .header('access-control-expose-headers', 'Content-Disposition, X-Export-Rows, X-Export-Extension')
        .send(file);
    },
  );
}
