// The webhook delivery history: every delivery (accepted, rejected, ignored) with its outcome, the runs it
// started, its headers with secrets redacted and its body (the first 64 KiB, credentials in URLs and known
// secrets masked). Bounded: deliveries older than 30 days, and beyond the newest 5,000, are pruned by the
// leader's housekeeping, so unauthenticated senders cannot grow it without limit.
import { notFound } from '@app/kit';
import type { StoreDb } from '../store/database.js';
import { newId } from '../store/ids.js';
import type { WebhookDeliveriesTable } from '../store/trigger-schema.js';
import { scrub } from './git.js';

export type DeliveryStatus = 'accepted' | 'rejected' | 'ignored';

export interface DeliveryRecord {
  scm: string;
  event: string;
  delivery_id: string | null;
  status: DeliveryStatus;
  status_code: number;
  reason: string;
  repository: string | null;
  ref: string | null;
  revision: string | null;
  run_ids: string[];
  headers: Record<string, string>;
  raw: Buffer | null;
  bytes: number;
  /** Secret values to mask should the body contain them. */
  secrets: string[];
  received_at: string;
}

export interface DeliverySummary {
  id: string;
  scm: string;
  event: string;
  delivery_id: string | null;
  status: string;
  status_code: number;
  reason: string;
  repository: string | null;
  ref: string | null;
  revision: string | null;
  run_ids: string[];
  received_at: string;
}

export interface DeliveryDetail extends DeliverySummary {
  headers: Record<string, string>;
  payload: string;
  payload_bytes: number;
  payload_truncated: boolean;
}

export const PAYLOAD_KEPT = 64 * 1024;
export const DELIVERIES_KEPT = 5000;
const DAYS_KEPT = 30;

const summaryColumns = [
  'id',
  'scm',
  'event',
  'delivery_id',
  'status',
  'status_code',
  'reason',
  'repository',
  'ref',
  'revision',
  'run_ids',
  'received_at',
] as const;

function summary(row: Pick<WebhookDeliveriesTable, (typeof summaryColumns)[number]>): DeliverySummary {
  return { ...row, run_ids: JSON.parse(row.run_ids) as string[] };
}

export class Deliveries {
  constructor(private readonly db: StoreDb) {}

  async record(rec: DeliveryRecord): Promise<string> {
    const id = newId();
    const text = rec.raw ? rec.raw.subarray(0, PAYLOAD_KEPT).toString('utf8') : '';
    await this.db
      .insertInto('webhook_deliveries')
      .values({
        id,
        scm: rec.scm,
        event: rec.event.slice(0, 100),
        delivery_id: rec.delivery_id,
        status: rec.status,
        status_code: rec.status_code,
        reason: rec.reason.slice(0, 2000),
        repository: rec.repository?.slice(0, 2000) ?? null,
        ref: rec.ref?.slice(0, 500) ?? null,
        revision: rec.revision?.slice(0, 100) ?? null,
        run_ids: JSON.stringify(rec.run_ids),
        headers: JSON.stringify(rec.headers),
        payload: scrub(text, rec.secrets),
        payload_bytes: rec.bytes,
        payload_truncated: rec.raw === null || rec.bytes > PAYLOAD_KEPT ? 1 : 0,
        received_at: rec.received_at,
      })
      .execute();
    return id;
  }

  async list(q: { limit: number; offset: number; scm?: string; status?: string }) {
    let query = this.db.selectFrom('webhook_deliveries');
    if (q.scm) query = query.where('scm', '=', q.scm);
    if (q.status) query = query.where('status', '=', q.status);
    const [rows, total] = await Promise.all([
      query.select(summaryColumns).orderBy('id', 'desc').limit(q.limit).offset(q.offset).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { deliveries: rows.map(summary), total: Number(total.n), limit: q.limit, offset: q.offset };
  }

  async get(id: string): Promise<DeliveryDetail> {
    const row = await this.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('id', '=', id.toLowerCase())
      .executeTakeFirst();
    if (!row) throw notFound(`webhook delivery ${id} not found`);
    return {
      ...summary(row),
      headers: JSON.parse(row.headers) as Record<string, string>,
      payload: row.payload,
      payload_bytes: row.payload_bytes,
      payload_truncated: row.payload_truncated === 1,
    };
  }

  /** Counts per host and outcome and the last delivery time (integrations view). */
  async stats() {
    const rows = await this.db
      .selectFrom('webhook_deliveries')
      .select([
        'scm',
        'status',
        (eb) => eb.fn.countAll<number>().as('n'),
        (eb) => eb.fn.max('received_at').as('last'),
      ])
      .groupBy(['scm', 'status'])
      .execute();
    return rows.map((r) => ({ scm: r.scm, status: r.status, n: Number(r.n), last: r.last as string | null }));
  }

  /** Drops deliveries (and dedupe claims) past the retention window and beyond the newest DELIVERIES_KEPT. */
  async prune(now: Date): Promise<void> {
    const cutoff = new Date(now.getTime() - DAYS_KEPT * 86_400_000).toISOString();
    await this.db.deleteFrom('webhook_deliveries').where('received_at', '<', cutoff).execute();
    await this.db.deleteFrom('webhook_delivery_claims').where('claimed_at', '<', cutoff).execute();
    const edge = await this.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .orderBy('id', 'desc')
      .limit(1)
      .offset(DELIVERIES_KEPT)
      .executeTakeFirst();
    if (edge) await this.db.deleteFrom('webhook_deliveries').where('id', '<=', edge.id).execute();
  }
}
