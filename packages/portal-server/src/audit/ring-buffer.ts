// A fixed-capacity ring of audit events, newest overwriting oldest: the in-process audit trail when there is
// no server storage, and where `POST /api/admin/audit` appends.
import { type AuditEvent, type AuditQuery, matchesAuditQuery } from './types.js';

export class AuditRingBuffer {
  private readonly items: (AuditEvent | undefined)[];
  private next = 0;
  private size = 0;

  constructor(readonly capacity = 1000) {
    this.items = new Array(capacity);
  }

  push(event: AuditEvent): void {
    this.items[this.next] = event;
    this.next = (this.next + 1) % this.capacity;
    this.size = Math.min(this.size + 1, this.capacity);
  }

  get length(): number {
    return this.size;
  }

  /** Newest first under the filters; `total` counts every match. */
  query(q: AuditQuery): { events: AuditEvent[]; total: number } {
    const matches: AuditEvent[] = [];
    for (let i = 1; i <= this.size; i++) {
      const event = this.items[(this.next - i + this.capacity) % this.capacity];
      if (event && matchesAuditQuery(event, q)) matches.push(event);
    }
    // Events arrive in time order except when callers pass their own `at`; order by instant to be sure.
    matches.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
    return { events: matches.slice(q.offset, q.offset + q.limit), total: matches.length };
  }
}
