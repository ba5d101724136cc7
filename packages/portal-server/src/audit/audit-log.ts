// The portal's audit trail. `record` is for authoritative events (what the server itself decided or did):
// one JSON line on stdout (`{"audit":true,…}`, for log shippers) and a row in the store, or — without
// server storage — an entry in a bounded in-process buffer. `append` is for events a browser reports
// (`POST /api/admin/audit`): they go to the buffer only, since the server cannot vouch for them.
import type { AuditEventRepository } from '../storage/audit-events.js';
import { AuditRingBuffer } from './ring-buffer.js';
import { REDACTED, sanitizeValue } from './sanitize.js';
import type { AuditEvent, AuditPage, AuditQuery, AuditResult } from './types.js';

export interface AuditInput {
  type: string;
  actor?: string | null;
  connection?: string | null;
  result?: AuditResult;
  correlationId?: string;
  at?: Date | string;
  [field: string]: unknown;
}

export interface AuditLogOptions {
  /** The store's audit table; without it events are kept in the buffer. */
  store?: AuditEventRepository;
  /** Where the JSON lines go (default stdout). */
  write?: (line: string) => void;
  bufferSize?: number;
  log?: { error(obj: object, msg: string): void };
  now?: () => Date;
}

const NAMED = new Set(['type', 'actor', 'connection', 'result', 'correlationId', 'at', 'id', 'audit']);

export class AuditLog {
  private readonly buffer: AuditRingBuffer;
  private readonly write: (line: string) => void;
  private readonly now: () => Date;

  constructor(private readonly options: AuditLogOptions = {}) {
    this.buffer = new AuditRingBuffer(options.bufferSize ?? 1000);
    this.write = options.write ?? ((line) => process.stdout.write(line));
    this.now = options.now ?? (() => new Date());
  }

  /** `store` when events are kept in server storage, `buffer` when only in this process. */
  get source(): 'store' | 'buffer' {
    return this.options.store ? 'store' : 'buffer';
  }

  /** Shapes an input into a stored event: named fields first, everything sanitized, `at` an ISO instant. */
  normalize(input: AuditInput): AuditEvent {
    const extra: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(input)) if (!NAMED.has(k)) extra[k] = v;
    const at = input.at instanceof Date ? input.at : input.at ? new Date(input.at) : this.now();
    const event: AuditEvent = {
      type: String(input.type).slice(0, 100),
      actor: input.actor == null ? null : String(input.actor).slice(0, 320),
      connection: input.connection == null ? null : String(input.connection).slice(0, 200),
      result: input.result === 'failure' ? 'failure' : 'success',
      ...(sanitizeValue(extra) as Record<string, unknown>),
      at: Number.isNaN(at.getTime()) ? this.now().toISOString() : at.toISOString(),
    };
    if (input.correlationId) event.correlationId = String(input.correlationId).slice(0, 200);
    return event;
  }

  /** The stdout form: `correlationId` printed as `correlation_id`, no storage id. */
  static line(event: AuditEvent): string {
    const { id: _id, correlationId, at, type, actor, connection, result, ...rest } = event;
    const out: Record<string, unknown> = { audit: true, type, actor, connection, result, ...rest };
    if (correlationId !== undefined) out.correlation_id = correlationId;
    out.at = at;
    return `${JSON.stringify(out)}\n`;
  }

  /** Records an authoritative event; never throws (a failed store write is logged and kept in the buffer). */
  async record(input: AuditInput): Promise<AuditEvent> {
    const event = this.normalize(input);
    try {
      this.write(AuditLog.line(event));
    } catch (err) {
      this.options.log?.error({ err }, 'audit line could not be written');
    }
    if (this.options.store) {
      try {
        return { ...event, id: await this.options.store.insert(event) };
      } catch (err) {
        this.options.log?.error({ err, type: event.type }, 'audit event could not be stored; kept in memory');
      }
    }
    this.buffer.push(event);
    return event;
  }

  /** Appends a client-reported event to the in-process buffer only. */
  append(input: AuditInput): AuditEvent {
    const event = this.normalize(input);
    this.buffer.push(event);
    return event;
  }

  /** One page newest first, from the store when there is one (or from the buffer when asked). */
  async query(q: AuditQuery, from: 'store' | 'buffer' = this.source): Promise<AuditPage> {
    const page =
      from === 'store' && this.options.store ? await this.options.store.query(q) : this.buffer.query(q);
    const source = from === 'store' && this.options.store ? 'store' : 'buffer';
    return { events: page.events, total: page.total, limit: q.limit, offset: q.offset, source };
  }
}

export { REDACTED };
