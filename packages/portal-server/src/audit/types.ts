// The audit event and the audit page query: plain data shared by the audit log, its store table and the
// admin route. No I/O here.

export type AuditResult = 'success' | 'failure';

/** One authoritative event. Fields beyond the named ones are event-specific (ticket, approved_by, …). */
export interface AuditEvent {
  id?: string;
  type: string;
  actor: string | null;
  connection?: string | null;
  result: AuditResult;
  at: string;
  /** Agent operations only: shared by a decision event and its outcome event. */
  correlationId?: string;
  [field: string]: unknown;
}

/** Filters of `GET /api/admin/audit`; all exact matches, `from`/`to` inclusive ISO instants. */
export interface AuditQuery {
  type?: string;
  actor?: string;
  connection?: string;
  result?: AuditResult;
  from?: string;
  to?: string;
  limit: number;
  offset: number;
}

export interface AuditPage {
  events: AuditEvent[];
  total: number;
  limit: number;
  offset: number;
  source: 'store' | 'buffer';
}

export function matchesAuditQuery(event: AuditEvent, q: AuditQuery): boolean {
  if (q.type !== undefined && event.type !== q.type) return false;
  if (q.actor !== undefined && event.actor !== q.actor) return false;
  if (q.connection !== undefined && (event.connection ?? null) !== q.connection) return false;
  if (q.result !== undefined && event.result !== q.result) return false;
  if (q.from !== undefined && event.at < q.from) return false;
  if (q.to !== undefined && event.at > q.to) return false;
  return true;
}
