// The audit log: one row per state-changing request or named security event, queried newest first.
import type { StoreDb } from './database.js';

export interface AuditInsert {
  id: string;
  at: string;
  actor: string;
  action: string;
  target: string | null;
  status: number;
  details: Record<string, unknown>;
}

export interface AuditEntry {
  id: string;
  at: string;
  actor: string;
  action: string;
  target: string | null;
  details: Record<string, unknown>;
}

export interface AuditFilter {
  actor?: string;
  action?: string;
  /** RFC 3339 UTC (normalised by the caller). */
  since?: string;
  limit: number;
  offset: number;
}

export async function insertAudit(db: StoreDb, entry: AuditInsert): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({ ...entry, details: JSON.stringify(entry.details) })
    .execute();
}

export async function queryAudit(
  db: StoreDb,
  filter: AuditFilter,
): Promise<{ entries: AuditEntry[]; total: number }> {
  let base = db.selectFrom('audit_log');
  if (filter.actor !== undefined) base = base.where('actor', '=', filter.actor);
  if (filter.action !== undefined) base = base.where('action', '=', filter.action);
  if (filter.since !== undefined) base = base.where('at', '>=', filter.since);
  const [rows, count] = await Promise.all([
    base
      .select(['id', 'at', 'actor', 'action', 'target', 'status', 'details'])
      .orderBy('seq', 'desc')
      .limit(filter.limit)
      .offset(filter.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    entries: rows.map((r) => ({
      id: r.id,
      at: r.at,
      actor: r.actor,
      action: r.action,
      target: r.target,
      details: JSON.parse(r.details) as Record<string, unknown>,
    })),
    total: Number(count.n),
  };
}
