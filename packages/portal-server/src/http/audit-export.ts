// `POST /api/audit/export` (session): records a `data_export` audit event for an export the browser built
// itself (e.g. from an agent run's rows), `{connectionId, format, rows}` → `{success: true}`. The actor is the
// session's user; the server dates the event and marks it `source: "browser"` since it did not build the file.
import { badRequest } from '@app/kit';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AuditLog } from '../audit/audit-log.js';
import { requireSession } from './guard.js';
import { checkedByHandler } from './request-input.js';
import { errorResponses, Success } from './response-schemas.js';

export const EXPORT_FORMATS = ['csv', 'json', 'sql-insert', 'sql-ddl'] as const;

export interface AuditExportOptions {
  audit: Pick<AuditLog, 'record'>;
}

export function registerAuditExportRoute(app: FastifyInstance, options: AuditExportOptions): void {
  app.post(
    '/api/audit/export',
    {
      bodyLimit: 16 * 1024,
      schema: {
        tags: ['audit'],
        description:
          'Records a browser-built export: `{connectionId (1..200 characters), format (csv|json|sql-insert|sql-ddl), rows (integer ≥ 0)}` → `{success: true}`; 400 otherwise.',
        body: Type.Object({
          connectionId: Type.String({ minLength: 1, maxLength: 200 }),
          format: Type.Union(EXPORT_FORMATS.map((f) => Type.Literal(f))),
          rows: Type.Integer({ minimum: 0 }),
        }),
        response: { 200: Success, ...errorResponses(400, 401) },
      },
      // The handler checks the body after the session (401 first), in its own words.
      ...checkedByHandler,
    },
    async (request) => {
      const user = await requireSession(request);
      const body = request.body;
      if (body === null || typeof body !== 'object' || Array.isArray(body)) {
        throw badRequest('The body must be a JSON object {connectionId, format, rows}');
      }
      const { connectionId, format, rows } = body as Record<string, unknown>;
      if (typeof connectionId !== 'string' || connectionId.length === 0 || connectionId.length > 200) {
        throw badRequest('connectionId must be a string of 1 to 200 characters');
      }
      if (typeof format !== 'string' || !(EXPORT_FORMATS as readonly string[]).includes(format)) {
        throw badRequest(`format must be one of ${EXPORT_FORMATS.join(', ')}`);
      }
      if (typeof rows !== 'number' || !Number.isSafeInteger(rows) || rows < 0) {
        throw badRequest('rows must be an integer of at least 0');
      }
      await options.audit.record({
        type: 'data_export',
        actor: user.username,
        connection: connectionId,
        result: 'success',
        format,
        rows,
        role: user.role,
        source: 'browser',
      });
      return { success: true };
    },
  );
}
