// Audit events at rest: the filterable fields as columns (indexed for newest-first pages) and the whole
// event as JSON. Events arrive here already stripped of secrets by the audit log.
import type { Kysely } from 'kysely';
import type { AuditEvent, AuditQuery } from '../audit/types.js';
import type { PortalDatabase } from './schema.js';

export class AuditEventRepository {
  constructor(private readonly db: Kysely<PortalDatabase>) {}

  async insert(event: AuditEvent): Promise<string> {
    const { id: _ignored, ...rest } = event;
    const row = await this.db
      .insertInto('audit_events')
      .values({
        type: event.type,
        actor: event.actor,
        connection: event.connection ?? null,
        result: event.result,
        at: event.at,
        event: JSON.stringify(rest),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return String(row.id);
  }

  /** One page, newest first, with the total count under the same filters. */
  async query(q: AuditQuery): Promise<{ events: AuditEvent[]; total: number }> {
    let base = this.db.selectFrom('audit_events');
    if (q.type !== undefined) base = base.where('type', '=', q.type);
    if (q.actor !== undefined) base = base.where('actor', '=', q.actor);
    if (q.connection !== undefined) base = base.where('connection', '=', q.connection);
    if (q.result !== undefined) base = base.where('result', '=', q.result);
    if (q.from !== undefined) base = base.where('at', '>=', q.from);
    if (q.to !== undefined) base = base.where('at', '<=', q.to);
    const [rows, count] = await Promise.all([
      base
        .select(['id', 'event'])
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .limit(q.limit)
        .offset(q.offset)
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return {
      events: rows.map((r) => ({ ...(JSON.parse(r.event) as AuditEvent), id: String(r.id) })),
      total: Number(count.n),
    };
  }

  /** Deletes events older than `before` (ISO); for a retention job. */
  async pruneBefore(before: string): Promise<number> {
    const res = await this.db.deleteFrom('audit_events').where('at', '<', before).executeTakeFirst();
    return Number(res.numDeletedRows);
  }
}
