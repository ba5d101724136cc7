// The `query_execution` audit line's common parts: the sink call that never turns a finished execution into
// an error, the connection fields, and the bounded statement text.
import type { AuditEvent, QueryDeps } from './contracts.js';
import type { ResolvedTarget } from './target.js';

/** Audit statement text is bounded so one huge statement cannot flood the log. */
export const AUDIT_STATEMENT_MAX = 10_000;

export async function audit(deps: Pick<QueryDeps, 'audit'>, event: AuditEvent): Promise<void> {
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
